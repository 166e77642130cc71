//! The WebSocket messages: what the page may ask (parsed and checked here, so that the
//! session only sees valid requests) and the JSON the server sends back.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::board::{Rule, MAX_SIZE, MIN_SIZE};

/// Longest thinking time the page may ask for, per move or analysis.
pub const MAX_TIME_MS: u64 = 600_000;
/// Shortest: below this no engine answers reliably.
pub const MIN_TIME_MS: u64 = 20;
/// Most candidate lines for `YXNBEST`.
pub const MAX_NBEST: usize = 10;

/// Who plays a colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    Human,
    Engine,
}

/// A record format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Piskvork's `.psq`.
    Psq,
    /// The move list, `h8i9j10`.
    Moves,
}

/// A request from the page, as it arrives.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Raw {
    New {
        size: usize,
        rule: String,
    },
    Play {
        x: i64,
        y: i64,
    },
    Undo,
    Redo,
    Swap,
    Players {
        black: Player,
        white: Player,
    },
    Time {
        ms: u64,
    },
    Go,
    Analyse,
    Nbest {
        n: usize,
    },
    Stop,
    Load {
        format: Format,
        text: String,
        size: Option<usize>,
        rule: Option<String>,
    },
    Save {
        format: Format,
    },
}

/// A checked request.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// An empty board of this size and rule (players and time are kept).
    New {
        size: usize,
        rule: Rule,
    },
    /// The side to move plays here (a human's click; checked by the referee).
    Play {
        x: i64,
        y: i64,
    },
    Undo,
    Redo,
    /// The players change colours.
    Swap,
    Players {
        black: Player,
        white: Player,
    },
    /// Thinking time per move.
    Time {
        ms: u64,
    },
    /// The engine plays the side to move now.
    Go,
    /// The engine thinks about the position, plays nothing, until stopped.
    Analyse,
    /// The engine's `n` best moves (`YXNBEST`).
    Nbest {
        n: usize,
    },
    /// Stop the engine's search (`YXSTOP`); a move search then plays what it has.
    Stop,
    /// A record replaces the game; size and rule default to the current ones.
    Load {
        format: Format,
        text: String,
        size: Option<usize>,
        rule: Option<Rule>,
    },
    Save {
        format: Format,
    },
}

/// Reads one text message; the error is what the page is told.
pub fn parse(text: &str) -> Result<Request, String> {
    let raw: Raw = serde_json::from_str(text).map_err(|e| format!("bad message: {e}"))?;
    let size_ok = |size: usize| {
        if (MIN_SIZE..=MAX_SIZE).contains(&size) {
            Ok(size)
        } else {
            Err(format!(
                "board size {size} is not in {MIN_SIZE}..{MAX_SIZE}"
            ))
        }
    };
    let rule = |name: &str| Rule::from_name(name).ok_or(format!("unknown rule {name:?}"));
    Ok(match raw {
        Raw::New { size, rule: r } => Request::New {
            size: size_ok(size)?,
            rule: rule(&r)?,
        },
        Raw::Play { x, y } => Request::Play { x, y },
        Raw::Undo => Request::Undo,
        Raw::Redo => Request::Redo,
        Raw::Swap => Request::Swap,
        Raw::Players { black, white } => Request::Players { black, white },
        Raw::Time { ms } if (MIN_TIME_MS..=MAX_TIME_MS).contains(&ms) => Request::Time { ms },
        Raw::Time { ms } => {
            return Err(format!(
                "time {ms} ms is not in {MIN_TIME_MS}..{MAX_TIME_MS}"
            ))
        }
        Raw::Go => Request::Go,
        Raw::Analyse => Request::Analyse,
        Raw::Nbest { n } if (1..=MAX_NBEST).contains(&n) => Request::Nbest { n },
        Raw::Nbest { n } => return Err(format!("{n} candidates is not in 1..{MAX_NBEST}")),
        Raw::Stop => Request::Stop,
        Raw::Load {
            format,
            text,
            size,
            rule: r,
        } => Request::Load {
            format,
            text,
            size: size.map(size_ok).transpose()?,
            rule: r.as_deref().map(rule).transpose()?,
        },
        Raw::Save { format } => Request::Save { format },
    })
}

/// `{"type":"error","message":…}`: a request refused, or something gone wrong.
pub fn error(message: &str) -> Value {
    json!({"type": "error", "message": message})
}

/// `{"type":"engine","status":…,"message":…}`: the engine's state changed.
pub fn engine(status: &str, message: &str) -> Value {
    json!({"type": "engine", "status": status, "message": message})
}

/// `{"type":"log","line":…}`: a line the engine printed that is shown as it is.
pub fn log(line: &str) -> Value {
    json!({"type": "log", "line": line})
}

/// `{"type":"record","format":…,"text":…}`: the answer to `save`.
pub fn record(format: Format, text: &str) -> Value {
    json!({"type": "record", "format": format, "text": text})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_checked() {
        assert_eq!(
            parse(r#"{"type":"new","size":20,"rule":"renju"}"#),
            Ok(Request::New {
                size: 20,
                rule: Rule::Renju
            })
        );
        assert_eq!(
            parse(r#"{"type":"play","x":3,"y":-1}"#),
            Ok(Request::Play { x: 3, y: -1 })
        );
        for bad in [
            "",
            "{",
            "[]",
            r#"{"type":"fly"}"#,
            r#"{"type":"new","size":33,"rule":"renju"}"#,
            r#"{"type":"new","size":15,"rule":"chess"}"#,
            r#"{"type":"play","x":1e30,"y":0}"#,
            r#"{"type":"play","x":"a","y":0}"#,
            r#"{"type":"time","ms":0}"#,
            r#"{"type":"nbest","n":100}"#,
            r#"{"type":"players","black":"god","white":"human"}"#,
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
