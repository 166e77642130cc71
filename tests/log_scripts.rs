//! The scripts that read the engine's `--log` files, on a log the binary writes now:
//! the log's format changes with the engine, and a reader that no longer finds its
//! lines reports nothing rather than failing.

mod common;
mod engine_process;

use common::run_script;
use engine_process::EngineProcess;

#[test]
fn nodes_per_ms_reads_every_searched_move_of_a_log() {
    let dir = std::env::temp_dir().join(format!("ferrum-log-scripts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("engine.log");
    let mut engine = EngineProcess::start_with(&["--threads", "1", "--log", log.to_str().unwrap()]);
    assert_eq!(engine.reply("START 15\n"), "OK");
    engine.send("INFO timeout_turn 300\n");
    for command in [
        "BEGIN\n",
        "TURN 8,8\n",
        "TURN 6,8\n",
        "TURN 9,9\n",
        "TURN 5,5\n",
    ] {
        let answer = engine.reply(command);
        assert!(answer.contains(','), "{command}: {answer}");
    }
    engine.end();
    // The moves searched: BEGIN's centre is not, nor a move a busy machine made the
    // protocol answer without its search (`nodes 0`).
    let text = std::fs::read_to_string(&log).unwrap();
    let searched = text
        .lines()
        .filter_map(|l| {
            l.split_once("Move: ")?
                .1
                .rsplit_once(" nodes ")?
                .1
                .parse::<u64>()
                .ok()
        })
        .filter(|&n| n > 0)
        .count();
    assert!(searched > 0, "{text}");
    let report = run_script("nodes_per_ms.py", &[log.to_str().unwrap()]);
    let line = report.lines().next().unwrap_or_default();
    assert!(
        line.contains(&format!(": {searched} moves, mean ")),
        "{report}"
    );
    let rate: f64 = line
        .rsplit(", ")
        .next()
        .and_then(|r| r.strip_suffix(" nodes/ms"))
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("{report}"));
    assert!(rate > 0.0, "{report}");
    std::fs::remove_dir_all(dir).ok();
}
