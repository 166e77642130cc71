//! `scripts/selfplay_chunks.sh`, the resumable chunked self-play: its chunks must hold
//! exactly the games of one uncut `selfplay` run of the same seed (as the data format's
//! reader reads them), a second call must leave written chunks alone and play only the
//! missing ones, and an unfinished `.part` chunk must be played again from its start;
//! a run stopped by `UNTIL` before its last chunk must fail, so that no caller goes on.

use ferrum::selfplay::format::{read_games, GameRecord};
use std::path::Path;
use std::process::Command;

const FERRUM: &str = env!("CARGO_BIN_EXE_pbrain-ferrum");
const OPTIONS: [&str; 6] = ["--nodes", "300", "--balance-nodes", "300", "--threads", "1"];

fn chunks(dir: &Path, from: u32, to: u32) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/selfplay_chunks.sh");
    let out = Command::new("bash")
        .arg(script)
        .arg(dir)
        .arg("c")
        .arg(from.to_string())
        .arg(to.to_string())
        .args(OPTIONS)
        .env("CHUNK", "2")
        .env("BIN", FERRUM)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn games(path: &Path) -> Vec<GameRecord> {
    read_games(&mut std::fs::File::open(path).unwrap()).unwrap()
}

#[test]
fn chunks_are_one_run_cut_and_resume() {
    let dir = std::env::temp_dir().join(format!("ferrum-selfplay-chunks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    let log = chunks(&dir, 0, 1);
    assert_eq!(log.matches("chunk ").count(), 2, "{log}");
    let first = std::fs::metadata(dir.join("c-000.frsp"))
        .unwrap()
        .modified()
        .unwrap();
    // Chunk 2 interrupted: a stale .part must not be appended to.
    std::fs::write(dir.join("c-002.frsp.part"), b"FRSP junk").unwrap();
    let log = chunks(&dir, 0, 2);
    assert!(
        !log.contains("chunk 0") && !log.contains("chunk 1") && log.contains("chunk 2"),
        "{log}"
    );
    let again = std::fs::metadata(dir.join("c-000.frsp"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(first, again, "a written chunk was played again");
    assert!(!dir.join("c-002.frsp.part").exists());

    let whole = dir.join("whole.frsp");
    let out = Command::new(FERRUM)
        .arg("selfplay")
        .args(OPTIONS)
        .args(["--games", "6", "--out"])
        .arg(&whole)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cut: Vec<GameRecord> = (0..3)
        .flat_map(|k| games(&dir.join(format!("c-{k:03}.frsp"))))
        .collect();
    assert!(!cut.is_empty());
    assert_eq!(cut, games(&whole), "the chunks differ from the uncut run");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_stopped_by_until_fails() {
    let dir = std::env::temp_dir().join(format!("ferrum-selfplay-until-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new("bash")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/selfplay_chunks.sh"
        ))
        .arg(&dir)
        .args(["c", "0", "1"])
        .args(OPTIONS)
        .env("CHUNK", "2")
        .env("BIN", FERRUM)
        .env("UNTIL", "2000-01-01")
        .output()
        .expect("bash runs");
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stdout).contains("stopped before chunk 0"));
    assert!(!dir.join("c-000.frsp").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
