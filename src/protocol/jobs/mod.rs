//! The searches behind move requests and the GUI/opening commands: the plain move,
//! multi-PV (`YXNBEST`), balanced moves (`YXBALANCEONE`/`YXBALANCETWO`) and the swap2
//! opening (`SWAP2BOARD`). Everything is built on `Engine::search` with `Limits`: time
//! slices of the move's budget, depth caps and excluded root moves. Jobs run on the
//! search thread and never print; they report through a callback and return an
//! `Outcome` that the session prints. The balance and swap2 jobs have a file each.

mod balance;
mod swap2;

use crate::board::{Board, Pos};
use crate::engine::Engine;
use crate::search::movegen::any_legal_move;
use crate::search::params::time;
use crate::search::score::{format_score, win_in, WIN_BOUND};
use crate::search::{quick_move, Limits, Progress, SearchEvent, SearchResult};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The stop request of a job. `Engine::search` raises the flag it is given when it
/// ends (to stop its helper threads), so each search of a job gets a fresh flag;
/// `stop` raises the job's flag and the running search's.
#[derive(Debug, Default)]
pub struct StopSignal {
    job: AtomicBool,
    current: Mutex<Arc<AtomicBool>>,
}

impl StopSignal {
    pub fn new() -> StopSignal {
        StopSignal::default()
    }

    /// Stops the job (its running search at once, the searches after it before
    /// they start).
    pub fn stop(&self) {
        self.job.store(true, Ordering::Relaxed);
        self.lock().store(true, Ordering::Relaxed);
    }

    pub fn stopped(&self) -> bool {
        self.job.load(Ordering::Relaxed)
    }

    /// The flag for the next search.
    fn fresh(&self) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(false));
        *self.lock() = flag.clone();
        // A stop between the creation and the registration is not lost.
        if self.stopped() {
            flag.store(true, Ordering::Relaxed);
        }
        flag
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Arc<AtomicBool>> {
        self.current.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a job tells the session while it runs.
#[derive(Clone, Debug)]
pub enum JobEvent {
    /// A completed iteration. `main` is set for the search whose best move is the
    /// job's answer (the session prints `REALTIME BEST` only for it).
    Progress { progress: Progress, main: bool },
    /// The main search starts this root move (only when realtime output is on).
    RootMove(Pos),
    /// A line to print as `MESSAGE <text>`.
    Message(String),
}

pub type JobReporter<'a> = &'a (dyn Fn(JobEvent) + Sync);

/// What a search thread is asked to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Job {
    /// BEGIN, TURN, BOARD: the best move.
    Move,
    /// SWAP2BOARD with no stones: three balanced opening stones.
    Swap2Open,
    /// SWAP2BOARD with 3 or 5 stones: `SWAP` or our stone(s).
    Swap2Decide { stones: usize },
    /// YXNBEST n.
    NBest(usize),
    /// YXBALANCEONE / YXBALANCETWO with the wanted evaluation.
    Balance { two: bool, bias: i32 },
}

impl Job {
    /// Whether its answer is a game's move, timed by the manager's match clock (the
    /// analysis commands are not).
    pub fn on_game_clock(self) -> bool {
        matches!(self, Job::Move | Job::Swap2Open | Job::Swap2Decide { .. })
    }

    /// How long after its hard limit the session waits for the job before it answers
    /// without it (`fallback`).
    pub fn grace(self) -> Duration {
        if self.on_game_clock() {
            time::LATE_GRACE
        } else {
            time::ANALYSIS_GRACE
        }
    }
}

/// The reply a job produces.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// Play this move on the session's board and print it (`x,y`).
    Move(Option<Pos>),
    /// Play these moves on the session's board and print them on one line.
    Moves(Vec<Pos>),
    /// Print this line as it is; the session's board does not change.
    Text(String),
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub answer: Answer,
    /// Evaluation of the answer for the side to move (for the log).
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    /// Root moves the job proved lost (printed as `REALTIME LOST` when asked for).
    pub lost: Vec<Pos>,
}

/// The answer to `job` without searching, for a job past its hard limit (a stalled
/// search, or one that never got the engine): the main search's last iteration's
/// move and score where there is one, else quick moves; always of the job's form.
pub fn fallback(job: Job, board: &Board, best: Option<(Pos, i32)>) -> Answer {
    let quick = |b: &Board| quick_move(&mut b.clone());
    let move_or_quick = best.map(|b| b.0).or_else(|| quick(board));
    match job {
        Job::Move | Job::NBest(_) | Job::Balance { two: false, .. } => Answer::Move(move_or_quick),
        Job::Balance { two: true, .. } => {
            let Some(first) = quick(board) else {
                return Answer::Move(None);
            };
            if board.is_win_move(board.to_move(), first) {
                // The game ends with it: no reply to add.
                return Answer::Move(Some(first));
            }
            let mut b = board.clone();
            b.make(first, b.to_move());
            match quick(&b) {
                Some(second) => Answer::Moves(vec![first, second]),
                None => Answer::Move(Some(first)),
            }
        }
        Job::Swap2Decide { .. } => match (best, move_or_quick) {
            (Some((_, score)), _) if score < 0 => Answer::Text("SWAP".to_string()),
            (_, Some(p)) => Answer::Text(p.to_string()),
            (_, None) => Answer::Text("SWAP".to_string()),
        },
        Job::Swap2Open => {
            // The list ends with the spread-out shapes, the more balanced in freestyle.
            let stones = swap2::opening_options(board).pop().unwrap_or_default();
            let text: Vec<String> = stones.iter().map(|p| p.to_string()).collect();
            Answer::Text(text.join(" "))
        }
    }
}

/// Within this many evaluation units of 0 a swap2 position counts as balanced.
pub const BALANCE_WINDOW: i32 = 40;

/// Runs `job` on `board` (the side to move is the one to answer for).
pub fn run(
    job: Job,
    engine: &Engine,
    board: &Board,
    limits: &Limits,
    stop: &StopSignal,
    report: JobReporter,
) -> Outcome {
    let ctx = Ctx {
        engine,
        limits,
        stop,
        report,
    };
    match job {
        Job::Move => ctx.best_move(board),
        Job::NBest(n) => ctx.nbest(board, n),
        Job::Balance { two: false, bias } => ctx.balance_one(board, bias),
        Job::Balance { two: true, bias } => ctx.balance_two(board, bias),
        Job::Swap2Open => ctx.swap2_open(board),
        Job::Swap2Decide { stones } => ctx.swap2_decide(board, stones),
    }
}

/// How much of a sub-search the session gets to see.
#[derive(Clone, Copy, PartialEq)]
enum Show {
    /// Progress lines and realtime output: the job's main search.
    Main,
    /// Progress lines only.
    Progress,
    /// Nothing (the many small searches of balance and opening jobs).
    Silent,
}

/// A part of the move's time, as offsets from `Limits::start`.
#[derive(Clone, Copy, Debug)]
struct Window {
    soft: Duration,
    hard: Duration,
}

impl Window {
    fn of(limits: &Limits) -> Window {
        Window {
            soft: limits.soft,
            hard: limits.hard,
        }
    }

    /// `num/den` of what is left of this window from now on.
    fn part(self, limits: &Limits, num: u32, den: u32) -> Window {
        let now = limits.start.elapsed();
        let cut = |end: Duration| {
            if end == Duration::MAX {
                return Duration::MAX;
            }
            let left = end.saturating_sub(now);
            now.saturating_add(left.mul_f64(num as f64 / den.max(1) as f64))
        };
        Window {
            soft: cut(self.soft),
            hard: cut(self.hard),
        }
    }

    /// The limits of a sub-search in this window, at most `depth` deep.
    fn limits(self, base: &Limits, depth: Option<i32>) -> Limits {
        Limits {
            soft: self.soft,
            hard: self.hard,
            max_depth: depth.map_or(base.max_depth, |d| d.min(base.max_depth)),
            exclude: Vec::new(),
            report_root_moves: false,
            ..base.clone()
        }
    }
}

struct Ctx<'a> {
    engine: &'a Engine,
    limits: &'a Limits,
    stop: &'a StopSignal,
    report: JobReporter<'a>,
}

/// The search's score, corrected where the search answered without searching: a
/// move that completes five is a win in one.
fn fixed_score(board: &Board, r: &SearchResult) -> i32 {
    match r.best {
        Some(p) if board.is_win_move(board.to_move(), p) => win_in(1),
        _ => r.score,
    }
}

impl Ctx<'_> {
    fn stopped(&self) -> bool {
        self.stop.stopped()
    }

    /// One search; returns its result and the selective depth of its last iteration.
    fn search(&self, board: &Board, limits: &Limits, show: Show) -> (SearchResult, usize) {
        let seldepth = AtomicUsize::new(0);
        let report = |e: &SearchEvent| match e {
            SearchEvent::Iteration(p) => {
                seldepth.store(p.seldepth, Ordering::Relaxed);
                if show != Show::Silent {
                    (self.report)(JobEvent::Progress {
                        progress: p.clone(),
                        main: show == Show::Main,
                    });
                }
            }
            SearchEvent::RootMove(p) => {
                if show == Show::Main {
                    (self.report)(JobEvent::RootMove(*p));
                }
            }
            SearchEvent::Leaf(_) => {}
        };
        let flag = self.stop.fresh();
        let r = self.engine.search(board, limits, &flag, &report);
        (r, seldepth.load(Ordering::Relaxed))
    }

    fn message(&self, text: String) {
        (self.report)(JobEvent::Message(text));
    }

    fn best_move(&self, board: &Board) -> Outcome {
        let (r, _) = self.search(board, self.limits, Show::Main);
        let score = fixed_score(board, &r);
        Outcome {
            answer: Answer::Move(r.best),
            score,
            depth: r.depth,
            nodes: r.nodes,
            lost: r.best.filter(|_| score <= -WIN_BOUND).into_iter().collect(),
        }
    }

    /// Multi-PV: n searches, each excluding the root moves found before, sharing the
    /// budget. Prints `MESSAGE (k) ev | depth-seldepth | pv` for each line, best
    /// first (Rapfi's form), and answers the best line's move.
    fn nbest(&self, board: &Board, n: usize) -> Outcome {
        let mut lines: Vec<(i32, i32, usize, Vec<Pos>)> = Vec::new();
        let mut exclude: Vec<Pos> = Vec::new();
        let mut nodes = 0;
        let mut probe = board.clone();
        let us = board.to_move();
        for k in 0..n {
            if k > 0 && self.stopped() {
                break;
            }
            let mut limits = Window::of(self.limits)
                .part(self.limits, 1, (n - k) as u32)
                .limits(self.limits, None);
            limits.exclude = exclude.clone();
            limits.report_root_moves = self.limits.report_root_moves && k == 0;
            let show = if k == 0 { Show::Main } else { Show::Progress };
            let (r, seldepth) = self.search(board, &limits, show);
            nodes += r.nodes;
            // The search ignores exclusions when one move is forced (a five to make
            // or to block): then there are no more lines worth showing.
            let Some(best) = r
                .best
                .filter(|p| !exclude.contains(p) && probe.is_legal(us, *p))
            else {
                break;
            };
            let mut pv = r.pv.clone();
            if pv.first() != Some(&best) {
                pv = vec![best];
            }
            lines.push((fixed_score(board, &r), r.depth, seldepth, pv));
            exclude.push(best);
        }
        // Best first; equal scores keep the search order.
        lines.sort_by_key(|l| std::cmp::Reverse(l.0));
        for (i, (score, depth, seldepth, pv)) in lines.iter().enumerate() {
            self.message(format!(
                "({}) {} | {}-{} | {}",
                i + 1,
                format_score(*score),
                depth,
                seldepth.max(&(*depth as usize)),
                Pos::line_notation(pv)
            ));
        }
        let lost = lines
            .iter()
            .filter(|l| l.0 <= -WIN_BOUND)
            .map(|l| l.3[0])
            .collect();
        match lines.first() {
            Some((score, depth, _, pv)) => Outcome {
                answer: Answer::Move(Some(pv[0])),
                score: *score,
                depth: *depth,
                nodes,
                lost,
            },
            None => Outcome {
                answer: Answer::Move(any_legal_move(&mut probe)),
                score: 0,
                depth: 0,
                nodes,
                lost,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Rule};

    fn board(moves: &[(i64, i64)]) -> Board {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &(x, y) in moves {
            let p = b.pos(x, y).unwrap();
            let c = b.to_move();
            b.make(p, c);
        }
        b
    }

    fn quiet(_: JobEvent) {}

    /// YXNBEST 3 at depth 3 on `b`.
    fn nbest3(engine: &Engine, b: &Board, report: JobReporter) -> Outcome {
        run(
            Job::NBest(3),
            engine,
            b,
            &Limits::depth(3),
            &StopSignal::new(),
            report,
        )
    }

    #[test]
    fn nbest_gives_distinct_lines() {
        let engine = Engine::new(1 << 20, 1);
        let b = board(&[(7, 7), (8, 8), (8, 6), (6, 8)]);
        let events = std::sync::Mutex::new(Vec::new());
        let report = |e: JobEvent| {
            if let JobEvent::Message(m) = e {
                events.lock().unwrap().push(m);
            }
        };
        let out = nbest3(&engine, &b, &report);
        let lines = events.into_inner().unwrap();
        assert_eq!(lines.len(), 3, "{lines:?}");
        let firsts: std::collections::HashSet<String> = lines
            .iter()
            .map(|l| {
                l.rsplit(" | ")
                    .next()
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(firsts.len(), 3, "{lines:?}");
        assert!(lines[0].starts_with("(1) "));
        let Answer::Move(Some(p)) = out.answer else {
            panic!("no move")
        };
        assert!(lines[0].contains(&format!("| {}", p.notation())));
    }

    #[test]
    fn forced_position_has_one_line() {
        let engine = Engine::new(1 << 20, 1);
        // Black to move has an open four: the win is the only line.
        let b = board(&[
            (7, 7),
            (0, 0),
            (8, 7),
            (0, 2),
            (9, 7),
            (0, 4),
            (10, 7),
            (2, 0),
        ]);
        let out = nbest3(&engine, &b, &quiet);
        assert!(matches!(out.answer, Answer::Move(Some(_))));
        assert!(out.score >= WIN_BOUND);
    }

    #[test]
    fn balance_answers_legal_moves() {
        let engine = Engine::new(1 << 20, 1);
        let b = board(&[(7, 7), (8, 8), (8, 6)]);
        let limits = Limits::depth(2);
        let stop = StopSignal::new();
        let one = run(
            Job::Balance {
                two: false,
                bias: 0,
            },
            &engine,
            &b,
            &limits,
            &stop,
            &quiet,
        );
        let Answer::Move(Some(p)) = one.answer else {
            panic!("balance one: {:?}", one.answer)
        };
        assert!(b.is_empty(p));
        let two = run(
            Job::Balance { two: true, bias: 0 },
            &engine,
            &b,
            &limits,
            &stop,
            &quiet,
        );
        let Answer::Moves(ps) = two.answer else {
            panic!("balance two: {:?}", two.answer)
        };
        assert_eq!(ps.len(), 2);
        assert!(ps[0] != ps[1] && b.is_empty(ps[0]) && b.is_empty(ps[1]));
    }

    #[test]
    fn a_lost_side_to_move_is_scored_lost() {
        let engine = Engine::new(1 << 20, 1);
        // White to move against Black's open four: two fives to stop.
        let b = board(&[(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4), (10, 7)]);
        let out = nbest3(&engine, &b, &quiet);
        assert!(out.score <= -WIN_BOUND, "{}", out.score);
    }

    #[test]
    fn a_black_side_whose_only_block_is_forbidden_is_scored_lost() {
        let engine = Engine::new(1 << 20, 1);
        // Renju, Black to move: White's four on the diagonal (its other end blocked)
        // is stopped only at h8, a double three for Black.
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        for (x, y) in [(2, 2), (5, 7), (6, 7), (7, 5), (7, 6)] {
            b.make(Pos::from_xy(x, y), Color::Black);
        }
        for (x, y) in [(3, 3), (4, 4), (5, 5), (6, 6), (14, 14)] {
            b.make(Pos::from_xy(x, y), Color::White);
        }
        b.set_to_move(Color::Black);
        assert!(!b.is_legal(Color::Black, Pos::from_xy(7, 7)));
        let out = nbest3(&engine, &b, &quiet);
        assert!(out.score <= -WIN_BOUND, "{}", out.score);
    }

    /// In P, Black's only good move is h8 (a block
    /// that makes a double three, +M5); YXNBEST's second line, searched without h8, is
    /// lost. In Q (P less Black's e5 and White's f4) Black wins by e5, f4, h8. The
    /// second line's loss once went into the table as P's value, and the search of Q,
    /// reaching P after e5 f4, read it and missed the win until depth 9.
    #[test]
    fn a_multi_pv_line_leaves_no_false_value_in_the_table() {
        let position = |black: &[(usize, usize)], white: &[(usize, usize)]| {
            let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
            for (stones, color) in [(black, Color::Black), (white, Color::White)] {
                for &(x, y) in stones {
                    b.make(Pos::from_xy(x, y), color);
                }
            }
            b.set_to_move(Color::Black);
            b
        };
        let black = [
            (11, 7),
            (7, 11),
            (6, 6),
            (8, 6),
            (9, 5),
            (3, 5),
            (2, 6),
            (1, 7),
            (0, 4),
            (14, 0),
            (4, 4),
        ];
        let white = [
            (8, 7),
            (9, 7),
            (10, 7),
            (7, 8),
            (7, 9),
            (7, 10),
            (0, 8),
            (1, 4),
            (2, 4),
            (3, 4),
            (5, 3),
        ];
        let p = position(&black, &white);
        let q = position(&black[..10], &white[..10]);
        let engine = Engine::new(1 << 20, 1);
        let stop = StopSignal::new();
        let lines = run(Job::NBest(2), &engine, &p, &Limits::depth(8), &stop, &quiet);
        assert!(lines.score >= WIN_BOUND, "{}", lines.score);
        let out = run(Job::Move, &engine, &q, &Limits::depth(6), &stop, &quiet);
        assert!(out.score >= WIN_BOUND, "{}", out.score);
        assert!(matches!(out.answer, Answer::Move(Some(m)) if m == Pos::from_xy(4, 4)));
    }

    #[test]
    fn balance_keeps_the_game_going_past_a_five() {
        let engine = Engine::new(1 << 20, 1);
        // Black to move has a five at 11,7 (6,7 is White's).
        let b = board(&[
            (7, 7),
            (6, 7),
            (8, 7),
            (3, 3),
            (9, 7),
            (11, 11),
            (10, 7),
            (3, 11),
        ]);
        let job = Job::Balance {
            two: false,
            bias: 0,
        };
        let one = run(
            job,
            &engine,
            &b,
            &Limits::depth(2),
            &StopSignal::new(),
            &quiet,
        );
        let Answer::Move(Some(p)) = one.answer else {
            panic!("balance one: {:?}", one.answer)
        };
        assert!(
            b.is_empty(p) && p != b.pos(11, 7).unwrap(),
            "{}",
            p.notation()
        );
    }

    /// The target decides: a high one takes a line better for the mover than a low
    /// one does (a bias ignored or read with the wrong sign gives the same or the
    /// reverse).
    #[test]
    fn balance_follows_its_target() {
        let engine = Engine::new(1 << 20, 1);
        let b = board(&[(7, 7), (8, 8), (8, 6), (6, 8)]);
        for two in [false, true] {
            let score = |bias| {
                run(
                    Job::Balance { two, bias },
                    &engine,
                    &b,
                    &Limits::depth(2),
                    &StopSignal::new(),
                    &quiet,
                )
                .score
            };
            let (high, low) = (score(500), score(-500));
            assert!(high > low, "two: {two}, +500 gave {high}, -500 gave {low}");
        }
    }

    #[test]
    fn swap2_opening_is_three_free_points() {
        let engine = Engine::new(1 << 20, 1);
        for size in [5, 15, 20] {
            let b = Board::new(size, size, Rule::Freestyle).unwrap();
            let out = run(
                Job::Swap2Open,
                &engine,
                &b,
                &Limits::depth(2),
                &StopSignal::new(),
                &quiet,
            );
            let Answer::Text(t) = out.answer else {
                panic!("{:?}", out.answer)
            };
            let pts: std::collections::HashSet<Pos> = t
                .split(' ')
                .map(|w| {
                    let (x, y) = crate::protocol::command::parse_coord(w).expect(w);
                    b.pos(x, y)
                        .unwrap_or_else(|| panic!("{w} is off the {size}x{size} board"))
                })
                .collect();
            assert_eq!(pts.len(), 3, "{t}");
        }
    }
}
