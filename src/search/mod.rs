//! Search: iterative deepening PVS on the pattern board with a VCF at the leaves,
//! Lazy SMP threads on a shared transposition table.

mod history;
pub mod movegen;
pub mod params;
mod picker;
mod pruning;
pub mod root_tactics;
pub mod score;
mod worker;

use crate::board::{Board, Pos, Threat};
use crate::net::file::NetWeights;
use crate::tactics::memory::SolverMemory;
use crate::tactics::vcf::plies_to_five;
use crate::tt::TranspositionTable;
use params::time::TACTICS_SHARE;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use worker::Worker;

/// Limits of one search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// When the move request arrived: every duration counts from here.
    pub start: Instant,
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Stop at this point.
    pub hard: Duration,
    pub max_depth: i32,
    pub max_nodes: u64,
    /// Root moves not to consider (multi-PV searches the next best lines this way).
    pub exclude: Vec<Pos>,
    /// Whether to report each root move as the main thread starts it (realtime GUIs).
    pub report_root_moves: bool,
    /// Only these root moves, when set (the root tactics fill it in).
    pub allowed: Option<Vec<Pos>>,
    /// Whether to run the root tactics (VCF/VCT wins, VCF defence) first.
    pub root_tactics: bool,
    /// Report a leaf where the quiescence stands pat (`SearchEvent::Leaf`) whenever the
    /// main thread's node count is a multiple of this; 0 never (`sample-leaves`).
    pub sample_leaves: u64,
}

/// The deepest iteration, leaving room within `MAX_PLY` for extensions and the
/// quiescence search.
pub const MAX_DEPTH: i32 = score::MAX_PLY as i32 - 28;

impl Default for Limits {
    /// No limit at all: the caller sets what it needs.
    fn default() -> Self {
        Limits {
            start: Instant::now(),
            soft: Duration::MAX,
            hard: Duration::MAX,
            max_depth: MAX_DEPTH,
            max_nodes: u64::MAX,
            exclude: Vec::new(),
            report_root_moves: false,
            allowed: None,
            root_tactics: true,
            sample_leaves: 0,
        }
    }
}

impl Limits {
    /// A search limited by depth only (bench, tests).
    pub fn depth(depth: i32) -> Limits {
        Limits {
            max_depth: depth,
            ..Limits::default()
        }
    }

    /// A search limited by time from `start`.
    pub fn time(start: Instant, soft: Duration, hard: Duration) -> Limits {
        Limits {
            start,
            soft,
            hard,
            ..Limits::default()
        }
    }
}

/// What the search reports while it runs (from the main search thread).
#[derive(Clone, Debug)]
pub enum SearchEvent {
    /// An iteration completed.
    Iteration(Progress),
    /// The main thread starts searching this root move (when asked for).
    RootMove(Pos),
    /// The moves from the empty board to a leaf where the quiescence stood pat on the
    /// static evaluation (`Limits::sample_leaves`).
    Leaf(Vec<Pos>),
}

/// The progress callback type.
pub type Reporter<'a> = &'a (dyn Fn(&SearchEvent) + Sync);

/// State shared by the threads of one search.
pub struct SharedState<'a> {
    pub tt: &'a TranspositionTable,
    pub stop: &'a AtomicBool,
    pub nodes: AtomicU64,
    /// The network that evaluates, made for the board's rule (`Engine::net_for`
    /// picks it); the classical evaluation where it is `None`.
    pub net: Option<&'a NetWeights>,
}

/// What a search works with besides the position and its limits.
pub struct Tables<'a> {
    pub tt: &'a TranspositionTable,
    pub threads: usize,
    /// The threat solvers' tables.
    pub memory: &'a mut SolverMemory,
    /// As `SharedState::net`.
    pub net: Option<&'a NetWeights>,
}

/// Progress after a completed iteration (for the protocol's MESSAGE line).
#[derive(Clone, Debug)]
pub struct Progress {
    pub depth: i32,
    pub seldepth: usize,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Pos>,
}

/// Outcome of a search. `best` is `None` only when the board has no empty cell.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Pos>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Pos>,
}

/// Searches `board` for its side to move with `threads` threads until a limit is hit
/// or `stop` is set. `report` is called from the main search thread. The solvers work
/// in `memory`.
pub fn search(
    board: &Board,
    tables: Tables,
    limits: &Limits,
    stop: &AtomicBool,
    report: Reporter,
) -> SearchResult {
    let Tables {
        tt,
        threads,
        memory,
        net,
    } = tables;
    let (root_memory, thread_memory) = memory.split(threads.max(1));
    let shared = SharedState {
        tt,
        stop,
        nodes: AtomicU64::new(0),
        net,
    };
    tt.new_search();
    let mut root = board.clone();
    // Trivial answers need no search: a five to complete, a single forced block.
    let fallback = quick_move(&mut root);
    let finish = |best: Option<Pos>, score: i32, depth: i32, pv: Vec<Pos>| SearchResult {
        best,
        score,
        depth,
        nodes: shared.nodes.load(Ordering::Relaxed),
        elapsed: limits.start.elapsed(),
        pv,
    };
    if root.move_count() == 0 && root.candidates().next().is_none() {
        // An empty board has nothing to search: the centre, or the cell nearest it
        // that the limits leave (multi-PV's later lines exclude the earlier moves).
        let p = movegen::legal_move_nearest_centre_but(&mut root, &limits.exclude);
        return finish(p, 0, 0, p.into_iter().collect());
    }
    if let Some(p) = fallback.filter(|p| fallback_is_final(&root) && !limits.exclude.contains(p)) {
        let us = root.to_move();
        let score = if root.is_win_move(us, p) {
            score::win_in(1)
        } else {
            0
        };
        return finish(Some(p), score, 0, vec![p]);
    }
    let mut limits = limits.clone();
    if limits.root_tactics {
        // A share of what is left of the search's time (the two VCFs need only
        // milliseconds; a job's later sub-searches start late in its window); nothing at
        // all when asked to answer at once (evidence: docs/strength-log.md,
        // "Root tactics without a VCT").
        let left = limits
            .hard
            .min(limits.soft)
            .saturating_sub(limits.start.elapsed());
        let cutoff = crate::tactics::cutoff::Cutoff {
            deadline: Instant::now().checked_add(left / TACTICS_SHARE),
            stop: Some(stop),
        };
        if !cutoff.reached() {
            // Under a node limit, the same share of the nodes.
            let node_share = match limits.max_nodes {
                u64::MAX => u64::MAX,
                n => n / TACTICS_SHARE as u64,
            };
            let (plan, nodes) = root_tactics::plan(&mut root, cutoff, root_memory, node_share);
            shared.nodes.fetch_add(nodes, Ordering::Relaxed);
            match plan.without(&limits.exclude) {
                root_tactics::RootPlan::Win(line) => {
                    let plies = plies_to_five(&root, root.to_move(), &line);
                    let score = score::win_in(plies);
                    report(&SearchEvent::Iteration(Progress {
                        depth: line.len() as i32,
                        seldepth: line.len(),
                        score,
                        nodes: shared.nodes.load(Ordering::Relaxed),
                        elapsed: limits.start.elapsed(),
                        pv: line.clone(),
                    }));
                    return finish(line.first().copied(), score, line.len() as i32, line);
                }
                root_tactics::RootPlan::Restrict(moves) => limits.allowed = Some(moves),
                root_tactics::RootPlan::Normal => {}
            }
        }
    }
    let limits = &limits;
    let results: Vec<Option<worker::IterationResult>> = std::thread::scope(|scope| {
        let (main_table, helper_tables) = thread_memory
            .split_first_mut()
            .expect("one table per thread");
        let handles: Vec<_> = helper_tables
            .iter_mut()
            .enumerate()
            .map(|(i, table)| {
                let b = root.clone();
                let shared = &shared;
                scope.spawn(move || {
                    let mut w = Worker::new(b, shared, limits, i + 1, None, table);
                    w.run();
                    w.best
                })
            })
            .collect();
        let mut main = Worker::new(root.clone(), &shared, limits, 0, Some(report), main_table);
        main.run();
        shared.stop.store(true, Ordering::Relaxed);
        let mut all = vec![main.best];
        all.extend(handles.into_iter().map(|h| h.join().ok().flatten()));
        all
    });
    let chosen = best_thread(results);
    match chosen {
        Some(r) if !r.pv.is_empty() => {
            let best = r.pv[0];
            finish(Some(best), r.score, r.depth, r.pv)
        }
        _ => {
            // Where the tactics kept only the moves that stop a VCF, one of them.
            let fallback = match &limits.allowed {
                Some(moves) if !fallback.is_some_and(|p| moves.contains(&p)) => {
                    moves.first().copied().or(fallback)
                }
                _ => fallback,
            };
            // No iteration gave a line: a side to move that cannot stop two fives has
            // lost, which balance and multi-PV must not read as an even position.
            let score = match movegen::forced_moves(&mut root) {
                Some(movegen::Forced::Lost) => score::lost_in(2),
                _ => 0,
            };
            finish(fallback, score, 0, fallback.into_iter().collect())
        }
    }
}

/// The result to play among the threads': a proven win, the shortest (a helper's
/// deeper iteration, cut by the stop, may not have reached it again), else the deepest
/// completed iteration (a helper that finished a depth the main thread did not reach
/// saw more); the main thread's on a tie, since its line is the one the progress output
/// printed.
fn best_thread(results: Vec<Option<worker::IterationResult>>) -> Option<worker::IterationResult> {
    let rank = |r: &worker::IterationResult| {
        if r.score >= score::WIN_BOUND {
            (1, r.score)
        } else {
            (0, r.depth)
        }
    };
    let mut chosen: Option<worker::IterationResult> = None;
    for r in results.into_iter().flatten().filter(|r| !r.pv.is_empty()) {
        if chosen.as_ref().is_none_or(|c| rank(&r) > rank(c)) {
            chosen = Some(r);
        }
    }
    chosen
}

/// A move to play when the search produced none: complete a five, block the
/// opponent's five, else the first generated move, else any legal move.
pub fn quick_move(board: &mut Board) -> Option<Pos> {
    match movegen::generate(board, &|_| 0) {
        movegen::Moves::Win(p) | movegen::Moves::Block(p) => Some(p),
        movegen::Moves::List(list) if !list.is_empty() => Some(list[0].0),
        _ => {
            let them = board.to_move().opp();
            let block = board.cells_with_threat(them, Threat::FIVE).next();
            let us = board.to_move();
            block
                .filter(|&p| board.is_legal(us, p))
                .or_else(|| movegen::any_legal_move(board))
        }
    }
}

/// Whether the quick move is the only sensible one (a five to complete).
fn fallback_is_final(board: &Board) -> bool {
    board.threat_count(board.to_move(), Threat::FIVE) > 0
}

#[cfg(test)]
mod tests {
    use super::{best_thread, worker::IterationResult, Pos};

    fn result(depth: i32, mv: u16) -> Option<IterationResult> {
        Some(IterationResult {
            depth,
            score: 0,
            pv: vec![Pos(mv)],
        })
    }

    #[test]
    fn the_deepest_thread_is_played_and_the_main_thread_wins_ties() {
        let pick = |r| best_thread(r).map(|r: IterationResult| r.pv[0]);
        assert_eq!(pick(vec![result(9, 1), result(10, 2)]), Some(Pos(2)));
        assert_eq!(pick(vec![result(10, 1), result(10, 2)]), Some(Pos(1)));
        assert_eq!(pick(vec![None, result(7, 2)]), Some(Pos(2)));
        assert_eq!(pick(vec![None, None]), None);
        // A proven win beats a deeper iteration that did not see it (cut by the stop),
        // and the shortest win the others.
        let win = |depth, plies, mv| {
            Some(IterationResult {
                score: super::score::win_in(plies),
                ..result(depth, mv).unwrap()
            })
        };
        assert_eq!(pick(vec![win(8, 5, 1), result(9, 2)]), Some(Pos(1)));
        assert_eq!(pick(vec![win(8, 7, 1), win(6, 5, 2)]), Some(Pos(2)));
    }

    fn search(board: &crate::board::Board, limits: &super::Limits) -> super::SearchResult {
        let engine = crate::engine::Engine::new(16 << 20, 1);
        engine.search(
            board,
            limits,
            &std::sync::atomic::AtomicBool::new(false),
            &|_| {},
        )
    }

    /// Two empty cells left on a 5x5 board where no line can be five: every line ends
    /// on the full board, a draw, also where the last stone falls at a quiescence leaf.
    #[test]
    fn a_full_board_at_a_leaf_is_a_draw() {
        use crate::board::{Board, Color, Rule};
        let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXO.."];
        let mut board = Board::new(5, 5, Rule::Freestyle).unwrap();
        let mut stones: [Vec<Pos>; 2] = [Vec::new(), Vec::new()];
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                match c {
                    'X' => stones[0].push(Pos::from_xy(x, y)),
                    'O' => stones[1].push(Pos::from_xy(x, y)),
                    _ => {}
                }
            }
        }
        // In turn, Black first: twelve black and eleven white stones leave White to move.
        for i in 0..stones[0].len() {
            board.make(stones[0][i], Color::Black);
            if let Some(&p) = stones[1].get(i) {
                board.make(p, Color::White);
            }
        }
        assert_eq!(board.to_move(), Color::White);
        for depth in 1..=3 {
            let r = search(&board, &super::Limits::depth(depth));
            if depth >= 2 {
                assert_eq!(r.score, 0, "depth {depth}: {r:?}");
            }
        }
    }

    /// Multi-PV's later lines: a root move that wins at once by a threat the opponent
    /// cannot stop is not played when it is excluded.
    #[test]
    fn an_excluded_quick_win_is_not_played() {
        use crate::board::{Board, Color, Rule};
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y, c) in [
            (7, 7, 0),
            (0, 0, 1),
            (8, 7, 0),
            (14, 0, 1),
            (9, 7, 0),
            (0, 14, 1),
        ] {
            board.make(Pos::from_xy(x, y), Color::BOTH[c]);
        }
        let (p, _) = super::movegen::quick_win(&mut board).expect("an open three");
        let limits = super::Limits {
            exclude: vec![p],
            ..super::Limits::depth(3)
        };
        let r = search(&board, &limits);
        assert_ne!(r.best, Some(p));
    }
}
