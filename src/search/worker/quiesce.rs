//! The search's leaves: a quiescence that changes the static evaluation only by a
//! proof (a VCF, a four-three after an open three, or every answer to the opponent's
//! open three losing), and the leaf VCF it runs.

use super::Worker;
use crate::board::{Board, Pos, Threat};
use crate::eval::evaluate;
use crate::search::cutoff::Cutoff;
use crate::search::movegen::{quick_win, us_may_not_play};
use crate::search::score::{lost_in, win_in, MAX_PLY, WIN_BOUND};
use crate::search::vcf::{VcfLimits, VcfResult};
use crate::search::SearchEvent;

/// The quiescence's VCF at the leaves: how many of our fours it may chain, and the
/// nodes it may spend. A bounded solver with its own table replaced a plain four-chain
/// search, whose cost exploded in sharp positions (one test position: depth 2 in 10 s
/// before, depth 9 in 5 s after). Since the leaf VCF is narrow the budget hardly binds:
/// 1000 nodes gave the same node counts on `bench` and on scripts/threat_speed.py.
const QS_VCF_LENGTH: u32 = 12;
const QS_VCF_NODES: u64 = 300;
/// The leaf VCF tries two follow-up fours per move below its first, and no four that
/// makes nothing else (`VcfLimits::narrow`): against PentaZen at 1000 ms the first
/// scored 100-80-20 in two runs (55.0 %), where the full VCF scored 37-38.5 %.
const QS_VCF_NARROW: bool = true;
/// Threat quiescence, which changes a leaf's score only by a proof: how many open
/// threes one quiescence line may play, the most tried per node, and the quiescence
/// plies within which a side facing an open three checks whether every answer loses.
/// Scoring the lines by the evaluation instead (the threes tried whenever the stand
/// pat was below beta) cost a ply of depth in 1000 ms games and scored no better than
/// HEAD against PentaZen (README, session 30).
pub(super) const QS_THREATS: u32 = 1;
const QS_THREAT_MOVES: usize = 4;
const QS_DEFENCE_PLIES: u32 = 4;
/// The cells whose threes a quiescence line may play: every open three, and a
/// four-three (when an opponent's four kept `quick_win` from calling it won). Session
/// 30 took only the threes that make something more on another line; with the plain
/// ones too, `scripts/threat_speed.py` finds 24 of the 35 long wins instead of 22, for
/// 7 % more nodes on `bench 13` (README, session 31).
const THREE_MAKERS: [Threat; 4] = [
    Threat::FLEX3,
    Threat::FLEX3_PLUS,
    Threat::FLEX3_2X,
    Threat::BLOCK4_FLEX3,
];
/// The quiescence stands pat this close to `MAX_PLY` (room for a forced line's plies).
const QS_PLY_MARGIN: usize = 8;

impl Worker<'_> {
    /// A VCF search for the side to move within `QS_VCF_LENGTH` fours and `QS_VCF_NODES`
    /// nodes, counted as this thread's nodes.
    fn leaf_vcf(&mut self) -> VcfResult {
        let limits = VcfLimits {
            max_depth: QS_VCF_LENGTH,
            max_nodes: QS_VCF_NODES,
            cutoff: Cutoff::NONE,
            shortest_first: false,
            narrow: QS_VCF_NARROW,
        };
        let us = self.board.to_move();
        let before = self.vcf.nodes;
        let result = self.vcf.solve_for(&mut self.board, us, limits);
        self.nodes += self.vcf.nodes - before;
        result
    }

    /// Quiescence: stand pat on the static evaluation unless a short forced line
    /// proves the position won or lost. Facing an open three with no four of its own,
    /// the side to move is lost when every answer loses; with a four, a bounded VCF may
    /// prove a win; otherwise up to `threats` open threes (in this line) may lead to a
    /// four-three or a VCF after every answer. `qs_ply` counts the plies since the main
    /// search's leaf.
    pub(super) fn quiesce(
        &mut self,
        alpha: i32,
        beta: i32,
        ply: usize,
        threats: u32,
        qs_ply: u32,
    ) -> i32 {
        self.tick();
        self.pv[ply].clear();
        if self.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let us = self.board.to_move();
        let them = us.opp();
        if self.board.threat_count(us, Threat::FIVE) > 0 {
            return win_in(ply + 1);
        }
        let their_fives = self.board.threat_count(them, Threat::FIVE);
        if their_fives > 1 {
            return lost_in(ply + 2);
        }
        if their_fives == 1 {
            let Some(block) = self.board.cells_with_threat(them, Threat::FIVE).next() else {
                return lost_in(ply + 2);
            };
            if !self.board.is_legal(us, block) {
                return lost_in(ply + 2);
            }
            if ply >= MAX_PLY - 2 {
                return evaluate(&self.board);
            }
            self.board.make(block, us);
            let score = -self.quiesce(-beta, -alpha, ply + 1, threats, qs_ply + 1);
            self.board.undo();
            return score;
        }
        if let Some((p, plies)) = quick_win(&mut self.board) {
            self.pv[ply].push(p);
            return win_in(ply + plies);
        }
        let our_fours = self.board.threat_count_at_least(us, Threat::BLOCK4) > 0;
        let their_three = self.board.threat_count(them, Threat::FLEX4) > 0;
        let room = ply < MAX_PLY - QS_PLY_MARGIN;
        if their_three && !our_fours && qs_ply < QS_DEFENCE_PLIES && room {
            // Every cell where the opponent would make a four or better: the three's
            // ends and gaps are among them. Only a proof counts: when one of them holds
            // (avoids a proven loss), the evaluation decides as before.
            let score = self.qs_proof(
                ply,
                usize::MAX,
                -WIN_BOUND + 1,
                threats,
                qs_ply,
                |b, list| {
                    for p in b.cells_with_threat(them, Threat::BLOCK4) {
                        list.push((p, b.threat(them, p).0 as i32));
                    }
                },
            );
            if score <= -WIN_BOUND || self.stopped() {
                return score;
            }
            self.pv[ply].clear();
        }
        let stand = evaluate(&self.board);
        if stand >= beta || !room {
            self.sample_leaf();
            return stand;
        }
        if our_fours {
            if let VcfResult::Win(line) = self.leaf_vcf() {
                let plies = line.len();
                self.pv[ply] = line;
                return win_in(ply + plies);
            }
        }
        // Our open threes (and four-threes, when a four of the opponent's kept
        // `quick_win` from calling them won), best cells first, searched only for a
        // win: every answer may leave a four-three or a VCF the evaluation cannot see.
        // The counts spare the scan when there is none; they are read only when a
        // three may be played at all.
        if threats == 0
            || their_three
            || THREE_MAKERS
                .iter()
                .all(|&t| self.board.threat_count(us, t) == 0)
        {
            self.sample_leaf();
            return stand;
        }
        let score = self.qs_proof(
            ply,
            QS_THREAT_MOVES,
            WIN_BOUND,
            threats - 1,
            qs_ply,
            |b, list| {
                for p in b.candidates() {
                    if THREE_MAKERS.contains(&b.threat(us, p)) {
                        list.push((p, b.cell_score(us, p) + b.cell_score(them, p) / 2));
                    }
                }
            },
        );
        if score >= WIN_BOUND && !self.stopped() {
            return score;
        }
        self.sample_leaf();
        stand
    }

    /// Whether a quiescence move proves a score of at least `bound`: the first `limit`
    /// legal moves that `fill` lists (with order values, best first) are searched in the
    /// null window just below `bound`, each answered by a quiescence with `threats`
    /// left. Returns the best score found (fail-soft), or a loss when no move is legal.
    fn qs_proof(
        &mut self,
        ply: usize,
        limit: usize,
        bound: i32,
        threats: u32,
        qs_ply: u32,
        fill: impl FnOnce(&Board, &mut Vec<(Pos, i32)>),
    ) -> i32 {
        // This ply's buffer, lent out for the loop.
        let mut list = std::mem::take(&mut self.qs_lists[ply]);
        list.clear();
        fill(&self.board, &mut list);
        list.sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
        let us = self.board.to_move();
        let (alpha, beta) = (bound - 1, bound);
        let mut best = lost_in(ply + 4);
        for &(mv, _) in list.iter().take(limit) {
            if us_may_not_play(&mut self.board, us, mv) {
                continue;
            }
            self.board.make(mv, us);
            let score = -self.quiesce(-beta, -alpha, ply + 1, threats, qs_ply + 1);
            self.board.undo();
            if self.stopped() {
                break;
            }
            if score > best {
                best = score;
                if score >= beta {
                    self.set_pv(ply, mv);
                    break;
                }
            }
        }
        self.qs_lists[ply] = list;
        best
    }

    /// Reports this stand-pat leaf's moves when `Limits::sample_leaves` asks for it
    /// (the positions where the static evaluation decides, for fitting it to a
    /// teacher's verdict: `pbrain-ferrum sample-leaves`).
    #[inline(always)]
    fn sample_leaf(&self) {
        let every = self.limits.sample_leaves;
        if every == 0 || !self.nodes.is_multiple_of(every) {
            return;
        }
        if let Some(report) = self.report {
            let moves = self.board.moves_played();
            report(&SearchEvent::Leaf(moves));
        }
    }
}
