//! Parsing of protocol lines into commands. Case-insensitive; the caller has already
//! split lines on CR, LF or CRLF.

use std::str::FromStr;

/// A point as the manager wrote it; the session checks it against the board.
pub type Coord = (i64, i64);

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Start(i64, i64),
    RectStart(i64, i64),
    Restart,
    Begin,
    Turn(Coord),
    Board,
    YxBoard,
    Swap2Board,
    Done,
    Info(String, String),
    End,
    About,
    Takeback(Coord),
    Play(Coord),
    Stop,
    /// `YXNBEST n`: the best n moves with their scores and lines, then the best move.
    NBest(usize),
    /// `YXSHOWFORBID`: Black's renju forbidden points.
    ShowForbid,
    /// `YXHASHCLEAR`: clear the transposition table.
    HashClear,
    /// `YXSHOWINFO`: engine limits for the GUI.
    ShowInfo,
    /// `YXBALANCEONE b` / `YXBALANCETWO b`: one (two) moves leaving the position at b.
    Balance {
        two: bool,
        bias: i32,
    },
    /// A known command with bad arguments: reply `ERROR`.
    Malformed(String),
    /// Not a command we know: reply `UNKNOWN`.
    Unknown(String),
}

/// Parses `x,y` (spaces around the numbers allowed).
pub fn parse_coord(s: &str) -> Option<Coord> {
    let (x, y) = s.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// A line inside a BOARD/YXBOARD block: `x,y,f` with f in 1..=3.
pub fn parse_board_line(s: &str) -> Option<(Coord, u8)> {
    let mut parts = s.split(',').map(str::trim);
    let x = parts.next()?.parse().ok()?;
    let y = parts.next()?.parse().ok()?;
    let f: u8 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || !(1..=3).contains(&f) {
        return None;
    }
    Some(((x, y), f))
}

impl FromStr for Command {
    type Err = std::convert::Infallible;

    fn from_str(line: &str) -> Result<Command, Self::Err> {
        let line = line.trim();
        let (word, rest) = match line.split_once(|c: char| c.is_ascii_whitespace()) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let word = word.to_ascii_uppercase();
        let bad = || Command::Malformed(format!("bad arguments for {word}: '{rest}'"));
        let coord_cmd =
            |make: fn(Coord) -> Command| parse_coord(rest).map(make).unwrap_or_else(bad);
        let cmd = match word.as_str() {
            "START" => {
                let nums: Vec<Option<i64>> =
                    rest.split_whitespace().map(|t| t.parse().ok()).collect();
                match nums.as_slice() {
                    [Some(n)] => Command::Start(*n, *n),
                    [Some(w), Some(h)] => Command::Start(*w, *h),
                    _ => bad(),
                }
            }
            "RECTSTART" => match parse_coord(rest) {
                Some((w, h)) => Command::RectStart(w, h),
                None => bad(),
            },
            "RESTART" => Command::Restart,
            "BEGIN" => Command::Begin,
            "TURN" => coord_cmd(Command::Turn),
            "TAKEBACK" => coord_cmd(Command::Takeback),
            "PLAY" => coord_cmd(Command::Play),
            "BOARD" => Command::Board,
            "YXBOARD" => Command::YxBoard,
            "SWAP2BOARD" => Command::Swap2Board,
            "DONE" => Command::Done,
            "END" => Command::End,
            "ABOUT" => Command::About,
            "YXSTOP" | "STOP" => Command::Stop,
            "YXNBEST" => match rest.parse::<i64>() {
                Ok(n) if n > 0 => Command::NBest(n.min(225) as usize),
                _ => bad(),
            },
            "YXSHOWFORBID" => Command::ShowForbid,
            "YXHASHCLEAR" => Command::HashClear,
            "YXSHOWINFO" => Command::ShowInfo,
            "YXBALANCEONE" | "YXBALANCETWO" => {
                let two = word == "YXBALANCETWO";
                // Yixin-Board always sends the bias; a missing one means 0.
                match rest.split_whitespace().next().map(str::parse::<i64>) {
                    None => Command::Balance { two, bias: 0 },
                    Some(Ok(b)) => Command::Balance {
                        two,
                        bias: b.clamp(-20_000, 20_000) as i32,
                    },
                    Some(Err(_)) => bad(),
                }
            }
            "INFO" => match rest.split_once(|c: char| c.is_ascii_whitespace()) {
                Some((k, v)) => Command::Info(k.to_ascii_lowercase(), v.trim().to_string()),
                None => Command::Info(rest.to_ascii_lowercase(), String::new()),
            },
            _ => Command::Unknown(line.to_string()),
        };
        Ok(cmd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Command {
        s.parse().unwrap()
    }

    #[test]
    fn parses_commands() {
        assert_eq!(p("START 15"), Command::Start(15, 15));
        assert_eq!(p("start 20 15"), Command::Start(20, 15));
        assert_eq!(p("RECTSTART 20,15"), Command::RectStart(20, 15));
        assert_eq!(p("turn 7, 8"), Command::Turn((7, 8)));
        assert_eq!(
            p("INFO TIMEOUT_TURN 100"),
            Command::Info("timeout_turn".into(), "100".into())
        );
        assert_eq!(
            p("INFO folder C:\\a b"),
            Command::Info("folder".into(), "C:\\a b".into())
        );
        assert!(matches!(p("TURN abc"), Command::Malformed(_)));
        assert!(matches!(p("START"), Command::Malformed(_)));
        assert!(matches!(p("FOO 1"), Command::Unknown(_)));
        assert_eq!(p("yxnbest 3"), Command::NBest(3));
        assert!(matches!(p("YXNBEST"), Command::Malformed(_)));
        assert!(matches!(p("YXNBEST 0"), Command::Malformed(_)));
        assert_eq!(p("YXSHOWFORBID"), Command::ShowForbid);
        assert_eq!(p("yxhashclear"), Command::HashClear);
        assert_eq!(p("YXSHOWINFO"), Command::ShowInfo);
        assert_eq!(
            p("YXBALANCEONE -30"),
            Command::Balance {
                two: false,
                bias: -30
            }
        );
        assert_eq!(p("yxbalancetwo"), Command::Balance { two: true, bias: 0 });
        assert!(matches!(p("YXBALANCETWO x"), Command::Malformed(_)));
        assert_eq!(parse_board_line("3,4,1"), Some(((3, 4), 1)));
        assert_eq!(parse_board_line("3,4,4"), None);
        assert_eq!(parse_board_line("garbage"), None);
    }
}
