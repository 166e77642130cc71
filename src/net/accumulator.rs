//! The network's incremental state for one search thread: every cell's feature and
//! their clipped sum over the board. A stone changes the shapes of the cells within
//! `REACH` of it on its four lines and its own cell's (36 shapes), so `make` moves
//! those rows instead of recomputing the board, and keeps the shapes it saw so that
//! `undo` moves them back without reading the board again.

use std::sync::LazyLock;

use super::file::NetWeights;
use super::inference::{clip, Accumulator};
use super::model::{FEATURES, SCORE_SCALE, VIEW};
use super::shape::{shape, REACH};
use crate::board::types::{CELLS, DIRS};
use crate::board::{Board, Color, Pos};
use crate::search::score::MAX_PLY;

/// Cells and directions whose shape a stone on a cell changes.
const TOUCHED: usize = 4 * (2 * REACH + 1);

/// The shapes a move changed: where, before and after.
#[derive(Clone, Copy)]
struct Change {
    cells: [u16; TOUCHED],
    dirs: [u8; TOUCHED],
    before: [u16; TOUCHED],
    after: [u16; TOUCHED],
    len: u8,
}

pub struct NetState<'n> {
    net: &'n NetWeights,
    /// `acc[cell]`: the cell's feature.
    acc: Box<[Accumulator]>,
    /// `shapes[cell][direction]`: the shapes the features are made of.
    shapes: Box<[[u16; 4]]>,
    /// The sum of the clipped features of every cell on the board.
    pool: [i32; FEATURES],
    on_board: Box<[bool]>,
    cells: usize,
    /// One entry per move made and not taken back.
    changes: Vec<Change>,
}

/// `OFFSETS[i]`: the index step and direction of touched cell `i` from the stone.
static OFFSETS: LazyLock<[(isize, usize); TOUCHED]> = LazyLock::new(|| {
    let mut out = [(0, 0); TOUCHED];
    let mut i = 0;
    for (d, &step) in DIRS.iter().enumerate() {
        for k in -(REACH as isize)..=REACH as isize {
            out[i] = (k * step, d);
            i += 1;
        }
    }
    out
});

impl<'n> NetState<'n> {
    /// The state of `board`, computed from scratch.
    pub fn new(net: &'n NetWeights, board: &Board) -> NetState<'n> {
        let mut state = NetState {
            net,
            acc: vec![[0; FEATURES]; CELLS].into_boxed_slice(),
            shapes: vec![[0; 4]; CELLS].into_boxed_slice(),
            pool: [0; FEATURES],
            on_board: vec![false; CELLS].into_boxed_slice(),
            cells: 0,
            changes: Vec::with_capacity(MAX_PLY + 8),
        };
        for p in board.all_cells() {
            state.on_board[p.idx()] = true;
            state.cells += 1;
            state.shapes[p.idx()] = std::array::from_fn(|d| shape(board, p, d, VIEW) as u16);
            let acc = net.cell_feature(board, p);
            for (s, &a) in state.pool.iter_mut().zip(&acc) {
                *s += clip(a);
            }
            state.acc[p.idx()] = acc;
        }
        state
    }

    /// Plays `c` on `p` on `board` and updates the state.
    pub fn make(&mut self, board: &mut Board, p: Pos, c: Color) {
        let mut change = Change {
            cells: [0; TOUCHED],
            dirs: [0; TOUCHED],
            before: [0; TOUCHED],
            after: [0; TOUCHED],
            len: 0,
        };
        board.make(p, c);
        let mut n = 0;
        for &(offset, d) in OFFSETS.iter() {
            let q = p.offset(offset);
            if self.on_board[q.idx()] {
                let cached = &mut self.shapes[q.idx()][d];
                change.cells[n] = q.0;
                change.dirs[n] = d as u8;
                change.before[n] = *cached;
                *cached = shape(board, q, d, VIEW) as u16;
                change.after[n] = *cached;
                n += 1;
            }
        }
        change.len = n as u8;
        self.apply(&change.cells[..n], &change.before[..n], &change.after[..n]);
        self.changes.push(change);
    }

    /// Takes back `board`'s last move and updates the state.
    pub fn undo(&mut self, board: &mut Board) {
        board.undo();
        if let Some(change) = self.changes.pop() {
            let n = change.len as usize;
            for i in 0..n {
                self.shapes[change.cells[i] as usize][change.dirs[i] as usize] = change.before[i];
            }
            self.apply(&change.cells[..n], &change.after[..n], &change.before[..n]);
        }
    }

    /// Moves each cell's feature from its shape in `from` to the one in `to`.
    #[inline(always)]
    fn apply(&mut self, cells: &[u16], from: &[u16], to: &[u16]) {
        let rows = &self.net.shapes;
        for ((&q, &old), &new) in cells.iter().zip(from).zip(to) {
            if old != new {
                let acc = &mut self.acc[q as usize];
                move_row(
                    acc,
                    &mut self.pool,
                    &rows[old as usize],
                    &rows[new as usize],
                );
            }
        }
    }

    /// The value logit for the side to move.
    pub fn value(&self, board: &Board) -> f32 {
        self.net
            .value_from_pool(board.to_move(), &self.pool, self.cells)
            + self.net.base(board)
    }

    /// The evaluation in the search's units for the side to move.
    pub fn evaluate(&self, board: &Board) -> i32 {
        (self.value(board) * SCORE_SCALE).clamp(-20_000.0, 20_000.0) as i32
    }

    /// The policy logit of empty cell `p` for the side to move.
    pub fn policy(&self, board: &Board, p: Pos) -> f32 {
        self.net.policy(board.to_move(), &self.acc[p.idx()])
    }
}

/// Moves a cell's feature `acc` from shape `old`'s row to `new`'s, and the board's
/// clipped sum `pool` with it.
#[inline(always)]
fn move_row(
    acc: &mut Accumulator,
    pool: &mut [i32; FEATURES],
    old: &Accumulator,
    new: &Accumulator,
) {
    for k in 0..FEATURES {
        let was = acc[k];
        let now = was.wrapping_add(new[k]).wrapping_sub(old[k]);
        acc[k] = now;
        pool[k] += clip(now) - clip(was);
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
                        assert_eq!(state.shapes, fresh.shapes);
                        assert_eq!(state.value(&board), net.evaluate(&board));
                    }
                }
            }
        }
    }
}
