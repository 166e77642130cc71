//! A small seedable generator (splitmix64) for the tools that need reproducible
//! randomness: the same seed gives the same openings and games on every machine.

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator for item `index` of a run seeded with `seed`: items drawn in
    /// parallel get the same values in any order.
    pub fn for_item(seed: u64, index: u64) -> Rng {
        let mut mix = Rng(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407));
        Rng(mix.next_u64())
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }
}
