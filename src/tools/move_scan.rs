//! `pbrain-ferrum scan-moves`: nodes where the move generator leaves out a move that
//! matters, looked for with the threat solvers.
//!
//! ```text
//! pbrain-ferrum scan-moves [--walks W] [--plies P] [--nodes N] [--seed X] [--rule R]
//!                          [--threads N] GAMES...
//! ```
//!
//! Under threat the search's move list (`movegen::move_list`) keeps only our fours, our
//! open threes and the defences: a move it leaves out is never searched, however deep,
//! and in real games that has hidden wins. The search meets most of its nodes away
//! from the game's line, so from every position of the games (from the
//! sixth stone) W random walks (default 2) of up to P plies (default 5; each ply one of
//! the list's five best moves, a forced block when there is one) visit nodes like the
//! search's. At each node with no five to make or block it checks:
//!
//! - *attack*: the side to move has a VCT (8 attacker moves, VCFs of 10, N nodes,
//!   default 20000) whose first move the list lacks;
//! - *defence*: the list is restricted (the opponent has an open three or a four-three
//!   point), the side to move has no VCT, every listed move loses to the opponent's VCT,
//!   yet after a move outside the list the opponent's VCT fails (proven, within 4 N
//!   nodes).
//!
//! Each finding is printed as one line (kind, move, and the moves to the node in
//! `analyze --moves` notation), game by game in the files' order; the counts follow.
//! Games are shared out among `--threads` workers, each game's walks drawn from its own
//! seed (`--seed` and its place in the list), so the output does not depend on the
//! threads. A failed VCT is no proof that a
//! defence holds, so a defence finding is a lead for a deeper search, not a verdict.

use super::parallel;
use super::progress::Progress;
use super::sample::{position, Lcg};
use super::tune::{keep_games, read_games, GameFiles};
use crate::board::{Board, Pos, Threat};
use crate::search::movegen::{forced_moves, move_list, Forced};
use crate::tactics::vcf::VcfResult;
use crate::tactics::vct::{VctLimits, VctSolver};
use anyhow::Result;
use rayon::prelude::*;
use std::io::Write;

/// Options of `scan-moves`.
#[derive(clap::Args, Debug, Clone)]
pub struct Options {
    /// Random walks from each game position
    #[arg(long, value_name = "W", default_value_t = 2)]
    pub walks: usize,
    /// Plies per walk
    #[arg(long, value_name = "P", default_value_t = 5)]
    pub plies: usize,
    /// Node budget of each VCT
    #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Seed of the walks
    #[arg(long, value_name = "X", default_value_t = 7)]
    pub seed: u64,
    #[command(flatten)]
    pub games: GameFiles,
}

/// What a scan counted.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanCounts {
    /// Nodes checked (no five to make or block).
    pub nodes: u64,
    /// Nodes where the side to move has a VCT.
    pub wins: u64,
    /// Restricted nodes without a VCT whose listed moves all lose to the opponent's.
    pub lost_lists: u64,
    pub attack_misses: u64,
    pub defence_misses: u64,
}

impl std::ops::AddAssign for ScanCounts {
    fn add_assign(&mut self, o: ScanCounts) {
        self.nodes += o.nodes;
        self.wins += o.wins;
        self.lost_lists += o.lost_lists;
        self.attack_misses += o.attack_misses;
        self.defence_misses += o.defence_misses;
    }
}

/// A move the list leaves out that matters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Finding {
    /// The first move of the side to move's VCT.
    Attack { moves: Vec<Pos>, first: Pos },
    /// A move after which the opponent's VCT fails, where every listed move loses.
    Defence { moves: Vec<Pos>, defence: Pos },
}

/// A VCT of the side to move within `nodes` nodes. Small tables: a scan runs hundreds
/// of thousands of short solves, and zeroing the root tactics' 24 MB table for each
/// took most of the time.
fn vct(board: &mut Board, nodes: u64) -> VcfResult {
    let limits = VctLimits {
        max_depth: 8,
        vcf_depth: 10,
        max_nodes: nodes,
        ..VctLimits::default()
    };
    VctSolver::with_memory(limits, 16, 1 << 12).solve(board)
}

/// A move generator under test: the moves it lists for the side to move.
pub(crate) type ListOf = fn(&mut Board) -> Vec<Pos>;

/// The search's move list, without history.
pub(crate) fn search_list(board: &mut Board) -> Vec<Pos> {
    move_list(board, |_| 0).into_iter().map(|m| m.0).collect()
}

/// One scan: the generator it checks (the search's, except in tests), the VCT budget,
/// the walks' random state, and what it found.
pub(crate) struct Scanner {
    list_of: ListOf,
    nodes: u64,
    rng: Lcg,
    counts: ScanCounts,
    found: Vec<Finding>,
}

impl Scanner {
    pub(crate) fn new(list_of: ListOf, nodes: u64, seed: u64) -> Self {
        Scanner {
            list_of,
            nodes,
            rng: Lcg::new(seed),
            counts: ScanCounts::default(),
            found: Vec::new(),
        }
    }

    /// Checks one node.
    pub(crate) fn node(&mut self, board: &mut Board) {
        if forced_moves(board).is_some() {
            return;
        }
        self.counts.nodes += 1;
        let us = board.to_move();
        let them = us.opp();
        let list = (self.list_of)(board);
        if let VcfResult::Win(line) = vct(board, self.nodes) {
            self.counts.wins += 1;
            if !list.contains(&line[0]) {
                self.counts.attack_misses += 1;
                self.found.push(Finding::Attack {
                    moves: board.moves_played(),
                    first: line[0],
                });
            }
            return;
        }
        let restricted = board.threat_count(them, Threat::FLEX4) > 0
            || board.threat_count(them, Threat::BLOCK4_FLEX3) > 0;
        if !restricted {
            return;
        }
        let after = |board: &mut Board, m: Pos, nodes: u64| {
            board.make(m, us);
            let r = vct(board, nodes);
            board.undo();
            r
        };
        for &m in &list {
            if !matches!(after(board, m, self.nodes), VcfResult::Win(_)) {
                return;
            }
        }
        self.counts.lost_lists += 1;
        let others: Vec<Pos> = board.candidates().filter(|p| !list.contains(p)).collect();
        for p in others {
            if board.is_legal(us, p) && after(board, p, 4 * self.nodes) == VcfResult::NoWin {
                self.counts.defence_misses += 1;
                self.found.push(Finding::Defence {
                    moves: board.moves_played(),
                    defence: p,
                });
            }
        }
    }

    /// Checks `board` and the nodes of `walks` random walks of up to `plies` plies from
    /// it; the board is left as it was.
    pub(crate) fn walk_from(&mut self, board: &mut Board, walks: usize, plies: usize) {
        self.node(board);
        for _ in 0..walks {
            let mut made = 0;
            for _ in 0..plies {
                let next = match forced_moves(board) {
                    Some(Forced::Block(p)) => Some(p),
                    Some(Forced::Blocks(ps)) => ps.first().copied(),
                    Some(_) => None,
                    None => {
                        let list = search_list(board);
                        let pick = self.rng.next() % list.len().clamp(1, 5);
                        list.get(pick).copied()
                    }
                };
                let Some(p) = next else {
                    break;
                };
                board.make(p, board.to_move());
                made += 1;
                self.node(board);
            }
            for _ in 0..made {
                board.undo();
            }
        }
    }
}

/// Runs the tool, writing the findings to `out`; returns the counts.
pub fn run(o: &Options, out: &mut dyn Write) -> Result<ScanCounts> {
    let games = read_games(&o.games.files, o.games.rule)?;
    let games = keep_games("scan-moves", games, |g| g.size == 15, "not 15x15");
    let progress = Progress::new("scan-moves: games", games.len());
    let per_game: Vec<(ScanCounts, Vec<String>)> = parallel::pool(o.games.threads)?.install(|| {
        games
            .par_iter()
            .enumerate()
            .map(|(index, g)| {
                let seed = o
                    .seed
                    .wrapping_add((index as u64).wrapping_mul(GAME_SEED_STEP));
                let mut scanner = Scanner::new(search_list, o.nodes, seed);
                let mut lines = Vec::new();
                // Every position from the sixth stone to the one before the five.
                for n in 6..g.moves.len() {
                    let Some(mut board) = position(g, n) else {
                        break;
                    };
                    scanner.walk_from(&mut board, o.walks, o.plies);
                    for f in scanner.found.drain(..) {
                        let (kind, mv, moves) = match f {
                            Finding::Attack { moves, first } => ("attack", first, moves),
                            Finding::Defence { moves, defence } => ("defence", defence, moves),
                        };
                        let line = Pos::line_notation(&moves);
                        lines.push(format!("{kind} {} | {line}", mv.notation()));
                    }
                }
                progress.tick(String::new);
                (scanner.counts, lines)
            })
            .collect()
    });
    progress.finish();
    let mut counts = ScanCounts::default();
    for (c, lines) in per_game {
        counts += c;
        for line in lines {
            writeln!(out, "{line}")?;
        }
    }
    Ok(counts)
}

/// Spreads the games' seeds over the generator's state (the golden ratio's bits).
const GAME_SEED_STEP: u64 = 0x9E37_79B9_7F4A_7C15;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::analyze;

    fn board(moves: &str) -> Board {
        analyze::position(&analyze::Options::with_moves(moves).unwrap()).unwrap()
    }

    /// A game position (tests/selective_soundness.rs): White's i13 left it a
    /// four-three point at g7, but Black's block of that four makes a Black four, and
    /// Black wins by l11, an open three.
    const THREE_WINS: &str = "h8 h7 k7 i9 f7 g9 f9 f8 h10 g6 i10 g10 j9 k8 k10 j11 g12 f13 h12 h6 \
                              h9 h11 j12 i12 l10 j10 k11 m9 k13 k14 j13 i13";

    #[test]
    fn the_search_list_misses_nothing_here_and_a_list_without_threes_does() {
        let mut b = board(THREE_WINS);
        let mut scanner = Scanner::new(search_list, 20_000, 1);
        scanner.node(&mut b);
        assert_eq!(scanner.counts.wins, 1, "{:?}", scanner.counts);
        assert!(scanner.found.is_empty(), "{:?}", scanner.found);
        // A narrower list, as the search once had: under a four-three point only our
        // fours and the defences.
        let mut old = Scanner::new(
            |b| {
                let us = b.to_move();
                search_list(b)
                    .into_iter()
                    .filter(|&p| {
                        b.threat(us, p) >= Threat::BLOCK4 || b.threat(us.opp(), p) >= Threat::BLOCK3
                    })
                    .collect()
            },
            20_000,
            1,
        );
        old.node(&mut b);
        let l11: Pos = "l11".parse().unwrap();
        assert!(
            matches!(&old.found[..], [Finding::Attack { first, .. }] if *first == l11),
            "{:?}",
            old.found
        );
    }

    #[test]
    fn walks_leave_the_board_as_it_was() {
        let mut b = board(THREE_WINS);
        let hash = b.hash();
        let mut scanner = Scanner::new(search_list, 2000, 1);
        scanner.walk_from(&mut b, 2, 3);
        assert_eq!(b.hash(), hash);
        assert_eq!(b.history().len(), 32);
        assert!(scanner.counts.nodes >= 3, "{:?}", scanner.counts);
    }

    #[test]
    fn bad_options_are_refused() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            options: Options,
        }
        let parse = |args: &[&str]| {
            let args = std::iter::once("scan-moves").chain(args.iter().copied());
            Cli::try_parse_from(args).map(|c| c.options)
        };
        assert!(parse(&[]).is_err());
        assert!(parse(&["--nodes", "0", "g.psq"]).is_err());
        let err = parse(&["--walks", "x", "g.psq"]).unwrap_err().to_string();
        assert!(err.contains("--walks"), "{err}");
        assert!(parse(&["g.psq"]).is_ok());
    }
}
