//! Static evaluation from the board's incremental pattern scores.

pub mod weights;

use crate::board::{Board, Color};

/// Static evaluation from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let me = board.to_move();
    let mine = board.score_sum(me);
    let theirs = board.score_sum(me.opp());
    (mine * weights::OWN_WEIGHT_16) / 16 - theirs + weights::TEMPO
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
