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
/// 0.4307 -> 0.4275, self-play 51-36-9 against the 6439-game fit. The fit trades line
/// patterns, combinations and threat classes against each other (a cell's threat class
/// follows from its patterns), so single entries, some negative, mean little on their
/// own.
pub const LINE_VALUE: [[i32; Pattern::COUNT]; 2] = [
    // DEAD, OVERLINE, B1, F1, B2, F2, B3, F3, B4, F4, D4, F5
    [
        199, 0, 238, 197, 250, -796, -604, -2022, 1071, 2884, -6384, 28433,
    ],
    [
        -552, 0, -451, -312, -262, 1298, 1194, -62, 702, 4704, 69, 7299,
    ],
];

/// Bonus for each threat class, indexed by view, then `Threat.0` (1/16 units).
pub const THREAT_VALUE: [[i32; Threat::COUNT]; 2] = [
    // NONE, FORBID, FLEX2, BLOCK3, FLEX2_2X, BLOCK3_PLUS, FLEX3, FLEX3_PLUS, FLEX3_2X,
    // BLOCK4, BLOCK4_PLUS, BLOCK4_FLEX3, FLEX4, FIVE
    [
        -1177, -340, 15, -228, 1013, 1040, 1845, 2446, 2360, -1302, 1843, 13370, 3280, 28433,
    ],
    [
        1072, -320, -679, -236, -1935, -1268, 1183, 1309, 3022, 1552, 2011, 6387, 2031, 7299,
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
