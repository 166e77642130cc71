//! The searches behind move requests and the GUI/opening commands: the plain move,
//! multi-PV (`YXNBEST`), balanced moves (`YXBALANCEONE`/`YXBALANCETWO`) and the swap2
//! opening (`SWAP2BOARD`). Everything is built on `Engine::search` with `Limits`: time
//! slices of the move's budget, depth caps and excluded root moves. Jobs run on the
//! search thread and never print; they report through a callback and return an
//! `Outcome` that the session prints.

use crate::board::{Board, Pos};
use crate::engine::Engine;
use crate::search::movegen::{any_legal_move, generate, Moves};
use crate::search::score::{format_score, win_in, WIN_BOUND};
use crate::search::{Limits, Progress, SearchEvent, SearchResult};
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

fn notation(moves: &[Pos]) -> String {
    let v: Vec<String> = moves.iter().map(|p| p.notation()).collect();
    v.join(" ")
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
                notation(pv)
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

    /// The evaluation after `line` for the side that plays its first move, searched
    /// within `limits`. `None` if a move of the line is illegal.
    fn eval_line(&self, board: &Board, line: &[Pos], limits: &Limits) -> Option<(i32, u64)> {
        let mut b = board.clone();
        let first = b.to_move();
        for &p in line {
            let c = b.to_move();
            if !b.is_legal(c, p) {
                return None;
            }
            if b.is_win_move(c, p) {
                let v = win_in(1);
                return Some((if c == first { v } else { -v }, 0));
            }
            b.make(p, c);
        }
        if b.empty_count() == 0 {
            return Some((0, 0));
        }
        let (r, _) = self.search(&b, limits, Show::Silent);
        let v = fixed_score(&b, &r);
        Some((if b.to_move() == first { v } else { -v }, r.nodes))
    }

    /// Scores `lines` (for the side to move) in two rounds: all of them shallow in
    /// a third of the time, then the `keep` closest to `target` with the rest.
    /// Returns (line, score) closest to `target` first.
    fn balance_rounds(
        &self,
        board: &Board,
        lines: Vec<Vec<Pos>>,
        target: i32,
        keep: usize,
        nodes: &mut u64,
    ) -> Vec<(Vec<Pos>, i32)> {
        let mut scored: Vec<(Vec<Pos>, i32)> = Vec::new();
        let first = Window::of(self.limits).part(self.limits, 1, 3);
        let count = lines.len();
        for (i, line) in lines.into_iter().enumerate() {
            if self.stopped() && !scored.is_empty() {
                break;
            }
            let limits = first
                .part(self.limits, 1, (count - i) as u32)
                .limits(self.limits, Some(4));
            if let Some((v, n)) = self.eval_line(board, &line, &limits) {
                *nodes += n;
                scored.push((line, v));
            }
        }
        let distance = |v: i32| (v as i64 - target as i64).abs();
        scored.sort_by_key(|s| distance(s.1));
        scored.truncate(keep.max(1));
        let second = Window::of(self.limits);
        let count = scored.len();
        for (i, entry) in scored.iter_mut().enumerate() {
            if self.stopped() {
                break;
            }
            let limits = second
                .part(self.limits, 1, (count - i) as u32)
                .limits(self.limits, None);
            if let Some((v, n)) = self.eval_line(board, &entry.0, &limits) {
                *nodes += n;
                entry.1 = v;
            }
        }
        scored.sort_by_key(|s| distance(s.1));
        scored
    }

    /// YXBALANCEONE: the move after which the mover's evaluation is closest to `bias`.
    fn balance_one(&self, board: &Board, bias: i32) -> Outcome {
        let mut nodes = 0;
        let lines = candidates(board, 16).into_iter().map(|p| vec![p]).collect();
        let scored = self.balance_rounds(board, lines, bias, 4, &mut nodes);
        self.balance_outcome(board, scored, bias, nodes)
    }

    /// YXBALANCETWO: our move and the opponent's reply after which our evaluation
    /// (we are to move again) is closest to `bias`.
    fn balance_two(&self, board: &Board, bias: i32) -> Outcome {
        let mut nodes = 0;
        let lines = two_move_lines(board, 8, 5);
        if lines.is_empty() {
            // Every candidate wins at once or there is no room for two stones.
            return self.balance_one(board, bias);
        }
        let scored = self.balance_rounds(board, lines, bias, 5, &mut nodes);
        self.balance_outcome(board, scored, bias, nodes)
    }

    fn balance_outcome(
        &self,
        board: &Board,
        scored: Vec<(Vec<Pos>, i32)>,
        bias: i32,
        nodes: u64,
    ) -> Outcome {
        for (line, v) in scored.iter().take(3) {
            self.message(format!(
                "balance {} ev {} (target {bias})",
                notation(line),
                format_score(*v)
            ));
        }
        match scored.into_iter().next() {
            Some((line, v)) if line.len() == 1 => Outcome {
                answer: Answer::Move(Some(line[0])),
                score: v,
                depth: 0,
                nodes,
                lost: Vec::new(),
            },
            Some((line, v)) => Outcome {
                answer: Answer::Moves(line),
                score: v,
                depth: 0,
                nodes,
                lost: Vec::new(),
            },
            None => Outcome {
                answer: Answer::Move(any_legal_move(&mut board.clone())),
                score: 0,
                depth: 0,
                nodes,
                lost: Vec::new(),
            },
        }
    }

    /// SWAP2BOARD with no stones: of a few three-stone openings (Black, White,
    /// Black) around the centre, the one whose search evaluation for White to move
    /// is closest to 0.
    fn swap2_open(&self, board: &Board) -> Outcome {
        let (w, h) = (board.width() as i64, board.height() as i64);
        let (cx, cy) = (w / 2, h / 2);
        let sym = symmetry_seed() % if w == h { 8 } else { 4 };
        let mut nodes = 0;
        let mut options: Vec<Vec<Pos>> = Vec::new();
        for shape in OPENINGS {
            let stones: Option<Vec<Pos>> = shape
                .iter()
                .map(|&(dx, dy)| {
                    let (dx, dy) = transform(dx, dy, sym);
                    board.pos(cx + dx, cy + dy).filter(|&p| board.is_empty(p))
                })
                .collect();
            if let Some(s) = stones {
                if s[0] != s[1] && s[1] != s[2] && s[0] != s[2] {
                    options.push(s);
                }
            }
        }
        if options.is_empty() {
            // A board too small or too full for every shape: any three points.
            let mut b = board.clone();
            let mut s = Vec::new();
            for _ in 0..3 {
                let c = b.to_move();
                if let Some(p) = any_legal_move(&mut b) {
                    b.make(p, c);
                    s.push(p);
                }
            }
            options.push(s);
        }
        let mut best: Option<(Vec<Pos>, i32)> = None;
        let whole = Window::of(self.limits).part(self.limits, 9, 10);
        let count = options.len();
        for (i, stones) in options.into_iter().enumerate() {
            if self.stopped() && best.is_some() {
                break;
            }
            let limits = whole
                .part(self.limits, 1, (count - i) as u32)
                .limits(self.limits, Some(12));
            // Black, White, Black; then White is to move: score for White.
            let mut b = board.clone();
            for &p in &stones {
                let c = b.to_move();
                b.make(p, c);
            }
            let (r, _) = self.search(&b, &limits, Show::Silent);
            let (v, n) = (fixed_score(&b, &r), r.nodes);
            nodes += n;
            if best.as_ref().is_none_or(|b| v.abs() < b.1.abs()) {
                best = Some((stones, v));
            }
        }
        let (stones, v) = best.unwrap_or_default();
        self.message(format!(
            "swap2 opening {} ev {} for White",
            notation(&stones),
            format_score(v)
        ));
        let text: Vec<String> = stones.iter().map(|p| p.to_string()).collect();
        Outcome {
            answer: Answer::Text(text.join(" ")),
            score: v,
            depth: 0,
            nodes,
            lost: Vec::new(),
        }
    }

    /// SWAP2BOARD with 3 or 5 stones (White to move): `SWAP` when Black's side is
    /// better by search; else our stone. With 3 stones and a position only slightly
    /// better for White, two stones that balance it (the opponent then chooses).
    fn swap2_decide(&self, board: &Board, stones: usize) -> Outcome {
        let share = if stones == 3 { 1 } else { 2 };
        let limits = Window::of(self.limits)
            .part(self.limits, share, 2)
            .limits(self.limits, None);
        let limits = Limits {
            report_root_moves: self.limits.report_root_moves,
            ..limits
        };
        let (r, _) = self.search(board, &limits, Show::Main);
        let score = fixed_score(board, &r);
        let mut nodes = r.nodes;
        let mut out = Outcome {
            answer: Answer::Text("SWAP".to_string()),
            score,
            depth: r.depth,
            nodes,
            lost: Vec::new(),
        };
        let best = r
            .best
            .filter(|&p| board.clone().is_legal(board.to_move(), p));
        let Some(best) = best.filter(|_| score >= 0) else {
            self.message(format!(
                "swap2 {stones} stones: ev {} for White, SWAP",
                format_score(score)
            ));
            return out;
        };
        out.answer = Answer::Text(best.to_string());
        if stones == 3 && score <= BALANCE_WINDOW && !self.stopped() {
            let lines = two_move_lines(board, 6, 4);
            let scored = self.balance_rounds(board, lines, 0, 4, &mut nodes);
            out.nodes = nodes;
            if let Some((pair, v)) = scored.first() {
                if v.abs() < score.abs().max(BALANCE_WINDOW / 2) {
                    self.message(format!(
                        "swap2 3 stones: ev {} for White, two stones {} ev {}",
                        format_score(score),
                        notation(pair),
                        format_score(*v)
                    ));
                    let text: Vec<String> = pair.iter().map(|p| p.to_string()).collect();
                    out.answer = Answer::Text(text.join(" "));
                    return out;
                }
            }
        }
        self.message(format!(
            "swap2 {stones} stones: ev {} for White, play {}",
            format_score(score),
            best.notation()
        ));
        out
    }
}

/// Three-stone swap2 openings (Black, White, Black) as offsets from the centre. The
/// spread-out ones (two Black stones on either side of a central White one) search
/// near 0 in freestyle; the compact ones are for small boards. The search picks.
const OPENINGS: [[(i64, i64); 3]; 12] = [
    [(0, 0), (1, 0), (2, 2)],
    [(0, 0), (1, 1), (-2, 2)],
    [(-2, -2), (0, 0), (2, 2)],
    [(-3, 0), (0, 0), (3, 1)],
    [(-4, 0), (0, 0), (4, 0)],
    [(-4, -2), (0, 0), (4, 1)],
    [(-5, -3), (0, 0), (5, 3)],
    [(-3, -4), (0, 0), (4, 3)],
    [(0, -5), (0, 0), (0, 5)],
    [(-5, -2), (0, 0), (5, 1)],
    [(-4, -4), (0, 0), (3, 4)],
    [(-5, 0), (1, 1), (5, 2)],
];

fn transform(dx: i64, dy: i64, sym: u64) -> (i64, i64) {
    let (mut x, mut y) = if sym & 4 != 0 { (dy, dx) } else { (dx, dy) };
    if sym & 1 != 0 {
        x = -x;
    }
    if sym & 2 != 0 {
        y = -y;
    }
    (x, y)
}

/// A symmetry for the opening, so that games do not all start the same way.
fn symmetry_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos() as u64 / 1000)
        .unwrap_or(0)
}

/// Up to `k` sensible moves for the side to move, best first by move ordering. On
/// an empty board: points of one eighth of the board, nearest the centre first.
fn candidates(board: &Board, k: usize) -> Vec<Pos> {
    let mut b = board.clone();
    if b.move_count() == 0 {
        let (cx, cy) = ((b.width() / 2) as i64, (b.height() / 2) as i64);
        let mut cells: Vec<(i64, Pos)> = b
            .all_cells()
            .filter(|&p| {
                let (x, y) = (p.x() as i64, p.y() as i64);
                x <= cx && y <= cy && cx - x <= cy - y
            })
            .map(|p| {
                let (dx, dy) = (p.x() as i64 - cx, p.y() as i64 - cy);
                (dx * dx + dy * dy, p)
            })
            .collect();
        cells.sort();
        let us = b.to_move();
        return cells
            .into_iter()
            .map(|c| c.1)
            .filter(|&p| b.is_legal(us, p))
            .take(k)
            .collect();
    }
    match generate(&mut b, &|_| 0) {
        Moves::Win(p) | Moves::Block(p) => vec![p],
        Moves::Lost => any_legal_move(&mut b).into_iter().collect(),
        Moves::List(list) if !list.is_empty() => list.into_iter().take(k).map(|m| m.0).collect(),
        Moves::List(_) => any_legal_move(&mut b).into_iter().collect(),
    }
}

/// Two-stone lines for the balance searches: the side to move's `first` best candidates
/// (none that wins at once), each followed by the opponent's `second` best replies.
fn two_move_lines(board: &Board, first: usize, second: usize) -> Vec<Vec<Pos>> {
    let mut lines = Vec::new();
    for m1 in candidates(board, first) {
        let mut b = board.clone();
        let us = b.to_move();
        if b.is_win_move(us, m1) {
            continue;
        }
        b.make(m1, us);
        for m2 in candidates(&b, second) {
            lines.push(vec![m1, m2]);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;

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
            let pts: std::collections::HashSet<&str> = t.split(' ').collect();
            assert_eq!(pts.len(), 3, "{t}");
        }
    }

    #[test]
    fn transforms_are_symmetries() {
        for s in 0..8 {
            let (x, y) = transform(1, 2, s);
            assert_eq!(x * x + y * y, 5);
        }
    }
}
