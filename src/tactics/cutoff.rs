//! When a solver must give up: a point in time, a flag another thread sets (the
//! protocol's stop: `YXSTOP`, `INFO timeout_turn 0`, `END`, end of input, an overdue
//! answer), or both.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

#[derive(Clone, Copy, Debug, Default)]
pub struct Cutoff<'a> {
    pub deadline: Option<Instant>,
    pub stop: Option<&'a AtomicBool>,
}

impl<'a> Cutoff<'a> {
    /// No limit: node budgets alone bound the work, and results are deterministic.
    pub const NONE: Cutoff<'static> = Cutoff {
        deadline: None,
        stop: None,
    };

    pub fn at(deadline: Instant) -> Self {
        Cutoff {
            deadline: Some(deadline),
            stop: None,
        }
    }

    /// Whether the time is up or a stop was asked for.
    pub fn reached(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}
