//! The balance jobs (`YXBALANCEONE`, `YXBALANCETWO`): the move, or the move and the
//! reply, after which the evaluation is closest to a target, found by shallow searches
//! of many candidate lines and deeper ones of the closest few. Swap2's second choice
//! uses the same rounds.

use super::{fixed_score, Answer, Ctx, Outcome, Show, Window};
use crate::board::{Board, Pos};
use crate::search::movegen::{any_legal_move, generate, scored_moves, Moves};
use crate::search::score::{format_score, win_in};
use crate::search::Limits;

impl Ctx<'_> {
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

    /// Scores `lines` (for the side to move) in two rounds within `window`: all of them
    /// shallow in a third of it, then the `keep` closest to `target` with the rest.
    /// Returns (line, score) closest to `target` first.
    pub(super) fn balance_rounds(
        &self,
        board: &Board,
        lines: Vec<Vec<Pos>>,
        (target, keep): (i32, usize),
        window: Window,
        nodes: &mut u64,
    ) -> Vec<(Vec<Pos>, i32)> {
        let mut scored: Vec<(Vec<Pos>, i32)> = Vec::new();
        let first = window.part(self.limits, 1, 3);
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
        let second = window;
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
    pub(super) fn balance_one(&self, board: &Board, bias: i32) -> Outcome {
        let mut nodes = 0;
        let lines = candidates(board, 16).into_iter().map(|p| vec![p]).collect();
        let window = Window::of(self.limits);
        let scored = self.balance_rounds(board, lines, (bias, 4), window, &mut nodes);
        self.balance_outcome(board, scored, bias, nodes)
    }

    /// YXBALANCETWO: our move and the opponent's reply after which our evaluation
    /// (we are to move again) is closest to `bias`.
    pub(super) fn balance_two(&self, board: &Board, bias: i32) -> Outcome {
        let mut nodes = 0;
        let lines = two_move_lines(board, 8, 5);
        if lines.is_empty() {
            // Every candidate wins at once or there is no room for two stones.
            return self.balance_one(board, bias);
        }
        let window = Window::of(self.limits);
        let scored = self.balance_rounds(board, lines, (bias, 5), window, &mut nodes);
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
                Pos::line_notation(line),
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
        Moves::Win(five) => {
            // A balance move keeps the game going: the five ends it, so the other
            // candidates (the opponent then blocks), the five only if there are none.
            let (mut cells, mut list) = (Vec::new(), Vec::new());
            scored_moves(&mut b, |_| 0, &mut cells, &mut list);
            list.sort_by_key(|m| std::cmp::Reverse(m.1));
            let others: Vec<Pos> = (list.into_iter().map(|m| m.0))
                .filter(|&p| p != five)
                .take(k)
                .collect();
            if others.is_empty() {
                vec![five]
            } else {
                others
            }
        }
        Moves::Block(p) => vec![p],
        Moves::Lost => any_legal_move(&mut b).into_iter().collect(),
        Moves::List(list) if !list.is_empty() => list.into_iter().take(k).map(|m| m.0).collect(),
        Moves::List(_) => any_legal_move(&mut b).into_iter().collect(),
    }
}

/// Two-stone lines for the balance searches: the side to move's `first` best candidates
/// (none that wins at once), each followed by the opponent's `second` best replies.
pub(super) fn two_move_lines(board: &Board, first: usize, second: usize) -> Vec<Vec<Pos>> {
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
