//! `pbrain-ferrum`: with no subcommand, the Gomocup protocol on stdin/stdout; the
//! subcommands are the benchmark and the tools (see `--help`). Options before the
//! subcommand are the program's; those after it are the subcommand's.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use ferrum::logging::{install_panic_hook, LogSink};
use ferrum::tools::{analyze, move_scan, sample, solve, tune};

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
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Fixed positions searched to a fixed depth: the search's node-count signature
    Bench {
        /// Search depth
        #[arg(default_value_t = ferrum::bench::DEFAULT_DEPTH)]
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
    let Some(command) = cli.command else {
        ferrum::protocol::run(log, log_file.is_some(), cli.threads)
    };
    let failed = |tool: &str, e: &dyn std::fmt::Display| -> ! {
        eprintln!("{tool}: {e:#}");
        std::process::exit(2);
    };
    match command {
        Command::Bench { depth } => {
            for line in ferrum::bench::run(depth) {
                println!("{line}");
            }
        }
        Command::Solve(o) => match solve::run(&o, &mut std::io::stdout()) {
            Ok(summary) => eprintln!("{summary}"),
            Err(e) => failed("solve", &format!("{e:#}")),
        },
        Command::Analyze(o) => {
            if let Err(e) = analyze::run(&o) {
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
        Command::Tune(o) => match tune::run(&o) {
            Ok(report) => println!("{report}"),
            Err(e) => failed("tune", &format!("{e:#}")),
        },
    }
}
