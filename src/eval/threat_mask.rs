//! The threat mask: which kinds of threat cells each side has, the side to move first.
//!
//! A side's threats are not worth the sum of their parts: an open three wins for the
//! side to move only when the other side has no four to answer with, and a four-maker
//! is worth little once the other side already threatens to win. A cell score sees
//! one cell; the threat-count bonuses see one side. The mask sees both sides at once,
//! and [`super::weights::THREAT_MASK_VALUE`] gives every combination its own value
//! (Rapfi's classical evaluation scores such a mask, with a table per rule; ours is
//! fitted by `pbrain-ferrum tune`).

use crate::board::{Color, Threat};

/// Threat kinds per side, strongest first, each a set of threat classes; a side's
/// bit for a kind is set when it has at least one empty cell of one of its classes.
const KINDS: [&[Threat]; KINDS_PER_SIDE] = [
    &[Threat::FLEX4],
    &[Threat::BLOCK4_FLEX3, Threat::BLOCK4_PLUS],
    &[Threat::BLOCK4],
    &[Threat::FLEX3_2X, Threat::FLEX3_PLUS],
    &[Threat::FLEX3],
];
const KINDS_PER_SIDE: usize = 5;

/// Number of masks: a bit per kind and side.
pub const MASK_COUNT: usize = 1 << (2 * KINDS_PER_SIDE);

/// The mask of a position with `me` to move, from the number of empty cells of each
/// colour and threat class: the side to move's kinds in bits 0-4, the other side's in
/// bits 5-9, in the order of `KINDS`.
#[inline(always)]
pub fn threat_mask(count: impl Fn(Color, Threat) -> u32, me: Color) -> usize {
    let mut mask = 0;
    for (side, c) in [me, me.opp()].into_iter().enumerate() {
        for (k, classes) in KINDS.iter().enumerate() {
            if classes.iter().any(|&t| count(c, t) > 0) {
                mask |= 1 << (side * KINDS_PER_SIDE + k);
            }
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_follow_the_side_to_move() {
        // Black has an open three maker, White a four maker.
        let count = |c: Color, t: Threat| match (c, t) {
            (Color::Black, Threat::FLEX3) => 2,
            (Color::White, Threat::BLOCK4) => 1,
            _ => 0,
        };
        assert_eq!(threat_mask(count, Color::Black), 1 << 4 | 1 << 7);
        assert_eq!(threat_mask(count, Color::White), 1 << 2 | 1 << 9);
        assert_eq!(threat_mask(|_, _| 0, Color::Black), 0);
        let all = |_: Color, _: Threat| 1;
        assert_eq!(threat_mask(all, Color::White), MASK_COUNT - 1);
    }
}
