//! Zobrist keys: one random 64-bit word per colour and cell, fixed at compile time so
//! hashes (and the bench signature) are identical on every run and machine.

use super::types::CELLS;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

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
