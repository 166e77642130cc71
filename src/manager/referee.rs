//! The referee: judges each move with the engine's own rules code
//! ([`Board::is_win_move`], [`Board::forbid_kind`]) and decides how a game ends.

use std::fmt;

use anyhow::{bail, Context, Result};

use crate::board::{Board, Color, ForbidKind, Pos, Rule};

/// The four line directions as (dx, dy), in the order of `board::types::DIRS`.
const LINES: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// Why a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    Five,
    /// Off the board or on an occupied point; the move as the engine wrote it.
    Illegal(String),
    /// Renju: Black's forbidden point and its kind (`double-three`, ...).
    Forbidden(String, &'static str),
    TimeForfeit,
    Crash,
    FullBoard,
    DrawAfter(usize),
}

impl Reason {
    /// The reason without its move, for per-reason counts.
    pub fn kind(&self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::Illegal(_) => "illegal move",
            Reason::Forbidden(..) => "forbidden move",
            Reason::TimeForfeit => "time forfeit",
            Reason::Crash => "crash",
            Reason::FullBoard => "full board",
            Reason::DrawAfter(_) => "draw after",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Illegal(m) => write!(f, "illegal move {m}"),
            Reason::Forbidden(m, kind) => write!(f, "forbidden move {m} ({kind})"),
            Reason::DrawAfter(n) => write!(f, "draw after {n}"),
            other => f.write_str(other.kind()),
        }
    }
}

/// The result of a finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: Reason,
}

impl Verdict {
    pub fn win(winner: Color, reason: Reason) -> Verdict {
        Verdict {
            winner: Some(winner),
            reason,
        }
    }

    pub fn loss(loser: Color, reason: Reason) -> Verdict {
        Verdict::win(loser.opp(), reason)
    }

    /// `1-0` (Black won), `0-1` or `1/2`, Black first as in c-gomoku-cli.
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2",
        }
    }
}

/// The game position and the rules.
pub struct Referee {
    board: Board,
    draw_after: Option<usize>,
}

impl Referee {
    /// A square board of `size` under the Gomocup `rule` value (0, 1, 4, 8, 9).
    pub fn new(size: usize, rule: i64, draw_after: Option<usize>) -> Result<Referee> {
        let rule = Rule::from_gomocup(rule).with_context(|| format!("unknown rule {rule}"))?;
        Ok(Referee {
            board: Board::new(size, size, rule)?,
            draw_after,
        })
    }

    /// Places opening stones (Black first); each must be a legal move that does not
    /// end the game.
    pub fn place_opening(&mut self, stones: &[(usize, usize)]) -> Result<()> {
        for &(x, y) in stones {
            if let Some(v) = self.play(x as i64, y as i64) {
                bail!("opening stone {x},{y} ends the game: {}", v.reason);
            }
        }
        Ok(())
    }

    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }

    /// Stones on the board in game order.
    pub fn moves(&self) -> Vec<(usize, usize)> {
        self.board
            .history()
            .iter()
            .map(|&(p, _)| (p.x(), p.y()))
            .collect()
    }

    pub fn stone_count(&self) -> usize {
        self.board.move_count()
    }

    pub fn size(&self) -> usize {
        self.board.width()
    }

    pub fn rule(&self) -> Rule {
        self.board.rule()
    }

    /// Takes back the last stone; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        let any = self.board.move_count() > 0;
        if any {
            self.board.undo();
        }
        any
    }

    /// Why the side to move may not play `x,y` (off the board, occupied, or renju
    /// Black's forbidden point), for a player who should be told rather than lose.
    pub fn refusal(&mut self, x: i64, y: i64) -> Option<String> {
        let Some(p) = self.board.pos(x, y) else {
            return Some(format!("{x},{y} is off the board"));
        };
        if !self.board.is_empty(p) {
            return Some(format!("{} is taken", p.notation()));
        }
        let kind = self.foul(x, y)?;
        Some(format!(
            "{} is forbidden for Black ({})",
            p.notation(),
            kind.name()
        ))
    }

    /// Why Black's stone on `x,y` would be a foul (a forbidden point that does not win),
    /// or `None`.
    pub fn foul(&mut self, x: i64, y: i64) -> Option<ForbidKind> {
        let p = self.board.pos(x, y).filter(|&p| self.board.is_empty(p))?;
        if self.to_move() != Color::Black || self.board.is_win_move(Color::Black, p) {
            return None;
        }
        self.board.forbid_kind(p)
    }

    /// Black's renju forbidden points (none under the other rules) and why.
    pub fn forbidden_points(&mut self) -> Vec<((usize, usize), ForbidKind)> {
        let cells: Vec<Pos> = self.board.all_cells().collect();
        cells
            .into_iter()
            .filter_map(|p| Some(((p.x(), p.y()), self.board.forbid_kind(p)?)))
            .collect()
    }

    /// The row of stones through the last move that won: the last stone's longest
    /// line in its colour, five or more (empty when it makes none).
    pub fn winning_line(&self) -> Vec<(usize, usize)> {
        let Some((last, color)) = self.board.last_move() else {
            return Vec::new();
        };
        let same = |x: i64, y: i64| {
            self.board
                .pos(x, y)
                .is_some_and(|p| self.board.cell(p) == color.cell())
        };
        let (x0, y0) = (last.x() as i64, last.y() as i64);
        let mut best: Vec<(usize, usize)> = Vec::new();
        for (dx, dy) in LINES {
            let mut line = vec![(x0, y0)];
            for sign in [-1, 1] {
                let (mut x, mut y) = (x0 + sign * dx, y0 + sign * dy);
                while same(x, y) {
                    line.push((x, y));
                    (x, y) = (x + sign * dx, y + sign * dy);
                }
            }
            // Under an exact-five rule the five, not a longer line beside it.
            let exact = self.board.rule().needs_exact_five(color);
            let fits = if exact {
                line.len() == 5
            } else {
                line.len() >= 5
            };
            if fits && line.len() > best.len() {
                line.sort_unstable();
                best = line
                    .iter()
                    .map(|&(x, y)| (x as usize, y as usize))
                    .collect();
            }
        }
        best
    }

    /// A draw due before the next move: full board or the `--draw-after` stone count.
    pub fn draw_due(&self) -> Option<Verdict> {
        let size = self.board.width() * self.board.height();
        let stones = self.board.move_count();
        let reason = if stones >= size {
            Reason::FullBoard
        } else if self.draw_after.is_some_and(|n| stones >= n) {
            Reason::DrawAfter(stones)
        } else {
            return None;
        };
        Some(Verdict {
            winner: None,
            reason,
        })
    }

    /// The side to move plays `x,y`. Returns the verdict if the move ends the game
    /// (the move is then on the board unless it was illegal); draws are asked
    /// separately with [`Referee::draw_due`].
    pub fn play(&mut self, x: i64, y: i64) -> Option<Verdict> {
        let color = self.to_move();
        let text = format!("{x},{y}");
        let Some(p) = self.board.pos(x, y).filter(|&p| self.board.is_empty(p)) else {
            return Some(Verdict::loss(color, Reason::Illegal(text)));
        };
        // A win is checked first: a renju exact five wins even on a forbidden shape.
        if self.board.is_win_move(color, p) {
            self.board.make(p, color);
            return Some(Verdict::win(color, Reason::Five));
        }
        if color == Color::Black {
            if let Some(kind) = self.board.forbid_kind(p) {
                self.board.make(p, color);
                return Some(Verdict::loss(color, Reason::Forbidden(text, kind.name())));
            }
        }
        self.board.make(p, color);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn referee(rule: i64, moves: &[(usize, usize)]) -> Referee {
        let mut r = Referee::new(15, rule, None).unwrap();
        r.place_opening(moves).unwrap();
        r
    }

    #[test]
    fn five_wins() {
        // Black on row 7 from x=3..6, White on row 8.
        let mut r = referee(
            0,
            &[
                (3, 7),
                (3, 8),
                (4, 7),
                (4, 8),
                (5, 7),
                (5, 8),
                (6, 7),
                (6, 8),
            ],
        );
        assert_eq!(r.play(7, 7), Some(Verdict::win(Color::Black, Reason::Five)));
        assert_eq!(r.stone_count(), 9);
    }

    #[test]
    fn illegal_moves_lose() {
        let mut r = referee(0, &[(7, 7)]);
        let v = r.play(7, 7).unwrap();
        assert_eq!(
            v,
            Verdict::loss(Color::White, Reason::Illegal("7,7".into()))
        );
        assert_eq!(v.to_string_pair(), ("1-0", "illegal move 7,7".to_string()));
        assert_eq!(
            r.play(15, 0),
            Some(Verdict::loss(Color::White, Reason::Illegal("15,0".into())))
        );
        assert_eq!(
            r.play(-1, 3),
            Some(Verdict::loss(Color::White, Reason::Illegal("-1,3".into())))
        );
        assert_eq!(r.stone_count(), 1);
    }

    /// Black stones 8,7 9,7 7,8 7,9 (White far away): 7,7 makes two open threes.
    const DOUBLE_THREE: [(usize, usize); 8] = [
        (8, 7),
        (0, 0),
        (9, 7),
        (14, 0),
        (7, 8),
        (0, 14),
        (7, 9),
        (14, 14),
    ];

    #[test]
    fn renju_double_three_is_forbidden() {
        let mut r = referee(4, &DOUBLE_THREE);
        let v = r.play(7, 7).unwrap();
        assert_eq!(
            v,
            Verdict::loss(
                Color::Black,
                Reason::Forbidden("7,7".into(), "double-three")
            )
        );
        assert_eq!(v.to_string_pair().1, "forbidden move 7,7 (double-three)");
        // Freestyle: the same move is fine.
        let mut r = referee(0, &DOUBLE_THREE);
        assert_eq!(r.play(7, 7), None);
    }

    #[test]
    fn renju_overline_is_no_five_for_black_but_is_for_white() {
        // Black 2,7 3,7 4,7 _ 6,7 7,7: 5,7 makes six.
        let black = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)];
        let white = [(2, 0), (4, 0), (6, 0), (8, 0), (10, 0)];
        let mut stones = Vec::new();
        for i in 0..5 {
            stones.push(black[i]);
            stones.push(white[i]);
        }
        let mut r = referee(4, &stones);
        let v = r.play(5, 7).unwrap();
        assert_eq!(v.winner, Some(Color::White));
        assert_eq!(v.reason.kind(), "forbidden move");
        // Freestyle: six wins.
        let mut r = referee(0, &stones);
        assert_eq!(r.play(5, 7), Some(Verdict::win(Color::Black, Reason::Five)));
        // Standard: six is just a move.
        let mut r = referee(1, &stones);
        assert_eq!(r.play(5, 7), None);
    }

    #[test]
    fn draws() {
        let mut r = Referee::new(15, 0, Some(3)).unwrap();
        r.place_opening(&[(0, 0), (1, 0)]).unwrap();
        assert_eq!(r.draw_due(), None);
        assert_eq!(r.play(2, 0), None);
        assert_eq!(r.draw_due().unwrap().reason, Reason::DrawAfter(3));
        assert_eq!(r.draw_due().unwrap().result_text(), "1/2");
    }

    #[test]
    fn opening_that_wins_is_rejected() {
        let mut r = Referee::new(15, 0, None).unwrap();
        let stones = [
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
            (2, 0),
            (2, 1),
            (3, 0),
            (3, 1),
            (4, 0),
        ];
        assert!(r.place_opening(&stones).is_err());
        let mut r = Referee::new(15, 0, None).unwrap();
        assert!(r.place_opening(&[(3, 3), (3, 3)]).is_err());
    }

    impl Verdict {
        fn to_string_pair(&self) -> (&'static str, String) {
            (self.result_text(), self.reason.to_string())
        }
    }
}
