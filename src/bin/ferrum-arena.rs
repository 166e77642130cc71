//! `ferrum-arena`: match runner for two Gomocup (pbrain) engines. See `--help` and
//! scripts/README.md.

use std::io::Write;
use std::process::ExitCode;

use ferrum::arena::{self, cli};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("ferrum-arena: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match cli::parse(args)? {
        cli::Command::Help => {
            write!(out, "{}", cli::HELP)?;
            Ok(ExitCode::SUCCESS)
        }
        cli::Command::Match(config) => {
            arena::run(&config, &mut out)?;
            Ok(ExitCode::SUCCESS)
        }
        cli::Command::Replay { file, draw_after } => {
            let [_, _, disagree] = arena::replay::run(&file, draw_after, &mut out)?;
            // Exit 1 when a verdict differs, so scripts can check agreement.
            Ok(if disagree == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}
