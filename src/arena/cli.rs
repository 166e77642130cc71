//! Command line of `ferrum-arena`.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use super::game::GameSettings;
use super::openings;
use super::stats::Sprt;
use super::MatchConfig;

pub const HELP: &str = "\
ferrum-arena: plays a match between two Gomocup (pbrain) engines and judges it.

USAGE:
  ferrum-arena --engine CMD --engine CMD [options]
  ferrum-arena --replay-sgf FILE [--draw-after N]

OPTIONS:
  --engine CMD          engine command line, split on whitespace (program + args); twice
  --name NAME           display name, in the order of --engine (default: ABOUT's name,
                        else the program's file name; equal names get -1 / -2)
  --rule R              0 freestyle, 1 standard, 4 renju, 8 caro, 9 caro exact five (0)
  --size N              board size 5..32 (15)
  --turn-ms MS          time per move; 0 = none (1000, or none when --match-ms is given)
  --match-ms MS         time per game and engine; 0 = none (0)
  --tolerance-ms MS     grace added to every limit before a time forfeit (1000)
  --openings FILE       one opening per line: `dx,dy, dx,dy, ...` from the centre,
                        stones alternating from Black; each played twice, colours swapped
  --games N             number of games (2)
  --concurrency N       games played at once, two engine processes each (1)
  --sprt E0,E1,A,B      SPRT of H0 elo=E0 against H1 elo=E1 with error rates alpha=A,
                        beta=B (e.g. 0,10,0.05,0.05); stops once a bound is crossed
  --psq DIR             save each game as DIR/game_NNNN.psq (Piskvork format)
  --max-memory BYTES    sent as INFO max_memory; 0 = no limit (367001600)
  --draw-after N        draw once N stones are on the board (opening included)
  --quiet               print only the summary
  --replay-sgf FILE     judge the games of a c-gomoku-cli SGF file with this referee and
                        compare with the verdicts recorded there
  -h, --help            this text

OUTPUT:
  game 7: A (black) vs B (white): 1-0 five
  Score of A vs B: W - L - D [score] games
  ... then a summary: W-L-D from A's side, score, Elo difference with a 95 % interval,
  counts per reason, SPRT result. Results are Black-White (1-0 = Black won); reasons:
  five, illegal move x,y, forbidden move x,y (kind), time forfeit, crash, full board,
  draw after N.
";

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    Help,
    Match(Box<MatchConfig>),
    Replay {
        file: PathBuf,
        draw_after: Option<usize>,
    },
}

/// Parses the arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Command> {
    let mut engines = Vec::new();
    let mut names = Vec::new();
    let mut rule = 0i64;
    let mut size = 15usize;
    let mut turn_ms = None;
    let mut match_ms = 0u64;
    let mut tolerance_ms = 1000u64;
    let mut openings_file = None;
    let mut games = 2usize;
    let mut concurrency = 1usize;
    let mut sprt = None;
    let mut psq_dir = None;
    let mut max_memory = 367_001_600u64;
    let mut draw_after = None;
    let mut quiet = false;
    let mut replay = None;

    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .with_context(|| format!("{arg} needs a value"))
        };
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--engine" => engines.push(value()?),
            "--name" => names.push(value()?),
            "--rule" => rule = number(arg, &value()?)?,
            "--size" => size = number(arg, &value()?)?,
            "--turn-ms" => turn_ms = Some(number(arg, &value()?)?),
            "--match-ms" => match_ms = number(arg, &value()?)?,
            "--tolerance-ms" => tolerance_ms = number(arg, &value()?)?,
            "--openings" => openings_file = Some(PathBuf::from(value()?)),
            "--games" => games = number(arg, &value()?)?,
            "--concurrency" => concurrency = number(arg, &value()?)?,
            "--sprt" => {
                let v = value()?;
                sprt = Some(Sprt::parse(&v).with_context(|| {
                    format!("--sprt wants elo0,elo1,alpha,beta with elo0 < elo1, got `{v}`")
                })?)
            }
            "--psq" => psq_dir = Some(PathBuf::from(value()?)),
            "--max-memory" => max_memory = number(arg, &value()?)?,
            "--draw-after" => draw_after = Some(number(arg, &value()?)?),
            "--quiet" => quiet = true,
            "--replay-sgf" => replay = Some(PathBuf::from(value()?)),
            other => bail!("unknown option `{other}` (see --help)"),
        }
    }

    if let Some(file) = replay {
        return Ok(Command::Replay { file, draw_after });
    }
    let engines: Vec<Vec<String>> = engines
        .iter()
        .map(|e| e.split_whitespace().map(String::from).collect())
        .collect();
    let [a, b] = <[Vec<String>; 2]>::try_from(engines)
        .ok()
        .context("give exactly two --engine options (see --help)")?;
    if a.is_empty() || b.is_empty() {
        bail!("empty --engine command");
    }
    if names.len() > 2 {
        bail!("at most two --name options");
    }
    if ![0, 1, 4, 8, 9].contains(&rule) {
        bail!("--rule must be 0, 1, 4, 8 or 9");
    }
    if !(crate::board::MIN_SIZE..=crate::board::MAX_SIZE).contains(&size) {
        bail!("--size must be 5..32");
    }
    if games == 0 || concurrency == 0 {
        bail!("--games and --concurrency must be at least 1");
    }
    // Without any limit a silent engine would hang the match forever.
    let turn_ms = turn_ms.unwrap_or(if match_ms > 0 { 0 } else { 1000 });
    if turn_ms == 0 && match_ms == 0 {
        bail!("give a time limit: --turn-ms or --match-ms");
    }
    let openings = match &openings_file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let list = openings::parse_file(&text, size, rule)
                .with_context(|| format!("{}", path.display()))?;
            if list.is_empty() {
                bail!("{}: no openings", path.display());
            }
            list
        }
        None => Vec::new(),
    };
    if let Some(dir) = &psq_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut names = names.into_iter();
    Ok(Command::Match(Box::new(MatchConfig {
        engines: [a, b],
        names: [names.next(), names.next()],
        settings: GameSettings {
            size,
            rule,
            turn_ms,
            match_ms,
            tolerance_ms,
            max_memory,
            draw_after,
        },
        openings,
        games,
        concurrency: concurrency.min(games),
        sprt,
        psq_dir,
        quiet,
    })))
}

fn number<T: std::str::FromStr>(option: &str, value: &str) -> Result<T> {
    value
        .trim()
        .parse()
        .ok()
        .with_context(|| format!("{option}: `{value}` is not a valid number"))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn bad_options() {
        assert!(parse(&args("--engine a")).is_err());
        assert!(parse(&args("--engine a --engine b --rule 3")).is_err());
        assert!(parse(&args("--engine a --engine b --turn-ms 0")).is_err());
        assert!(parse(&args("--engine a --engine b --bogus")).is_err());
        assert!(parse(&args("--engine a --engine b --games")).is_err());
        assert!(matches!(
            parse(&args("--engine a --engine b --turn-ms 0 --match-ms 5000")),
            Ok(Command::Match(_))
        ));
        assert!(matches!(parse(&args("--help")), Ok(Command::Help)));
    }
}
