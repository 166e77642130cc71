//! Time budget for one move from the manager's limits.
//!
//! Deadline = min(timeout_turn, a share of time_left) counted from the command's
//! arrival, minus a safety margin for process and pipe latency. The soft limit says
//! when not to start another iteration; the hard limit stops the search.

use std::time::Duration;

/// What the manager told us about time (milliseconds; `None` = no limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub turn_ms: Option<u64>,
    pub match_ms: Option<u64>,
    pub left_ms: Option<i64>,
}

impl Default for TimeControl {
    /// Piskvork's defaults when a manager sends nothing: 30 s per move, no match limit.
    fn default() -> Self {
        TimeControl {
            turn_ms: Some(30_000),
            match_ms: None,
            left_ms: None,
        }
    }
}

/// Time budget of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Stop searching at this point.
    pub hard: Duration,
}

/// Moves we still expect to play, for splitting the match time.
fn moves_to_go(empty_cells: usize) -> u64 {
    ((empty_cells as u64) / 8).clamp(12, 40)
}

/// Latency reserve: process wake-up, pipe, the manager's own measurement, and a busy
/// machine (matches run several engines per core) that can hold a thread off the CPU
/// for tens of milliseconds.
fn margin(limit_ms: u64) -> u64 {
    (limit_ms / 10).clamp(30, 150)
}

impl TimeControl {
    /// The budget for a move on a board with `empty_cells` free points.
    pub fn budget(&self, empty_cells: usize) -> Budget {
        let mut hard = u64::MAX;
        if let Some(t) = self.turn_ms {
            hard = t.saturating_sub(margin(t));
        }
        // time_left (sent before every move) is authoritative, 2147483647 meaning no
        // limit; without it, the match limit.
        let left = match self.left_ms {
            Some(l) if l >= i32::MAX as i64 => None,
            Some(l) => Some(l.max(0) as u64),
            None => self.match_ms.filter(|&m| m > 0),
        };
        let mut soft = hard;
        if let Some(left) = left {
            let usable = left.saturating_sub(margin(left));
            let share = usable / moves_to_go(empty_cells);
            // Never spend more than a third of what is left on one move.
            hard = hard.min((share * 3).min(usable / 3).max(share));
            soft = soft.min(share);
        }
        if hard == u64::MAX {
            // No limit at all: think for a fixed, generous time.
            hard = 30_000;
        }
        soft = soft.min(hard * 6 / 10);
        Budget {
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_limit() {
        let tc = TimeControl {
            turn_ms: Some(1000),
            match_ms: None,
            left_ms: None,
        };
        let b = tc.budget(200);
        assert!(b.hard <= Duration::from_millis(920) && b.hard >= Duration::from_millis(850));
        assert!(b.soft < b.hard);
    }

    #[test]
    fn zero_turn_is_immediate() {
        let tc = TimeControl {
            turn_ms: Some(0),
            match_ms: None,
            left_ms: None,
        };
        assert_eq!(tc.budget(200).hard, Duration::ZERO);
    }

    #[test]
    fn match_time_is_split() {
        let tc = TimeControl {
            turn_ms: Some(30_000),
            match_ms: Some(180_000),
            left_ms: Some(60_000),
        };
        let b = tc.budget(200);
        assert!(b.hard <= Duration::from_millis(20_000));
        assert!(b.soft <= Duration::from_millis(6_000));
        let low = TimeControl {
            left_ms: Some(-5),
            ..tc
        };
        assert_eq!(low.budget(200).hard, Duration::ZERO);
        let unlimited = TimeControl {
            left_ms: Some(2_147_483_647),
            ..tc
        };
        assert!(unlimited.budget(200).hard >= Duration::from_millis(29_000));
    }
}
