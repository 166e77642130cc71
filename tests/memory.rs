//! The whole process stays under `INFO max_memory` (GomocupJudge scores excess as a
//! crash): the transposition table is sized with the solvers' tables counted, through
//! searches of positions full of threats, where the root tactics use their budgets.
//! Linux only: the peak resident memory comes from `/proc`.
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const LIMIT: u64 = 80 << 20;

/// The stones of a JSON list such as `"black": [[6, 13], [4, 8]]`.
fn stones(line: &str, key: &str) -> Vec<(u32, u32)> {
    let start = line.find(&format!("\"{key}\": [")).expect("key") + key.len() + 4;
    let end = start + line[start..].find("]]").map_or(1, |e| e + 1);
    let numbers: Vec<u32> = line[start..end]
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    numbers.chunks(2).map(|p| (p[0], p[1])).collect()
}

fn peak_rss_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

#[test]
fn threat_searches_stay_under_max_memory() {
    let root = env!("CARGO_MANIFEST_DIR");
    let positions = std::fs::read_to_string(format!("{root}/scripts/threat_positions.jsonl"))
        .expect("threat positions");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut reply = |stdin: &mut std::process::ChildStdin, text: &str| -> String {
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
        loop {
            let line = stdout.next().expect("a reply").unwrap();
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return line;
            }
        }
    };
    // The limit before START (INFO may come at any time): the peak is then the whole
    // process's. (After START, as Piskvork sends it, START has made the default table
    // first, and the limit holds from then on.)
    let about = reply(
        &mut stdin,
        &format!("INFO max_memory {LIMIT}\nINFO thread_num 2\nINFO timeout_turn 600\nABOUT\n"),
    );
    assert!(about.starts_with("name="), "{about}");
    assert_eq!(reply(&mut stdin, "START 15\n"), "OK");
    for line in positions.lines().filter(|l| !l.trim().is_empty()).take(8) {
        let (black, white) = (stones(line, "black"), stones(line, "white"));
        let (own, theirs) = if line.contains("\"to_move\": \"black\"") {
            (black, white)
        } else {
            (white, black)
        };
        let mut board = String::from("BOARD\n");
        for (x, y) in own {
            board += &format!("{x},{y},1\n");
        }
        for (x, y) in theirs {
            board += &format!("{x},{y},2\n");
        }
        board += "DONE\n";
        let answer = reply(&mut stdin, &board);
        assert!(answer.contains(','), "{answer}");
    }
    let peak = peak_rss_bytes(child.id());
    println!(
        "peak RSS {:.1} MiB, max_memory {} MiB",
        peak as f64 / (1 << 20) as f64,
        LIMIT >> 20
    );
    stdin.write_all(b"END\n").unwrap();
    drop(stdin);
    child.wait().unwrap();
    assert!(
        peak < LIMIT,
        "peak RSS {} MiB over max_memory {} MiB",
        peak >> 20,
        LIMIT >> 20
    );
}
