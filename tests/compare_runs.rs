//! `scripts/compare_runs.py`, the reader of saved `scripts/match.sh` runs, on a small
//! made-up log: the game-by-game comparison and the per-opening table must count each
//! game for the right opening and colour (game 2k+1 and 2k+2 play opening k, cycling
//! through the file, NEW Black in the first).

mod common;

use common::run_script;
use std::path::Path;

/// A match.sh log line for game `n` with NEW Black in odd games, the result from the
/// first-named engine's side.
fn game(n: usize, result: &str) -> String {
    if n % 2 == 1 {
        format!("game {n}: new (black) vs old (white): {result} five\n")
    } else {
        format!("game {n}: old (black) vs new (white): {result} five\n")
    }
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn counts_games_per_opening_and_colour_and_pairs_runs() {
    let dir = std::env::temp_dir().join(format!("ferrum-compare-runs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = write(&dir, "openings.txt", "0,0, 1,1\n0,0, 1,0\n");
    // Eight games: openings 1, 1, 2, 2, then 1, 1, 2, 2 again.
    // NEW wins as Black in games 1 and 5 (opening 1), loses as White in game 2 and
    // wins as White in game 6 (opening 1); opening 2 (games 3, 4, 7, 8): NEW loses as
    // Black twice, draws as White once and wins as White once.
    let control: String = [
        game(1, "1-0"),
        game(2, "1-0"),
        game(3, "0-1"),
        game(4, "0.5-0.5"),
        game(5, "1-0"),
        game(6, "0-1"),
        game(7, "0-1"),
        game(8, "0-1"),
    ]
    .concat();
    let control = write(&dir, "control.log", &control);
    // A second run that lost game 1 and played only four games.
    let run2: String = [
        game(1, "0-1"),
        game(2, "1-0"),
        game(3, "0-1"),
        game(4, "0.5-0.5"),
    ]
    .concat();
    let run2 = write(&dir, "run.log", &run2);

    let table = run_script("compare_runs.py", &["--openings", &openings, &control]);
    let rows: Vec<&str> = table.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{table}");
    let cells = |row: &str| row.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(cells(rows[0]), "1 2- 0- 0 1.00 1- 1- 0 0.50", "{table}");
    assert_eq!(cells(rows[1]), "2 0- 2- 0 0.00 1- 0- 1 0.75", "{table}");

    let paired = run_script("compare_runs.py", &[&control, &run2]);
    assert!(paired.starts_with("4 common games"), "{paired}");
    // On games 1-4 the control scores 1 + 0 + 0 + 0.5, the run 0 + 0 + 0 + 0.5.
    assert!(
        paired.contains("0.375 on the common games, 0.562 on its 8"),
        "{paired}"
    );
    assert!(paired.contains("vs the first -0.250 +/- 0.250"), "{paired}");
    std::fs::remove_dir_all(&dir).ok();
}
