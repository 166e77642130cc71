//! The network's incremental state for one search thread: every cell's feature and
//! their clipped sum over the board. A stone changes the shapes of the cells within
//! `REACH` of it on its four lines and its own cell's (36 shapes). The state catches
//! up with the board only when an evaluation asks for it (a quarter of the searched
//! nodes never evaluate: table cut-offs, solved threats), moving just the changed
//! rows; it saves the rows it overwrote so that a take-back restores them with a
//! copy instead of reading the table again.

use std::sync::LazyLock;

use super::file::{NetWeights, ACC_ONE};
use super::inference::{clip, Accumulator};
use super::model::{FEATURES, VIEW};
use super::shape::{pooled_cells, shape, REACH};
use crate::board::types::{CELLS, DIRS};
use crate::board::{Board, Pos};
use crate::search::score::MAX_PLY;

/// Cells and directions whose shape a stone on a cell changes.
const TOUCHED: usize = 4 * (2 * REACH + 1);

/// A cell as it was before a catch-up changed it.
#[derive(Clone, Copy)]
struct SavedCell {
    cell: u16,
    shapes: [u16; 4],
    acc: Accumulator,
}

/// One catch-up: the moves it took in, and where its saved cells start.
#[derive(Clone, Copy)]
struct CatchUp {
    /// The board's move count before it.
    moves_before: usize,
    /// Index of its first cell in `NetState::saved`.
    first_saved: usize,
    pool_before: [i32; FEATURES],
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
    /// The board's move count the state describes.
    synced: usize,
    catch_ups: Vec<CatchUp>,
    saved: Vec<SavedCell>,
    /// `saved_in[cell]`: the number of the catch-up that last saved the cell, so that
    /// one catch-up saves a cell once.
    saved_in: Box<[u32]>,
    catch_up_count: u32,
    /// Whether this CPU runs AVX2, which the state's vector work is also compiled for.
    avx2: bool,
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
            synced: 0,
            catch_ups: Vec::with_capacity(MAX_PLY + 8),
            saved: Vec::with_capacity((MAX_PLY + 8) * TOUCHED),
            saved_in: vec![0; CELLS].into_boxed_slice(),
            catch_up_count: 0,
            avx2: has_avx2(),
        };
        state.recompute(board);
        state
    }

    fn recompute(&mut self, board: &Board) {
        self.pool = [0; FEATURES];
        self.cells = 0;
        self.on_board.fill(false);
        for p in pooled_cells(board) {
            self.on_board[p.idx()] = true;
            self.cells += 1;
            self.shapes[p.idx()] = std::array::from_fn(|d| shape(board, p, d, VIEW) as u16);
            let acc = self.net.cell_feature(board, p);
            for (s, &a) in self.pool.iter_mut().zip(&acc) {
                *s += clip(a);
            }
            self.acc[p.idx()] = acc;
        }
        self.synced = board.move_count();
        self.catch_ups.clear();
        self.saved.clear();
    }

    /// The value logit of the network's own part (without the classical base).
    fn network_value(&mut self, board: &Board) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is true only where the CPU reported AVX2.
            return unsafe { self.network_value_avx2(board) };
        }
        self.network_value_any(board)
    }

    /// `network_value` compiled for AVX2: twice the lanes for the rows' sums and the
    /// head (the release build targets the x86-64 baseline, whose vectors are SSE2's;
    /// evidence: docs/strength-log.md, "The network's vector code").
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn network_value_avx2(&mut self, board: &Board) -> f32 {
        self.network_value_any(board)
    }

    #[inline(always)]
    fn network_value_any(&mut self, board: &Board) -> f32 {
        self.catch_up(board);
        self.net
            .value_from_pool(board.to_move(), &self.pool, self.cells)
    }

    /// Brings the state up to `board`, which has played on from the position the
    /// state last described (see `taken_back`).
    #[inline(always)]
    fn catch_up(&mut self, board: &Board) {
        let moves = board.move_count();
        if moves <= self.synced {
            self.taken_back(board);
            return;
        }
        self.catch_up_count = match self.catch_up_count.checked_add(1) {
            Some(n) => n,
            // After 2^32 catch-ups (an hour's search) a stale number could equal the
            // new one and leave a cell unsaved: the numbering starts again from clean.
            None => {
                self.saved_in.fill(0);
                1
            }
        };
        let record = CatchUp {
            moves_before: self.synced,
            first_saved: self.saved.len(),
            pool_before: self.pool,
        };
        let rows = &self.net.shapes;
        for &(p, _) in &board.history()[self.synced..moves] {
            // One move changes at most `TOUCHED` rows of at most `ACC_ONE` each: the
            // pool's change fits in `i16`, which halves the vector work.
            let mut delta = [0i16; FEATURES];
            for &(offset, d) in OFFSETS.iter() {
                let q = p.offset(offset).idx();
                if !self.on_board[q] {
                    continue;
                }
                let new = shape(board, Pos(q as u16), d, VIEW) as u16;
                let old = self.shapes[q][d];
                if new == old {
                    continue;
                }
                if self.saved_in[q] != self.catch_up_count {
                    self.saved_in[q] = self.catch_up_count;
                    self.saved.push(SavedCell {
                        cell: q as u16,
                        shapes: self.shapes[q],
                        acc: self.acc[q],
                    });
                }
                self.shapes[q][d] = new;
                move_row(
                    &mut self.acc[q],
                    &mut delta,
                    &rows[old as usize],
                    &rows[new as usize],
                );
            }
            for (s, &d) in self.pool.iter_mut().zip(&delta) {
                *s += d as i32;
            }
        }
        self.catch_ups.push(record);
        self.synced = moves;
    }

    /// Forgets the catch-ups of moves `board` has taken back.
    pub fn taken_back(&mut self, board: &Board) {
        let moves = board.move_count();
        while self.synced > moves {
            let Some(record) = self.catch_ups.pop() else {
                // Taken back past the position the state was made for.
                self.recompute(board);
                return;
            };
            for saved in self.saved.drain(record.first_saved..) {
                let q = saved.cell as usize;
                self.shapes[q] = saved.shapes;
                self.acc[q] = saved.acc;
            }
            self.pool = record.pool_before;
            self.synced = record.moves_before;
        }
    }

    /// The value logit for the side to move.
    pub fn value(&mut self, board: &Board) -> f32 {
        self.network_value(board) + self.net.base(board)
    }

    /// The evaluation in the search's units for the side to move.
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        let units = self.net.units_per_logit(board.to_move());
        let limit = crate::search::score::EVAL_LIMIT as f32;
        (self.value(board) * units).clamp(-limit, limit) as i32
    }

    /// Each move's policy logit, in the list's order, into `out`.
    pub fn policy(&mut self, board: &Board, moves: &[(Pos, i32)], out: &mut Vec<f32>) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is true only where the CPU reported AVX2.
            return unsafe { self.policy_avx2(board, moves, out) };
        }
        self.policy_any(board, moves, out)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn policy_avx2(&mut self, board: &Board, moves: &[(Pos, i32)], out: &mut Vec<f32>) {
        self.policy_any(board, moves, out)
    }

    #[inline(always)]
    fn policy_any(&mut self, board: &Board, moves: &[(Pos, i32)], out: &mut Vec<f32>) {
        self.catch_up(board);
        let side = board.to_move();
        out.clear();
        // A plain loop, not `extend`: the generic `extend` is not inlined into the AVX2
        // copy of this function and ran the head on the baseline's vectors.
        for (p, _) in moves {
            out.push(self.net.policy(side, &self.acc[p.idx()]));
        }
    }
}

/// Whether the CPU runs AVX2 (checked once: the standard library caches it).
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Moves a cell's feature `acc` from shape `old`'s row to `new`'s, adding the change
/// of its clipped value to `delta` (the board's clipped sum's change for the move).
#[inline(always)]
fn move_row(acc: &mut Accumulator, delta: &mut Accumulator, old: &Accumulator, new: &Accumulator) {
    let clip16 = |a: i16| a.clamp(0, ACC_ONE as i16);
    for k in 0..FEATURES {
        let was = acc[k];
        let now = was.wrapping_add(new[k]).wrapping_sub(old[k]);
        acc[k] = now;
        delta[k] += clip16(now) - clip16(was);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;
    use crate::net::model::Model;
    use crate::rng::Rng;

    /// A residual network reads in the classical evaluation's units: with no
    /// correction it evaluates as the classical evaluation, whatever its base weight.
    #[test]
    fn residual_values_read_in_classical_units() {
        let mut model = Model::random(5);
        model.residual = true;
        model.shapes.iter_mut().flatten().for_each(|v| *v = 0.0);
        for (side, head) in model.heads.iter_mut().enumerate() {
            *head = crate::net::model::Head::ZERO;
            head.base_w = [0.5, 1.7][side];
        }
        let net = NetWeights::quantize(&model, Rule::Freestyle);
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 8), (8, 6), (6, 8), (9, 5)] {
            let c = board.to_move();
            board.make(Pos::from_xy(x, y), c);
            let mut state = NetState::new(&net, &board);
            let classical = crate::eval::evaluate(&board);
            assert!(
                (state.evaluate(&board) - classical).abs() <= 1,
                "{classical}"
            );
        }
    }

    /// Catch-up numbers wrap after 2^32 without leaving a cell unsaved: take-backs
    /// across the wrap restore the state exactly.
    #[test]
    fn catch_up_numbers_wrap_cleanly() {
        let net = NetWeights::quantize(&Model::random(4), Rule::Freestyle);
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut state = NetState::new(&net, &board);
        // Every cell last saved by catch-up 1, and the count about to wrap.
        state.saved_in.fill(1);
        state.catch_up_count = u32::MAX - 1;
        let start = state.value(&board);
        for (x, y) in [(7, 7), (8, 7), (7, 8), (9, 9)] {
            let c = board.to_move();
            board.make(Pos::from_xy(x, y), c);
            state.value(&board);
        }
        for _ in 0..4 {
            board.undo();
            state.taken_back(&board);
        }
        let fresh = NetState::new(&net, &board);
        assert_eq!(state.acc, fresh.acc);
        assert_eq!(state.pool, fresh.pool);
        assert_eq!(state.value(&board), start);
    }

    /// After long random sequences of moves and take-backs on every rule and several
    /// sizes, the incremental state equals one computed from scratch, with the
    /// baseline code and, where the CPU has it, the AVX2 code.
    #[test]
    fn incremental_state_equals_a_recompute() {
        let mut model = Model::random(4);
        model.shapes.iter_mut().flatten().for_each(|v| *v *= 6.0);
        let mut rng = Rng::new(99);
        for (rule, avx2) in Rule::ALL
            .into_iter()
            .flat_map(|r| [(r, false), (r, has_avx2())])
        {
            let net = NetWeights::quantize(&model, rule);
            for (w, h) in [(15, 15), (20, 20), (5, 5), (32, 32), (19, 7)] {
                let mut board = Board::new(w, h, rule).unwrap();
                // A continuous game's walls on some boards.
                if rng.chance(1, 2) {
                    let cells: Vec<Pos> = board.all_cells().collect();
                    (0..5).for_each(|_| board.place_wall(*rng.pick(&cells)));
                }
                let mut state = NetState::new(&net, &board);
                state.avx2 = avx2;
                for step in 0..300 {
                    let empty: Vec<Pos> =
                        board.all_cells().filter(|&p| board.is_empty(p)).collect();
                    if board.move_count() > 0 && (empty.is_empty() || rng.chance(1, 3)) {
                        board.undo();
                        state.taken_back(&board);
                    } else {
                        let p = *rng.pick(&empty);
                        let c = board.to_move();
                        board.make(p, c);
                    }
                    if rng.chance(1, 2) {
                        state.value(&board);
                    }
                    if step % 10 == 0 {
                        let value = state.value(&board);
                        let fresh = NetState::new(&net, &board);
                        assert_eq!(state.pool, fresh.pool, "{rule:?} {w}x{h} step {step}");
                        assert_eq!(state.acc, fresh.acc);
                        assert_eq!(state.shapes, fresh.shapes);
                        assert_eq!(value, net.evaluate(&board));
                        // The move order's policy scores come from the same state.
                        let moves: Vec<(Pos, i32)> =
                            empty.iter().take(8).map(|&p| (p, 7)).collect();
                        let mut logits = Vec::new();
                        state.policy(&board, &moves, &mut logits);
                        assert_eq!(logits.len(), moves.len());
                        for (&(p, _), &got) in moves.iter().zip(&logits) {
                            let acc = net.cell_feature(&board, p);
                            assert_eq!(got, net.policy(board.to_move(), &acc));
                        }
                    }
                }
            }
        }
    }
}
