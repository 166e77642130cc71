//! The swap2 jobs (`SWAP2BOARD`): the three opening stones, and the answer to an
//! opening of three or five stones (swap, our stone, or two more stones).

use super::balance::two_move_lines;
use super::{fixed_score, Answer, Ctx, Outcome, Show, Window, BALANCE_WINDOW};
use crate::board::{Board, Pos};
use crate::search::movegen::any_legal_move;
use crate::search::score::format_score;
use crate::search::Limits;

impl Ctx<'_> {
    /// SWAP2BOARD with no stones: of a few three-stone openings (Black, White,
    /// Black) around the centre, the one whose search evaluation for White to move
    /// is closest to 0.
    pub(super) fn swap2_open(&self, board: &Board) -> Outcome {
        let mut nodes = 0;
        let options = opening_options(board);
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
            Pos::line_notation(&stones),
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
    pub(super) fn swap2_decide(&self, board: &Board, stones: usize) -> Outcome {
        // A tenth of the time stays unused: a sub-search that ended at the hard limit
        // left the job's own answer racing the protocol's answer without it, which
        // for this job is another answer (one stone where the job chose two).
        let whole = Window::of(self.limits).part(self.limits, 9, 10);
        let share = if stones == 3 { 1 } else { 2 };
        let limits = whole.part(self.limits, share, 2).limits(self.limits, None);
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
            let scored = self.balance_rounds(board, lines, (0, 4), whole, &mut nodes);
            out.nodes = nodes;
            if let Some((pair, v)) = scored.first() {
                if v.abs() < score.abs().max(BALANCE_WINDOW / 2) {
                    self.message(format!(
                        "swap2 3 stones: ev {} for White, two stones {} ev {}",
                        format_score(score),
                        Pos::line_notation(pair),
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

/// The three-stone openings that fit `board` (its centre and empty points), turned by
/// a symmetry of the moment; never empty (a board too small or too full for every
/// shape gets any three legal points).
pub(super) fn opening_options(board: &Board) -> Vec<Vec<Pos>> {
    let (w, h) = (board.width() as i64, board.height() as i64);
    let (cx, cy) = (w / 2, h / 2);
    let sym = symmetry_seed() % if w == h { 8 } else { 4 };
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
    options
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_are_symmetries() {
        // The eight images of a point off every axis and diagonal are distinct, and
        // each symmetry keeps lengths and angles (dot products).
        let images: std::collections::HashSet<_> = (0..8).map(|s| transform(1, 2, s)).collect();
        assert_eq!(images.len(), 8, "{images:?}");
        let dot = |a: (i64, i64), b: (i64, i64)| a.0 * b.0 + a.1 * b.1;
        for s in 0..8 {
            let (a, b) = (transform(1, 2, s), transform(3, -1, s));
            assert_eq!(
                (dot(a, a), dot(b, b), dot(a, b)),
                (5, 10, 1),
                "symmetry {s}"
            );
        }
    }
}
