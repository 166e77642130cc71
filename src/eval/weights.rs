//! Every evaluation weight in one place.
//!
//! A cell's score for a colour is what that colour's stone there would be worth:
//! the sum of its four line patterns, a correction for their combination and a bonus
//! for the combined threat. The static evaluation sums these over all empty cells
//! (kept incrementally by the board), with one table for the side to move (view 0: it
//! acts on its shapes first) and one for the side that waits (view 1).
//! `pbrain-ferrum tune` fits them to game results.

use super::combo::{combo_id, COMBOS, COMBO_PATTERNS};
use crate::board::pattern::{Pattern, Threat};

/// Table entries are in 1/16 of an evaluation unit: sums are shifted right by this
/// much (`evaluate`, `Board::cell_score`), so tuning has finer steps than the
/// evaluation itself.
pub const UNIT_SHIFT: u32 = 4;

/// Value of each line pattern, indexed by view, then `Pattern.0` (1/16 units).
///
/// All three tables (with `COMBO_VALUE`) were fitted together by `pbrain-ferrum tune`
/// (800 iterations, `--combo-l2 1e-7`) to 9739 freestyle games: 9600 of PentaZen
/// 0.4.18 against itself at 60 ms per move on random openings (`scripts/tune.sh`,
/// seeds 11, 23 and 37) and 139 of Ferrum against PentaZen at 1000 ms. On the first
/// 6439 games: held-out loss 0.4452 -> 0.4328 (K = 320), where refitting only these two
/// tables reached 0.4421; self-play against the tables before (fitted to 2055 games
/// without combinations): 54-35-7 at 200 ms. The refit to 9739 games: held-out
/// 0.4307 -> 0.4275, self-play 51-36-9 against the 6439-game fit. Then refitted from
/// those values twice, to 19200 newer games of PentaZen against itself (seeds 11 and
/// 23, 4800 openings each): once alone (held-out 0.4441 -> 0.4420, self-play +36), then
/// with `THREAT_COUNT_VALUE` (held-out 0.4423 -> 0.4327, self-play 50-30-16 against the
/// refit alone). The fit trades line patterns, combinations, threat classes and their
/// counts against each other (a cell's threat class follows from its patterns), so
/// single entries, some negative, mean little on their own.
pub const LINE_VALUE: [[i32; Pattern::COUNT]; 2] = [
    // DEAD, OVERLINE, B1, F1, B2, F2, B3, F3, B4, F4, D4, F5
    [
        227, 0, 233, 219, 237, -749, -523, -3937, 866, 1865, -5639, 37652,
    ],
    [
        -592, 0, -484, -337, -264, 1391, 1490, -319, 593, 4344, 213, 7716,
    ],
];

/// Bonus for each threat class, indexed by view, then `Threat.0` (1/16 units).
pub const THREAT_VALUE: [[i32; Threat::COUNT]; 2] = [
    // NONE, FORBID, FLEX2, BLOCK3, FLEX2_2X, BLOCK3_PLUS, FLEX3, FLEX3_PLUS, FLEX3_2X,
    // BLOCK4, BLOCK4_PLUS, BLOCK4_FLEX3, FLEX4, FIVE
    [
        -1253, -340, -42, -331, 867, 581, 3569, 4122, 6546, -1286, 1456, 13172, 3158, 37652,
    ],
    [
        1246, -320, -706, -392, -2179, -1753, 1337, 1274, 3681, 1619, 1453, 6557, 1955, 7716,
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
/// the two-ply mean (counted in the position alone it fitted as well but lost in
/// self-play, -33 +/- 67). Fitted by `pbrain-ferrum tune` with the tables above.
pub const THREAT_COUNT_VALUE: [[[i32; COUNT_BUCKETS]; COUNT_GROUPS]; 2] = [
    [
        [-695, 971, 1033, 3460],
        [4530, 1265, 1689, 2479],
        [-2464, 851, -2431, 1633],
        [5149, 3168, -3114, -5169],
    ],
    [
        [773, 560, -914, -2928],
        [1900, -1515, -2042, -2378],
        [4588, 1448, 2014, -702],
        [-1990, -560, -4107, 3132],
    ],
];

/// Correction for each combination of a cell's four line patterns, indexed by view,
/// then combination id (see [`super::combo`]; 1/16 units), added to the four patterns'
/// `LINE_VALUE`s. Fitted by `pbrain-ferrum tune` like the tables above (the file is
/// its output).
pub use super::combo_weights::COMBO_VALUE;

/// Per combination, both views: the four line values plus the combination's correction
/// (one load instead of four).
static COMBO_TOTAL: [[i32; 2]; COMBOS] = build_combo_total();

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

/// Score of a cell for one colour from its line patterns and threat class, per view
/// (1/16 units).
#[inline(always)]
pub fn cell_score(pats: [Pattern; 4], threat: Threat) -> [i32; 2] {
    let total = COMBO_TOTAL[combo_id(pats)];
    [
        total[0] + THREAT_VALUE[0][threat.0 as usize],
        total[1] + THREAT_VALUE[1][threat.0 as usize],
    ]
}
