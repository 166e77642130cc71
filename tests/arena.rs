//! `ferrum-arena` end to end: self-play games of the real engine, and the fixture
//! engines of `tests/engines/` (illegal move, sleeper, exiter, garbage, scripted
//! forbidden move) scored exactly, each run under a deadline so that a hanging runner
//! fails the test instead of blocking CI.
//!
//! The fixtures are started as `bash tests/engines/X.sh`, so their exec bit does not
//! matter.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ARENA: &str = env!("CARGO_BIN_EXE_ferrum-arena");
const FERRUM: &str = env!("CARGO_BIN_EXE_pbrain-ferrum");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn fixture(name: &str) -> String {
    format!("bash {ROOT}/tests/engines/{name}.sh")
}

/// Runs ferrum-arena with `args`; fails if it takes longer than `limit`. Returns stdout.
fn arena(args: &[&str], limit: Duration) -> String {
    let start = Instant::now();
    let mut child = Command::new(ARENA)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start ferrum-arena");
    // Read stdout on a thread so the pipe never fills while we watch the clock.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).unwrap();
        s
    });
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = reader.join().unwrap();
            assert!(status.success(), "ferrum-arena failed: {status}\n{out}");
            return out;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("ferrum-arena did not finish within {limit:?}: {args:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A result that cannot be written (here: stdout closed, as under `| head`) ends the
/// match with an error, at once: the slots waiting for their results to be counted
/// must not wait forever.
#[test]
fn a_result_that_cannot_be_written_ends_the_match() {
    let legal = fixture("legal");
    let start = Instant::now();
    let mut child = Command::new(ARENA)
        .args(["--engine", &legal, "--engine", &legal, "--games", "8"])
        .args(["--concurrency", "2", "--turn-ms", "100"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ferrum-arena");
    drop(child.stdout.take());
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("ferrum-arena hung after a failed write");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(!status.success(), "{err}");
    assert!(err.to_lowercase().contains("pipe"), "{err}");
}

fn game_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("game ")).collect()
}

/// A broken engine (A) against the legal fixture (B), both colours: A loses both.
fn broken_loses(engine: &str, reasons: &[&str]) {
    let out = arena(
        &[
            "--engine",
            &fixture(engine),
            "--engine",
            &fixture("legal"),
            "--name",
            "broken",
            "--name",
            "legal",
            "--games",
            "2",
            "--turn-ms",
            "100",
            "--tolerance-ms",
            "300",
        ],
        Duration::from_secs(30),
    );
    let games = game_lines(&out);
    assert_eq!(games.len(), 2, "{out}");
    assert!(games[0].starts_with("game 1: broken (black) vs legal (white): 0-1 "));
    assert!(games[1].starts_with("game 2: legal (black) vs broken (white): 1-0 "));
    for g in &games {
        assert!(reasons.iter().any(|r| g.contains(r)), "{g}");
    }
    assert!(
        out.contains("Score of broken vs legal: 0 - 2 - 0 [0.000] 2"),
        "{out}"
    );
}

/// An engine that prints without end is timed all the same: a line waiting at the
/// deadline does not keep the move going (here the arena reads faster than `yes` and
/// the reader thread can write, so it also timed this before the check).
#[test]
fn flood_loses_on_time() {
    broken_loses("flood", &["time forfeit"]);
}

/// Lines ended by CR alone are lines.
#[test]
fn an_engine_that_ends_lines_with_cr_plays() {
    let out = two_games(&fixture("cr"), &fixture("legal"));
    let games = game_lines(&out);
    assert_eq!(games.len(), 2, "{out}");
    for g in &games {
        assert!(!g.contains("forfeit") && !g.contains("crash"), "{g}");
    }
}

/// Two games of `a` against `b`, one with each colour, at 300 ms a move.
fn two_games(a: &str, b: &str) -> String {
    let args = [
        "--engine",
        a,
        "--engine",
        b,
        "--games",
        "2",
        "--turn-ms",
        "300",
    ];
    arena(&args, Duration::from_secs(30))
}

/// An engine that exits after its last move of a game (the game ended on the other's
/// five) is started again for the next game, not charged with it.
#[test]
fn an_exit_after_a_game_is_not_charged_to_the_next() {
    let scripted = format!("{} 7,7 8,7 9,7 10,7 11,7", fixture("scripted"));
    let out = two_games(&scripted, &fixture("quitter"));
    let games = game_lines(&out);
    assert_eq!(games.len(), 2, "{out}");
    for g in &games {
        assert!(g.contains("five"), "{g}");
    }
}

#[test]
fn illegal_move_loses() {
    broken_loses("illegal", &["illegal move 0,0"]);
}

#[test]
fn sleeper_loses_on_time() {
    broken_loses("sleeper", &["time forfeit"]);
}

#[test]
fn exiter_loses_by_crash() {
    broken_loses("exiter", &["crash"]);
}

#[test]
fn garbage_loses() {
    broken_loses("garbage", &["time forfeit", "illegal move"]);
}

#[test]
fn broken_engine_against_ferrum() {
    let out = arena(
        &[
            "--engine",
            &fixture("illegal"),
            "--engine",
            FERRUM,
            "--games",
            "2",
            "--turn-ms",
            "50",
        ],
        Duration::from_secs(30),
    );
    let games = game_lines(&out);
    assert_eq!(games.len(), 2, "{out}");
    assert!(games.iter().all(|g| g.contains("illegal move")), "{out}");
    assert!(out.contains(": 0 - 2 - 0 [0.000] 2"), "{out}");
}

#[test]
fn renju_double_three_is_forbidden() {
    let openings = format!("{ROOT}/tests/engines/renju-double-three.txt");
    let out = arena(
        &[
            "--engine",
            &format!("{} 7,7", fixture("scripted")),
            "--engine",
            &fixture("legal"),
            "--name",
            "scripted",
            "--name",
            "legal",
            "--rule",
            "4",
            "--openings",
            &openings,
            "--games",
            "1",
        ],
        Duration::from_secs(30),
    );
    assert!(
        out.contains(
            "game 1: scripted (black) vs legal (white): 0-1 forbidden move 7,7 (double-three)"
        ),
        "{out}"
    );
    assert!(out.contains("forbidden move: 1"), "{out}");
}

#[test]
fn ferrum_self_play() {
    let dir = std::env::temp_dir().join(format!("ferrum-arena-test-{}", std::process::id()));
    let openings = format!("{ROOT}/tests/data/openings/freestyle15.txt");
    assert!(
        std::path::Path::new(&openings).exists(),
        "{openings} is missing"
    );
    let out = arena(
        &[
            "--engine",
            FERRUM,
            "--engine",
            FERRUM,
            "--rule",
            "0",
            "--size",
            "15",
            "--turn-ms",
            "50",
            "--openings",
            &openings,
            "--games",
            "10",
            "--concurrency",
            "2",
            "--psq",
            dir.to_str().unwrap(),
        ],
        Duration::from_secs(75),
    );
    let games = game_lines(&out);
    assert_eq!(games.len(), 10, "{out}");
    for g in &games {
        let fair = g.ends_with(" five") || g.contains("1/2 ");
        assert!(fair, "game not ended by five or draw: {g}\n{out}");
    }
    for fault in ["illegal", "forbidden", "forfeit", "crash"] {
        assert!(!out.contains(fault), "{out}");
    }
    assert!(out.contains("Finished 10 games"), "{out}");
    let psq = std::fs::read_to_string(dir.join("game_0001.psq")).unwrap();
    assert!(psq.starts_with("Piskvorky 15x15, 11:11, 0\n"), "{psq}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_the_match() {
    // Two copies of the legal fixture: Black always wins, so every opening pair is
    // 1-1 and the score stays 50 %; against H1 = +200 Elo the LLR (by games, one kind
    // of pair only) crosses ln(0.05/0.95) = -2.944 after 20 games: -3.146 at 10-10-0
    // (fishtest's LLRcalc.py, transcribed apart), -2.831 at 9-9-0.
    let out = arena(
        &[
            "--engine",
            &fixture("legal"),
            "--engine",
            &fixture("legal"),
            "--games",
            "200",
            "--sprt",
            "0,200,0.05,0.05",
            "--quiet",
        ],
        Duration::from_secs(60),
    );
    assert!(!out.contains("game 1:"), "--quiet prints no games: {out}");
    assert!(out.contains("H0 accepted"), "{out}");
    assert!(out.contains("Finished 20 games"), "{out}");
}

/// `--max-node` sends `INFO max_node`, which Ferrum searches to: a fixed-node match
/// plays the same games on every run, whatever the machine's load.
#[test]
fn fixed_node_matches_repeat() {
    let openings = format!("{ROOT}/tests/data/openings/freestyle15.txt");
    let moves_of = |run: &str| {
        let dir =
            std::env::temp_dir().join(format!("ferrum-arena-nodes-{}-{run}", std::process::id()));
        let out = arena(
            &[
                "--engine",
                &format!("{FERRUM} --threads 1"),
                "--engine",
                &format!("{FERRUM} --threads 1"),
                "--turn-ms",
                "20000",
                "--max-node",
                "3000",
                "--openings",
                &openings,
                "--games",
                "2",
                "--psq",
                dir.to_str().unwrap(),
            ],
            Duration::from_secs(60),
        );
        assert!(out.contains("Finished 2 games"), "{out}");
        let games: Vec<Vec<String>> = (1..=2)
            .map(|g| {
                let psq = std::fs::read_to_string(dir.join(format!("game_{g:04}.psq"))).unwrap();
                // A move line is `x,y,milliseconds`: the time differs between runs.
                psq.lines()
                    .filter(|l| l.matches(',').count() == 2)
                    .map(|l| l.rsplit_once(',').unwrap().0.to_string())
                    .collect()
            })
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        games
    };
    let first = moves_of("a");
    assert!(first.iter().all(|g| g.len() > 5), "{first:?}");
    assert_eq!(first, moves_of("b"));
}
