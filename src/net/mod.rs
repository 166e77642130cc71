//! The learned evaluation: line-shape features, the network and its trainer.

pub mod accumulator;
pub mod builtin;
pub mod file;
pub mod inference;
pub mod model;
pub mod shape;
pub mod train;

use anyhow::{Context, Result};
use std::path::Path;

/// Reads a network file, with the file's name in every error.
pub fn load(path: &Path) -> Result<file::NetWeights> {
    let bytes = std::fs::read(path).with_context(|| format!("network {}", path.display()))?;
    file::NetWeights::from_bytes(&bytes).with_context(|| format!("network {}", path.display()))
}
