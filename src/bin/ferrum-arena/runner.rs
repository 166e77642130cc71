//! The match loop of `ferrum-arena`, refereed with Ferrum's own rules code: game slots on std threads, each with its
//! own pair of engine processes, reporting to the main thread, which prints, keeps
//! the totals and stops early when the SPRT decides.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use anyhow::{anyhow, Result};

use ferrum::board::Color;

use crate::game::{GameOutcome, GameSettings};
use crate::report::Totals;
use crate::stats::{elo_with_margin, Sprt, Tally};
use ferrum::manager::process::Process;
use ferrum::manager::psq::Stone;
use ferrum::manager::referee::{Reason, Verdict};
use ferrum::openings::Opening;
use ferrum::tools::progress::Progress;

/// A whole match, as given on the command line.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// Engine A and engine B: program and arguments.
    pub engines: [Vec<String>; 2],
    pub names: [Option<String>; 2],
    pub settings: GameSettings,
    pub openings: Vec<Opening>,
    pub games: usize,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub psq_dir: Option<PathBuf>,
    pub quiet: bool,
}

/// One finished game, sent from a slot to the main thread.
struct GameReport {
    index: usize,
    /// Which engine (0 = A, 1 = B) played Black.
    black: usize,
    outcome: GameOutcome,
    /// Engine A's and B's peak resident memory after the game, where known.
    peak_memory: [Option<u64>; 2],
}

/// Plays the match, printing to `out`; returns the names and totals.
pub fn run(config: &MatchConfig, out: &mut dyn Write) -> Result<([String; 2], Totals)> {
    // Slot 0's processes are started here, so that ABOUT names are known up front.
    if let Some(note) = crate::openings::repeat_note(&config.openings, config.games) {
        eprintln!("ferrum-arena: note: {note}");
    }
    if config.games % 2 == 1 {
        // Games go in colour-swapped pairs: the last opening is played once.
        eprintln!(
            "ferrum-arena: note: an odd number of games gives {} Black once more than {}",
            config.engines[0].join(" "),
            config.engines[1].join(" ")
        );
    }
    let first = [spawn(&config.engines[0])?, spawn(&config.engines[1])?];
    let names = resolve_names(config, &first);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // Each report carries an acknowledgement channel: a slot takes its next game only
    // after the result is counted, so an SPRT decision never races a new game.
    let (tx, rx) = mpsc::channel::<(Result<GameReport, String>, mpsc::Sender<()>)>();
    let mut totals = Totals::default();
    let mut first = Some(first.map(|(p, _)| Some(p)));
    // On a terminal the game lines already show the score; the progress line is for a
    // quiet match or one whose output goes to a file.
    let progress = Progress::new("games", config.games);
    let progress = (progress.shown() && (config.quiet || !std::io::stdout().is_terminal()))
        .then_some(progress);
    thread::scope(|scope| -> Result<()> {
        for _ in 0..config.concurrency {
            let tx = tx.clone();
            let procs = first.take().unwrap_or([None, None]);
            let (next, stop) = (&next, &stop);
            scope.spawn(move || slot(config, procs, next, stop, tx));
        }
        drop(tx);
        let mut error = None;
        for (report, ack) in rx {
            // An error ends the match, but every slot still gets its acknowledgement:
            // a slot left waiting for one would never finish.
            match report.and_then(|r| {
                record(config, &names, &r, &mut totals, out).map_err(|e| format!("{e:#}"))
            }) {
                Ok(()) => {
                    if let Some(p) = &progress {
                        p.tick(|| progress_note(&totals.tally));
                    }
                }
                Err(e) => error = error.or(Some(e)),
            }
            if error.is_some() || totals.decision.is_some() {
                stop.store(true, Ordering::Relaxed);
            }
            let _ = ack.send(());
        }
        error.map_or(Ok(()), |e| Err(anyhow!(e)))
    })?;
    drop(progress);
    write!(
        out,
        "{}",
        crate::report::summary(&names, &totals, config.sprt.as_ref())
    )?;
    let played = totals.tally.games() as usize;
    if let Some(note) = crate::openings::repeat_note(&config.openings, played) {
        writeln!(out, "Note: {note}")?;
    }
    Ok((names, totals))
}

/// Score and Elo so far, from engine A's side.
fn progress_note(t: &Tally) -> String {
    let score = format!(
        "score {}-{}-{} [{:.3}]",
        t.wins,
        t.losses,
        t.draws,
        t.score()
    );
    match elo_with_margin(t) {
        (elo, margin) if elo.is_finite() && margin.is_finite() => {
            format!("{score} elo {elo:+.0} +/- {margin:.0}")
        }
        _ => score,
    }
}

/// Starts an engine and asks its name. Every (re)start gets ABOUT, as in c-gomoku-cli.
fn spawn(cmd: &[String]) -> Result<(Process, Option<String>)> {
    let mut p = Process::spawn(cmd)?;
    let name = p.about_name();
    Ok((p, name))
}

/// `--name`, else ABOUT's name, else the program name; equal names get `-1`/`-2`.
fn resolve_names(config: &MatchConfig, first: &[(Process, Option<String>); 2]) -> [String; 2] {
    let mut names: [String; 2] = std::array::from_fn(|i| {
        config.names[i]
            .clone()
            .or_else(|| first[i].1.clone())
            .unwrap_or_else(|| first[i].0.program().to_string())
    });
    if names[0] == names[1] {
        names = [format!("{}-1", names[0]), format!("{}-2", names[1])];
    }
    names
}

/// One game slot: takes game numbers until none are left or the match stops.
fn slot(
    config: &MatchConfig,
    mut procs: [Option<Process>; 2],
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: mpsc::Sender<(Result<GameReport, String>, mpsc::Sender<()>)>,
) {
    let (ack_tx, ack_rx) = mpsc::channel();
    while !stop.load(Ordering::Relaxed) {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= config.games {
            break;
        }
        let report = play_one(config, &mut procs, index).map_err(|e| format!("{e:#}"));
        if tx.send((report, ack_tx.clone())).is_err() || ack_rx.recv().is_err() {
            break;
        }
    }
    // END, a second to exit, then kill: for both at once would be faster, but only
    // engines that ignore END cost the second.
    for p in procs.into_iter().flatten() {
        p.close();
    }
}

/// Plays game `index`: engine A is Black in even games (each opening is played
/// twice, colours swapped).
fn play_one(
    config: &MatchConfig,
    procs: &mut [Option<Process>; 2],
    index: usize,
) -> Result<GameReport> {
    let black = index % 2;
    let opening = crate::openings::for_game(&config.openings, index);
    let color_of = |side: usize| {
        if side == black {
            Color::Black
        } else {
            Color::White
        }
    };
    // One that exited after its last move of an earlier game (the game ended on the
    // other's five) is started again, not charged with this game: seen here, or when
    // a reused process fails before the game's first move (its exit still under way).
    let mut reused = [false; 2];
    for (side, proc) in procs.iter_mut().enumerate() {
        if proc.as_mut().is_some_and(Process::has_exited) {
            *proc = None;
        }
        reused[side] = proc.is_some();
    }
    let (outcome, peak_memory) = loop {
        // (Re)start engines that crashed or timed out in an earlier game. An engine
        // that cannot be started loses this game by crash.
        for (side, proc) in procs.iter_mut().enumerate() {
            if proc.is_none() {
                match spawn(&config.engines[side]) {
                    Ok((p, _)) => *proc = Some(p),
                    Err(e) => {
                        eprintln!("ferrum-arena: {e:#}");
                        let verdict = Verdict::loss(color_of(side), Reason::Crash);
                        let stones = opening.iter().map(|&(x, y)| Stone { x, y, ms: 0 });
                        let outcome = GameOutcome {
                            verdict,
                            stones: stones.collect(),
                            broken: None,
                            slowest_ms: [0; 2],
                        };
                        return Ok(GameReport {
                            index,
                            black,
                            outcome,
                            peak_memory: [None; 2],
                        });
                    }
                }
            }
        }
        let [Some(a), Some(b)] = procs else {
            unreachable!("both engines were started above");
        };
        let engines = if black == 0 { [a, b] } else { [b, a] };
        let outcome = crate::game::play(&config.settings, &opening, engines)?;
        let peak_memory = [0, 1].map(|side| procs[side].as_ref().and_then(Process::peak_memory));
        let broken_side = outcome.broken.map(|color| {
            if color == Color::Black {
                black
            } else {
                1 - black
            }
        });
        if let Some(side) = broken_side {
            // Killed at once: it crashed, or it is still thinking past its time.
            procs[side] = None;
            let before_any_move = outcome.stones.len() == opening.len();
            if reused[side] && before_any_move && outcome.verdict.reason == Reason::Crash {
                eprintln!(
                    "ferrum-arena: {} had exited before this game; started again",
                    config.engines[side].join(" ")
                );
                reused[side] = false;
                continue;
            }
        }
        break (outcome, peak_memory);
    };
    Ok(GameReport {
        index,
        black,
        outcome,
        peak_memory,
    })
}

/// Prints one game, saves its .psq, updates the totals and the SPRT decision.
fn record(
    config: &MatchConfig,
    names: &[String; 2],
    report: &GameReport,
    totals: &mut Totals,
    out: &mut dyn Write,
) -> Result<()> {
    let (black, white) = (&names[report.black], &names[1 - report.black]);
    let verdict = &report.outcome.verdict;
    let a_color = if report.black == 0 {
        Color::Black
    } else {
        Color::White
    };
    totals.add(report.index, verdict, a_color);
    let slowest = &report.outcome.slowest_ms;
    totals.add_resources(
        [slowest[a_color.idx()], slowest[a_color.opp().idx()]],
        report.peak_memory,
    );
    if let (Some(sprt), None) = (&config.sprt, totals.decision) {
        totals.decision = sprt.decision(&totals.tally, &totals.pairs);
    }
    let number = report.index + 1;
    if !config.quiet {
        writeln!(
            out,
            "{}",
            crate::report::game_line(number, black, white, verdict)
        )?;
        writeln!(out, "{}", crate::report::score_line(names, &totals.tally))?;
        out.flush()?;
    }
    if let Some(dir) = &config.psq_dir {
        let text = ferrum::manager::psq::format(
            config.settings.size,
            [black, white],
            &report.outcome.stones,
            ferrum::manager::psq::error_code(&verdict.reason),
        );
        ferrum::manager::psq::save(dir, number, &text)?;
    }
    Ok(())
}
