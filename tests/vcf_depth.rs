//! The VCF's depth limits on real lines: a short search skips the fours that cannot
//! win in time (`fours_within`), so the end of every winning line must still be found
//! within exactly the moves it has left. For every puzzle of the shared VCF files: solve,
//! then from the positions before the last and the second-to-last attacker move, a
//! search limited to 1 and 2 moves must win (renju with White attacking covers the
//! fours whose block is forbidden for Black).

use ferrum::board::Board;
use ferrum::search::vcf::{VcfLimits, VcfResult, VcfSolver};
use ferrum::tools::solve::parse_puzzle;
use std::path::Path;

fn solve(board: &mut Board, max_depth: u32) -> VcfResult {
    let limits = VcfLimits {
        max_depth,
        ..VcfLimits::default()
    };
    VcfSolver::new(limits).solve(board)
}

fn check_file(file: &str, step: usize) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/puzzles")
        .join(file);
    let text = std::fs::read_to_string(path).expect("puzzle file");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()).step_by(step) {
        let puzzle = parse_puzzle(line).expect("puzzle");
        let mut board = puzzle.board.clone();
        let attacker = board.to_move();
        let VcfResult::Win(win) = solve(&mut board, 100) else {
            panic!("{}: no VCF found", puzzle.id);
        };
        // Attacker moves sit at even indices; `left` of them remain from index 2*(n-left).
        let n = win.len().div_ceil(2);
        for left in 1..=2.min(n) {
            let mut b = puzzle.board.clone();
            for (i, &p) in win[..2 * (n - left)].iter().enumerate() {
                let c = if i % 2 == 0 { attacker } else { attacker.opp() };
                b.make(p, c);
            }
            b.set_to_move(attacker);
            assert!(
                matches!(solve(&mut b, left as u32), VcfResult::Win(_)),
                "{}: the last {left} attacker move(s) of {win:?} not found within {left}",
                puzzle.id
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{file}: only {checked} positions checked");
}

#[test]
fn line_ends_are_found_within_their_depth() {
    check_file("renju_vcf.jsonl", 1);
    check_file("freestyle_vcf.jsonl", 1);
    check_file("standard_vcf.jsonl", 1);
}
