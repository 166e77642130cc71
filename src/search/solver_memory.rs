//! The threat solvers' tables, kept by the engine from one search to the next.
//!
//! Each search runs two VCT solvers at the root (a 24 MB proof table each) and a
//! handful of VCF solvers (a 2 MB failure table each). Made anew for every search,
//! their pages came fresh from the kernel, zeroed as the search first touched them:
//! about a third of the default `bench`'s time went to that (session 52's `perf`).
//! Kept here, a table is emptied for the next search in constant time (the proof
//! table starts a new generation, a failure table a new salt), and the memory is
//! known when the transposition table is sized against `max_memory`.

use super::vcf::FailCache;
use super::vct::VctMemory;
use std::ops::{Deref, DerefMut};

/// A solver's table: its own (made with the solver: tools, tests) or lent by the
/// engine's [`SolverMemory`] for one search.
pub enum Held<'a, T> {
    Own(T),
    Lent(&'a mut T),
}

impl<T> Deref for Held<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        match self {
            Held::Own(t) => t,
            Held::Lent(t) => t,
        }
    }
}

impl<T> DerefMut for Held<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        match self {
            Held::Own(t) => t,
            Held::Lent(t) => t,
        }
    }
}

/// The root tactics' solvers (see `root_tactics::plan`).
pub struct RootMemory {
    pub own_vcf: FailCache,
    pub own_vct: VctMemory,
    pub their_vcf: FailCache,
    pub their_vct: VctMemory,
}

/// Every table a search's solvers use.
pub struct SolverMemory {
    pub root: RootMemory,
    /// One failure table per search thread (its quiescence's VCF solver).
    workers: Vec<FailCache>,
}

/// The smallest proof table a tight `max_memory` gets (`1 << 14` entries, 384 KB).
pub const MIN_PROOF_BITS: u32 = 14;

impl SolverMemory {
    /// Tables for the root tactics with proof tables of `1 << proof_bits` entries; the
    /// threads' tables are made as searches ask for them.
    pub fn new(proof_bits: u32) -> Self {
        SolverMemory {
            root: RootMemory {
                own_vcf: FailCache::new(),
                own_vct: VctMemory::new(proof_bits),
                their_vcf: FailCache::new(),
                their_vct: VctMemory::new(proof_bits),
            },
            workers: Vec::new(),
        }
    }

    /// The proof tables' size: `1 << bits` entries.
    pub fn proof_bits(&self) -> u32 {
        self.root.own_vct.table_bits()
    }

    /// Bytes of the tables with `proof_bits` and `threads` search threads.
    pub fn bytes_for(proof_bits: u32, threads: usize) -> usize {
        2 * VctMemory::bytes(proof_bits) + (2 + threads) * FailCache::BYTES
    }

    /// The root tactics' tables and one failure table for each of `threads` threads.
    pub fn split(&mut self, threads: usize) -> (&mut RootMemory, &mut [FailCache]) {
        while self.workers.len() < threads {
            self.workers.push(FailCache::new());
        }
        // A thread count lowered since: its tables are given back.
        self.workers.truncate(threads);
        (&mut self.root, &mut self.workers)
    }
}

#[cfg(test)]
mod tests {
    use super::super::vct::PROOF_TABLE_BITS;
    use super::*;

    #[test]
    fn sizes() {
        // 24 MB per proof table, 2 MB per failure table (six at the root, one per thread).
        assert_eq!(
            SolverMemory::bytes_for(PROOF_TABLE_BITS, 2),
            2 * (24 << 20) + 8 * (2 << 20)
        );
        let mut m = SolverMemory::new(MIN_PROOF_BITS);
        assert_eq!(m.split(3).1.len(), 3);
        assert_eq!(m.split(1).1.len(), 1);
    }
}
