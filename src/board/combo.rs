//! Cell combinations: the multiset of a cell's four line patterns (the order of the
//! four directions does not matter to a cell's value). The evaluation keeps one value
//! per combination and view, so that shapes can be worth more or less together than
//! apart (two twos that cross, a three beside a two, ...).

use super::pattern::{class_index, Pattern};

/// Number of multisets of 4 line patterns out of `Pattern::COUNT`: C(12 + 3, 4).
pub const COMBOS: usize = 1365;

const N: usize = Pattern::COUNT;

/// The four patterns of each combination, strongest first, in id order.
pub static COMBO_PATTERNS: [[u8; 4]; COMBOS] = build_patterns();

/// The combination id of every ordered 4-tuple of patterns, indexed by [`class_index`]
/// (41 KB).
static COMBO_ID: [u16; N * N * N * N] = build_ids();

/// The combination id of a cell's four patterns.
#[inline(always)]
pub fn combo_id(pats: [Pattern; 4]) -> usize {
    COMBO_ID[class_index(pats)] as usize
}

const fn build_patterns() -> [[u8; 4]; COMBOS] {
    let mut out = [[0u8; 4]; COMBOS];
    let mut id = 0;
    let mut a = 0;
    while a < N {
        let mut b = 0;
        while b <= a {
            let mut c = 0;
            while c <= b {
                let mut d = 0;
                while d <= c {
                    out[id] = [a as u8, b as u8, c as u8, d as u8];
                    id += 1;
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    out
}

const fn build_ids() -> [u16; N * N * N * N] {
    let pats = build_patterns();
    let mut ids = [0u16; N * N * N * N];
    let mut id = 0;
    while id < COMBOS {
        let p = pats[id];
        // Every ordering of the four (repeated ones write the same entry again).
        let mut perm = 0;
        while perm < 256 {
            let (i, j, k, l) = (perm & 3, perm >> 2 & 3, perm >> 4 & 3, perm >> 6);
            if i != j && i != k && i != l && j != k && j != l && k != l {
                let key =
                    p[i] as usize + N * (p[j] as usize + N * (p[k] as usize + N * p[l] as usize));
                ids[key] = id as u16;
            }
            perm += 1;
        }
        id += 1;
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ordering_of_a_combination_has_its_id() {
        for a in 0..N as u8 {
            for b in 0..N as u8 {
                for c in 0..N as u8 {
                    for d in 0..N as u8 {
                        let id = combo_id([a, b, c, d].map(Pattern));
                        let mut sorted = [a, b, c, d];
                        sorted.sort_unstable_by(|x, y| y.cmp(x));
                        assert_eq!(COMBO_PATTERNS[id], sorted);
                    }
                }
            }
        }
    }
}
