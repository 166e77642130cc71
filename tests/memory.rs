//! The whole process stays under `INFO max_memory` (GomocupJudge scores excess as a
//! crash): the transposition table is sized with the solvers' tables counted, through
//! searches of positions full of threats, where the root tactics use their budgets,
//! and through a whole game with the limit sent after `START`, as managers send it.
//! Linux only: the peak resident memory comes from `/proc`.
#![cfg(target_os = "linux")]

mod engine_process;

use engine_process::EngineProcess;

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
    let mut engine = EngineProcess::start();
    // The limit before START (INFO may come at any time): the peak is then the whole
    // process's.
    let about = engine.reply(&format!(
        "INFO max_memory {LIMIT}\nINFO thread_num 2\nINFO timeout_turn 600\nABOUT\n"
    ));
    assert!(about.starts_with("name="), "{about}");
    assert_eq!(engine.reply("START 15\n"), "OK");
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
        let answer = engine.reply(&board);
        assert!(answer.contains(','), "{answer}");
    }
    let peak = peak_rss_bytes(engine.id());
    println!(
        "peak RSS {:.1} MiB, max_memory {} MiB",
        peak as f64 / (1 << 20) as f64,
        LIMIT >> 20
    );
    engine.end();
    assert!(
        peak < LIMIT,
        "peak RSS {} MiB over max_memory {} MiB",
        peak >> 20,
        LIMIT >> 20
    );
}

/// A game as GomocupJudge and c-gomoku-cli start it: `START 20`, then the limit. START
/// allocates nothing, so the table is made at the first search within the limit and
/// the peak of the whole process (VmHWM) stays under it.
#[test]
fn a_whole_game_stays_under_a_limit_sent_after_start() {
    // The network's tables and state count too (the default), and so does the
    // classical evaluation's path.
    for args in [&[][..], &["--eval", "classical"]] {
        game_under_limit(args);
    }
}

fn game_under_limit(args: &[&str]) {
    const GAME_LIMIT: u64 = 40_000_000;
    let mut engine = EngineProcess::start_with(args);
    assert_eq!(engine.reply("START 20\n"), "OK");
    let after_start = peak_rss_bytes(engine.id());
    engine.send(&format!(
        "INFO max_memory {GAME_LIMIT}\nINFO timeout_turn 150\n"
    ));
    // Our side answers next to the engine's last stone; the engine wins or the board
    // fills within the moves played.
    let mut taken = std::collections::HashSet::new();
    let mut answer = engine.reply("BEGIN\n");
    for _ in 0..60 {
        let (x, y) = answer
            .split_once(',')
            .and_then(|(x, y)| Some((x.parse::<i64>().ok()?, y.parse::<i64>().ok()?)))
            .unwrap_or_else(|| panic!("not a move: {answer}"));
        taken.insert((x, y));
        let steps = [
            (1, 0),
            (0, 1),
            (-1, 0),
            (0, -1),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ];
        let Some(next) = steps
            .iter()
            .map(|(dx, dy)| (x + dx, y + dy))
            .find(|p| (0..20).contains(&p.0) && (0..20).contains(&p.1) && !taken.contains(p))
        else {
            break;
        };
        taken.insert(next);
        answer = engine.reply(&format!("TURN {},{}\n", next.0, next.1));
    }
    let peak = peak_rss_bytes(engine.id());
    println!(
        "{args:?}: peak RSS {:.1} MiB over a game (after START {:.1} MiB), max_memory {:.1} MiB",
        peak as f64 / (1 << 20) as f64,
        after_start as f64 / (1 << 20) as f64,
        GAME_LIMIT as f64 / (1 << 20) as f64
    );
    engine.end();
    assert!(
        peak < GAME_LIMIT,
        "peak RSS {peak} over max_memory {GAME_LIMIT}"
    );
}
