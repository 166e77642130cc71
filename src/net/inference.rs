//! The engine's integer inference: cell features summed in `i16` from the quantized
//! shape table, clipped to `0..=ACC_ONE`, pooled in `i32`; the small head in `f32`.

use super::file::{NetWeights, ACC_ONE};
use super::model::{classical_logit, dot_hidden, FEATURES, HIDDEN, SCORE_SCALE, VIEW};
use super::shape::{pooled_cells, shape};
use crate::board::{Board, Color, Pos};

/// The least base weight the units are computed from: a network that learnt to
/// ignore the classical evaluation keeps a finite scale.
const MIN_BASE_W: f32 = 0.2;

pub type Accumulator = [i16; FEATURES];

impl NetWeights {
    /// A cell's feature, from scratch.
    pub fn cell_feature(&self, board: &Board, p: Pos) -> Accumulator {
        let mut acc = [0i16; FEATURES];
        for d in 0..4 {
            let row = &self.shapes[shape(board, p, d, VIEW)];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(w);
            }
        }
        acc
    }

    /// The value logit for `side` to move from the board's summed, clipped cell
    /// features (`pool`, in units of 1/`ACC_ONE`) over `cells` cells, summed in the
    /// trainer's order (`Head::value`), so that the result is the same to the bit.
    #[inline(always)]
    pub fn value_from_pool(&self, side: Color, pool: &[i32; FEATURES], cells: usize) -> f32 {
        let scale = 1.0 / (ACC_ONE as f32 * cells as f32);
        let head = &self.heads[side.idx()];
        let mut sums = [-0.0f32; HIDDEN];
        for (&v, weights) in pool.iter().zip(&self.hidden_by_input[side.idx()]) {
            let x = v as f32 * scale;
            for (s, &w) in sums.iter_mut().zip(weights) {
                *s += w * x;
            }
        }
        let hidden: [f32; HIDDEN] = std::array::from_fn(|j| (head.hidden_b[j] + sums[j]).max(0.0));
        head.out_b + dot_hidden(&head.out_w, &hidden)
    }

    /// A cell's policy logit for `side` to move from its feature, summed in eight
    /// lanes so that it vectorizes (the trainer's sum in order differs in the last
    /// bits).
    #[inline(always)]
    pub fn policy(&self, side: Color, acc: &Accumulator) -> f32 {
        const LANES: usize = 8;
        let head = &self.heads[side.idx()];
        let products: [f32; FEATURES] =
            std::array::from_fn(|k| head.policy_w[k] * (clip(acc[k]) as f32 / ACC_ONE as f32));
        let mut lanes = [0.0f32; LANES];
        for chunk in products.chunks_exact(LANES) {
            for (lane, &p) in lanes.iter_mut().zip(chunk) {
                *lane += p;
            }
        }
        head.policy_b + lanes.iter().sum::<f32>()
    }

    /// The value logit of `board` for its side to move, from scratch.
    pub fn evaluate(&self, board: &Board) -> f32 {
        let mut pool = [0i32; FEATURES];
        let mut cells = 0;
        for p in pooled_cells(board) {
            let acc = self.cell_feature(board, p);
            for (s, &a) in pool.iter_mut().zip(&acc) {
                *s += clip(a);
            }
            cells += 1;
        }
        self.value_from_pool(board.to_move(), &pool, cells) + self.base(board)
    }

    /// What the value adds to: the classical evaluation, weighted, for a residual
    /// network.
    #[inline(always)]
    pub fn base(&self, board: &Board) -> f32 {
        if self.residual {
            self.heads[board.to_move().idx()].base_w * classical_logit(board)
        } else {
            0.0
        }
    }

    /// Evaluation units per value logit for `side` to move: a residual network's
    /// value reads in the classical evaluation's units (its base weight undone), so
    /// that the search's margins, set for those units, mean the same.
    #[inline(always)]
    pub fn units_per_logit(&self, side: Color) -> f32 {
        if self.residual {
            SCORE_SCALE / self.heads[side.idx()].base_w.max(MIN_BASE_W)
        } else {
            SCORE_SCALE
        }
    }
}

#[inline(always)]
pub fn clip(a: i16) -> i32 {
    (a as i32).clamp(0, ACC_ONE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;
    use crate::net::model::Model;

    /// The engine's value head, which sums by input, gives the trainer's head's value
    /// to the bit on any pool.
    #[test]
    fn value_head_sums_as_the_trainer() {
        let model = Model::random(7);
        let net = NetWeights::quantize(&model, Rule::Freestyle);
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..200 {
            let cells = 1 + rng.below(1024) as usize;
            let pool: [i32; FEATURES] =
                std::array::from_fn(|_| rng.below(cells as u64 * ACC_ONE as u64 + 1) as i32);
            let scale = 1.0 / (ACC_ONE as f32 * cells as f32);
            for side in Color::BOTH {
                let reference = model.heads[side.idx()].value(&pool.map(|v| v as f32 * scale));
                let value = net.value_from_pool(side, &pool, cells);
                assert_eq!(value.to_bits(), reference.0.to_bits());
            }
        }
    }

    /// The integer network gives the float model's outputs within a tolerance: the
    /// table's rounding is at most half a unit (1/512) per row, four rows per cell.
    #[test]
    fn integer_inference_matches_the_trainer() {
        let mut model = Model::random(11);
        // Larger rows than a fresh model's, so that clipping is exercised.
        for row in model.shapes.iter_mut() {
            row.iter_mut().for_each(|v| *v *= 8.0);
        }
        for (rule, residual) in [(Rule::Freestyle, false), (Rule::Renju, true)] {
            model.residual = residual;
            let net = NetWeights::quantize(&model, rule);
            let mut board = Board::new(15, 15, rule).unwrap();
            let moves = [
                (7, 7),
                (8, 8),
                (8, 6),
                (6, 8),
                (9, 5),
                (5, 9),
                (7, 6),
                (10, 4),
            ];
            for (x, y) in moves {
                let p = Pos::from_xy(x, y);
                let c = board.to_move();
                board.make(p, c);
                let reference = model.forward(&mut board);
                let value = net.evaluate(&board);
                assert!(
                    (value - reference.value).abs() < 0.02,
                    "value {value} vs {}",
                    reference.value
                );
                for (m, &i) in reference.moves.iter().enumerate() {
                    let acc = net.cell_feature(&board, reference.cells[i]);
                    let logit = net.policy(board.to_move(), &acc);
                    assert!((logit - reference.logits[m]).abs() < 0.02);
                }
            }
        }
    }

    /// A row of walls is the board's edge to the network: a 15x15 board whose last row
    /// is walls (a continuous game) evaluates as the 15x14 board with the same stones,
    /// in the engine (incrementally and from scratch) and in the trainer.
    #[test]
    fn walls_are_not_cells() {
        let mut model = Model::random(13);
        model.shapes.iter_mut().flatten().for_each(|v| *v *= 8.0);
        let net = NetWeights::quantize(&model, Rule::Freestyle);
        let mut walled = Board::new(15, 15, Rule::Freestyle).unwrap();
        for x in 0..15 {
            walled.place_wall(Pos::from_xy(x, 14));
        }
        let mut edged = Board::new(15, 14, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 12), (8, 13), (6, 13), (9, 11), (3, 13)] {
            for b in [&mut walled, &mut edged] {
                let c = b.to_move();
                b.make(Pos::from_xy(x, y), c);
            }
        }
        let value = net.evaluate(&edged);
        assert_eq!(net.evaluate(&walled), value);
        let mut state = crate::net::accumulator::NetState::new(&net, &walled);
        assert_eq!(state.value(&walled), value);
        assert_eq!(
            model.forward(&mut walled).value,
            model.forward(&mut edged).value
        );
    }
}
