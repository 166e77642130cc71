//! Static evaluation from the board's incremental pattern scores.

pub mod combo;
mod combo_weights;
pub mod weights;

use crate::board::{Board, Color};

/// Static evaluation from the side to move's point of view: the mean of this
/// position's pattern evaluation and (negated) the one before the last move. A pattern
/// evaluation alone swings with whoever moved last (the mover's new shapes count at
/// once, the reply is not on the board yet); the two-ply mean damps that swing, as
/// PentaZen's evaluation does. It won 14-79-3 against PentaZen where the one-position
/// evaluation scored 9-84-3 (200 ms per move, 96 games each; see the README).
pub fn evaluate(board: &Board) -> i32 {
    let me = board.to_move();
    let now = pattern_eval(|c, view| board.score_sum(c, view), me);
    match board.score_sums_before_last() {
        Some((sums, mover)) => {
            let before = pattern_eval(|c, view| sums[c.idx()][view], mover);
            let before = if mover == me { before } else { -before };
            (now + before) / 2
        }
        None => now,
    }
}

/// The evaluation of one position's score sums for `me` to move.
#[inline(always)]
fn pattern_eval(sum: impl Fn(Color, usize) -> i32, me: Color) -> i32 {
    // An arithmetic shift floors, so the sum is exact whatever its sign. (A bonus for
    // the side to move would cancel in the two-ply mean: there is none.)
    (sum(me, 0) - sum(me.opp(), 1)) >> weights::UNIT_SHIFT
}

/// Evaluation for `c` (used by tools that look from a fixed colour).
pub fn evaluate_for(board: &Board, c: Color) -> i32 {
    let v = evaluate(board);
    if board.to_move() == c {
        v
    } else {
        -v
    }
}
