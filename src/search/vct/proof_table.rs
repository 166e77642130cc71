//! Proof and disproof numbers of the df-pn search, by node key.
//!
//! Four-entry buckets; a new node replaces the entry whose subtree cost the least work,
//! so the big proven and disproven subtrees (the expensive ones) stay.

/// Proof numbers saturate here: `pn == INF` is a disproof, `dn == INF` a proof.
pub const INF: u32 = u32::MAX / 4;

/// A node's proof number (how many more leaves must be proven to prove it) and
/// disproof number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    pub pn: u32,
    pub dn: u32,
}

impl Numbers {
    pub const PROVEN: Numbers = Numbers { pn: 0, dn: INF };
    pub const DISPROVEN: Numbers = Numbers { pn: INF, dn: 0 };
    /// A node not searched yet.
    pub const UNKNOWN: Numbers = Numbers { pn: 1, dn: 1 };

    pub fn proven(self) -> bool {
        self.pn == 0
    }
    pub fn disproven(self) -> bool {
        self.dn == 0
    }
}

/// One entry as three words: key, `pn | dn << 32`, and the generation (high 16 bits)
/// with the work (low 48). Plain words (not a struct) let the table be allocated
/// already zeroed: the allocator maps fresh zero pages instead of writing 24 MB, which
/// cost ~23 ms per root-tactics solver, i.e. per move.
type Entry = [u64; 3];

fn pack(n: Numbers) -> u64 {
    n.pn as u64 | (n.dn as u64) << 32
}

const WORK_BITS: u32 = 48;
const WORK_MASK: u64 = (1 << WORK_BITS) - 1;

pub struct ProofTable {
    entries: Vec<Entry>,
    /// Entries of another generation are empty: a table kept between searches starts
    /// a new one instead of being zeroed (a search that fills 1 % of it would otherwise
    /// pay for writing all of it, or for the fresh pages of a new allocation).
    generation: u64,
}

const BUCKET: usize = 4;

impl ProofTable {
    /// A table of `1 << bits` entries.
    pub fn new(bits: u32) -> Self {
        ProofTable {
            entries: vec![[0; 3]; 1 << bits],
            generation: 0,
        }
    }

    /// The table holds `1 << bits` entries.
    pub fn bits(&self) -> u32 {
        self.entries.len().trailing_zeros()
    }

    /// Forgets every entry: afterwards the table answers as a new one would.
    pub fn clear(&mut self) {
        self.generation = (self.generation + 1) & 0xffff;
        if self.generation == 0 {
            // The generations wrapped: entries of the old generation 0 would come back.
            self.entries.fill([0; 3]);
        }
    }

    /// The entry as a new table would hold it: an empty one where it is stale.
    fn live(&self, e: Entry) -> Entry {
        if e[2] >> WORK_BITS == self.generation {
            [e[0], e[1], e[2] & WORK_MASK]
        } else {
            [0; 3]
        }
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let start = (key as usize) & (self.entries.len() - 1) & !(BUCKET - 1);
        start..start + BUCKET
    }

    pub fn get(&self, key: u64) -> Option<Numbers> {
        self.entries[self.bucket(key)]
            .iter()
            .map(|&e| self.live(e))
            .find(|e| e[0] == key)
            .map(|e| Numbers {
                pn: e[1] as u32,
                dn: (e[1] >> 32) as u32,
            })
    }

    /// Stores a node's numbers; `work` is what its subtree has cost so far.
    pub fn put(&mut self, key: u64, n: Numbers, work: u64) {
        let range = self.bucket(key);
        let mut bucket = [[0; 3]; BUCKET];
        for (live, &e) in bucket.iter_mut().zip(&self.entries[range.clone()]) {
            *live = self.live(e);
        }
        let slot = match bucket.iter().position(|e| e[0] == key) {
            Some(i) => i,
            None => (0..BUCKET).min_by_key(|&i| bucket[i][2]).unwrap_or(0),
        };
        let old = bucket[slot];
        let work = work.min(WORK_MASK).max(old[2] * (old[0] == key) as u64);
        self.entries[range.start + slot] = [key, pack(n), self.generation << WORK_BITS | work];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cleared table answers as a new one: stale entries are neither found nor
    /// kept in place of new ones by their work.
    #[test]
    fn a_cleared_table_is_empty() {
        let mut t = ProofTable::new(4);
        let keys: Vec<u64> = (1..=4).map(|i| i * 16).collect();
        for &k in &keys {
            t.put(k, Numbers::PROVEN, 1000);
        }
        assert_eq!(t.get(keys[0]), Some(Numbers::PROVEN));
        t.clear();
        assert!(keys.iter().all(|&k| t.get(k).is_none()));
        // The bucket counts as empty: the first new node takes its first slot, where a
        // full bucket of expensive stale entries would have pushed it to the cheapest.
        t.put(5 * 16, Numbers::DISPROVEN, 1);
        assert_eq!(t.get(5 * 16), Some(Numbers::DISPROVEN));
        assert_eq!(t.entries[0][0], 5 * 16);
        // Wrapping the generation zeroes the table rather than reviving old entries.
        for _ in 0..0x10000 {
            t.clear();
        }
        assert!(t.get(5 * 16).is_none());
    }
}
