//! `pbrain-ferrum sample-leaves`: positions where the search stands pat on the static
//! evaluation, to be labelled by a stronger engine and fitted (`tune --positions`).
//!
//! ```text
//! pbrain-ferrum sample-leaves [--time-ms T] [--every N] [--step S] [--seed X] [--rule R]
//!                             [--threads N] GAMES...
//! ```
//!
//! Game positions are not where the evaluation is used: the search applies it at its
//! leaves, deep in lines no game reaches. This searches positions of the games (15x15
//! only; from the seventh stone, every S-th position from a random start, default 6) for
//! T ms each (default 40; one search thread, the table kept between positions, root
//! tactics on, as in a game; games shared out among `--threads` workers) and prints the moves to every stand-pat leaf the search meets when
//! its node count is a multiple of N (default 31): one line per leaf, `x,y` from 0,
//! Black first, space-separated (`tune --positions` reads them with a tab and the
//! teacher's probability appended; `scripts/label_positions.py` adds those).

use super::args::at_least_one;
use super::parallel;
use super::progress::Progress;
use super::tune::{keep_games, read_games, GameFiles};
use crate::board::{Board, Color, Pos, Rule};
use crate::engine::Engine;
use crate::record::Record;
use crate::search::{Limits, SearchEvent};
use anyhow::Result;
use rayon::prelude::*;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Options of `sample-leaves`.
#[derive(clap::Args, Debug, Clone)]
pub struct Options {
    /// Search time per position, in milliseconds
    #[arg(long, value_name = "T", default_value_t = 40)]
    pub time_ms: u64,
    /// One leaf per N nodes
    #[arg(long, value_name = "N", default_value_t = 31, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Every S-th position of a game, from a random start
    #[arg(long, value_name = "S", default_value_t = 6, value_parser = at_least_one::<usize>)]
    pub step: usize,
    /// Seed of the random starts
    #[arg(long, value_name = "X", default_value_t = 7)]
    pub seed: u64,
    #[command(flatten)]
    pub games: GameFiles,
}

/// Runs the tool, writing the leaves to `out` in game order; returns how many
/// positions were searched and how many leaves written.
pub fn run(o: &Options, out: &mut dyn Write) -> Result<(usize, usize)> {
    let games = read_games(&o.games.files, o.games.rule)?;
    let games = keep_games("sample-leaves", games, |g| g.size == 15, "not 15x15");
    // The random starts are drawn in game order, so they do not depend on the threads.
    let mut rng = Lcg::new(o.seed);
    let firsts: Vec<usize> = games.iter().map(|_| 6 + rng.next() % o.step).collect();
    let progress = Progress::new("sample-leaves: games", games.len());
    let per_game: Vec<(usize, Vec<Vec<Pos>>)> = parallel::pool(o.games.threads)?.install(|| {
        games
            .par_iter()
            .zip(firsts)
            .map_init(
                || Engine::new(16 << 20, 1),
                |engine, (g, first)| {
                    let mut searched = 0;
                    let mut found = Vec::new();
                    for n in (first..g.moves.len().saturating_sub(2)).step_by(o.step) {
                        let Some(board) = position(g, n) else {
                            break;
                        };
                        found.extend(leaves(engine, &board, o));
                        searched += 1;
                    }
                    progress.tick(String::new);
                    (searched, found)
                },
            )
            .collect()
    });
    progress.finish();
    let (mut searched, mut written) = (0, 0);
    for (n, found) in per_game {
        searched += n;
        for leaf in found {
            let line: Vec<String> = leaf
                .iter()
                .map(|p| format!("{},{}", p.x(), p.y()))
                .collect();
            writeln!(out, "{}", line.join(" "))?;
            written += 1;
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

/// The board after the first `n` stones of `g` (a 15x15 game).
pub(crate) fn position(g: &Record, n: usize) -> Option<Board> {
    let mut board = Board::new(15, 15, g.rule.unwrap_or(Rule::Freestyle)).ok()?;
    for (i, (x, y)) in g.points().take(n).enumerate() {
        let p = board
            .pos(x as i64, y as i64)
            .filter(|&p| board.is_empty(p))?;
        board.make(p, Color::of_stone(i));
    }
    Some(board)
}

/// The leaves one search of `board` reports.
fn leaves(engine: &Engine, board: &Board, o: &Options) -> Vec<Vec<Pos>> {
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
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        options: Options,
    }

    fn parse(args: &[&str]) -> Result<Options, clap::Error> {
        let args = std::iter::once("sample-leaves").chain(args.iter().copied());
        Cli::try_parse_from(args).map(|c| c.options)
    }

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
        let path = psq.to_string_lossy().into_owned();
        let o = parse(&["--every", "7", "--step", "1", "--time-ms", "30", &path]).unwrap();
        let mut out = Vec::new();
        let (searched, written) = run(&o, &mut out).unwrap();
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
        assert!(parse(&["--every", "0", "g.psq"]).is_err());
        assert!(parse(&["--step", "0", "g.psq"]).is_err());
        assert!(parse(&[]).is_err());
        assert!(parse(&["g.psq"]).is_ok());
    }
}
