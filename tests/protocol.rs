//! Protocol transcripts: plays every `protocol-tests/*.txt` file against the real
//! `pbrain-ferrum` binary with real bytes on its stdin and checks its stdout line by
//! line. The transcript format is described in `protocol-tests/README.md`.
//!
//! Set `PROTOCOL_TEST=substring` to run only the transcripts whose file name contains
//! the substring, and `FERRUM_ENGINE=CMD` to run them against another engine command.

use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long an expectation waits for its line unless `! within` says otherwise.
const DEFAULT_WAIT: Duration = Duration::from_secs(10);
/// How long the engine may take to exit after the END the harness sends itself.
const FINAL_EXIT_WAIT: Duration = Duration::from_secs(3);
/// Transcripts run in parallel on this many threads (the CI machine has 2 cores).
const WORKERS: usize = 2;
/// Output lines kept for failure reports.
const HISTORY: usize = 6;

// ---------------------------------------------------------------------------------
// Transcript parsing
// ---------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
enum Expect {
    /// `< TEXT`
    Exact(String),
    /// `< @move`
    Move,
    /// `< @moves N`
    Moves(usize),
    /// `< @swap2reply`
    Swap2Reply,
    /// `< @error`
    Error,
    /// `< @unknown`
    Unknown,
    /// `< @message`
    Message,
    /// `< @about`
    About,
    /// `< @forbid`
    Forbid,
    /// `< @nbest N`
    NBest(usize),
    /// `< @realtime KIND`
    Realtime(String),
    /// `< @played N`
    Played(usize),
}

#[derive(Debug, Clone, PartialEq)]
enum Step {
    /// Bytes to write to the engine's stdin (eol already appended or escapes resolved).
    Send(String),
    Expect(Expect),
    /// `! silent MS`
    Silent(u64),
    /// `! exit MS`
    Exit(u64),
    /// `! within MS`
    Within(u64),
}

#[derive(Debug, Clone)]
struct Item {
    /// 1-based line number in the transcript file.
    line: usize,
    /// The transcript line itself, for reports.
    src: String,
    step: Step,
}

fn parse_ms(s: &str, line: usize) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| format!("line {line}: expected milliseconds, got {s:?}"))
}

fn unescape(s: &str, line: usize) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('r') => out.push('\r'),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            other => return Err(format!("line {line}: bad escape \\{other:?} in >raw")),
        }
    }
    Ok(out)
}

fn parse_expect(text: &str, line: usize) -> Result<Expect, String> {
    if !text.starts_with('@') {
        return Ok(Expect::Exact(text.to_string()));
    }
    let mut words = text.split_whitespace();
    let kind = words.next().unwrap_or("");
    let arg = words.next();
    if words.next().is_some() {
        return Err(format!("line {line}: too many words in {text:?}"));
    }
    let no_arg = |e: Expect| match arg {
        None => Ok(e),
        Some(_) => Err(format!("line {line}: {kind} takes no argument")),
    };
    match kind {
        "@move" => no_arg(Expect::Move),
        "@swap2reply" => no_arg(Expect::Swap2Reply),
        "@error" => no_arg(Expect::Error),
        "@unknown" => no_arg(Expect::Unknown),
        "@message" => no_arg(Expect::Message),
        "@about" => no_arg(Expect::About),
        "@forbid" => no_arg(Expect::Forbid),
        "@moves" | "@nbest" | "@played" => {
            let n = arg
                .and_then(|a| a.parse::<usize>().ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("line {line}: {kind} needs a count"))?;
            Ok(match kind {
                "@moves" => Expect::Moves(n),
                "@nbest" => Expect::NBest(n),
                _ => Expect::Played(n),
            })
        }
        "@realtime" => match arg {
            Some(k) if REALTIME_KINDS.contains(&k) => Ok(Expect::Realtime(k.to_string())),
            _ => Err(format!(
                "line {line}: @realtime needs one of {REALTIME_KINDS:?}"
            )),
        },
        _ => Err(format!("line {line}: unknown pattern {kind:?}")),
    }
}

fn parse_transcript(text: &str) -> Result<Vec<Item>, String> {
    let mut eol = "\n";
    let mut items = Vec::new();
    for (i, raw_line) in text.lines().enumerate() {
        let line = i + 1;
        let src = raw_line.trim_end();
        if src.is_empty() || src.starts_with('#') {
            continue;
        }
        let step = if let Some(rest) = src.strip_prefix(">raw ") {
            Step::Send(unescape(rest, line)?)
        } else if src == ">" {
            Step::Send(eol.to_string())
        } else if let Some(rest) = src.strip_prefix("> ") {
            Step::Send(format!("{rest}{eol}"))
        } else if let Some(rest) = src.strip_prefix("< ") {
            Step::Expect(parse_expect(rest, line)?)
        } else if let Some(rest) = src.strip_prefix("! ") {
            let (cmd, arg) = rest.split_once(' ').unwrap_or((rest, ""));
            match cmd {
                "eol" => {
                    eol = match arg.trim() {
                        "lf" => "\n",
                        "crlf" => "\r\n",
                        "cr" => "\r",
                        other => return Err(format!("line {line}: unknown eol {other:?}")),
                    };
                    continue;
                }
                "silent" => Step::Silent(parse_ms(arg, line)?),
                "exit" => Step::Exit(parse_ms(arg, line)?),
                "within" => Step::Within(parse_ms(arg, line)?),
                _ => return Err(format!("line {line}: unknown directive {cmd:?}")),
            }
        } else {
            return Err(format!("line {line}: cannot parse {src:?}"));
        };
        items.push(Item {
            line,
            src: src.to_string(),
            step,
        });
    }
    Ok(items)
}

// ---------------------------------------------------------------------------------
// The harness's own board model
// ---------------------------------------------------------------------------------

const EMPTY: u8 = 0;
const ENGINE: u8 = 1;
const OPPONENT: u8 = 2;
const WALL: u8 = 3;

#[derive(Debug, Clone)]
struct Board {
    w: i32,
    h: i32,
    cells: Vec<u8>,
}

impl Board {
    fn new(w: i32, h: i32) -> Board {
        Board {
            w,
            h,
            cells: vec![EMPTY; (w * h) as usize],
        }
    }

    fn on_board(&self, (x, y): (i32, i32)) -> bool {
        (0..self.w).contains(&x) && (0..self.h).contains(&y)
    }

    fn get(&self, (x, y): (i32, i32)) -> u8 {
        self.cells[(y * self.w + x) as usize]
    }

    fn set(&mut self, (x, y): (i32, i32), v: u8) {
        self.cells[(y * self.w + x) as usize] = v;
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum BlockKind {
    /// BOARD or YXBOARD: lines `x,y,f`.
    Board,
    /// SWAP2BOARD: lines `x,y`.
    Swap2,
}

#[derive(Debug)]
struct Block {
    kind: BlockKind,
    stones: Vec<((i32, i32), u8)>,
    bad: bool,
}

/// What the harness believes the position is, updated from the lines it sends and
/// the moves the engine plays. Invalid coordinates in sent lines are ignored.
#[derive(Debug, Default)]
struct Model {
    board: Option<Board>,
    /// Size from the last START/RECTSTART, applied when the next expected line is OK.
    pending_size: Option<(i32, i32)>,
    /// Inside a BOARD/YXBOARD/SWAP2BOARD block.
    block: Option<Block>,
    /// Stones of the last SWAP2BOARD block, until the next command.
    swap2: Option<Vec<(i32, i32)>>,
    /// The point of the last PLAY command, until the next command.
    play: Option<(i32, i32)>,
    /// Sent text not yet ended by CR or LF.
    partial: String,
}

fn parse_point(s: &str) -> Option<(i32, i32)> {
    let (x, y) = s.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// A move as the engine must print it: `x,y`, digits only, no spaces.
fn parse_move_strict(s: &str) -> Option<(i32, i32)> {
    let (x, y) = s.split_once(',')?;
    let digits = |t: &str| !t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(x) || !digits(y) {
        return None;
    }
    Some((x.parse().ok()?, y.parse().ok()?))
}

impl Model {
    fn feed(&mut self, text: &str) {
        for c in text.chars() {
            if c == '\r' || c == '\n' {
                let line = std::mem::take(&mut self.partial);
                self.command(&line);
            } else {
                self.partial.push(c);
            }
        }
    }

    fn command(&mut self, line: &str) {
        let t = line.trim();
        if t.is_empty() {
            return;
        }
        if let Some(block) = &mut self.block {
            if t.eq_ignore_ascii_case("DONE") {
                let block = self.block.take().expect("in a block");
                self.finish_block(block);
                return;
            }
            let parsed = match block.kind {
                BlockKind::Board => t.rsplit_once(',').and_then(|(p, f)| {
                    let f = f
                        .trim()
                        .parse::<u8>()
                        .ok()
                        .filter(|f| (1..=3).contains(f))?;
                    Some((parse_point(p)?, f))
                }),
                BlockKind::Swap2 => parse_point(t).map(|p| (p, OPPONENT)),
            };
            match parsed {
                Some(s) => block.stones.push(s),
                None => block.bad = true,
            }
            return;
        }
        self.swap2 = None;
        self.play = None;
        let (cmd, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        let rest = rest.trim();
        match cmd.to_ascii_uppercase().as_str() {
            "START" => {
                let nums: Vec<Option<i32>> =
                    rest.split_whitespace().map(|s| s.parse().ok()).collect();
                self.pending_size = match nums[..] {
                    [Some(n)] => Some((n, n)),
                    [Some(w), Some(h)] => Some((w, h)),
                    _ => None,
                };
            }
            "RECTSTART" => self.pending_size = parse_point(rest),
            "RESTART" => {
                if let Some(b) = &mut self.board {
                    *b = Board::new(b.w, b.h);
                }
            }
            "TURN" => {
                if let (Some(b), Some(p)) = (&mut self.board, parse_point(rest)) {
                    if b.on_board(p) && b.get(p) == EMPTY {
                        b.set(p, OPPONENT);
                    }
                }
            }
            "TAKEBACK" => {
                if let (Some(b), Some(p)) = (&mut self.board, parse_point(rest)) {
                    if b.on_board(p) {
                        b.set(p, EMPTY);
                    }
                }
            }
            "PLAY" => self.play = parse_point(rest),
            "BOARD" | "YXBOARD" => {
                self.block = Some(Block {
                    kind: BlockKind::Board,
                    stones: Vec::new(),
                    bad: false,
                })
            }
            "SWAP2BOARD" => {
                self.block = Some(Block {
                    kind: BlockKind::Swap2,
                    stones: Vec::new(),
                    bad: false,
                })
            }
            _ => {}
        }
    }

    fn finish_block(&mut self, block: Block) {
        let Some(board) = &self.board else { return };
        let mut seen = HashSet::new();
        let valid = !block.bad
            && block
                .stones
                .iter()
                .all(|&(p, _)| board.on_board(p) && seen.insert(p));
        if !valid {
            return; // the engine must answer ERROR and keep its position
        }
        match block.kind {
            BlockKind::Board => {
                let mut b = Board::new(board.w, board.h);
                for &(p, f) in &block.stones {
                    b.set(p, f);
                }
                self.board = Some(b);
            }
            BlockKind::Swap2 => self.swap2 = Some(block.stones.iter().map(|&(p, _)| p).collect()),
        }
    }

    /// Called with the line that satisfied (or failed) the first expectation after a
    /// START/RECTSTART.
    fn maybe_apply_size(&mut self, reply: &str) {
        if let Some((w, h)) = self.pending_size.take() {
            if reply == "OK" && (1..=64).contains(&w) && (1..=64).contains(&h) {
                self.board = Some(Board::new(w, h));
            }
        }
    }

    /// Checks that `p` is a point the engine may play now: on the board, empty, and
    /// not one of the SWAP2BOARD stones.
    fn check_legal(&self, p: (i32, i32)) -> Result<(), String> {
        let b = self
            .board
            .as_ref()
            .ok_or("the harness has no board (no START answered OK)")?;
        if !b.on_board(p) {
            return Err(format!("{},{} is off the {}x{} board", p.0, p.1, b.w, b.h));
        }
        let what = match b.get(p) {
            EMPTY => None,
            ENGINE => Some("the engine's stone"),
            OPPONENT => Some("the opponent's stone"),
            WALL => Some("a wall stone"),
            _ => Some("?"),
        };
        if let Some(what) = what {
            return Err(format!("{},{} is occupied by {what}", p.0, p.1));
        }
        if self.swap2.as_ref().is_some_and(|s| s.contains(&p)) {
            return Err(format!("{},{} is occupied by a SWAP2BOARD stone", p.0, p.1));
        }
        Ok(())
    }

    /// Checks a line of distinct legal moves separated by single spaces.
    fn check_move_list(&self, line: &str, counts: &[usize]) -> Result<(), String> {
        let mut seen = HashSet::new();
        let parts: Vec<&str> = line.split(' ').collect();
        if !counts.contains(&parts.len()) {
            return Err(format!(
                "expected {counts:?} moves separated by single spaces, got {} part(s)",
                parts.len()
            ));
        }
        for part in parts {
            let p = parse_move_strict(part).ok_or_else(|| format!("{part:?} is not x,y"))?;
            self.check_legal(p)?;
            if !seen.insert(p) {
                return Err(format!("{part} is listed twice"));
            }
        }
        Ok(())
    }

    fn record_engine_move(&mut self, p: (i32, i32)) {
        if let Some(b) = &mut self.board {
            if b.on_board(p) && b.get(p) == EMPTY {
                b.set(p, ENGINE);
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// Line patterns
// ---------------------------------------------------------------------------------

/// The `MESSAGE REALTIME` kinds Yixin-Board reads.
const REALTIME_KINDS: [&str; 5] = ["POS", "BEST", "DONE", "LOST", "REFRESH"];

/// A point in move-list notation (`h8` is 7,7; `aa1` is 26,0).
fn parse_notation(s: &str) -> Option<(i32, i32)> {
    let split = s.find(|c: char| c.is_ascii_digit())?;
    let (letters, digits) = s.split_at(split);
    let x = match letters.as_bytes() {
        [c] if c.is_ascii_lowercase() => (c - b'a') as i32,
        [b'a', c] if c.is_ascii_lowercase() => 26 + (c - b'a') as i32,
        _ => return None,
    };
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let y: i32 = digits.parse().ok()?;
    (y >= 1).then_some((x, y - 1))
}

/// One multi-PV line: its index k, score text and principal variation.
type NBestLine = (usize, String, Vec<(i32, i32)>);

/// `MESSAGE (k) SCORE | D-S | pv…` (Rapfi's multi-PV line).
fn parse_nbest_line(line: &str) -> Result<NBestLine, String> {
    let rest = line.strip_prefix("MESSAGE (").ok_or("not MESSAGE (k) …")?;
    let (k, rest) = rest.split_once(") ").ok_or("no `(k) `")?;
    let k: usize = k.parse().map_err(|_| format!("bad index {k:?}"))?;
    let parts: Vec<&str> = rest.split(" | ").collect();
    let [score, depth, pv] = parts[..] else {
        return Err("not `SCORE | D-S | pv`".to_string());
    };
    let mate = score
        .strip_prefix("+M")
        .or_else(|| score.strip_prefix("-M"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if !mate && score.parse::<i32>().is_err() {
        return Err(format!("bad score {score:?}"));
    }
    let depth_ok = depth.split_once('-').is_some_and(|(a, b)| {
        [a, b]
            .iter()
            .all(|t| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()))
    });
    if !depth_ok {
        return Err(format!("bad depth {depth:?}"));
    }
    let pv: Vec<(i32, i32)> = pv
        .split(' ')
        .map(|m| parse_notation(m).ok_or(format!("bad pv move {m:?}")))
        .collect::<Result<_, _>>()?;
    if pv.is_empty() {
        return Err("empty pv".to_string());
    }
    Ok((k, score.to_string(), pv))
}

fn is_chatter(line: &str) -> bool {
    line.starts_with("MESSAGE ") || line.starts_with("DEBUG ") || line == "MESSAGE"
}

/// `name="…", version="…", …`
fn check_about(line: &str) -> Result<(), String> {
    let mut keys = HashSet::new();
    for pair in line.split(", ") {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("{pair:?} is not key=\"value\""))?;
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(format!("bad key {key:?}"));
        }
        let inner = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .filter(|v| v.len() + 2 == value.len())
            .ok_or_else(|| format!("value of {key} is not quoted: {value:?}"))?;
        if inner.contains([',', '=', '"']) {
            return Err(format!("value of {key} contains ',', '=' or '\"'"));
        }
        if !keys.insert(key) {
            return Err(format!("key {key} repeated"));
        }
    }
    for required in ["name", "version"] {
        if !keys.contains(required) {
            return Err(format!("no {required}=\"…\""));
        }
    }
    Ok(())
}

/// `FORBID ` then groups of 4 digits then `.`
fn check_forbid(line: &str) -> Result<(), String> {
    let body = line
        .strip_prefix("FORBID ")
        .and_then(|s| s.strip_suffix('.'))
        .ok_or("not FORBID …. ")?;
    if body.len() % 4 != 0 || !body.bytes().all(|b| b.is_ascii_digit()) {
        return Err("not groups of 4 digits".to_string());
    }
    Ok(())
}

// ---------------------------------------------------------------------------------
// The engine process
// ---------------------------------------------------------------------------------

enum Out {
    /// A complete line, with its `\n`.
    Line(Vec<u8>),
    /// stdout closed; the bytes are output that had no final `\n`.
    Eof(Vec<u8>),
    ReadError(String),
}

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Out>,
    /// Bytes read from stdout that do not (yet) end with `\n`.
    partial: Arc<Mutex<Vec<u8>>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_thread: Option<JoinHandle<()>>,
    stdout_closed: bool,
    exited: bool,
    last_send: Instant,
    history: Vec<String>,
}

/// The engine the transcripts run against: `FERRUM_ENGINE` (a command line split on
/// whitespace, e.g. `wine64 pbrain-ferrum.exe` for the Windows build), else this build.
fn engine_command() -> Command {
    let line = std::env::var("FERRUM_ENGINE").unwrap_or_default();
    let mut words = line.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut cmd = Command::new(program);
            cmd.args(words);
            cmd
        }
        None => Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum")),
    }
}

impl Engine {
    fn spawn() -> Result<Engine, String> {
        let mut child = engine_command()
            .env_remove("FERRUM_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the engine: {e}"))?;
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut stderr_pipe = child.stderr.take().expect("piped stderr");
        let (tx, rx) = mpsc::channel();
        let partial = Arc::new(Mutex::new(Vec::new()));
        let partial_w = Arc::clone(&partial);
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) => {
                        let rest = std::mem::take(&mut *partial_w.lock().unwrap());
                        let _ = tx.send(Out::Eof(rest));
                        return;
                    }
                    Ok(n) => {
                        let mut pending = partial_w.lock().unwrap();
                        pending.extend_from_slice(&buf[..n]);
                        while let Some(pos) = pending.iter().position(|&b| b == b'\n') {
                            let line: Vec<u8> = pending.drain(..=pos).collect();
                            if tx.send(Out::Line(line)).is_err() {
                                return;
                            }
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = tx.send(Out::ReadError(e.to_string()));
                        return;
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let stderr_w = Arc::clone(&stderr);
        let stderr_thread = thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                stderr_w.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Ok(Engine {
            stdin: child.stdin.take(),
            child,
            rx,
            partial,
            stderr,
            stderr_thread: Some(stderr_thread),
            stdout_closed: false,
            exited: false,
            last_send: Instant::now(),
            history: Vec::new(),
        })
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or("cannot send: stdin already closed")?;
        stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot send {text:?}: {e} (has the engine exited?)"))?;
        self.last_send = Instant::now();
        Ok(())
    }

    fn exit_status(&mut self) -> String {
        // Give a closing process a moment to be reaped.
        for _ in 0..50 {
            if let Ok(Some(st)) = self.child.try_wait() {
                self.exited = true;
                return format!("exited with {st}");
            }
            thread::sleep(Duration::from_millis(10));
        }
        "closed stdout but is still running".to_string()
    }

    /// The next output item before `deadline`: `Ok(Some(line))` for a well-formed line
    /// (without its `\n`), `Ok(None)` on timeout, `Err` on a malformed line, EOF or a
    /// read error.
    fn next_raw(&mut self, deadline: Instant) -> Result<Option<String>, String> {
        if self.stdout_closed {
            return Err("stdout is already closed".to_string());
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(Out::Line(bytes)) => {
                let line = String::from_utf8_lossy(&bytes[..bytes.len() - 1]).into_owned();
                self.history.push(line.clone());
                if self.history.len() > HISTORY {
                    self.history.remove(0);
                }
                if std::str::from_utf8(&bytes).is_err() {
                    return Err(format!("output line is not UTF-8: {line:?}"));
                }
                if bytes.contains(&b'\r') {
                    return Err(format!("output line contains \\r: {line:?}"));
                }
                Ok(Some(line))
            }
            Ok(Out::Eof(rest)) => {
                self.stdout_closed = true;
                let status = self.exit_status();
                if rest.is_empty() {
                    Err(format!("the engine {status}"))
                } else {
                    Err(format!(
                        "the engine {status}; its last output had no final \\n: {:?}",
                        String::from_utf8_lossy(&rest)
                    ))
                }
            }
            Ok(Out::ReadError(e)) => {
                self.stdout_closed = true;
                Err(format!("cannot read stdout: {e}"))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => {
                self.stdout_closed = true;
                Err("stdout reader ended".to_string())
            }
        }
    }

    fn timeout_msg(&self, waited: Duration) -> String {
        let partial = self.partial.lock().unwrap();
        if partial.is_empty() {
            format!("no reply within {} ms", waited.as_millis())
        } else {
            format!(
                "no complete line within {} ms; output without a final \\n: {:?}",
                waited.as_millis(),
                String::from_utf8_lossy(&partial)
            )
        }
    }

    /// The next line that is not skipped: MESSAGE and DEBUG lines are skipped unless
    /// `keep_messages`, DEBUG lines always.
    fn next_line(&mut self, deadline: Instant, keep_messages: bool) -> Result<String, String> {
        let start = Instant::now();
        loop {
            match self.next_raw(deadline)? {
                None => return Err(self.timeout_msg(deadline.saturating_duration_since(start))),
                Some(l) if l.starts_with("DEBUG ") => {}
                Some(l) if !keep_messages && is_chatter(&l) => {}
                Some(l) => return Ok(l),
            }
        }
    }

    /// Reads until `deadline`; fails on any line that is not MESSAGE/DEBUG. Returns
    /// `Ok(true)` if stdout closed (only allowed when `eof_ok`).
    fn expect_quiet(&mut self, deadline: Instant, eof_ok: bool) -> Result<bool, String> {
        loop {
            match self.next_raw(deadline) {
                Ok(None) => return Ok(false),
                Ok(Some(l)) if is_chatter(&l) => {}
                Ok(Some(l)) => return Err(format!("unexpected output {l:?}")),
                Err(_) if eof_ok && self.stdout_closed => return Ok(true),
                Err(e) => return Err(e),
            }
        }
    }

    fn wait_exit(&mut self, deadline: Instant) -> Result<(), String> {
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => {
                    self.exited = true;
                    return Ok(());
                }
                Ok(None) if Instant::now() >= deadline => {
                    return Err("the process is still running".to_string())
                }
                Ok(None) => thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err(format!("wait failed: {e}")),
            }
        }
    }

    fn stderr_text(&mut self) -> String {
        if self.exited {
            if let Some(t) = self.stderr_thread.take() {
                let _ = t.join();
            }
        }
        let bytes = self.stderr.lock().unwrap();
        let mut s = String::from_utf8_lossy(&bytes).into_owned();
        if s.len() > 600 {
            let mut cut = 600;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            s.truncate(cut);
            s.push('…');
        }
        s
    }

    fn kill(&mut self) {
        if !self.exited {
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.exited = true;
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

// ---------------------------------------------------------------------------------
// Running a transcript
// ---------------------------------------------------------------------------------

struct Runner {
    engine: Engine,
    model: Model,
    within: Option<Duration>,
}

impl Runner {
    fn deadline(&mut self) -> Instant {
        match self.within.take() {
            Some(d) => self.engine.last_send + d,
            None => Instant::now() + DEFAULT_WAIT,
        }
    }

    fn step(&mut self, step: &Step) -> Result<(), String> {
        match step {
            Step::Send(text) => {
                self.model.feed(text);
                self.engine.send(text)
            }
            Step::Within(ms) => {
                self.within = Some(Duration::from_millis(*ms));
                Ok(())
            }
            Step::Silent(ms) => {
                let deadline = Instant::now() + Duration::from_millis(*ms);
                self.engine.expect_quiet(deadline, false).map(|_| ())
            }
            Step::Exit(ms) => {
                let deadline = self.engine.last_send + Duration::from_millis(*ms);
                if !self.engine.expect_quiet(deadline, true)? {
                    return Err(format!(
                        "stdout still open {ms} ms after the last sent line"
                    ));
                }
                self.engine.wait_exit(deadline)?;
                self.engine.stdin = None;
                Ok(())
            }
            Step::Expect(e) => self.expect(e),
        }
    }

    /// `@nbest N`: N lines `MESSAGE (1) …` to `MESSAGE (N) …` with distinct legal
    /// first moves (other MESSAGE lines may come between), then the move of line 1.
    fn expect_nbest(&mut self, n: usize, deadline: Instant) -> Result<(), String> {
        let mut firsts: Vec<(i32, i32)> = Vec::new();
        loop {
            let line = self.engine.next_line(deadline, true)?;
            if line.starts_with("MESSAGE (") {
                let (k, _, pv) =
                    parse_nbest_line(&line).map_err(|m| format!("{m}; got {line:?}"))?;
                if k != firsts.len() + 1 || k > n {
                    return Err(format!(
                        "expected line ({}); got {line:?}",
                        firsts.len() + 1
                    ));
                }
                self.model
                    .check_legal(pv[0])
                    .map_err(|m| format!("{m}; got {line:?}"))?;
                if firsts.contains(&pv[0]) {
                    return Err(format!("first move repeated; got {line:?}"));
                }
                firsts.push(pv[0]);
            } else if is_chatter(&line) {
                continue;
            } else {
                if firsts.len() != n {
                    return Err(format!(
                        "expected {n} lines MESSAGE (k) …, saw {}; got {line:?}",
                        firsts.len()
                    ));
                }
                let p = parse_move_strict(&line).ok_or(format!("expected a move; got {line:?}"))?;
                if p != firsts[0] {
                    return Err(format!("expected line 1's move; got {line:?}"));
                }
                self.model.record_engine_move(p);
                return Ok(());
            }
        }
    }

    /// `@realtime KIND`: a `MESSAGE REALTIME KIND` line comes before any line that
    /// is not MESSAGE/DEBUG (other MESSAGE lines are skipped).
    fn expect_realtime(&mut self, kind: &str, deadline: Instant) -> Result<(), String> {
        let prefix = format!("MESSAGE REALTIME {kind}");
        loop {
            let line = self.engine.next_line(deadline, true)?;
            if let Some(rest) = line.strip_prefix(&prefix) {
                if kind == "REFRESH" {
                    return if rest.is_empty() {
                        Ok(())
                    } else {
                        Err(format!("expected {prefix}; got {line:?}"))
                    };
                }
                let p = rest
                    .strip_prefix(' ')
                    .and_then(parse_move_strict)
                    .ok_or(format!("expected {prefix} x,y; got {line:?}"))?;
                let on_board = self.model.board.as_ref().is_some_and(|b| b.on_board(p));
                return if on_board {
                    Ok(())
                } else {
                    Err(format!("{},{} is off the board; got {line:?}", p.0, p.1))
                };
            }
            if !is_chatter(&line) {
                return Err(format!("expected {prefix} …; got {line:?}"));
            }
        }
    }

    fn expect(&mut self, e: &Expect) -> Result<(), String> {
        let deadline = self.deadline();
        match e {
            Expect::NBest(n) => return self.expect_nbest(*n, deadline),
            Expect::Realtime(kind) => return self.expect_realtime(kind, deadline),
            _ => {}
        }
        let line = self.engine.next_line(deadline, *e == Expect::Message);
        let line = match line {
            Ok(l) => l,
            Err(err) => {
                self.model.pending_size = None;
                return Err(err);
            }
        };
        self.model.maybe_apply_size(&line);
        let seen = |msg: String| format!("{msg}; got {line:?}");
        match e {
            Expect::Exact(text) => {
                if line != *text {
                    return Err(seen(format!("expected {text:?}")));
                }
                if let Some(p) = parse_move_strict(&line) {
                    self.model.record_engine_move(p);
                }
            }
            Expect::Move => {
                let p = parse_move_strict(&line)
                    .ok_or_else(|| seen("expected a move x,y".to_string()))?;
                if let Some(play) = self.model.play {
                    if play != p {
                        return Err(seen(format!(
                            "expected the PLAY move {},{}",
                            play.0, play.1
                        )));
                    }
                }
                self.model.check_legal(p).map_err(seen)?;
                self.model.record_engine_move(p);
            }
            Expect::Moves(n) => self.model.check_move_list(&line, &[*n]).map_err(seen)?,
            Expect::Swap2Reply => {
                if line != "SWAP" {
                    let counts: &[usize] = match self.model.swap2.as_ref().map(Vec::len) {
                        Some(3) => &[1, 2],
                        Some(5) => &[1],
                        _ => {
                            return Err(seen(
                                "@swap2reply needs a preceding SWAP2BOARD with 3 or 5 stones"
                                    .to_string(),
                            ))
                        }
                    };
                    self.model
                        .check_move_list(&line, counts)
                        .map_err(|m| seen(format!("expected SWAP or a move list: {m}")))?;
                }
            }
            Expect::Error => {
                if !line.starts_with("ERROR ") {
                    return Err(seen("expected ERROR …".to_string()));
                }
            }
            Expect::Unknown => {
                if !(line == "UNKNOWN" || line.starts_with("UNKNOWN ")) {
                    return Err(seen("expected UNKNOWN …".to_string()));
                }
            }
            Expect::Message => {
                if !line.starts_with("MESSAGE ") {
                    return Err(seen("expected MESSAGE …".to_string()));
                }
            }
            Expect::About => check_about(&line).map_err(|m| seen(format!("bad ABOUT: {m}")))?,
            Expect::Forbid => check_forbid(&line).map_err(|m| seen(format!("bad FORBID: {m}")))?,
            Expect::Played(n) => {
                self.model.check_move_list(&line, &[*n]).map_err(seen)?;
                for (i, part) in line.split(' ').enumerate() {
                    let p = parse_move_strict(part).expect("checked");
                    let who = if i % 2 == 0 { ENGINE } else { OPPONENT };
                    if let Some(b) = &mut self.model.board {
                        b.set(p, who);
                    }
                }
            }
            Expect::NBest(_) | Expect::Realtime(_) => unreachable!("handled above"),
        }
        Ok(())
    }

    /// After the last step: send END unless the engine already exited, then check that
    /// it exits, prints nothing more and wrote nothing to stderr.
    fn finish(&mut self) -> Result<(), String> {
        if !self.engine.exited {
            if self.engine.stdin.is_some() {
                let _ = self.engine.send("END\n");
            }
            self.engine.stdin = None; // close stdin too
            let deadline = Instant::now() + FINAL_EXIT_WAIT;
            if !self.engine.stdout_closed && !self.engine.expect_quiet(deadline, true)? {
                return Err(format!(
                    "stdout still open {} ms after END",
                    FINAL_EXIT_WAIT.as_millis()
                ));
            }
            self.engine
                .wait_exit(deadline)
                .map_err(|e| format!("after END: {e}"))?;
        } else if !self.engine.stdout_closed {
            self.engine
                .expect_quiet(Instant::now() + Duration::from_secs(1), true)?;
        }
        let stderr = self.engine.stderr_text();
        if !stderr.is_empty() {
            return Err(format!("the engine wrote to stderr: {stderr:?}"));
        }
        Ok(())
    }
}

fn run_transcript(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read transcript: {e}"))?;
    let items = parse_transcript(&text).map_err(|e| format!("bad transcript: {e}"))?;
    let mut r = Runner {
        engine: Engine::spawn()?,
        model: Model::default(),
        within: None,
    };
    for item in &items {
        if let Err(e) = r.step(&item.step) {
            r.engine.kill();
            let mut msg = format!("line {}: `{}`: {e}", item.line, item.src);
            if !r.engine.history.is_empty() {
                msg.push_str(&format!(
                    "\n      last output lines: {:?}",
                    r.engine.history
                ));
            }
            let stderr = r.engine.stderr_text();
            if !stderr.is_empty() {
                msg.push_str(&format!("\n      stderr: {stderr:?}"));
            }
            return Err(msg);
        }
    }
    r.finish().map_err(|e| format!("at the end: {e}"))
}

fn transcript_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests");
    let filter = std::env::var("PROTOCOL_TEST").unwrap_or_default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(&filter))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn protocol_transcripts() {
    let files = transcript_files();
    assert!(!files.is_empty(), "no protocol-tests/*.txt transcripts");
    let queue = Arc::new(Mutex::new(files.clone()));
    let results = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let queue = Arc::clone(&queue);
            let results = Arc::clone(&results);
            thread::spawn(move || loop {
                let Some(path) = queue.lock().unwrap().pop() else {
                    return;
                };
                let start = Instant::now();
                let res = run_transcript(&path);
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                results.lock().unwrap().push((name, start.elapsed(), res));
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker thread panicked");
    }
    let mut results = std::mem::take(&mut *results.lock().unwrap());
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let mut failures = Vec::new();
    for (name, took, res) in &results {
        match res {
            Ok(()) => println!("ok    {name} ({} ms)", took.as_millis()),
            Err(e) => {
                println!("FAIL  {name} ({} ms)", took.as_millis());
                failures.push(format!("protocol-tests/{name}: {e}"));
            }
        }
    }
    assert_eq!(results.len(), files.len());
    if !failures.is_empty() {
        panic!(
            "{} of {} transcripts failed:\n{}",
            failures.len(),
            files.len(),
            failures.join("\n")
        );
    }
}

// ---------------------------------------------------------------------------------
// Tests of the harness itself (no engine needed)
// ---------------------------------------------------------------------------------

#[test]
fn harness_parses_transcripts() {
    let t = "# c\n\n> START 15\n< OK\n! eol crlf\n> BEGIN\n< @move\n>raw A\\rB\\n\n! within 500\n< @moves 3\n! silent 10\n! exit 20\n";
    let items = parse_transcript(t).unwrap();
    let steps: Vec<Step> = items.iter().map(|i| i.step.clone()).collect();
    assert_eq!(
        steps,
        vec![
            Step::Send("START 15\n".into()),
            Step::Expect(Expect::Exact("OK".into())),
            Step::Send("BEGIN\r\n".into()),
            Step::Expect(Expect::Move),
            Step::Send("A\rB\n".into()),
            Step::Within(500),
            Step::Expect(Expect::Moves(3)),
            Step::Silent(10),
            Step::Exit(20),
        ]
    );
    assert_eq!(items[0].line, 3);
    assert!(parse_transcript("< @nope\n").is_err());
    assert!(parse_transcript("! eol xx\n").is_err());
    assert!(parse_transcript("hello\n").is_err());
    assert!(parse_transcript(">raw \\q\n").is_err());
}

#[test]
fn harness_patterns() {
    assert!(check_about(r#"name="Ferrum", version="0.1.0", author="A B", country="X""#).is_ok());
    assert!(check_about(r#"name="Ferrum", author="A""#).is_err());
    assert!(check_about(r#"name="F,errum", version="1""#).is_err());
    assert!(check_about(r#"name="Ferrum",version="1""#).is_err());
    assert!(check_about(r#"name=Ferrum, version="1""#).is_err());
    assert!(check_forbid("FORBID 07070808.").is_ok());
    assert!(check_forbid("FORBID .").is_ok());
    assert!(check_forbid("FORBID 0707080.").is_err());
    assert!(check_forbid("FORBID 07070808").is_err());
    assert_eq!(parse_move_strict("7,12"), Some((7, 12)));
    assert_eq!(parse_move_strict("7, 12"), None);
    assert_eq!(parse_move_strict("-1,2"), None);
    assert_eq!(parse_move_strict("7,7,1"), None);
    assert_eq!(parse_notation("h8"), Some((7, 7)));
    assert_eq!(parse_notation("aa1"), Some((26, 0)));
    assert_eq!(parse_notation("h0"), None);
    let (k, score, pv) = parse_nbest_line("MESSAGE (2) -35 | 7-12 | h8 i9").unwrap();
    assert_eq!((k, score.as_str(), pv), (2, "-35", vec![(7, 7), (8, 8)]));
    assert!(parse_nbest_line("MESSAGE (1) +M7 | 3-5 | j10").is_ok());
    assert!(parse_nbest_line("MESSAGE (1) x | 3-5 | j10").is_err());
    assert!(parse_nbest_line("MESSAGE (1) 5 | 3 | j10").is_err());
    assert!(parse_nbest_line("MESSAGE (1) 5 | 3-5 | ").is_err());
    assert!(parse_transcript("< @realtime POS\n< @nbest 3\n< @played 2\n").is_ok());
    assert!(parse_transcript("< @realtime NOPE\n").is_err());
}

#[test]
fn harness_board_model() {
    let mut m = Model::default();
    m.feed("START 15\r\n");
    m.maybe_apply_size("OK");
    assert!(m.check_legal((14, 14)).is_ok());
    assert!(m.check_legal((15, 0)).is_err());
    m.feed("TURN 7,7\rTURN 99,99\nturn 8,8\n");
    assert!(m.check_legal((7, 7)).is_err());
    assert!(m.check_legal((8, 8)).is_err());
    m.feed("START 33\n");
    m.maybe_apply_size("ERROR unsupported size");
    assert!(
        m.check_legal((8, 8)).is_err(),
        "a refused START keeps the board"
    );
    m.feed("BOARD\n1,2,1\ngarbage\nDONE\n");
    assert!(
        m.check_legal((1, 2)).is_ok(),
        "a bad BOARD block keeps the position"
    );
    assert!(m.check_legal((7, 7)).is_err());
    m.feed("board\r\n1,2,1\n3,3,3\r\ndone\r\n");
    assert!(m.check_legal((7, 7)).is_ok());
    assert!(m.check_legal((1, 2)).is_err());
    assert!(m.check_legal((3, 3)).is_err());
    m.feed("TAKEBACK 1,2\n");
    assert!(m.check_legal((1, 2)).is_ok());
    m.feed("SWAP2BOARD\n7,7\n8,7\n7,8\nDONE\n");
    assert!(m.check_move_list("7,7", &[1, 2]).is_err());
    assert!(m.check_move_list("9,9 9,9", &[1, 2]).is_err());
    assert!(m.check_move_list("9,9 10,9", &[1, 2]).is_ok());
    assert!(m.check_move_list("9,9  10,9", &[1, 2]).is_err());
    m.feed("RESTART\n");
    assert!(m.check_legal((3, 3)).is_ok());
    m.feed("RECTSTART 20,15\n");
    m.maybe_apply_size("OK");
    assert!(m.check_legal((19, 14)).is_ok());
    assert!(m.check_legal((14, 19)).is_err());
    m.feed("START 20 10\n");
    m.maybe_apply_size("OK");
    assert!(m.check_legal((19, 9)).is_ok());
    assert!(m.check_legal((9, 19)).is_err());
}

// ---------------------------------------------------------------------------------
// `pbrain-ferrum analyze` (the command-line analysis mode)
// ---------------------------------------------------------------------------------

/// Runs `analyze` with `args`, keeping stdin open, and returns (stdout lines, time
/// taken). With `press_enter`, Enter is sent once the first `depth` line is out, and the
/// time is counted from Enter (a fixed wait before it raced the first iteration on a
/// busy machine); otherwise from the start. Fails if it runs past `cap`.
fn run_analyze(
    engine_args: &[&str],
    args: &[&str],
    press_enter: bool,
    cap: Duration,
) -> (Vec<String>, Duration) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .args(engine_args)
        .arg("analyze")
        .args(args)
        .env_remove("FERRUM_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start the engine");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel::<String>();
    let reader = thread::spawn(move || {
        let lines = std::io::BufRead::lines(std::io::BufReader::new(stdout));
        for line in lines.map_while(Result::ok) {
            if tx.send(line.trim_end().to_string()).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    let mut stdin = child.stdin.take();
    let mut since = start;
    if press_enter {
        loop {
            let left = cap.saturating_sub(start.elapsed());
            match rx.recv_timeout(left) {
                Ok(l) => {
                    let depth = l.starts_with("depth ");
                    lines.push(l);
                    if depth {
                        break;
                    }
                }
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("no depth line within {} ms: {lines:?}", cap.as_millis());
                }
            }
        }
        stdin
            .as_mut()
            .expect("piped stdin")
            .write_all(b"\n")
            .expect("writing Enter");
        since = Instant::now();
    }
    loop {
        match child.try_wait().expect("wait") {
            Some(_) => break,
            None if start.elapsed() > cap => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("analyze still running after {} ms", cap.as_millis());
            }
            None => thread::sleep(Duration::from_millis(10)),
        }
    }
    let elapsed = since.elapsed();
    drop(stdin);
    reader.join().expect("stdout reader");
    lines.extend(rx.try_iter());
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("piped stderr")
        .read_to_string(&mut err)
        .expect("reading stderr");
    assert!(err.is_empty(), "analyze wrote to stderr: {err:?}");
    (lines, elapsed)
}

/// The depths of the `depth D-S ev … best … pv …` lines, checking their form.
fn analyze_depths(lines: &[String]) -> Vec<u32> {
    lines
        .iter()
        .filter(|l| l.starts_with("depth "))
        .map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            assert!(
                words.len() >= 14 && words[2] == "ev" && words[4] == "best" && words[12] == "pv",
                "bad analysis line {l:?}"
            );
            assert_eq!(
                words[5], words[13],
                "best move is not the pv's first: {l:?}"
            );
            assert!(parse_notation(words[5]).is_some(), "bad move in {l:?}");
            words[1].split('-').next().unwrap().parse().expect("depth")
        })
        .collect()
}

#[test]
fn analyze_deepens_and_stops_on_time() {
    // A quiet middle-game freestyle position (Black to move after 10 stones).
    let moves = "h8,h9,i9,g7,j10,k11,i8,i10,g10,h11";
    let (lines, took) = run_analyze(
        &["--eval", "classical"],
        &[
            "--rule",
            "freestyle",
            "--size",
            "15",
            "--moves",
            moves,
            "--time-ms",
            "700",
            "--threads",
            "1",
        ],
        false,
        Duration::from_secs(6),
    );
    assert!(
        lines[0].starts_with("position: freestyle 15x15, Black to move"),
        "{lines:?}"
    );
    // The engine's options choose the evaluation, as in protocol mode.
    assert!(lines[1].starts_with("evaluation: classical, "), "{lines:?}");
    let depths = analyze_depths(&lines);
    assert!(depths.len() >= 3, "too few iterations: {lines:?}");
    assert!(
        depths.windows(2).all(|w| w[0] < w[1]),
        "not deepening: {depths:?}"
    );
    let last = lines.last().expect("output");
    assert!(last.starts_with("bestmove "), "{lines:?}");
    assert!(
        took >= Duration::from_millis(600) && took < Duration::from_millis(3000),
        "stopped after {} ms for a 700 ms limit",
        took.as_millis()
    );
}

#[test]
fn analyze_stops_on_enter() {
    let (lines, took) = run_analyze(
        &[],
        &[
            "--rule",
            "renju",
            "--moves",
            "h8,i9,i7,g9",
            "--threads",
            "1",
        ],
        true,
        Duration::from_secs(10),
    );
    assert!(
        took < Duration::from_millis(2500),
        "Enter did not stop it: {} ms after Enter",
        took.as_millis()
    );
    // The default: the rule's built-in network.
    assert!(lines[1].starts_with("evaluation: network, "), "{lines:?}");
    assert!(!analyze_depths(&lines).is_empty(), "{lines:?}");
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    let err = analyze_refused(&["--moves", "h8,zz"]);
    assert!(
        err.contains("--moves") && err.contains("bad move 'zz'"),
        "{err}"
    );
}

/// `analyze ARGS` with a bad argument: exit status 2, nothing on stdout, and the
/// error on stderr, returned.
fn analyze_refused(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .arg("analyze")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("running the engine");
    assert_eq!(out.status.code(), Some(2), "analyze {args:?}");
    assert!(out.stdout.is_empty(), "analyze {args:?} wrote to stdout");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `--threads` after the subcommand is the subcommand's own option: analyze's parser
/// must see it, or analyze would run on every core.
#[test]
fn analyze_reads_its_own_threads_option() {
    let err = analyze_refused(&["--threads", "0"]);
    assert!(err.contains("'0' for '--threads"), "{err}");
    let err = analyze_refused(&["--threads", "1", "--bogus"]);
    assert!(err.contains("--bogus"), "{err}");
    // Before the subcommand it is the program's, and so the tool's default.
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .args([
            "--threads",
            "1",
            "analyze",
            "--moves",
            "h8",
            "--time-ms",
            "100",
        ])
        .stdin(Stdio::null())
        .output()
        .expect("running the engine");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("search threads: 1\n"), "{text}");
}

// ---------------------------------------------------------------------------------
// `pbrain-ferrum --threads N` (the default thread count for managers that never send
// `INFO thread_num`)
// ---------------------------------------------------------------------------------

/// Runs the engine with `args`, a log file and `input` on stdin (then closed: the
/// engine answers what was asked and exits); returns its output and the log.
fn run_logged(args: &[&str], input: &[u8]) -> (std::process::Output, String) {
    let log = std::env::temp_dir().join(format!("ferrum-threads-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .args(args)
        .arg("--log")
        .arg(&log)
        .env_remove("FERRUM_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().expect("piped stdin").write_all(input)?;
            child.wait_with_output()
        })
        .expect("running the engine");
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    (out, logged)
}

#[test]
fn threads_option() {
    let (out, logged) = run_logged(
        &["--threads", "1"],
        b"START 15\r\nINFO timeout_turn 300\r\nBEGIN\r\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| !l.starts_with("MESSAGE"))
        .collect();
    assert_eq!(lines, ["OK", "7,7"], "stdout: {stdout}");
    assert!(logged.contains("search threads: 1"), "log: {logged}");

    // INFO thread_num: no more than the cores, whatever the manager passes on.
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    let (out, logged) = run_logged(&["--threads", "1"], b"INFO thread_num 100000\nEND\n");
    assert!(out.status.success());
    let last = logged.lines().rfind(|l| l.contains("search threads: "));
    assert!(
        last.is_some_and(|l| l.ends_with(&format!("search threads: {cores}"))),
        "log: {logged}"
    );

    for bad in ["0", "x"] {
        let out = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
            .args(["--threads", bad])
            .stdin(Stdio::null())
            .output()
            .expect("running the engine");
        assert_eq!(out.status.code(), Some(2), "--threads {bad}");
    }
}

// ---------------------------------------------------------------------------------
// `pbrain-ferrum --version` and `--help`
// ---------------------------------------------------------------------------------

/// `--version` names the version and the commit built from, as ABOUT does; both exit 0.
#[test]
fn version_and_help_options() {
    let run = |arg: &str| {
        Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
            .arg(arg)
            .stdin(Stdio::null())
            .output()
            .expect("running the engine")
    };
    let out = run("--version");
    assert!(out.status.success());
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let expected = format!("pbrain-ferrum {} (", env!("CARGO_PKG_VERSION"));
    assert!(version.starts_with(&expected), "{version}");
    let about = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            let stdin = child.stdin.as_mut().expect("piped stdin");
            stdin.write_all(b"ABOUT\nEND\n")?;
            child.wait_with_output()
        })
        .expect("running the engine");
    let about = String::from_utf8_lossy(&about.stdout);
    let in_about = format!("version=\"{}\"", &version["pbrain-ferrum ".len()..]);
    assert!(about.contains(&in_about), "{about} lacks {in_about}");
    let out = run("--help");
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("Usage: pbrain-ferrum"), "{help}");
    for sub in [
        "bench",
        "solve",
        "analyze",
        "tune",
        "sample-leaves",
        "scan-moves",
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
            .args([sub, "--help"])
            .output()
            .expect("running the engine");
        assert!(out.status.success(), "{sub} --help");
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            help.contains(&format!("Usage: pbrain-ferrum {sub}")),
            "{help}"
        );
    }
}

/// Input that ends before the answer (`printf 'START 15\nBEGIN\n' | pbrain-ferrum`):
/// the move and the lines queued behind it are still answered, at once, then the
/// engine exits (a long search must not outlive its manager).
#[test]
fn end_of_input_answers_what_was_asked() {
    let start = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
        .env_remove("FERRUM_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            let mut stdin = child.stdin.take().expect("piped stdin");
            stdin.write_all(b"START 15\nINFO timeout_turn 60000\nBEGIN\nTURN 8,8\nABOUT\n")?;
            drop(stdin);
            child.wait_with_output()
        })
        .expect("running the engine");
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| !l.starts_with("MESSAGE"))
        .collect();
    assert_eq!(lines.len(), 4, "stdout: {stdout}");
    assert_eq!(lines[..2], ["OK", "7,7"], "stdout: {stdout}");
    assert!(parse_move_strict(lines[2]).is_some(), "stdout: {stdout}");
    assert!(lines[3].starts_with("name="), "stdout: {stdout}");
    assert!(start.elapsed() < Duration::from_secs(5));
}

/// `INFO folder` puts the log in a `ferrum` folder inside it; a folder whose bytes are
/// not UTF-8 (an ANSI manager's `C:\Users\Müller`) is not used: its name would read
/// with replacement characters, another folder than the manager's.
#[test]
fn info_folder_logs_there_unless_its_name_is_not_utf8() {
    let dir = std::env::temp_dir().join(format!("ferrum-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = |folder: &[u8]| {
        let mut input = b"INFO folder ".to_vec();
        input.extend_from_slice(folder);
        input.extend_from_slice(b"\nSTART 15\nEND\n");
        Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
            .env_remove("FERRUM_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                child.stdin.take().expect("piped stdin").write_all(&input)?;
                child.wait_with_output()
            })
            .expect("running the engine")
    };
    let good = dir.join("good");
    let out = run(good.to_str().unwrap().as_bytes());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "OK");
    assert!(good.join("ferrum/ferrum.log").exists());
    let mut ansi = dir.to_str().unwrap().as_bytes().to_vec();
    ansi.extend_from_slice(b"/M\xfcller");
    let out = run(&ansi);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "OK");
    let made: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(made, ["good"], "{made:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
