//! `pbrain-ferrum analyze`: analysis of one position from the command line.
//!
//! ```text
//! pbrain-ferrum analyze --rule R --size N --moves h8,i9,... [--time-ms T] [--threads N]
//! ```
//!
//! The moves are in move-list notation (letter = x, number = y + 1; Black first). The
//! search runs until Enter is pressed, the time limit passes (`--time-ms`, 0 = none)
//! or the maximum depth is reached, and prints one line per completed iteration:
//!
//! ```text
//! depth 9-17 ev +35 best j10 n 1.2M n/ms 1100 tm 930 pv j10 k11 i9
//! ```
//!
//! then `bestmove j10 (9,9) ev +35 depth 9 nodes 1234567 time 930`. The evaluation
//! is for the side to move (`+M7`/`-M7`: a win/loss in 7 plies).

use crate::board::{Board, Pos, Rule};
use crate::engine::{default_threads, Engine, DEFAULT_TT_BYTES};
use crate::search::score::format_score;
use crate::search::{Limits, SearchEvent};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const USAGE: &str = "usage: pbrain-ferrum analyze --rule R --size N --moves h8,i9,... [--time-ms T] [--threads N]\n  R: freestyle, standard, renju, caro, caro-exact or a Gomocup rule number (0, 1, 4, 8, 9)\n  --size N or --size WxH (default 15); --moves: Black first, letter = x, number = y + 1\n  --time-ms T: stop after T ms (default 0: no limit); Enter stops at once";

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    pub moves: Vec<(usize, usize)>,
    /// 0 = no limit.
    pub time_ms: u64,
    pub threads: usize,
}

/// Parses `h8` (and `aa8`… for boards wider than 26) into (x, y).
pub fn parse_move(s: &str) -> Option<(usize, usize)> {
    let s = s.trim().to_ascii_lowercase();
    let split = s.find(|c: char| c.is_ascii_digit())?;
    let (letters, digits) = s.split_at(split);
    let x = match letters.as_bytes() {
        [c] if c.is_ascii_lowercase() => (c - b'a') as usize,
        [b'a', c] if c.is_ascii_lowercase() => 26 + (c - b'a') as usize,
        _ => return None,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let y: usize = digits.parse().ok()?;
    Some((x, y.checked_sub(1)?))
}

fn parse_rule(s: &str) -> Option<Rule> {
    Rule::from_name(s).or_else(|| match s.to_ascii_lowercase().as_str() {
        "gomoku" => Some(Rule::Freestyle),
        "exact" | "standard-gomoku" => Some(Rule::Standard),
        "caroexact" | "caro_exact" => Some(Rule::CaroExact),
        other => other.parse::<i64>().ok().and_then(Rule::from_gomocup),
    })
}

pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        rule: Rule::Freestyle,
        width: 15,
        height: 15,
        moves: Vec::new(),
        time_ms: 0,
        threads: default_threads(),
    };
    let mut i = 0;
    while i < args.len() {
        let key = args[i].as_str();
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{key} needs a value"))?;
        match key {
            "--rule" => o.rule = parse_rule(value).ok_or(format!("unknown rule '{value}'"))?,
            "--size" => {
                let (w, h) = match value.split_once(['x', 'X']) {
                    Some((w, h)) => (w.parse().ok(), h.parse().ok()),
                    None => (value.parse().ok(), value.parse().ok()),
                };
                let ok = |v: Option<usize>| {
                    v.filter(|v| (crate::board::MIN_SIZE..=crate::board::MAX_SIZE).contains(v))
                };
                o.width = ok(w).ok_or(format!("bad size '{value}'"))?;
                o.height = ok(h).ok_or(format!("bad size '{value}'"))?;
            }
            "--moves" => {
                o.moves = value
                    .split([',', ' '])
                    .filter(|m| !m.is_empty())
                    .map(|m| parse_move(m).ok_or(format!("bad move '{m}'")))
                    .collect::<Result<_, _>>()?
            }
            "--time-ms" => o.time_ms = value.parse().map_err(|_| format!("bad time '{value}'"))?,
            "--threads" => {
                o.threads = value
                    .parse::<usize>()
                    .ok()
                    .filter(|&t| t > 0)
                    .ok_or(format!("bad thread count '{value}'"))?
            }
            _ => return Err(format!("unknown option '{key}'")),
        }
        i += 2;
    }
    Ok(o)
}

/// The position after the moves (Black first, alternating).
pub fn position(o: &Options) -> Result<Board, String> {
    let mut board = Board::new(o.width, o.height, o.rule).map_err(|e| e.to_string())?;
    for (i, &(x, y)) in o.moves.iter().enumerate() {
        let p = board
            .pos(x as i64, y as i64)
            .ok_or_else(|| format!("move {} ({}) is off the board", i + 1, notation(x, y)))?;
        if !board.is_empty(p) {
            return Err(format!("move {} ({}) is occupied", i + 1, p.notation()));
        }
        let side = board.to_move();
        if board.is_win_move(side, p) && i + 1 < o.moves.len() {
            return Err(format!(
                "move {} ({}) already wins the game",
                i + 1,
                p.notation()
            ));
        }
        board.make(p, side);
    }
    Ok(board)
}

fn notation(x: usize, y: usize) -> String {
    Pos::from_xy(x.min(31), y.min(31)).notation()
}

fn human_count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=9_999_999 => format!("{}K", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

fn signed(score: i32) -> String {
    let s = format_score(score);
    if score > 0 && !s.starts_with('+') {
        format!("+{s}")
    } else {
        s
    }
}

/// Runs the analysis: writes the header, one line per iteration and the result to
/// `out`. `stop` ends the search early (the caller sets it on Enter).
pub fn analyze(o: &Options, stop: &AtomicBool, out: &mut (dyn Write + Send)) -> Result<(), String> {
    let board = position(o)?;
    let side = if board.to_move() == crate::board::Color::Black {
        "Black"
    } else {
        "White"
    };
    let moves = board.moves_played();
    let io = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "position: {} {}x{}, {} to move after {} move(s): {}",
        o.rule.name(),
        o.width,
        o.height,
        side,
        moves.len(),
        if moves.is_empty() {
            "-".to_string()
        } else {
            Pos::line_notation(&moves)
        }
    )
    .map_err(io)?;
    if board.empty_count() == 0 {
        writeln!(out, "the board is full").map_err(io)?;
        return Ok(());
    }
    let engine = Engine::new(DEFAULT_TT_BYTES, o.threads);
    let start = Instant::now();
    let limit = if o.time_ms == 0 {
        Duration::MAX
    } else {
        Duration::from_millis(o.time_ms)
    };
    let limits = Limits::time(start, limit, limit);
    let out = Mutex::new(out);
    let report = |e: &SearchEvent| {
        if let SearchEvent::Iteration(p) = e {
            let ms = p.elapsed.as_millis().max(1) as u64;
            let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
            let _ = writeln!(
                w,
                "depth {}-{} ev {} best {} n {} n/ms {} tm {} pv {}",
                p.depth,
                p.seldepth,
                signed(p.score),
                p.pv.first().map_or("-".to_string(), |m| m.notation()),
                human_count(p.nodes),
                p.nodes / ms,
                ms,
                Pos::line_notation(&p.pv)
            );
            let _ = w.flush();
        }
    };
    let r = engine.search(&board, &limits, stop, &report);
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    match r.best {
        Some(p) => writeln!(
            w,
            "bestmove {} ({}) ev {} depth {} nodes {} time {}",
            p.notation(),
            p,
            signed(r.score),
            r.depth,
            r.nodes,
            r.elapsed.as_millis()
        ),
        None => writeln!(w, "bestmove none"),
    }
    .map_err(io)?;
    w.flush().map_err(io)
}

/// The `analyze` subcommand: parses `args`, starts the Enter watcher and analyses.
pub fn run(args: &[String]) -> Result<(), String> {
    let o = parse_args(args)?;
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = stop.clone();
    let has_limit = o.time_ms > 0;
    // Enter (any line) stops the search. End of input stops it too, unless a time
    // limit was given (so that `analyze ... < /dev/null` runs for its time).
    std::thread::Builder::new()
        .name("enter".into())
        .spawn(move || {
            let mut line = String::new();
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            match lock.read_line(&mut line) {
                Ok(0) | Err(_) if has_limit => {}
                _ => watcher.store(true, Ordering::Relaxed),
            }
        })
        .map_err(|e| e.to_string())?;
    let mut stdout = std::io::stdout();
    analyze(&o, &stop, &mut stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_moves_and_options() {
        assert_eq!(parse_move("h8"), Some((7, 7)));
        assert_eq!(parse_move("A1"), Some((0, 0)));
        assert_eq!(parse_move("o15"), Some((14, 14)));
        assert_eq!(parse_move("ab3"), Some((27, 2)));
        assert_eq!(parse_move("h0"), None);
        assert_eq!(parse_move("8h"), None);
        assert_eq!(parse_move("h"), None);
        let o = parse_args(&args(
            "--rule renju --size 15 --moves h8,i9,j10 --time-ms 500 --threads 2",
        ))
        .unwrap();
        assert_eq!(o.rule, Rule::Renju);
        assert_eq!(o.moves, vec![(7, 7), (8, 8), (9, 9)]);
        assert_eq!((o.time_ms, o.threads), (500, 2));
        let o = parse_args(&args("--rule 1 --size 20x15")).unwrap();
        assert_eq!((o.rule, o.width, o.height), (Rule::Standard, 20, 15));
        assert!(parse_args(&args("--rule nope")).is_err());
        assert!(parse_args(&args("--size 40")).is_err());
        assert!(parse_args(&args("--moves h8,zz")).is_err());
        assert!(parse_args(&args("--time-ms")).is_err());
    }

    #[test]
    fn rejects_bad_positions() {
        let mut o = parse_args(&args("--moves h8,h8")).unwrap();
        assert!(position(&o).is_err());
        o.moves = vec![(20, 3)];
        assert!(position(&o).is_err());
        o.moves = vec![(7, 7), (8, 8)];
        let b = position(&o).unwrap();
        assert_eq!(b.move_count(), 2);
    }

    #[test]
    fn analysis_stops_on_time() {
        let o = parse_args(&args(
            "--moves h8,h9,i9,g7,j10,k11,i8,i10,g10,h11 --time-ms 300 --threads 1",
        ))
        .unwrap();
        let stop = AtomicBool::new(false);
        let mut buf: Vec<u8> = Vec::new();
        let t = Instant::now();
        analyze(&o, &stop, &mut buf).unwrap();
        assert!(t.elapsed() < Duration::from_millis(2000));
        let text = String::from_utf8(buf).unwrap();
        assert!(text.contains("Black to move after 10"), "{text}");
        // One iteration at least, not two: with a match on both cores of the test
        // machine, 300 ms gave this search a single depth (session 36).
        assert!(text.lines().any(|l| l.starts_with("depth ")), "{text}");
        assert!(
            text.lines().last().unwrap().starts_with("bestmove "),
            "{text}"
        );
    }
}
