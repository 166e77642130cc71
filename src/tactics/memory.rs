//! The threat solvers' tables, kept by the engine from one search to the next.
//!
//! Each search runs a handful of VCF solvers (a 2 MB failure table each: two at the
//! root, one per search thread). Made anew for every search, their pages would come
//! fresh from the kernel, zeroed as the search first touched them, a large part of a
//! short search's time (evidence: docs/strength-log.md, "Solver memory").
//! Kept here, a table is emptied for the next search in constant
//! time (a new salt), and the memory is known when the transposition table is sized
//! against `max_memory`.

use super::vcf::FailCache;
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
    pub their_vcf: FailCache,
}

/// Every table a search's solvers use.
pub struct SolverMemory {
    pub root: RootMemory,
    /// One failure table per search thread (its quiescence's VCF solver).
    workers: Vec<FailCache>,
}

impl Default for SolverMemory {
    fn default() -> Self {
        Self::new()
    }
}

impl SolverMemory {
    /// Tables for the root tactics; the threads' tables are made as searches ask for
    /// them.
    pub fn new() -> Self {
        SolverMemory {
            root: RootMemory {
                own_vcf: FailCache::new(),
                their_vcf: FailCache::new(),
            },
            workers: Vec::new(),
        }
    }

    /// Bytes of the tables with `threads` search threads.
    pub fn bytes_for(threads: usize) -> usize {
        (2 + threads) * FailCache::BYTES
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
    use super::*;

    #[test]
    fn sizes() {
        // 2 MB per failure table (two at the root, one per thread).
        assert_eq!(SolverMemory::bytes_for(2), 4 * (2 << 20));
        let mut m = SolverMemory::new();
        assert_eq!(m.split(3).1.len(), 3);
        assert_eq!(m.split(1).1.len(), 1);
    }
}
