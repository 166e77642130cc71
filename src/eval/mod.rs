//! Static evaluation from the board's incremental pattern scores.

mod combo_weights;
/// The cell combinations the weights are indexed by (the tuner's generated
/// `combo_weights.rs` names them `super::combo`).
pub use crate::board::combo;
mod mask_weights;
pub mod threat_mask;
pub mod weights;

use crate::board::{Board, Color, Rule, Threat};
use anyhow::Result;
use threat_mask::threat_mask;
use weights::{
    COUNT_BUCKETS, COUNT_GROUPS, NO_GROUP, THREAT_COUNT_VALUE, THREAT_GROUP, THREAT_MASK_VALUE,
};

impl Board {
    /// An empty board whose cell scores are this evaluation's weights. Sizes 5..=32 per
    /// side, rectangular allowed.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board> {
        Board::with_cell_scores(width, height, rule, &weights::CELL_SCORES)
    }
}

/// Static evaluation from the side to move's point of view: the mean of this
/// position's pattern evaluation and (negated) the one before the last move. A pattern
/// evaluation alone swings with whoever moved last (the mover's new shapes count at
/// once, the reply is not on the board yet); the two-ply mean damps that swing, as
/// PentaZen's evaluation does (evidence: docs/strength-log.md, "Two-ply mean
/// evaluation"). Each
/// position's evaluation is its cells' scores plus the bonus for how many threat cells
/// of each group either side has and the value of its threat mask (who has which
/// threats, see [`threat_mask`]). The mask is averaged over the two positions like
/// the rest, the simpler of two choices that played even.
pub fn evaluate(board: &Board) -> i32 {
    let me = board.to_move();
    let now = pattern_eval(|c, view| board.score_sum(c, view), me)
        + threat_count_bonus(|c, t| board.threat_count(c, t), me);
    let value = match board.totals_before_last() {
        Some((sums, counts, mover)) => {
            let before = pattern_eval(|c, view| sums[c.idx()][view], mover)
                + threat_count_bonus(|c, t| counts[c.idx()][t.0 as usize] as u32, mover);
            let before = if mover == me { before } else { -before };
            (now + before) / 2
        }
        None => now,
    };
    let limit = crate::search::score::EVAL_LIMIT;
    value.clamp(-limit, limit)
}

/// `THREAT_COUNT_VALUE` for both sides and the threat mask's value, `me` to move, from
/// the number of cells of each colour and threat class.
#[inline(always)]
fn threat_count_bonus(count: impl Fn(Color, Threat) -> u32 + Copy, me: Color) -> i32 {
    let mut bonus = THREAT_MASK_VALUE[threat_mask(count, me)];
    for (view, c) in [(0, me), (1, me.opp())] {
        for (g, &n) in group_counts(|t| count(c, t)).iter().enumerate() {
            if let Some(b) = count_bucket(n) {
                bonus += THREAT_COUNT_VALUE[view][g][b];
            }
        }
    }
    bonus >> weights::UNIT_SHIFT
}

/// Number of cells of each `THREAT_GROUP`, from the number of each threat class.
#[inline(always)]
pub fn group_counts(count: impl Fn(Threat) -> u32) -> [u32; COUNT_GROUPS] {
    let mut n = [0; COUNT_GROUPS];
    for (t, &g) in THREAT_GROUP.iter().enumerate() {
        if g != NO_GROUP {
            n[g as usize] += count(Threat(t as u8));
        }
    }
    n
}

/// The bucket of a group's cell count: `None` for no cell.
#[inline(always)]
pub fn count_bucket(n: u32) -> Option<usize> {
    (n > 0).then(|| (n as usize).min(COUNT_BUCKETS) - 1)
}

/// The evaluation of one position's score sums for `me` to move.
#[inline(always)]
fn pattern_eval(sum: impl Fn(Color, usize) -> i32, me: Color) -> i32 {
    // An arithmetic shift floors, so the sum is exact whatever its sign. (A bonus for
    // the side to move would cancel in the two-ply mean: there is none.)
    (sum(me, 0) - sum(me.opp(), 1)) >> weights::UNIT_SHIFT
}
