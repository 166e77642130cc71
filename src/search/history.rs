//! The butterfly history of one search thread: per cell and colour, how much a quiet
//! move there has refuted positions (beta cut-offs), weighted by depth. It adds to the
//! ordering score of every move at the cell.
//!
//! It is kept as the one history of the search: neither its gain nor the richer
//! histories tried beside it are shown against PentaZen (evidence:
//! docs/strength-log.md, "History").

use crate::board::types::CELLS;
use crate::board::{Color, Pos};

use super::params::{
    HISTORY_AGE_LIMIT as AGE_LIMIT, HISTORY_BONUS, HISTORY_ORDER_DIVISOR as ORDER_DIVISOR,
};

pub struct History {
    table: Vec<[i32; 2]>,
}

impl History {
    pub fn new() -> Self {
        History {
            table: vec![[0; 2]; CELLS],
        }
    }

    /// The ordering bonus of a move by `c` at `p`.
    #[inline(always)]
    pub fn order_bonus(&self, p: Pos, c: Color) -> i32 {
        self.table[p.idx()][c.idx()] / ORDER_DIVISOR
    }

    /// A quiet move of `c` at `p` cut off at `depth`: it gains depth squared, times
    /// `HISTORY_BONUS`. Only the cut-off move is rewarded, and the table starts empty
    /// at each search: a malus for the moves before it and a table kept between
    /// searches played no better (evidence: docs/strength-log.md,
    /// "History").
    pub fn reward(&mut self, p: Pos, c: Color, depth: i32) {
        let e = &mut self.table[p.idx()][c.idx()];
        *e += depth * depth * HISTORY_BONUS;
        if *e > AGE_LIMIT {
            for e in self.table.iter_mut() {
                e[0] /= 2;
                e[1] /= 2;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_rewards_its_cell_and_colour_by_depth() {
        let mut h = History::new();
        let (a, b) = (Pos(10), Pos(11));
        h.reward(a, Color::Black, 8);
        h.reward(a, Color::Black, 8);
        assert_eq!(
            h.order_bonus(a, Color::Black),
            2 * 8 * 8 * 16 / ORDER_DIVISOR
        );
        assert_eq!(h.order_bonus(a, Color::White), 0);
        assert_eq!(h.order_bonus(b, Color::Black), 0);
    }

    #[test]
    fn the_table_halves_when_an_entry_grows_too_large() {
        let mut h = History::new();
        let (a, b) = (Pos(20), Pos(21));
        h.reward(b, Color::White, 10);
        let before = h.table[b.idx()][Color::White.idx()];
        while h.table[a.idx()][Color::White.idx()] <= AGE_LIMIT - 30 * 30 * 16 {
            h.reward(a, Color::White, 30);
        }
        h.reward(a, Color::White, 30);
        assert!(h.table[a.idx()][Color::White.idx()] <= AGE_LIMIT);
        assert_eq!(h.table[b.idx()][Color::White.idx()], before / 2);
    }
}
