//! `START` answers at once: no table is made on its path (managers such as
//! c-gomoku-cli give `OK` a tolerance of a second, and the clock of a busy machine runs
//! on). Each of a few fresh processes gets `START 15` as soon as it answers `ABOUT`,
//! so process creation is not counted; the slowest `OK` is printed and checked.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PROCESSES: usize = 20;
/// Measured on an idle machine: 0.3-0.4 ms, at most 1.6 ms right after start-up; the
/// issue's bound is 5 ms. The test allows ten times that for a loaded CI machine.
const LIMIT: Duration = Duration::from_millis(50);

#[test]
fn start_is_answered_at_once() {
    let mut times = Vec::new();
    for _ in 0..PROCESSES {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
        stdin.write_all(b"ABOUT\n").unwrap();
        stdin.flush().unwrap();
        let about = stdout.next().unwrap().unwrap();
        assert!(about.starts_with("name="), "{about}");
        let sent = Instant::now();
        stdin.write_all(b"START 15\n").unwrap();
        stdin.flush().unwrap();
        let ok = stdout.next().unwrap().unwrap();
        times.push(sent.elapsed());
        assert_eq!(ok, "OK");
        stdin.write_all(b"END\n").unwrap();
        drop(stdin);
        child.wait().unwrap();
    }
    times.sort();
    let (median, slowest) = (times[PROCESSES / 2], times[PROCESSES - 1]);
    println!("START 15 answered in {median:?} (median), {slowest:?} (slowest of {PROCESSES})");
    assert!(slowest < LIMIT, "START took {slowest:?}");
}
