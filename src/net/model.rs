//! The network in floating point, as the trainer holds it. Every cell's feature is
//! the sum over its four directions of a learned vector per line shape, the shapes
//! read from Black's point of view, clipped to 0..1. Two heads, one per side to move:
//! the value head averages the cells' features over the board and runs a small MLP
//! to the side to move's win-probability logit; the policy head scores every empty
//! cell from its own feature. One accumulator for both sides keeps the search's
//! incremental update to one row per changed shape.

use crate::board::{Board, Color, Pos};
use crate::rng::Rng;

use super::shape::{pooled_cells, shape, SHAPES};

/// Values per cell feature.
pub const FEATURES: usize = 16;
/// Units of the value head's hidden layer.
pub const HIDDEN: usize = 32;
/// A search score `s` means a win probability of `sigmoid(s / SCORE_SCALE)`.
pub const SCORE_SCALE: f32 = 300.0;
/// The colour the shapes are read for.
pub const VIEW: Color = Color::Black;

pub type Vector = [f32; FEATURES];

/// The part of the network that depends on the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    pub hidden_w: [Vector; HIDDEN],
    pub hidden_b: [f32; HIDDEN],
    pub out_w: [f32; HIDDEN],
    pub out_b: f32,
    pub policy_w: Vector,
    pub policy_b: f32,
    /// A residual network's weight on the classical evaluation's logit, learnt: that
    /// logit is over-confident (its win probabilities are too far from one half), and
    /// a correction from the features alone could not scale it.
    pub base_w: f32,
}

/// Number of parameters of a head.
pub const HEAD_PARAMS: usize = HIDDEN * FEATURES + 2 * HIDDEN + 1 + FEATURES + 2;

impl Head {
    pub const ZERO: Head = Head {
        hidden_w: [[0.0; FEATURES]; HIDDEN],
        hidden_b: [0.0; HIDDEN],
        out_w: [0.0; HIDDEN],
        out_b: 0.0,
        policy_w: [0.0; FEATURES],
        policy_b: 0.0,
        base_w: 0.0,
    };

    /// Every parameter, in the network file's order.
    pub fn params(&self) -> impl Iterator<Item = &f32> {
        self.hidden_w
            .iter()
            .flatten()
            .chain(&self.hidden_b)
            .chain(&self.out_w)
            .chain([&self.out_b])
            .chain(&self.policy_w)
            .chain([&self.policy_b, &self.base_w])
    }

    pub fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.hidden_w
            .iter_mut()
            .flatten()
            .chain(&mut self.hidden_b)
            .chain(&mut self.out_w)
            .chain([&mut self.out_b])
            .chain(&mut self.policy_w)
            .chain([&mut self.policy_b, &mut self.base_w])
    }

    /// The value logit from the board's mean clipped feature `pool`, and the hidden
    /// layer's activations.
    pub fn value(&self, pool: &Vector) -> (f32, [f32; HIDDEN]) {
        let hidden: [f32; HIDDEN] =
            std::array::from_fn(|j| (self.hidden_b[j] + dot(&self.hidden_w[j], pool)).max(0.0));
        let value = self.out_b + dot_hidden(&self.out_w, &hidden);
        (value, hidden)
    }

    /// A cell's policy logit from its clipped feature.
    pub fn policy(&self, feature: &Vector) -> f32 {
        self.policy_b + dot(&self.policy_w, feature)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// `shapes[shape]`: the shape's contribution to its cell's feature.
    pub shapes: Vec<Vector>,
    /// `heads[side to move]`.
    pub heads: [Head; 2],
    /// Whether the value is a correction to the classical evaluation (`base`), which
    /// the network then learns on top of, rather than the whole value.
    pub residual: bool,
}

/// The classical evaluation of `board` as a value logit for its side to move.
pub fn classical_logit(board: &Board) -> f32 {
    crate::eval::evaluate(board) as f32 / SCORE_SCALE
}

/// What the forward pass keeps for the backward one.
pub struct Forward {
    /// The side to move (its head).
    pub side: usize,
    pub cells: Vec<Pos>,
    /// Per cell: its four shapes and its feature before clipping.
    pub shapes: Vec<[u32; 4]>,
    pub acc: Vec<Vector>,
    pub pool: Vector,
    pub hidden: [f32; HIDDEN],
    /// The classical evaluation's logit a residual network adds (times `base_w`); 0
    /// for another.
    pub base: f32,
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
        let shapes = (0..SHAPES)
            .map(|_| std::array::from_fn(|_| uniform(0.05)))
            .collect();
        let mut head = || Head {
            hidden_w: std::array::from_fn(|_| std::array::from_fn(|_| uniform(0.5))),
            out_w: std::array::from_fn(|i| if i % 2 == 0 { 0.3 } else { -0.3 }),
            policy_w: std::array::from_fn(|_| uniform(0.5)),
            base_w: 1.0,
            ..Head::ZERO
        };
        Model {
            shapes,
            heads: [head(), head()],
            residual: false,
        }
    }

    /// Evaluates `board` for its side to move.
    pub fn forward(&self, board: &mut Board) -> Forward {
        let me = board.to_move();
        let head = &self.heads[me.idx()];
        let cells: Vec<Pos> = pooled_cells(board).collect();
        let mut shapes = Vec::with_capacity(cells.len());
        let mut acc = Vec::with_capacity(cells.len());
        let mut pool = [0.0; FEATURES];
        for &p in &cells {
            let s: [u32; 4] = std::array::from_fn(|d| shape(board, p, d, VIEW) as u32);
            let mut a = [0.0; FEATURES];
            for &si in &s {
                a.iter_mut()
                    .zip(&self.shapes[si as usize])
                    .for_each(|(x, w)| *x += w);
            }
            pool.iter_mut().zip(&a).for_each(|(s, &x)| *s += clip(x));
            shapes.push(s);
            acc.push(a);
        }
        let n = cells.len() as f32;
        pool.iter_mut().for_each(|v| *v /= n);
        let (mut value, hidden) = head.value(&pool);
        let base = if self.residual {
            classical_logit(board)
        } else {
            0.0
        };
        value += head.base_w * base;
        let mut moves = Vec::new();
        let mut logits = Vec::new();
        for (i, &p) in cells.iter().enumerate() {
            if board.is_legal(me, p) {
                moves.push(i);
                logits.push(head.policy(&acc[i].map(clip)));
            }
        }
        Forward {
            side: me.idx(),
            cells,
            shapes,
            acc,
            pool,
            hidden,
            base,
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

#[inline(always)]
pub fn dot_hidden(a: &[f32; HIDDEN], b: &[f32; HIDDEN]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}
