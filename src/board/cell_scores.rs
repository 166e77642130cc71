//! What a stone on an empty cell is worth to a colour, from the cell's four line
//! patterns and its threat class. The board keeps every cell's score and their sums up
//! to date in `make` and `undo`; the values are the evaluation's (`eval::weights`
//! fills a [`CellScores`] and gives it to each board it makes), so the board needs no
//! knowledge of the evaluation.

use super::combo::{combo_id, COMBOS};
use super::pattern::{Pattern, Threat};

/// Table entries are in 1/16 of an evaluation unit: sums are shifted right by this
/// much (`evaluate`, `Board::cell_score`), so tuning has finer steps than the
/// evaluation itself.
pub const UNIT_SHIFT: u32 = 4;

/// A cell's score per view: `[0]` when its colour is to move, `[1]` when it waits
/// (1/16 units).
pub struct CellScores {
    /// Per combination id of the cell's four patterns (see [`super::combo`]), both
    /// views: the four patterns' values plus the combination's correction.
    pub combo_total: [[i32; 2]; COMBOS],
    /// Per view, then `Threat.0`: the bonus for the cell's threat class.
    pub threat_value: [[i32; Threat::COUNT]; 2],
}

impl CellScores {
    /// Score of a cell for one colour from its line patterns and threat class, per
    /// view (1/16 units).
    #[inline(always)]
    pub fn get(&self, pats: [Pattern; 4], threat: Threat) -> [i32; 2] {
        let total = self.combo_total[combo_id(pats)];
        [
            total[0] + self.threat_value[0][threat.0 as usize],
            total[1] + self.threat_value[1][threat.0 as usize],
        ]
    }
}
