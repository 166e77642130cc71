//! The network's incremental state for one search thread: every cell's feature from
//! both colours' point of view, and their clipped sums over the board. A stone changes
//! the shapes of the cells within `REACH` of it on its four lines and its own cell's:
//! 36 shapes, so `make` and `undo` update those rows instead of the whole board.

use super::file::NetWeights;
use super::inference::{clip, Accumulator};
use super::model::{FEATURES, SCORE_SCALE};
use super::shape::{shape, REACH};
use crate::board::types::{CELLS, DIRS};
use crate::board::{Board, Color, Pos};

/// Cells and directions whose shape a stone on a cell changes.
const TOUCHED: usize = 4 * (2 * REACH + 1);

pub struct NetState<'n> {
    net: &'n NetWeights,
    /// `acc[cell][colour]`: the cell's feature seen by `colour`.
    acc: Box<[[Accumulator; 2]]>,
    /// Per colour, the sum of the clipped features of every cell on the board.
    pool: [[i32; FEATURES]; 2],
    on_board: Box<[bool]>,
    cells: usize,
}

impl<'n> NetState<'n> {
    /// The state of `board`, computed from scratch.
    pub fn new(net: &'n NetWeights, board: &Board) -> NetState<'n> {
        let mut state = NetState {
            net,
            acc: vec![[[0; FEATURES]; 2]; CELLS].into_boxed_slice(),
            pool: [[0; FEATURES]; 2],
            on_board: vec![false; CELLS].into_boxed_slice(),
            cells: 0,
        };
        for p in board.all_cells() {
            state.on_board[p.idx()] = true;
            state.cells += 1;
            for c in Color::BOTH {
                let mut acc = [0i16; FEATURES];
                for d in 0..4 {
                    add_row(&mut acc, &net.shapes[shape(board, p, d, c)], 1);
                }
                for (s, &a) in state.pool[c.idx()].iter_mut().zip(&acc) {
                    *s += clip(a);
                }
                state.acc[p.idx()][c.idx()] = acc;
            }
        }
        state
    }

    pub fn net(&self) -> &'n NetWeights {
        self.net
    }

    /// The cells and directions whose shapes a stone on `p` changes (off-board ones
    /// included: they are skipped).
    #[inline(always)]
    fn touched(p: Pos) -> [(Pos, usize); TOUCHED] {
        let mut out = [(p, 0); TOUCHED];
        let mut i = 0;
        for (d, &step) in DIRS.iter().enumerate() {
            for k in -(REACH as isize)..=REACH as isize {
                out[i] = (p.offset(k * step), d);
                i += 1;
            }
        }
        out
    }

    fn shapes(&self, board: &Board, touched: &[(Pos, usize); TOUCHED]) -> [[u16; 2]; TOUCHED] {
        touched.map(|(q, d)| {
            if self.on_board[q.idx()] {
                Color::BOTH.map(|c| shape(board, q, d, c) as u16)
            } else {
                [0; 2]
            }
        })
    }

    /// Plays `c` on `p` on `board` and updates the state.
    pub fn make(&mut self, board: &mut Board, p: Pos, c: Color) {
        let touched = Self::touched(p);
        let before = self.shapes(board, &touched);
        board.make(p, c);
        self.update(board, &touched, &before);
    }

    /// Takes back `board`'s last move and updates the state.
    pub fn undo(&mut self, board: &mut Board) {
        let Some((p, _)) = board.last_move() else {
            return;
        };
        let touched = Self::touched(p);
        let before = self.shapes(board, &touched);
        board.undo();
        self.update(board, &touched, &before);
    }

    fn update(
        &mut self,
        board: &Board,
        touched: &[(Pos, usize); TOUCHED],
        before: &[[u16; 2]; TOUCHED],
    ) {
        let after = self.shapes(board, touched);
        for (i, &(q, _)) in touched.iter().enumerate() {
            for c in 0..2 {
                let (old, new) = (before[i][c] as usize, after[i][c] as usize);
                if old == new {
                    continue;
                }
                let acc = &mut self.acc[q.idx()][c];
                let pool = &mut self.pool[c];
                for k in 0..FEATURES {
                    let was = acc[k];
                    let now = was
                        .wrapping_add(self.net.shapes[new][k])
                        .wrapping_sub(self.net.shapes[old][k]);
                    acc[k] = now;
                    pool[k] += clip(now) - clip(was);
                }
            }
        }
    }

    /// The value logit for the side to move.
    pub fn value(&self, board: &Board) -> f32 {
        self.net
            .value_from_pool(&self.pool[board.to_move().idx()], self.cells)
    }

    /// The evaluation in the search's units for the side to move.
    pub fn evaluate(&self, board: &Board) -> i32 {
        (self.value(board) * SCORE_SCALE).clamp(-20_000.0, 20_000.0) as i32
    }

    /// The policy logit of empty cell `p` for the side to move.
    pub fn policy(&self, board: &Board, p: Pos) -> f32 {
        self.net.policy(&self.acc[p.idx()][board.to_move().idx()])
    }
}

#[inline(always)]
fn add_row(acc: &mut Accumulator, row: &Accumulator, sign: i16) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w.wrapping_mul(sign));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;
    use crate::net::model::Model;
    use crate::rng::Rng;

    /// After long random sequences of moves and take-backs on every rule and several
    /// sizes, the incremental state equals one computed from scratch.
    #[test]
    fn incremental_state_equals_a_recompute() {
        let mut model = Model::random(4);
        model.shapes.iter_mut().flatten().for_each(|v| *v *= 6.0);
        let mut rng = Rng::new(99);
        for rule in Rule::ALL {
            let net = NetWeights::quantize(&model, rule);
            for (w, h) in [(15, 15), (20, 20), (5, 5), (32, 32), (19, 7)] {
                let mut board = Board::new(w, h, rule).unwrap();
                let mut state = NetState::new(&net, &board);
                for step in 0..300 {
                    let empty: Vec<Pos> =
                        board.all_cells().filter(|&p| board.is_empty(p)).collect();
                    if board.move_count() > 0 && (empty.is_empty() || rng.chance(1, 3)) {
                        state.undo(&mut board);
                    } else {
                        let p = *rng.pick(&empty);
                        let c = board.to_move();
                        state.make(&mut board, p, c);
                    }
                    if step % 10 == 0 {
                        let fresh = NetState::new(&net, &board);
                        assert_eq!(state.pool, fresh.pool, "{rule:?} {w}x{h} step {step}");
                        assert_eq!(state.acc, fresh.acc);
                        assert_eq!(state.value(&board), net.evaluate(&board));
                    }
                }
            }
        }
    }
}
