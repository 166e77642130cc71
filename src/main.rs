//! `pbrain-ferrum`: with no subcommand, the Gomocup protocol on stdin/stdout; the
//! subcommands are the benchmark and the tools (see `--help`). Options before the
//! subcommand are the program's; those after it are the subcommand's.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use ferrum::logging::{install_panic_hook, LogSink};
use ferrum::net::file::NetWeights;
use ferrum::tools::{analyze, move_scan, sample, selfplay, solve, train, tune};
use std::sync::Arc;

/// A Gomoku/Renju engine for the Gomocup (pbrain) protocol. With no subcommand: the
/// protocol on stdin/stdout.
#[derive(Parser)]
#[command(
    name = "pbrain-ferrum",
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("FERRUM_COMMIT"), ")")
)]
struct Cli {
    /// Log to FILE (also: the FERRUM_LOG environment variable)
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Search threads (matches run engines with one thread each) [default: one per core]
    #[arg(long, value_name = "N", value_parser = ferrum::tools::parallel::threads)]
    threads: Option<usize>,
    /// Evaluation: the network of the game's rule (a --net file's, else the built-in
    /// one; freestyle and renju have one, other rules play classical), or the classical
    /// pattern evaluation
    #[arg(long, value_enum, default_value = "net")]
    eval: Eval,
    /// A network file to evaluate its rule with (repeat for other rules)
    #[arg(long, value_name = "FILE")]
    net: Vec<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Eval {
    Classical,
    Net,
}

#[derive(Subcommand)]
enum Command {
    /// Fixed positions searched to a fixed depth: the search's node-count signature
    Bench {
        /// Search depth
        #[arg(default_value_t = ferrum::bench::DEFAULT_DEPTH,
            value_parser = ferrum::tools::args::depth())]
        depth: i32,
    },
    /// Solve the puzzles of a JSONL file, one JSON answer per line
    Solve(solve::SolveOptions),
    /// Search one position, printing each iteration, until Enter or the time limit
    Analyze(analyze::Options),
    /// Fit the evaluation weights to game results or a teacher's verdicts
    Tune(tune::Options),
    /// Print the moves to stand-pat leaves of short searches of game positions
    SampleLeaves(sample::Options),
    /// Look for moves the move generator wrongly leaves out
    ScanMoves(move_scan::Options),
    /// Play training games of the engine against itself at a fixed node count (searching
    /// with the network unless `--eval classical` comes first: generation 0's data)
    Selfplay(selfplay::SelfplayOptions),
    /// Write random balanced openings, one per line (offset format)
    Openings(selfplay::OpeningsOptions),
    /// Train a network on self-play games and write it in the engine's format
    Train(train::Options),
    /// Serve a local web board on 127.0.0.1 (play and analyse with any pbrain engine)
    #[cfg(feature = "board")]
    Board(ferrum::web::Options),
}

fn main() {
    let cli = Cli::parse();
    let log = LogSink::install();
    install_panic_hook();
    let log_file = cli
        .log
        .or_else(|| std::env::var_os("FERRUM_LOG").map(PathBuf::from));
    if let Some(path) = &log_file {
        log.set_file(path);
    }
    // A network that does not load is reported and left out: the engine plays on with
    // the evaluations it has (the rule's built-in network, else the classical one). A
    // tool stops instead: self-play or a measurement with another network than asked
    // for would be hours of the wrong data.
    let nets: Vec<Arc<NetWeights>> = cli
        .net
        .iter()
        .filter_map(|path| match ferrum::net::load(path) {
            Ok(net) => Some(Arc::new(net)),
            Err(e) if cli.command.is_some() => {
                eprintln!("pbrain-ferrum: {e:#}");
                std::process::exit(2);
            }
            Err(e) => {
                eprintln!("pbrain-ferrum: {e:#}; using the built-in evaluation instead");
                log::warn!("{e:#}");
                None
            }
        })
        .collect();
    let use_net = cli.eval == Eval::Net;
    let Some(mut command) = cli.command else {
        ferrum::protocol::run(log, log_file.is_some(), cli.threads, &nets, use_net)
    };
    // `--threads` before the subcommand is the program's: each tool's own default.
    let threads = match &mut command {
        Command::Solve(o) => Some(&mut o.threads),
        Command::Analyze(o) => Some(&mut o.threads),
        Command::Tune(o) => Some(&mut o.threads),
        Command::SampleLeaves(o) => Some(&mut o.games.threads),
        Command::ScanMoves(o) => Some(&mut o.games.threads),
        Command::Selfplay(o) => Some(&mut o.threads),
        Command::Train(o) => Some(&mut o.threads),
        _ => None,
    };
    if let Some(t) = threads.filter(|t| t.is_none()) {
        *t = cli.threads;
    }
    let failed = |tool: &str, e: &dyn std::fmt::Display| -> ! {
        eprintln!("{tool}: {e:#}");
        log::logger().flush();
        std::process::exit(2);
    };
    match command {
        Command::Bench { depth } => {
            for line in ferrum::bench::run(depth, &nets, use_net) {
                println!("{line}");
            }
        }
        Command::Solve(o) => match solve::run(&o, &nets, use_net, &mut std::io::stdout()) {
            Ok(summary) => eprintln!("{summary}"),
            Err(e) => failed("solve", &format!("{e:#}")),
        },
        Command::Analyze(o) => {
            if let Err(e) = analyze::run(&o, &nets, use_net) {
                failed("analyze", &e);
            }
        }
        Command::SampleLeaves(o) => match sample::run(&o, &mut std::io::stdout().lock()) {
            Ok((searched, written)) => {
                log::info!("sample-leaves: {searched} positions searched, {written} leaves")
            }
            Err(e) => failed("sample-leaves", &format!("{e:#}")),
        },
        Command::ScanMoves(o) => match move_scan::run(&o, &mut std::io::stdout().lock()) {
            Ok(c) => println!(
                "scan-moves: {} nodes, {} with a VCT ({} first moves not listed), {} restricted lists all lost ({} moves outside them not refuted)",
                c.nodes, c.wins, c.attack_misses, c.lost_lists, c.defence_misses
            ),
            Err(e) => failed("scan-moves", &format!("{e:#}")),
        },
        Command::Selfplay(o) => match selfplay::selfplay(&o, &nets, use_net) {
            Ok((t, secs)) => println!(
                "selfplay: {} games ({} Black wins, {} White wins, {} draws), {} positions in {secs:.0} s ({:.0} positions per hour) appended to {}",
                t.games,
                t.results[0],
                t.results[1],
                t.results[2],
                t.positions,
                t.positions as f64 * 3600.0 / secs.max(1e-9),
                o.out.display()
            ),
            Err(e) => failed("selfplay", &format!("{e:#}")),
        },
        Command::Openings(o) => {
            if let Err(e) = selfplay::openings(&o, &nets, use_net, &mut std::io::stdout().lock()) {
                failed("openings", &format!("{e:#}"));
            }
        }
        Command::Train(o) => {
            if let Err(e) = train::run(&o, &mut std::io::stdout().lock()) {
                failed("train", &format!("{e:#}"));
            }
        }
        #[cfg(feature = "board")]
        Command::Board(o) => {
            // This program, when it plays, plays as it was asked to here.
            let mut own: Vec<String> = Vec::new();
            if let Some(n) = cli.threads {
                own.extend(["--threads".into(), n.to_string()]);
            }
            if !use_net {
                own.extend(["--eval".into(), "classical".into()]);
            }
            for path in &cli.net {
                own.extend(["--net".into(), path.to_string_lossy().into_owned()]);
            }
            if let Err(e) = ferrum::web::run(&o, &own) {
                failed("board", &format!("{e:#}"));
            }
        }
        Command::Tune(o) => match tune::run(&o) {
            Ok(report) => println!("{report}"),
            Err(e) => failed("tune", &format!("{e:#}")),
        },
    }
    log::logger().flush();
}
