//! Time budget for one move from the manager's limits.
//!
//! Deadline = min(timeout_turn, a share of time_left) counted from the command's
//! arrival, minus a safety margin for process and pipe latency. The soft limit says
//! when not to start another iteration; the hard limit stops the search.

use crate::search::params::time::*;
use std::time::Duration;

/// What the manager told us about time (milliseconds; `None` = no limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub turn_ms: Option<u64>,
    pub match_ms: Option<u64>,
    pub left_ms: Option<i64>,
    /// What our answers took since the manager last said `time_left` (or since the
    /// game began): a manager that sends it once, or only `timeout_match`, still gets
    /// the time it has left.
    pub spent_ms: u64,
}

impl Default for TimeControl {
    /// Piskvork's defaults when a manager sends nothing: 30 s per move, no match limit.
    fn default() -> Self {
        TimeControl {
            turn_ms: Some(30_000),
            match_ms: None,
            left_ms: None,
            spent_ms: 0,
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
    ((empty_cells as u64) / CELLS_PER_MOVE_TO_GO).clamp(MIN_MOVES_TO_GO, MAX_MOVES_TO_GO)
}

/// Latency reserve: process wake-up, pipe, the manager's own measurement, and a busy
/// machine that holds our threads off the CPU: a share of the limit, with a floor set
/// from answers measured under load (README, Timing and memory) and a ceiling.
fn margin(limit_ms: u64) -> u64 {
    (limit_ms / MARGIN_DIVISOR).clamp(MIN_MARGIN_MS, MAX_MARGIN_MS)
}

impl TimeControl {
    /// The manager's `time_left`: our spending counts from here.
    pub fn set_left(&mut self, ms: i64) {
        self.left_ms = Some(ms);
        self.spent_ms = 0;
    }

    /// The manager's `timeout_match` (0: none). A different match limit voids the last
    /// `time_left`, which belonged to the old one (a new game under other time).
    pub fn set_match(&mut self, ms: i64) {
        let match_ms = (ms > 0).then_some(ms as u64);
        if match_ms != self.match_ms {
            self.left_ms = None;
            self.spent_ms = 0;
        }
        self.match_ms = match_ms;
    }

    /// An answer on the game's clock took `elapsed` (from the command's arrival).
    pub fn spend(&mut self, elapsed: Duration) {
        self.spent_ms = self.spent_ms.saturating_add(elapsed.as_millis() as u64);
    }

    /// A new game: nothing spent in it yet (the match time, or the last `time_left`
    /// the manager sent, counts from here).
    pub fn new_game(&mut self) {
        self.spent_ms = 0;
    }

    /// The budget for a move on a board with `empty_cells` free points.
    pub fn budget(&self, empty_cells: usize) -> Budget {
        let mut hard = u64::MAX;
        if let Some(t) = self.turn_ms {
            hard = t.saturating_sub(margin(t));
        }
        // time_left (sent before every move) is authoritative, 2147483647 meaning no
        // limit; without it, the match limit; either less what we spent since.
        let left = match self.left_ms {
            Some(l) if l >= i32::MAX as i64 => None,
            Some(l) => Some(l.max(0) as u64),
            None => self.match_ms.filter(|&m| m > 0),
        }
        .map(|l| l.saturating_sub(self.spent_ms));
        // With only a turn limit, time not used on this move is lost: the search may
        // start iterations until the hard limit.
        let mut soft = hard;
        if let Some(left) = left {
            let usable = left.saturating_sub(margin(left));
            let share = usable / moves_to_go(empty_cells);
            // Never spend more than a fixed fraction of what is left on one move.
            hard = hard.min(
                (share * HARD_SHARES)
                    .min(usable / MAX_LEFT_FRACTION)
                    .max(share),
            );
            soft = soft.min(share).min(hard * SOFT_TENTHS_OF_HARD / 10);
        }
        if hard == u64::MAX {
            // No limit at all: think for a fixed, generous time.
            hard = UNLIMITED_MS;
        }
        soft = soft.min(hard);
        Budget {
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard),
        }
    }
}

/// Between iterations, how far into the soft limit the search may go before it stops
/// starting new ones: further while the best move keeps changing or the score falls,
/// less once the move has held for several depths (evidence: docs/strength-log.md,
/// "soft limit"; the factors are in `search::params::time`).
#[derive(Clone, Debug)]
pub struct SoftScale {
    last: Option<(u16, i32)>,
    stable: u32,
    factor: f64,
}

impl Default for SoftScale {
    fn default() -> Self {
        SoftScale {
            last: None,
            stable: 0,
            factor: BASE,
        }
    }
}

impl SoftScale {
    /// Records a completed iteration: its depth, best move (any stable id) and score.
    pub fn update(&mut self, depth: i32, best: u16, score: i32) {
        let (changed, fell) = match self.last {
            Some((m, s)) => (m != best, score < s - FALL),
            None => (true, false),
        };
        self.stable = if changed { 0 } else { self.stable + 1 };
        self.last = Some((best, score));
        self.factor = BASE;
        if depth >= FROM_DEPTH {
            if changed {
                self.factor *= CHANGED;
            } else if self.stable >= STABLE_ITERATIONS {
                self.factor *= STABLE;
            }
            if fell {
                self.factor *= FALLING;
            }
        }
    }

    /// The soft limit stretched by the current factor, never past `hard`. A soft limit
    /// equal to the hard one (only a turn limit: time not used on this move is lost)
    /// is not shortened either: a stable move gains nothing by stopping early, and an
    /// iteration cut at the hard limit still counts once its first root move is done.
    pub fn soft(&self, soft: Duration, hard: Duration) -> Duration {
        if soft >= hard {
            return hard;
        }
        Duration::try_from_secs_f64(soft.as_secs_f64() * self.factor)
            .unwrap_or(Duration::MAX)
            .min(hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_scale_follows_the_best_move() {
        let (soft, hard) = (Duration::from_millis(500), Duration::from_millis(900));
        let mut s = SoftScale::default();
        assert_eq!(s.soft(soft, hard), Duration::from_millis(650));
        // A new best move at depth 5+ stretches up to the hard limit.
        s.update(5, 1, 0);
        assert_eq!(s.soft(soft, hard), Duration::from_millis(900));
        for d in 6..=8 {
            s.update(d, 1, 0);
        }
        // Three iterations on the same move: less time.
        assert!(s.soft(soft, hard) < Duration::from_millis(400));
        // A falling score gives some back.
        s.update(9, 1, -100);
        assert!(s.soft(soft, hard) > Duration::from_millis(500));
        // Unlimited searches stay unlimited.
        assert_eq!(s.soft(Duration::MAX, Duration::MAX), Duration::MAX);
        // A turn-only budget (soft = hard) is never shortened, stable move or not.
        for d in 10..=14 {
            s.update(d, 1, 0);
        }
        assert_eq!(s.soft(hard, hard), hard);
    }

    #[test]
    fn a_new_match_limit_voids_the_old_time_left() {
        let mut tc = TimeControl::default();
        tc.set_match(10_000);
        tc.set_left(300);
        let short = tc.budget(200).hard;
        // The same limit again (a manager that repeats it) keeps time_left.
        tc.set_match(10_000);
        assert_eq!(tc.budget(200).hard, short);
        // The next game under a turn limit only: time_left no longer applies.
        tc.set_match(0);
        tc.turn_ms = Some(2000);
        assert_eq!(tc.budget(200).hard, Duration::from_millis(1900));
    }

    #[test]
    fn turn_limit() {
        let tc = TimeControl {
            turn_ms: Some(1000),
            match_ms: None,
            left_ms: None,
            ..TimeControl::default()
        };
        let b = tc.budget(200);
        assert_eq!(b.hard, Duration::from_millis(950));
        assert_eq!(b.soft, b.hard);
    }

    #[test]
    fn zero_turn_is_immediate() {
        let tc = TimeControl {
            turn_ms: Some(0),
            match_ms: None,
            left_ms: None,
            ..TimeControl::default()
        };
        assert_eq!(tc.budget(200).hard, Duration::ZERO);
    }

    #[test]
    fn match_time_is_split() {
        let tc = TimeControl {
            turn_ms: Some(30_000),
            match_ms: Some(180_000),
            left_ms: Some(60_000),
            spent_ms: 0,
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

    /// A manager that says `time_left` once (or only `timeout_match`): each answer's
    /// time comes off what is left, until it speaks again or a new game begins.
    #[test]
    fn our_own_spending_counts_until_the_manager_speaks() {
        let mut tc = TimeControl {
            turn_ms: Some(30_000),
            match_ms: Some(180_000),
            left_ms: None,
            spent_ms: 0,
        };
        let whole = tc.budget(200).hard;
        tc.spend(Duration::from_millis(170_000));
        let late = tc.budget(200).hard;
        assert!(
            late * 10 < whole,
            "{late:?} after 170 s of 180, {whole:?} before"
        );
        tc.set_left(60_000);
        assert_eq!(
            tc.budget(200),
            TimeControl { spent_ms: 0, ..tc }.budget(200)
        );
        tc.spend(Duration::from_millis(59_000));
        assert!(tc.budget(200).hard <= Duration::from_millis(1_000));
        tc.new_game();
        assert_eq!(tc.spent_ms, 0);
    }
}
