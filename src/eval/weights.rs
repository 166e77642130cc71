//! Every evaluation weight in one place.
//!
//! A cell's score for a colour is what that colour's stone there would be worth:
//! the sum of its four line patterns plus a bonus for the combined threat. The
//! static evaluation sums these over all empty cells (kept incrementally by the board),
//! with one table for the side to move (view 0: it acts on its shapes first) and one
//! for the side that waits (view 1). `pbrain-ferrum tune` fits them to game results.

use crate::board::pattern::{Pattern, Threat};

/// Table entries are in 1/16 of an evaluation unit: sums are shifted right by this
/// much (`evaluate`, `Board::cell_score`), so tuning has finer steps than the
/// evaluation itself.
pub const UNIT_SHIFT: u32 = 4;

/// Value of each line pattern, indexed by view, then `Pattern.0` (1/16 units).
pub const LINE_VALUE: [[i32; Pattern::COUNT]; 2] = [
    // View 0 is view 1 x 17/16: the side to move acts on its shapes first.
    // DEAD, OVERLINE, B1, F1, B2, F2, B3, F3, B4, F4, D4, F5
    [0, 0, 17, 68, 85, 238, 272, 748, 680, 2720, 2720, 6800],
    [0, 0, 16, 64, 80, 224, 256, 704, 640, 2560, 2560, 6400],
];

/// Bonus for each threat class, indexed by view, then `Threat.0` (1/16 units).
pub const THREAT_VALUE: [[i32; Threat::COUNT]; 2] = [
    // NONE, FORBID, FLEX2, BLOCK3, FLEX2_2X, BLOCK3_PLUS, FLEX3, FLEX3_PLUS, FLEX3_2X,
    // BLOCK4, BLOCK4_PLUS, BLOCK4_FLEX3, FLEX4, FIVE
    [
        0, -340, 0, 0, 102, 136, 0, 272, 2550, 0, 340, 4250, 3400, 6800,
    ],
    [
        0, -320, 0, 0, 96, 128, 0, 256, 2400, 0, 320, 4000, 3200, 6400,
    ],
];

/// Score of a cell for one colour from its line patterns and threat class, per view
/// (1/16 units).
#[inline(always)]
pub fn cell_score(pats: [Pattern; 4], threat: Threat) -> [i32; 2] {
    [0, 1].map(|v| {
        let line = &LINE_VALUE[v];
        line[pats[0].0 as usize]
            + line[pats[1].0 as usize]
            + line[pats[2].0 as usize]
            + line[pats[3].0 as usize]
            + THREAT_VALUE[v][threat.0 as usize]
    })
}
