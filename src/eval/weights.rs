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
///
/// Both tables were fitted by `pbrain-ferrum tune` (800 iterations, no `--l2`) to 2055
/// freestyle games: 1800 of PentaZen 0.4.18 against itself at 50-60 ms per move on
/// random openings (`scripts/tune.sh`) and 255 of Ferrum's self-play at 200 ms.
/// Held-out loss 0.606 -> 0.483 (K = 377). Against PentaZen at 200 ms per move the
/// fitted tables scored 27-68-1 in 96 games where the hand-set ones scored 14-79-3.
/// The fit trades line patterns against threat classes (a cell's threat class follows
/// from its patterns), so single entries, some negative, mean little on their own.
pub const LINE_VALUE: [[i32; Pattern::COUNT]; 2] = [
    // DEAD, OVERLINE, B1, F1, B2, F2, B3, F3, B4, F4, D4, F5
    [
        104, 0, 66, -36, 162, -9, -348, -202, 1227, 3812, -1065, 12328,
    ],
    [
        -136, 0, -145, -103, -145, 386, -32, 804, 1498, 3633, -883, 7059,
    ],
];

/// Bonus for each threat class, indexed by view, then `Threat.0` (1/16 units).
pub const THREAT_VALUE: [[i32; Threat::COUNT]; 2] = [
    // NONE, FORBID, FLEX2, BLOCK3, FLEX2_2X, BLOCK3_PLUS, FLEX3, FLEX3_PLUS, FLEX3_2X,
    // BLOCK4, BLOCK4_PLUS, BLOCK4_FLEX3, FLEX4, FIVE
    [
        -162, -340, -123, 349, -141, 532, 726, 784, 125, -362, 1669, 8725, 2656, 12328,
    ],
    [
        24, -320, -500, 348, -453, 807, 5, 1411, 984, -3, 2164, 5851, 3327, 7059,
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
