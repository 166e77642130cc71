//! `pbrain-ferrum`: with no arguments, the Gomocup protocol on stdin/stdout.
//! `pbrain-ferrum bench [depth]` runs the fixed benchmark; `solve` solves puzzle files;
//! `analyze` searches one position; `tune` fits the evaluation weights to game results;
//! `scan-moves` looks for moves the move generator wrongly leaves out.
//! Option `--log FILE` (or the FERRUM_LOG environment variable) logs to FILE;
//! `--threads N` sets the search threads (matches run engines with one thread each).
//! `--version` prints the version and the commit built from; `--help` the usage.
//! Options before the subcommand are the program's; those after it are the subcommand's.

use ferrum::logging::{install_panic_hook, LogSink};

const USAGE: &str = "usage: pbrain-ferrum [--log FILE] [--threads N] [--version] [--help] [bench [depth] | solve [--time-ms N] [--threads N] FILE.jsonl | analyze --help | tune GAMES.sgf... | sample-leaves GAMES.psq... | scan-moves GAMES.psq...]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let log = LogSink::install();
    install_panic_hook();
    let mut log_file = std::env::var_os("FERRUM_LOG").map(std::path::PathBuf::from);
    let mut threads = None;
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--log" && i + 1 < args.len() {
            log_file = Some(args[i + 1].clone().into());
            i += 1;
        } else if args[i] == "--threads" && i + 1 < args.len() {
            match args[i + 1].parse::<usize>() {
                Ok(n) if n >= 1 => threads = Some(n),
                _ => {
                    println!(
                        "--threads wants a number of threads >= 1, not '{}'",
                        args[i + 1]
                    );
                    std::process::exit(2);
                }
            }
            i += 1;
        } else if args[i] == "--version" || args[i] == "-V" {
            println!(
                "pbrain-ferrum {} ({})",
                env!("CARGO_PKG_VERSION"),
                env!("FERRUM_COMMIT")
            );
            return;
        } else if args[i] == "--help" || args[i] == "-h" {
            println!("{USAGE}\nWith no subcommand: the Gomocup (pbrain) protocol on stdin/stdout.");
            return;
        } else {
            // The subcommand and everything after it are its own: `analyze` and
            // `solve` read their own `--threads` (taking it here left them on every core).
            rest.extend_from_slice(&args[i..]);
            break;
        }
        i += 1;
    }
    if let Some(path) = &log_file {
        log.set_file(path);
    }
    match rest.first().map(String::as_str) {
        None => ferrum::protocol::run(log, log_file.is_some(), threads),
        Some("bench") => {
            let depth = rest
                .get(1)
                .and_then(|d| d.parse().ok())
                .unwrap_or(ferrum::bench::DEFAULT_DEPTH);
            for line in ferrum::bench::run(depth) {
                println!("{line}");
            }
        }
        Some("solve") => {
            let mut stdout = std::io::stdout();
            match ferrum::tools::solve::run(&rest[1..], &mut stdout) {
                Ok(summary) => eprintln!("{summary}"),
                Err(e) => {
                    eprintln!("solve: {e:#}");
                    std::process::exit(2);
                }
            }
        }
        Some("analyze") if rest[1..].iter().any(|a| a == "--help" || a == "-h") => {
            println!("{}", ferrum::tools::analyze::USAGE);
        }
        Some("analyze") => {
            if let Err(e) = ferrum::tools::analyze::run(&rest[1..]) {
                println!("analyze: {e}\n{}", ferrum::tools::analyze::USAGE);
                std::process::exit(2);
            }
        }
        Some("sample-leaves") => {
            let mut stdout = std::io::stdout().lock();
            match ferrum::tools::sample::run(&rest[1..], &mut stdout) {
                Ok((searched, written)) => {
                    log::info!("sample-leaves: {searched} positions searched, {written} leaves")
                }
                Err(e) => {
                    println!("sample-leaves: {e:#}");
                    std::process::exit(2);
                }
            }
        }
        Some("scan-moves") => {
            let mut stdout = std::io::stdout().lock();
            match ferrum::tools::move_scan::run(&rest[1..], &mut stdout) {
                Ok(c) => println!(
                    "scan-moves: {} nodes, {} with a VCT ({} first moves not listed), {} restricted lists all lost ({} moves outside them not refuted)",
                    c.nodes, c.wins, c.attack_misses, c.lost_lists, c.defence_misses
                ),
                Err(e) => {
                    println!("scan-moves: {e:#}");
                    std::process::exit(2);
                }
            }
        }
        Some("tune") => match ferrum::tools::tune::run(&rest[1..]) {
            Ok(report) => println!("{report}"),
            Err(e) => {
                println!("tune: {e:#}");
                std::process::exit(2);
            }
        },
        Some(other) => {
            println!("unknown argument '{other}'; {USAGE}");
            std::process::exit(2);
        }
    }
}
