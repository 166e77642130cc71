//! `pbrain-ferrum tune`: fits the evaluation weights to game results.
//!
//! ```text
//! pbrain-ferrum tune [--iterations N] [--rate R] [--l2 L] [--combo-l2 L] [--pairs]
//!                    [--rule R] GAMES...
//! ```
//!
//! Reads games in SGF (c-gomoku-cli's `-sgf` output: `SZ`, `RU`, `RE[B+..|W+..|0]`,
//! moves `;B[hh]`) or Piskvork `.psq` files (ferrum-arena's `--psq` output, replayed
//! under `--rule`, default 0, for their result), keeps every position where the static
//! evaluation would be used (no five to make or block, no quick win), and fits the
//! tables of `src/eval/weights.rs` by logistic regression of the result on the
//! evaluation ("Texel tuning"): P(side to move wins) = 1 / (1 + exp(-eval / K)), K
//! fitted first to the current weights. The evaluation is linear in the weights: per
//! view, the count of each line pattern, threat class and combination of a cell's four
//! patterns over the empty cells, averaged (the previous position's negated) over the
//! position and the one before it, as `evaluate` does, with one feature per side,
//! threat group and count bucket (`THREAT_COUNT_VALUE`) and one per threat mask
//! (`THREAT_MASK_VALUE`) in each position. `--l2` pulls the line,
//! threat and count weights towards their current values, `--combo-l2` (default 1e-6)
//! the combinations', `--mask-l2` (default 1e-9) the masks'; `--masks-only` fits the
//! masks alone, the other tables staying as they are;
//! `--pairs` fits one weight per two strongest patterns instead of one per combination.
//! `--search-depth D` fits the evaluation to what a depth-D search (one thread, no root
//! tactics) says of each position instead: the target is
//! `lambda * result + (1 - lambda) * P(win)` of the search's score on the same scale K
//! (a proven win or loss counts as 1 or 0), `--lambda` defaulting to 0. Such an
//! evaluation predicts the search's own verdict, which the pruning at shallow depths
//! relies on.
//! `--positions FILE` fits to a teacher's verdicts instead of games: each line holds
//! the moves to a 15x15 position (`x,y` from 0, Black first), a tab and the probability
//! that its side to move wins (`pbrain-ferrum sample-leaves` picks the positions where
//! the search uses the evaluation; `scripts/label_positions.py` asks a stronger engine).
//! Every tenth game (or line) is held out to check that the fit generalises. Prints the
//! losses and the new tables as Rust: the first three to paste into `weights.rs`, then,
//! after a marker line each, the whole of `combo_weights.rs` and of `mask_weights.rs`
//! (`scripts/apply_tune.py` writes a saved report into the tree).

use super::args::{depth, share};
use crate::board::{Board, Color, Pattern, Pos, Rule, Threat};
use crate::engine::Engine;
use crate::eval::combo::{combo_id, COMBOS, COMBO_PATTERNS};
use crate::eval::threat_mask::{threat_mask, MASK_COUNT};
use crate::eval::weights::{
    COMBO_VALUE, COUNT_BUCKETS, COUNT_GROUPS, LINE_VALUE, THREAT_COUNT_VALUE, THREAT_MASK_VALUE,
    THREAT_VALUE, UNIT_SHIFT,
};
use crate::eval::{count_bucket, group_counts};
use crate::record::{self, Outcome, Record};
use crate::search::movegen::{forced_moves, quick_win};
use crate::search::score::is_mate;
use crate::search::Limits;
use crate::tools::parallel;
use crate::tools::progress::Progress;
use anyhow::{anyhow, bail, ensure, Context, Result};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Options of `tune`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = "Fits src/eval/weights.rs to the results of the games (c-gomoku-cli -sgf \
files, or ferrum-arena --psq files replayed under --rule), with --search-depth to a depth-D \
search's scores of their positions, or with --positions to the win probabilities of FILE's \
lines (moves, a tab, the probability)."
)]
pub struct Options {
    /// Adam steps
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub iterations: usize,
    /// Step size, in evaluation units
    #[arg(long, value_name = "R", default_value_t = 0.5)]
    pub rate: f64,
    /// Pull of the line, threat and count weights towards their current values
    #[arg(long, value_name = "L", default_value_t = 0.0)]
    pub l2: f64,
    /// Pull of the combination weights
    #[arg(long, value_name = "L", default_value_t = 1e-6)]
    pub combo_l2: f64,
    /// Pull of the threat-mask values
    #[arg(long, value_name = "L", default_value_t = 1e-9)]
    pub mask_l2: f64,
    /// Fit the threat masks alone
    #[arg(long)]
    pub masks_only: bool,
    /// One weight per two strongest patterns instead of one per combination
    #[arg(long)]
    pub pairs: bool,
    /// Rule of games whose file names none (.psq files): a name or a Gomocup number
    #[arg(long, value_name = "R", default_value = "0", value_parser = Rule::parse)]
    pub rule: Rule,
    /// Fit to a depth-D search's scores instead of the results
    #[arg(
        long,
        value_name = "D",
        value_parser = depth(),
        conflicts_with = "positions"
    )]
    pub search_depth: Option<i32>,
    /// With --search-depth: the share of the game's result in the target
    #[arg(
        long,
        value_name = "L",
        default_value_t = 0.0,
        value_parser = share::<f32>,
        requires = "search_depth",
        conflicts_with = "positions"
    )]
    pub lambda: f32,
    /// Fit to a teacher's verdicts: lines of moves, a tab and a win probability
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "games",
        required_unless_present = "games"
    )]
    pub positions: Option<PathBuf>,
    /// Worker threads [default: one per core]
    #[arg(long, value_name = "N", value_parser = parallel::threads)]
    pub threads: Option<usize>,
    /// Games: SGF collections or .psq files
    #[arg(value_name = "GAMES")]
    pub games: Vec<PathBuf>,
}

/// Weights per view: line patterns, then threat classes, then pattern combinations.
const PER_VIEW: usize = Pattern::COUNT + Threat::COUNT + COMBOS;
/// Offset of the combinations in a view's weights.
const COMBO_BASE: usize = Pattern::COUNT + Threat::COUNT;
/// Offset of the threat-count bonuses, after both views' cell weights.
const COUNT_BASE: usize = 2 * PER_VIEW;
/// Offset of the threat-mask values, after the threat-count bonuses.
const MASK_BASE: usize = COUNT_BASE + 2 * COUNT_GROUPS * COUNT_BUCKETS;
/// Both views' cell weights, the threat-count bonuses, then the threat-mask values.
const PARAMS: usize = MASK_BASE + MASK_COUNT;

/// One position: its non-zero features as (weight index, value), evaluation =
/// weights · features, and the result for the side to move (1 win, 0.5 draw, 0 loss;
/// replaced by the fitting target once the scale is known), with the search's score
/// of the position when `--search-depth` asks for one.
struct Sample {
    features: Vec<(u32, f32)>,
    result: f32,
    search_score: Option<i32>,
}

/// All weights, per view: `PER_VIEW` each.
type Weights = Vec<f64>;

/// The games a game-reading tool works on, and its worker threads.
#[derive(clap::Args, Debug, Clone)]
pub struct GameFiles {
    /// Rule of games whose file names none (.psq files): a name or a Gomocup number
    #[arg(long, value_name = "R", default_value = "0", value_parser = Rule::parse)]
    pub rule: Rule,
    /// Worker threads [default: one per core]
    #[arg(long, value_name = "N", value_parser = parallel::threads)]
    pub threads: Option<usize>,
    /// Games: .psq files or SGF collections (15x15 games are used)
    #[arg(value_name = "GAMES", required = true)]
    pub files: Vec<PathBuf>,
}

/// The games of SGF collections and `.psq` files, each with its rule (the file's,
/// else `rule`) and result (the recorded one, else the moves'). A recorded result that
/// the moves contradict is refused: every position of the game would carry it.
pub(crate) fn read_games(files: &[PathBuf], rule: Rule) -> Result<Vec<Record>> {
    let mut games = Vec::new();
    for f in files {
        for mut g in record::read_file(f)? {
            let rule = *g.rule.get_or_insert(rule);
            let replayed =
                replayed_outcome(&g, rule).with_context(|| format!("{}", f.display()))?;
            match (g.outcome, replayed) {
                (Some(recorded), Some(moves)) if recorded != moves => bail!(
                    "{}: game {}: the record says {recorded:?}, its moves give {moves:?}",
                    f.display(),
                    g.number
                ),
                (None, _) => g.outcome = replayed,
                _ => {}
            }
            games.push(g);
        }
    }
    Ok(games)
}

/// The games `keep` accepts; the others are counted on stderr with `why`, so that a
/// tool never drops input without a word.
pub(crate) fn keep_games(
    tool: &str,
    games: Vec<Record>,
    keep: impl Fn(&Record) -> bool,
    why: &str,
) -> Vec<Record> {
    let all = games.len();
    let kept: Vec<Record> = games.into_iter().filter(keep).collect();
    if kept.len() < all {
        eprintln!(
            "{tool}: {} of {all} games left out ({why})",
            all - kept.len()
        );
    }
    kept
}

/// The result the moves give: a win for the last stone's colour when that stone makes
/// five, a draw when it fills the board; any other ending (a forfeit, a renju foul, an
/// unfinished game) gives none. A record that goes on after a five is refused: its
/// later positions, labelled with the recorded result, would teach nonsense.
fn replayed_outcome(g: &Record, rule: Rule) -> Result<Option<Outcome>> {
    let mut board = Board::new(g.size, g.size, rule).map_err(|e| anyhow!("{e}"))?;
    let mut outcome = None;
    for (n, (x, y)) in g.points().enumerate() {
        let p = board
            .pos(x as i64, y as i64)
            .filter(|&p| board.is_empty(p))
            .with_context(|| {
                format!(
                    "game {}: stone {} off the board or on an occupied point",
                    g.number,
                    n + 1
                )
            })?;
        let colour = Color::of_stone(n);
        if board.is_win_move(colour, p) {
            ensure!(
                n + 1 == g.moves.len(),
                "game {}: stone {} makes five and {} more follow",
                g.number,
                n + 1,
                g.moves.len() - n - 1
            );
            outcome = Some(Outcome::Win(colour));
        }
        board.make(p, colour);
    }
    if outcome.is_none() && board.empty_count() == 0 {
        outcome = Some(Outcome::Draw);
    }
    Ok(outcome)
}

pub fn run(o: &Options) -> Result<String> {
    let l2 = WeightOptions {
        l2: o.l2,
        combo_l2: o.combo_l2,
        mask_l2: o.mask_l2,
        masks_only: o.masks_only,
    };
    let pool = parallel::pool(o.threads)?;
    pool.install(|| {
        if let Some(f) = &o.positions {
            let text =
                std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
            let per_position = parse_positions(&text, o.rule, o.pairs)?;
            return fit(per_position, o.iterations, o.rate, l2, o.pairs, None);
        }
        let games = keep_games(
            "tune",
            read_games(&o.games, o.rule)?,
            |g| g.outcome.is_some(),
            "no result: nothing to fit them to",
        );
        let depth = o.search_depth.unwrap_or(0);
        let per_game = samples_of_games(&games, o.pairs, depth);
        let label = o.search_depth.map(|_| o.lambda);
        fit(per_game, o.iterations, o.rate, l2, o.pairs, label)
    })
}

/// How each kind of weight is fitted: how hard it is pulled towards its starting value,
/// and whether it moves at all.
struct WeightOptions {
    l2: f64,
    combo_l2: f64,
    mask_l2: f64,
    /// Only the threat-mask values move.
    masks_only: bool,
}

/// Fits the weights to the samples, grouped by game (every tenth group held out), and
/// formats the result. `search_lambda`: the samples carry search scores, to be mixed
/// with the results so.
fn fit(
    per_game: Vec<Vec<Sample>>,
    iterations: usize,
    rate: f64,
    l2: WeightOptions,
    pairs: bool,
    search_lambda: Option<f32>,
) -> Result<String> {
    let groups = per_game.len();
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (k, samples) in per_game.into_iter().enumerate() {
        if k % 10 == 9 {
            test.extend(samples);
        } else {
            train.extend(samples);
        }
    }
    if train.is_empty() || test.is_empty() {
        bail!("too few positions ({groups} games or lines)");
    }
    let start = current_weights();
    let k = fit_scale(&train, &start);
    if let Some(lambda) = search_lambda {
        for s in train.iter_mut().chain(test.iter_mut()) {
            set_search_target(s, k, lambda);
        }
    }
    let mut w = start.clone();
    let before = (loss(&train, &w, k), loss(&test, &w, k));
    let mut penalty = vec![l2.l2; PARAMS];
    for view in 0..2 {
        let base = view * PER_VIEW + COMBO_BASE;
        penalty[base..base + COMBOS].fill(l2.combo_l2);
    }
    penalty[MASK_BASE..].fill(l2.mask_l2);
    let first = if l2.masks_only { MASK_BASE } else { 0 };
    adam(&train, &mut w, &start, k, iterations, rate, &penalty, first);
    let after = (loss(&train, &w, k), loss(&test, &w, k));
    let mut out = String::new();
    writeln!(
        out,
        "// {groups} games (or --positions lines), {} training / {} held-out positions, K = {k:.1}",
        train.len(),
        test.len()
    )?;
    writeln!(
        out,
        "// loss before: train {:.5} held-out {:.5}; after: train {:.5} held-out {:.5}",
        before.0, before.1, after.0, after.1
    )?;
    out.push_str(&format_weights(&w, pairs));
    Ok(out)
}

/// The samples of a `--positions` file, one group per line: a line holds the moves
/// from the empty board (`x,y` from 0, Black first, space-separated), a tab, and the
/// target: the probability that the side to move after those moves wins (a teacher's
/// verdict, e.g. a stronger engine's score through its own logistic scale). Positions
/// where the evaluation is not used (a five to make or block, a quick win) or with
/// fewer than five stones are left out.
fn parse_positions(text: &str, rule: Rule, pairs: bool) -> Result<Vec<Vec<Sample>>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let bad = || format!("line {}: expected \"x,y x,y ...<TAB>probability\"", n + 1);
        let (moves, target) = line.split_once('\t').with_context(bad)?;
        let target: f32 = target.trim().parse().ok().with_context(bad)?;
        if !(0.0..=1.0).contains(&target) {
            bail!("{}", bad());
        }
        let mut board = Board::new(15, 15, rule).map_err(|e| anyhow!("{e}"))?;
        let mut before = None;
        let mut ok = true;
        let moves: Vec<&str> = moves.split_whitespace().collect();
        for (i, m) in moves.iter().enumerate() {
            let (x, y) = m.split_once(',').with_context(bad)?;
            let (x, y): (usize, usize) = (
                x.parse().ok().with_context(bad)?,
                y.parse().ok().with_context(bad)?,
            );
            if x >= 15 || y >= 15 || !board.is_empty(Pos::from_xy(x, y)) {
                ok = false;
                break;
            }
            if i + 1 == moves.len() {
                before = Some(features(&board, pairs));
            }
            let colour = Color::of_stone(i);
            board.make(Pos::from_xy(x, y), colour);
        }
        let Some(before) = before.filter(|_| ok && moves.len() >= 5) else {
            continue;
        };
        if forced_moves(&mut board).is_some() || quick_win(&mut board).is_some() {
            continue;
        }
        out.push(vec![Sample {
            features: two_ply_features(&before, &features(&board, pairs)),
            result: target,
            search_score: None,
        }]);
    }
    Ok(out)
}

/// The samples of every game, in game order, the games shared out among the pool's
/// threads; with a search depth each thread labels with an engine of its own.
fn samples_of_games(games: &[Record], pairs: bool, search_depth: i32) -> Vec<Vec<Sample>> {
    let progress = Progress::new("tune: games", games.len());
    let samples = games
        .par_iter()
        .map_init(
            || (search_depth > 0).then(|| Engine::new(LABEL_TT_BYTES, 1)),
            |engine, g| {
                let label = engine.as_mut().map(|e| (e, search_depth));
                let samples = samples_of(g, pairs, label);
                progress.tick(String::new);
                samples
            },
        )
        .collect();
    progress.finish();
    samples
}

/// Transposition table of each labelling search's engine (one per worker thread).
const LABEL_TT_BYTES: usize = 16 << 20;

/// The score of a depth-`depth` search of `board` (one thread, no root tactics, a
/// cleared table: the same position always gets the same score).
fn search_score(engine: &mut Engine, board: &Board, depth: i32) -> i32 {
    engine.clear();
    let limits = Limits {
        root_tactics: false,
        ..Limits::depth(depth)
    };
    engine
        .search(board, &limits, &AtomicBool::new(false), &|_| {})
        .score
}

/// Replaces a sample's result by the fitting target for `--search-depth`: `lambda`
/// parts the game's result, the rest the win probability of the search's score at
/// scale `k` (a proven win or loss is 1 or 0).
fn set_search_target(s: &mut Sample, k: f64, lambda: f32) {
    let Some(score) = s.search_score else {
        return;
    };
    let p = if is_mate(score) {
        if score > 0 {
            1.0
        } else {
            0.0
        }
    } else {
        sigmoid(score as f64 / k) as f32
    };
    s.result = lambda * s.result + (1.0 - lambda) * p;
}

/// The positions of one game where the static evaluation decides, each with its
/// search score when `label` gives an engine and a depth.
fn samples_of(g: &Record, pairs: bool, mut label: Option<(&mut Engine, i32)>) -> Vec<Sample> {
    let mut out = Vec::new();
    let rule = g.rule.unwrap_or(Rule::Freestyle);
    let Ok(mut board) = Board::new(g.size, g.size, rule) else {
        return out;
    };
    for (n, (x, y)) in g.points().enumerate() {
        if x >= g.size || y >= g.size {
            break;
        }
        let p = Pos::from_xy(x, y);
        if !board.is_empty(p) {
            break;
        }
        let colour = Color::of_stone(n);
        // The evaluation is the mean of this position's and the last one's (negated):
        // so are its features.
        let before = (n >= 4).then(|| features(&board, pairs));
        board.make(p, colour);
        let Some(before) = before else {
            continue;
        };
        if forced_moves(&mut board).is_some() || quick_win(&mut board).is_some() {
            continue;
        }
        let mean = two_ply_features(&before, &features(&board, pairs));
        let us = board.to_move();
        let result = match g.outcome {
            Some(Outcome::Win(w)) if w == us => 1.0,
            Some(Outcome::Win(_)) => 0.0,
            _ => 0.5,
        };
        let search_score = label
            .as_mut()
            .map(|(engine, depth)| search_score(engine, &board, *depth));
        out.push(Sample {
            features: mean,
            result,
            search_score,
        });
    }
    out
}

/// Features of one position's pattern evaluation, dense: the evaluation =
/// weights · features (see [`current_weights`]).
fn features(board: &Board, pairs: bool) -> Vec<f32> {
    let mut f = vec![0f32; PARAMS];
    let me = board.to_move();
    for (view, colour, sign) in [(0, me, 1.0), (1, me.opp(), -1.0)] {
        let base = view * PER_VIEW;
        for p in board.all_cells().filter(|&p| board.is_empty(p)) {
            let pats = [0, 1, 2, 3].map(|dir| board.pattern(colour, p, dir));
            for pat in pats {
                f[base + pat.0 as usize] += sign;
            }
            f[base + Pattern::COUNT + board.threat(colour, p).0 as usize] += sign;
            f[base + COMBO_BASE + combo_param(combo_id(pats), pairs)] += sign;
        }
        let counts = group_counts(|t| board.threat_count(colour, t));
        for (g, &n) in counts.iter().enumerate() {
            if let Some(b) = count_bucket(n) {
                f[count_param(view, g, b)] += 1.0;
            }
        }
    }
    f[MASK_BASE + threat_mask(|c, t| board.threat_count(c, t), me)] = 1.0;
    f
}

fn count_param(view: usize, group: usize, bucket: usize) -> usize {
    COUNT_BASE + (view * COUNT_GROUPS + group) * COUNT_BUCKETS + bucket
}

/// The weight that combination `id` is fitted by: its own, or with `pairs` the one of
/// its two strongest patterns (78 weights per view instead of 1365, for less data).
fn combo_param(id: usize, pairs: bool) -> usize {
    if pairs {
        let p = COMBO_PATTERNS[id];
        combo_id([p[0], p[1], 0, 0].map(Pattern))
    } else {
        id
    }
}

/// Features of the evaluation (the mean of a position's and, negated, the previous
/// position's) from the features of both, each from its own side to move's view; only
/// the non-zero ones.
fn two_ply_features(before: &[f32], now: &[f32]) -> Vec<(u32, f32)> {
    now.iter()
        .zip(before)
        .enumerate()
        .map(|(j, (a, b))| (j as u32, (a - b) / 2.0))
        .filter(|&(_, v)| v != 0.0)
        .collect()
}

/// A table entry (1/16 units) in evaluation units, and back.
fn from_table(v: i32) -> f64 {
    v as f64 / (1 << UNIT_SHIFT) as f64
}
fn to_table(w: f64) -> i32 {
    (w * (1 << UNIT_SHIFT) as f64).round() as i32
}

/// The weights of `weights.rs` in evaluation units.
fn current_weights() -> Weights {
    let mut w = vec![0f64; PARAMS];
    for view in 0..2 {
        let base = view * PER_VIEW;
        for (k, &v) in LINE_VALUE[view].iter().enumerate() {
            w[base + k] = from_table(v);
        }
        for (k, &v) in THREAT_VALUE[view].iter().enumerate() {
            w[base + Pattern::COUNT + k] = from_table(v);
        }
        for (k, &v) in COMBO_VALUE[view].iter().enumerate() {
            w[base + COMBO_BASE + k] = from_table(v);
        }
        for (g, buckets) in THREAT_COUNT_VALUE[view].iter().enumerate() {
            for (b, &v) in buckets.iter().enumerate() {
                w[count_param(view, g, b)] = from_table(v);
            }
        }
    }
    for (mask, &v) in THREAT_MASK_VALUE.iter().enumerate() {
        w[MASK_BASE + mask] = from_table(v);
    }
    w
}

fn eval(s: &Sample, w: &[f64]) -> f64 {
    s.features
        .iter()
        .map(|&(j, f)| f as f64 * w[j as usize])
        .sum()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Samples per piece of a parallel sum. The pieces' sums are added in order, so the
/// totals do not depend on the number of threads.
const CHUNK: usize = 4096;

/// Mean cross-entropy of the predicted results.
fn loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let eps = 1e-9;
    let parts: Vec<f64> = samples
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|s| {
                    let p = sigmoid(eval(s, w) / k).clamp(eps, 1.0 - eps);
                    let r = s.result as f64;
                    -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
                })
                .sum()
        })
        .collect();
    parts.iter().sum::<f64>() / samples.len() as f64
}

/// The gradient of the summed cross-entropy (times K) over the samples.
fn gradient(samples: &[Sample], w: &[f64], k: f64) -> Vec<f64> {
    let parts: Vec<Vec<f64>> = samples
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut grad = vec![0f64; PARAMS];
            for s in chunk {
                let err = sigmoid(eval(s, w) / k) - s.result as f64;
                for &(j, f) in &s.features {
                    grad[j as usize] += err * f as f64;
                }
            }
            grad
        })
        .collect();
    let mut grad = vec![0f64; PARAMS];
    for part in parts {
        for (g, p) in grad.iter_mut().zip(part) {
            *g += p;
        }
    }
    grad
}

/// The scale K that best fits the current weights.
fn fit_scale(samples: &[Sample], w: &[f64]) -> f64 {
    crate::fit::golden_section_min(10.0, 5000.0, |k| loss(samples, w, k))
}

/// Full-batch Adam on the cross-entropy plus `l2[j]` times the squared distance (in
/// evaluation units) of weight j from its starting value, which keeps rare patterns
/// and combinations (a few dozen samples) near where they were; `rate` is in
/// evaluation units per step. Weights before index `first` stay as they are.
#[allow(clippy::too_many_arguments)]
fn adam(
    samples: &[Sample],
    w: &mut [f64],
    start: &[f64],
    k: f64,
    iterations: usize,
    rate: f64,
    l2: &[f64],
    first: usize,
) {
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0f64; PARAMS];
    let mut v = vec![0f64; PARAMS];
    let progress = Progress::new("tune: iterations", iterations);
    for t in 1..=iterations {
        let grad = gradient(samples, w, k);
        for j in first..PARAMS {
            let g = grad[j] / samples.len() as f64 / k + 2.0 * l2[j] * (w[j] - start[j]);
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let mh = m[j] / (1.0 - b1.powi(t as i32));
            let vh = v[j] / (1.0 - b2.powi(t as i32));
            w[j] -= rate * mh / (vh.sqrt() + eps);
        }
        progress.tick(String::new);
    }
}

/// The weights as the Rust tables of `weights.rs`, then the file `combo_weights.rs`.
fn format_weights(w: &[f64], pairs: bool) -> String {
    let row = |slice: &[f64]| -> String {
        let items: Vec<String> = slice.iter().map(|&v| to_table(v).to_string()).collect();
        format!("    [{}],\n", items.join(", "))
    };
    let mut s = String::new();
    s.push_str("pub const LINE_VALUE: [[i32; Pattern::COUNT]; 2] = [\n");
    for view in 0..2 {
        let base = view * PER_VIEW;
        s.push_str(&row(&w[base..base + Pattern::COUNT]));
    }
    s.push_str("];\npub const THREAT_VALUE: [[i32; Threat::COUNT]; 2] = [\n");
    for view in 0..2 {
        let base = view * PER_VIEW + Pattern::COUNT;
        s.push_str(&row(&w[base..base + Threat::COUNT]));
    }
    s.push_str("];\npub const THREAT_COUNT_VALUE: [[[i32; COUNT_BUCKETS]; COUNT_GROUPS]; 2] = [\n");
    for view in 0..2 {
        s.push_str("    [\n");
        for g in 0..COUNT_GROUPS {
            let b0 = count_param(view, g, 0);
            s.push_str(&format!("    {}", row(&w[b0..b0 + COUNT_BUCKETS])));
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n");
    s.push_str(COMBO_FILE_MARK);
    s.push_str(COMBO_FILE_HEAD);
    s.push_str("pub const COMBO_VALUE: [[i32; super::combo::COMBOS]; 2] = [\n");
    for view in 0..2 {
        let base = view * PER_VIEW + COMBO_BASE;
        let items: Vec<String> = (0..COMBOS)
            .map(|id| to_table(w[base + combo_param(id, pairs)]).to_string())
            .collect();
        s.push_str("    [\n");
        for chunk in items.chunks(16) {
            s.push_str(&format!("        {},\n", chunk.join(", ")));
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n");
    s.push_str(MASK_FILE_MARK);
    s.push_str(MASK_FILE_HEAD);
    s.push_str("pub const THREAT_MASK_VALUE: [i32; super::threat_mask::MASK_COUNT] = [\n");
    let items: Vec<String> = w[MASK_BASE..]
        .iter()
        .map(|&v| to_table(v).to_string())
        .collect();
    for chunk in items.chunks(16) {
        s.push_str(&format!("    {},\n", chunk.join(", ")));
    }
    s.push_str("];\n");
    s
}

/// The line before the combination table's file in `tune`'s output.
const COMBO_FILE_MARK: &str = "// ---- src/eval/combo_weights.rs ----\n";
/// The line before the threat-mask table's file.
const MASK_FILE_MARK: &str = "// ---- src/eval/mask_weights.rs ----\n";
const MASK_FILE_HEAD: &str = "//! Written by `pbrain-ferrum tune`: the evaluation's value of each threat mask (see\n//! [`super::threat_mask`]), 1/16 units.\n\n#[rustfmt::skip]\n";
const COMBO_FILE_HEAD: &str = "//! Written by `pbrain-ferrum tune`: the evaluation's correction per combination of a\n//! cell's four line patterns, by view, then combination id (1/16 units).\n\n#[rustfmt::skip]\n";

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "(;FF[4]GM[4]SZ[15]RU[0]RE[B+1]TE[Black win]\n;B[hh];W[ih];B[hi];W[ii];B[hj];W[ij];B[hk];W[ik];B[hl])";

    #[test]
    fn psq_games_get_their_result_from_a_replay() {
        // Black wins on row 8 (1-based y = 8) with its fifth stone.
        let psq = "Piskvorky 15x15, 11:11, 0\n4,8,0\n4,9,0\n5,8,12\n5,9,10\n6,8,9\n6,9,8\n7,8,7\n7,9,6\n8,8,5\nnew\nold\n0\n";
        let g = record::parse_psq(psq).unwrap();
        let outcome = replayed_outcome(&g, Rule::Freestyle).unwrap();
        assert_eq!(outcome, Some(Outcome::Win(Color::Black)));
        // The same game one stone short has no result.
        let cut = record::parse_psq(&psq.replace("8,8,5\n", "")).unwrap();
        assert_eq!(replayed_outcome(&cut, Rule::Freestyle).unwrap(), None);
        // A record that goes on past the five is refused.
        let on = record::parse_psq(&psq.replace("8,8,5\n", "8,8,5\n9,9,1\n")).unwrap();
        let err = replayed_outcome(&on, Rule::Freestyle).unwrap_err();
        assert!(
            err.to_string().contains("makes five and 1 more follow"),
            "{err}"
        );
    }

    #[test]
    fn positions_take_no_search_options() {
        let parse = |args: &[&str]| {
            #[derive(clap::Parser)]
            struct Cli {
                #[command(flatten)]
                o: Options,
            }
            <Cli as clap::Parser>::try_parse_from([&["tune"], args].concat())
        };
        assert!(parse(&["--positions", "f.txt"]).is_ok());
        assert!(parse(&["--positions", "f.txt", "--search-depth", "3"]).is_err());
        assert!(parse(&["--positions", "f.txt", "--lambda", "0.5"]).is_err());
    }

    #[test]
    fn reads_teacher_labelled_positions() {
        // Six stones, then a bad line, a five to block (left out) and too few stones.
        let text = "7,7 8,8 7,8 8,7 6,9 9,6\t0.7\n7,7 8,8\tx\n";
        assert!(parse_positions(text, Rule::Freestyle, false).is_err());
        let text = "7,7 8,8 7,8 8,7 6,9 9,6\t0.7\n\
                    7,7 8,8 7,8 8,9 7,9 9,10 7,10\t0.1\n\
                    7,7 8,8 7,8\t0.5\n";
        let groups = parse_positions(text, Rule::Freestyle, false).unwrap();
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0][0].result, 0.7);
        // Its features are those of the game's samples for the same moves.
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        let moves = [(7, 7), (8, 8), (7, 8), (8, 7), (6, 9), (9, 6)];
        let mut before = Vec::new();
        for (n, &(x, y)) in moves.iter().enumerate() {
            before = features(&board, false);
            let c = Color::of_stone(n);
            board.make(Pos::from_xy(x, y), c);
        }
        let want = two_ply_features(&before, &features(&board, false));
        assert_eq!(groups[0][0].features, want);
    }

    #[test]
    fn pairs_tie_the_combinations_of_the_same_two_strongest_patterns() {
        let id = |p: [u8; 4]| combo_id(p.map(Pattern));
        let f3_f2 = combo_param(id([7, 5, 0, 0]), true);
        assert_eq!(combo_param(id([5, 2, 7, 3]), true), f3_f2);
        assert_ne!(combo_param(id([7, 7, 0, 0]), true), f3_f2);
        assert_eq!(combo_param(id([5, 2, 7, 3]), false), id([7, 5, 3, 2]));
    }

    #[test]
    fn features_reproduce_the_evaluation() {
        let g = &record::parse_sgf(GAME).unwrap()[0];
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        let w = current_weights();
        let mut masks = Vec::new();
        for (n, (x, y)) in g.points().take(5).enumerate() {
            let c = Color::of_stone(n);
            let before = features(&board, false);
            board.make(Pos::from_xy(x, y), c);
            // Each position has one threat mask.
            let now = features(&board, false);
            assert_eq!(now[MASK_BASE..].iter().filter(|&&f| f != 0.0).count(), 1);
            masks.push(now[MASK_BASE..].iter().position(|&f| f == 1.0).unwrap());
            let s = Sample {
                features: two_ply_features(&before, &features(&board, false)),
                result: 0.5,
                search_score: None,
            };
            // The engine floors each position's sums before taking the mean.
            let exact = eval(&s, &w);
            let engine = crate::eval::evaluate(&board) as f64;
            assert!(
                (exact - engine).abs() <= 2.5,
                "{exact} vs {engine} after {n}"
            );
        }
        // The game's threes and fours set mask bits: the sums above covered masks.
        assert!(masks.iter().any(|&m| m != 0), "{masks:?}");
        // Every sample the tuner keeps is built the same way.
        assert!(!samples_of(g, false, None).is_empty());
    }

    #[test]
    fn search_labels_are_the_searchs_scores_as_win_probabilities() {
        // A quiet game of ten stones that Black won later (the result is what the
        // game-result fit would use).
        let sgf = "(;FF[4]GM[4]SZ[15]RU[0]RE[B+1]\n;B[hh];W[ig];B[gi];W[jf];B[ih];W[gh];B[hj];W[hg];B[fh];W[kh])";
        let g = &record::parse_sgf(sgf).unwrap()[0];
        let mut engine = Engine::new(LABEL_TT_BYTES, 1);
        let labelled = samples_of(g, false, Some((&mut engine, 3)));
        let plain = samples_of(g, false, None);
        assert_eq!(labelled.len(), plain.len());
        assert!(!labelled.is_empty());
        // The labels are deterministic: the same searches again give the same scores.
        let again = samples_of(g, false, Some((&mut engine, 3)));
        let k = 400.0;
        for ((mut a, b), c) in labelled.into_iter().zip(&plain).zip(&again) {
            let score = a.search_score.expect("every labelled sample has a score");
            assert_eq!(Some(score), c.search_score);
            assert!(b.search_score.is_none());
            assert!(!is_mate(score), "a quiet game: {score}");
            let result = a.result;
            set_search_target(&mut a, k, 0.0);
            assert!((a.result as f64 - sigmoid(score as f64 / k)).abs() < 1e-6);
            // With lambda 1 the game's result stays the target.
            let mut d = Sample {
                features: Vec::new(),
                result,
                search_score: Some(score),
            };
            set_search_target(&mut d, k, 1.0);
            assert_eq!(d.result, result);
        }
        // A proven win is a certain target.
        let mut won = Sample {
            features: Vec::new(),
            result: 0.0,
            search_score: Some(crate::search::score::win_in(5)),
        };
        set_search_target(&mut won, k, 0.0);
        assert_eq!(won.result, 1.0);
    }
}
