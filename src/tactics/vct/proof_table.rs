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

/// One entry as three words: key, `pn | dn << 32`, and the work (low 48 bits). Plain
/// words (not a struct) let the table be allocated already zeroed: the allocator maps
/// fresh zero pages instead of writing 24 MB (~23 ms per solver, when the root tactics
/// made two per move).
type Entry = [u64; 3];

fn pack(n: Numbers) -> u64 {
    n.pn as u64 | (n.dn as u64) << 32
}

const WORK_BITS: u32 = 48;
const WORK_MASK: u64 = (1 << WORK_BITS) - 1;

pub struct ProofTable {
    entries: Vec<Entry>,
}

const BUCKET: usize = 4;

impl ProofTable {
    /// A table of `1 << bits` entries.
    pub fn new(bits: u32) -> Self {
        ProofTable {
            entries: vec![[0; 3]; 1 << bits],
        }
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let start = (key as usize) & (self.entries.len() - 1) & !(BUCKET - 1);
        start..start + BUCKET
    }

    pub fn get(&self, key: u64) -> Option<Numbers> {
        self.entries[self.bucket(key)]
            .iter()
            .find(|e| e[0] == key)
            .map(|e| Numbers {
                pn: e[1] as u32,
                dn: (e[1] >> 32) as u32,
            })
    }

    /// Stores a node's numbers; `work` is what its subtree has cost so far.
    pub fn put(&mut self, key: u64, n: Numbers, work: u64) {
        let range = self.bucket(key);
        let bucket = &self.entries[range.clone()];
        let slot = match bucket.iter().position(|e| e[0] == key) {
            Some(i) => i,
            None => (0..BUCKET).min_by_key(|&i| bucket[i][2]).unwrap_or(0),
        };
        let old = bucket[slot];
        let work = work.min(WORK_MASK).max(old[2] * (old[0] == key) as u64);
        self.entries[range.start + slot] = [key, pack(n), work];
    }
}
