//! `scripts/loss_evals.py` and `scripts/log_depths.py`, the readers of Ferrum's match
//! logs, on a small made-up log that rotated in the middle of a game: the game must
//! stay whole, the position before the move that let a surprise loss in must come out
//! in `analyze --moves` notation, the opening's wall left out, and a claimed win given
//! up later must be counted.

mod common;

use common::run_script;

/// Log lines as Ferrum writes them (timestamp, level, text).
fn log(lines: &[&str]) -> String {
    lines
        .iter()
        .map(|l| format!("2026-11-29T03:04:05.657798546Z [INFO] {l}\n"))
        .collect()
}

/// A fresh directory `ferrum-<tag>-<pid>` under the temporary directory holding the
/// log files `files` (name, contents).
fn log_dir(tag: &str, files: &[(&str, String)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrum-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, contents) in files {
        std::fs::write(dir.join(name), contents).unwrap();
    }
    dir
}

#[test]
fn reads_a_game_across_the_rotation_and_prints_the_position_of_a_surprise_loss() {
    // Game 1 starts in the rotated part: a wall and two stones, Ferrum (Black) to move.
    // Its scores 50 and 120 are followed by a forced loss: a surprise, let in by its
    // second move (10,10) after the stones h8 i9 j10 g7.
    let old = log(&[
        "<< START 15",
        ">> OK",
        "<< BOARD",
        "<< 0,0,3",
        "<< 7,7,1",
        "<< 8,8,2",
        "<< DONE",
        "Move: score 50 depth 10",
        ">> 9,9",
        "<< TURN 6,6",
        "Move: score 120 depth 11",
        ">> 10,10",
    ]);
    let new = log(&[
        "<< TURN 5,5",
        "Move: score -29990 depth 5",
        ">> 11,11",
        "<< START 15",
        "<< BEGIN",
        "Move: score 0 depth 1",
        ">> 7,7",
        "<< TURN 8,8",
        "Move: score 29995 depth 3",
        ">> 9,9",
        // Game 3: a claimed win given up, then lost.
        "<< START 15",
        "<< BEGIN",
        "Move: score 29991 depth 9",
        ">> 7,7",
        "<< TURN 8,8",
        "Move: score -29993 depth 7",
        ">> 9,9",
    ]);
    let dir = log_dir("loss-evals", &[("1234.log.old", old), ("1234.log", new)]);
    let d = dir.to_string_lossy().into_owned();

    let out = run_script("loss_evals.py", &[&d, "--positions"]);
    assert!(
        out.contains("3 games: Ferrum saw a forced loss in 2, a forced win in 1"),
        "{out}"
    );
    assert!(
        out.contains("win claims: 2 games; given up later in 1, 1 of them lost after the claim"),
        "{out}"
    );
    assert!(out.contains("loss seen at move 3"), "{out}");
    assert!(out.contains("played, answered: k11 f6"), "{out}");
    assert!(out.contains("--moves h8,i9,j10,g7\n"), "{out}");
    assert!(out.contains("2 came as a surprise"), "{out}");

    // Seven moves with a depth (three of game 1, two each of games 2 and 3): the game
    // cut by the rotation counts whole.
    let out = run_script("log_depths.py", &[&d, "--moves", "1-3"]);
    assert!(out.contains("7 moves, mean depth 6.57"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn counts_the_advantages_not_converted() {
    // Game 1 is ahead by 700 and never claims a win (drawn); game 2 is ahead by 650 and
    // then claims one; game 3 never reaches 600.
    let lines = log(&[
        "<< START 15",
        "<< BEGIN",
        "Move: score 700 depth 12",
        ">> 7,7",
        "<< TURN 8,8",
        "Move: score 0 depth 12",
        ">> 9,9",
        "<< START 15",
        "<< BEGIN",
        "Move: score 650 depth 12",
        ">> 7,7",
        "<< TURN 8,8",
        "Move: score 29991 depth 9",
        ">> 9,9",
        "<< START 15",
        "<< BEGIN",
        "Move: score 599 depth 12",
        ">> 7,7",
    ]);
    let dir = log_dir("ahead", &[("1.log", lines)]);
    let out = run_script("loss_evals.py", &[dir.to_str().unwrap()]);
    assert!(
        out.contains("ahead by 600 or more: 2 games; no win claimed in 1"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn answers_without_a_search_and_first_move_losses_are_told_apart() {
    // Game 1: an overdue answer (score 0 depth 0) after -500 and -700 is no
    // evaluation, so the loss was seen coming. Game 2: the loss seen at Ferrum's first
    // move is neither seen coming nor a surprise.
    let lines = log(&[
        "<< START 15",
        "<< BEGIN",
        "Move: score -500 depth 12",
        ">> 7,7",
        "<< TURN 8,8",
        "Move: score -700 depth 12",
        ">> 9,9",
        "<< TURN 10,10",
        "Move: score 0 depth 0 nodes 0",
        ">> 6,6",
        "<< TURN 5,5",
        "Move: score -29990 depth 8",
        ">> 4,4",
        "<< START 15",
        "<< BEGIN",
        "Move: score -29990 depth 8",
        ">> 7,7",
    ]);
    let dir = log_dir("placeholder", &[("1.log", lines)]);
    let d = dir.to_string_lossy().into_owned();
    let out = run_script("loss_evals.py", &[&d]);
    assert!(
        out.contains("1 of 2 losses were below -300 the move before the loss was seen"),
        "{out}"
    );
    assert!(
        out.contains("0 came as a surprise, 1 were seen at the first move"),
        "{out}"
    );
    // A threshold below every score but the loss's is crossed by the loss itself.
    let out = run_script("loss_evals.py", &[&d, "-29995"]);
    assert!(out.contains("loss seen at move 1"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
