//! Zobrist keys: one random 64-bit word per colour and cell, fixed at compile time so
//! hashes (and the bench signature) are identical on every run and machine.

use super::types::CELLS;
use crate::rng::splitmix64;

const fn make_keys() -> [[u64; CELLS]; 2] {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state = 0x00F3_2217_5EED_u64;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            let (s, v) = splitmix64(state);
            state = s;
            keys[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    keys
}

/// `ZOBRIST[colour][cell]`.
pub static ZOBRIST: [[u64; CELLS]; 2] = make_keys();
