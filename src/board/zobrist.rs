//! Zobrist keys: one random 64-bit word per colour and cell, one per cell for a wall and
//! one for the side to move, fixed at compile time so hashes (and the bench signature)
//! are identical on every run and machine.

use super::types::CELLS;
use crate::rng::splitmix64;

const fn make_keys() -> [[u64; CELLS]; 3] {
    // The colours' rows come first, as they were before walls had keys: the same
    // hashes keep the bench signature.
    let mut keys = [[0u64; CELLS]; 3];
    let mut state = 0x00F3_2217_5EED_u64;
    let mut c = 0;
    while c < 3 {
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
pub static ZOBRIST: [[u64; CELLS]; 2] = {
    let keys = make_keys();
    [keys[0], keys[1]]
};
/// `WALL_KEYS[cell]`: a wall on the cell (continuous games).
pub static WALL_KEYS: [u64; CELLS] = make_keys()[2];
/// The side to move is not the one the stones' count gives (see `Board::key`).
pub const OUT_OF_TURN_KEY: u64 = splitmix64(0x51DE_700F_7A2E).1;
