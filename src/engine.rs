//! The engine: owns the transposition table, the thread count and the options, and
//! runs searches. It never prints; results go back through return values and the
//! progress callback.

use crate::board::Board;
use crate::search::{self, Limits, Reporter, SearchResult};
use crate::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;

/// Transposition table size when the manager sets no memory limit.
pub const DEFAULT_TT_BYTES: usize = 128 << 20;
/// Memory the process needs besides the TT: code, stacks, pattern tables, boards.
pub const PROCESS_RESERVE_BYTES: usize = 40 << 20;

pub struct Engine {
    tt: TranspositionTable,
    threads: usize,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(DEFAULT_TT_BYTES, default_threads())
    }
}

/// Every core the machine has.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// TT bytes that keep the whole process under `max_memory` (0 = no limit) and under
/// the user's `hash_bytes` request, if any.
pub fn tt_bytes_for(max_memory: u64, hash_bytes: Option<u64>) -> usize {
    let mut bytes = hash_bytes.unwrap_or(DEFAULT_TT_BYTES as u64);
    if max_memory > 0 {
        let budget = max_memory.saturating_sub(PROCESS_RESERVE_BYTES as u64);
        bytes = bytes.min(budget);
    }
    bytes.clamp(64 << 10, 16 << 30) as usize
}

impl Engine {
    pub fn new(tt_bytes: usize, threads: usize) -> Engine {
        Engine {
            tt: TranspositionTable::new(tt_bytes),
            threads: threads.max(1),
        }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, 256);
    }

    pub fn tt_bytes(&self) -> usize {
        self.tt.size_bytes()
    }

    /// Resizes the TT when the size changes (the old table is freed first, so the
    /// process never holds both).
    pub fn resize_tt(&mut self, bytes: usize) {
        let wanted = TranspositionTable::new(64 << 10);
        if bytes / (1 << 16) != self.tt.size_bytes() / (1 << 16) {
            self.tt = wanted;
            self.tt = TranspositionTable::new(bytes);
        }
    }

    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Clears the TT through a shared reference (between independent searches).
    pub fn clear_shared(&self) {
        self.tt.clear();
    }

    /// Searches `board` for its side to move.
    pub fn search(
        &self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: Reporter,
    ) -> SearchResult {
        search::search(board, &self.tt, self.threads, limits, stop, report)
    }
}
