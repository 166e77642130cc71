//! The engine: owns the transposition table, the thread count and the options, and
//! runs searches. It never prints; results go back through return values and the
//! progress callback.

use crate::board::{Board, Rule};
use crate::net::file::NetWeights;
use crate::search::{self, Limits, Reporter, SearchResult};
use crate::tactics::memory::SolverMemory;
use crate::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// Transposition table size when the manager sets no memory limit.
pub const DEFAULT_TT_BYTES: usize = 128 << 20;
/// Memory the process needs besides the TT and the solvers' tables: code, stacks,
/// pattern tables, boards (about 5 MB at START).
pub const PROCESS_RESERVE_BYTES: usize = 24 << 20;
/// The largest table whatever the machine has (`YXSHOWINFO`'s `MAX_HASH_SIZE` 24).
const MAX_TT_BYTES: u64 = 16 << 30;
const MIN_TT_BYTES: u64 = crate::tt::MIN_BYTES as u64;
/// The most search threads an engine runs, whatever it is asked for.
pub const MAX_THREADS: usize = 256;

pub struct Engine {
    tt: TranspositionTable,
    /// The size the table takes at the next search (`prepare`): sizing happens there,
    /// once the manager's limits are known, never on START's clock.
    tt_wanted: usize,
    threads: usize,
    /// The threat solvers' tables, kept between searches (a search holds the lock, so
    /// searches on one engine run one at a time).
    solvers: Mutex<SolverMemory>,
    /// The networks the engine has, one per rule at most.
    nets: Vec<Arc<NetWeights>>,
    /// Whether positions of a rule with a network are evaluated by it (`--eval net`).
    use_net: bool,
    /// The request (max_memory, hash bytes, threads) the table was last sized for: a
    /// request that has not changed keeps the table, and the cap is not measured
    /// again (the free memory then leaves out the table's own touched pages).
    sized_for: Option<(u64, Option<u64>, usize)>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(DEFAULT_TT_BYTES, default_threads())
    }
}

/// Every core this process may run on.
pub fn default_threads() -> usize {
    crate::cores::usable()
}

/// `MAX_TT_BYTES`, and no more than half of the `available` memory (as the system
/// reports it) plus the `held` bytes of the table that a resize frees first.
fn tt_cap(available: Option<u64>, held: usize) -> u64 {
    let cap = MAX_TT_BYTES.min(available.map_or(u64::MAX, |a| (a + held as u64) / 2));
    cap.max(MIN_TT_BYTES)
}

/// The largest table this machine can hold now, `held` bytes of a table counted as
/// freed first.
pub fn max_tt_bytes_holding(held: usize) -> u64 {
    tt_cap(crate::sysmem::available_bytes(), held)
}

/// TT bytes that keep the whole process under `max_memory` (0 = no limit), the
/// solvers' `solver_bytes` counted, and under the user's `hash_bytes` request, if any,
/// within `cap` (`Engine::max_tt_bytes`).
pub fn tt_bytes_for(
    max_memory: u64,
    hash_bytes: Option<u64>,
    cap: u64,
    solver_bytes: usize,
) -> usize {
    let mut bytes = hash_bytes.unwrap_or(DEFAULT_TT_BYTES as u64);
    if max_memory > 0 {
        let others = (PROCESS_RESERVE_BYTES + solver_bytes) as u64;
        bytes = bytes.min(max_memory.saturating_sub(others));
    }
    bytes.min(cap).max(MIN_TT_BYTES) as usize
}

impl Engine {
    pub fn new(tt_bytes: usize, threads: usize) -> Engine {
        let tt = TranspositionTable::new(tt_bytes);
        Engine {
            tt_wanted: tt.size_bytes(),
            tt,
            threads: threads.max(1),
            solvers: Mutex::new(SolverMemory::new()),
            nets: Vec::new(),
            use_net: false,
            sized_for: None,
        }
    }

    /// Bytes of the solvers' tables with the current thread count.
    pub fn solver_bytes(&self) -> usize {
        SolverMemory::bytes_for(self.threads)
    }

    /// The networks to evaluate with (a later one replaces an earlier one of the same
    /// rule), and whether to use them.
    pub fn set_nets(&mut self, nets: &[Arc<NetWeights>], use_net: bool) {
        self.nets.clear();
        for net in nets.iter().rev() {
            if !self.nets.iter().any(|n| n.rule == net.rule) {
                self.nets.push(net.clone());
            }
        }
        self.use_net = use_net;
    }

    pub fn set_use_net(&mut self, use_net: bool) {
        self.use_net = use_net;
    }

    /// The network that evaluates positions of `rule`, if the engine uses one: a
    /// loaded one, else the built-in one of that rule.
    pub fn net_for(&self, rule: Rule) -> Option<&NetWeights> {
        if !self.use_net {
            return None;
        }
        let loaded = self.nets.iter().find(|n| n.rule == rule).map(|n| &**n);
        loaded.or_else(|| crate::net::builtin::for_rule(rule))
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, MAX_THREADS);
    }

    pub fn tt_bytes(&self) -> usize {
        self.tt.size_bytes()
    }

    /// The largest table this machine can hold now (`tt_cap`), counting this one.
    pub fn max_tt_bytes(&self) -> u64 {
        max_tt_bytes_holding(self.tt_bytes())
    }

    /// Asks for a table of `bytes` from the next search on; nothing is allocated now.
    pub fn resize_tt(&mut self, bytes: usize) {
        self.tt_wanted = bytes.max(MIN_TT_BYTES as usize);
        self.sized_for = None;
    }

    /// Sizes the table for the manager's `max_memory` (0: none) and `hash_bytes`, the
    /// solvers' tables of the current threads counted (`tt_bytes_for`), within what
    /// the machine can hold: the new size, or `None` when the request is the one the
    /// table was last sized for (managers repeat START and INFO before every game).
    pub fn size_tt(&mut self, max_memory: u64, hash_bytes: Option<u64>) -> Option<usize> {
        let request = (max_memory, hash_bytes, self.threads);
        if self.sized_for == Some(request) {
            return None;
        }
        let bytes = tt_bytes_for(
            max_memory,
            hash_bytes,
            self.max_tt_bytes(),
            self.solver_bytes(),
        );
        self.resize_tt(bytes);
        self.sized_for = Some(request);
        Some(bytes)
    }

    /// Gives the table the size last asked for, before a search: zeroed memory that
    /// costs nothing until the search touches it.
    pub fn prepare(&mut self) {
        if self.tt_wanted / (1 << 16) != self.tt.size_bytes() / (1 << 16) {
            self.tt.resize(self.tt_wanted);
        }
    }

    /// Empties the transposition table (a fresh zeroed one of the same size).
    pub fn clear(&mut self) {
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
        // One search at a time uses the tables; a panic in an earlier one left them
        // usable (each search empties them first).
        let mut memory = self.solvers.lock().unwrap_or_else(|e| e.into_inner());
        let tables = search::Tables {
            tt: &self.tt,
            threads: self.threads,
            memory: &mut memory,
            net: self.net_for(board.rule()),
        };
        search::search(board, tables, limits, stop, report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_request_keeps_the_table() {
        let mut engine = Engine::new(0, 1);
        assert_eq!(engine.size_tt(0, Some(1 << 20)), Some(1 << 20));
        assert_eq!(engine.size_tt(0, Some(1 << 20)), None);
        assert_eq!(engine.size_tt(0, Some(2 << 20)), Some(2 << 20));
        // Another thread count is another request (each thread's solver table counts
        // within max_memory).
        engine.set_threads(2);
        assert_eq!(engine.size_tt(0, Some(2 << 20)), Some(2 << 20));
        let limited = engine.size_tt(40 << 20, Some(100 << 20)).unwrap();
        assert_eq!(
            limited,
            (40 << 20) - PROCESS_RESERVE_BYTES - engine.solver_bytes()
        );
        assert_eq!(engine.size_tt(40 << 20, Some(100 << 20)), None);
    }

    #[test]
    fn a_huge_request_is_capped_by_the_available_memory() {
        const GIB: u64 = 1 << 30;
        // Half of what is available, counting the table a resize frees first.
        assert_eq!(tt_cap(Some(10 * GIB), 0), 5 * GIB);
        assert_eq!(tt_cap(Some(10 * GIB), 2 << 30), 6 * GIB);
        assert_eq!(tt_cap(Some(100 * GIB), 0), 16 * GIB);
        assert_eq!(tt_cap(None, 0), 16 * GIB);
        assert_eq!(tt_cap(Some(0), 0), 64 << 10);
        let huge = Some(99_999_999_999 * 1024);
        assert_eq!(tt_bytes_for(0, huge, 5 * GIB, 0), 5 << 30);
        assert_eq!(tt_bytes_for(0, Some(64 << 20), 5 * GIB, 0), 64 << 20);
        assert_eq!(tt_bytes_for(0, None, 5 * GIB, 0), 128 << 20);
        // max_memory still bounds the whole process, the solvers' tables counted.
        assert_eq!(tt_bytes_for(100 << 20, huge, 5 * GIB, 16 << 20), 60 << 20);
        assert_eq!(tt_bytes_for(1, huge, 5 * GIB, 16 << 20), 64 << 10);
    }
}
