//! How much of the tree a node searches: the late-move reductions and the move-count
//! and width limits, precomputed from their formulas, and the value the static pruning
//! compares with its margins. The formulas' numbers are in `params.rs`.

use super::params::{
    LMR_DIVISOR, MOVE_COUNT_BASE, MOVE_COUNT_POWER, POLICY_GAP_FIRST, POLICY_GAP_PER_PLY,
    POLICY_REDUCTION_MAX, WIDTH_CALM, WIDTH_CALM_NET, WIDTH_SHARP, WIDTH_SHARP_NET,
};
use super::score::is_mate;
use crate::tt::Bound;

/// Depths and move indices the reduction tables cover; beyond them the formulas are
/// computed (no search gets that far in practice).
const TABLE_DEPTHS: usize = 64;
const TABLE_MOVES: usize = 256;

/// ln(depth) * ln(move number), the shape of both late-move reductions (as in most
/// alpha-beta engines); `i` is the move's index (0 = first).
fn lmr_product(depth: i32, i: usize) -> f64 {
    (depth.max(1) as f64).ln() * ((i + 1) as f64).ln()
}

/// The reductions, move-count and width limits, computed once: the logarithms, the
/// power and the rounding at every node took about 1.5 % of the search's time.
struct Tables {
    /// `[depth][i]`: the quiet and the threat reduction.
    lmr: Box<[[[u8; 2]; TABLE_MOVES]; TABLE_DEPTHS]>,
    /// `[depth]`: quiet moves searched at a non-PV node that is improving.
    move_count: [usize; TABLE_DEPTHS],
    /// `[depth][net][calm]`: the width limit.
    width: [[[usize; 2]; 2]; TABLE_DEPTHS],
}

static TABLES: std::sync::LazyLock<Tables> = std::sync::LazyLock::new(|| {
    let mut lmr = Box::new([[[0u8; 2]; TABLE_MOVES]; TABLE_DEPTHS]);
    for (depth, row) in lmr.iter_mut().enumerate() {
        for (i, r) in row.iter_mut().enumerate() {
            *r = [
                lmr_formula(depth as i32, i) as u8,
                lmr_threat_formula(depth as i32, i) as u8,
            ];
        }
    }
    Tables {
        lmr,
        move_count: std::array::from_fn(|d| move_count_formula(d as i32)),
        width: std::array::from_fn(|d| {
            [false, true].map(|net| [false, true].map(|calm| width_formula(d as i32, calm, net)))
        }),
    }
});

/// `read` from the tables at `depth` (and move index `i`) where they cover it, else
/// the `formula`.
fn tabled<T>(
    depth: i32,
    i: usize,
    read: impl FnOnce(&Tables, usize) -> T,
    formula: impl FnOnce() -> T,
) -> T {
    if (0..TABLE_DEPTHS as i32).contains(&depth) && i < TABLE_MOVES {
        read(&TABLES, depth as usize)
    } else {
        formula()
    }
}

/// Late-move reduction in plies for a quiet move: the product / `LMR_DIVISOR`,
/// truncated (a non-PV node adds a ply). Smaller and larger divisors lost (evidence:
/// docs/strength-log.md, "Late-move reduction divisor").
pub fn lmr(depth: i32, i: usize) -> i32 {
    tabled(
        depth,
        i,
        |t, d| t.lmr[d][i][0] as i32,
        || lmr_formula(depth, i),
    )
}

fn lmr_formula(depth: i32, i: usize) -> i32 {
    (lmr_product(depth, i) / LMR_DIVISOR) as i32
}

/// Late-move reduction for a move that makes or stops a three or a four: milder, the
/// product / `LMR_DIVISOR` rounded (PentaZen 0.4.18 reduces every late move so).
pub fn lmr_threat(depth: i32, i: usize) -> i32 {
    tabled(
        depth,
        i,
        |t, d| t.lmr[d][i][1] as i32,
        || lmr_threat_formula(depth, i),
    )
}

fn lmr_threat_formula(depth: i32, i: usize) -> i32 {
    (lmr_product(depth, i) / LMR_DIVISOR).round() as i32
}

/// Plies added to a late quiet move's reduction for a policy logit `gap` nats below
/// the node's best: none below `POLICY_GAP_FIRST`, then one more per
/// `POLICY_GAP_PER_PLY`, at most `POLICY_REDUCTION_MAX`.
pub fn policy_reduction(gap: f32) -> i32 {
    // A cast truncates, which floors a non-negative value without a call to `floorf`
    // (the baseline x86-64 target has no rounding instruction).
    let steps = (gap - POLICY_GAP_FIRST) / POLICY_GAP_PER_PLY;
    if steps < 0.0 {
        0
    } else {
        (steps as i32).saturating_add(1).min(POLICY_REDUCTION_MAX)
    }
}

/// Quiet moves searched at a non-PV node of `depth` before the rest are pruned: the
/// count grows as depth^1.32 (Rapfi's published shape), halved when the side to move's
/// static evaluation has not improved over its previous turn.
pub fn move_count_limit(depth: i32, improving: bool) -> usize {
    let full = tabled(
        depth,
        0,
        |t, d| t.move_count[d],
        || move_count_formula(depth),
    );
    if improving {
        full
    } else {
        full / 2
    }
}

fn move_count_formula(depth: i32) -> usize {
    MOVE_COUNT_BASE + (depth.max(0) as f64).powf(MOVE_COUNT_POWER) as usize
}

/// Moves searched at a node of `depth` below the first two plies, on a calm board
/// (no four, no open three) or not: round(15 sqrt(d) - 12) up to 32 and
/// round(5 sqrt(d) - 2) up to 8 (PentaZen 0.4.18's published tables). With a network
/// (`net`) they are round(12 sqrt(d) - 12) and round(4 sqrt(d) - 2): the policy orders
/// the moves well enough that the tail is seldom worth its nodes.
pub fn width_limit(depth: i32, calm: bool, net: bool) -> usize {
    tabled(
        depth,
        0,
        |t, d| t.width[d][net as usize][calm as usize],
        || width_formula(depth, calm, net),
    )
}

fn width_formula(depth: i32, calm: bool, net: bool) -> usize {
    let d = depth.max(1) as f64;
    let (a, b, max) = match (calm, net) {
        (true, false) => WIDTH_CALM,
        (true, true) => WIDTH_CALM_NET,
        (false, false) => WIDTH_SHARP,
        (false, true) => WIDTH_SHARP_NET,
    };
    ((a * d.sqrt() - b).round() as usize).clamp(1, max)
}

/// What the static pruning compares with its margins: the static evaluation, or the
/// node's stored search score where that bound is tighter (an exact score, a lower
/// bound above the evaluation, an upper bound below it), as PentaZen 0.4.18 prunes.
/// `stored` is the table's score, already relative to this ply, with its bound; mate
/// scores are left out, the margins being sized for evaluations. It prunes on the best
/// estimate of the node's value (evidence: docs/strength-log.md, "Pruning
/// value").
pub fn pruning_value(eval: i32, stored: Option<(i32, Bound)>) -> i32 {
    match stored {
        Some((score, Bound::Exact)) if !is_mate(score) => score,
        Some((score, Bound::Lower)) if !is_mate(score) && score > eval => score,
        Some((score, Bound::Upper)) if !is_mate(score) && score < eval => score,
        _ => eval,
    }
}

#[cfg(test)]
mod tests {
    use super::pruning_value;
    use crate::search::score::win_in;
    use crate::tt::Bound;

    #[test]
    fn the_tables_hold_the_formulas() {
        use super::*;
        for depth in -2..80 {
            for i in 0..300 {
                assert_eq!(lmr(depth, i), lmr_formula(depth, i), "{depth} {i}");
                assert_eq!(lmr_threat(depth, i), lmr_threat_formula(depth, i));
            }
            for (calm, net) in [(false, false), (false, true), (true, false), (true, true)] {
                assert_eq!(
                    width_limit(depth, calm, net),
                    width_formula(depth, calm, net)
                );
            }
            for improving in [false, true] {
                let full = move_count_formula(depth);
                let want = if improving { full } else { full / 2 };
                assert_eq!(move_count_limit(depth, improving), want);
            }
        }
    }

    #[test]
    fn a_network_narrows_the_width() {
        use super::*;
        for depth in 1..40 {
            for calm in [false, true] {
                assert!(width_limit(depth, calm, true) <= width_limit(depth, calm, false));
            }
        }
        assert!(width_limit(4, true, true) < width_limit(4, true, false));
        assert!(width_limit(1, false, true) < width_limit(1, false, false));
    }

    #[test]
    fn the_policy_reduces_by_its_gap() {
        use super::*;
        assert_eq!(policy_reduction(0.0), 0);
        assert_eq!(policy_reduction(POLICY_GAP_FIRST - 0.01), 0);
        assert_eq!(policy_reduction(POLICY_GAP_FIRST), 1);
        assert_eq!(policy_reduction(POLICY_GAP_FIRST + POLICY_GAP_PER_PLY), 2);
        assert_eq!(policy_reduction(100.0), POLICY_REDUCTION_MAX);
    }

    #[test]
    fn a_stored_bound_replaces_the_evaluation_only_where_it_is_tighter() {
        assert_eq!(pruning_value(100, None), 100);
        assert_eq!(pruning_value(100, Some((40, Bound::Exact))), 40);
        assert_eq!(pruning_value(100, Some((150, Bound::Lower))), 150);
        assert_eq!(pruning_value(100, Some((40, Bound::Lower))), 100);
        assert_eq!(pruning_value(100, Some((40, Bound::Upper))), 40);
        assert_eq!(pruning_value(100, Some((150, Bound::Upper))), 100);
        assert_eq!(pruning_value(100, Some((150, Bound::None))), 100);
        // A proven win is no evaluation: the margins do not apply to it.
        assert_eq!(pruning_value(100, Some((win_in(7), Bound::Exact))), 100);
    }
}
