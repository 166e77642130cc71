//! Renju forbidden points for Black: overline, double four, double three, where a
//! three counts only if it can become a straight four by a move that is itself not
//! forbidden (the recursive check of the Gomocup/Piskvork referee). A move that makes
//! an exact five is never forbidden.

use super::pattern::Pattern;
use super::pattern_board::Board;
use super::types::{Cell, Color, Pos, DIRS};

/// Whether `p` is a forbidden point for `us` (renju Black's are never played or
/// searched); cheap where the rule forbids nothing or no line there needs the check.
#[inline]
pub fn us_may_not_play(board: &mut Board, us: Color, p: Pos) -> bool {
    board.rule().has_forbidden(us) && board.needs_forbid_check(us, p) && board.is_forbidden(p)
}

/// Kind of a forbidden point, strongest first as the referee names them.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ForbidKind {
    Overline,
    DoubleFour,
    DoubleThree,
}

impl ForbidKind {
    pub fn name(self) -> &'static str {
        match self {
            ForbidKind::Overline => "overline",
            ForbidKind::DoubleFour => "double-four",
            ForbidKind::DoubleThree => "double-three",
        }
    }
}

impl Board {
    /// Whether Black playing the empty cell `p` is forbidden under the board's rule.
    pub fn is_forbidden(&mut self, p: Pos) -> bool {
        self.forbid_kind(p).is_some()
    }

    /// Why Black may not play the empty cell `p`, if it may not.
    pub fn forbid_kind(&mut self, p: Pos) -> Option<ForbidKind> {
        if !self.rule().has_forbidden(Color::Black) || !self.is_empty(p) {
            return None;
        }
        if !self.needs_forbid_check(Color::Black, p) {
            return None;
        }
        let pats = [0, 1, 2, 3].map(|d| self.pattern(Color::Black, p, d));
        if pats.contains(&Pattern::OVERLINE) {
            return Some(ForbidKind::Overline);
        }
        if pats.iter().map(|p| p.four_count()).sum::<u32>() >= 2 {
            return Some(ForbidKind::DoubleFour);
        }
        let three_dirs: Vec<usize> = (0..4).filter(|&d| pats[d] == Pattern::F3).collect();
        if three_dirs.len() >= 2 && self.real_three_count(p, &three_dirs) >= 2 {
            return Some(ForbidKind::DoubleThree);
        }
        None
    }

    /// How many of the threes Black makes at the empty cell `p` are real (below).
    pub fn real_threes(&mut self, p: Pos) -> usize {
        let dirs: Vec<usize> = (0..4)
            .filter(|&d| self.pattern(Color::Black, p, d) == Pattern::F3)
            .collect();
        if dirs.is_empty() {
            return 0;
        }
        self.real_three_count(p, &dirs)
    }

    /// How many of the threes Black makes at `p` (in `dirs`) are real: after the
    /// stone, a point on that line makes a straight four with `p` in it and is not
    /// forbidden. Such a point is the first empty cell each way past `p`'s stones: a
    /// straight four further out, of an older three on the same line, is not `p`'s.
    fn real_three_count(&mut self, p: Pos, dirs: &[usize]) -> usize {
        self.make(p, Color::Black);
        let mut real = 0;
        for &d in dirs {
            let step = DIRS[d];
            let found = [-1, 1].into_iter().any(|sign| {
                let mut e = p.offset(sign * step);
                for _ in 0..4 {
                    if self.cell(e) != Cell::Black {
                        break;
                    }
                    e = e.offset(sign * step);
                }
                self.is_empty(e)
                    && self.pattern(Color::Black, e, d) == Pattern::F4
                    && !self.is_forbidden(e)
            });
            if found {
                real += 1;
            }
        }
        self.undo();
        real
    }

    /// Every forbidden point for Black, row by row.
    pub fn forbidden_points(&mut self) -> Vec<Pos> {
        let cells: Vec<Pos> = self.all_cells().collect();
        cells
            .into_iter()
            .filter(|&p| self.is_forbidden(p))
            .collect()
    }
}
