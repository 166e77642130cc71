//! The search's move order, produced lazily.
//!
//! Most nodes end after their first move or two (a cut-off, or the width and
//! move-count limits), yet sorting every node's whole list took 9 % of the search's
//! instructions (cachegrind, `bench 11`). The picker selects the first moves one at a
//! time and sorts the rest only when the loop gets that far. The order is exactly that
//! of a stable sort of the generator's list by score with the bonuses below added.

use super::params::{COUNTER_BONUS, KILLER_BONUS};
use crate::board::Pos;

/// Moves picked one by one (a scan each) before the rest are sorted at once.
const PICKED_ONE_BY_ONE: usize = 3;

pub struct MovePicker {
    /// One sort key per move, smallest first (see [`sort_key`]); the move is in the
    /// low 16 bits.
    keys: Vec<u64>,
    next: usize,
}

/// The key that orders moves best first: the score with its bonus, higher first; on a
/// tie the smaller bonus (the higher generator score) first, then the lower cell index
/// (the generator's candidate order, which is row by row).
fn sort_key(mv: Pos, score: i32, bonus_rank: u64) -> u64 {
    let score_order = (score as u32 ^ 0x8000_0000) as u64;
    ((u32::MAX as u64 - score_order) << 18) | (bonus_rank << 16) | mv.0 as u64
}

impl MovePicker {
    /// The table move first, then by the generator's score plus a bonus for the
    /// killers and the counter-move. `keys` is a buffer to fill (its contents go).
    pub fn new(
        mut keys: Vec<u64>,
        list: &[(Pos, i32)],
        tt_move: Pos,
        killers: &[Pos; 2],
        counter: Pos,
    ) -> Self {
        keys.clear();
        keys.extend(list.iter().map(|&(mv, score)| {
            if mv == tt_move {
                sort_key(mv, i32::MAX, 0)
            } else if killers.contains(&mv) {
                sort_key(mv, score + KILLER_BONUS, 2)
            } else if mv == counter {
                sort_key(mv, score + COUNTER_BONUS, 1)
            } else {
                sort_key(mv, score, 0)
            }
        }));
        MovePicker { keys, next: 0 }
    }

    /// The key buffer back, for the next node.
    pub fn into_keys(self) -> Vec<u64> {
        self.keys
    }
}

impl Iterator for MovePicker {
    type Item = Pos;

    fn next(&mut self) -> Option<Pos> {
        let rest = self.keys.get_mut(self.next..)?;
        if self.next < PICKED_ONE_BY_ONE {
            let best = (0..rest.len()).min_by_key(|&i| rest[i])?;
            rest.swap(0, best);
        } else if self.next == PICKED_ONE_BY_ONE {
            rest.sort_unstable();
        }
        let key = *rest.first()?;
        self.next += 1;
        Some(Pos(key as u16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The picker's order against the two stable sorts it replaces.
    #[test]
    fn picks_in_stable_sort_order() {
        let mut seed = 12345u64;
        let mut rand = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..2000 {
            let n = rand(40) as usize;
            // Few distinct scores, so that ties (also after the bonuses) are common.
            let mut list: Vec<(Pos, i32)> = (0..n)
                .map(|i| (Pos(100 + 3 * i as u16), 50 * rand(8) as i32 - 100))
                .collect();
            list.sort_by_key(|e| std::cmp::Reverse(e.1));
            let mut any = || match n {
                0 => Pos::NONE,
                _ => list[rand(n as u64) as usize].0,
            };
            let (tt, killers, counter) = (any(), [any(), any()], any());
            let mut expected = list.clone();
            for e in expected.iter_mut() {
                if e.0 == tt {
                    e.1 = i32::MAX;
                } else if killers.contains(&e.0) {
                    e.1 += KILLER_BONUS;
                } else if e.0 == counter {
                    e.1 += COUNTER_BONUS;
                }
            }
            expected.sort_by_key(|e| std::cmp::Reverse(e.1));
            let picked: Vec<Pos> =
                MovePicker::new(Vec::new(), &list, tt, &killers, counter).collect();
            assert_eq!(picked, expected.iter().map(|e| e.0).collect::<Vec<_>>());
        }
    }
}
