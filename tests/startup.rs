//! `START` answers at once: no table is made on its path (managers such as
//! c-gomoku-cli give `OK` a tolerance of a second, and the clock of a busy machine runs
//! on). Each of a few fresh processes gets `START 15` as soon as it answers `ABOUT`,
//! so process creation is not counted; the slowest `OK` is printed and checked.

mod engine_process;

use engine_process::EngineProcess;
use std::time::{Duration, Instant};

const PROCESSES: usize = 20;
/// Measured on an idle machine: 0.3-0.4 ms, at most 1.6 ms right after start-up; the
/// issue's bound is 5 ms. The test allows ten times that for a loaded CI machine.
const LIMIT: Duration = Duration::from_millis(50);

#[test]
fn start_is_answered_at_once() {
    let mut times = Vec::new();
    for _ in 0..PROCESSES {
        let mut engine = EngineProcess::start();
        let about = engine.reply("ABOUT\n");
        assert!(about.starts_with("name="), "{about}");
        let sent = Instant::now();
        let ok = engine.reply("START 15\n");
        times.push(sent.elapsed());
        assert_eq!(ok, "OK");
        engine.end();
    }
    times.sort();
    let (median, slowest) = (times[PROCESSES / 2], times[PROCESSES - 1]);
    println!("START 15 answered in {median:?} (median), {slowest:?} (slowest of {PROCESSES})");
    assert!(slowest < LIMIT, "START took {slowest:?}");
}
