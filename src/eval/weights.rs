//! Every evaluation weight in one place.
//!
//! A cell's score for a colour is what that colour's stone there would be worth:
//! the sum of its four line patterns plus a bonus for the combined threat. The
//! static evaluation sums these over all empty cells (kept incrementally by the board).

use crate::board::pattern::{Pattern, Threat};

/// Value of each line pattern, indexed by `Pattern.0`.
pub const LINE_VALUE: [i32; Pattern::COUNT] = [
    0,   // DEAD
    0,   // OVERLINE
    1,   // B1
    4,   // F1
    5,   // B2
    14,  // F2
    16,  // B3
    44,  // F3
    40,  // B4
    160, // F4
    160, // D4
    400, // F5
];

/// Bonus for each threat class, indexed by `Threat.0`.
pub const THREAT_VALUE: [i32; Threat::COUNT] = [
    0,   // NONE
    -20, // FORBID
    0,   // FLEX2
    0,   // BLOCK3
    6,   // FLEX2_2X
    8,   // BLOCK3_PLUS
    0,   // FLEX3
    16,  // FLEX3_PLUS
    150, // FLEX3_2X
    0,   // BLOCK4
    20,  // BLOCK4_PLUS
    250, // BLOCK4_FLEX3
    200, // FLEX4
    400, // FIVE
];

/// Score of a cell for one colour from its line patterns and threat class.
#[inline(always)]
pub fn cell_score(pats: [Pattern; 4], threat: Threat) -> i32 {
    LINE_VALUE[pats[0].0 as usize]
        + LINE_VALUE[pats[1].0 as usize]
        + LINE_VALUE[pats[2].0 as usize]
        + LINE_VALUE[pats[3].0 as usize]
        + THREAT_VALUE[threat.0 as usize]
}

/// Bonus for having the move, added to the side to move's evaluation.
pub const TEMPO: i32 = 20;
/// Share (in 1/16) of the side to move's own potential counted in the evaluation; the
/// opponent's counts fully. The side to move gets to act on its threats first.
pub const OWN_WEIGHT_16: i32 = 17;
