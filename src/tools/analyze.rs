//! `pbrain-ferrum analyze`: analysis of one position from the command line.
//!
//! ```text
//! pbrain-ferrum [--eval classical] [--net FILE] analyze --rule R --size N --moves h8,i9,...
//!     [--time-ms T] [--threads N]
//! ```
//!
//! It evaluates as the engine's options say (a line `evaluation: network` or
//! `classical` follows the position's).
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

use crate::board::{Board, Color, Pos, Rule};
use crate::engine::{default_threads, Engine, DEFAULT_TT_BYTES};
use crate::net::file::NetWeights;
use crate::search::score::format_score;
use crate::search::{Limits, SearchEvent};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the command line asks for.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Options {
    /// freestyle, standard, renju, caro, caro-exact or a Gomocup rule number (0, 1, 4,
    /// 8, 9)
    #[arg(long, value_name = "R", default_value = "freestyle", value_parser = Rule::parse)]
    pub rule: Rule,
    /// N or WxH
    #[arg(long, value_name = "N", default_value = "15", value_parser = parse_size)]
    pub size: (usize, usize),
    /// Black first, letter = x, number = y + 1 (h8,i9,... or "h8 i9 ...")
    #[arg(long, value_name = "MOVES", default_value = "", value_parser = parse_moves)]
    pub moves: Moves,
    /// Stop after T ms (0: no limit); Enter stops at once
    #[arg(long, value_name = "T", default_value_t = 0)]
    pub time_ms: u64,
    /// Search threads [default: one per core]
    #[arg(long, value_name = "N", value_parser = crate::tools::parallel::threads)]
    pub threads: Option<usize>,
}

/// The moves to the position, (x, y) from 0.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Moves(pub Vec<(usize, usize)>);

impl Options {
    /// Freestyle on 15x15 after `moves`, searched on one thread without a time limit.
    pub fn with_moves(moves: &str) -> Result<Options, String> {
        Ok(Options {
            rule: Rule::Freestyle,
            size: (15, 15),
            moves: parse_moves(moves)?,
            time_ms: 0,
            threads: Some(1),
        })
    }
}

fn parse_moves(s: &str) -> Result<Moves, String> {
    s.split([',', ' '])
        .filter(|m| !m.is_empty())
        .map(|m| Pos::parse_notation(m).ok_or(format!("bad move '{m}'")))
        .collect::<Result<_, _>>()
        .map(Moves)
}

fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (w, h) = match s.split_once(['x', 'X']) {
        Some((w, h)) => (w.parse().ok(), h.parse().ok()),
        None => (s.parse().ok(), s.parse().ok()),
    };
    let ok = |v: Option<usize>| {
        v.filter(|v| (crate::board::MIN_SIZE..=crate::board::MAX_SIZE).contains(v))
            .ok_or(format!("bad size '{s}'"))
    };
    Ok((ok(w)?, ok(h)?))
}

/// The position after the moves (Black first, alternating).
pub fn position(o: &Options) -> Result<Board, String> {
    let (width, height) = o.size;
    let mut board = Board::new(width, height, o.rule).map_err(|e| e.to_string())?;
    for (i, &(x, y)) in o.moves.0.iter().enumerate() {
        let p = board.pos(x as i64, y as i64).ok_or_else(|| {
            let at = Pos::notation_of(x, y);
            format!("move {} ({at}) is off the board", i + 1)
        })?;
        if !board.is_empty(p) {
            return Err(format!("move {} ({}) is occupied", i + 1, p.notation()));
        }
        let side = board.to_move();
        if !board.is_legal(side, p) {
            let why = board.forbid_kind(p).map_or("not legal", |k| k.name());
            return Err(format!(
                "move {} ({}) is forbidden: {why}",
                i + 1,
                p.notation()
            ));
        }
        if board.is_win_move(side, p) {
            // The game ended there: nothing after it, nothing left to analyse.
            let player = if side == Color::Black {
                "Black"
            } else {
                "White"
            };
            return Err(format!(
                "move {} ({}) wins the game for {player}",
                i + 1,
                p.notation()
            ));
        }
        board.make(p, side);
    }
    Ok(board)
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
pub(crate) fn analyze(
    o: &Options,
    nets: &[Arc<NetWeights>],
    use_net: bool,
    stop: &AtomicBool,
    out: &mut (dyn Write + Send),
) -> Result<(), String> {
    let board = position(o)?;
    let side = if board.to_move() == Color::Black {
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
        o.size.0,
        o.size.1,
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
    let threads = o.threads.unwrap_or_else(default_threads);
    let mut engine = Engine::new(DEFAULT_TT_BYTES, threads);
    engine.set_nets(nets, use_net);
    let evaluation = match engine.net_for(o.rule) {
        Some(_) => "network",
        None => "classical",
    };
    writeln!(out, "evaluation: {evaluation}, search threads: {threads}").map_err(io)?;
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

/// The `analyze` subcommand: starts the Enter watcher and analyses.
/// `nets` and `use_net` as the engine's (`--net`, `--eval`).
pub fn run(o: &Options, nets: &[Arc<NetWeights>], use_net: bool) -> Result<(), String> {
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
    analyze(o, nets, use_net, &stop, &mut stdout)
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

    fn parse_args(s: &str) -> Result<Options, clap::Error> {
        let args = std::iter::once("analyze").chain(s.split_whitespace());
        Cli::try_parse_from(args).map(|c| c.options)
    }

    #[test]
    fn parses_moves_and_options() {
        let o = parse_args("--rule renju --size 15 --moves h8,i9,j10 --time-ms 500 --threads 2")
            .unwrap();
        assert_eq!(o.rule, Rule::Renju);
        assert_eq!(o.moves.0, vec![(7, 7), (8, 8), (9, 9)]);
        assert_eq!((o.time_ms, o.threads), (500, Some(2)));
        let o = parse_args("--rule 1 --size 20x15").unwrap();
        assert_eq!((o.rule, o.size), (Rule::Standard, (20, 15)));
        assert_eq!(o.moves.0, vec![]);
        assert!(parse_args("--rule nope").is_err());
        assert!(parse_args("--size 40").is_err());
        let err = parse_args("--moves h8,zz").unwrap_err().to_string();
        assert!(err.contains("--moves") && err.contains("zz"), "{err}");
        assert!(parse_args("--time-ms").is_err());
        assert!(parse_args("--threads 0").is_err());
    }

    #[test]
    fn rejects_bad_positions() {
        let mut o = Options::with_moves("h8,h8").unwrap();
        assert!(position(&o).is_err());
        o.moves = Moves(vec![(20, 3)]);
        assert!(position(&o).is_err());
        // An off-board move is named as it was typed.
        let off = Options::with_moves("h8,a99").unwrap();
        assert!(position(&off).err().unwrap().contains("move 2 (a99)"));
        o.moves = Moves(vec![(7, 7), (8, 8)]);
        let b = position(&o).unwrap();
        assert_eq!(b.move_count(), 2);
        // A finished game, and a renju foul (h8 a double three), are not analysed.
        let o = Options::with_moves("h8,a1,i8,a2,j8,a3,k8,a4,l8").unwrap();
        assert!(position(&o)
            .err()
            .unwrap()
            .contains("wins the game for Black"));
        let mut o = Options::with_moves("g8,a1,i8,a3,h7,a5,h9,a7,h8").unwrap();
        o.rule = Rule::Renju;
        assert!(position(&o).err().unwrap().contains("double-three"));
    }

    #[test]
    fn analysis_stops_on_time() {
        let o = parse_args("--moves h8,h9,i9,g7,j10,k11,i8,i10,g10,h11 --time-ms 300 --threads 1")
            .unwrap();
        let stop = AtomicBool::new(false);
        let mut buf: Vec<u8> = Vec::new();
        let t = Instant::now();
        analyze(&o, &[], true, &stop, &mut buf).unwrap();
        assert!(t.elapsed() < Duration::from_millis(2000));
        let text = String::from_utf8(buf).unwrap();
        assert!(text.contains("Black to move after 10"), "{text}");
        assert!(text.contains("evaluation: network"), "{text}");
        // One iteration at least, not two: on a loaded two-core machine 300 ms can
        // give this search a single depth.
        assert!(text.lines().any(|l| l.starts_with("depth ")), "{text}");
        assert!(
            text.lines().last().unwrap().starts_with("bestmove "),
            "{text}"
        );
    }
}
