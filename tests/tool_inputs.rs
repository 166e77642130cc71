//! The tools through the real binary on input they must not take silently: games a
//! tool would drop without a word, results the moves contradict, options that would
//! make other data than asked for, numbers out of range.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FERRUM: &str = env!("CARGO_BIN_EXE_pbrain-ferrum");

fn ferrum(args: &[&str]) -> Output {
    Command::new(FERRUM)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrum-tool-inputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn write(path: &Path, text: &str) -> String {
    std::fs::write(path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Twelve moves of a freestyle game, in c-gomoku-cli's SGF, with the result given.
fn sgf(result: &str) -> String {
    format!(
        "(;FF[4]GM[4]GN[1]RU[0]SZ[15]PB[a]PW[b]{result};B[hh];W[ii];B[hi];W[ih];B[hg];W[hj];\
         B[gh];W[jh];B[gg];W[ff];B[ig];W[jg])\n"
    )
}

#[test]
fn unfinished_games_are_not_dropped_by_the_tools_that_need_no_result() {
    let file = write(&scratch("unfinished.sgf"), &sgf(""));
    let out = ferrum(&[
        "sample-leaves",
        "--threads",
        "1",
        "--time-ms",
        "20",
        "--step",
        "1",
        &file,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!out.stdout.is_empty(), "no leaves: the game was dropped");
    // tune needs a result: it says how many games it left out, and why.
    let out = ferrum(&["tune", "--iterations", "0", &file]);
    assert!(
        stderr(&out).contains("1 of 1 games left out (no result"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_result_the_moves_contradict_is_refused() {
    // Black completes five (h5..h9 in SGF letters hh, hi, hg, hf, hj), White is given
    // the win.
    let text = "(;FF[4]GM[4]GN[7]RU[0]SZ[15]PB[a]PW[b]RE[W+1];B[hh];W[ii];B[hi];W[ij];\
                B[hg];W[ik];B[hf];W[il];B[hj])\n";
    let file = write(&scratch("contradicted.sgf"), text);
    let out = ferrum(&["tune", "--iterations", "0", &file]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("game 7: the record says Win(White), its moves give Win(Black)"),
        "{}",
        stderr(&out)
    );
    let agreed = write(&scratch("agreed.sgf"), &text.replace("RE[W+1]", "RE[B+1]"));
    // (One game is too few to fit: the point is only that it is read.)
    let out = ferrum(&["tune", "--iterations", "0", &agreed]);
    assert!(
        !stderr(&out).contains("the record says"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("too few positions"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_psq_stone_after_a_blank_line_is_an_error() {
    let psq = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n\n8,9,0\n9,8,0\nnew\nold\n0\n";
    let file = write(&scratch("blank.psq"), psq);
    let out = ferrum(&[
        "scan-moves",
        "--nodes",
        "200",
        "--walks",
        "1",
        "--plies",
        "1",
        &file,
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("blank line among the stones"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn openings_are_balanced_by_the_evaluation_asked_for() {
    let args = ["openings", "--count", "4", "--balance-nodes", "300"];
    let net = ferrum(&args);
    let mut classical_args = vec!["--eval", "classical"];
    classical_args.extend(args);
    let classical = ferrum(&classical_args);
    assert!(net.status.success() && classical.status.success());
    assert_eq!(String::from_utf8_lossy(&net.stdout).lines().count(), 4);
    assert_ne!(net.stdout, classical.stdout, "--eval made no difference");
}

#[test]
fn a_network_the_games_would_not_use_is_refused() {
    let renju_net = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/renju-gen1.frnn");
    let out_file = scratch("unused-net.frsp");
    let out = ferrum(&[
        "--net",
        renju_net,
        "selfplay",
        "--games",
        "1",
        "--nodes",
        "100",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no --net network is for freestyle games"),
        "{}",
        stderr(&out)
    );
    assert!(!out_file.exists(), "a file was written");
    let out = ferrum(&[
        "--eval",
        "classical",
        "--net",
        renju_net,
        "openings",
        "--rule",
        "renju",
        "--count",
        "1",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--eval classical"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn training_numbers_out_of_range_are_refused() {
    let data = scratch("none.frsp");
    let data = data.to_str().unwrap();
    for bad in [
        &["--learning-rate=-1"][..],
        &["--result-weight", "5"],
        &["--policy-weight=-1"],
        &["--fraction", "2"],
        &["--epochs", "0"],
    ] {
        let mut args = vec!["train", "--out", "/dev/null", data];
        args.extend(bad);
        let out = ferrum(&args);
        assert!(!out.status.success(), "{bad:?} accepted");
        let err = stderr(&out);
        assert!(
            err.contains("invalid value") || err.contains("--init"),
            "{bad:?}: {err}"
        );
    }
}

#[test]
fn without_to_move_a_puzzle_is_solved_for_the_side_whose_turn_it_is() {
    // Three black stones against two white ones: White to move, who cannot win.
    let file = write(
        &scratch("turn.jsonl"),
        "{\"black\":[[7,7],[8,7],[9,7]],\"white\":[[0,0],[0,14]]}\n",
    );
    let out = ferrum(&["solve", "--threads", "1", "--time-ms", "200", &file]);
    let answer = String::from_utf8_lossy(&out.stdout);
    assert!(!answer.contains("\"result\":\"win\""), "{answer}");
}
