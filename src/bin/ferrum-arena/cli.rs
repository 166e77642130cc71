//! Command line of `ferrum-arena`.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Parser;
use ferrum::board::Rule;
use ferrum::tools::args::at_least_one;

use crate::game::GameSettings;
use crate::openings;
use crate::stats::Sprt;
use crate::MatchConfig;

const OUTPUT: &str = "\
OUTPUT:
  game 7: A (black) vs B (white): 1-0 five
  Score of A vs B: W - L - D [score] games
  ... then a summary: W-L-D from A's side, score, Elo difference with a 95 % interval,
  counts per reason, SPRT result. Results are Black-White (1-0 = Black won); reasons:
  five, illegal move x,y, forbidden move x,y (kind), time forfeit, crash, full board,
  draw after N.";

/// Plays a match between two Gomocup (pbrain) engines and judges it.
#[derive(Parser, Debug)]
#[command(
    name = "ferrum-arena",
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("FERRUM_COMMIT"), ")"),
    override_usage = "ferrum-arena --engine CMD --engine CMD [OPTIONS]\n       ferrum-arena --replay-sgf FILE [--draw-after N]",
    after_help = OUTPUT
)]
pub struct Cli {
    /// Engine command line, split on whitespace (program + args); twice
    #[arg(long = "engine", value_name = "CMD")]
    engines: Vec<String>,
    /// Display name, in the order of --engine (default: ABOUT's name, else the
    /// program's file name; equal names get -1 / -2)
    #[arg(long = "name", value_name = "NAME")]
    names: Vec<String>,
    /// freestyle, standard, renju, caro or caro-exact, or its Gomocup number (0, 1, 4, 8,
    /// 9)
    #[arg(long, value_name = "R", default_value_t = 0, value_parser = rule)]
    rule: i64,
    /// Board size 5..32
    #[arg(long, value_name = "N", default_value_t = 15, value_parser = size)]
    size: usize,
    /// Time per move; 0 = none [default: 1000, or none when --match-ms is given]
    #[arg(long, value_name = "MS", value_parser = milliseconds())]
    turn_ms: Option<u64>,
    /// Time per game and engine; 0 = none
    #[arg(long, value_name = "MS", default_value_t = 0, value_parser = milliseconds())]
    match_ms: u64,
    /// Grace added to every move's limit, and once to the game's, before a time forfeit
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = milliseconds())]
    tolerance_ms: u64,
    /// One opening per line: `dx,dy, dx,dy, ...` from the centre, stones alternating
    /// from Black; each played twice, colours swapped
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Number of games
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = at_least_one::<usize>)]
    games: usize,
    /// Games played at once, two engine processes each
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = at_least_one::<usize>)]
    concurrency: usize,
    /// SPRT of H0 elo=E0 against H1 elo=E1 with error rates alpha=A, beta=B (e.g.
    /// 0,10,0.05,0.05); stops once a bound is crossed
    #[arg(long, value_name = "E0,E1,A,B", value_parser = sprt, allow_hyphen_values = true)]
    sprt: Option<Sprt>,
    /// Save each game as DIR/game_NNNN.psq (Piskvork format)
    #[arg(long, value_name = "DIR")]
    psq: Option<PathBuf>,
    /// Sent as INFO max_memory; 0 = no limit
    #[arg(long, value_name = "BYTES", default_value_t = 367_001_600)]
    max_memory: u64,
    /// Sent as INFO max_node (a node budget per move, which engines that read it stop
    /// at: a fixed-node match, independent of the machine's load); 0 = not sent
    #[arg(long, value_name = "N", default_value_t = 0)]
    max_node: u64,
    /// Draw once N stones are on the board (opening included; more than any opening has)
    #[arg(long, value_name = "N", value_parser = at_least_one::<usize>)]
    draw_after: Option<usize>,
    /// Print only the summary
    #[arg(long)]
    quiet: bool,
    /// Judge the games of a c-gomoku-cli SGF file with this referee and compare with
    /// the verdicts recorded there
    #[arg(long, value_name = "FILE")]
    replay_sgf: Option<PathBuf>,
}

/// A rule by name or Gomocup number (`Rule::parse`, as every tool reads it), kept as the
/// number the engines are sent.
fn rule(s: &str) -> Result<i64, String> {
    ferrum::board::Rule::parse(s.trim()).map(|r| r.gomocup_value())
}

fn size(s: &str) -> Result<usize, String> {
    s.trim()
        .parse()
        .ok()
        .filter(|n| (ferrum::board::MIN_SIZE..=ferrum::board::MAX_SIZE).contains(n))
        .ok_or_else(|| "must be 5..32".into())
}

/// A time in milliseconds, up to about 34 years: the clocks add and subtract them in
/// signed arithmetic, where larger values would wrap into instant forfeits.
fn milliseconds() -> clap::builder::RangedU64ValueParser {
    clap::value_parser!(u64).range(0..=1 << 40)
}

fn sprt(s: &str) -> Result<Sprt, String> {
    Sprt::parse(s)
        .ok_or_else(|| "wants elo0,elo1,alpha,beta with elo0 < elo1 and alpha + beta < 1".into())
}

/// Makes `dir` for the games, checked before any game: a folder that cannot be
/// written would lose the match after its first game, and one holding another run's
/// games would mix the two for every tool that reads it.
fn check_psq_dir(dir: &std::path::Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let earlier = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok())
        .any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("game_") && name.ends_with(".psq")
        });
    if earlier {
        bail!(
            "{} holds the games of an earlier run: give an empty or new folder",
            dir.display()
        );
    }
    let probe = dir.join(".ferrum-arena-probe");
    std::fs::write(&probe, b"").with_context(|| format!("cannot write in {}", dir.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    Match(Box<MatchConfig>),
    Replay {
        file: PathBuf,
        draw_after: Option<usize>,
        /// For games without `RU`.
        rule: Rule,
    },
}

impl Cli {
    /// Checks what the options cannot check one by one, and reads the openings.
    pub fn command(self) -> Result<Command> {
        if let Some(file) = self.replay_sgf {
            return Ok(Command::Replay {
                file,
                draw_after: self.draw_after,
                rule: Rule::from_gomocup(self.rule).unwrap_or(Rule::Freestyle),
            });
        }
        let engines: Vec<Vec<String>> = self
            .engines
            .iter()
            .map(|e| e.split_whitespace().map(String::from).collect())
            .collect();
        let [a, b] = <[Vec<String>; 2]>::try_from(engines)
            .ok()
            .context("give exactly two --engine options (see --help)")?;
        if a.is_empty() || b.is_empty() {
            bail!("empty --engine command");
        }
        if self.names.len() > 2 {
            bail!("at most two --name options");
        }
        // Without any limit a silent engine would hang the match forever.
        let match_ms = self.match_ms;
        let turn_ms = self.turn_ms.unwrap_or(if match_ms > 0 { 0 } else { 1000 });
        if turn_ms == 0 && match_ms == 0 {
            bail!("give a time limit: --turn-ms or --match-ms");
        }
        let openings = match &self.openings {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                let list = openings::parse_file(&text, self.size, self.rule)
                    .with_context(|| format!("{}", path.display()))?;
                if list.is_empty() {
                    bail!("{}: no openings", path.display());
                }
                list
            }
            None => Vec::new(),
        };
        // A draw due before the first move would end every game unplayed.
        let longest = openings.iter().map(|o| o.len()).max().unwrap_or(0);
        if let Some(n) = self.draw_after.filter(|&n| n <= longest) {
            bail!("--draw-after {n}: the openings have up to {longest} stones; give more");
        }
        if let Some(dir) = &self.psq {
            check_psq_dir(dir)?;
        }
        let mut names = self.names.into_iter();
        Ok(Command::Match(Box::new(MatchConfig {
            engines: [a, b],
            names: [names.next(), names.next()],
            settings: GameSettings {
                size: self.size,
                rule: self.rule,
                turn_ms,
                match_ms,
                tolerance_ms: self.tolerance_ms,
                max_memory: self.max_memory,
                max_node: self.max_node,
                draw_after: self.draw_after,
            },
            openings,
            games: self.games,
            concurrency: self.concurrency.min(self.games),
            sprt: self.sprt,
            psq_dir: self.psq,
            quiet: self.quiet,
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[String]) -> Result<Command> {
        let cli = Cli::try_parse_from(
            std::iter::once("ferrum-arena".to_string()).chain(args.iter().cloned()),
        )?;
        cli.command()
    }

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn match_options() {
        let cmd = parse(&[
            "--engine".into(),
            "/bin/a --x 1".into(),
            "--engine".into(),
            "b".into(),
            "--rule".into(),
            "4".into(),
            "--games".into(),
            "6".into(),
            "--concurrency".into(),
            "8".into(),
            "--sprt".into(),
            "0,10,0.05,0.05".into(),
        ])
        .unwrap();
        let Command::Match(c) = cmd else {
            panic!("not a match")
        };
        assert_eq!(c.engines[0], vec!["/bin/a", "--x", "1"]);
        assert_eq!(c.settings.rule, 4);
        assert_eq!(c.settings.turn_ms, 1000);
        assert_eq!(c.settings.tolerance_ms, 1000);
        assert_eq!(c.concurrency, 6);
        assert!(c.sprt.is_some());
        // A no-regression test's negative E0 is a value, not an option.
        let Ok(Command::Match(c)) = parse(&args("--engine a --engine b --sprt -10,0,0.05,0.05"))
        else {
            panic!("a negative elo0 refused")
        };
        assert_eq!(c.sprt.map(|s| s.elo0), Some(-10.0));
    }

    #[test]
    fn bad_options() {
        assert!(parse(&args("--engine a")).is_err());
        assert!(parse(&args("--engine a --engine b --rule 16")).is_err());
        assert!(parse(&args("--engine a --engine b --rule gomoku9")).is_err());
        for (name, number) in [("renju", 4), ("Caro-Exact", 9), ("standard", 1), ("8", 8)] {
            let Ok(Command::Match(c)) =
                parse(&args(&format!("--engine a --engine b --rule {name}")))
            else {
                panic!("--rule {name} refused")
            };
            assert_eq!(c.settings.rule, number);
        }
        assert!(parse(&args("--engine a --engine b --turn-ms 0")).is_err());
        assert!(parse(&args("--engine a --engine b --bogus")).is_err());
        assert!(parse(&args("--engine a --engine b --games")).is_err());
        assert!(matches!(
            parse(&args("--engine a --engine b --turn-ms 0 --match-ms 5000")),
            Ok(Command::Match(_))
        ));
        let help = Cli::try_parse_from(["ferrum-arena", "--help"]).unwrap_err();
        assert_eq!(help.kind(), clap::error::ErrorKind::DisplayHelp);
        let err = Cli::try_parse_from(["ferrum-arena", "--games", "x"]).unwrap_err();
        assert!(err.to_string().contains("--games"), "{err}");
        // Values that would decide or forfeit games before a move: Wald's bounds
        // swapped, clocks that wrap, a draw due before the first move.
        assert!(parse(&args("--engine a --engine b --sprt 0,10,0.6,0.6")).is_err());
        assert!(parse(&args(
            "--engine a --engine b --match-ms 9223372036854775807"
        ))
        .is_err());
        assert!(parse(&args(
            "--engine a --engine b --tolerance-ms 9223372036854775808"
        ))
        .is_err());
        assert!(parse(&args("--engine a --engine b --draw-after 0")).is_err());
        let openings = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/openings/freestyle15.txt"
        );
        let with =
            |n: usize| format!("--engine a --engine b --openings {openings} --draw-after {n}");
        let longest = std::fs::read_to_string(openings)
            .unwrap()
            .lines()
            .map(|l| l.split(',').count() / 2)
            .max()
            .unwrap();
        assert!(parse(&args(&with(longest))).is_err());
        assert!(parse(&args(&with(longest + 1))).is_ok());
    }

    #[test]
    fn a_games_folder_must_be_new_or_empty() {
        let dir = std::env::temp_dir().join(format!("ferrum-arena-psq-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cmd = format!("--engine a --engine b --psq {}", dir.display());
        assert!(parse(&args(&cmd)).is_ok());
        std::fs::write(dir.join("game_0001.psq"), "").unwrap();
        let err = parse(&args(&cmd)).unwrap_err().to_string();
        assert!(err.contains("earlier run"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
