//! `ferrum-arena`: match runner for two Gomocup (pbrain) engines. See `--help` and
//! scripts/README.md.

mod cli;
mod game;
mod openings;
mod replay;
mod report;
mod runner;
mod stats;

use std::process::ExitCode;

use clap::Parser;

use runner::MatchConfig;

fn main() -> ExitCode {
    let command = match cli::Cli::parse().command() {
        Ok(command) => command,
        Err(e) => return fail(e),
    };
    match run(command) {
        Ok(code) => code,
        Err(e) => fail(e),
    }
}

fn fail(e: anyhow::Error) -> ExitCode {
    eprintln!("ferrum-arena: {e:#}");
    ExitCode::from(2)
}

fn run(command: cli::Command) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match command {
        cli::Command::Match(config) => {
            runner::run(&config, &mut out)?;
            Ok(ExitCode::SUCCESS)
        }
        cli::Command::Replay {
            file,
            draw_after,
            rule,
        } => {
            let [_, _, disagree] = replay::run(&file, draw_after, rule, &mut out)?;
            // Exit 1 when a verdict differs, so scripts can check agreement.
            Ok(if disagree == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}
