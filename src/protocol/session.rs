//! Session state (board, rule, limits, options) and the event loop that answers the
//! manager while searches run on their own thread.

use super::command::{parse_board_line, parse_coord, Command, Coord};
use super::jobs::{self, Answer, Job, JobEvent, Outcome, StopSignal};
use super::output::Output;
use super::Event;
use crate::board::{Board, Cell, Color, Pos, Rule};
use crate::engine::{default_threads, tt_bytes_for, Engine};
use crate::logging::LogSink;
use crate::net::file::NetWeights;
use crate::search::movegen::any_legal_move;
use crate::search::params::time::LATE_GRACE;
use crate::search::quick_move;
use crate::search::score::format_score;
use crate::search::{Limits, Progress};
use crate::timeman::TimeControl;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The version field carries the commit built from (build.rs), so that a manager's
/// log tells which build played.
pub const ABOUT: &str = concat!(
    "name=\"Ferrum\", version=\"",
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("FERRUM_COMMIT"),
    ")\", author=\"Ferrum developers\", country=\"-\", www=\"-\""
);

/// Which multi-line block is being read.
#[derive(Clone, Copy, Debug, PartialEq)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2,
}

/// The opening rule of `INFO rule 5` (swap after the first move) and `INFO rule 6`
/// (swap2), as Rapfi reads them; both are freestyle boards.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Opening {
    Free,
    Swap1,
    Swap2,
}

/// A search on its own thread.
struct Running {
    id: u64,
    job: Job,
    stop: Arc<StopSignal>,
    /// The main search's last completed iteration: move, score, depth.
    best: Option<(Pos, i32, i32)>,
    /// When the search is overdue (its hard limit and `LATE_GRACE`), until handled.
    due: Option<Instant>,
}

/// Realtime POS/DONE lines start this long after the command (as in Rapfi), so that
/// the first shallow iterations do not flood the GUI.
const REALTIME_DELAY: Duration = Duration::from_millis(200);

pub struct Session {
    out: Output,
    events: Sender<Event>,
    engine: Arc<Mutex<Engine>>,
    board: Option<Board>,
    rule: Rule,
    time: TimeControl,
    max_memory: u64,
    hash_kb: Option<u64>,
    max_depth: i32,
    max_nodes: u64,
    opening: Opening,
    /// `INFO swapable 1` (Rapfi): under rule 5/6 a move request may answer `SWAP`.
    swapable: bool,
    /// `INFO show_detail`: bit 0 asks for the REALTIME lines.
    realtime: bool,
    /// When the running search's command arrived (for the realtime delay).
    search_start: Instant,
    /// The root move last announced with `REALTIME POS`, not yet `DONE`.
    realtime_pos: Option<Pos>,
    block: Option<(BlockKind, Vec<String>)>,
    /// The running search, if one runs.
    search: Option<Running>,
    /// Numbers the searches, so that news of one already answered is dropped.
    searches_started: u64,
    /// Lines that arrived during a search, handled after it.
    pending: VecDeque<(String, Instant)>,
    log: LogSink,
    log_explicit: bool,
}

fn lock(engine: &Mutex<Engine>) -> std::sync::MutexGuard<'_, Engine> {
    engine.lock().unwrap_or_else(|e| e.into_inner())
}

impl Session {
    /// `threads`: the search threads until `INFO thread_num` says otherwise (default:
    /// every core).
    pub fn new(
        events: Sender<Event>,
        log: LogSink,
        log_explicit: bool,
        threads: Option<usize>,
    ) -> Session {
        let threads = threads.unwrap_or_else(default_threads);
        log::info!("search threads: {threads}");
        Session {
            out: Output::new(),
            events,
            // The smallest table until a search: its size waits for max_memory, which
            // managers send after START.
            engine: Arc::new(Mutex::new(Engine::new(0, threads))),
            board: None,
            rule: Rule::Freestyle,
            time: TimeControl::default(),
            max_memory: 0,
            hash_kb: None,
            max_depth: 100,
            max_nodes: u64::MAX,
            opening: Opening::Free,
            swapable: false,
            realtime: false,
            search_start: Instant::now(),
            realtime_pos: None,
            block: None,
            search: None,
            searches_started: 0,
            pending: VecDeque::new(),
            log,
            log_explicit,
        }
    }

    pub fn run(mut self, events: Receiver<Event>) -> ! {
        loop {
            let event = match self.search.as_ref().and_then(|r| r.due) {
                Some(at) => match events.recv_timeout(at.saturating_duration_since(Instant::now()))
                {
                    Ok(event) => event,
                    Err(RecvTimeoutError::Timeout) => {
                        self.search_overdue();
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => self.exit(),
                },
                None => match events.recv() {
                    Ok(event) => event,
                    Err(_) => self.exit(),
                },
            };
            match event {
                Event::Line(text, at) => {
                    log::info!("<< {text}");
                    if self.search.is_some() {
                        self.line_during_search(text, at);
                    } else {
                        self.handle_line(&text, at);
                    }
                }
                Event::Eof => self.exit(),
                Event::Job(id, e) => {
                    if self.search.as_ref().is_some_and(|r| r.id == id) {
                        self.job_event(e);
                    }
                }
                Event::Done(id, job, outcome) => {
                    if self.search.as_ref().is_some_and(|r| r.id == id) {
                        self.answer(job, outcome);
                    } else {
                        log::info!("search {id} ended after its move was answered");
                    }
                }
            }
        }
    }

    /// Prints a job's answer, then handles the lines that waited for it.
    fn answer(&mut self, job: Job, outcome: Outcome) {
        self.search = None;
        self.finish(job, outcome);
        while self.search.is_none() {
            let Some((text, at)) = self.pending.pop_front() else {
                break;
            };
            self.handle_line(&text, at);
        }
    }

    /// The running search is past its hard limit: it is stopped (its own clock checks
    /// come every few hundred nodes, and a node can stall), and a move request is
    /// answered now from its last completed iteration; its own result is dropped.
    fn search_overdue(&mut self) {
        if let Some(run) = &mut self.search {
            run.due = None;
        }
        self.stop_search();
        let Some(run) = self.search.take_if(|r| r.job == Job::Move) else {
            return;
        };
        log::info!(
            "search {} overdue: answering its last iteration's move",
            run.id
        );
        let (best, score, depth) = match run.best {
            Some((p, score, depth)) => (Some(p), score, depth),
            None => (
                self.board.clone().and_then(|mut b| quick_move(&mut b)),
                0,
                0,
            ),
        };
        let outcome = Outcome {
            answer: Answer::Move(best),
            score,
            depth,
            nodes: 0,
            lost: Vec::new(),
        };
        self.answer(Job::Move, outcome);
    }

    fn exit(&mut self) -> ! {
        if let Some(run) = &self.search {
            run.stop.stop();
        }
        log::info!("exit");
        log::logger().flush();
        std::process::exit(0)
    }

    /// While a search runs, END, YXSTOP/STOP and `INFO timeout_turn 0` act at once;
    /// everything else waits for the search to finish.
    fn line_during_search(&mut self, text: String, at: Instant) {
        let cmd: Command = text.parse().unwrap_or(Command::Unknown(String::new()));
        match &cmd {
            Command::End => self.exit(),
            Command::Stop => self.stop_search(),
            Command::Info(key, value) if key == "timeout_turn" && value.trim() == "0" => {
                self.stop_search();
                self.pending.push_back((text, at));
            }
            _ => self.pending.push_back((text, at)),
        }
    }

    fn stop_search(&self) {
        if let Some(run) = &self.search {
            run.stop.stop();
        }
    }

    fn handle_line(&mut self, text: &str, at: Instant) {
        let cmd: Command = text.parse().unwrap_or(Command::Unknown(String::new()));
        if let Some((kind, lines)) = &mut self.block {
            match cmd {
                Command::Done => {
                    let (kind, lines) = (*kind, std::mem::take(lines));
                    self.block = None;
                    self.end_block(kind, &lines, at);
                }
                Command::End => self.exit(),
                _ => lines.push(text.to_string()),
            }
            return;
        }
        match cmd {
            Command::Start(w, h) | Command::RectStart(w, h) => self.start(w, h),
            Command::Restart => match &self.board {
                Some(b) => {
                    let (w, h) = (b.width() as i64, b.height() as i64);
                    self.start(w, h)
                }
                None => self.out.line("ERROR RESTART before START"),
            },
            Command::Begin => {
                if self.board.is_some() {
                    self.request(Job::Move, at);
                } else {
                    self.out.line("ERROR BEGIN before START");
                }
            }
            Command::Turn(c) => self.turn(c, at),
            Command::Board => self.block = Some((BlockKind::Board, Vec::new())),
            Command::YxBoard => self.block = Some((BlockKind::YxBoard, Vec::new())),
            Command::Swap2Board => self.block = Some((BlockKind::Swap2, Vec::new())),
            Command::Done => self.out.line("ERROR DONE without BOARD"),
            Command::Info(key, value) => self.info(&key, &value),
            Command::End => self.exit(),
            Command::About => self.out.line(ABOUT),
            Command::Takeback(c) => self.takeback(c),
            Command::Play(c) => self.play(c),
            Command::Stop => {}
            Command::NBest(n) => self.with_board(|s| s.request(Job::NBest(n), at)),
            Command::Balance { two, bias } => {
                self.with_board(|s| s.request(Job::Balance { two, bias }, at))
            }
            Command::ShowForbid => self.with_board(Session::show_forbid),
            Command::HashClear => lock(&self.engine).clear(),
            Command::ShowInfo => {
                let threads = default_threads();
                self.out
                    .line(&format!("MESSAGE INFO MAX_THREAD_NUM {threads}"));
                // The largest `hash_size` exponent (2^k KB): 24 (16 GiB, the TT's cap)
                // or less on a machine with less memory available.
                let log2_kb = (lock(&self.engine).max_tt_bytes() >> 10).ilog2();
                self.out
                    .line(&format!("MESSAGE INFO MAX_HASH_SIZE {log2_kb}"));
            }
            Command::Malformed(msg) => self.out.line(&format!("ERROR {msg}")),
            Command::Unknown(line) => self.out.line(&format!("UNKNOWN command '{line}'")),
        }
    }

    /// Runs `f` if a board exists (START answered OK), else answers ERROR.
    fn with_board(&mut self, f: impl FnOnce(&mut Session)) {
        if self.board.is_some() {
            f(self);
        } else {
            self.out.line("ERROR no board: send START first");
        }
    }

    /// `FORBID xxyyxxyy….`: Black's renju forbidden points, row by row, two digits
    /// per coordinate (x first), ending in `.`; `FORBID .` when there are none or
    /// the rule has no forbidden points.
    fn show_forbid(&mut self) {
        let Some(board) = self.board.as_mut() else {
            return;
        };
        let mut line = String::from("FORBID ");
        for p in board.forbidden_points() {
            line.push_str(&format!("{:02}{:02}", p.x(), p.y()));
        }
        line.push('.');
        self.out.line(&line);
    }

    fn start(&mut self, w: i64, h: i64) {
        let size_ok =
            |v: i64| (crate::board::MIN_SIZE as i64..=crate::board::MAX_SIZE as i64).contains(&v);
        if !size_ok(w) || !size_ok(h) {
            self.out.line(&format!(
                "ERROR unsupported size {w}x{h}: sides from {} to {}",
                crate::board::MIN_SIZE,
                crate::board::MAX_SIZE
            ));
            return;
        }
        match Board::new(w as usize, h as usize, self.rule) {
            Ok(b) => {
                self.board = Some(b);
                self.size_tt();
                self.out.line("OK");
            }
            Err(e) => self.out.line(&format!("ERROR {e}")),
        }
    }

    /// Sizes the TT from max_memory, hash_size, the solvers' tables and the thread
    /// count (only between searches; the table is made at the next search).
    fn size_tt(&mut self) {
        let mut engine = lock(&self.engine);
        let cap = engine.max_tt_bytes();
        let solver_bytes = engine.solver_bytes();
        let bytes = tt_bytes_for(
            self.max_memory,
            self.hash_kb.map(|kb| kb.saturating_mul(1024)),
            cap,
            solver_bytes,
        );
        engine.resize_tt(bytes);
        log::info!(
            "TT: {} MiB, solver tables: {} MiB",
            bytes >> 20,
            solver_bytes >> 20
        );
    }

    /// The board point for manager coordinates, if on the board.
    fn point(&self, (x, y): Coord) -> Option<Pos> {
        self.board.as_ref()?.pos(x, y)
    }

    fn turn(&mut self, c: Coord, at: Instant) {
        let Some(board) = self.board.as_mut() else {
            self.out.line("ERROR TURN before START");
            return;
        };
        let Some(p) = board.pos(c.0, c.1) else {
            self.out
                .line(&format!("ERROR {},{} is off the board", c.0, c.1));
            return;
        };
        if !board.is_empty(p) {
            self.out.line(&format!("ERROR {},{} is occupied", c.0, c.1));
            return;
        }
        let side = board.to_move();
        board.make(p, side);
        self.request(Job::Move, at);
    }

    fn takeback(&mut self, c: Coord) {
        let Some(p) = self.point(c) else {
            self.out
                .line(&format!("ERROR cannot take back {},{}", c.0, c.1));
            return;
        };
        let board = self.board.as_mut().expect("point() found a board");
        match board.last_move() {
            Some((last, owner)) if last == p => {
                board.undo();
                // Its owner moves again (a BOARD setup placed stones out of turn).
                board.set_to_move(owner);
                self.out.line("OK");
            }
            _ => self
                .out
                .line(&format!("ERROR {p} is not the last stone played")),
        }
    }

    fn play(&mut self, c: Coord) {
        let Some(p) = self.point(c) else {
            self.out.line(&format!("ERROR cannot play {},{}", c.0, c.1));
            return;
        };
        let board = self.board.as_mut().expect("point() found a board");
        let side = board.to_move();
        if !board.is_legal(side, p) {
            self.out.line(&format!("ERROR {p} is not a legal move"));
            return;
        }
        board.make(p, side);
        self.out.line(&p.to_string());
    }

    /// The networks the engine may use and whether it starts with them.
    pub fn set_nets(&mut self, nets: &[Arc<NetWeights>], use_net: bool) {
        lock(&self.engine).set_nets(nets, use_net);
    }

    fn info(&mut self, key: &str, value: &str) {
        let int = value.trim().parse::<i64>().ok();
        match (key, int) {
            ("timeout_turn", Some(v)) => self.time.turn_ms = Some(v.max(0) as u64),
            ("timeout_match", Some(v)) => self.time.match_ms = (v > 0).then_some(v as u64),
            ("time_left", Some(v)) => self.time.left_ms = Some(v),
            ("max_memory", Some(v)) => {
                self.max_memory = v.max(0) as u64;
                self.size_tt();
            }
            ("hash_size", Some(v)) => {
                self.hash_kb = (v > 0).then_some(v as u64);
                self.size_tt();
            }
            ("thread_num", Some(v)) => {
                let n = if v > 0 { v as usize } else { default_threads() };
                lock(&self.engine).set_threads(n);
                // Each thread has a solver table of its own, within max_memory.
                if self.max_memory > 0 {
                    self.size_tt();
                }
            }
            ("max_depth", Some(v)) => self.max_depth = if v > 0 { v.min(100) as i32 } else { 100 },
            ("max_node", Some(v)) => self.max_nodes = if v > 0 { v as u64 } else { u64::MAX },
            ("rule", Some(v)) => {
                if let Some(rule) = Rule::from_gomocup(v) {
                    self.opening = match v {
                        5 => Opening::Swap1,
                        6 => Opening::Swap2,
                        _ => Opening::Free,
                    };
                    self.rule = rule;
                    if let Some(b) = &self.board {
                        self.board = Some(b.with_rule(rule));
                    }
                }
            }
            ("folder", _) if !self.log_explicit && !value.is_empty() => {
                let path = std::path::Path::new(value)
                    .join("ferrum")
                    .join("ferrum.log");
                self.log.set_file(&path);
            }
            // Yixin-Board: 0 nothing, 1 realtime, 2 detail, 3 both (Rapfi's reading).
            // Only the realtime lines are MESSAGE lines; the detail form is not sent.
            ("show_detail", Some(v)) => self.realtime = v & 1 != 0,
            ("swapable", Some(v)) => self.swapable = v == 1,
            // Our own key: `INFO eval net` or `INFO eval classical` (`--eval`).
            ("eval", _) if matches!(value.trim(), "net" | "classical") => {
                lock(&self.engine).set_use_net(value.trim() == "net");
            }
            // game_type, evaluate, pondering (we never think on the opponent's time),
            // caution_factor (the candidate range is the search's own) and unknown
            // keys need nothing from us.
            _ => log::info!("INFO {key} {value} ignored"),
        }
    }

    fn end_block(&mut self, kind: BlockKind, lines: &[String], at: Instant) {
        let Some(old) = self.board.as_ref() else {
            self.out.line("ERROR board block before START");
            return;
        };
        let fresh =
            Board::new(old.width(), old.height(), self.rule).expect("size already accepted");
        match kind {
            BlockKind::Board | BlockKind::YxBoard => match position_from_lines(fresh, lines) {
                Ok(board) => {
                    self.board = Some(board);
                    if kind == BlockKind::Board {
                        self.request(Job::Move, at);
                    }
                }
                Err(e) => self.out.line(&format!("ERROR {e}")),
            },
            BlockKind::Swap2 => self.swap2(fresh, lines, at),
        }
    }

    fn swap2(&mut self, mut board: Board, lines: &[String], at: Instant) {
        let mut stones = Vec::new();
        for line in lines {
            let c = parse_coord(
                line.rsplit_once(',')
                    .filter(|_| line.matches(',').count() == 2)
                    .map(|(a, _)| a)
                    .unwrap_or(line),
            );
            match c
                .and_then(|c| board.pos(c.0, c.1))
                .filter(|&p| board.is_empty(p))
            {
                Some(p) => {
                    let side = board.to_move();
                    board.make(p, side);
                    stones.push(p);
                }
                None => {
                    self.out
                        .line(&format!("ERROR bad SWAP2BOARD line '{line}'"));
                    return;
                }
            }
        }
        match stones.len() {
            0 => {
                self.board = Some(board);
                self.request(Job::Swap2Open, at);
            }
            3 | 5 => {
                self.board = Some(board);
                self.request(
                    Job::Swap2Decide {
                        stones: stones.len(),
                    },
                    at,
                );
            }
            n => self.out.line(&format!("ERROR SWAP2BOARD with {n} stones")),
        }
    }

    /// Starts a job on the current board; the answer is printed when it ends.
    fn request(&mut self, job: Job, at: Instant) {
        let Some(board) = self.board.clone() else {
            return;
        };
        if board.empty_count() == 0 {
            self.out.line("ERROR the board is full");
            return;
        }
        let budget = self.time.budget(board.empty_count());
        let limits = Limits {
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            report_root_moves: self.realtime,
            ..Limits::time(at, budget.soft, budget.hard)
        };
        let stop = Arc::new(StopSignal::new());
        self.searches_started += 1;
        let id = self.searches_started;
        self.search = Some(Running {
            id,
            job,
            stop: stop.clone(),
            best: None,
            due: at.checked_add(limits.hard.saturating_add(LATE_GRACE)),
        });
        self.search_start = at;
        self.realtime_pos = None;
        let engine = self.engine.clone();
        let events = self.events.clone();
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(16 << 20)
            .spawn(move || {
                let sender = Mutex::new(events.clone());
                let report = |e: JobEvent| {
                    let tx = sender.lock().unwrap_or_else(|e| e.into_inner());
                    let _ = tx.send(Event::Job(id, e));
                };
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let mut engine = lock(&engine);
                    // The table takes the size the limits ask for here, on the search
                    // thread: START and INFO answer without allocating.
                    engine.prepare();
                    jobs::run(job, &engine, &board, &limits, &stop, &report)
                }));
                let outcome = outcome.unwrap_or_else(|_| {
                    log::error!("search failed; answering a legal move");
                    let mut b = board.clone();
                    Outcome {
                        answer: Answer::Move(any_legal_move(&mut b)),
                        score: 0,
                        depth: 0,
                        nodes: 0,
                        lost: Vec::new(),
                    }
                });
                let _ = events.send(Event::Done(id, job, outcome));
            });
        if spawned.is_err() {
            self.search = None;
            self.out.line("ERROR cannot start the search thread");
        }
    }

    /// News from the running job: progress lines, realtime lines, messages.
    fn job_event(&mut self, e: JobEvent) {
        match e {
            JobEvent::Progress { progress, main } => {
                self.out.line(&progress_line(&progress));
                if let (true, Some(run), Some(&best)) =
                    (main, &mut self.search, progress.pv.first())
                {
                    run.best = Some((best, progress.score, progress.depth));
                }
                if self.realtime && main {
                    self.realtime_done();
                    if let Some(best) = progress.pv.first() {
                        self.out.line("MESSAGE REALTIME REFRESH");
                        self.out.line(&format!("MESSAGE REALTIME BEST {best}"));
                    }
                }
            }
            JobEvent::RootMove(p) => {
                if self.realtime && self.search_start.elapsed() >= REALTIME_DELAY {
                    self.realtime_done();
                    self.out.line(&format!("MESSAGE REALTIME POS {p}"));
                    self.realtime_pos = Some(p);
                }
            }
            JobEvent::Message(text) => self.out.line(&format!("MESSAGE {text}")),
        }
    }

    /// `REALTIME DONE` for the root move last announced, if any.
    fn realtime_done(&mut self) {
        if let Some(p) = self.realtime_pos.take() {
            self.out.line(&format!("MESSAGE REALTIME DONE {p}"));
        }
    }

    fn finish(&mut self, job: Job, outcome: Outcome) {
        log::info!(
            "{job:?}: score {} depth {} nodes {}",
            outcome.score,
            outcome.depth,
            outcome.nodes
        );
        if self.realtime {
            self.realtime_done();
            for p in &outcome.lost {
                self.out.line(&format!("MESSAGE REALTIME LOST {p}"));
            }
        }
        let Some(board) = self.board.as_mut() else {
            return;
        };
        let side = board.to_move();
        match outcome.answer {
            Answer::Text(text) => self.out.line(&text),
            Answer::Move(best) => {
                // Rapfi's `swapable`: under swap1 after the first stone, under swap2
                // after the third or fifth, a worse side to move answers SWAP.
                let n = board.move_count();
                let may_swap = self.swapable
                    && job == Job::Move
                    && match self.opening {
                        Opening::Swap1 => n == 1,
                        Opening::Swap2 => n == 3 || n == 5,
                        Opening::Free => false,
                    };
                if may_swap && outcome.score < 0 {
                    self.out.line("SWAP");
                    return;
                }
                // Never answer an illegal point, whatever the search said.
                let best = best
                    .filter(|&p| board.is_legal(side, p))
                    .or_else(|| any_legal_move(board));
                match best {
                    Some(best) => {
                        board.make(best, side);
                        self.out.line(&best.to_string());
                    }
                    None => self.out.line("ERROR no legal move"),
                }
            }
            Answer::Moves(moves) => {
                let mut b = board.clone();
                let legal = moves.iter().all(|&p| {
                    let c = b.to_move();
                    let ok = b.is_legal(c, p);
                    if ok {
                        b.make(p, c);
                    }
                    ok
                });
                if legal && !moves.is_empty() {
                    *board = b;
                    let text: Vec<String> = moves.iter().map(|p| p.to_string()).collect();
                    self.out.line(&text.join(" "));
                } else {
                    match any_legal_move(board) {
                        Some(p) => {
                            board.make(p, side);
                            self.out.line(&p.to_string());
                        }
                        None => self.out.line("ERROR no legal move"),
                    }
                }
            }
        }
    }
}

/// The position described by BOARD/YXBOARD lines (`x,y,f`, in game order). The side
/// to move owns the f=1 stones: Black when both sides have as many stones.
fn position_from_lines(mut board: Board, lines: &[String]) -> Result<Board, String> {
    let mut stones = Vec::with_capacity(lines.len());
    for line in lines {
        let (c, f) = parse_board_line(line).ok_or_else(|| format!("bad board line '{line}'"))?;
        let p = board
            .pos(c.0, c.1)
            .ok_or_else(|| format!("board line '{line}' is off the board"))?;
        if stones.iter().any(|&(q, _)| q == p) {
            return Err(format!("board line '{line}' repeats a point"));
        }
        stones.push((p, f));
    }
    let own = stones.iter().filter(|s| s.1 == 1).count();
    let theirs = stones.iter().filter(|s| s.1 == 2).count();
    let me = if own < theirs {
        Color::White
    } else {
        Color::Black
    };
    // Walls first: `undo` takes back moves only, and a wall placed after a move would
    // be partly undone with it.
    for &(p, _) in stones.iter().filter(|s| s.1 == 3) {
        board.place_wall(p);
    }
    for &(p, f) in stones.iter().filter(|s| s.1 != 3) {
        board.make(p, if f == 1 { me } else { me.opp() });
    }
    debug_assert!(stones.iter().all(|&(p, _)| board.cell(p) != Cell::Empty));
    board.set_to_move(me);
    Ok(board)
}

/// `MESSAGE depth 12-18 ev 35 n 1.2M n/ms 850 tm 1530 pv h8 i9 j10`.
fn progress_line(p: &Progress) -> String {
    let ms = p.elapsed.as_millis().max(1) as u64;
    format!(
        "MESSAGE depth {}-{} ev {} n {} n/ms {} tm {} pv {}",
        p.depth,
        p.seldepth,
        format_score(p.score),
        human_count(p.nodes),
        p.nodes / ms,
        ms,
        Pos::line_notation(&p.pv)
    )
}

fn human_count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=9_999_999 => format!("{}K", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}
