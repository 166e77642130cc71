//! `pbrain-ferrum sample-leaves`: positions where the search stands pat on the static
//! evaluation, to be labelled by a stronger engine and fitted (`tune --positions`).
//!
//! ```text
//! pbrain-ferrum sample-leaves [--time-ms T] [--every N] [--step S] [--seed X] [--rule R]
//!                             GAMES...
//! ```
//!
//! Game positions are not where the evaluation is used: the search applies it at its
//! leaves, deep in lines no game reaches. This searches positions of the games (15x15
//! only; from the seventh stone, every S-th position from a random start, default 6) for
//! T ms each (default 40; one thread, the table kept between positions, root tactics
//! on, as in a game) and prints the moves to every stand-pat leaf the search meets when
//! its node count is a multiple of N (default 31): one line per leaf, `x,y` from 0,
//! Black first, space-separated (`tune --positions` reads them with a tab and the
//! teacher's probability appended; `scripts/label_positions.py` adds those).

use super::tune::{option_value, read_games, Game};
use crate::board::{Board, Color, Pos, Rule};
use crate::engine::Engine;
use crate::search::{Limits, SearchEvent};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub const USAGE: &str = "usage: pbrain-ferrum sample-leaves [--time-ms T] [--every N] [--step S] [--seed X] [--rule R] GAMES...\n  prints the moves to the stand-pat leaves of T-ms searches (default 40) of every S-th\n  position (default 6) of the games (.psq or SGF, 15x15), one leaf per N nodes (default 31)";

/// Options of one run.
struct Options {
    time_ms: u64,
    every: u64,
    step: usize,
    seed: u64,
    rule: Rule,
    files: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options> {
    let mut o = Options {
        time_ms: 40,
        every: 31,
        step: 6,
        seed: 7,
        rule: Rule::Freestyle,
        files: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() {
        let value = |i: &mut usize| option_value(args, i).context(USAGE);
        match args[i].as_str() {
            "--time-ms" => o.time_ms = value(&mut i)?,
            "--every" => o.every = value(&mut i)?,
            "--step" => o.step = value(&mut i)? as usize,
            "--seed" => o.seed = value(&mut i)?,
            "--rule" => o.rule = Rule::from_gomocup(value(&mut i)? as i64).context(USAGE)?,
            f => o.files.push(f.to_string()),
        }
        i += 1;
    }
    if o.files.is_empty() || o.every == 0 || o.step == 0 {
        bail!("{USAGE}");
    }
    Ok(o)
}

/// Runs the tool, writing the leaves to `out`; returns how many positions were searched
/// and how many leaves written.
pub fn run(args: &[String], out: &mut dyn Write) -> Result<(usize, usize)> {
    let o = parse(args)?;
    let games = read_games(&o.files, o.rule)?;
    let mut engine = Engine::new(16 << 20, 1);
    let mut rng = Lcg::new(o.seed);
    let (mut searched, mut written) = (0, 0);
    for g in games.iter().filter(|g| g.size == 15) {
        let first = 6 + rng.next() % o.step;
        for n in (first..g.moves.len().saturating_sub(2)).step_by(o.step) {
            let Some(board) = position(g, n) else {
                break;
            };
            for leaf in leaves(&mut engine, &board, &o) {
                let line: Vec<String> = leaf
                    .iter()
                    .map(|p| format!("{},{}", p.x(), p.y()))
                    .collect();
                writeln!(out, "{}", line.join(" "))?;
                written += 1;
            }
            searched += 1;
        }
    }
    Ok((searched, written))
}

/// A linear congruential generator (Knuth's MMIX constants): the tools' randomness,
/// the same for the same seed on every machine.
pub(crate) struct Lcg(u64);

impl Lcg {
    pub(crate) fn new(seed: u64) -> Self {
        Lcg(seed.wrapping_mul(6364136223846793005).wrapping_add(1))
    }

    /// The next value, from the state's high bits (the low bits of an LCG cycle fast).
    pub(crate) fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize
    }
}

/// The board after the first `n` stones of `g`.
pub(crate) fn position(g: &Game, n: usize) -> Option<Board> {
    let mut board = Board::new(15, 15, g.rule).ok()?;
    for (i, &(x, y)) in g.moves[..n].iter().enumerate() {
        let colour = Color::of_stone(i);
        board.make(Pos::from_xy(x, y), colour);
    }
    Some(board)
}

/// The leaves one search of `board` reports.
fn leaves(engine: &mut Engine, board: &Board, o: &Options) -> Vec<Vec<Pos>> {
    let found = Mutex::new(Vec::new());
    let limit = Duration::from_millis(o.time_ms);
    let limits = Limits {
        sample_leaves: o.every,
        ..Limits::time(Instant::now(), limit, limit)
    };
    let report = |e: &SearchEvent| {
        if let SearchEvent::Leaf(moves) = e {
            if moves.len() >= 2 {
                found
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(moves.clone());
            }
        }
    };
    engine.search(board, &limits, &AtomicBool::new(false), &report);
    found.into_inner().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_extend_the_searched_position() {
        let dir = std::env::temp_dir().join(format!("ferrum-sample-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A finished game: Black's five on row 5 (1-based) with the 19th stone.
        let stones = "2,3 2,13 4,3 4,13 6,3 6,13 8,3 8,13 10,3 10,13 3,5 3,11 4,5 5,11 5,5 \
                      7,11 6,5 9,11 7,5";
        let body: String = stones.split(' ').map(|s| format!("{s},0\n")).collect();
        let psq = dir.join("g.psq");
        std::fs::write(
            &psq,
            format!("Piskvorky 15x15, 11:11, 0\n{body}new\nold\n0\n"),
        )
        .unwrap();
        let args: Vec<String> = ["--every", "7", "--step", "1", "--time-ms", "30"]
            .iter()
            .map(|s| s.to_string())
            .chain([psq.to_string_lossy().into_owned()])
            .collect();
        let mut out = Vec::new();
        let (searched, written) = run(&args, &mut out).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        assert!(searched >= 3, "{searched} positions searched");
        assert!(written > 0);
        let text = String::from_utf8(out).unwrap();
        let game = ["1,2", "1,12", "3,2", "3,12", "5,2", "5,12"];
        for line in text.lines() {
            let moves: Vec<&str> = line.split(' ').collect();
            assert_eq!(moves[..6], game, "a leaf of another game: {line}");
            // The first position searched has six stones; its leaves lie below it.
            assert!(
                moves.len() > 6,
                "a leaf is below a searched position: {line}"
            );
        }
    }

    #[test]
    fn bad_options_are_refused() {
        assert!(parse(&["--every".into(), "0".into(), "g.psq".into()]).is_err());
        assert!(parse(&[]).is_err());
    }
}
