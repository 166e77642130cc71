//! Self-play: the engine against itself at a fixed node count per move, so that the
//! games do not depend on the machine or its load, from random balanced openings, many
//! games at once with one search thread each. The records (`format`) are the training
//! data of the evaluation network.

pub mod format;
pub mod random_openings;

use ahash::AHashSet;
use anyhow::{bail, Result};
use rayon::prelude::*;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::board::{Board, Color, Rule};
use crate::engine::Engine;
use crate::net::file::NetWeights;
use crate::openings::{canonical, cells, Opening};
use crate::rng::Rng;
use crate::search::movegen::legal_move_nearest_centre;
use crate::search::Limits;
use format::{GameRecord, Ply};
use random_openings::{balanced_opening, OpeningSpec};

/// What a self-play run plays.
#[derive(Clone, Debug)]
pub struct Settings {
    pub openings: OpeningSpec,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Transposition table per game.
    pub tt_bytes: usize,
    /// The game is a draw after this many stones (the full board otherwise).
    pub max_stones: usize,
    pub seed: u64,
    /// Networks the searches evaluate with (a generation's games after the first);
    /// a rule without one here uses its built-in one.
    pub nets: Vec<Arc<NetWeights>>,
    /// Whether the searches evaluate with a network: false for the classical
    /// evaluation's games (generation 0).
    pub use_net: bool,
}

impl Settings {
    pub fn new(rule: Rule, width: usize, height: usize) -> Settings {
        Settings {
            openings: OpeningSpec::new(rule, width, height),
            nodes: 20_000,
            tt_bytes: 8 << 20,
            max_stones: width * height,
            seed: 1,
            nets: Vec::new(),
            use_net: false,
        }
    }
}

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub games: u64,
    pub positions: u64,
    /// Black wins, White wins, draws.
    pub results: [u64; 3],
}

/// Plays games `first..first + count`, `batch` at a time on rayon's pool, and writes
/// each game to `out` in order. Game `i` starts from the first balanced opening of its
/// random stream (`seed`, `i`) that is neither in `excluded` (canonical openings: the
/// test openings, the earlier games of a run cut in parts) nor an earlier game's of
/// this run, under the board's symmetries: the same opening would give the same game
/// again. So a run can be split (each part excluding the earlier parts' openings) or
/// resumed and gives the same games. `progress` is called after every batch.
pub fn run(
    settings: &Settings,
    first: u64,
    count: u64,
    excluded: &AHashSet<Opening>,
    out: &mut impl Write,
    mut progress: impl FnMut(&Totals),
) -> Result<Totals> {
    let batch = (rayon::current_num_threads() as u64 * 4).max(1);
    let mut used = excluded.clone();
    let mut totals = Totals::default();
    let mut next = first;
    let new_engine = || {
        let mut engine = Engine::new(settings.tt_bytes, 1);
        engine.set_nets(&settings.nets, settings.use_net);
        engine
    };
    let mut redraw_engine = None;
    let Some(last) = first.checked_add(count) else {
        bail!("games {first} and {count} more run past the last game number");
    };
    while next < last {
        let end = next.saturating_add(batch).min(last);
        let drawn: Vec<Result<(Opening, Rng)>> = (next..end)
            .into_par_iter()
            .map_init(new_engine, |engine, i| {
                let mut rng = Rng::for_item(settings.seed, i);
                let (opening, _) = balanced_opening(&settings.openings, &mut rng, engine, &used)?;
                Ok((opening, rng))
            })
            .collect();
        // In game order, an opening that an earlier game of the batch took is followed
        // by the next one of the same stream: what a game gets does not depend on the
        // batch it was drawn in.
        let spec = &settings.openings;
        let mut openings = Vec::with_capacity(drawn.len());
        for d in drawn {
            let (mut opening, mut rng) = d?;
            while !used.insert(canonical(&opening, spec.width, spec.height)) {
                let engine = redraw_engine.get_or_insert_with(new_engine);
                opening = balanced_opening(spec, &mut rng, engine, &used)?.0;
            }
            openings.push(opening);
        }
        let games: Vec<Result<GameRecord>> = openings
            .par_iter()
            .enumerate()
            .map_init(new_engine, |engine, (k, opening)| {
                play_game(settings, next + k as u64, opening, engine)
            })
            .collect();
        for game in games {
            let game = game?;
            format::write_game(out, &game)?;
            totals.games += 1;
            totals.positions += game.plies.len() as u64;
            totals.results[match game.result {
                1 => 0,
                -1 => 1,
                _ => 2,
            }] += 1;
        }
        out.flush()?;
        progress(&totals);
        next = end;
    }
    Ok(totals)
}

/// Game `index` of the run from `opening`: searched moves to the end.
fn play_game(
    settings: &Settings,
    index: u64,
    opening: &Opening,
    engine: &mut Engine,
) -> Result<GameRecord> {
    let spec = &settings.openings;
    let mut board = Board::new(spec.width, spec.height, spec.rule)?;
    for p in cells(&board, opening) {
        let c = board.to_move();
        board.make(p, c);
    }
    // Each game starts from an empty table: its moves then depend on nothing else.
    engine.clear();
    let limits = Limits {
        max_nodes: settings.nodes,
        root_tactics: true,
        ..Limits::default()
    };
    let mut plies = Vec::new();
    let mut result = 0;
    while board.move_count() < settings.max_stones && board.empty_count() > 0 {
        // The search sets its stop flag when it ends: a fresh one per search.
        let found = engine.search(&board, &limits, &AtomicBool::new(false), &|_| {});
        let c = board.to_move();
        let Some(p) = found.best.filter(|&p| board.is_legal(c, p)) else {
            // Renju: on a nearly full board every empty cell can be forbidden for
            // Black, who then cannot move: a draw, as renju's rules (Black passes).
            if legal_move_nearest_centre(&mut board).is_none() {
                break;
            }
            bail!(
                "game {index}: the search gave no legal move after {}",
                board.move_count()
            );
        };
        plies.push(Ply {
            x: p.x() as u8,
            y: p.y() as u8,
            // A forced block is answered unsearched, with a score of 0 that says
            // nothing of the position.
            score: if found.depth == 0 && !board.is_win_move(c, p) {
                format::NO_SCORE
            } else {
                found.score.clamp(-(i16::MAX as i32), i16::MAX as i32) as i16
            },
        });
        let wins = board.is_win_move(c, p);
        board.make(p, c);
        if wins {
            result = if c == Color::Black { 1 } else { -1 };
            break;
        }
    }
    Ok(GameRecord {
        rule: spec.rule,
        width: spec.width as u8,
        height: spec.height as u8,
        opening: opening.iter().map(|&(x, y)| (x as u8, y as u8)).collect(),
        plies,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_settings() -> Settings {
        let mut settings = Settings::new(Rule::Renju, 15, 15);
        settings.nodes = 1_500;
        settings.openings.nodes = 1_000;
        settings.tt_bytes = 1 << 20;
        settings
    }

    /// Two games from game `first` on, as a file's bytes.
    fn play_two(settings: &Settings, first: u64) -> (Vec<u8>, Totals) {
        let mut bytes = Vec::new();
        format::write_header(&mut bytes).unwrap();
        let totals = run(settings, first, 2, &AHashSet::new(), &mut bytes, |_| {}).unwrap();
        (bytes, totals)
    }

    /// `count` games of a run of 3-stone openings in a 3x3 window, every one balanced
    /// enough (a few dozen under the symmetries: they repeat within a few draws),
    /// `threads` games at once, excluding `excluded`.
    fn crowded_run(
        threads: usize,
        first: u64,
        count: u64,
        excluded: &AHashSet<Opening>,
    ) -> Vec<u8> {
        let mut settings = small_settings();
        settings.openings = crowded(settings.openings);
        settings.nodes = 300;
        let mut bytes = Vec::new();
        format::write_header(&mut bytes).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| run(&settings, first, count, excluded, &mut bytes, |_| {}))
            .unwrap();
        bytes
    }

    fn crowded(spec: OpeningSpec) -> OpeningSpec {
        OpeningSpec {
            radius: 1,
            stones: (3, 3),
            max_eval: i32::MAX,
            ..spec
        }
    }

    fn canonical_openings(bytes: &[u8]) -> Vec<Opening> {
        let games = format::read_games(&mut &bytes[..]).unwrap();
        games
            .iter()
            .map(|g| canonical(&g.opening_cells(), 15, 15))
            .collect()
    }

    /// No opening is played twice in a run, even where the random draws repeat; the
    /// games do not depend on the thread count (batches of 4 or 8); a run cut in two,
    /// its second part excluding the first's openings, plays the same games.
    #[test]
    fn a_run_never_repeats_an_opening() {
        let whole = crowded_run(2, 0, 30, &AHashSet::new());
        let openings = canonical_openings(&whole);
        let distinct: AHashSet<&Opening> = openings.iter().collect();
        assert_eq!(distinct.len(), 30);
        assert_eq!(crowded_run(1, 0, 30, &AHashSet::new()), whole);
        let part = crowded_run(1, 0, 5, &AHashSet::new());
        let earlier: AHashSet<Opening> = canonical_openings(&part).into_iter().collect();
        let rest = crowded_run(2, 5, 25, &earlier);
        assert_eq!([&part[..], &rest[8..]].concat(), whole);
        // Without the exclusion the draws of a 3x3 window do repeat.
        let mut draws = AHashSet::new();
        let spec = crowded(small_settings().openings);
        let mut engine = Engine::new(1 << 20, 1);
        let repeats = (0..30)
            .filter(|&i| {
                let mut rng = Rng::for_item(1, i);
                let o = balanced_opening(&spec, &mut rng, &mut engine, &AHashSet::new())
                    .unwrap()
                    .0;
                !draws.insert(canonical(&o, 15, 15))
            })
            .count();
        assert!(repeats > 0, "the test's window is too wide to repeat");
    }

    /// The next generation's games are played with the previous network: reproducible
    /// too, and not the classical evaluation's games.
    #[test]
    fn games_with_a_network_are_its_own() {
        let mut settings = small_settings();
        let classical = play_two(&settings, 0).0;
        let model = crate::net::model::Model::random(3);
        settings.nets = vec![Arc::new(NetWeights::quantize(&model, Rule::Renju))];
        settings.use_net = true;
        let with_net = play_two(&settings, 0).0;
        assert_eq!(with_net, play_two(&settings, 0).0);
        assert_ne!(with_net, classical);
    }

    #[test]
    fn game_numbers_past_the_last_are_refused() {
        let mut bytes = Vec::new();
        let past = run(
            &small_settings(),
            u64::MAX,
            2,
            &AHashSet::new(),
            &mut bytes,
            |_| {},
        );
        assert!(past.is_err_and(|e| e.to_string().contains("last game number")));
        assert!(bytes.is_empty());
    }

    #[test]
    fn games_are_reproducible_and_replay_legally() {
        let settings = small_settings();
        let play = |first| play_two(&settings, first);
        let (bytes, totals) = play(0);
        assert_eq!(totals.games, 2);
        assert_eq!(play(0).0, bytes, "same seed, same games");
        let games = format::read_games(&mut bytes.as_slice()).unwrap();
        let (mut positions, mut decided) = (0, 0);
        for g in &games {
            g.positions(|_| positions += 1).unwrap();
            // A decided game ends on its winner's five.
            if g.result != 0 {
                let last = g.plies.last().unwrap();
                let mut board = Board::new(15, 15, Rule::Renju).unwrap();
                let moves = g
                    .opening
                    .iter()
                    .chain(
                        g.plies
                            .iter()
                            .map(|p| (p.x, p.y))
                            .collect::<Vec<_>>()
                            .iter(),
                    )
                    .copied()
                    .collect::<Vec<_>>();
                for &(x, y) in &moves[..moves.len() - 1] {
                    let p = board.pos(x as i64, y as i64).unwrap();
                    let c = board.to_move();
                    board.make(p, c);
                }
                let p = board.pos(last.x as i64, last.y as i64).unwrap();
                let winner = board.to_move();
                assert!(board.is_win_move(winner, p));
                let black_won = winner == crate::board::Color::Black;
                assert_eq!(g.result, if black_won { 1 } else { -1 });
                decided += 1;
            }
        }
        assert!(decided > 0, "no decided game to check");
        assert_eq!(positions, totals.positions);
        // Game 1 alone is the same game as the second of the pair.
        let (single, _) = play(1);
        let single = format::read_games(&mut single.as_slice()).unwrap();
        assert_eq!(single[0], games[1]);
    }
}
