//! Static evaluation from the board's incremental pattern scores.

pub mod weights;

use crate::board::{Board, Color};

/// Static evaluation from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let me = board.to_move();
    // An arithmetic shift floors, so the sum is exact whatever its sign.
    ((board.score_sum(me, 0) - board.score_sum(me.opp(), 1)) >> weights::UNIT_SHIFT)
        + weights::TEMPO
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
