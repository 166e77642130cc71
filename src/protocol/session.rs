//! Session state (board, rule, limits, options) and the event loop that answers the
//! manager while searches run on their own thread: each line goes to the commands of
//! `position` (the board), `options` (INFO keys) or `answers` (a search job's life).

use super::command::Command;
use super::jobs::{Job, StopSignal};
use super::output::Output;
use super::Event;
use crate::board::{Board, Pos, Rule};
use crate::engine::{default_threads, max_tt_bytes_holding, Engine};
use crate::logging::LogSink;
use crate::timeman::TimeControl;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, TryLockError};
use std::time::Instant;

mod answers;
mod options;
mod position;

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
    /// When the search is overdue (its hard limit and its job's grace), until handled.
    due: Option<Instant>,
}

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
    /// Standard input has ended: what was asked is answered at once, then the engine
    /// exits.
    input_ended: bool,
    /// Changes to the engine not made yet, shared with the jobs (`with_engine`).
    engine_changes: Arc<Mutex<EngineChanges>>,
    log: LogSink,
    log_explicit: bool,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The largest table the machine can hold now, without waiting for a search that
/// holds the engine (its table then counts as not freed).
fn max_tt_bytes(engine: &Mutex<Engine>) -> u64 {
    match engine.try_lock() {
        Ok(engine) => engine.max_tt_bytes(),
        Err(_) => max_tt_bytes_holding(0),
    }
}

/// A change to the engine asked for by a command.
type EngineChange = Box<dyn FnOnce(&mut Engine) + Send>;

/// Changes to the engine that found it held by a search answered early (past its hard
/// limit), in the order asked; whichever job next holds the engine makes them all
/// before it searches, so a later job never searches without them.
#[derive(Default)]
struct EngineChanges {
    changes: Vec<EngineChange>,
    /// A new size or rule: the table is emptied by the next job (on its thread:
    /// freeing a large table takes milliseconds).
    clear_table: bool,
}

impl EngineChanges {
    /// Makes the changes waiting in `shared` to `engine` (with `clear`, the table's
    /// emptying too).
    fn make(shared: &Mutex<EngineChanges>, engine: &mut Engine, clear: bool) {
        let (changes, clear_table) = {
            let mut waiting = lock(shared);
            let clear_table = clear && std::mem::take(&mut waiting.clear_table);
            (std::mem::take(&mut waiting.changes), clear_table)
        };
        for change in changes {
            change(engine);
        }
        if clear_table {
            engine.clear();
        }
    }
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
        // No more than the cores, as `INFO thread_num`.
        let threads = threads.map_or_else(default_threads, |n| n.min(default_threads()));
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
            input_ended: false,
            engine_changes: Arc::default(),
            log,
            log_explicit,
        }
    }

    pub fn run(mut self, events: Receiver<Event>) -> ! {
        loop {
            // Input that ends before its answer (a pipe, or a manager gone): what was
            // asked is answered at once, as after YXSTOP, the queued lines too, and then
            // the engine exits; a search left to its limits could outlive its manager
            // by an analysis' hours.
            if self.input_ended {
                if self.search.is_none() {
                    self.exit();
                }
                self.stop_search();
            }
            // Checked before each event too: a search that keeps sending news (realtime
            // lines) would otherwise postpone the timeout.
            if self
                .search
                .as_ref()
                .and_then(|r| r.due)
                .is_some_and(|at| Instant::now() >= at)
            {
                self.search_overdue();
                continue;
            }
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
                Event::Eof => self.input_ended = true,
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

    fn exit(&mut self) -> ! {
        if let Some(run) = &self.search {
            run.stop.stop();
        }
        log::info!("exit");
        log::logger().flush();
        std::process::exit(0)
    }

    /// While a search runs, END, YXSTOP/STOP and `INFO timeout_turn 0` act at once;
    /// everything else waits for the search to finish. A STOP also stops the jobs
    /// queued before it (`request`).
    fn line_during_search(&mut self, text: String, at: Instant) {
        let cmd: Command = text.parse().unwrap_or(Command::Unknown(String::new()));
        match &cmd {
            Command::End => self.exit(),
            Command::Stop => {
                // Also kept in the queue: a job queued before it is stopped as it starts.
                self.stop_search();
                self.pending.push_back((text, at));
            }
            Command::Info(key, value)
                if key == "timeout_turn" && value.trim().parse::<i64>().is_ok_and(|v| v <= 0) =>
            {
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
                Command::Unknown(_) => lines.push(text.to_string()),
                // A manager that gave up on the block: it ends unread, the command is
                // answered.
                _ => {
                    self.block = None;
                    self.out.line(&format!(
                        "ERROR board block ended by '{}' before DONE; the board is unchanged",
                        text.trim()
                    ));
                    self.handle_line(text, at);
                }
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
            Command::HashClear => self.with_engine(Engine::clear),
            Command::ShowInfo => {
                let threads = default_threads();
                self.out
                    .line(&format!("MESSAGE INFO MAX_THREAD_NUM {threads}"));
                // The largest `hash_size` exponent (2^k KB): 24 (16 GiB, the TT's cap)
                // or less on a machine with less memory available.
                let log2_kb = (max_tt_bytes(&self.engine) >> 10).ilog2();
                self.out
                    .line(&format!("MESSAGE INFO MAX_HASH_SIZE {log2_kb}"));
            }
            Command::Malformed(msg) => self.out.line(&format!("ERROR {msg}")),
            Command::Unknown(line) => self.out.line(&format!("UNKNOWN command '{line}'")),
        }
    }

    /// Makes `change` to the engine now, or, while a search answered early still holds
    /// it, on the next job's thread before it searches: the protocol thread never
    /// waits for a search, so a command answers at once.
    fn with_engine(&mut self, change: impl FnOnce(&mut Engine) + Send + 'static) {
        let mut engine = match self.engine.try_lock() {
            Ok(engine) => engine,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => {
                lock(&self.engine_changes).changes.push(Box::new(change));
                return;
            }
        };
        EngineChanges::make(&self.engine_changes, &mut engine, false);
        change(&mut engine);
    }

    /// The table is emptied before the next search (a new size or rule: its keys hold
    /// the stones only).
    fn clear_table(&mut self) {
        lock(&self.engine_changes).clear_table = true;
    }

    /// Runs `f` if a board exists (START answered OK), else answers ERROR.
    fn with_board(&mut self, f: impl FnOnce(&mut Session)) {
        if self.board.is_some() {
            f(self);
        } else {
            self.out.line("ERROR no board: send START first");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::parse_coord;
    use std::time::Duration;

    /// `--threads` is capped at the cores as `INFO thread_num` is: more threads than
    /// cores only delay the answer.
    #[test]
    fn a_thread_count_past_the_cores_is_capped() {
        let (events, _) = std::sync::mpsc::channel();
        let session = Session::new(events, LogSink::default(), true, Some(1000));
        assert_eq!(lock(&session.engine).threads(), default_threads());
    }

    /// While a search answered early still holds the engine, a command that changes
    /// the engine answers at once; the change is made before the next search.
    #[test]
    fn commands_do_not_wait_for_a_search_holding_the_engine() {
        let (events, _) = std::sync::mpsc::channel();
        let mut session = Session::new(events, LogSink::default(), true, Some(1));
        let engine = session.engine.clone();
        let held = lock(&engine);
        let (done, answered) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            session.info("hash_size", "65536");
            session.info("thread_num", "3");
            let _ = done.send(session);
        });
        let mut session = answered
            .recv_timeout(Duration::from_secs(10))
            .expect("INFO waited for the engine");
        assert_eq!(lock(&session.engine_changes).changes.len(), 2);
        drop(held);
        session.with_engine(Engine::clear);
        assert!(lock(&session.engine_changes).changes.is_empty());
        let mut engine = lock(&engine);
        engine.prepare();
        let threads = 3.min(crate::engine::default_threads());
        assert_eq!((engine.tt_bytes(), engine.threads()), (64 << 20, threads));
    }

    /// The protocol lines a session wrote.
    #[derive(Clone, Default)]
    struct Written(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Written {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A job that cannot search (the engine is held, as by a stalled search answered
    /// early) is answered when it is overdue, in its own form: each job's rule and
    /// commands, then how many points its answer has (`SWAP` counts as none). Renju
    /// checks the colours: Black's moves must not be forbidden (one case offers a
    /// double three).
    #[test]
    fn an_overdue_job_is_answered_in_its_form() {
        let setup = ["START 15", "INFO timeout_turn 300", "INFO timeout_match 0"];
        // Black to move in renju, asked for its best lines.
        let renju_black = [
            "YXBOARD",
            "7,7,1",
            "8,8,2",
            "8,6,1",
            "6,8,2",
            "DONE",
            "YXNBEST 3",
        ];
        // Black to move in renju, where 7,7 (two open threes) is forbidden.
        let double_three = [
            "BOARD", "8,7,1", "0,0,2", "9,7,1", "0,14,2", "7,8,1", "14,0,2", "7,9,1", "14,14,2",
            "DONE",
        ];
        let cases: [(Rule, &[&str], &[usize]); 8] = [
            (Rule::Renju, &["BOARD", "7,7,1", "8,8,2", "DONE"], &[1]),
            (Rule::Renju, &double_three, &[1]),
            (Rule::Renju, &renju_black, &[1]),
            (
                Rule::Renju,
                &["YXBOARD", "7,7,1", "DONE", "YXBALANCEONE 0"],
                &[1],
            ),
            (
                Rule::Renju,
                &["YXBOARD", "7,7,1", "DONE", "YXBALANCETWO 0"],
                &[2],
            ),
            (Rule::Freestyle, &["SWAP2BOARD", "DONE"], &[3]),
            (
                Rule::Freestyle,
                &["SWAP2BOARD", "7,7", "8,7", "9,9", "DONE"],
                &[0, 1],
            ),
            (
                Rule::Freestyle,
                &["SWAP2BOARD", "7,7", "8,7", "9,9", "6,6", "10,10", "DONE"],
                &[0, 1],
            ),
        ];
        for (rule, commands, points) in cases {
            let rule_line = format!("INFO rule {}", rule.gomocup_value());
            let (events, _keep) = std::sync::mpsc::channel();
            let mut session = Session::new(events, LogSink::default(), true, Some(1));
            let written = Written::default();
            session.out = Output::to(Box::new(written.clone()));
            let engine = session.engine.clone();
            let held = lock(&engine);
            for line in setup
                .iter()
                .copied()
                .chain([rule_line.as_str()])
                .chain(commands.iter().copied())
            {
                session.handle_line(line, Instant::now());
            }
            let due = session.search.as_ref().and_then(|r| r.due).expect("a job");
            std::thread::sleep(due.saturating_duration_since(Instant::now()));
            session.search_overdue();
            assert!(session.search.is_none());
            drop(held);
            let text = String::from_utf8(written.0.lock().unwrap().clone()).unwrap();
            let last = text.lines().last().unwrap_or_default();
            let point = |w: &str| {
                let (x, y) = parse_coord(w).expect(w);
                Pos::from_xy(x as usize, y as usize)
            };
            let answer: Vec<Pos> = match last {
                "SWAP" => Vec::new(),
                _ => last.split(' ').map(point).collect(),
            };
            assert!(points.contains(&answer.len()), "{commands:?}: {text:?}");
            let mut b = Board::new(15, 15, rule).unwrap();
            for line in commands.iter().filter(|l| l.contains(',')) {
                let (x, y) = line.split_once(',').unwrap();
                let p = point(&format!("{x},{}", y.split(',').next().unwrap()));
                let c = b.to_move();
                b.make(p, c);
            }
            for p in answer {
                let c = b.to_move();
                assert!(b.is_legal(c, p), "{commands:?}: {last} is not legal");
                b.make(p, c);
            }
        }
    }
}
