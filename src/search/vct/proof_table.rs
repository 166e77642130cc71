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

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    work: u64,
}

pub struct ProofTable {
    entries: Vec<Entry>,
}

const BUCKET: usize = 4;

impl ProofTable {
    /// A table of `1 << bits` entries.
    pub fn new(bits: u32) -> Self {
        ProofTable {
            entries: vec![Entry::default(); 1 << bits],
        }
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let start = (key as usize) & (self.entries.len() - 1) & !(BUCKET - 1);
        start..start + BUCKET
    }

    pub fn get(&self, key: u64) -> Option<Numbers> {
        self.entries[self.bucket(key)]
            .iter()
            .find(|e| e.key == key)
            .map(|e| Numbers { pn: e.pn, dn: e.dn })
    }

    /// Stores a node's numbers; `work` is what its subtree has cost so far.
    pub fn put(&mut self, key: u64, n: Numbers, work: u64) {
        let range = self.bucket(key);
        let bucket = &mut self.entries[range];
        let slot = match bucket.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => (0..BUCKET).min_by_key(|&i| bucket[i].work).unwrap_or(0),
        };
        bucket[slot] = Entry {
            key,
            pn: n.pn,
            dn: n.dn,
            work: work.max(bucket[slot].work * (bucket[slot].key == key) as u64),
        };
    }
}
