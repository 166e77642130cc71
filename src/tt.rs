//! Lock-free transposition table shared by all search threads.
//!
//! Each entry is two atomic 64-bit words: `key ^ data` and `data`. A reader accepts an
//! entry only when the xor of the two words gives back its key, so an entry torn by a
//! concurrent write is simply a miss. Entries sit in clusters of four, each one cache
//! line: the clusters start at the first 64-byte boundary of the allocation.

use crate::board::Pos;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bound type of a stored score.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

/// A decoded entry.
#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    pub mv: Pos,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

const CLUSTER: usize = 4;
/// Bytes of one entry (two words).
const ENTRY_BYTES: usize = 16;
/// Smallest table (entries are never fewer than one cluster).
pub const MIN_BYTES: usize = 64 * 1024;

/// Words of one cluster, and of the padding that aligns the first one.
const CLUSTER_WORDS: usize = CLUSTER * 2;

pub struct TranspositionTable {
    words: Box<[AtomicU64]>,
    /// The word where the first cluster starts: the allocator's zeroed memory is only
    /// 16-byte aligned, and a cluster across two cache lines costs two loads a probe.
    first: usize,
    clusters: usize,
    generation: AtomicU64,
}

fn pack(mv: Pos, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    (mv.0 as u64)
        | ((score.clamp(i16::MIN.into(), i16::MAX.into()) as i16 as u16 as u64) << 16)
        | (((depth.clamp(-100, 127) + 128) as u64 & 0xFF) << 32)
        | ((bound as u64) << 40)
        | (((generation & 63) as u64) << 42)
        | (1 << 48) // occupied marker: distinguishes a stored entry from zeroed memory
}

fn unpack(data: u64) -> (TtEntry, u8) {
    let bound = match (data >> 40) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    (
        TtEntry {
            mv: Pos(data as u16),
            score: (data >> 16) as u16 as i16 as i32,
            depth: ((data >> 32) & 0xFF) as i32 - 128,
            bound,
        },
        ((data >> 42) & 63) as u8,
    )
}

/// `len` zeroed words straight from the allocator (calloc: a large request is a fresh
/// mapping of the kernel's zero pages), or None when the system refuses the size.
fn zeroed_words(len: usize) -> Option<Box<[AtomicU64]>> {
    // A trial reservation first: the zeroed allocation below aborts on failure. It is
    // never touched, so it costs no page.
    Vec::<AtomicU64>::new().try_reserve_exact(len).ok()?;
    let words = Box::<[AtomicU64]>::new_zeroed_slice(len);
    // SAFETY: all-zero bytes are a valid AtomicU64. Safe code has no zeroed slice of
    // atomics, and writing the zeros would touch every page (resident memory before the
    // first search; evidence: docs/strength-log.md, "Zeroed transposition
    // table").
    Some(unsafe { words.assume_init() })
}

impl TranspositionTable {
    /// A table using at most `bytes` bytes (at least 64 KiB), from memory the system
    /// hands out already zeroed: nothing is written here, so making even a large table
    /// takes microseconds and no page is resident until a search stores into it.
    pub fn new(bytes: usize) -> TranspositionTable {
        let min_clusters = MIN_BYTES / (CLUSTER * ENTRY_BYTES);
        let mut clusters = (bytes.max(MIN_BYTES) / (CLUSTER * ENTRY_BYTES)).max(min_clusters);
        // A size the allocator refuses (Windows commits memory up front, and every
        // system has a limit) is halved until it fits, instead of aborting the process.
        let words = loop {
            match zeroed_words(clusters * CLUSTER_WORDS + CLUSTER_WORDS - 1) {
                Some(words) => break words,
                None if clusters > min_clusters => clusters /= 2,
                None => panic!("no memory for the smallest transposition table"),
            }
        };
        let misalign = words.as_ptr() as usize % (CLUSTER_WORDS * 8);
        let first = (CLUSTER_WORDS * 8 - misalign) % (CLUSTER_WORDS * 8) / 8;
        TranspositionTable {
            words,
            first,
            clusters,
            generation: AtomicU64::new(0),
        }
    }

    /// Bytes held by the entries.
    pub fn size_bytes(&self) -> usize {
        self.clusters * CLUSTER * ENTRY_BYTES
    }

    /// Trades the table for a fresh, empty one of `bytes` (as `new`). The old memory is
    /// freed first, so the process never holds both.
    pub fn resize(&mut self, bytes: usize) {
        self.words = Box::new([]);
        *self = TranspositionTable::new(bytes);
    }

    /// Empties the table: a fresh zeroed one of the same size, so no serial pass over
    /// the memory runs on the caller's clock.
    pub fn clear(&mut self) {
        self.resize(self.size_bytes());
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        (self.generation.load(Ordering::Relaxed) & 63) as u8
    }

    #[inline(always)]
    fn cluster_start(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any cluster count without a power of two.
        let c = ((key as u128 * self.clusters as u128) >> 64) as usize;
        self.first + c * CLUSTER_WORDS
    }

    /// Starts loading `key`'s cluster into the cache: the search asks for it before it
    /// makes the move, so that the load overlaps `make` (the probes' cache misses were
    /// 8 % of the search's time).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.words[self.cluster_start(key)..].as_ptr() as *const i8;
            // SAFETY: a prefetch is only a hint, it never faults or reads into the
            // program, and SSE is part of every x86_64 target.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let base = self.cluster_start(key);
        for i in 0..CLUSTER {
            let w0 = self.words[base + 2 * i].load(Ordering::Relaxed);
            let w1 = self.words[base + 2 * i + 1].load(Ordering::Relaxed);
            if w1 != 0 && w0 ^ w1 == key {
                return Some(unpack(w1).0);
            }
        }
        None
    }

    pub fn store(&self, key: u64, mv: Pos, score: i32, depth: i32, bound: Bound) {
        let base = self.cluster_start(key);
        let gen = self.generation();
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for i in 0..CLUSTER {
            let w0 = self.words[base + 2 * i].load(Ordering::Relaxed);
            let w1 = self.words[base + 2 * i + 1].load(Ordering::Relaxed);
            if w1 == 0 {
                victim = i;
                break;
            }
            let (old, old_gen) = unpack(w1);
            if w0 ^ w1 == key {
                // Same position: keep a deeper exact result of this search, and keep
                // the old move when the new result has none.
                if bound != Bound::Exact && old.depth > depth + 2 && old_gen == gen {
                    return;
                }
                let mv = if mv.is_none() { old.mv } else { mv };
                self.write(base + 2 * i, key, pack(mv, score, depth, bound, gen));
                return;
            }
            let age = (gen.wrapping_sub(old_gen) & 63) as i32;
            let worth = old.depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        self.write(base + 2 * victim, key, pack(mv, score, depth, bound, gen));
    }

    #[inline(always)]
    fn write(&self, at: usize, key: u64, data: u64) {
        self.words[at].store(key ^ data, Ordering::Relaxed);
        self.words[at + 1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1 << 20);
        assert!(tt.size_bytes() <= 1 << 20);
        tt.store(0xDEAD_BEEF, Pos(300), -1234, 7, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Pos(300), -1234, 7, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF).is_none());
        // A score past i16 saturates: it never comes back with the other sign.
        tt.store(0xDEAD_BEEF, Pos(300), 40_000, 7, Bound::Lower);
        assert_eq!(tt.probe(0xDEAD_BEEF).unwrap().score, i16::MAX as i32);
        tt.store(0xDEAD_BEEF, Pos(300), -40_000, 7, Bound::Lower);
        assert_eq!(tt.probe(0xDEAD_BEEF).unwrap().score, i16::MIN as i32);
    }

    #[test]
    fn clusters_sit_on_cache_lines_and_the_size_holds() {
        for bytes in [MIN_BYTES, 1 << 20, 3 << 20, 40_000_000] {
            let mut tt = TranspositionTable::new(bytes);
            let size = tt.size_bytes();
            for key in [0, 1, u64::MAX, 0x9E37_79B9_7F4A_7C15] {
                let at = tt.cluster_start(key);
                assert_eq!(tt.words[at..].as_ptr() as usize % 64, 0, "{bytes} bytes");
                assert!(at + CLUSTER_WORDS <= tt.words.len());
            }
            // Clearing keeps the size (the padding is not counted as entries).
            tt.clear();
            assert_eq!(tt.size_bytes(), size);
        }
    }
}
