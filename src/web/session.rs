//! One page's session: its game, its engine, and the one request the engine is working
//! on. Requests from the page and lines from the engine both come in here; what goes
//! back to the page comes out as JSON values.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::board::Rule;
use crate::manager::referee::Reason;

use super::engine_link::{classify, EngineLink, Line, SearchInfo};
use super::game::Game;
use super::messages::{self, Player, Request, MAX_TIME_MS};

/// How long past its time an engine may take to answer before it is stopped.
const TOLERANCE: Duration = Duration::from_secs(3);
/// How long a search told to stop may take to answer before the engine is ended.
const STOP_GRACE: Duration = Duration::from_secs(2);
/// Engine lines read per poll, so that a chatty engine cannot starve the page.
const LINES_PER_POLL: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A move for the side to move, played when it comes.
    Move,
    /// A search of the position; its move is not played.
    Analyse,
    /// `YXNBEST`.
    Nbest,
}

struct Job {
    kind: Kind,
    deadline: Instant,
    /// Cancelled (the position changed): its answer is read and thrown away.
    discard: bool,
    /// Refused (an engine without `YXNBEST`): no answer may come, and none is no fault
    /// to report.
    refused: bool,
}

pub struct Session {
    game: Game,
    engine: EngineLink,
    job: Option<Job>,
    /// Engines move by themselves; off after a crash, an analysis or a loaded record,
    /// until a human move or `go`.
    auto: bool,
    nbest: Vec<SearchInfo>,
    /// A request waiting for a cancelled search's answer: the engine answers in order,
    /// so a new request goes out only once the old answer is in.
    queued: Option<(Kind, usize)>,
}

impl Session {
    pub fn new(engine: Vec<String>) -> Session {
        Session {
            game: Game::new(15, Rule::Freestyle, [Player::Human, Player::Engine], 1000),
            engine: EngineLink::new(engine),
            job: None,
            auto: true,
            nbest: Vec::new(),
            queued: None,
        }
    }

    /// The first message: the whole state.
    pub fn hello(&mut self) -> Vec<Value> {
        vec![self.state()]
    }

    /// A text message from the page.
    pub fn handle(&mut self, text: &str) -> Vec<Value> {
        match messages::parse(text) {
            Ok(request) => self.request(request),
            Err(e) => vec![messages::error(&e)],
        }
    }

    fn request(&mut self, request: Request) -> Vec<Value> {
        let thinking_move = self
            .job
            .as_ref()
            .is_some_and(|j| !j.discard && j.kind == Kind::Move);
        match request {
            Request::New { size, rule } => {
                self.cancel();
                self.game = Game::new(size, rule, self.game.players, self.game.time_ms);
                self.auto = true;
            }
            // A request that will be refused changes nothing: it is checked before the
            // engine's search is stopped.
            Request::Play { x, y } => {
                let engine_owes_a_move = self.auto
                    && self.game.players[self.game.to_move().idx()] == Player::Engine
                    && !self.game.is_over();
                if thinking_move || engine_owes_a_move {
                    return vec![messages::error("wait for the engine's move (or stop it)")];
                }
                if let Some(why) = self.game.human_refusal(x, y) {
                    return vec![messages::error(&why)];
                }
                self.cancel();
                if let Err(why) = self.game.play_human(x, y) {
                    return vec![messages::error(&why)];
                }
                self.auto = true;
            }
            Request::Undo => {
                if !self.game.can_undo() {
                    return vec![messages::error("nothing to take back")];
                }
                self.cancel();
                self.game.undo();
                // Against an engine, back to the human's turn.
                let players = self.game.players;
                if players.contains(&Player::Human) {
                    while players[self.game.to_move().idx()] == Player::Engine && self.game.undo() {
                    }
                } else {
                    self.auto = false;
                }
            }
            Request::Redo => {
                if !self.game.can_redo() {
                    return vec![messages::error("nothing to replay")];
                }
                self.cancel();
                self.game.redo();
            }
            Request::Swap => {
                self.cancel();
                self.game.players.swap(0, 1);
                self.auto = true;
            }
            Request::Players { black, white } => {
                self.cancel();
                self.game.players = [black, white];
                self.auto = true;
            }
            Request::Time { ms } => self.game.time_ms = ms,
            Request::Go => {
                if thinking_move {
                    return vec![messages::error("the engine is already thinking")];
                }
                if self.game.is_over() {
                    return vec![messages::error("the game is over")];
                }
                self.cancel();
                self.auto = true;
                return self.start(Kind::Move, 0);
            }
            Request::Analyse => {
                self.cancel();
                self.auto = false;
                return self.start(Kind::Analyse, 0);
            }
            Request::Nbest { n } => {
                self.cancel();
                self.auto = false;
                return self.start(Kind::Nbest, n);
            }
            Request::Stop => match self.job.as_mut() {
                Some(job) if !job.discard => {
                    // A move keeps its own time (an engine without YXSTOP answers in
                    // it); an analysis has none worth waiting for.
                    if job.kind != Kind::Move {
                        job.deadline = job.deadline.min(Instant::now() + STOP_GRACE);
                    }
                    self.engine.stop();
                }
                // A request waiting for the engine to be free is only dropped.
                _ if self.queued.is_some() => self.queued = None,
                _ => return vec![messages::error("the engine is not thinking")],
            },
            Request::Load {
                format,
                text,
                size,
                rule,
            } => {
                let size = size.unwrap_or(self.game.size());
                let rule = rule.unwrap_or(self.game.rule());
                match Game::load(
                    format,
                    &text,
                    size,
                    rule,
                    self.game.players,
                    self.game.time_ms,
                ) {
                    Ok(game) => {
                        self.cancel();
                        self.game = game;
                        self.auto = false;
                    }
                    Err(e) => return vec![messages::error(&format!("cannot load: {e}"))],
                }
            }
            Request::Save { format } => {
                let names = self.game.players.map(|p| match p {
                    Player::Human => "human",
                    Player::Engine => self.engine.name(),
                });
                return vec![messages::record(format, &self.game.save(format, names))];
            }
        }
        vec![self.state()]
    }

    /// Reads what the engine printed, enforces its deadline and starts the engine's
    /// move when it is its turn. Called often (every few tens of ms).
    pub fn poll(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        for _ in 0..LINES_PER_POLL {
            match self.engine.poll() {
                Ok(Some(line)) => self.line(&line, &mut out),
                Ok(None) => break,
                Err(_) => {
                    self.job = None;
                    self.auto = false;
                    out.push(messages::engine(
                        "crashed",
                        "the engine exited; it is started again at the next request",
                    ));
                    out.push(self.state());
                    break;
                }
            }
        }
        if let Some(job) = self.job.take_if(|j| Instant::now() > j.deadline) {
            // A cancelled or refused search that did not answer is ended too (its late
            // answer would be read as the next request's), and what the page asked since
            // (a human's move: the engine's turn) goes on.
            if !job.discard {
                self.auto = false;
                if job.kind == Kind::Move {
                    self.game.engine_fault(Reason::TimeForfeit);
                }
            }
            self.engine.end();
            if !job.refused {
                let text = if job.discard {
                    "the engine did not stop when asked and was ended"
                } else {
                    "the engine did not answer in time and was ended"
                };
                out.push(messages::engine("timeout", text));
            }
            out.push(self.state());
        }
        if self.job.is_none() {
            let engine_to_move = self.game.players[self.game.to_move().idx()] == Player::Engine;
            if let Some((kind, n)) = self.queued.take() {
                out.extend(self.start(kind, n));
            } else if self.auto && engine_to_move && !self.game.is_over() {
                out.extend(self.start(Kind::Move, 0));
            }
        }
        out
    }

    fn line(&mut self, line: &str, out: &mut Vec<Value>) {
        let live = self.job.as_ref().filter(|j| !j.discard).map(|j| j.kind);
        match classify(line) {
            Line::Info(info) if live.is_some() => {
                if info.rank == 0 {
                    if let Some(score) = info.score {
                        self.game.set_eval(score);
                    }
                    out.push(info_json("info", &info));
                } else {
                    self.nbest.retain(|l| l.rank != info.rank);
                    self.nbest.push(info);
                    self.nbest.sort_by_key(|l| l.rank);
                    let lines: Vec<Value> =
                        self.nbest.iter().map(|l| info_json("line", l)).collect();
                    out.push(json!({"type": "nbest", "lines": lines}));
                }
            }
            Line::Move(x, y) if self.job.is_some() => {
                self.job = None;
                self.engine.answered(x, y);
                match live {
                    Some(Kind::Move) => self.game.play_engine(x, y),
                    Some(_) => out.push(json!({"type": "best", "move": [x, y]})),
                    None => {}
                }
                out.push(self.state());
            }
            Line::Refused(text) if live == Some(Kind::Nbest) && !text.contains("YXSTOP") => {
                // Most likely an engine without the extension, which does not search;
                // one that searches all the same (the refusal was of a setting) is
                // stopped and its answer, if it comes in time, thrown away, so that it
                // cannot be taken for the next request's.
                if let Some(job) = self.job.as_mut() {
                    job.discard = true;
                    job.refused = true;
                    job.deadline = job.deadline.min(Instant::now() + STOP_GRACE);
                }
                self.engine.stop();
                out.push(messages::error(&format!("the engine refused: {text}")));
                out.push(self.state());
            }
            // Anything else is shown and skipped, as the arena does: some engines print
            // stray lines while thinking; one that never moves runs out of time.
            _ => out.push(messages::log(line)),
        }
    }

    /// Sends the engine a request about the current position (once the engine is free).
    fn start(&mut self, kind: Kind, n: usize) -> Vec<Value> {
        if self.game.is_over() && kind == Kind::Move {
            return vec![messages::error("the game is over")];
        }
        if self.job.is_some() {
            self.queued = Some((kind, n));
            return vec![self.state()];
        }
        let (size, rule, moves) = (self.game.size(), self.game.rule(), self.game.moves());
        let ms = self.game.time_ms;
        let (sent, wait) = match kind {
            Kind::Move => (self.engine.ask_move(size, rule, &moves, ms), ms),
            Kind::Analyse => (
                self.engine.ask_move(size, rule, &moves, MAX_TIME_MS),
                MAX_TIME_MS,
            ),
            Kind::Nbest => (
                self.engine.ask_nbest(size, rule, &moves, n, ms),
                ms * (n as u64 + 1),
            ),
        };
        if let Err(e) = sent {
            self.auto = false;
            return vec![messages::engine("error", &format!("{e:#}")), self.state()];
        }
        self.nbest.clear();
        self.job = Some(Job {
            kind,
            deadline: Instant::now() + Duration::from_millis(wait) + TOLERANCE,
            discard: false,
            refused: false,
        });
        vec![self.state()]
    }

    /// Stops the engine's search, if any, and ignores its answer; forgets a queued one.
    fn cancel(&mut self) {
        self.queued = None;
        if let Some(job) = self.job.as_mut().filter(|j| !j.discard) {
            job.discard = true;
            job.deadline = job.deadline.min(Instant::now() + STOP_GRACE);
            self.engine.stop();
        }
    }

    fn state(&mut self) -> Value {
        let live = self.job.as_ref().filter(|j| !j.discard).map(|j| j.kind);
        let thinking = live.or(self.queued.map(|q| q.0)).map(|kind| match kind {
            Kind::Move => "move",
            Kind::Analyse => "analyse",
            Kind::Nbest => "nbest",
        });
        let name = self.engine.name().to_string();
        let mut state = self.game.state(thinking, &name);
        state["engine_running"] = self.engine.is_running().into();
        state
    }
}

fn info_json(kind: &str, info: &SearchInfo) -> Value {
    json!({
        "type": kind,
        "rank": info.rank,
        "depth": info.depth,
        "ev": info.ev,
        "score": info.score,
        "nodes": info.nodes,
        "ms": info.ms,
        "pv": info.pv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::messages::Format;

    fn save(session: &mut Session, format: Format) -> String {
        let out = session.request(Request::Save { format });
        out[0]["text"].as_str().unwrap_or_default().to_string()
    }

    #[test]
    fn bad_requests_get_errors() {
        let mut s = Session::new(vec!["/nonexistent/engine".into()]);
        let out = s.handle("{nonsense");
        assert_eq!(out[0]["type"], "error");
        let out = s.handle(r#"{"type":"players","black":"human","white":"human"}"#);
        assert_eq!(out[0]["type"], "state");
        let out = s.handle(r#"{"type":"play","x":99,"y":0}"#);
        assert_eq!(out[0]["type"], "error");
        s.handle(r#"{"type":"play","x":7,"y":7}"#);
        assert_eq!(save(&mut s, Format::Moves), "h8");
        // An engine that cannot start is reported, not fatal.
        let out = s.handle(r#"{"type":"go"}"#);
        assert_eq!(out[0]["status"], "error");
        assert!(s.poll().is_empty());
    }

    /// A session with the fixture engine `tests/engines/slow.sh` and its arguments.
    fn slow(args: &[&str]) -> Session {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/slow.sh");
        let mut command = vec!["bash".to_string(), script.to_string()];
        command.extend(args.iter().map(|a| a.to_string()));
        Session::new(command)
    }

    /// Polls until the game has `n` moves or `secs` pass; the moves.
    fn moves_after(s: &mut Session, n: usize, secs: u64) -> Vec<(usize, usize)> {
        let end = Instant::now() + Duration::from_secs(secs);
        while s.game.moves().len() < n && !s.game.is_over() && Instant::now() < end {
            s.poll();
            std::thread::sleep(Duration::from_millis(20));
        }
        s.game.moves()
    }

    /// Stop hurries a move but keeps its time: an engine without YXSTOP that answers in
    /// its time does not lose on time.
    #[test]
    fn a_stopped_move_keeps_its_time() {
        let mut s = slow(&["3", "-", "8,8"]);
        s.request(Request::Time { ms: 5000 });
        s.request(Request::Play { x: 7, y: 7 });
        s.poll();
        assert_eq!(s.request(Request::Stop)[0]["thinking"], "move");
        assert_eq!(moves_after(&mut s, 2, 10), [(7, 7), (8, 8)]);
        assert!(!s.game.is_over());
    }

    /// Requests that are refused (nothing to replay, an occupied point) leave the
    /// engine's search running: it answers in its time and does not lose on time.
    #[test]
    fn a_refused_request_keeps_the_search() {
        let mut s = slow(&["2", "-", "8,8"]);
        s.request(Request::Time { ms: 5000 });
        let asked = Instant::now();
        s.request(Request::Play { x: 7, y: 7 });
        s.poll();
        assert_eq!(s.request(Request::Redo)[0]["type"], "error");
        assert_eq!(s.request(Request::Play { x: 7, y: 7 })[0]["type"], "error");
        assert_eq!(moves_after(&mut s, 2, 10), [(7, 7), (8, 8)]);
        assert!(!s.game.is_over());
        // The first search's answer (2 s), not a search started again after it.
        let took = asked.elapsed();
        assert!(took < Duration::from_millis(2900), "{took:?}");
    }

    /// A take-back during the engine's search and a new move: the old search, which
    /// does not stop, is ended, and the engine still answers the new move.
    #[test]
    fn a_move_after_a_cancelled_search_is_answered() {
        let mut s = slow(&["3", "-", "8,8"]);
        s.request(Request::Play { x: 7, y: 7 });
        s.poll();
        s.request(Request::Undo);
        assert_eq!(s.game.moves(), []);
        s.request(Request::Play { x: 7, y: 7 });
        assert_eq!(moves_after(&mut s, 2, 15), [(7, 7), (8, 8)]);
        assert!(!s.game.is_over());
    }

    /// An engine that refuses YXNBEST but answers it all the same: that answer (an
    /// occupied point) is not taken for the next move request's.
    #[test]
    fn a_refused_nbest_answer_is_not_played() {
        let mut s = slow(&["1", "7,7", "8,8"]);
        let humans = Request::Players {
            black: Player::Human,
            white: Player::Human,
        };
        s.request(humans);
        s.request(Request::Play { x: 7, y: 7 });
        s.request(Request::Nbest { n: 2 });
        let end = Instant::now() + Duration::from_secs(5);
        while s.job.as_ref().is_some_and(|j| !j.refused) && Instant::now() < end {
            s.poll();
            std::thread::sleep(Duration::from_millis(20));
        }
        s.request(Request::Players {
            black: Player::Human,
            white: Player::Engine,
        });
        assert_eq!(moves_after(&mut s, 2, 10), [(7, 7), (8, 8)]);
        assert!(!s.game.is_over());
    }
}
