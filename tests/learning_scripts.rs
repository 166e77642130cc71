//! The scripts of the long training experiments, on tiny data: `learning_curve.sh`'s
//! extra columns must be each network's own score on each set, and a second run must
//! train nothing again; `doubling_test.sh` must go from nothing to its verdict and,
//! run again, redo none of its steps, and refuse to go on with other sizes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

const FERRUM: &str = env!("CARGO_BIN_EXE_pbrain-ferrum");
const ARENA: &str = env!("CARGO_BIN_EXE_ferrum-arena");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrum-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs a command, asserts that it succeeded and returns its standard output.
fn run(command: &mut Command) -> String {
    let out = command.output().expect("the command runs");
    assert!(
        out.status.success(),
        "{:?}: {}",
        command,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn script(name: &str, env: &[(&str, &str)]) -> Command {
    let mut command = Command::new("bash");
    command
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/").to_owned() + name)
        .envs(env.iter().copied());
    command
}

fn selfplay(out: &Path, seed: &str, games: &str) {
    run(Command::new(FERRUM)
        .args([
            "--eval",
            "classical",
            "selfplay",
            "--rule",
            "renju",
            "--seed",
            seed,
        ])
        .args(["--nodes", "300", "--balance-nodes", "300", "--threads", "1"])
        .args(["--games", games, "--out"])
        .arg(out));
}

fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

/// The held-out value loss that `train --epochs 0` reports for `net` on `data`.
fn value_on(net: &Path, data: &Path) -> String {
    let report = run(Command::new(FERRUM)
        .arg("train")
        .arg(data)
        .arg("--init")
        .arg(net)
        .args([
            "--residual",
            "--result-weight",
            "0.2",
            "--epochs",
            "0",
            "--holdout",
            "1",
        ])
        .args(["--threads", "1", "--out", "/dev/null"]));
    let value = report.split("held-out value ").nth(1).expect("a score");
    value.split_whitespace().next().unwrap().to_owned()
}

/// Runs a script a second time: `net` must not be trained again and `result` must read
/// as before. Returns the second run's output.
fn rerun_redoes_nothing(command: &mut Command, net: &Path, result: &Path) -> String {
    let (trained, before) = (modified(net), std::fs::read_to_string(result).unwrap());
    let out = run(command);
    assert_eq!(modified(net), trained, "trained again");
    assert_eq!(std::fs::read_to_string(result).unwrap(), before);
    out
}

#[test]
fn learning_curve_scores_other_sets_and_resumes() {
    let dir = scratch("learning-curve");
    let (data, other) = (dir.join("data.frsp"), dir.join("other.frsp"));
    selfplay(&data, "1", "16");
    selfplay(&other, "2", "6");
    let curve = dir.join("curve");
    let other_name = other.to_str().unwrap();
    let env = [
        ("SHARES", "0.5 1"),
        ("EPOCHS", "1"),
        ("HOLDOUT", "3"),
        ("THREADS", "1"),
        ("BIN", FERRUM),
        ("EVAL", other_name),
    ];
    run(script("learning_curve.sh", &env).arg(&curve).arg(&data));
    let table = std::fs::read_to_string(curve.join("curve.txt")).unwrap();
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 3, "{table}");
    assert_eq!(rows[0].last(), Some(&"other"), "{table}");
    for (row, share) in rows[1..].iter().zip(["0.5", "1"]) {
        assert_eq!(row[0], share, "{table}");
        let net = curve.join(format!("curve-{share}.frnn"));
        assert_eq!(*row.last().unwrap(), value_on(&net, &other), "{table}");
    }

    rerun_redoes_nothing(
        script("learning_curve.sh", &env).arg(&curve).arg(&data),
        &curve.join("curve-1.frnn"),
        &curve.join("curve.txt"),
    );
    // Two sets of one file name would share one score (train.sh names every
    // generation's games `games.frsp`): refused.
    let twins = format!("{} {}/other.frsp", other_name, curve.to_str().unwrap());
    let env = [("BIN", FERRUM), ("EVAL", twins.as_str())];
    let out = script("learning_curve.sh", &env)
        .arg(dir.join("twins"))
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("distinct names"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn doubling_test_goes_from_nothing_to_its_verdict_and_resumes() {
    let dir = scratch("doubling-test");
    let env = [
        ("CHUNKS", "2"),
        ("CHUNK", "4"),
        ("OWN_GAMES", "4"),
        ("GAMES", "2"),
        ("HOLDOUT", "3"),
        ("THREADS", "1"),
        ("BIN", FERRUM),
        ("ARENA", ARENA),
    ];
    let log = run(script("doubling_test.sh", &env).arg(&dir));
    for step in ["chunk 1", "renju-gen0-3m-000", "renju-gen1-000"] {
        assert!(log.contains(step), "{step} missing: {log}");
    }
    let verdict = std::fs::read_to_string(dir.join("verdict.txt")).unwrap();
    let lines: Vec<&str> = verdict.lines().collect();
    assert_eq!(lines.len(), 6, "{verdict}");
    assert!(lines[0].starts_with("own set 1: value ") && lines[1].starts_with("own set 2: "));
    assert!(lines[2].starts_with("loss: more data "), "{verdict}");
    assert!(lines[3].contains("W-L-D"), "{verdict}");
    assert!(lines[4].starts_with("play: all the data "), "{verdict}");
    // The rule: stopped helping only if both the losses and the match say so.
    let stopped = lines[2].ends_with("stopped helping") && lines[4].ends_with("does not beat half");
    let combined = if stopped {
        "verdict: more data has stopped helping"
    } else {
        "verdict: more data still helps"
    };
    assert_eq!(lines[5], combined, "{verdict}");
    let match_log = std::fs::read_to_string(dir.join("match.txt")).unwrap();
    assert!(match_log.contains("Finished 2 games"), "{match_log}");

    let again = rerun_redoes_nothing(
        script("doubling_test.sh", &env).arg(&dir),
        &dir.join("curve/curve-1.frnn"),
        &dir.join("verdict.txt"),
    );
    assert!(!again.contains("chunk "), "played again: {again}");
    // The run reads its own copy of the scripts and networks, and refuses other sizes.
    assert!(dir.join("tree/scripts/selfplay_chunks.sh").is_file());
    assert!(dir.join("tree/nets/renju-gen1.frnn").is_file());
    let mut bigger = env;
    bigger[0] = ("CHUNKS", "3");
    let out = script("doubling_test.sh", &bigger)
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "a run begun with 2 chunks went on with 3"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("CHUNKS=2"));
    let _ = std::fs::remove_dir_all(&dir);
}
