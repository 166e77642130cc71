//! The learned evaluation end to end through the binary: balanced openings,
//! self-play, training, and games evaluated by the trained network; a damaged network
//! file is refused with a clear message and the engine plays on with its built-in
//! evaluation.

mod engine_process;

use engine_process::EngineProcess;
use ferrum::openings::{canonical, parse_line};
use ferrum::selfplay::format::read_games;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ferrum(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .args(args)
        .output()
        .expect("pbrain-ferrum runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrum-net-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A coordinate answer `x,y` on a 15x15 board.
fn is_move(line: &str) -> bool {
    let parts: Vec<_> = line
        .split(',')
        .filter_map(|t| t.parse::<u32>().ok())
        .collect();
    parts.len() == 2 && parts.iter().all(|&v| v < 15)
}

/// A few moves under Gomocup rule number `rule`, each on a free point; under renju,
/// Black then declines a double three that would be its strongest move.
fn play_a_few_moves(args: &[&str], rule: i64) {
    let mut engine = EngineProcess::start_with(args);
    assert_eq!(engine.reply("START 15\n"), "OK");
    engine.send(&format!("INFO rule {rule}\n"));
    engine.send("INFO timeout_turn 200\n");
    let mut taken = std::collections::HashSet::new();
    let first = engine.reply("BEGIN\n");
    assert!(is_move(&first) && taken.insert(first.clone()), "{first}");
    for turn in ["1,1", "13,13", "1,13"] {
        if !taken.insert(turn.to_owned()) {
            continue;
        }
        let answer = engine.reply(&format!("TURN {turn}\n"));
        assert!(is_move(&answer), "{answer}");
        assert!(taken.insert(answer.clone()), "{answer} was taken");
    }
    if rule == 4 {
        // Black (the engine, to move): 7,7 would make two open threes.
        let board = "BOARD\n8,7,1\n0,0,2\n9,7,1\n0,14,2\n7,8,1\n14,0,2\n7,9,1\n14,14,2\nDONE\n";
        let answer = engine.reply(board);
        assert!(is_move(&answer) && answer != "7,7", "{answer}");
    }
    engine.end();
}

#[test]
fn openings_selfplay_training_and_a_game_with_the_network() {
    let dir = scratch("pipeline");
    let test_set = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/freestyle15-test.txt");
    let test_set = test_set.to_str().unwrap();
    // Openings: balanced, distinct under the board's symmetries, none from the test set.
    let out = ferrum(&[
        "openings",
        "--rule",
        "freestyle",
        "--count",
        "4",
        "--balance-nodes",
        "1000",
        "--exclude",
        test_set,
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    let forms: Vec<_> = text
        .lines()
        .map(|l| canonical(&parse_line(l, 15, 15).unwrap(), 15, 15))
        .collect();
    assert_eq!(forms.len(), 4);
    for (i, f) in forms.iter().enumerate() {
        assert!(!forms[..i].contains(f), "{text}");
    }
    // Self-play into a file, then training on it.
    let data = dir.join("games.frsp");
    let data = data.to_str().unwrap();
    let out = ferrum(&[
        "selfplay",
        "--games",
        "4",
        "--nodes",
        "1500",
        "--balance-nodes",
        "1000",
        "--threads",
        "2",
        "--exclude",
        test_set,
        "--out",
        data,
    ]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("4 games"));
    // A second run appends its games, from other openings than the file's (the same
    // seed and game numbers would otherwise play the same games again); a file of
    // something else, or one cut inside its last game, is refused.
    let again = [
        "selfplay",
        "--games",
        "1",
        "--nodes",
        "1500",
        "--balance-nodes",
        "1000",
        "--out",
        data,
    ];
    ferrum(&again);
    let whole = std::fs::read(data).unwrap();
    let cut = dir.join("cut.frsp");
    std::fs::write(&cut, &whole[..whole.len() - 3]).unwrap();
    let cut_run = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .args(again.map(|a| if a == data { cut.to_str().unwrap() } else { a }))
        .output()
        .unwrap();
    assert_eq!(cut_run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&cut_run.stderr).contains("cannot append"));
    assert_eq!(std::fs::read(&cut).unwrap().len(), whole.len() - 3);
    let other = dir.join("other.txt");
    std::fs::write(&other, "not games\n").unwrap();
    let refused = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .args(["selfplay", "--games", "1", "--out", other.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a Ferrum self-play file"));
    let games = read_games(&mut std::fs::File::open(data).unwrap()).unwrap();
    assert_eq!(games.len(), 5);
    for g in &games {
        g.positions(|_| {}).expect("every move replays legally");
    }
    let first = canonical(&games[0].opening_cells(), 15, 15);
    assert_ne!(canonical(&games[4].opening_cells(), 15, 15), first);
    // A damaged record (its second move on its first) is left out before training; a
    // diverged training writes nothing.
    let damaged = dir.join("damaged.frsp");
    let mut bad = games[0].clone();
    bad.plies[1] = bad.plies[0];
    let mut bytes = std::fs::read(data).unwrap();
    ferrum::selfplay::format::write_game(&mut bytes, &bad).unwrap();
    std::fs::write(&damaged, bytes).unwrap();
    let damaged = damaged.to_str().unwrap();
    let unused = dir.join("unused.frnn");
    let unused = unused.to_str().unwrap();
    // Five games hold out none at one in 20: refused, not scored 0 every epoch.
    let none_held = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .args(["train", damaged, "--epochs", "1", "--out", unused])
        .output()
        .unwrap();
    assert_eq!(none_held.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none_held.stderr).contains("no game held out"));
    assert!(!Path::new(unused).exists());
    let out = ferrum(&[
        "train",
        damaged,
        "--epochs",
        "1",
        "--holdout",
        "3",
        "--out",
        unused,
    ]);
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("1 damaged games left out"), "{report}");
    std::fs::remove_file(unused).unwrap();
    let diverged = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .args([
            "train",
            data,
            "--epochs",
            "1",
            "--holdout",
            "3",
            "--learning-rate",
            "1e30",
        ])
        .args(["--out", unused])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&diverged.stderr);
    assert!(
        err.contains("diverged") || err.contains("not one the engine loads"),
        "{err}"
    );
    assert_eq!(diverged.status.code(), Some(2));
    assert!(!Path::new(unused).exists());
    let net = dir.join("net.frnn");
    let net = net.to_str().unwrap();
    let out = ferrum(&[
        "train",
        data,
        "--holdout",
        "3",
        "--epochs",
        "2",
        "--batch",
        "32",
        "--final-rate",
        "0.5",
        "--out",
        net,
    ]);
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        report.contains("epoch 2 train value") && report.contains("held-out"),
        "{report}"
    );
    // The epoch written is the one with the lowest held-out loss.
    assert!(report.contains("(freestyle network, epoch "), "{report}");
    assert!(ferrum::net::load(Path::new(net)).is_ok());
    // A next generation starts from it: at learning rate 0 it is written back unchanged;
    // a network of another kind is refused.
    let next = dir.join("next.frnn");
    let next = next.to_str().unwrap();
    let init = [
        "train",
        data,
        "--holdout",
        "3",
        "--epochs",
        "1",
        "--learning-rate",
        "0",
        "--out",
        next,
    ];
    let trained = ferrum(&[&init[..], &["--init", net]].concat());
    assert_eq!(std::fs::read(net).unwrap(), std::fs::read(next).unwrap());
    // No epoch scores it on the held-out games: the same losses, the same file.
    std::fs::remove_file(next).unwrap();
    let scored = ferrum(&[
        "train",
        data,
        "--holdout",
        "3",
        "--epochs",
        "0",
        "--init",
        net,
        "--out",
        next,
    ]);
    assert_eq!(std::fs::read(net).unwrap(), std::fs::read(next).unwrap());
    let held_out = |o: &Output| {
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        let line = text.lines().find(|l| l.starts_with("wrote ")).unwrap_or("");
        line.split_once("held-out ").map(|(_, l)| l.to_string())
    };
    assert!(held_out(&scored).is_some_and(|l| l.starts_with("value ")));
    assert_eq!(held_out(&scored), held_out(&trained));
    let refused = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .args([&init[..], &["--init", net, "--residual"]].concat())
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("is a freestyle network; the data is freestyle with --residual"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    // The benchmark searches with it and reports its costs.
    let out = ferrum(&["--net", net, "bench", "3"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Network (freestyle): ") && text.contains(" ns per value"),
        "{text}"
    );
    // The engine plays with it, from the command line and switched by INFO.
    play_a_few_moves(&["--net", net], 0);
    let mut engine = EngineProcess::start_with(&["--net", net, "--eval", "classical"]);
    assert_eq!(engine.reply("START 15\n"), "OK");
    engine.send("INFO eval net\nINFO timeout_turn 100\n");
    assert!(is_move(&engine.reply("BEGIN\n")));
    engine.end();
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_damaged_network_is_refused_and_the_built_in_evaluation_plays() {
    let dir = scratch("damaged");
    let bad = dir.join("bad.frnn");
    std::fs::write(&bad, b"FRNN\x01\x00 this is not a network").unwrap();
    let bad = bad.to_str().unwrap();
    // A tool stops on it (hours of self-play with the wrong network are worse).
    let refused = |net: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
            .args(["--net", net, "bench", "3"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{net}");
        assert!(out.stdout.is_empty(), "{net}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = refused(bad);
    assert!(
        err.contains("bad.frnn") && !err.contains("instead"),
        "{err}"
    );
    // The engine says so and plays on with its built-in evaluation.
    play_a_few_moves(&["--net", bad], 0);
    let mut engine = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .args(["--net", bad])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    // End of input: the engine answers BEGIN at once and exits.
    let commands = b"START 15\nINFO timeout_turn 100\nBEGIN\n";
    engine.stdin.take().unwrap().write_all(commands).unwrap();
    let out = engine.wait_with_output().unwrap();
    let (said, played) = (
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout),
    );
    assert!(
        said.contains("bad.frnn") && said.contains("built-in evaluation"),
        "{said}"
    );
    assert!(played.lines().any(is_move), "{played}");
    // Not a file, or an endless one: refused at once, without reading it all.
    if cfg!(unix) {
        for path in ["/dev/zero", "/dev/stdin", "/"] {
            let err = refused(path);
            assert!(err.contains(path), "{path}: {err}");
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

/// The repository's networks load, name their rule in their file name, and play.
#[test]
fn the_repositorys_networks_load_and_play() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("nets");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "frnn") {
            continue;
        }
        let net = ferrum::net::load(&path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with(net.rule.name()), "{name}: {:?}", net.rule);
        play_a_few_moves(&["--net", path.to_str().unwrap()], net.rule.gomocup_value());
        count += 1;
    }
    assert!(count > 0, "no network in {}", dir.display());
}

/// The built-in networks play by default (as with `--eval net`) with no file, and
/// `bench` searches with them (another node count than the classical evaluation's) and
/// reports their costs.
#[test]
fn the_built_in_network_plays() {
    let out = ferrum(&["--eval", "net", "bench", "3"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Network (freestyle): "), "{text}");
    assert!(text.contains("Network (renju): "), "{text}");
    let default = String::from_utf8(ferrum(&["bench", "3"]).stdout).unwrap();
    let classical =
        String::from_utf8(ferrum(&["--eval", "classical", "bench", "3"]).stdout).unwrap();
    assert!(!classical.contains("Network"), "{classical}");
    let nodes = |t: &str| {
        t.lines()
            .last()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .to_owned()
    };
    assert_eq!(nodes(&text), nodes(&default), "the network is the default");
    assert_ne!(
        nodes(&text),
        nodes(&classical),
        "the network searches otherwise"
    );
    play_a_few_moves(&["--eval", "net"], 0);
    // Renju's built-in network: Black's moves must stay legal.
    play_a_few_moves(&["--eval", "net"], 4);
}
