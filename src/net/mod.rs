//! The learned evaluation: line-shape features, the network and its trainer.

pub mod accumulator;
pub mod builtin;
pub mod file;
pub mod inference;
pub mod model;
pub mod shape;
pub mod train;

use anyhow::{ensure, Context, Result};
use std::io::Read;
use std::path::Path;

/// Reads a network file, with the file's name in every error. Only a regular file, and
/// no more of it than a network's size: `--net /dev/zero` or a pipe must not fill the
/// memory or wait for the manager's input.
pub fn load(path: &Path) -> Result<file::NetWeights> {
    let read = || -> Result<Vec<u8>> {
        let file = std::fs::File::open(path)?;
        ensure!(file.metadata()?.is_file(), "not a regular file");
        let mut bytes = Vec::with_capacity(file::FILE_BYTES);
        file.take(file::FILE_BYTES as u64 + 1)
            .read_to_end(&mut bytes)?;
        Ok(bytes)
    };
    let bytes = read().with_context(|| format!("network {}", path.display()))?;
    file::NetWeights::from_bytes(&bytes).with_context(|| format!("network {}", path.display()))
}
