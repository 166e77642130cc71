//! Lock-free transposition table shared by all search threads.
//!
//! Each entry is two atomic 64-bit words: `key ^ data` and `data`. A reader accepts an
//! entry only when the xor of the two words gives back its key, so an entry torn by a
//! concurrent write is simply a miss. Entries sit in clusters of four (one cache line).

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

pub struct TranspositionTable {
    words: Vec<AtomicU64>,
    clusters: usize,
    generation: AtomicU64,
}

fn pack(mv: Pos, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    (mv.0 as u64)
        | ((score as i16 as u16 as u64) << 16)
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

/// Asks the kernel to back `bytes` bytes from `addr` (an allocation of ours) with 2
/// MiB pages. A probe lands on a random entry: with 4 KiB pages nearly every one missed
/// the TLB, and the page walk is two-level under a hypervisor. With a 128 MiB table,
/// two searches at once on two cores (a match at concurrency 2) took 3 % less time,
/// one alone on an idle machine about the same (README, Speed). Linux only; elsewhere,
/// or when transparent huge pages are off, a no-op, and so is it for a small table
/// that the allocator carves out of memory used before.
#[cfg(target_os = "linux")]
fn advise_huge_pages(addr: usize, bytes: usize) {
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    const PAGE: usize = 4096;
    let start = addr.next_multiple_of(PAGE);
    let end = (addr + bytes) & !(PAGE - 1);
    if end > start {
        // SAFETY: the range lies inside an allocation this table owns; MADV_HUGEPAGE
        // only changes how the kernel backs its pages, never their contents, and a
        // failure (no transparent huge pages) leaves the small pages.
        unsafe { madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_addr: usize, _bytes: usize) {}

impl TranspositionTable {
    /// A table using at most `bytes` bytes (at least 64 KiB).
    pub fn new(bytes: usize) -> TranspositionTable {
        let mut clusters = (bytes.max(MIN_BYTES) / (CLUSTER * ENTRY_BYTES)).max(1);
        // A size the allocator refuses (Windows commits memory up front, and every
        // system has a limit) is halved until it fits, instead of aborting the process.
        // The trial reservation is never touched, so it costs no page.
        let min_clusters = MIN_BYTES / (CLUSTER * ENTRY_BYTES);
        while clusters > min_clusters
            && Vec::<AtomicU64>::new()
                .try_reserve_exact(clusters * CLUSTER * 2)
                .is_err()
        {
            clusters /= 2;
        }
        let len = clusters * CLUSTER * 2;
        let mut words = Vec::with_capacity(len);
        // Before the first touch, so that the pages are huge from their first fault.
        advise_huge_pages(words.as_ptr() as usize, len * 8);
        // Writing the zeros touches every page now. The search would otherwise fault
        // on each page twice (a probe maps the shared zero page, the first store copies
        // it), with a TLB flush on every core the search runs on. Touched beforehand,
        // 1 s searches in a fresh process with one thread visit 35 % more nodes (24
        // game positions); the memory is the table's anyway.
        words.resize_with(len, || AtomicU64::new(0));
        TranspositionTable {
            words,
            clusters,
            generation: AtomicU64::new(0),
        }
    }

    /// Bytes held by the entries.
    pub fn size_bytes(&self) -> usize {
        self.words.len() * 8
    }

    pub fn clear(&self) {
        for w in &self.words {
            w.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
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
        c * CLUSTER * 2
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
        let tt = TranspositionTable::new(1 << 20);
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
    }

    /// Where the kernel offers transparent huge pages on request, the table's memory
    /// gets them (the mapping holding it counts anonymous huge pages in smaps).
    #[cfg(target_os = "linux")]
    #[test]
    fn table_memory_is_backed_by_huge_pages() {
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        let offered = mode.is_ok_and(|m| m.contains("[always]") || m.contains("[madvise]"));
        if !offered {
            return;
        }
        // Above glibc's largest mmap threshold (32 MiB): a fresh mapping, never heap
        // memory touched before (which keeps its small pages).
        let tt = TranspositionTable::new(64 << 20);
        // The middle of the table: its first page (shared with the allocator's header)
        // is not advised and stays a mapping of its own.
        let addr = tt.words.as_ptr() as usize + tt.size_bytes() / 2;
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("smaps readable");
        // A mapping's header line starts with its address range, `lo-hi` in hex; its
        // fields (`Name: value`) follow it.
        let range = |line: &str| -> Option<(usize, usize)> {
            let (lo, hi) = line.split_whitespace().next()?.split_once('-')?;
            Some((
                usize::from_str_radix(lo, 16).ok()?,
                usize::from_str_radix(hi, 16).ok()?,
            ))
        };
        let mut in_table = false;
        let mut huge_kb = None;
        for line in smaps.lines() {
            if let Some((lo, hi)) = range(line) {
                in_table = (lo..hi).contains(&addr);
            } else if let Some(kb) = line.strip_prefix("AnonHugePages:").filter(|_| in_table) {
                huge_kb = kb
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse::<usize>().ok());
            }
        }
        let huge_kb = huge_kb.expect("the table's mapping is listed");
        // Not all of it: the unaligned ends keep small pages, and a machine short of
        // free huge pages falls back to small ones for some of it.
        assert!(huge_kb > 0, "no huge page in the table's mapping");
    }
}
