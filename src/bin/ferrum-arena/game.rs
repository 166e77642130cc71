//! One game between two engine processes: the pbrain conversation (as Piskvork and
//! c-gomoku-cli hold it), time keeping, and the referee's verdict.

use std::time::{Duration, Instant};

use anyhow::Result;

use ferrum::board::Color;
use ferrum::manager::process::{Process, ReadError};
use ferrum::manager::psq::Stone;
use ferrum::manager::referee::{Reason, Referee, Verdict};

/// How long an engine may take to answer `START` with `OK`. Generous because some
/// engines allocate their tables there; the move clock has not started yet.
pub const START_TIMEOUT: Duration = Duration::from_secs(5);
/// `INFO time_left` when there is no match limit (what Piskvork and c-gomoku-cli send).
const NO_TIME_LIMIT: i64 = 2_147_483_647;

/// Everything about a game except the engines and the opening.
#[derive(Debug, Clone)]
pub struct GameSettings {
    pub size: usize,
    /// Gomocup rule value: 0, 1, 4, 8 or 9.
    pub rule: i64,
    /// Milliseconds per move; 0 = no per-move limit (then `match_ms` must be set).
    pub turn_ms: u64,
    /// Milliseconds per game and engine; 0 = none.
    pub match_ms: u64,
    pub tolerance_ms: u64,
    /// Bytes; 0 = no limit.
    pub max_memory: u64,
    /// Nodes per move sent as `INFO max_node`; 0 = not sent.
    pub max_node: u64,
    pub draw_after: Option<usize>,
}

/// How a game went.
#[derive(Debug, Clone)]
pub struct GameOutcome {
    pub verdict: Verdict,
    /// Opening stones and moves in order (a forbidden move included, an illegal one not).
    pub stones: Vec<Stone>,
    /// The side whose process crashed or ran out of time: it must be restarted.
    pub broken: Option<Color>,
    /// Per colour, the longest a move took, from the request to the answer.
    pub slowest_ms: [u64; 2],
}

/// The side to move's answer to a move request.
enum Answer {
    Move(i64, i64, u64),
    Fault(Reason),
}

/// Plays one game. `engines` is `[black, white]`.
pub fn play(
    settings: &GameSettings,
    opening: &[(usize, usize)],
    engines: [&mut Process; 2],
) -> Result<GameOutcome> {
    let mut referee = Referee::new(settings.size, settings.rule, settings.draw_after)?;
    referee.place_opening(opening)?;
    let mut game = Game {
        settings,
        referee,
        stones: opening
            .iter()
            .map(|&(x, y)| Stone { x, y, ms: 0 })
            .collect(),
        engines,
        opening_len: opening.len(),
        used_ms: [0; 2],
        slowest_ms: [0; 2],
        synced: [false; 2],
    };
    Ok(game.run())
}

struct Game<'a> {
    settings: &'a GameSettings,
    referee: Referee,
    stones: Vec<Stone>,
    engines: [&'a mut Process; 2],
    opening_len: usize,
    /// Thinking time so far per colour.
    used_ms: [u64; 2],
    slowest_ms: [u64; 2],
    /// Whether the engine has been sent the position (BEGIN or BOARD) already.
    synced: [bool; 2],
}

impl Game<'_> {
    fn run(&mut self) -> GameOutcome {
        for color in Color::BOTH {
            if let Err(reason) = self.start(color) {
                return self.finish(Verdict::loss(color, reason));
            }
        }
        loop {
            if let Some(verdict) = self.referee.draw_due() {
                return self.finish(verdict);
            }
            let color = self.referee.to_move();
            match self.request_move(color) {
                Answer::Fault(reason) => return self.finish(Verdict::loss(color, reason)),
                Answer::Move(x, y, ms) => {
                    let verdict = self.referee.play(x, y);
                    let illegal = matches!(
                        verdict,
                        Some(Verdict {
                            reason: Reason::Illegal(_),
                            ..
                        })
                    );
                    if !illegal {
                        let (x, y) = (x as usize, y as usize);
                        self.stones.push(Stone { x, y, ms });
                    }
                    if let Some(verdict) = verdict {
                        return self.finish(verdict);
                    }
                }
            }
        }
    }

    fn finish(&self, verdict: Verdict) -> GameOutcome {
        let broken = match verdict.reason {
            Reason::TimeForfeit | Reason::Crash => verdict.winner.map(Color::opp),
            _ => None,
        };
        GameOutcome {
            verdict,
            stones: self.stones.clone(),
            broken,
            slowest_ms: self.slowest_ms,
        }
    }

    /// `START`, wait for `OK`, then the game's `INFO` lines.
    fn start(&mut self, color: Color) -> Result<(), Reason> {
        let s = self.settings;
        let engine = &mut *self.engines[color.idx()];
        // Late lines of the previous game must not be taken as answers.
        if !engine.drain() || !engine.send(&format!("START {}", s.size)) {
            return Err(Reason::Crash);
        }
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            match engine.read_timed_line(deadline) {
                Ok((line, _)) if line.eq_ignore_ascii_case("OK") => break,
                Ok((line, _)) if line.to_ascii_uppercase().starts_with("ERROR") => {
                    log::warn!("{} answered START with `{line}`", engine.program());
                    return Err(Reason::Crash);
                }
                // MESSAGE, DEBUG, noise; a line waiting is read even past the deadline,
                // so an engine that prints without end is timed by its lines' arrival.
                Ok((_, at)) if at > deadline => return Err(Reason::TimeForfeit),
                Ok(_) => continue,
                Err(ReadError::Timeout) => return Err(Reason::TimeForfeit),
                Err(ReadError::Closed) => return Err(Reason::Crash),
            }
        }
        // Gomocup's timeout_turn 0 means "answer at once", so with only a game limit
        // the game limit is also the move limit (as Piskvork does).
        let turn = if s.turn_ms > 0 { s.turn_ms } else { s.match_ms };
        let mut infos = vec![
            format!("INFO timeout_turn {turn}"),
            format!("INFO timeout_match {}", s.match_ms),
            format!("INFO max_memory {}", s.max_memory),
            format!("INFO rule {}", s.rule),
            "INFO game_type 1".to_string(),
        ];
        if s.max_node > 0 {
            infos.push(format!("INFO max_node {}", s.max_node));
        }
        for info in infos {
            if !engine.send(&info) {
                return Err(Reason::Crash);
            }
        }
        Ok(())
    }

    /// Sends the position or the last move and waits for a move within the limits.
    fn request_move(&mut self, color: Color) -> Answer {
        let (limit_ms, time_left) = move_limit(self.settings, self.used_ms[color.idx()]);
        let commands = self.move_commands(color);
        let engine = &mut *self.engines[color.idx()];
        // What it printed since its last answer (a move printed twice) must not be
        // taken for this one.
        if !engine.drain() || !engine.send(&format!("INFO time_left {time_left}")) {
            return Answer::Fault(Reason::Crash);
        }
        let start = Instant::now();
        let deadline = start + Duration::from_millis(limit_ms);
        for command in &commands {
            if !engine.send(command) {
                return Answer::Fault(Reason::Crash);
            }
        }
        let (x, y, arrived) = loop {
            match engine.read_timed_line(deadline) {
                Ok((line, at)) => match parse_move(&line) {
                    Some((x, y)) => break (x, y, at),
                    // As at START: an engine that never stops printing is timed too.
                    None if at > deadline => return Answer::Fault(Reason::TimeForfeit),
                    None => continue, // MESSAGE, DEBUG and anything else is skipped
                },
                Err(ReadError::Timeout) => return Answer::Fault(Reason::TimeForfeit),
                Err(ReadError::Closed) => return Answer::Fault(Reason::Crash),
            }
        };
        let ms = arrived.saturating_duration_since(start).as_millis() as u64;
        if ms > limit_ms {
            return Answer::Fault(Reason::TimeForfeit);
        }
        self.used_ms[color.idx()] += ms;
        self.slowest_ms[color.idx()] = self.slowest_ms[color.idx()].max(ms);
        Answer::Move(x, y, ms)
    }

    /// `BEGIN` on an empty board, `BOARD` with the opening (in game order) the first
    /// time an engine moves after one, `TURN x,y` otherwise.
    fn move_commands(&mut self, color: Color) -> Vec<String> {
        let first = !std::mem::replace(&mut self.synced[color.idx()], true);
        let moves = self.referee.moves();
        match moves.last() {
            None => vec!["BEGIN".into()],
            Some(&(x, y)) if !first || self.opening_len == 0 => vec![format!("TURN {x},{y}")],
            Some(_) => {
                let mut lines = vec!["BOARD".to_string()];
                // Stones alternate from Black; field 1 = the side to move's own stones.
                for (i, &(x, y)) in moves.iter().enumerate() {
                    let own = (i % 2 == 0) == (color == Color::Black);
                    lines.push(format!("{x},{y},{}", if own { 1 } else { 2 }));
                }
                lines.push("DONE".into());
                lines
            }
        }
    }
}

/// A move line: exactly `digits,digits` (after trimming). Numbers too large for i64
/// become i64::MAX, which is off any board.
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.trim().split_once(',')?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<i64>().unwrap_or(i64::MAX))
    };
    Some((number(x)?, number(y)?))
}

/// Milliseconds a move may take before it forfeits, tolerance included, for an engine
/// that has used `used_ms` of its game time, and the `time_left` to announce. The
/// tolerance is granted once per game as well as per move: an engine past its game
/// time by more than the tolerance forfeits, however small each overrun was.
fn move_limit(s: &GameSettings, used_ms: u64) -> (u64, i64) {
    let turn = if s.turn_ms > 0 {
        s.turn_ms
    } else {
        u64::MAX / 4
    };
    let turn_limit = turn.saturating_add(s.tolerance_ms);
    if s.match_ms == 0 {
        return (turn_limit, NO_TIME_LIMIT);
    }
    let left = s.match_ms as i64 - used_ms as i64;
    let game_limit = (left + s.tolerance_ms as i64).max(0) as u64;
    (turn_limit.min(game_limit), left)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_clock_forfeits_past_its_tolerance() {
        let s = GameSettings {
            size: 15,
            rule: 0,
            turn_ms: 0,
            match_ms: 10_000,
            tolerance_ms: 1_000,
            max_memory: 0,
            max_node: 0,
            draw_after: None,
        };
        assert_eq!(move_limit(&s, 0), (11_000, 10_000));
        assert_eq!(move_limit(&s, 9_500), (1_500, 500));
        // Over its game time: only what is left of the tolerance, then nothing.
        assert_eq!(move_limit(&s, 10_600), (400, -600));
        assert_eq!(move_limit(&s, 11_000), (0, -1_000));
        let per_move = GameSettings {
            turn_ms: 300,
            match_ms: 0,
            ..s.clone()
        };
        assert_eq!(move_limit(&per_move, 99_999), (1_300, NO_TIME_LIMIT));
        let both = GameSettings { turn_ms: 300, ..s };
        assert_eq!(move_limit(&both, 9_900), (1_100, 100));
    }

    #[test]
    fn move_lines() {
        assert_eq!(parse_move("7,8"), Some((7, 8)));
        assert_eq!(parse_move(" 10,0 "), Some((10, 0)));
        assert_eq!(parse_move("MESSAGE 7,8"), None);
        assert_eq!(parse_move("7, 8"), None);
        assert_eq!(parse_move("-1,3"), None);
        assert_eq!(parse_move("7,8,9"), None);
        assert_eq!(parse_move("OK"), None);
        assert_eq!(parse_move("99999999999999999999,1"), Some((i64::MAX, 1)));
    }
}
