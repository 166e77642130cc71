//! `pbrain-ferrum solve [--time-ms N] [--threads N] FILE.jsonl`: solves puzzle lines
//! (explicit black and white stones, side to move, rule, size; extra fields ignored)
//! and prints one JSON line per puzzle, in the file's order:
//! `{"id": ..., "move": [x,y] | null, "result": "win" | "loss" | "unknown",
//!   "line": [[x,y], ...], "nodes": N, "ms": N}`.
//! The line is the proven winning line, attacker first. A VCF is tried first (its line
//! is checkable move by move), then, unless the puzzle asks for a VCF, the VCT, then,
//! unless it asks for a VCT, the main search with the time left. Puzzles are
//! solved `--threads` at a time (default: one per core), each on one search thread.

use crate::board::{Board, Color, Pos, Rule};
use crate::engine::Engine;
use crate::net::file::NetWeights;
use crate::search::score::{WIN, WIN_BOUND};
use crate::search::Limits;
use crate::tactics::cutoff::Cutoff;
use crate::tactics::vcf::{VcfLimits, VcfResult, VcfSolver};
use crate::tactics::vct::{VctLimits, VctSolver};
use crate::tools::parallel;
use crate::tools::progress::Progress;
use anyhow::{anyhow, bail, Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Options of the solve tool.
#[derive(clap::Args, Debug, Clone)]
pub struct SolveOptions {
    /// Time per puzzle, in milliseconds
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub time_ms: u64,
    /// Puzzles solved at once [default: one per core]
    #[arg(long, value_name = "N", value_parser = parallel::threads)]
    pub threads: Option<usize>,
    /// Puzzle file, one JSON object per line
    #[arg(value_name = "FILE.jsonl")]
    pub file: PathBuf,
}

/// A puzzle as read from a JSONL line.
pub struct Puzzle {
    pub id: String,
    pub board: Board,
    /// Most attacker moves allowed in the win (`depth` field), if the puzzle sets it.
    pub depth: Option<u32>,
    pub answers: Vec<Pos>,
    /// Whether `answers` lists every winning first move.
    pub answers_complete: bool,
    /// The puzzle says there is no win (`kind` "no_vcf" / "no_vct").
    pub expects_no_win: bool,
    /// What the puzzle asks for, from its `kind`: a VCF only, a VCT, or any win.
    pub(crate) question: Question,
    /// Most attacker moves of a VCF inside a VCT (`threat_limit` field, quintet's name).
    pub threat_limit: Option<u32>,
}

/// The kind of win a puzzle asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Question {
    Vcf,
    Vct,
    Any,
}

/// The answer for one puzzle.
pub(crate) struct Solution {
    pub mv: Option<Pos>,
    pub result: &'static str,
    pub line: Vec<Pos>,
    pub nodes: u64,
    pub ms: u64,
}

/// A puzzle line as the file has it; fields the solver does not use are ignored.
#[derive(Deserialize)]
struct PuzzleLine {
    #[serde(default)]
    id: Option<Id>,
    rule: Option<String>,
    size: Option<usize>,
    #[serde(default)]
    black: Vec<(i64, i64)>,
    #[serde(default)]
    white: Vec<(i64, i64)>,
    to_move: Option<String>,
    depth: Option<i64>,
    #[serde(default)]
    answers: Vec<(usize, usize)>,
    #[serde(default)]
    answers_complete: bool,
    #[serde(default)]
    kind: String,
    threat_limit: Option<i64>,
}

/// Puzzle ids are strings, in some files numbers.
#[derive(Deserialize)]
#[serde(untagged)]
enum Id {
    Text(String),
    Number(serde_json::Number),
}

pub fn parse_puzzle(text: &str) -> Result<Puzzle> {
    let j: PuzzleLine = serde_json::from_str(text).map_err(|e| anyhow!("bad JSON: {e}"))?;
    let id = match j.id {
        Some(Id::Text(s)) => s,
        Some(Id::Number(n)) => n.to_string(),
        None => String::new(),
    };
    let rule_name = j.rule.as_deref().unwrap_or("freestyle");
    let rule = Rule::from_name(rule_name).ok_or_else(|| anyhow!("unknown rule {rule_name}"))?;
    let size = j.size.unwrap_or(15);
    let mut board = Board::new(size, size, rule)?;
    for (stones, color) in [(&j.black, Color::Black), (&j.white, Color::White)] {
        for &(x, y) in stones {
            let p = board
                .pos(x, y)
                .filter(|&p| board.is_empty(p))
                .ok_or_else(|| anyhow!("bad stone {x},{y}"))?;
            // A five on the board ends the game: there is nothing to solve.
            if board.is_win_move(color, p) {
                bail!("a five is on the board at {x},{y}: the game is over");
            }
            board.make(p, color);
        }
    }
    let to_move = match j.to_move.as_deref() {
        Some("black") => Color::Black,
        Some("white") => Color::White,
        Some(other) => bail!("bad to_move {other}"),
        // Without it, the stones say whose turn it is, as in a game from Black's move.
        None if j.black.len() == j.white.len() => Color::Black,
        None if j.black.len() == j.white.len() + 1 => Color::White,
        None => bail!(
            "no to_move, and {} black and {} white stones do not say whose turn it is",
            j.black.len(),
            j.white.len()
        ),
    };
    board.set_to_move(to_move);
    let question = if j.kind.contains("vcf") {
        Question::Vcf
    } else if j.kind.contains("vct") {
        Question::Vct
    } else {
        Question::Any
    };
    Ok(Puzzle {
        id,
        board,
        depth: (j.depth.map(|d| u32::try_from(d.max(1))).transpose())
            .map_err(|_| anyhow!("bad depth"))?,
        answers: j
            .answers
            .into_iter()
            .filter(|&(x, y)| x < crate::board::MAX_SIZE && y < crate::board::MAX_SIZE)
            .map(|(x, y)| Pos::from_xy(x, y))
            .collect(),
        answers_complete: j.answers_complete,
        expects_no_win: j.kind.starts_with("no_"),
        question,
        threat_limit: j.threat_limit.map(|t| t.max(0) as u32),
    })
}

/// Whether a solution answers the puzzle: no win claimed where none is expected; else a
/// win, starting with a listed answer when the list is complete.
pub(crate) fn is_solved(puzzle: &Puzzle, s: &Solution) -> bool {
    if puzzle.expects_no_win {
        return s.result != "win";
    }
    s.result == "win"
        && (!puzzle.answers_complete || s.mv.is_some_and(|m| puzzle.answers.contains(&m)))
}

/// Solves one puzzle within `opts.time_ms`.
/// `vcf` is reused from puzzle to puzzle (it forgets what it learnt first): a new
/// solver's table costs more to clear than most puzzles take.
pub(crate) fn solve_puzzle(
    engine: &mut Engine,
    vcf: &mut VcfSolver<'static>,
    puzzle: &Puzzle,
    opts: &SolveOptions,
) -> Solution {
    let start = Instant::now();
    let deadline = start + Duration::from_millis(opts.time_ms);
    let mut board = puzzle.board.clone();
    // Any VCF answers the puzzle: the first one found at the full depth.
    vcf.forget();
    let nodes_before = vcf.nodes;
    let outcome = vcf.solve_with(
        &mut board,
        VcfLimits {
            max_depth: puzzle.depth.unwrap_or(VcfLimits::default().max_depth),
            cutoff: Cutoff::at(deadline),
            shortest_first: false,
            ..VcfLimits::default()
        },
    );
    let mut nodes = vcf.nodes - nodes_before;
    let ms = |s: Instant| s.elapsed().as_millis() as u64;
    let win = |line: Vec<Pos>, nodes: u64| Solution {
        mv: line.first().copied(),
        result: "win",
        line,
        nodes,
        ms: ms(start),
    };
    if let VcfResult::Win(line) = outcome {
        return win(line, nodes);
    }
    let unknown = |nodes: u64| Solution {
        mv: None,
        result: "unknown",
        line: Vec::new(),
        nodes,
        ms: ms(start),
    };
    if puzzle.question == Question::Vcf {
        return unknown(nodes);
    }
    // Memory in proportion to the time given: a proof-table entry per 10 us, from 2^18
    // to 2^24 entries (6 to 384 MB, and expansions for a quarter of them: quintet-23
    // took 861 MB at the top). A short solve does not pay for touching a big table
    // (2^24 entries cost about 0.2 s per puzzle).
    let entries = opts.time_ms.saturating_mul(100).clamp(1 << 18, 1 << 24);
    let table_bits = entries.next_power_of_two().trailing_zeros();
    let mut vct = VctSolver::with_memory(
        VctLimits {
            max_depth: puzzle.depth.unwrap_or(VctLimits::default().max_depth),
            vcf_depth: puzzle
                .threat_limit
                .unwrap_or(VctLimits::default().vcf_depth),
            cutoff: Cutoff::at(deadline),
            // A puzzle wants any win: one search at its full depth.
            shortest_first: false,
            ..VctLimits::default()
        },
        table_bits,
        entries as usize / 4,
    );
    let outcome = vct.solve(&mut board);
    nodes += vct.total_nodes();
    if let VcfResult::Win(line) = outcome {
        return win(line, nodes);
    }
    if puzzle.question == Question::Vct {
        return unknown(nodes);
    }
    // The main search, limited to the puzzle's win length when it has one, on a TT
    // cleared of the previous puzzle.
    engine.clear();
    let left = deadline.saturating_duration_since(Instant::now());
    let limits = Limits::time(Instant::now(), left, left);
    let stop = AtomicBool::new(false);
    let result = engine.search(&board, &limits, &stop, &|_| {});
    nodes += result.nodes;
    let max_plies = puzzle.depth.map(|d| 2 * d as i32 - 1).unwrap_or(i32::MAX);
    let (verdict, line) = if result.score >= WIN_BOUND && WIN - result.score <= max_plies {
        ("win", result.pv.clone())
    } else if result.score <= -WIN_BOUND {
        ("loss", result.pv.clone())
    } else {
        ("unknown", Vec::new())
    };
    Solution {
        mv: result.best,
        result: verdict,
        line,
        nodes,
        ms: ms(start),
    }
}

/// One answer line of the tool's output.
#[derive(Serialize)]
struct Answer<'a> {
    id: &'a str,
    #[serde(rename = "move")]
    mv: Option<[usize; 2]>,
    result: &'static str,
    line: Vec<[usize; 2]>,
    nodes: u64,
    ms: u64,
}

pub(crate) fn solution_json(id: &str, s: &Solution) -> String {
    let point = |p: Pos| [p.x(), p.y()];
    let answer = Answer {
        id,
        mv: s.mv.map(point),
        result: s.result,
        line: s.line.iter().map(|&p| point(p)).collect(),
        nodes: s.nodes,
        ms: s.ms,
    };
    serde_json::to_string(&answer).expect("an answer is plain data")
}

/// Runs the tool: JSON lines to `out` in the file's order, the summary returned for
/// stderr. Every line is read before any is solved, so that a bad line costs no time.
/// `nets` and `use_net` as the engine's (`--net`, `--eval`).
pub fn run(
    opts: &SolveOptions,
    nets: &[Arc<NetWeights>],
    use_net: bool,
    out: &mut dyn std::io::Write,
) -> Result<String> {
    let file = opts.file.display();
    let text = std::fs::read_to_string(&opts.file).with_context(|| format!("reading {file}"))?;
    let puzzles = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| parse_puzzle(line).with_context(|| format!("{file} line {}", n + 1)))
        .collect::<Result<Vec<_>>>()?;
    let progress = Progress::new("solve", puzzles.len());
    let solved_so_far = AtomicUsize::new(0);
    let wall = Instant::now();
    // Each worker keeps its engine and VCF solver from puzzle to puzzle: making them
    // costs more than most puzzles take.
    let solutions: Vec<(Solution, Duration)> = parallel::pool(opts.threads)?.install(|| {
        puzzles
            .par_iter()
            .map_init(
                || {
                    let mut engine = Engine::new(64 << 20, 1);
                    engine.set_nets(nets, use_net);
                    (engine, VcfSolver::new(VcfLimits::default()))
                },
                |(engine, vcf), puzzle| {
                    let started = Instant::now();
                    let s = solve_puzzle(engine, vcf, puzzle, opts);
                    let took = started.elapsed();
                    if is_solved(puzzle, &s) {
                        solved_so_far.fetch_add(1, Ordering::Relaxed);
                    }
                    progress.tick(|| format!("solved {}", solved_so_far.load(Ordering::Relaxed)));
                    (s, took)
                },
            )
            .collect()
    });
    progress.finish();
    let (mut solved, mut failed, mut slowest) = (0, 0, 0u64);
    let mut total = Duration::ZERO;
    for (puzzle, (s, took)) in puzzles.iter().zip(&solutions) {
        writeln!(out, "{}", solution_json(&puzzle.id, s))?;
        if is_solved(puzzle, s) {
            solved += 1;
        } else {
            failed += 1;
        }
        total += *took;
        slowest = slowest.max(s.ms);
    }
    out.flush()?;
    Ok(format!(
        "solved {solved} failed {failed} of {} in {:.3} s (slowest {slowest} ms), wall {:.3} s",
        solved + failed,
        total.as_secs_f64(),
        wall.elapsed().as_secs_f64()
    ))
}

#[cfg(test)]
mod tests {
    use super::parse_puzzle;

    #[test]
    fn positions_past_the_end_and_bad_depths_are_refused() {
        let five = r#"{"black":[[3,7],[4,7],[5,7],[6,7],[7,7]],"white":[[0,0],[0,1],[0,2],[0,3]],"to_move":"white"}"#;
        let err = parse_puzzle(five)
            .err()
            .expect("a five on the board is refused");
        assert!(err.to_string().contains("five is on the board"), "{err}");
        let four =
            r#"{"black":[[3,7],[4,7],[5,7],[6,7]],"white":[[0,0],[0,1],[0,2]],"to_move":"black"}"#;
        assert!(parse_puzzle(four).is_ok());
        let deep = four.replace("}", r#","depth":4294967297}"#);
        assert!(parse_puzzle(&deep).is_err());
    }

    #[test]
    fn without_to_move_the_stone_counts_say_whose_turn_it_is() {
        use crate::board::Color;
        // White's stones are placed last: the side to move must not follow them.
        let white = r#"{"black":[[7,7],[8,7],[9,7]],"white":[[0,0],[0,14]]}"#;
        assert_eq!(parse_puzzle(white).unwrap().board.to_move(), Color::White);
        let black = r#"{"black":[[7,7],[8,7]],"white":[[0,0],[0,14]]}"#;
        assert_eq!(parse_puzzle(black).unwrap().board.to_move(), Color::Black);
        let odd = r#"{"black":[[7,7],[8,7],[9,7],[6,7]],"white":[[0,0]]}"#;
        assert!(parse_puzzle(odd).is_err());
    }
}
