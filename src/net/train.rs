//! The trainer: minibatch Adam on self-play positions. Value loss: cross-entropy of
//! the value head's win probability against a mix of the game's result and the
//! search's score (`Settings::result_weight`); policy loss: cross-entropy of the
//! policy head against the searched best move. Gradients of a batch are computed in
//! parallel (rayon) and summed; a shape's row is only touched when a position used it.

use ahash::AHashSet;
use anyhow::Result;
use rayon::prelude::*;

use super::file::fnv1a;
use super::model::{clip, sigmoid, Forward, Head, Model, Vector, FEATURES, HIDDEN, SCORE_SCALE};
use super::shape::SHAPES;
use crate::board::{Board, Color, Pos};
use crate::openings::{canonical, sorted_by_colour, symmetric_images};
use crate::rng::Rng;
use crate::search::score::WIN_BOUND;
use crate::selfplay::format::{GameRecord, NO_SCORE};

#[derive(Clone, Debug)]
pub struct Settings {
    pub learning_rate: f32,
    /// The rate falls linearly to this share of itself over `steps` (1: constant); a
    /// falling rate keeps the last epochs from undoing what the first ones learned.
    pub final_share: f32,
    /// Steps over which the rate falls (the whole run's batches).
    pub steps: u64,
    pub batch: usize,
    /// Weight of the game's result in the value target; the rest is the search score.
    pub result_weight: f32,
    /// The value target reads a search score `s` as the win probability
    /// `sigmoid(s / score_scale)`.
    pub score_scale: f32,
    /// Weight of the policy loss beside the value loss.
    pub policy_weight: f32,
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            learning_rate: 2e-3,
            final_share: 1.0,
            steps: 1,
            batch: 512,
            result_weight: 0.5,
            score_scale: SCORE_SCALE,
            policy_weight: 1.0,
            seed: 1,
        }
    }
}

/// A training position: game and ply, as played or with its colours swapped.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub game: u32,
    pub ply: u16,
    pub swapped: bool,
}

/// Mean losses over a set of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    pub value: f64,
    pub policy: f64,
    /// Share of positions where the policy's top move is the searched best move.
    pub policy_top1: f64,
    pub positions: u64,
}

impl Losses {
    fn add(mut self, o: Losses) -> Losses {
        self.value += o.value;
        self.policy += o.policy;
        self.policy_top1 += o.policy_top1;
        self.positions += o.positions;
        self
    }

    fn mean(mut self) -> Losses {
        let n = self.positions.max(1) as f64;
        self.value /= n;
        self.policy /= n;
        self.policy_top1 /= n;
        self
    }
}

/// The games without repeats: a game with the moves of an earlier one, or with their
/// mirror image (the same opening searched to the same node counts gives the same
/// game), is left out, so that no position weighs twice in training.
pub fn distinct_games(games: Vec<GameRecord>) -> Vec<GameRecord> {
    let mut seen = AHashSet::new();
    games
        .into_iter()
        .filter(|g| {
            let stones: Vec<(usize, usize)> = (g.opening.iter().copied())
                .chain(g.plies.iter().map(|p| (p.x, p.y)))
                .map(|(x, y)| (x as usize, y as usize))
                .collect();
            let (width, height) = (g.width as usize, g.height as usize);
            let image = symmetric_images(&stones, width, height)
                .map(|image| {
                    let (opening, moves) = image.split_at(g.opening.len());
                    (sorted_by_colour(opening), moves.to_vec())
                })
                .min()
                .expect("at least one symmetry");
            seen.insert((g.rule.gomocup_value(), width, height, image))
        })
        .collect()
}

/// Every searched position of `games`, split in two: the games of an opening (under
/// the board's symmetries) go whole to the held-out set with probability
/// 1/`holdout_every`, drawn from the opening itself, so that no held-out position has
/// a sibling, or a game from the same start, in training.
pub fn split_samples(games: &[GameRecord], holdout_every: u64, seed: u64) -> [Vec<Sample>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    for (g, game) in games.iter().enumerate() {
        let (w, h) = (game.width as usize, game.height as usize);
        let opening = game.opening_cells();
        let mut key = vec![game.width, game.height];
        key.extend(
            canonical(&opening, w, h)
                .iter()
                .flat_map(|&(x, y)| [x as u8, y as u8]),
        );
        let held = Rng::for_item(seed, fnv1a(&key)).below(holdout_every.max(1)) == 0;
        for ply in 0..game.plies.len() {
            out[held as usize].push(Sample {
                game: g as u32,
                ply: ply as u16,
                swapped: false,
            });
        }
    }
    out
}

/// Adds each sample again with its colours swapped, where the game's rule treats both
/// colours alike: the shapes are read from Black's side, so a swapped position teaches
/// each shape's row what its colour-swapped twin learns, and the other side's head.
pub fn add_colour_swaps(games: &[GameRecord], samples: &mut Vec<Sample>) {
    let swaps: Vec<Sample> = samples
        .iter()
        .filter(|s| !s.swapped && games[s.game as usize].rule.colours_alike())
        .map(|s| Sample {
            swapped: true,
            ..*s
        })
        .collect();
    samples.extend(swaps);
}

/// The scale K for which `sigmoid(s / K)` of the search scores best fits the side to
/// move's results (cross-entropy) over `samples` as played, forced wins and losses left
/// out (at most a million of them, evenly spread); `None` without any.
pub fn fitted_score_scale(games: &[GameRecord], samples: &[Sample]) -> Option<f64> {
    let pairs: Vec<(f64, f64)> = samples
        .iter()
        .filter(|s| !s.swapped)
        .filter_map(|s| {
            let game = &games[s.game as usize];
            let score = game.plies[s.ply as usize].score;
            let side = if (game.opening.len() + s.ply as usize).is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            };
            let result = game.result_for(side) as f64 * 0.5 + 0.5;
            (score != NO_SCORE && (score as i32).abs() < WIN_BOUND)
                .then_some((score as f64, result))
        })
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let step = pairs.len().div_ceil(1_000_000);
    let loss = |k: f64| -> f64 {
        pairs
            .par_iter()
            .step_by(step)
            .map(|&(s, r)| {
                let p = (1.0 / (1.0 + (-s / k).exp())).clamp(1e-12, 1.0 - 1e-12);
                -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
            })
            .sum()
    };
    Some(crate::fit::golden_section_min(10.0, 5000.0, loss))
}

/// A sample's position (on one of [`Boards`]), the move played and the value target.
struct Position<'a> {
    board: &'a mut Board,
    best: Pos,
    /// The value target: the side to move's win probability.
    value: f32,
}

/// The boards samples are replayed on, kept from one sample to the next: taking a
/// game back and replaying another costs a fraction of building a board.
#[derive(Default)]
struct Boards {
    played: Option<Board>,
    swapped: Option<Board>,
}

fn position<'a>(
    game: &GameRecord,
    sample: Sample,
    settings: &Settings,
    boards: &'a mut Boards,
) -> Result<Position<'a>> {
    let played = board_for(&mut boards.played, game)?;
    let best = game.replay_before(played, sample.ply as usize)?;
    let score = game.plies[sample.ply as usize].score;
    let result = game.result_for(played.to_move()) as f32 * 0.5 + 0.5;
    let value = if score == NO_SCORE {
        result
    } else {
        let w = settings.result_weight;
        w * result + (1.0 - w) * sigmoid(score as f32 / settings.score_scale)
    };
    // The side to move's target, whichever colour it plays.
    let board = if sample.swapped {
        let swapped = board_for(&mut boards.swapped, game)?;
        swap_colours(played, swapped);
        swapped
    } else {
        played
    };
    Ok(Position { board, best, value })
}

/// `slot`'s board, made anew when it is not of `game`'s size and rule.
fn board_for<'a>(slot: &'a mut Option<Board>, game: &GameRecord) -> Result<&'a mut Board> {
    if !slot.as_ref().is_some_and(|b| game.fits(b)) {
        *slot = Some(game.empty_board()?);
    }
    Ok(slot.as_mut().expect("set above"))
}

/// Sets `out` (of `board`'s size and rule) to `board` with every stone's colour and
/// the side to move swapped.
fn swap_colours(board: &Board, out: &mut Board) {
    out.undo_all();
    for &(p, c) in board.history() {
        // The side to move is saved with each stone (the classical evaluation reads it).
        out.set_to_move(c.opp());
        out.make(p, c.opp());
    }
    out.set_to_move(board.to_move().opp());
}

/// Gradients of a set of positions, summed.
struct Grad {
    shapes: Vec<Vector>,
    touched: Vec<u32>,
    marked: Vec<bool>,
    heads: [Head; 2],
    losses: Losses,
}

impl Grad {
    fn new() -> Grad {
        Grad {
            shapes: vec![[0.0; FEATURES]; SHAPES],
            touched: Vec::new(),
            marked: vec![false; SHAPES],
            heads: [Head::ZERO, Head::ZERO],
            losses: Losses::default(),
        }
    }

    fn shape_row(&mut self, s: u32) -> &mut Vector {
        if !self.marked[s as usize] {
            self.marked[s as usize] = true;
            self.touched.push(s);
        }
        &mut self.shapes[s as usize]
    }

    fn merge(mut self, mut other: Grad) -> Grad {
        for s in std::mem::take(&mut other.touched) {
            let row = other.shapes[s as usize];
            let mine = self.shape_row(s);
            for k in 0..FEATURES {
                mine[k] += row[k];
            }
        }
        for (mine, theirs) in self.heads.iter_mut().zip(&other.heads) {
            mine.params_mut()
                .zip(theirs.params())
                .for_each(|(a, b)| *a += b);
        }
        self.losses = self.losses.add(other.losses);
        self
    }

    /// Adds the gradient of one position's loss; `backward` false only measures.
    fn add_position(
        &mut self,
        model: &Model,
        pos: &mut Position,
        settings: &Settings,
        backward: bool,
    ) {
        let f = model.forward(pos.board);
        let p = sigmoid(f.value);
        let t = pos.value;
        let eps = 1e-6;
        self.losses.value += -(t * (p + eps).ln() + (1.0 - t) * (1.0 - p + eps).ln()) as f64;
        let probs = softmax(&f.logits);
        let target = f.moves.iter().position(|&i| f.cells[i] == pos.best);
        if let Some(t) = target {
            self.losses.policy += -(probs[t].max(1e-12) as f64).ln();
            let top = (0..probs.len()).max_by(|&a, &b| probs[a].total_cmp(&probs[b]));
            self.losses.policy_top1 += (top == Some(t)) as u8 as f64;
        }
        self.losses.positions += 1;
        if backward {
            self.backward(model, &f, p - t, &probs, target, settings.policy_weight);
        }
    }

    fn backward(
        &mut self,
        model: &Model,
        f: &Forward,
        d_value: f32,
        probs: &[f32],
        target: Option<usize>,
        policy_weight: f32,
    ) {
        let head = &model.heads[f.side];
        let grad = &mut self.heads[f.side];
        // Value head.
        grad.out_b += d_value;
        grad.base_w += d_value * f.base;
        let mut d_pool = [0.0; FEATURES];
        for j in 0..HIDDEN {
            grad.out_w[j] += d_value * f.hidden[j];
            if f.hidden[j] <= 0.0 {
                continue;
            }
            let dz = d_value * head.out_w[j];
            grad.hidden_b[j] += dz;
            let rows = grad.hidden_w[j].iter_mut().zip(&head.hidden_w[j]);
            for (((g, w), d), &x) in rows.zip(&mut d_pool).zip(&f.pool) {
                *g += dz * x;
                *d += dz * w;
            }
        }
        let n = f.cells.len() as f32;
        let d_cell: Vector = d_pool.map(|v| v / n);
        // Policy head, per legal cell.
        let mut d_policy = vec![0.0; f.cells.len()];
        if let Some(t) = target {
            for (m, &i) in f.moves.iter().enumerate() {
                let dl = policy_weight * (probs[m] - (m == t) as u8 as f32);
                d_policy[i] = dl;
                let h = f.acc[i].map(clip);
                grad.policy_b += dl;
                for (g, &x) in grad.policy_w.iter_mut().zip(&h) {
                    *g += dl * x;
                }
            }
        }
        let policy_w = head.policy_w;
        for (i, acc) in f.acc.iter().enumerate() {
            let mut d_acc = [0.0; FEATURES];
            let mut any = false;
            for k in 0..FEATURES {
                if acc[k] > 0.0 && acc[k] < 1.0 {
                    d_acc[k] = d_cell[k] + d_policy[i] * policy_w[k];
                    any = true;
                }
            }
            if !any {
                continue;
            }
            for &s in &f.shapes[i] {
                let row = self.shape_row(s);
                for k in 0..FEATURES {
                    row[k] += d_acc[k];
                }
            }
        }
    }
}

fn softmax(logits: &[f32]) -> Vec<f32> {
    let max = logits.iter().copied().fold(f32::MIN, f32::max);
    let exp: Vec<f32> = logits.iter().map(|&l| (l - max).exp()).collect();
    let sum: f32 = exp.iter().sum();
    exp.into_iter().map(|e| e / sum).collect()
}

/// Adam's moments for every parameter (rows of shapes updated lazily).
pub struct Trainer {
    pub model: Model,
    settings: Settings,
    m: Model,
    v: Model,
    step: i32,
}

impl Trainer {
    pub fn new(model: Model, settings: Settings) -> Trainer {
        let zero = zeroed_like();
        Trainer {
            model,
            settings,
            m: zero.clone(),
            v: zero,
            step: 0,
        }
    }

    /// Mean losses of `samples` (no training).
    pub fn measure(&self, games: &[GameRecord], samples: &[Sample]) -> Result<Losses> {
        let grads = self.gradients(games, samples, false)?;
        Ok(grads.losses.mean())
    }

    fn gradients(&self, games: &[GameRecord], samples: &[Sample], backward: bool) -> Result<Grad> {
        let threads = rayon::current_num_threads().max(1);
        let chunk = samples.len().div_ceil(threads).max(1);
        samples
            .par_chunks(chunk)
            .map(|chunk| -> Result<Grad> {
                let mut g = Grad::new();
                let mut boards = Boards::default();
                for s in chunk {
                    let game = &games[s.game as usize];
                    let mut pos = position(game, *s, &self.settings, &mut boards)?;
                    g.add_position(&self.model, &mut pos, &self.settings, backward);
                }
                Ok(g)
            })
            .try_reduce(Grad::new, |a, b| Ok(a.merge(b)))
    }

    /// One pass over `samples` in a random order; returns the training losses.
    pub fn epoch(
        &mut self,
        games: &[GameRecord],
        samples: &[Sample],
        epoch: u64,
    ) -> Result<Losses> {
        let mut order = samples.to_vec();
        let mut rng = Rng::for_item(self.settings.seed, epoch);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut total = Losses::default();
        for batch in order.chunks(self.settings.batch) {
            let g = self.gradients(games, batch, true)?;
            total = total.add(g.losses);
            self.apply(&g, batch.len());
        }
        Ok(total.mean())
    }

    fn apply(&mut self, g: &Grad, n: usize) {
        let progress = (self.step as f32 / self.settings.steps.max(1) as f32).min(1.0);
        let lr = self.settings.learning_rate * (1.0 - (1.0 - self.settings.final_share) * progress);
        self.step += 1;
        let (b1, b2) = (0.9f32, 0.999f32);
        let c1 = 1.0 - b1.powi(self.step);
        let c2 = 1.0 - b2.powi(self.step);
        let scale = 1.0 / n as f32;
        let update = |w: &mut f32, m: &mut f32, v: &mut f32, grad: f32| {
            let grad = grad * scale;
            *m = b1 * *m + (1.0 - b1) * grad;
            *v = b2 * *v + (1.0 - b2) * grad * grad;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        };
        let (model, m, v) = (&mut self.model, &mut self.m, &mut self.v);
        for &s in &g.touched {
            let s = s as usize;
            for k in 0..FEATURES {
                update(
                    &mut model.shapes[s][k],
                    &mut m.shapes[s][k],
                    &mut v.shapes[s][k],
                    g.shapes[s][k],
                );
            }
        }
        for side in 0..2 {
            let params = model.heads[side]
                .params_mut()
                .zip(m.heads[side].params_mut());
            let params = params
                .zip(v.heads[side].params_mut())
                .zip(g.heads[side].params());
            for (((w, m), v), &grad) in params {
                update(w, m, v, grad);
            }
        }
    }
}

fn zeroed_like() -> Model {
    Model {
        shapes: vec![[0.0; FEATURES]; SHAPES],
        heads: [Head::ZERO, Head::ZERO],
        residual: false,
    }
}

/// The value logit's gradient check helper for tests: the model's value on `board`.
#[cfg(test)]
fn value_of(model: &Model, board: &mut Board) -> f32 {
    model.forward(board).value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Cell, Rule};
    use crate::net::model::classical_logit;
    use crate::search::score::WIN;
    use crate::selfplay::format::Ply;

    fn tiny_games() -> Vec<GameRecord> {
        // Two short freestyle games that Black wins with a row on line 7 and White
        // wins with a column: enough for the trainer to find a signal.
        let black_row = GameRecord {
            rule: Rule::Freestyle,
            width: 9,
            height: 9,
            opening: vec![],
            plies: [
                (2, 4),
                (2, 0),
                (3, 4),
                (4, 0),
                (4, 4),
                (6, 0),
                (5, 4),
                (8, 0),
                (6, 4),
            ]
            .into_iter()
            .map(|(x, y)| Ply { x, y, score: 0 })
            .collect(),
            result: 1,
        };
        let white_col = GameRecord {
            plies: [
                (0, 0),
                (4, 2),
                (0, 2),
                (4, 3),
                (0, 4),
                (4, 4),
                (0, 6),
                (4, 5),
                (0, 8),
                (4, 6),
            ]
            .into_iter()
            .map(|(x, y)| Ply { x, y, score: 0 })
            .collect(),
            result: -1,
            ..black_row.clone()
        };
        vec![black_row, white_col]
    }

    fn sample(ply: u16) -> Sample {
        Sample {
            game: 0,
            ply,
            swapped: false,
        }
    }

    #[test]
    fn a_swapped_position_is_the_same_for_the_other_side() {
        let mut games = tiny_games();
        let mut samples = split_samples(&games, 1_000_000, 3)[0].clone();
        let played = samples.len();
        add_colour_swaps(&games, &mut samples);
        assert_eq!(samples.len(), 2 * played);
        let (mut plain_boards, mut swapped_boards) = (Boards::default(), Boards::default());
        let settings = Settings::default();
        for ply in 0..games[0].plies.len() as u16 {
            let plain = position(&games[0], sample(ply), &settings, &mut plain_boards).unwrap();
            let swapped = Sample {
                swapped: true,
                ..sample(ply)
            };
            let swapped = position(&games[0], swapped, &settings, &mut swapped_boards).unwrap();
            assert_eq!(swapped.board.to_move(), plain.board.to_move().opp());
            assert_eq!(swapped.best, plain.best);
            assert_eq!(swapped.value, plain.value);
            for p in plain.board.all_cells() {
                let (a, b) = (plain.board.cell(p), swapped.board.cell(p));
                assert_eq!(a == Cell::Empty, b == Cell::Empty);
                assert!(a == Cell::Empty || a != b, "{p:?}");
            }
            // The classical evaluation, which a residual network adds to, agrees.
            assert_eq!(classical_logit(plain.board), classical_logit(swapped.board));
        }
        // Renju's colours differ: nothing is swapped.
        games.iter_mut().for_each(|g| g.rule = Rule::Renju);
        let mut samples = split_samples(&games, 1_000_000, 3)[0].clone();
        add_colour_swaps(&games, &mut samples);
        assert_eq!(samples.len(), played);
    }

    /// A repeated game is left out; games from one opening, or from its mirror image,
    /// land on the same side of the split, whichever side that is.
    #[test]
    fn repeats_are_left_out_and_openings_stay_on_one_side() {
        let games = tiny_games();
        let mut twice = games.clone();
        twice.extend(games.clone());
        let mut other_scores = games[0].clone();
        other_scores.plies[0].score = 77;
        twice.push(other_scores);
        let mut mirrored = games[1].clone();
        mirrored.plies.iter_mut().for_each(|p| p.x = 8 - p.x);
        twice.push(mirrored.clone());
        assert_eq!(distinct_games(twice), games);
        // One stone elsewhere: another game.
        mirrored.plies[0].y = (mirrored.plies[0].y + 1) % 9;
        assert_eq!(distinct_games(vec![games[1].clone(), mirrored]).len(), 2);
        let opened = |opening: Vec<(u8, u8)>, first: (u8, u8)| GameRecord {
            opening,
            plies: vec![Ply {
                x: first.0,
                y: first.1,
                score: 0,
            }],
            ..games[0].clone()
        };
        let mut many = Vec::new();
        for k in 0..40u8 {
            let (a, b) = (k % 7, k / 7);
            many.push(opened(vec![(a, b), (4, 4), (a, 8 - b)], (0, 4)));
            // The same stones mirrored left to right, then another game from them.
            many.push(opened(vec![(8 - a, b), (4, 4), (8 - a, 8 - b)], (8, 4)));
            many.push(opened(vec![(a, b), (4, 4), (a, 8 - b)], (1, 4)));
        }
        let [train, held] = split_samples(&many, 4, 9);
        assert!(!train.is_empty() && !held.is_empty());
        let side = |g: usize| held.iter().any(|s| s.game as usize == g);
        for k in 0..40 {
            assert_eq!(side(3 * k), side(3 * k + 1), "opening {k}");
            assert_eq!(side(3 * k), side(3 * k + 2), "opening {k}");
        }
    }

    #[test]
    fn training_lowers_the_loss() {
        let games = tiny_games();
        let samples = split_samples(&games, 1_000_000, 3)[0].clone();
        assert_eq!(samples.len(), 19);
        let settings = Settings {
            batch: 8,
            learning_rate: 1e-2,
            ..Settings::default()
        };
        let mut trainer = Trainer::new(Model::random(5), settings);
        let before = trainer.measure(&games, &samples).unwrap();
        for e in 0..30 {
            trainer.epoch(&games, &samples, e).unwrap();
        }
        let after = trainer.measure(&games, &samples).unwrap();
        assert!(after.value < before.value * 0.9, "{before:?} -> {after:?}");
        assert!(
            after.policy < before.policy * 0.8,
            "{before:?} -> {after:?}"
        );
    }

    #[test]
    fn the_learning_rate_falls_to_its_final_share() {
        let games = tiny_games();
        let samples = split_samples(&games, 1_000_000, 3)[0].clone();
        // One batch per epoch; the rate reaches zero after the first step.
        let settings = Settings {
            batch: samples.len(),
            learning_rate: 1e-2,
            final_share: 0.0,
            steps: 1,
            ..Settings::default()
        };
        let mut trainer = Trainer::new(Model::random(5), settings);
        let start = trainer.model.clone();
        trainer.epoch(&games, &samples, 0).unwrap();
        let trained = trainer.model.clone();
        assert_ne!(trained, start, "the first step learns at the full rate");
        trainer.epoch(&games, &samples, 1).unwrap();
        assert_eq!(trainer.model, trained, "at a share of zero nothing moves");
    }

    /// Results drawn with the win probability sigmoid(s / 450), from White's side on
    /// odd plies: the fit finds 450, forced and mate scores left out.
    #[test]
    fn the_score_scale_is_fitted_to_the_results() {
        let mut rng = Rng::new(5);
        let mut games = Vec::new();
        for i in 0..40_000u64 {
            let ply = (i % 2) as usize;
            let s = rng.below(3001) as f64 - 1500.0;
            let won = (rng.below(1 << 20) as f64) < (1 << 20) as f64 / (1.0 + (-s / 450.0).exp());
            let mover = if won { 1 } else { -1 };
            let mut plies = vec![
                Ply {
                    x: 0,
                    y: 0,
                    score: NO_SCORE
                };
                3
            ];
            plies[ply].score = s as i16;
            // A forced move and a win scored as found: neither may count.
            plies[ply + 1].score = if won { -WIN as i16 + 5 } else { WIN as i16 - 5 };
            games.push(GameRecord {
                rule: Rule::Freestyle,
                width: 15,
                height: 15,
                opening: vec![],
                plies,
                result: if ply == 0 { mover } else { -mover },
            });
        }
        let samples = split_samples(&games, 1_000_000, 1)[0].clone();
        let k = fitted_score_scale(&games, &samples).unwrap();
        assert!((k - 450.0).abs() < 25.0, "{k}");
        assert_eq!(fitted_score_scale(&games[..1], &[]), None);
    }

    #[test]
    fn gradients_match_finite_differences() {
        let games = tiny_games();
        let settings = Settings {
            result_weight: 1.0,
            policy_weight: 0.0,
            ..Settings::default()
        };
        let model = Model::random(9);
        let mut boards = Boards::default();
        let mut pos = position(&games[0], sample(4), &settings, &mut boards).unwrap();
        let mut g = Grad::new();
        g.add_position(&model, &mut pos, &settings, true);
        let loss = |m: &Model| {
            let mut boards = Boards::default();
            let pos = position(&games[0], sample(4), &settings, &mut boards).unwrap();
            let p = sigmoid(value_of(m, pos.board)) as f64;
            let t = pos.value as f64;
            -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
        };
        let h = 1e-2f32;
        // The output bias and one hidden weight.
        let mut up = model.clone();
        up.heads[0].out_b += h;
        let mut down = model.clone();
        down.heads[0].out_b -= h;
        let numeric = (loss(&up) - loss(&down)) / (2.0 * h as f64);
        assert!(
            (numeric - g.heads[0].out_b as f64).abs() < 1e-3,
            "{numeric} vs {}",
            g.heads[0].out_b
        );
        // A touched shape row.
        let s = g.touched[0] as usize;
        let k = (0..FEATURES)
            .max_by(|&a, &b| g.shapes[s][a].abs().total_cmp(&g.shapes[s][b].abs()))
            .unwrap();
        // A smaller step: a row's value may lie near the clipping's kink.
        let hs = 1e-3f32;
        let mut up = model.clone();
        up.shapes[s][k] += hs;
        let mut down = model.clone();
        down.shapes[s][k] -= hs;
        let numeric = (loss(&up) - loss(&down)) / (2.0 * hs as f64);
        let analytic = g.shapes[s][k] as f64;
        assert!(
            (numeric - analytic).abs() < 0.05 * analytic.abs().max(1e-3),
            "{numeric} vs {analytic}"
        );
        // A residual network's weight on the classical evaluation.
        let residual = Model {
            residual: true,
            ..model
        };
        let mut g = Grad::new();
        g.add_position(&residual, &mut pos, &settings, true);
        let side = pos.board.to_move().idx();
        let mut up = residual.clone();
        up.heads[side].base_w += h;
        let mut down = residual.clone();
        down.heads[side].base_w -= h;
        let numeric = (loss(&up) - loss(&down)) / (2.0 * h as f64);
        let analytic = g.heads[side].base_w as f64;
        assert!(analytic.abs() > 1e-4, "the position has a classical score");
        assert!(
            (numeric - analytic).abs() < 0.05 * analytic.abs(),
            "{numeric} vs {analytic}"
        );
    }
}
