//! Protocol fuzzer: bursts of random and mutated lines against the real `pbrain-ferrum`
//! binary (unknown commands, bad and huge numbers, binary bytes, half blocks, commands
//! out of order and during searches). Each burst runs in a fresh process (mostly with
//! `--threads 1` and `--log`); after it the engine must answer a clean position with a
//! legal move, have written nothing to stderr, have logged no panic or error, and exit
//! on `END` within 100 ms, idle or during a search.
//!
//! Environment: `FUZZ_SEED` (default 1), `FUZZ_LINES` (lines in all, default sized for
//! CI), `FUZZ_BURST` (lines per burst, 300), `FUZZ_ONLY=B` (burst B alone, as a failure
//! report names it). `scripts/fuzz.sh` runs the long version. A failing burst's folder
//! under the system temp dir keeps its log and its stdin bytes as written (`stdin.bin`,
//! the stopper's YXSTOP lines included), named in the report.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant, SystemTime};

const DEFAULT_SEED: u64 = 1;
/// About 40 s on the 2-core CI machine in release mode.
const DEFAULT_LINES: u64 = 40_000;
const DEFAULT_BURST: u64 = 300;
/// The issue's limit for exiting on END.
const END_EXIT_LIMIT: Duration = Duration::from_millis(100);
/// How long the engine may take to work through a burst once it is written.
const MARK_WAIT: Duration = Duration::from_secs(30);
/// How long the clean position's move may take (its turn time is 100 ms).
const MOVE_WAIT: Duration = Duration::from_secs(3);
/// The stopper's period: a search with a huge time limit ends within about this.
const STOP_EVERY: Duration = Duration::from_millis(50);
/// The run stops after this many failing bursts (each one is reported).
const MAX_FAILURES: usize = 20;

// ---------------------------------------------------------------------------------
// Random numbers
// ---------------------------------------------------------------------------------

use ferrum::rng::Rng;

/// Each burst has a generator of its own, so that `FUZZ_ONLY` rebuilds it alone.
fn burst_seed(seed: u64, burst: u64) -> u64 {
    Rng::new(seed ^ burst.wrapping_mul(0xD6E8_FEB8_6659_FD93)).next_u64()
}

// ---------------------------------------------------------------------------------
// Line generator
// ---------------------------------------------------------------------------------

/// Numbers a parser may choke on: overflow at every width, signs, floats, other
/// scripts' digits.
const WEIRD_NUMBERS: &[&str] = &[
    "99999999999999999999",
    "-1",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967296",
    "0",
    "-0",
    "+5",
    "1e9",
    "1.5",
    "NaN",
    "inf",
    "0x10",
    "007",
    "",
    "\u{ff10}",
    "\u{ff11}\u{ff15}",
    "\u{663}",
    "- 1",
    "1_000",
];

const INFO_KEYS: &[&str] = &[
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "hash_size",
    "thread_num",
    "max_depth",
    "max_node",
    "rule",
    "game_type",
    "show_detail",
    "swapable",
    "evaluate",
    "pondering",
    "caution_factor",
    "usedatabase",
    "no_such_key",
];

const UNKNOWN_WORDS: &[&str] = &[
    "HELLO",
    "STAR",
    "BEGINN",
    "TURN2",
    "BOARDD",
    "DONEE",
    "INFOO",
    "YXSTOPP",
    "YXNBEST2",
    "SUGGEST",
    "PLAYX",
    "RESTARTT",
    "yxblockpath",
    "YXQUERYDATABASEALL",
    "SWAP2",
    "EN D",
    "\u{c9}ND",
    "T\u{dc}RN",
    "ST\u{41f}RT",
    "\u{221e}",
    "%s%n%x",
    "'; DROP TABLE",
];

struct Gen {
    rng: Rng,
    /// The board side last sent with START, for plausible coordinates.
    size: i64,
    /// The burst's folder, where the engine runs: `INFO folder` never points outside.
    dir: String,
}

impl Gen {
    fn new(seed: u64, dir: &Path) -> Gen {
        Gen {
            rng: Rng::new(seed),
            size: 15,
            dir: dir.display().to_string(),
        }
    }

    /// The bytes of a burst of about `lines` lines, each with its line end, and before
    /// each a pause in ms (mostly 0), so that some lines land while a search runs and
    /// some while the engine is idle. Returns the chunks and the line count.
    fn burst(&mut self, lines: u64) -> (Vec<(u64, Vec<u8>)>, u64) {
        let mut chunks = Vec::new();
        let mut count = 0;
        if self.rng.chance(3, 5) {
            // A proper game start, so that many bursts reach searches at once.
            for line in self.opening() {
                chunks.push((0, self.terminate(line.into_bytes())));
                count += 1;
            }
        }
        while count < lines {
            for mut line in self.item() {
                if reads_as_end(&line) {
                    line = b"NOT END".to_vec();
                }
                let pause = if self.rng.chance(1, 60) {
                    self.rng.range(1, 25) as u64
                } else {
                    0
                };
                chunks.push((pause, self.terminate(line)));
                count += 1;
            }
        }
        (chunks, count)
    }

    fn opening(&mut self) -> Vec<String> {
        let size = *self.rng.pick(&[15, 15, 20, 19, 10]);
        self.size = size;
        let mut lines = vec![
            format!("START {size}"),
            format!("INFO timeout_turn {}", self.rng.range(0, 150)),
            format!("INFO rule {}", self.rng.pick(&[0, 1, 4, 8, 9, 5, 6])),
        ];
        if self.rng.chance(1, 2) {
            lines.push("BEGIN".into());
        } else {
            lines.push(format!("TURN {},{}", size / 2, size / 2));
        }
        lines
    }

    fn terminate(&mut self, mut line: Vec<u8>) -> Vec<u8> {
        let end: &[u8] = match self.rng.below(100) {
            0..=69 => b"\n",
            70..=89 => b"\r\n",
            90..=97 => b"\r",
            98 => b"\n\n",
            _ => b"\r\r\n",
        };
        line.extend_from_slice(end);
        line
    }

    /// One generated item: mostly one line, a whole block for BOARD and friends.
    fn item(&mut self) -> Vec<Vec<u8>> {
        match self.rng.below(100) {
            0..=53 => vec![self.valid().into_bytes()],
            // Never mutated or cut: a cut path could name a folder anywhere (even `/`).
            54 => vec![self.folder().into_bytes()],
            55..=74 => {
                let line = self.valid();
                vec![self.mutate(line)]
            }
            75..=82 => vec![self.raw()],
            83..=91 => self.block(),
            92..=94 => vec![self.stray_block_line().into_bytes()],
            _ => vec![self.unknown().into_bytes()],
        }
    }

    /// A coordinate, mostly on the board.
    fn coord(&mut self) -> i64 {
        match self.rng.below(20) {
            0 => -1,
            1 => self.size,
            2 => self.rng.range(-40, 40),
            _ => self.rng.range(0, self.size - 1),
        }
    }

    fn board_size(&mut self) -> i64 {
        match self.rng.below(20) {
            0..=9 => 15,
            10..=13 => 20,
            14..=16 => self.rng.range(5, 32),
            17 => *self.rng.pick(&[0, 1, 4, 33, 100, -15]),
            _ => *self.rng.pick(&[5, 32, 6, 31]),
        }
    }

    /// A command with plausible arguments (searches kept short: mostly small times).
    fn valid(&mut self) -> String {
        match self.rng.below(100) {
            0..=5 => {
                let n = self.board_size();
                if (5..=32).contains(&n) {
                    self.size = n;
                }
                format!("START {n}")
            }
            6 => {
                let (w, h) = (self.board_size(), self.board_size());
                format!("START {w} {h}")
            }
            7 => {
                let (w, h) = (self.board_size(), self.board_size());
                format!("RECTSTART {w},{h}")
            }
            8 => "RESTART".into(),
            9..=14 => "BEGIN".into(),
            15..=26 => format!("TURN {},{}", self.coord(), self.coord()),
            27..=28 => format!("TAKEBACK {},{}", self.coord(), self.coord()),
            29..=31 => format!("PLAY {},{}", self.coord(), self.coord()),
            32 => "ABOUT".into(),
            33..=34 => self.rng.pick(&["YXSTOP", "STOP"]).to_string(),
            35 => format!("YXNBEST {}", self.rng.pick(&[1, 2, 3, 5, 0, 225, 1000])),
            36 => "YXSHOWFORBID".into(),
            37 => "YXHASHCLEAR".into(),
            38 => "YXSHOWINFO".into(),
            39 => {
                let cmd = self.rng.pick(&["YXBALANCEONE", "YXBALANCETWO"]);
                if self.rng.chance(1, 8) {
                    cmd.to_string()
                } else {
                    format!("{cmd} {}", self.rng.range(-300, 300))
                }
            }
            40..=41 => "DONE".into(),
            _ => self.info(),
        }
    }

    fn info(&mut self) -> String {
        let key = *self.rng.pick(INFO_KEYS);
        let r = self.rng.below(100);
        let value = match key {
            "timeout_turn" => match r {
                0..=79 => self.rng.range(0, 200).to_string(),
                80..=94 => self.rng.range(200, 5000).to_string(),
                _ => self
                    .rng
                    .pick(&["2147483647", "1000000000", "0"])
                    .to_string(),
            },
            "timeout_match" | "time_left" => match r {
                0..=69 => self.rng.range(0, 100_000).to_string(),
                70..=89 => self.rng.pick(&["2147483647", "0", "-1"]).to_string(),
                _ => self.rng.range(-1000, 1000).to_string(),
            },
            // Memory and table sizes: a huge table is rare, as it makes every search
            // of the burst fault in pages.
            "max_memory" => match r {
                0..=59 => self.rng.range(0, 500_000_000).to_string(),
                60..=89 => self.rng.pick(&["367001600", "0", "1"]).to_string(),
                _ => self.rng.range(1, 100_000).to_string(),
            },
            "hash_size" => match r {
                0..=89 => self.rng.range(0, 1 << 17).to_string(),
                90..=98 => self.rng.pick(&["0", "-5", "1"]).to_string(),
                _ if self.rng.chance(1, 10) => "99999999999".into(),
                _ => (1i64 << self.rng.range(17, 20)).to_string(),
            },
            // Many threads make every search spawn them all: rarely.
            "thread_num" => match r {
                0..=89 => self.rng.range(1, 4).to_string(),
                90..=98 => self.rng.pick(&["0", "-1", "2"]).to_string(),
                _ => self.rng.pick(&["256", "1000", "64"]).to_string(),
            },
            "max_depth" => match r {
                0..=79 => self.rng.range(0, 30).to_string(),
                _ => self.rng.pick(&["100", "1000", "-1", "1"]).to_string(),
            },
            "max_node" => match r {
                0..=69 => self.rng.range(0, 100_000).to_string(),
                _ => self
                    .rng
                    .pick(&["0", "1", "9223372036854775807"])
                    .to_string(),
            },
            "rule" => match r {
                0..=84 => self.rng.pick(&[0, 1, 2, 4, 5, 6, 8, 9]).to_string(),
                _ => self
                    .rng
                    .pick(&["3", "7", "10", "11", "15", "16", "-1", "abc"])
                    .to_string(),
            },
            "game_type" => self.rng.range(0, 3).to_string(),
            "show_detail" => self.rng.range(0, 3).to_string(),
            "swapable" => self.rng.range(0, 1).to_string(),
            "evaluate" => format!("{},{}", self.coord(), self.coord()),
            _ => self.rng.range(0, 10).to_string(),
        };
        format!("INFO {key} {value}")
    }

    /// `INFO folder` inside the burst's folder (relative paths: the engine runs there).
    /// The engine logs there only when started without `--log`.
    fn folder(&mut self) -> String {
        let path = match self.rng.below(6) {
            0..=2 => format!("{}/folder{}", self.dir, self.rng.below(3)),
            3 => format!("{}/folder{}/", self.dir, self.rng.below(3)),
            4 => self
                .rng
                .pick(&["sub dir", "\u{fc}n\u{ef}", "a\\b", "x/y/z"])
                .to_string(),
            _ => String::new(),
        };
        format!("INFO folder {path}")
    }

    /// BOARD, YXBOARD or SWAP2BOARD with its lines; sometimes without DONE.
    fn block(&mut self) -> Vec<Vec<u8>> {
        let kind = *self.rng.pick(&["BOARD", "BOARD", "YXBOARD", "SWAP2BOARD"]);
        let mut lines = vec![kind.as_bytes().to_vec()];
        let stones = if kind == "SWAP2BOARD" {
            *self.rng.pick(&[0, 3, 5, 0, 3, 5, 1, 2, 4, 6])
        } else {
            match self.rng.below(100) {
                0..=79 => self.rng.range(0, 12),
                80..=97 => self.rng.range(12, 60),
                // Up to a full board and beyond.
                _ => self.rng.range(0, 2 * self.size * self.size),
            }
        };
        let mut seen = Vec::new();
        for i in 0..stones {
            let (mut x, mut y) = if self.rng.chance(1, 50) {
                (self.coord(), self.coord())
            } else {
                (
                    self.rng.range(0, self.size - 1),
                    self.rng.range(0, self.size - 1),
                )
            };
            // Mostly distinct points, so that most blocks are accepted.
            if seen.contains(&(x, y)) && self.rng.chance(9, 10) {
                (x, y) = (
                    self.rng.range(0, self.size - 1),
                    self.rng.range(0, self.size - 1),
                );
            }
            seen.push((x, y));
            let f = match self.rng.below(60) {
                0..=1 => 3,
                2 => *self.rng.pick(&[0, 4, -1]),
                _ => 1 + (i % 2),
            };
            let line = if kind == "SWAP2BOARD" && self.rng.chance(1, 2) {
                format!("{x},{y}")
            } else {
                format!("{x},{y},{f}")
            };
            let line = if self.rng.chance(1, 60) {
                self.mutate(line)
            } else {
                line.into_bytes()
            };
            lines.push(line);
        }
        // A half block: the lines after it are taken as board lines until a DONE.
        if self.rng.chance(19, 20) {
            lines.push(b"DONE".to_vec());
        }
        lines
    }

    /// A board line or DONE outside any block.
    fn stray_block_line(&mut self) -> String {
        match self.rng.below(3) {
            0 => "DONE".into(),
            1 => format!("{},{},{}", self.coord(), self.coord(), self.rng.range(1, 2)),
            _ => format!("{},{}", self.coord(), self.coord()),
        }
    }

    fn unknown(&mut self) -> String {
        let word = *self.rng.pick(UNKNOWN_WORDS);
        match self.rng.below(3) {
            0 => word.to_string(),
            1 => format!("{word} {}", self.rng.range(-5, 50)),
            _ => {
                let n = self.rng.range(1, 12);
                (0..n)
                    .map(|_| (b'A' + self.rng.below(26) as u8) as char)
                    .collect()
            }
        }
    }

    /// Raw bytes: binary, invalid UTF-8, control bytes, empty or very long lines.
    fn raw(&mut self) -> Vec<u8> {
        match self.rng.below(20) {
            0..=5 => {
                let n = self.rng.below(120) as usize;
                (0..n).map(|_| self.rng.next_u64() as u8).collect()
            }
            6..=7 => {
                let bad: &[&[u8]] = &[
                    b"\xff\xfe",
                    b"\xc3\x28",
                    b"\xe2\x82",
                    b"\xf0\x9f\x98",
                    b"\x80",
                    b"\xed\xa0\x80",
                    b"\0",
                    b"\x1b[31m",
                ];
                let mut line = self.valid().into_bytes();
                let at = self.rng.below(line.len() as u64 + 1) as usize;
                let piece = self.rng.pick(bad);
                line.splice(at..at, piece.iter().copied());
                line
            }
            8..=9 => Vec::new(),
            10 => b" \t \x0b\x0c ".to_vec(),
            11 => b"\0\0\0\0".to_vec(),
            12..=14 => {
                // Tens of KB; sometimes past the reader's 64 KiB cut.
                let n = if self.rng.chance(1, 3) {
                    self.rng.range(65_000, 140_000)
                } else {
                    self.rng.range(1_000, 40_000)
                } as usize;
                let prefix = self.valid();
                let mut line = prefix.into_bytes();
                let fill = *self.rng.pick(b"9A, \xff");
                line.resize(line.len() + n, fill);
                line
            }
            15 => {
                // A long run of board lines as one line with CR inside.
                let n = self.rng.range(1, 200);
                let mut line = Vec::new();
                for _ in 0..n {
                    line.extend_from_slice(
                        format!("{},{},1\r", self.coord(), self.coord()).as_bytes(),
                    );
                }
                line
            }
            _ => {
                let n = self.rng.below(60) as usize;
                (0..n).map(|_| 0x20 + self.rng.below(95) as u8).collect()
            }
        }
    }

    /// One to three changes to a valid line.
    fn mutate(&mut self, line: String) -> Vec<u8> {
        let mut text = line;
        for _ in 0..self.rng.range(1, 3) {
            text = match self.rng.below(10) {
                0 => {
                    // Truncated (at a byte; invalid UTF-8 is raw()'s business).
                    let cut = self.rng.below(text.len() as u64 + 1) as usize;
                    let cut = (0..=cut)
                        .rev()
                        .find(|&c| text.is_char_boundary(c))
                        .unwrap_or(0);
                    text[..cut].to_string()
                }
                1..=2 => self.replace_number(&text),
                3 => {
                    let mut fields: Vec<&str> = text.split([' ', ',']).collect();
                    if fields.len() > 1 {
                        let a = self.rng.below(fields.len() as u64) as usize;
                        let b = self.rng.below(fields.len() as u64) as usize;
                        fields.swap(a, b);
                    }
                    fields.join(" ")
                }
                4 => {
                    let extra = *self
                        .rng
                        .pick(&[" 1", ",2", " x", ",", " ,,", " 3,4,5", "  ", "\t9"]);
                    text + extra
                }
                5 => {
                    let mut fields: Vec<&str> = text.split(' ').collect();
                    if fields.len() > 1 {
                        fields.remove(self.rng.below(fields.len() as u64) as usize);
                    }
                    fields.join(" ")
                }
                6 => text
                    .chars()
                    .map(|c| {
                        if self.rng.chance(1, 2) {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect(),
                7 => {
                    let sep = *self.rng.pick(&["\t", "   ", " \t ", "\x0b", "\u{a0}"]);
                    let text = text.replacen(' ', sep, 1);
                    match self.rng.below(3) {
                        0 => format!("  {text}"),
                        1 => format!("{text} \t "),
                        _ => {
                            let comma = *self.rng.pick::<&str>(&[", ", " ,", ";", " ", ",,"]);
                            text.replace(',', comma)
                        }
                    }
                }
                8 => {
                    let word = *self.rng.pick(UNKNOWN_WORDS);
                    if self.rng.chance(1, 2) {
                        format!("{word} {text}")
                    } else {
                        format!("{text} {word}")
                    }
                }
                _ => {
                    let at = self.rng.below(text.len() as u64 + 1) as usize;
                    let at = (0..=at)
                        .rev()
                        .find(|&c| text.is_char_boundary(c))
                        .unwrap_or(0);
                    let c = *self
                        .rng
                        .pick(&['\0', '\u{7f}', '\u{1}', '\u{fffd}', '#', '"', '\'']);
                    let mut t = text;
                    t.insert(at, c);
                    t
                }
            };
        }
        text.into_bytes()
    }

    /// One number of the line (or the end of the line) replaced by a weird one.
    fn replace_number(&mut self, text: &str) -> String {
        let weird = *self.rng.pick(WEIRD_NUMBERS);
        let spans: Vec<(usize, usize)> = {
            let bytes = text.as_bytes();
            let mut spans = Vec::new();
            let mut i = 0;
            while i < bytes.len() {
                if bytes[i].is_ascii_digit() || bytes[i] == b'-' {
                    let start = i;
                    i += 1;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                    spans.push((start, i));
                } else {
                    i += 1;
                }
            }
            spans
        };
        if spans.is_empty() {
            return format!("{text} {weird}");
        }
        let (a, b) = *self.rng.pick(&spans);
        format!("{}{weird}{}", &text[..a], &text[b..])
    }
}

/// Whether the engine would take a piece of the line (it splits on CR and LF) for END,
/// which a burst must not send: END is the closing check.
fn reads_as_end(line: &[u8]) -> bool {
    line.split(|&b| b == b'\r' || b == b'\n').any(|piece| {
        let text = String::from_utf8_lossy(piece);
        let word = text.trim().split(|c: char| c.is_ascii_whitespace()).next();
        word.is_some_and(|w| w.eq_ignore_ascii_case("END"))
    })
}

// ---------------------------------------------------------------------------------
// The engine process
// ---------------------------------------------------------------------------------

/// The engine's stdin and every byte written to it, in order (the replay file). One
/// lock for both, so that the writer's and the stopper's lines never interleave.
struct Input {
    stdin: Option<ChildStdin>,
    transcript: Vec<u8>,
}

impl Input {
    /// False once the engine no longer reads (it exited).
    fn write(&mut self, bytes: &[u8]) -> bool {
        self.transcript.extend_from_slice(bytes);
        match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|_| stdin.flush()).is_ok(),
            None => false,
        }
    }
}

struct Engine {
    child: Child,
    input: Arc<Mutex<Input>>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    readers: Vec<JoinHandle<()>>,
    stopper: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
}

fn lock_input(input: &Mutex<Input>) -> std::sync::MutexGuard<'_, Input> {
    input.lock().unwrap_or_else(|e| e.into_inner())
}

impl Engine {
    /// Without `log`, the engine logs where `INFO folder` says, if anywhere.
    fn spawn(bin: &Path, log: Option<&Path>, dir: &Path, one_thread: bool) -> Engine {
        let mut cmd = Command::new(bin);
        if let Some(log) = log {
            cmd.arg("--log").arg(log);
        }
        if one_thread {
            cmd.args(["--threads", "1"]);
        }
        let mut child = cmd
            .current_dir(dir)
            .env_remove("FERRUM_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting pbrain-ferrum");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr_pipe = child.stderr.take().expect("piped stderr");
        let (tx, lines) = mpsc::channel();
        let out_reader = thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf);
                        if tx
                            .send(text.trim_end_matches(['\n', '\r']).to_string())
                            .is_err()
                        {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = stderr.clone();
        let err_reader = thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        let input = Arc::new(Mutex::new(Input {
            stdin: child.stdin.take(),
            transcript: Vec::new(),
        }));
        Engine {
            child,
            input,
            lines,
            stderr,
            readers: vec![out_reader, err_reader],
            stopper: None,
        }
    }

    fn write(&self, bytes: &[u8]) -> bool {
        lock_input(&self.input).write(bytes)
    }

    /// Sends `YXSTOP` every `STOP_EVERY` until `stop_stopper`, so that no search of the
    /// burst (some have huge time limits) holds the run up.
    fn start_stopper(&mut self) {
        let done = Arc::new(AtomicBool::new(false));
        let (flag, input) = (done.clone(), self.input.clone());
        let handle = thread::spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                thread::sleep(STOP_EVERY);
                if !flag.load(Ordering::Relaxed) && !lock_input(&input).write(b"YXSTOP\n") {
                    break;
                }
            }
        });
        self.stopper = Some((done, handle));
    }

    fn stop_stopper(&mut self) {
        if let Some((flag, handle)) = self.stopper.take() {
            flag.store(true, Ordering::Relaxed);
            let _ = handle.join();
        }
    }

    /// The next stdout line that `pick` accepts (Ok(Some)) or rejects (Err), skipping
    /// those it passes over (Ok(None)), within `wait`.
    fn expect<T>(
        &mut self,
        wait: Duration,
        what: &str,
        mut pick: impl FnMut(&str) -> Result<Option<T>, String>,
    ) -> Result<T, String> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => match pick(&line) {
                    Ok(Some(v)) => return Ok(v),
                    Ok(None) => {}
                    Err(e) => return Err(format!("waiting for {what}: {e}")),
                },
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no {what} within {} ms", wait.as_millis()))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.wait_exit(Duration::from_secs(2));
                    return Err(format!("stdout closed before {what} (exit: {status})"));
                }
            }
        }
    }

    /// The exit status once the process ends, killing it after `wait`.
    fn wait_exit(&mut self, wait: Duration) -> String {
        let deadline = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status.to_string(),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => {
                    let _ = self.child.kill();
                    return format!("still running after {} ms, killed", wait.as_millis());
                }
            }
        }
    }

    fn transcript(&self) -> Vec<u8> {
        lock_input(&self.input).transcript.clone()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_stopper();
        lock_input(&self.input).stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        for r in self.readers.drain(..) {
            let _ = r.join();
        }
    }
}

// ---------------------------------------------------------------------------------
// One burst
// ---------------------------------------------------------------------------------

/// Figures over all bursts: what the engine answered during them (to see that the
/// fuzz reaches searches and not only error paths) and the slowest waits.
#[derive(Default)]
struct Stats {
    /// From a burst's last byte written to the marker's answer.
    slowest_drain: Duration,
    /// From writing END to the process's exit: idle, and during a search.
    slowest_exit: Duration,
    slowest_exit_in_search: Duration,
    moves: u64,
    errors: u64,
    unknown: u64,
    messages: u64,
    other: u64,
}

impl Stats {
    fn count(&mut self, line: &str) {
        let is_move = |s: &str| {
            s.split_once(',')
                .is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok())
        };
        let n = if line.split(' ').all(is_move) {
            &mut self.moves
        } else if line.starts_with("ERROR") {
            &mut self.errors
        } else if line.starts_with("UNKNOWN") {
            &mut self.unknown
        } else if line.starts_with("MESSAGE") || line.starts_with("DEBUG") {
            &mut self.messages
        } else {
            &mut self.other
        };
        *n += 1;
    }
}

/// Board lines of the clean position and the points they occupy.
const CLEAN_STONES: [(i64, i64, u8); 2] = [(7, 7, 1), (8, 8, 2)];

/// Writes the burst while the stopper runs, then the closing checks: the marker's
/// answer, a legal move in a clean position, the exit on END (idle, or during a search
/// after `end_in_search` ms), an empty stderr and a log without errors.
fn run_burst(
    engine: &mut Engine,
    chunks: &[(u64, Vec<u8>)],
    marker: u64,
    dir: &Path,
    end_in_search: Option<u64>,
    stats: &mut Stats,
) -> Result<(), String> {
    engine.start_stopper();
    for (pause, bytes) in chunks {
        if *pause > 0 {
            thread::sleep(Duration::from_millis(*pause));
        }
        if !engine.write(bytes) {
            break;
        }
    }
    // The leading LF ends an unterminated line; DONE closes a half-open block, so that
    // the marker is read as a command; its UNKNOWN answer comes once all before it ran.
    let written = Instant::now();
    let mark = format!("FUZZMARK{marker}");
    engine.write(format!("\nDONE\n{mark}\n").as_bytes());
    let want = format!("UNKNOWN command '{mark}'");
    engine.expect(MARK_WAIT, "the marker's UNKNOWN", |line| {
        if line == want {
            return Ok(Some(()));
        }
        stats.count(line);
        Ok(None)
    })?;
    stats.slowest_drain = stats.slowest_drain.max(written.elapsed());
    engine.stop_stopper();

    // The clean position: nothing but OK, MESSAGE/DEBUG lines and a legal move may come.
    let mut clean = String::from(
        "INFO timeout_turn 100\nINFO timeout_match 0\nINFO time_left 2147483647\n\
         INFO max_node 0\nINFO max_depth 0\nINFO thread_num 1\nSTART 15\n",
    );
    engine.write(clean.as_bytes());
    let skip = |line: &str| line.starts_with("MESSAGE") || line.starts_with("DEBUG");
    engine.expect(MOVE_WAIT, "OK to START 15", |line| match line {
        "OK" => Ok(Some(())),
        l if skip(l) => Ok(None),
        l => Err(format!("got '{}'", shorten(l))),
    })?;
    clean = String::from("BOARD\n");
    for (x, y, f) in CLEAN_STONES {
        let _ = writeln!(clean, "{x},{y},{f}");
    }
    clean.push_str("DONE\n");
    engine.write(clean.as_bytes());
    engine.expect(MOVE_WAIT, "a move in the clean position", |line| {
        if skip(line) {
            return Ok(None);
        }
        let legal = line
            .split_once(',')
            .and_then(|(x, y)| Some((x.parse::<i64>().ok()?, y.parse::<i64>().ok()?)))
            .filter(|&(x, y)| {
                (0..15).contains(&x)
                    && (0..15).contains(&y)
                    && !CLEAN_STONES.iter().any(|s| (s.0, s.1) == (x, y))
            });
        match legal {
            Some(_) => Ok(Some(())),
            None => Err(format!("'{}' is not a legal move", shorten(line))),
        }
    })?;

    if let Some(ms) = end_in_search {
        // END must act at once during a search too (this one may take 30 s).
        engine.write(b"INFO timeout_turn 30000\nTURN 0,0\n");
        thread::sleep(Duration::from_millis(ms));
    }
    engine.write(b"END\n");
    let sent = Instant::now();
    let sent_clock = SystemTime::now();
    let end_exit = loop {
        match engine.child.try_wait() {
            Ok(Some(status)) if status.success() => break sent.elapsed(),
            Ok(Some(status)) => return Err(format!("END: exit status {status}")),
            Ok(None) if sent.elapsed() < Duration::from_secs(5) => {
                thread::sleep(Duration::from_millis(1))
            }
            _ => return Err("still running 5 s after END".into()),
        }
    };
    let slowest = match end_in_search {
        Some(_) => &mut stats.slowest_exit_in_search,
        None => &mut stats.slowest_exit,
    };
    *slowest = (*slowest).max(end_exit);
    if end_exit > END_EXIT_LIMIT {
        let logged = exit_logged_after(&dir.join("burst.log"), sent_clock)
            .map(|ms| format!(" (its log has `exit` {ms:.1} ms after END was written)"))
            .unwrap_or_default();
        return Err(format!(
            "exited {} ms after END{logged}",
            end_exit.as_millis()
        ));
    }
    for r in engine.readers.drain(..) {
        let _ = r.join();
    }
    let stderr = engine.stderr.lock().unwrap();
    if !stderr.is_empty() {
        let text = String::from_utf8_lossy(&stderr[..stderr.len().min(300)]);
        return Err(format!("{} bytes on stderr: {text:?}", stderr.len()));
    }
    check_logs(dir)?;
    Ok(())
}

/// Any log line above INFO level in the burst's folder (`--log`'s file or those
/// `INFO folder` asked for): the panic hook's `panic: ...`, a caught search failure.
/// (Input lines are logged too, so a plain "panic" search would trip on the fuzz.)
fn check_logs(dir: &Path) -> Result<(), String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            check_logs(&path)?;
            continue;
        }
        let name = entry.file_name().to_string_lossy().to_string();
        if !name.ends_with(".log") && !name.ends_with(".log.old") {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let bad = text.lines().find(|l| {
            l.split_once(' ')
                .is_some_and(|(_, rest)| rest.starts_with('[') && !rest.starts_with("[INFO]"))
        });
        if let Some(line) = bad {
            return Err(format!("log {}: {}", path.display(), shorten(line)));
        }
    }
    Ok(())
}

/// Milliseconds from `sent` to the time stamp of the engine's `exit` log line (the same
/// clock): in a slow exit, the engine's own delay apart from the process teardown's.
fn exit_logged_after(log: &Path, sent: SystemTime) -> Option<f64> {
    let bytes = std::fs::read(log).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let line = text.lines().rev().find(|l| l.ends_with("[INFO] exit"))?;
    // `2026-12-04T10:27:46.269803165Z [INFO] exit`: seconds into the UTC day.
    let clock = line.split_once('T')?.1.split_once('Z')?.0;
    let mut hms = clock.split(':').map(|v| v.parse::<f64>().ok());
    let logged = hms.next()?? * 3600.0 + hms.next()?? * 60.0 + hms.next()??;
    let sent = sent
        .duration_since(SystemTime::UNIX_EPOCH)
        .ok()?
        .as_secs_f64()
        % 86_400.0;
    Some(((logged - sent + 43_200.0).rem_euclid(86_400.0) - 43_200.0) * 1000.0)
}

fn shorten(s: &str) -> String {
    if s.len() <= 200 {
        return s.to_string();
    }
    let cut = (0..=200)
        .rev()
        .find(|&c| s.is_char_boundary(c))
        .unwrap_or(0);
    format!("{}... ({} bytes)", &s[..cut], s.len())
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a number")),
        Err(_) => default,
    }
}

#[test]
fn fuzz_protocol() {
    let seed = env_u64("FUZZ_SEED", DEFAULT_SEED);
    let total = env_u64("FUZZ_LINES", DEFAULT_LINES);
    let burst_len = env_u64("FUZZ_BURST", DEFAULT_BURST).max(1);
    let bursts: Vec<u64> = match std::env::var("FUZZ_ONLY") {
        Ok(b) => vec![b.trim().parse().expect("FUZZ_ONLY: a burst number")],
        Err(_) => (0..total.div_ceil(burst_len)).collect(),
    };
    // A copy of the binary: a `cargo build` during a long run must not swap it.
    let run_dir = std::env::temp_dir().join(format!("ferrum-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&run_dir).expect("creating the run's temp dir");
    let bin = run_dir.join("pbrain-ferrum");
    std::fs::copy(env!("CARGO_BIN_EXE_pbrain-ferrum"), &bin).expect("copying the engine");
    let started = Instant::now();
    let (mut lines, mut done) = (0, 0);
    let mut failures: Vec<String> = Vec::new();
    let mut stats = Stats::default();
    for &burst in &bursts {
        let dir = run_dir.join(format!("burst{burst}"));
        std::fs::create_dir_all(&dir).expect("creating the burst's temp dir");
        let mut gen = Gen::new(burst_seed(seed, burst), &dir);
        let want = burst_len
            .min(total.saturating_sub(burst * burst_len))
            .max(1);
        let (chunks, count) = gen.burst(want);
        let one_thread = gen.rng.chance(7, 8);
        let marker = gen.rng.next_u64();
        let end_in_search = gen.rng.chance(1, 3).then(|| gen.rng.below(40));
        // Some bursts without `--log`, so that `INFO folder` decides where to log.
        let log = gen.rng.chance(7, 8).then(|| dir.join("burst.log"));
        let mut engine = Engine::spawn(&bin, log.as_deref(), &dir, one_thread);
        let result = run_burst(
            &mut engine,
            &chunks,
            marker,
            &dir,
            end_in_search,
            &mut stats,
        )
        .and_then(|()| match &log {
            // Logging that broke would hide every panic line from `check_logs`.
            Some(path) if !path.exists() => Err(format!("no log at {}", path.display())),
            _ => Ok(()),
        });
        lines += count;
        done += 1;
        if let Err(msg) = result {
            // The failing burst's folder stays: its logs and the bytes written.
            let replay = dir.join("stdin.bin");
            let stderr = engine.stderr.lock().unwrap().clone();
            let msg = if stderr.is_empty() || msg.contains("on stderr") {
                msg
            } else {
                let text = String::from_utf8_lossy(&stderr[..stderr.len().min(300)]);
                format!("{msg}; stderr: {text:?}")
            };
            let _ = std::fs::write(&replay, engine.transcript());
            let report = format!(
                "burst {burst} (seed {seed}, {}, {}): {msg}; stdin bytes in {}, logs in {} \
                 (rerun: FUZZ_SEED={seed} FUZZ_LINES={total} FUZZ_BURST={burst_len} \
                 FUZZ_ONLY={burst})",
                if one_thread {
                    "--threads 1"
                } else {
                    "all threads"
                },
                if log.is_some() { "--log" } else { "no --log" },
                replay.display(),
                dir.display()
            );
            println!("FAIL {report}");
            failures.push(report);
        } else {
            drop(engine);
            let _ = std::fs::remove_dir_all(&dir);
        }
        if done % 100 == 0 {
            println!(
                "progress: {done}/{} bursts, {lines} lines, {} failures, {} s",
                bursts.len(),
                failures.len(),
                started.elapsed().as_secs()
            );
        }
        if failures.len() >= MAX_FAILURES {
            break;
        }
    }
    let _ = std::fs::remove_file(&bin);
    // Only when no failing burst's folder is left in it.
    let _ = std::fs::remove_dir(&run_dir);
    println!(
        "fuzz: {lines} lines in {done} bursts, {} failures, seed {seed}, \
         slowest END exit {} ms ({} ms idle, {} ms during a search; slowest burst drain {} ms, \
         {} s)",
        failures.len(),
        stats
            .slowest_exit
            .max(stats.slowest_exit_in_search)
            .as_millis(),
        stats.slowest_exit.as_millis(),
        stats.slowest_exit_in_search.as_millis(),
        stats.slowest_drain.as_millis(),
        started.elapsed().as_secs()
    );
    println!(
        "answers during the bursts: {} moves, {} ERROR, {} UNKNOWN, {} MESSAGE/DEBUG, {} other",
        stats.moves, stats.errors, stats.unknown, stats.messages, stats.other
    );
    assert!(
        failures.is_empty(),
        "{} failing bursts:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The fuzz must reach the searches and both refusals, not only one path (the
    // default run: about 6 % of its lines answered by moves, 6 % ERROR, 37 % UNKNOWN).
    if lines >= 5000 {
        let floor = lines / 100;
        assert!(
            stats.moves >= floor && stats.errors >= floor && stats.unknown >= floor,
            "too few answers of a kind for {lines} lines"
        );
    }
}
