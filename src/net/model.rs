//! The network in floating point, as the trainer holds it: a feature vector per line
//! shape; a cell's feature is the sum over its four directions, clipped to 0..1; the
//! value head averages the cells' features over the board and runs a small MLP to a
//! win-probability logit; the policy head scores every empty cell from its own
//! feature. Everything is seen from the side to move.

use crate::board::{Board, Pos};
use crate::rng::Rng;

use super::shape::{shape, SHAPES};

/// Values per cell feature.
pub const FEATURES: usize = 32;
/// Units of the value head's hidden layer.
pub const HIDDEN: usize = 32;
/// A search score `s` means a win probability of `sigmoid(s / SCORE_SCALE)`.
pub const SCORE_SCALE: f32 = 300.0;

pub type Vector = [f32; FEATURES];

#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// `shapes[shape]`: the shape's contribution to its cell's feature.
    pub shapes: Vec<Vector>,
    pub hidden_w: Vec<Vector>,
    pub hidden_b: [f32; HIDDEN],
    pub out_w: [f32; HIDDEN],
    pub out_b: f32,
    pub policy_w: Vector,
    pub policy_b: f32,
}

/// What the forward pass keeps for the backward one.
pub struct Forward {
    pub cells: Vec<Pos>,
    /// Per cell: its four shapes and its feature before clipping.
    pub shapes: Vec<[u32; 4]>,
    pub acc: Vec<Vector>,
    pub pool: Vector,
    pub hidden: [f32; HIDDEN],
    /// The value logit: the side to move's win probability is its sigmoid.
    pub value: f32,
    /// Empty cells the side to move may play, and their policy logits.
    pub moves: Vec<usize>,
    pub logits: Vec<f32>,
}

#[inline(always)]
pub fn clip(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

impl Model {
    /// Small random weights (the shapes' near zero, so that every cell starts
    /// alike), reproducible from `seed`.
    pub fn random(seed: u64) -> Model {
        let mut rng = Rng::new(seed);
        let mut uniform = |scale: f32| {
            let u = (rng.next_u64() >> 11) as f32 / (1u64 << 53) as f32;
            (2.0 * u - 1.0) * scale
        };
        let mut vector = |scale: f32| -> Vector { std::array::from_fn(|_| uniform(scale)) };
        Model {
            shapes: (0..SHAPES).map(|_| vector(0.05)).collect(),
            hidden_w: (0..HIDDEN).map(|_| vector(0.5)).collect(),
            hidden_b: [0.0; HIDDEN],
            out_w: std::array::from_fn(|i| if i % 2 == 0 { 0.3 } else { -0.3 }),
            out_b: 0.0,
            policy_w: vector(0.5),
            policy_b: 0.0,
        }
    }

    /// Evaluates `board` for its side to move.
    pub fn forward(&self, board: &mut Board) -> Forward {
        let me = board.to_move();
        let cells: Vec<Pos> = board.all_cells().collect();
        let mut shapes = Vec::with_capacity(cells.len());
        let mut acc = Vec::with_capacity(cells.len());
        let mut pool = [0.0; FEATURES];
        for &p in &cells {
            let s: [u32; 4] = std::array::from_fn(|d| shape(board, p, d, me) as u32);
            let mut a = [0.0; FEATURES];
            for &si in &s {
                let row = &self.shapes[si as usize];
                for k in 0..FEATURES {
                    a[k] += row[k];
                }
            }
            for k in 0..FEATURES {
                pool[k] += clip(a[k]);
            }
            shapes.push(s);
            acc.push(a);
        }
        let n = cells.len() as f32;
        pool.iter_mut().for_each(|v| *v /= n);
        let hidden: [f32; HIDDEN] = std::array::from_fn(|j| {
            let z: f32 = self.hidden_b[j] + dot(&self.hidden_w[j], &pool);
            z.max(0.0)
        });
        let value = self.out_b
            + hidden
                .iter()
                .zip(&self.out_w)
                .map(|(a, w)| a * w)
                .sum::<f32>();
        let mut moves = Vec::new();
        let mut logits = Vec::new();
        for (i, &p) in cells.iter().enumerate() {
            if board.is_legal(me, p) {
                moves.push(i);
                let h: Vector = acc[i].map(clip);
                logits.push(self.policy_b + dot(&self.policy_w, &h));
            }
        }
        Forward {
            cells,
            shapes,
            acc,
            pool,
            hidden,
            value,
            moves,
            logits,
        }
    }
}

#[inline(always)]
pub fn dot(a: &Vector, b: &Vector) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}
