//! Node expansions by key, bounded: two generations of at most half the capacity each.
//! When the newer one fills up, the older one is dropped and the newer one takes its
//! place; an entry found in the older one moves back to the newer. So the expansions
//! in use survive (an approximate LRU), where emptying the whole cache made a long
//! solve compute every live node's VCF searches again after each flush.

use super::expand::Expansion;
use ahash::AHashMap as HashMap;

pub struct ExpansionCache {
    newer: HashMap<u64, Expansion>,
    older: HashMap<u64, Expansion>,
    /// Entries of one generation.
    generation: usize,
}

impl ExpansionCache {
    /// A cache of at most `capacity` expansions.
    pub fn new(capacity: usize) -> Self {
        ExpansionCache {
            newer: HashMap::new(),
            older: HashMap::new(),
            generation: (capacity / 2).max(1),
        }
    }

    pub fn get(&mut self, key: u64) -> Option<Expansion> {
        if let Some(e) = self.newer.get(&key) {
            return Some(e.clone());
        }
        let e = self.older.remove(&key)?;
        self.insert(key, e.clone());
        Some(e)
    }

    pub fn insert(&mut self, key: u64, e: Expansion) {
        if self.newer.len() >= self.generation {
            self.older = std::mem::take(&mut self.newer);
        }
        self.newer.insert(key, e);
    }
}
