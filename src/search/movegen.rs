//! Threat-aware move generation and ordering.
//!
//! The opponent's threats decide which moves are worth searching: a four must be
//! blocked, an open three answered by a defence or a counter-four, a four-three point
//! by a defence, a counter-four or a counter-three; only when nothing is threatened
//! are all candidate moves searched.

use super::params::{ATTACK, DEFEND, MIN_SHAPED_MOVES, THEIR_CELL_SCORE_DIVISOR};
use crate::board::{us_may_not_play, Board, Pos, Threat};

/// What a position demands of the side to move.
pub enum Moves {
    /// The side to move completes a five with this move.
    Win(Pos),
    /// The opponent has two or more five points, or one we may not block: lost.
    Lost,
    /// The opponent has one five point: this is the only move.
    Block(Pos),
    /// Moves to search, best first (scores parallel to moves).
    List(Vec<(Pos, i32)>),
}

/// Generates the moves of the side to move. `history` adds ordering bonuses.
pub fn generate(board: &mut Board, history: &dyn Fn(Pos) -> i32) -> Moves {
    match forced_moves(board) {
        Some(Forced::Win(p)) => Moves::Win(p),
        Some(Forced::Lost) => Moves::Lost,
        Some(Forced::Block(p)) => Moves::Block(p),
        Some(Forced::Blocks(ps)) => Moves::List(ps.into_iter().map(|p| (p, 0)).collect()),
        None => Moves::List(move_list(board, history)),
    }
}

/// What fives on the board decide: the forced cases of [`Moves`].
pub enum Forced {
    Win(Pos),
    Lost,
    Block(Pos),
    /// Caro: several moves answer the opponent's five points (`caro_answers_to_fives`).
    Blocks(Vec<Pos>),
}

/// What fives on the board decide, from the threat counts alone: our five, the
/// opponent's five(s) to block. `None` when the position needs a move list.
pub fn forced_moves(board: &mut Board) -> Option<Forced> {
    let us = board.to_move();
    let them = us.opp();
    if board.threat_count(us, Threat::FIVE) > 0 {
        if let Some(p) = board.cells_with_threat(us, Threat::FIVE).next() {
            return Some(Forced::Win(p));
        }
    }
    let their_fives = board.threat_count(them, Threat::FIVE);
    if their_fives > 0 && board.rule().blocked_five_loses() {
        let mut answers = board.caro_answers_to_fives(them);
        return Some(match answers.len() {
            0 => Forced::Lost,
            1 => Forced::Block(answers.remove(0)),
            _ => Forced::Blocks(answers),
        });
    }
    if their_fives > 0 {
        if their_fives > 1 {
            return Some(Forced::Lost);
        }
        let block = board.cells_with_threat(them, Threat::FIVE).next();
        return Some(match block {
            Some(p) if board.is_legal(us, p) => Forced::Block(p),
            _ => Forced::Lost,
        });
    }
    None
}

/// The moves worth searching when no five decides, best first: under threat only our
/// fours (and, against a four-three point, our open threes) and the points on the
/// opponent's threat lines.
pub fn move_list(board: &mut Board, history: impl Fn(Pos) -> i32) -> Vec<(Pos, i32)> {
    let mut list = Vec::new();
    scored_moves(board, history, &mut Vec::new(), &mut list);
    list.sort_by_key(|e| std::cmp::Reverse(e.1));
    list
}

/// [`move_list`]'s moves with their ordering scores into `out` (cleared first), in
/// candidate order (row by row): the search orders them lazily (`search::picker`).
/// `cands` is scratch space.
pub fn scored_moves(
    board: &mut Board,
    history: impl Fn(Pos) -> i32,
    cands: &mut Vec<Pos>,
    out: &mut Vec<(Pos, i32)>,
) {
    let us = board.to_move();
    let them = us.opp();
    let their_strong = board.threat_count(them, Threat::FLEX4) > 0;
    let their_four_three = board.threat_count(them, Threat::BLOCK4_FLEX3) > 0;
    // Under threat, the least threat of ours and the least threat of theirs that keep
    // a cell in the list (ours: a counter-attack; theirs: a point on their threat
    // lines, i.e. a defence).
    let floors = if their_strong {
        // Against an open three only a four comes first.
        Some((Threat::BLOCK4, Threat::BLOCK4))
    } else if their_four_three {
        // Against a four-three point an open three of ours may win: the block of their
        // four can become a four of ours (the tempo back), or two threes of ours
        // outrun their one. Two game positions against PentaZen
        // (`tests/selective_soundness.rs`) were misjudged without them: a lost
        // position was scored +440, and an attack a win in 23 that a double three
        // refutes. The defences go down to the points where they make a closed
        // three: the one defence of another game position gave them less than an
        // open three, and with it left out the search called a refutable attack a
        // win in 13.
        Some((Threat::FLEX3, Threat::BLOCK3))
    } else {
        None
    };
    cands.clear();
    board.candidates_into(cands);
    // Cells where neither side makes even a two are not worth searching once enough
    // cells are (pattern engines' usual candidate filter). Shaped cells fill the list
    // from the front and the others from the back, every entry written to both ends
    // and only one end moved: whether a cell is shaped is data the branch predictor
    // cannot learn, and a branch on it (`retain` over the list) cost 6 % of the
    // search's time (`perf`, `bench 13`).
    out.clear();
    out.resize(cands.len(), (Pos::NONE, 0));
    let (mut front, mut back) = (0, cands.len());
    for &p in cands.iter() {
        let mine = board.threat(us, p);
        let theirs = board.threat(them, p);
        if let Some((attack_floor, defence_floor)) = floors {
            if mine < attack_floor && theirs < defence_floor {
                continue;
            }
        }
        if us_may_not_play(board, us, p) {
            continue;
        }
        let score = ATTACK[mine.0 as usize]
            + DEFEND[theirs.0 as usize]
            + board.cell_score(us, p)
            + board.cell_score(them, p) / THEIR_CELL_SCORE_DIVISOR
            + history(p);
        // front < back here: fewer entries than candidates are written so far.
        let shaped = is_shaped(mine, theirs);
        out[back - 1] = (p, score);
        out[front] = (p, score);
        front += shaped as usize;
        back -= !shaped as usize;
    }
    if front >= MIN_SHAPED_MOVES {
        out.truncate(front);
    } else {
        // Every cell stays, in the candidates' order (row by row: by index).
        out.drain(front..back);
        out.sort_unstable_by_key(|&(p, _)| p.0);
    }
}

/// Whether either side makes at least a two on a cell, from both sides' threat classes
/// there (the loop above has them already; looking them up again cost a board read).
#[inline(always)]
fn is_shaped(mine: Threat, theirs: Threat) -> bool {
    (mine != Threat::NONE) | (theirs != Threat::NONE)
}

/// Any legal move for the side to move, for when the search has nothing better (board
/// almost full, or every candidate forbidden); when every empty cell is forbidden
/// (renju's Black), the first empty cell: the protocol must answer something.
pub fn any_legal_move(board: &mut Board) -> Option<Pos> {
    legal_move_nearest_centre(board).or_else(|| board.all_cells().find(|&p| board.is_empty(p)))
}

/// The legal move of the side to move nearest the centre; `None` when it has none.
pub fn legal_move_nearest_centre(board: &mut Board) -> Option<Pos> {
    legal_move_nearest_centre_but(board, &[])
}

/// The legal move of the side to move nearest the centre that is not in `excluded`.
pub fn legal_move_nearest_centre_but(board: &mut Board, excluded: &[Pos]) -> Option<Pos> {
    let us = board.to_move();
    let centre = board.center();
    let dist = |p: Pos| {
        (p.x() as i64 - centre.x() as i64).abs() + (p.y() as i64 - centre.y() as i64).abs()
    };
    let mut by_centre: Vec<Pos> = board
        .all_cells()
        .filter(|&p| board.is_empty(p) && !excluded.contains(&p))
        .collect();
    by_centre.sort_by_key(|&p| dist(p));
    by_centre.into_iter().find(|&p| board.is_legal(us, p))
}

/// A legal straight four (or double four) of the side to move: with no five of the
/// opponent on the board, it wins in three plies.
pub fn winning_flex4(board: &mut Board) -> Option<Pos> {
    let us = board.to_move();
    if board.threat_count(us, Threat::FLEX4) == 0 {
        return None;
    }
    let cells: Vec<Pos> = board.cells_with_threat(us, Threat::FLEX4).collect();
    cells
        .into_iter()
        .find(|&p| board.threat(us, p) == Threat::FLEX4 && !us_may_not_play(board, us, p))
}

/// A move that wins by force without search, with the plies to the five: a straight
/// four (3 plies), or, when the opponent cannot make a four at all, a four-three or a
/// double three (5 plies). The last two are the classic quick-win rules of pattern
/// engines: they hold unless a forced block happens to give the opponent a four. For
/// renju's Black a three may be fake (its straight four forbidden): a four-three wins
/// only with a real three, and a double three never (with two real threes it would be
/// forbidden).
pub fn quick_win(board: &mut Board) -> Option<(Pos, usize)> {
    if let Some(p) = winning_flex4(board) {
        return Some((p, 3));
    }
    let us = board.to_move();
    let them = us.opp();
    if board.threat_count_at_least(them, Threat::BLOCK4) > 0 {
        return None;
    }
    let forbids = board.rule().has_forbidden(us);
    let kinds: &[Threat] = if forbids {
        &[Threat::BLOCK4_FLEX3]
    } else {
        &[Threat::BLOCK4_FLEX3, Threat::FLEX3_2X]
    };
    for &t in kinds {
        if board.threat_count(us, t) == 0 {
            continue;
        }
        let cells: Vec<Pos> = board.cells_with_threat(us, t).collect();
        if let Some(p) = cells.into_iter().find(|&p| {
            board.threat(us, p) == t
                && !us_may_not_play(board, us, p)
                && (!forbids || board.real_threes(p) > 0)
        }) {
            return Some((p, 5));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Rule};
    use crate::tools::sample::Lcg;

    /// Renju's Black cannot move when the only empty cell is an overline: self-play
    /// ends that game as a draw, the protocol still answers a cell.
    #[test]
    fn black_has_no_legal_move_when_the_last_cell_is_an_overline() {
        let rows = ["BBB.BB", "WWBBWW", "BBWWBB", "WWBBWW", "BBWWBB"];
        let mut board = Board::new(6, 5, Rule::Renju).unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, cell) in row.chars().enumerate() {
                let c = match cell {
                    'B' => Color::Black,
                    'W' => Color::White,
                    _ => continue,
                };
                board.make(board.pos(x as i64, y as i64).unwrap(), c);
            }
        }
        let last = board.pos(3, 0);
        board.set_to_move(Color::Black);
        assert_eq!(legal_move_nearest_centre(&mut board), None);
        assert_eq!(any_legal_move(&mut board), last);
        board.set_to_move(Color::White);
        assert_eq!(legal_move_nearest_centre(&mut board), last);
        let mut freestyle = board.with_rule(Rule::Freestyle);
        freestyle.set_to_move(Color::Black);
        assert_eq!(legal_move_nearest_centre(&mut freestyle), last);
    }

    /// The move list of a position without a threat the floors answer: the shaped
    /// candidates when there are `MIN_SHAPED_MOVES` of them, else every candidate, in
    /// the candidates' order either way (the single-pass partition must keep both).
    #[test]
    fn shaped_cells_are_kept_in_candidate_order() {
        let mut lcg = Lcg::new(7);
        let mut rand = |n: usize| lcg.next() % n;
        let (mut filtered, mut unfiltered) = (0, 0);
        for round in 0..400 {
            let size = if round % 2 == 0 { 6 } else { 15 };
            let mut board = Board::new(size, size, Rule::Freestyle).unwrap();
            for _ in 0..1 + rand(if size == 6 { 4 } else { 12 }) {
                let p = Pos::from_xy(rand(size), rand(size));
                if board.is_empty(p) {
                    board.make(p, board.to_move());
                }
            }
            let us = board.to_move();
            let them = us.opp();
            let threatened = board.threat_count(them, Threat::FLEX4) > 0
                || board.threat_count(them, Threat::BLOCK4_FLEX3) > 0;
            if threatened || forced_moves(&mut board).is_some() {
                continue;
            }
            let (mut cands, mut out) = (Vec::new(), Vec::new());
            scored_moves(&mut board, |_| 0, &mut cands, &mut out);
            let all: Vec<Pos> = board.candidates().collect();
            let shaped: Vec<Pos> = all
                .iter()
                .copied()
                .filter(|&p| is_shaped(board.threat(us, p), board.threat(them, p)))
                .collect();
            let expected = if shaped.len() >= MIN_SHAPED_MOVES {
                filtered += 1;
                shaped
            } else {
                unfiltered += 1;
                all
            };
            let listed: Vec<Pos> = out.iter().map(|&(p, _)| p).collect();
            assert_eq!(listed, expected, "round {round}");
        }
        // Both paths were taken.
        assert!(
            filtered > 20 && unfiltered > 20,
            "{filtered} / {unfiltered}"
        );
    }
}
