//! `pbrain-ferrum solve [--time-ms N] [--threads N] FILE.jsonl`: solves puzzle lines
//! (explicit black and white stones, side to move, rule, size; extra fields ignored)
//! and prints one JSON line per puzzle:
//! `{"id": ..., "move": [x,y] | null, "result": "win" | "loss" | "unknown",
//!   "line": [[x,y], ...], "nodes": N, "ms": N}`.
//! The line is the proven winning line, attacker first. A VCF is tried first (its line
//! is checkable move by move), then the main search with the time left.

use crate::board::{Board, Color, Pos, Rule};
use crate::engine::Engine;
use crate::search::score::{WIN, WIN_BOUND};
use crate::search::Limits;
use crate::tactics::cutoff::Cutoff;
use crate::tactics::vcf::{VcfLimits, VcfResult, VcfSolver};
use crate::tactics::vct::{VctLimits, VctSolver};
use crate::tools::json::{self, Json};
use anyhow::{anyhow, bail, Context, Result};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Options of the solve tool.
pub struct SolveOptions {
    pub time_ms: u64,
    pub threads: usize,
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
    pub question: Question,
    /// Most attacker moves of a VCF inside a VCT (`threat_limit` field, quintet's name).
    pub threat_limit: Option<u32>,
}

/// The kind of win a puzzle asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    Vcf,
    Vct,
    Any,
}

/// The answer for one puzzle.
pub struct Solution {
    pub mv: Option<Pos>,
    pub result: &'static str,
    pub line: Vec<Pos>,
    pub nodes: u64,
    pub ms: u64,
}

fn points(j: Option<&Json>) -> Vec<(i32, i32)> {
    j.and_then(Json::as_points).unwrap_or_default()
}

pub fn parse_puzzle(text: &str) -> Result<Puzzle> {
    let j = json::parse(text).map_err(|e| anyhow!("bad JSON: {e}"))?;
    let id = match j.get("id") {
        Some(Json::Str(s)) => s.clone(),
        Some(Json::Num(n)) => n.to_string(),
        _ => String::new(),
    };
    let rule_name = j.get("rule").and_then(Json::as_str).unwrap_or("freestyle");
    let rule = Rule::from_name(rule_name).ok_or_else(|| anyhow!("unknown rule {rule_name}"))?;
    let size = j.get("size").and_then(Json::as_i64).unwrap_or(15) as usize;
    let mut board = Board::new(size, size, rule)?;
    for (key, color) in [("black", Color::Black), ("white", Color::White)] {
        for (x, y) in points(j.get(key)) {
            let p = board
                .pos(x as i64, y as i64)
                .filter(|&p| board.is_empty(p))
                .ok_or_else(|| anyhow!("bad stone {x},{y}"))?;
            board.make(p, color);
        }
    }
    let to_move = match j.get("to_move").and_then(Json::as_str) {
        Some("black") => Color::Black,
        Some("white") => Color::White,
        Some(other) => bail!("bad to_move {other}"),
        None => board.to_move(),
    };
    board.set_to_move(to_move);
    let depth = j
        .get("depth")
        .and_then(Json::as_i64)
        .map(|d| d.max(1) as u32);
    let answers = points(j.get("answers"))
        .into_iter()
        .map(|(x, y)| Pos::from_xy(x as usize, y as usize))
        .collect();
    let answers_complete = j
        .get("answers_complete")
        .and_then(Json::as_bool)
        .unwrap_or(false);
    let expects_no_win = j
        .get("kind")
        .and_then(Json::as_str)
        .is_some_and(|k| k.starts_with("no_"));
    let kind = j.get("kind").and_then(Json::as_str).unwrap_or("");
    let question = if kind.contains("vcf") {
        Question::Vcf
    } else if kind.contains("vct") {
        Question::Vct
    } else {
        Question::Any
    };
    let threat_limit = j
        .get("threat_limit")
        .and_then(Json::as_i64)
        .map(|t| t.max(0) as u32);
    Ok(Puzzle {
        id,
        board,
        depth,
        answers,
        answers_complete,
        expects_no_win,
        question,
        threat_limit,
    })
}

/// Whether a solution answers the puzzle: no win claimed where none is expected; else a
/// win, starting with a listed answer when the list is complete.
pub fn is_solved(puzzle: &Puzzle, s: &Solution) -> bool {
    if puzzle.expects_no_win {
        return s.result != "win";
    }
    s.result == "win"
        && (!puzzle.answers_complete || s.mv.is_some_and(|m| puzzle.answers.contains(&m)))
}

/// Solves one puzzle within `opts.time_ms`.
/// `vcf` is reused from puzzle to puzzle (it forgets what it learnt first): a new
/// solver's table costs more to clear than most puzzles take.
pub fn solve_puzzle(
    engine: &Engine,
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
    engine.clear_shared();
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

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_point(p: Pos) -> String {
    format!("[{},{}]", p.x(), p.y())
}

pub fn solution_json(id: &str, s: &Solution) -> String {
    let line: Vec<String> = s.line.iter().map(|&p| json_point(p)).collect();
    format!(
        "{{\"id\": {}, \"move\": {}, \"result\": \"{}\", \"line\": [{}], \"nodes\": {}, \"ms\": {}}}",
        json_string(id),
        s.mv.map(json_point).unwrap_or_else(|| "null".into()),
        s.result,
        line.join(","),
        s.nodes,
        s.ms
    )
}

/// Parses `solve` arguments.
pub fn parse_args(args: &[String]) -> Result<(SolveOptions, String)> {
    let mut opts = SolveOptions {
        time_ms: 1000,
        threads: 1,
    };
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--time-ms" => opts.time_ms = it.next().context("--time-ms needs a value")?.parse()?,
            "--threads" => opts.threads = it.next().context("--threads needs a value")?.parse()?,
            f if !f.starts_with("--") => file = Some(f.to_string()),
            other => bail!("unknown option {other}"),
        }
    }
    Ok((
        opts,
        file.context("usage: solve [--time-ms N] [--threads N] FILE.jsonl")?,
    ))
}

/// Runs the tool: JSON lines to `out`, the summary returned for stderr.
pub fn run(args: &[String], out: &mut dyn std::io::Write) -> Result<String> {
    let (opts, file) = parse_args(args)?;
    let text = std::fs::read_to_string(&file).with_context(|| format!("reading {file}"))?;
    let engine = Engine::new(64 << 20, opts.threads);
    let mut vcf = VcfSolver::new(VcfLimits::default());
    let (mut solved, mut failed, mut slowest) = (0, 0, 0u64);
    let mut total = std::time::Duration::ZERO;
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let puzzle = parse_puzzle(line).with_context(|| format!("{file} line {}", n + 1))?;
        let started = Instant::now();
        let s = solve_puzzle(&engine, &mut vcf, &puzzle, &opts);
        total += started.elapsed();
        writeln!(out, "{}", solution_json(&puzzle.id, &s))?;
        out.flush()?;
        if is_solved(&puzzle, &s) {
            solved += 1;
        } else {
            failed += 1;
        }
        slowest = slowest.max(s.ms);
    }
    Ok(format!(
        "solved {solved} failed {failed} of {} in {:.3} s (slowest {slowest} ms)",
        solved + failed,
        total.as_secs_f64()
    ))
}
