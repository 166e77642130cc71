//! `scripts/apply_tune.py`, which writes a `pbrain-ferrum tune` report into the tree:
//! a report of the current tables (`--iterations 0`) must write the three evaluation
//! files back byte for byte, a changed number must land in its place with the
//! comments kept, and a report whose table has another size must change nothing.

mod common;

use common::{run_script, script_output};
use std::path::{Path, PathBuf};
use std::process::Command;

const FILES: [&str; 3] = [
    "src/eval/weights.rs",
    "src/eval/combo_weights.rs",
    "src/eval/mask_weights.rs",
];

/// A copy of the three evaluation files under a fresh directory laid out as the repo.
fn scratch_tree(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("ferrum-apply-tune-{name}-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("src/eval")).unwrap();
    for f in FILES {
        std::fs::copy(root.join(f), dir.join(f)).unwrap();
    }
    dir
}

fn read(dir: &Path, f: &str) -> String {
    std::fs::read_to_string(dir.join(f)).unwrap()
}

/// `tune --iterations 0` on thirty made-up labelled positions: the current tables.
fn report_of_current_tables(dir: &Path) -> String {
    let mut lines = String::new();
    let mut seed = 0x2545_f491_u64;
    for i in 0..30 {
        // Six stones scattered over the middle of the board (made up; `tune` skips a
        // position with a four to block or a quick win).
        let mut cells: Vec<(u64, u64)> = Vec::new();
        while cells.len() < 6 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let cell = ((seed >> 33) % 11 + 2, (seed >> 45) % 11 + 2);
            if !cells.contains(&cell) {
                cells.push(cell);
            }
        }
        let moves: Vec<String> = cells.iter().map(|(x, y)| format!("{x},{y}")).collect();
        lines.push_str(&format!("{}\t{}\n", moves.join(" "), (i % 5) as f64 / 4.0));
    }
    let positions = dir.join("positions.txt");
    std::fs::write(&positions, lines).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .args(["tune", "--iterations", "0", "--positions"])
        .arg(&positions)
        .output()
        .expect("pbrain-ferrum runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn writes_the_tables_back_in_place() {
    let dir = scratch_tree("roundtrip");
    let report = report_of_current_tables(&dir);
    let saved = dir.join("report.txt");

    // The current tables write the files back unchanged.
    std::fs::write(&saved, &report).unwrap();
    run_script(
        "apply_tune.py",
        &[saved.to_str().unwrap(), dir.to_str().unwrap()],
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for f in FILES {
        assert_eq!(read(&dir, f), read(root, f), "{f} changed");
    }

    // One number changed: LINE_VALUE's first entry of the first view.
    let start = report.find("pub const LINE_VALUE").unwrap();
    let open = start + report[start..].find("[\n").unwrap() + 2;
    let row = open + report[open..].find('[').unwrap() + 1;
    let end = row + report[row..].find(',').unwrap();
    let first: i32 = report[row..end].trim().parse().unwrap();
    let changed = format!("{}{}{}", &report[..row], first + 12345, &report[end..]);
    std::fs::write(&saved, &changed).unwrap();
    run_script(
        "apply_tune.py",
        &[saved.to_str().unwrap(), dir.to_str().unwrap()],
    );
    let weights = read(&dir, FILES[0]);
    assert!(
        weights.contains(&format!("{}, ", first + 12345)),
        "the new value is missing"
    );
    assert!(
        weights.contains("// DEAD, OVERLINE, B1, F1, B2, F2, B3, F3, B4, F4, D4, F5"),
        "the column comment is gone"
    );
    let lines_before = read(root, FILES[0]).lines().count();
    assert_eq!(weights.lines().count(), lines_before, "the layout changed");

    // A table of another size is refused and nothing is written.
    let short = format!("{}{}", &report[..row], &report[end + 2..]);
    std::fs::write(&saved, short).unwrap();
    let out = script_output(
        "apply_tune.py",
        &[saved.to_str().unwrap(), dir.to_str().unwrap()],
    );
    assert!(!out.status.success(), "a short table was accepted");
    assert_eq!(
        read(&dir, FILES[0]),
        weights,
        "a refused report wrote weights.rs"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
