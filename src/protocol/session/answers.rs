//! A search job's life: started on its own thread, its news printed, its answer
//! checked and printed (or given early when it is overdue).

use super::{lock, EngineChanges, Opening, Running, Session};
use crate::board::Pos;
use crate::protocol::command::Command;
use crate::protocol::jobs::{self, Answer, Job, JobEvent, Outcome, StopSignal};
use crate::protocol::Event;
use crate::search::movegen::any_legal_move;
use crate::search::score::format_score;
use crate::search::{Limits, Progress};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Realtime POS/DONE lines start this long after the command (as in Rapfi), so that
/// the first shallow iterations do not flood the GUI.
const REALTIME_DELAY: Duration = Duration::from_millis(200);

impl Session {
    /// Prints a job's answer, then handles the lines that waited for it.
    pub(super) fn answer(&mut self, job: Job, outcome: Outcome) {
        self.search = None;
        let (score, depth, nodes) = (outcome.score, outcome.depth, outcome.nodes);
        self.finish(job, outcome);
        if job.on_game_clock() {
            self.time.spend(self.search_start.elapsed());
        }
        log::info!("{job:?}: score {score} depth {depth} nodes {nodes}");
        while self.search.is_none() {
            let Some((text, at)) = self.pending.pop_front() else {
                break;
            };
            self.handle_line(&text, at);
        }
    }

    /// The running search is past its hard limit: it is stopped (its own clock checks
    /// come every few hundred nodes, and a node can stall) and the job is answered
    /// now, from the main search's last completed iteration or with quick moves; its
    /// own result is dropped.
    pub(super) fn search_overdue(&mut self) {
        self.stop_search();
        let (Some(run), Some(board)) = (self.search.take(), &self.board) else {
            return;
        };
        let answer = jobs::fallback(run.job, board, run.best.map(|(p, score, _)| (p, score)));
        let (score, depth) = run.best.map_or((0, 0), |(_, score, depth)| (score, depth));
        let outcome = Outcome {
            answer,
            score,
            depth,
            nodes: 0,
            lost: Vec::new(),
        };
        self.answer(run.job, outcome);
        log::info!("search {} was overdue: answered without it", run.id);
    }

    /// Starts a job on the current board; the answer is printed when it ends.
    pub(super) fn request(&mut self, job: Job, at: Instant) {
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
        // A STOP that came after this job's command, while an earlier search ran: the
        // job is answered at once.
        let stopped_already = self
            .pending
            .iter()
            .any(|(text, _)| matches!(text.parse(), Ok(Command::Stop)));
        if stopped_already {
            stop.stop();
        }
        self.searches_started += 1;
        let id = self.searches_started;
        self.search = Some(Running {
            id,
            job,
            stop: stop.clone(),
            best: None,
            due: at.checked_add(limits.hard.saturating_add(job.grace())),
        });
        self.search_start = at;
        self.realtime_pos = None;
        let engine = self.engine.clone();
        let changes = self.engine_changes.clone();
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
                    EngineChanges::make(&changes, &mut engine, true);
                    if stop.stopped() {
                        // Answered already (overdue while it waited for the engine) or
                        // stopped before it began: nothing to search for.
                        return Outcome {
                            answer: jobs::fallback(job, &board, None),
                            score: 0,
                            depth: 0,
                            nodes: 0,
                            lost: Vec::new(),
                        };
                    }
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
    pub(super) fn job_event(&mut self, e: JobEvent) {
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
