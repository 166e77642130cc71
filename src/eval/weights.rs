//! Every evaluation weight in one place.
//!
//! A cell's score for a colour is what that colour's stone there would be worth:
//! the sum of its four line patterns, a correction for their combination and a bonus
//! for the combined threat. The static evaluation sums these over all empty cells
//! (kept incrementally by the board), with one table for the side to move (view 0: it
//! acts on its shapes first) and one for the side that waits (view 1).
//! `pbrain-ferrum tune` fits them to game results.

use crate::board::cell_scores::CellScores;
use crate::board::combo::{COMBOS, COMBO_PATTERNS};
use crate::board::pattern::{Pattern, Threat};

/// Table entries are in 1/16 of an evaluation unit (the board's cell-score unit).
pub use crate::board::cell_scores::UNIT_SHIFT;

/// Value of each line pattern, indexed by view, then `Pattern.0` (1/16 units).
///
/// All three tables (with `COMBO_VALUE`, `THREAT_COUNT_VALUE`) were fitted together
/// by `pbrain-ferrum tune` to game results: PentaZen's self-play games first, then
/// refitted to Ferrum's own games against PentaZen, which lowered the held-out loss
/// and won more games (evidence: docs/strength-log.md, "Evaluation weights
/// fit").
///
/// The fit trades line patterns, combinations, threat classes and their counts
/// against each other (a cell's threat class follows from its patterns), so
/// single entries, some negative, mean little on their own.
pub const LINE_VALUE: [[i32; Pattern::COUNT]; 2] = [
    // DEAD, OVERLINE, B1, F1, B2, F2, B3, F3, B4, F4, D4, F5
    [
        177, 0, 196, 160, 268, -863, -347, -3760, 1106, 3641, -8720, 40444,
    ],
    [
        -710, 0, -580, -464, -322, 1565, 2065, 278, 804, 4860, -595, 7850,
    ],
];

/// Bonus for each threat class, indexed by view, then `Threat.0` (1/16 units).
pub const THREAT_VALUE: [[i32; Threat::COUNT]; 2] = [
    // NONE, FORBID, FLEX2, BLOCK3, FLEX2_2X, BLOCK3_PLUS, FLEX3, FLEX3_PLUS, FLEX3_2X,
    // BLOCK4, BLOCK4_PLUS, BLOCK4_FLEX3, FLEX4, FIVE
    [
        -1309, -340, 63, -466, 677, 112, 3288, 3398, 7325, -907, 347, 15535, 4626, 40444,
    ],
    [
        1298, -320, -781, -1246, -1680, -1949, 1066, 909, 4922, 1399, 1616, 8566, 2343, 7850,
    ],
];

/// Threat classes whose number of cells on the board earns a bonus for the whole
/// position, by group: 0 the double twos and closed threes with more, 1 the open-three
/// makers, 2 the four makers, 3 the four-three and straight-four points. A cell score
/// counts each such cell alone, so its sum is linear in their number; what a side's
/// threats are worth is not (one four-maker or open-three maker is the initiative, a
/// fifth adds little), and the fitted bonuses lowered the held-out loss four times as
/// much as refitting the cell tables on the same games. `NO_GROUP` for the classes not
/// counted.
pub const THREAT_GROUP: [u8; Threat::COUNT] = {
    let mut g = [NO_GROUP; Threat::COUNT];
    g[Threat::FLEX2_2X.0 as usize] = 0;
    g[Threat::BLOCK3_PLUS.0 as usize] = 0;
    g[Threat::FLEX3.0 as usize] = 1;
    g[Threat::FLEX3_PLUS.0 as usize] = 1;
    g[Threat::FLEX3_2X.0 as usize] = 1;
    g[Threat::BLOCK4.0 as usize] = 2;
    g[Threat::BLOCK4_PLUS.0 as usize] = 2;
    g[Threat::BLOCK4_FLEX3.0 as usize] = 3;
    g[Threat::FLEX4.0 as usize] = 3;
    g
};
pub const NO_GROUP: u8 = u8::MAX;
pub const COUNT_GROUPS: usize = 4;
/// Cell counts told apart: 1, 2, 3, and 4 or more (none scores nothing).
pub const COUNT_BUCKETS: usize = 4;

/// Bonus for a side's number of cells in each `THREAT_GROUP`, indexed by view, group,
/// then count bucket (1/16 units), added to each position's pattern evaluation before
/// the two-ply mean (counted in the position alone it fitted as well but played worse:
/// evidence: docs/strength-log.md, "Threat count bonus"). Fitted by `pbrain-ferrum tune` with the tables above.
pub const THREAT_COUNT_VALUE: [[[i32; COUNT_BUCKETS]; COUNT_GROUPS]; 2] = [
    [
        [-629, 693, 1121, 2824],
        [1762, -688, 512, 2794],
        [-5703, 1392, 68, 1144],
        [7466, 4780, -1362, -4610],
    ],
    [
        [213, -733, -1986, -1329],
        [1770, 395, -283, -1177],
        [7129, 2308, 3796, 326],
        [-1390, 285, -6189, 1217],
    ],
];

/// Correction for each combination of a cell's four line patterns, indexed by view,
/// then combination id (see [`super::combo`]; 1/16 units), added to the four patterns'
/// `LINE_VALUE`s. Fitted by `pbrain-ferrum tune` like the tables above (the file is
/// its output).
pub use super::combo_weights::COMBO_VALUE;

/// Value of each threat mask (see [`super::threat_mask`]; 1/16 units), added to each
/// position's evaluation before the two-ply mean like `THREAT_COUNT_VALUE`. Fitted by
/// `pbrain-ferrum tune --masks-only` with the tables above as they are (the file is its
/// output).
pub use super::mask_weights::THREAT_MASK_VALUE;

/// The cell scores the board keeps (see [`CellScores`]): per combination, both views,
/// the four line values plus the combination's correction (one load instead of four),
/// and the threat classes' values.
pub static CELL_SCORES: CellScores = CellScores {
    combo_total: build_combo_total(),
    threat_value: THREAT_VALUE,
};

const fn build_combo_total() -> [[i32; 2]; COMBOS] {
    let mut out = [[0; 2]; COMBOS];
    let mut id = 0;
    while id < COMBOS {
        let mut v = 0;
        while v < 2 {
            let p = COMBO_PATTERNS[id];
            out[id][v] = LINE_VALUE[v][p[0] as usize]
                + LINE_VALUE[v][p[1] as usize]
                + LINE_VALUE[v][p[2] as usize]
                + LINE_VALUE[v][p[3] as usize]
                + COMBO_VALUE[v][id];
            v += 1;
        }
        id += 1;
    }
    out
}
