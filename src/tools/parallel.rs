//! The thread pool of the data-parallel tools (solve, tune, sample-leaves,
//! scan-moves): one rayon pool, sized by the tool's `--threads`.

use crate::engine::MAX_THREADS;
use anyhow::{Context, Result};

/// A pool of `threads` workers; `None` means one per core.
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or_else(crate::engine::default_threads))
        .build()
        .context("starting the worker threads")
}

/// Parses a `--threads` value: a count of at least one (more than the engine's cap
/// are its cap).
pub fn threads(s: &str) -> Result<usize, String> {
    super::args::at_least_one::<usize>(s).map(|n| n.min(MAX_THREADS))
}
