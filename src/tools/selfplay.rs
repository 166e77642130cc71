//! `pbrain-ferrum selfplay`: training games of the engine against itself, and
//! `pbrain-ferrum openings`: a file of random balanced openings (the test sets of
//! `openings/`). Both keep clear of the openings of the `--exclude` files.

use ahash::AHashSet;
use anyhow::{bail, ensure, Context, Result};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use super::parallel;
use super::progress::Progress;
use crate::board::Rule;
use crate::engine::Engine;
use crate::net::file::NetWeights;
use crate::openings::{canonical, offset_line, read_file, Opening};
use crate::rng::Rng;
use crate::selfplay::random_openings::{balanced_opening, OpeningSpec};
use crate::selfplay::{format, Settings, Totals};

/// What both tools share: the rule, the board and the openings to avoid.
#[derive(clap::Args, Debug, Clone)]
pub struct Board {
    /// Rule: freestyle, standard, renju, caro or caro-exact (or its Gomocup number)
    #[arg(long, default_value = "freestyle", value_parser = Rule::parse)]
    pub rule: Rule,
    /// Board side (5..=32)
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u8).range(5..=32))]
    pub size: u8,
    /// Opening files (offset format) or self-play files whose openings, under the
    /// board's symmetries, are never used (a run's earlier parts: its games do not repeat)
    #[arg(long, value_name = "FILE")]
    pub exclude: Vec<PathBuf>,
    /// Seed of the random openings
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Nodes of the search that checks an opening's balance
    #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub balance_nodes: u64,
}

impl Board {
    fn spec(&self) -> OpeningSpec {
        let size = self.size as usize;
        OpeningSpec {
            nodes: self.balance_nodes,
            ..OpeningSpec::new(self.rule, size, size)
        }
    }

    fn excluded(&self) -> Result<AHashSet<Opening>> {
        let size = self.size as usize;
        let mut set = AHashSet::new();
        for path in &self.exclude {
            for o in file_openings(path, size, None)? {
                set.insert(canonical(&o, size, size));
            }
        }
        Ok(set)
    }
}

/// The openings of an `--exclude` file: an opening file's lines, or the openings of a
/// self-play file's games (told apart by the self-play format's magic bytes), which
/// must all be of `rule` when one is given (a file appended to).
fn file_openings(path: &Path, size: usize, rule: Option<Rule>) -> Result<Vec<Opening>> {
    let mut file = std::fs::File::open(path).with_context(|| format!("{}", path.display()))?;
    let mut magic = [0u8; 4];
    let is_games = file.read_exact(&mut magic).is_ok() && &magic == format::MAGIC;
    if !is_games {
        return read_file(path, size, size);
    }
    let mut file = std::fs::File::open(path)?;
    let games = format::read_games(&mut file).with_context(|| format!("{}", path.display()))?;
    games
        .iter()
        .map(|g| {
            if rule.is_some_and(|r| r != g.rule) {
                bail!(
                    "{}: a game of {}, not {}",
                    path.display(),
                    g.rule.name(),
                    rule.unwrap().name()
                );
            }
            if (g.width as usize, g.height as usize) != (size, size) {
                bail!(
                    "{}: a game of a {}x{} board, not {size}x{size}",
                    path.display(),
                    g.width,
                    g.height
                );
            }
            Ok(g.opening_cells())
        })
        .collect()
}

#[derive(clap::Args, Debug, Clone)]
pub struct SelfplayOptions {
    #[command(flatten)]
    pub board: Board,
    /// Games to play
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Number of the first game (a run split in parts keeps its games apart)
    #[arg(long, default_value_t = 0)]
    pub first: u64,
    /// Nodes searched per move
    #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Games played at once, one search thread each [default: one per core]
    #[arg(long, value_name = "N", value_parser = parallel::threads)]
    pub threads: Option<usize>,
    /// Where the games go (appended to when it exists, from other openings than its games')
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Plays the games and appends them to `--out`; returns the totals and the seconds.
/// `nets` and `use_net` as the engine's (`--net`, `--eval`).
pub fn selfplay(
    o: &SelfplayOptions,
    nets: &[Arc<NetWeights>],
    use_net: bool,
) -> Result<(Totals, f64)> {
    check_nets(nets, use_net, o.board.rule)?;
    let size = o.board.size as usize;
    let settings = Settings {
        openings: o.board.spec(),
        nodes: o.nodes,
        seed: o.board.seed,
        // The engine picks the network of the game's rule (`Engine::net_for`).
        nets: nets.to_vec(),
        use_net,
        ..Settings::new(o.board.rule, size, size)
    };
    let mut excluded = o.board.excluded()?;
    let out_name = || format!("{}", o.out.display());
    let fresh = !o.out.exists() || std::fs::metadata(&o.out).with_context(out_name)?.len() == 0;
    if !fresh {
        // Games are only ever appended to a whole self-play file of this version (after
        // a cut last record every later game would be lost), and not from its games'
        // openings: the same seed would play the same games again.
        let mut header = [0u8; 8];
        let mut file = std::fs::File::open(&o.out).with_context(out_name)?;
        let read = std::io::Read::read(&mut file, &mut header).with_context(out_name)?;
        format::check_header(&header[..read]).with_context(out_name)?;
        let openings = file_openings(&o.out, size, Some(o.board.rule))
            .with_context(|| format!("cannot append to {}", o.out.display()))?;
        excluded.extend(openings.iter().map(|g| canonical(g, size, size)));
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&o.out)
        .with_context(out_name)?;
    let mut out = std::io::BufWriter::new(file);
    if fresh {
        format::write_header(&mut out)?;
    }
    let progress = Progress::new("selfplay: games", o.games as usize);
    let start = Instant::now();
    let mut shown = 0;
    let totals = parallel::pool(o.threads)?.install(|| {
        crate::selfplay::run(&settings, o.first, o.games, &excluded, &mut out, |t| {
            while shown < t.games {
                shown += 1;
                progress.tick(|| {
                    let hours = start.elapsed().as_secs_f64() / 3600.0;
                    format!(
                        "positions {} ({:.0}/h)",
                        t.positions,
                        t.positions as f64 / hours
                    )
                });
            }
        })
    })?;
    progress.finish();
    out.flush()?;
    Ok((totals, start.elapsed().as_secs_f64()))
}

#[derive(clap::Args, Debug, Clone)]
pub struct OpeningsOptions {
    #[command(flatten)]
    pub board: Board,
    /// Openings to write
    #[arg(long, default_value_t = 100)]
    pub count: u64,
}

/// A `--net` that the games would not use is refused: a run of other data than asked
/// for costs hours before anyone sees it.
fn check_nets(nets: &[Arc<NetWeights>], use_net: bool, rule: Rule) -> Result<()> {
    if nets.is_empty() {
        return Ok(());
    }
    ensure!(
        use_net,
        "--net with --eval classical: the network would not be used"
    );
    ensure!(
        nets.iter().any(|n| n.rule == rule),
        "no --net network is for {} games (it is for {})",
        rule.name(),
        nets.iter()
            .map(|n| n.rule.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

/// Writes `--count` balanced openings, one per line, none equal to another or to an
/// excluded one under the board's symmetries, balanced by the evaluation that
/// `selfplay` with the same `nets` and `use_net` would use.
pub fn openings(
    o: &OpeningsOptions,
    nets: &[Arc<NetWeights>],
    use_net: bool,
    out: &mut impl Write,
) -> Result<()> {
    check_nets(nets, use_net, o.board.rule)?;
    let size = o.board.size as usize;
    let spec = o.board.spec();
    let mut excluded = o.board.excluded()?;
    let mut engine = Engine::new(8 << 20, 1);
    engine.set_nets(nets, use_net);
    let progress = Progress::new("openings", o.count as usize);
    for i in 0..o.count {
        let mut rng = Rng::for_item(o.board.seed, i);
        let (opening, _) = balanced_opening(&spec, &mut rng, &mut engine, &excluded)?;
        excluded.insert(canonical(&opening, size, size));
        writeln!(out, "{}", offset_line(&opening, size, size))?;
        progress.tick(String::new);
    }
    progress.finish();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::format::GameRecord;

    /// `--exclude` reads an opening file's lines and a self-play file's openings alike.
    #[test]
    fn exclude_files_of_both_kinds() {
        let dir = std::env::temp_dir().join(format!("ferrum-exclude-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lines = dir.join("openings.txt");
        std::fs::write(&lines, "0,0, 1,0, 0,1\n\n-1,-1, 2,2\n").unwrap();
        assert_eq!(
            file_openings(&lines, 15, None).unwrap(),
            vec![vec![(7, 7), (8, 7), (7, 8)], vec![(6, 6), (9, 9)]]
        );
        let games = dir.join("games.frsp");
        let mut bytes = Vec::new();
        format::write_header(&mut bytes).unwrap();
        let game = |opening: Vec<(u8, u8)>, size| GameRecord {
            rule: Rule::Renju,
            width: size,
            height: size,
            opening,
            plies: Vec::new(),
            result: 0,
        };
        format::write_game(&mut bytes, &game(vec![(7, 7), (8, 8), (6, 7)], 15)).unwrap();
        format::write_game(&mut bytes, &game(vec![(3, 4)], 15)).unwrap();
        std::fs::write(&games, &bytes).unwrap();
        assert_eq!(
            file_openings(&games, 15, None).unwrap(),
            vec![vec![(7, 7), (8, 8), (6, 7)], vec![(3, 4)]]
        );
        // Games of another board are refused, not read as this one's.
        let err = file_openings(&games, 20, None).unwrap_err().to_string();
        assert!(err.contains("15x15"), "{err}");
        // Appending needs the file's rule: renju games take no freestyle game.
        assert!(file_openings(&games, 15, Some(Rule::Renju)).is_ok());
        let err = file_openings(&games, 15, Some(Rule::Freestyle)).unwrap_err();
        assert!(err.to_string().contains("a game of renju"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
