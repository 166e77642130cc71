//! Threat solvers, apart from the alpha-beta search: VCF (continuous fours) and VCT
//! (continuous threats), with their tables. They read the board only; the search uses
//! them (the root tactics, the quiescence's leaf VCF), never the other way round.

pub mod cutoff;
pub mod memory;
pub mod vcf;
pub mod vct;
