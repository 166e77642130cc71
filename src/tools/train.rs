//! `pbrain-ferrum train`: trains a network on self-play files and writes it in the
//! engine's format. Games are split whole between training and a held-out set; each
//! epoch prints both sets' losses.

use anyhow::{bail, ensure, Context, Result};
use clap::builder::TypedValueParser;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use super::args::{at_least_one, non_negative, share};
use super::parallel;
use crate::net::file::NetWeights;
use crate::net::model::{Model, SCORE_SCALE};
use crate::net::train::{
    add_colour_swaps, distinct_games, fitted_score_scale, split_samples, Losses, Settings, Trainer,
};
use crate::selfplay::format::{read_games, GameRecord};

#[derive(clap::Args, Debug, Clone)]
pub struct Options {
    /// Self-play files (`pbrain-ferrum selfplay --out`), all of one rule
    #[arg(value_name = "DATA", required = true)]
    pub data: Vec<PathBuf>,
    /// Where the network goes
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the training positions; 0 only scores the starting network (`--init`,
    /// then required) on the held-out games and writes it back unchanged
    #[arg(long, default_value_t = 4, value_parser = TypedValueParser::map(clap::value_parser!(u16), usize::from))]
    pub epochs: usize,
    /// Positions per step
    #[arg(long, default_value_t = 512, value_parser = at_least_one::<usize>)]
    pub batch: usize,
    /// Learning rate (0: a pass that changes nothing, to score a network)
    #[arg(long, default_value_t = 2e-3, value_parser = non_negative)]
    pub learning_rate: f32,
    /// Share of the learning rate left at the end: it falls linearly over the run
    #[arg(long, value_name = "SHARE", default_value_t = 1.0, value_parser = share::<f32>)]
    pub final_rate: f32,
    /// Weight of the game's result in the value target (the rest: the search score), 0
    /// to 1
    #[arg(long, default_value_t = 0.5, value_parser = share::<f32>)]
    pub result_weight: f32,
    /// The value target reads a search score s as sigmoid(s / K): K, or `fit` for the K
    /// that fits the training positions' results (printed either way) [default: 300,
    /// the scale the engine reads the network's output on]
    #[arg(long, value_name = "K|fit", value_parser = score_scale)]
    pub score_scale: Option<ScoreScale>,
    /// Weight of the policy loss beside the value loss
    #[arg(long, default_value_t = 1.0, value_parser = non_negative)]
    pub policy_weight: f32,
    /// The games of one opening in N (under the symmetries) go to the held-out set (1:
    /// every game, to score a network)
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = at_least_one::<u64>)]
    pub holdout: u64,
    /// Share of the training positions used (to see whether more data helps)
    #[arg(long, default_value_t = 1.0, value_parser = share::<f64>)]
    pub fraction: f64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Learn a correction to the classical evaluation instead of the whole value
    #[arg(long)]
    pub residual: bool,
    /// Start from this network (of the data's rule) instead of random weights: a
    /// next generation trained on from the last one
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
    /// Train on every position twice, the second time with its colours swapped (rules
    /// that treat both colours alike; the held-out set stays as played)
    #[arg(long)]
    pub colour_swap: bool,
    /// Worker threads [default: one per core]
    #[arg(long, value_name = "N", value_parser = parallel::threads)]
    pub threads: Option<usize>,
}

/// `--score-scale`: a fixed scale or the one fitted to the data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScoreScale {
    Fixed(f32),
    Fit,
}

fn score_scale(s: &str) -> Result<ScoreScale, String> {
    match s {
        "fit" => Ok(ScoreScale::Fit),
        _ => s
            .parse()
            .ok()
            .filter(|k: &f32| k.is_finite() && *k >= 1.0)
            .map(ScoreScale::Fixed)
            .ok_or_else(|| "--score-scale is a number of at least 1, or `fit`".into()),
    }
}

fn describe(l: &Losses) -> String {
    format!(
        "value {:.4} policy {:.4} top1 {:.3}",
        l.value, l.policy, l.policy_top1
    )
}

/// Trains, printing a line per epoch to `out`; writes the epoch with the lowest
/// held-out loss and returns its held-out losses.
pub fn run(o: &Options, out: &mut impl Write) -> Result<Losses> {
    // Without a network to start from, no epoch would write random weights.
    ensure!(
        o.epochs > 0 || o.init.is_some(),
        "--epochs 0 scores a network: name it with --init"
    );
    let mut games: Vec<GameRecord> = Vec::new();
    for path in &o.data {
        let mut file = std::fs::File::open(path).with_context(|| format!("{}", path.display()))?;
        games.extend(read_games(&mut file).with_context(|| format!("{}", path.display()))?);
    }
    let Some(rule) = games.first().map(|g| g.rule) else {
        bail!("no games in the data");
    };
    if games.iter().any(|g| g.rule != rule) {
        bail!("the data mixes rules: a network is trained for one rule");
    }
    let read = games.len();
    let games = distinct_games(games);
    let distinct = games.len();
    let pool = parallel::pool(o.threads)?;
    // A damaged record (a move off the board or on a stone) is left out now, not found
    // hours into the training, where it would end the run.
    let games: Vec<GameRecord> = pool.install(|| {
        use rayon::prelude::*;
        games
            .into_par_iter()
            .filter(|g| g.positions(|_| {}).is_ok())
            .collect()
    });
    if games.len() < distinct {
        writeln!(
            out,
            "{} damaged games left out (a move that is not legal)",
            distinct - games.len()
        )?;
    }
    let [mut train, held] = split_samples(&games, o.holdout, o.seed);
    train.truncate((train.len() as f64 * o.fraction.clamp(0.0, 1.0)) as usize);
    if o.colour_swap {
        add_colour_swaps(&games, &mut train);
    }
    writeln!(
        out,
        "{} games ({} repeats left out), {} training positions, {} held out",
        games.len(),
        read - distinct,
        train.len(),
        held.len()
    )?;
    // With nothing held out every epoch scores 0 and the first is kept; with nothing
    // to train on the network written would be the untrained one.
    ensure!(
        !held.is_empty(),
        "no game held out of {}: more games, or a smaller --holdout",
        games.len()
    );
    ensure!(
        !train.is_empty() || o.epochs == 0,
        "no training positions (--fraction {}, --holdout {}): more games",
        o.fraction,
        o.holdout
    );
    let fitted = fitted_score_scale(&games, &train);
    let score_scale = match (o.score_scale, fitted) {
        (Some(ScoreScale::Fixed(k)), _) => k,
        (Some(ScoreScale::Fit), Some(k)) => k as f32,
        (Some(ScoreScale::Fit), None) => bail!("no searched positions to fit the score scale to"),
        (None, _) => SCORE_SCALE,
    };
    if let Some(k) = fitted {
        writeln!(
            out,
            "score scale: {score_scale:.0} (fitted to the training positions' results: {k:.0})"
        )?;
    }
    let settings = Settings {
        learning_rate: o.learning_rate,
        final_share: o.final_rate,
        steps: (train.len().div_ceil(o.batch.max(1)) * o.epochs) as u64,
        batch: o.batch,
        result_weight: o.result_weight,
        score_scale,
        policy_weight: o.policy_weight,
        seed: o.seed,
    };
    let model = match &o.init {
        Some(path) => {
            let net = crate::net::load(path)?;
            if net.rule != rule || net.residual != o.residual {
                bail!(
                    "{} is a {}{} network; the data is {}{}",
                    path.display(),
                    net.rule.name(),
                    if net.residual { " residual" } else { "" },
                    rule.name(),
                    if o.residual {
                        " with --residual"
                    } else {
                        " without --residual"
                    }
                );
            }
            net.model()
        }
        None => Model {
            residual: o.residual,
            ..Model::random(o.seed)
        },
    };
    let policy_weight = settings.policy_weight as f64;
    let objective = |l: &Losses| l.value + policy_weight * l.policy;
    let mut trainer = Trainer::new(model, settings);
    // The epoch with the lowest held-out loss is the one written (early stopping).
    let mut best: Option<(usize, Losses, Model)> = None;
    if o.epochs == 0 {
        let held_out = pool.install(|| trainer.measure(&games, &held))?;
        best = Some((0, held_out, trainer.model.clone()));
    }
    for epoch in 0..o.epochs {
        let start = Instant::now();
        let (trained, held_out) = pool.install(|| -> Result<(Losses, Losses)> {
            let trained = trainer.epoch(&games, &train, epoch as u64)?;
            Ok((trained, trainer.measure(&games, &held)?))
        })?;
        writeln!(
            out,
            "epoch {} train {} held-out {} {:.0} s",
            epoch + 1,
            describe(&trained),
            describe(&held_out),
            start.elapsed().as_secs_f64()
        )?;
        // A diverged epoch (NaN) is worse than any other.
        if best
            .as_ref()
            .is_none_or(|b| objective(&b.1).is_nan() || objective(&held_out) < objective(&b.1))
        {
            best = Some((epoch + 1, held_out, trainer.model.clone()));
        }
    }
    let (epoch, losses, model) = best.unwrap_or((0, Losses::default(), trainer.model));
    if !objective(&losses).is_finite() {
        bail!("the training diverged (held-out loss {}): no network written; try a lower --learning-rate", objective(&losses));
    }
    let bytes = NetWeights::quantize(&model, rule).to_bytes();
    NetWeights::from_bytes(&bytes).context("the trained network is not one the engine loads")?;
    std::fs::write(&o.out, bytes).with_context(|| format!("{}", o.out.display()))?;
    writeln!(
        out,
        "wrote {} ({} network, epoch {epoch}: held-out {})",
        o.out.display(),
        rule.name(),
        describe(&losses)
    )?;
    Ok(losses)
}
