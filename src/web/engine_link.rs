//! The board's engine: one pbrain process (the arena's [`Process`]), started when first
//! needed and again after a crash, and the reading of what it prints.

use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use crate::board::{Color, Pos, Rule};
use crate::manager::process::{Process, ReadError};

/// How long the engine may take to answer `START`.
const START_TIMEOUT: Duration = Duration::from_secs(5);
/// `INFO time_left` with no game clock (what Piskvork sends).
const NO_TIME_LIMIT: i64 = 2_147_483_647;

/// A search result line, from `MESSAGE depth 7-13 ev 35 n 1.2M n/ms 1100 tm 930 pv h8 i9`
/// or a `YXNBEST` line `MESSAGE (2) 35 | 7-13 | h8 i9`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SearchInfo {
    /// `YXNBEST` rank from 1; 0 for a progress line.
    pub rank: usize,
    pub depth: String,
    /// The evaluation as printed (`35`, `+M7`).
    pub ev: String,
    /// The evaluation as a number for the graph: mate scores become ±20000.
    pub score: Option<i32>,
    pub nodes: String,
    pub ms: Option<u64>,
    pub pv: Vec<(usize, usize)>,
}

/// One line from the engine, sorted.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    Info(SearchInfo),
    /// `x,y`.
    Move(i64, i64),
    /// `OK`.
    Ok,
    /// `ERROR …` or `UNKNOWN …`.
    Refused(String),
    /// Any other `MESSAGE`/`DEBUG` line.
    Message(String),
    /// Anything else: no reply a manager expects.
    Other(String),
}

/// Sorts one line the engine printed.
pub fn classify(line: &str) -> Line {
    let upper = line.to_ascii_uppercase();
    if upper == "OK" {
        return Line::Ok;
    }
    if upper.starts_with("ERROR") || upper.starts_with("UNKNOWN") {
        return Line::Refused(line.to_string());
    }
    if let Some(rest) = upper
        .strip_prefix("MESSAGE ")
        .map(|_| line["MESSAGE ".len()..].trim())
    {
        return match parse_progress(rest).or_else(|| parse_nbest(rest)) {
            Some(info) => Line::Info(info),
            None => Line::Message(line.to_string()),
        };
    }
    if upper.starts_with("DEBUG") || upper.starts_with("MESSAGE") {
        return Line::Message(line.to_string());
    }
    let mut parts = line.split(',');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(x), Some(y), None) => match (x.trim().parse(), y.trim().parse()) {
            (Ok(x), Ok(y)) => Line::Move(x, y),
            _ => Line::Other(line.to_string()),
        },
        _ => Line::Other(line.to_string()),
    }
}

/// `depth 7-13 ev 35 n 1.2M n/ms 1100 tm 930 pv h8 i9`.
fn parse_progress(text: &str) -> Option<SearchInfo> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.first() != Some(&"depth") {
        return None;
    }
    let after = |key: &str| {
        let i = words.iter().position(|w| *w == key)?;
        words.get(i + 1).copied()
    };
    let ev = after("ev")?.to_string();
    let pv_at = words.iter().position(|w| *w == "pv");
    Some(SearchInfo {
        rank: 0,
        depth: words.get(1)?.to_string(),
        score: score(&ev),
        ev,
        nodes: after("n").unwrap_or("").to_string(),
        ms: after("tm").and_then(|t| t.parse().ok()),
        pv: pv_at.map_or(Vec::new(), |i| moves(&words[i + 1..])),
    })
}

/// `(2) 35 | 7-13 | h8 i9`.
fn parse_nbest(text: &str) -> Option<SearchInfo> {
    let rest = text.strip_prefix('(')?;
    let (rank, rest) = rest.split_once(')')?;
    let fields: Vec<&str> = rest.split('|').map(str::trim).collect();
    let [ev, depth, pv] = fields[..] else {
        return None;
    };
    let words: Vec<&str> = pv.split_whitespace().collect();
    Some(SearchInfo {
        rank: rank.trim().parse().ok()?,
        depth: depth.to_string(),
        ev: ev.to_string(),
        score: score(ev),
        pv: moves(&words),
        ..SearchInfo::default()
    })
}

/// A principal variation, up to its first word that is not a move.
fn moves(words: &[&str]) -> Vec<(usize, usize)> {
    words.iter().map_while(|w| Pos::parse_notation(w)).collect()
}

fn score(ev: &str) -> Option<i32> {
    const MATE: i32 = 20_000;
    match ev.strip_prefix('+').unwrap_or(ev) {
        m if m.starts_with('M') => Some(MATE),
        m if m.starts_with("-M") => Some(-MATE),
        n => n.parse::<i32>().ok().map(|v| v.clamp(-MATE, MATE)),
    }
}

/// The engine process and what it was last told.
pub struct EngineLink {
    command: Vec<String>,
    process: Option<Process>,
    /// The board size of the last `START` it answered.
    started: Option<usize>,
    /// The position of the request in progress, and whether the engine adds its
    /// answer to its own board (`BEGIN`, `TURN`, `BOARD` do; `YXNBEST` is not relied on).
    asked: Option<(Vec<(usize, usize)>, bool)>,
    /// The engine's own board once it answered, when known: the next request can then
    /// be a plain `TURN`, which keeps its search tables' work, and any other is
    /// `START` and `BOARD` (some engines do not clear their board on `BOARD`).
    known: Option<Vec<(usize, usize)>>,
    /// The rule of the last request: a `TURN` goes only under the same rule (engines
    /// that read the rule at `START` would play on under the old one).
    rule: Option<Rule>,
    name: String,
}

impl EngineLink {
    pub fn new(command: Vec<String>) -> EngineLink {
        let name = command.first().map_or(String::new(), |p| {
            std::path::Path::new(p)
                .file_name()
                .map_or(p.clone(), |f| f.to_string_lossy().into_owned())
        });
        EngineLink {
            command,
            process: None,
            started: None,
            asked: None,
            known: None,
            rule: None,
            name,
        }
    }

    /// The engine's `ABOUT` name once it has started, else its program name.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn is_running(&self) -> bool {
        self.process.is_some()
    }

    /// Starts the process if needed (asking its name) and, when `fresh` or at another
    /// size, a new board of `size`.
    fn ready(&mut self, size: usize, fresh: bool) -> Result<&mut Process> {
        if self.process.is_none() {
            let mut process = Process::spawn(&self.command)?;
            if let Some(name) = process.about_name() {
                self.name = name;
            }
            self.process = Some(process);
            self.started = None;
        }
        if fresh || self.started != Some(size) {
            let process = self.process.as_mut().expect("started above");
            process.drain();
            if !process.send(&format!("START {size}")) {
                bail!("the engine is gone");
            }
            let deadline = Instant::now() + START_TIMEOUT;
            loop {
                match process.read_line(deadline) {
                    Ok(line) => match classify(&line) {
                        Line::Ok => break,
                        Line::Refused(text) => bail!("the engine refused START {size}: {text}"),
                        _ => continue,
                    },
                    Err(ReadError::Timeout) => bail!("the engine did not answer START {size}"),
                    Err(ReadError::Closed) => bail!("the engine exited at START {size}"),
                }
            }
            self.started = Some(size);
        }
        Ok(self.process.as_mut().expect("started above"))
    }

    /// Sends `lines` after readying a board of `size`; an error means the engine is
    /// unusable (it is then ended, and started again next time).
    fn send_all(&mut self, size: usize, fresh: bool, lines: &[String]) -> Result<()> {
        self.known = None;
        let sent = self.ready(size, fresh).map(|p| {
            p.drain();
            lines.iter().all(|l| p.send(l))
        });
        match sent {
            Ok(true) => Ok(()),
            Ok(false) => {
                self.end();
                bail!("the engine is gone")
            }
            Err(e) => {
                self.end();
                Err(e)
            }
        }
    }

    /// Asks for a move in the position `stones` (game order) with `ms` to think.
    pub fn ask_move(
        &mut self,
        size: usize,
        rule: Rule,
        stones: &[(usize, usize)],
        ms: u64,
    ) -> Result<()> {
        let mut lines = settings(rule, ms);
        let turn = match (&self.known, stones.split_last()) {
            (Some(known), Some((last, before)))
                if self.started == Some(size) && self.rule == Some(rule) && known == before =>
            {
                Some(last)
            }
            _ => None,
        };
        if let Some((x, y)) = turn {
            lines.push(format!("TURN {x},{y}"));
        } else if stones.is_empty() {
            lines.push("BEGIN".into());
        } else {
            lines.push("BOARD".into());
            lines.extend(position(stones));
            lines.push("DONE".into());
        }
        self.send_all(size, turn.is_none(), &lines)?;
        self.asked = Some((stones.to_vec(), true));
        self.rule = Some(rule);
        Ok(())
    }

    /// The engine answered `x,y` to the request in progress.
    pub fn answered(&mut self, x: i64, y: i64) {
        if let Some((mut stones, true)) = self.asked.take() {
            if let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) {
                stones.push((x, y));
                self.known = Some(stones);
            }
        }
    }

    /// Asks for the `n` best moves (`YXNBEST`) with `ms` to think.
    pub fn ask_nbest(
        &mut self,
        size: usize,
        rule: Rule,
        stones: &[(usize, usize)],
        n: usize,
        ms: u64,
    ) -> Result<()> {
        let mut lines = settings(rule, ms);
        lines.push("YXBOARD".into());
        lines.extend(position(stones));
        lines.push("DONE".into());
        lines.push(format!("YXNBEST {n}"));
        self.send_all(size, true, &lines)?;
        self.asked = Some((stones.to_vec(), false));
        self.rule = Some(rule);
        Ok(())
    }

    /// Asks the search to answer now (`YXSTOP`; Ferrum also reads `STOP`).
    pub fn stop(&mut self) {
        if let Some(p) = self.process.as_mut() {
            p.send("YXSTOP");
        }
    }

    /// The next line, if one is waiting; `Err` when the engine has exited.
    pub fn poll(&mut self) -> Result<Option<String>, ReadError> {
        let Some(p) = self.process.as_ref() else {
            return Ok(None);
        };
        match p.read_line(Instant::now()) {
            Ok(line) => Ok(Some(line)),
            Err(ReadError::Timeout) => Ok(None),
            Err(ReadError::Closed) => {
                self.process = None;
                self.started = None;
                self.known = None;
                Err(ReadError::Closed)
            }
        }
    }

    /// Ends the process now (`END`, a short grace, then kill); the next request starts
    /// a new one.
    pub fn end(&mut self) {
        self.started = None;
        self.known = None;
        if let Some(p) = self.process.take() {
            p.close();
        }
    }
}

impl Drop for EngineLink {
    fn drop(&mut self) {
        self.end();
    }
}

fn settings(rule: Rule, ms: u64) -> Vec<String> {
    vec![
        format!("INFO rule {}", rule.gomocup_value()),
        format!("INFO timeout_turn {ms}"),
        format!("INFO time_left {NO_TIME_LIMIT}"),
    ]
}

/// `x,y,f` lines for `BOARD`/`YXBOARD`: 1 for the side to move's stones.
fn position(stones: &[(usize, usize)]) -> Vec<String> {
    let to_move = Color::of_stone(stones.len());
    stones
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| {
            let own = if Color::of_stone(i) == to_move { 1 } else { 2 };
            format!("{x},{y},{own}")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_sorted() {
        let info = classify("MESSAGE depth 7-13 ev -35 n 1.2M n/ms 1100 tm 930 pv h8 i9 j10");
        let Line::Info(info) = info else {
            panic!("{info:?}")
        };
        assert_eq!((info.depth.as_str(), info.score), ("7-13", Some(-35)));
        assert_eq!(info.pv, vec![(7, 7), (8, 8), (9, 9)]);
        assert_eq!(info.ms, Some(930));
        let Line::Info(nb) = classify("MESSAGE (2) +M7 | 5-9 | h8 i9") else {
            panic!()
        };
        assert_eq!((nb.rank, nb.score, nb.pv.len()), (2, Some(20_000), 2));
        assert_eq!(classify(" 7,8"), Line::Move(7, 8));
        assert_eq!(classify("ok"), Line::Ok);
        assert!(matches!(classify("UNKNOWN x"), Line::Refused(_)));
        assert!(matches!(classify("MESSAGE hello"), Line::Message(_)));
        assert!(matches!(classify("MESSAGE depth x"), Line::Message(_)));
        assert!(matches!(classify("7,8,9"), Line::Other(_)));
        assert!(matches!(classify("SWAP"), Line::Other(_)));
    }

    #[test]
    fn board_fields_are_the_side_to_moves() {
        assert_eq!(
            position(&[(7, 7), (8, 8), (9, 9)]),
            ["7,7,2", "8,8,1", "9,9,2"]
        );
    }
}
