//! One search thread: iterative deepening PVS; its leaves (the quiescence) are in
//! `quiesce.rs`.

use super::history::History;
use super::movegen::{forced_moves, quick_win, scored_moves, Forced};
use super::params::time::CHECK_EVERY;
use super::params::{
    ASPIRATION_DELTA, ASPIRATION_MAX_DELTA, ASPIRATION_MIN_DEPTH, FUTILITY_MARGIN,
    FUTILITY_MAX_DEPTH, HELPERS_PER_SKIP_RUN, LMR_QUIET_FIRST_MOVE, LMR_QUIET_MIN_DEPTH,
    LMR_THREAT_MIN_DEPTH, POLICY_MIN_DEPTH, POLICY_WEIGHT, RAZOR_MARGIN, RAZOR_MAX_DEPTH,
    RFP_MARGIN, RFP_MAX_DEPTH, SE_MARGIN, SE_MIN_DEPTH, SE_TT_DEPTH_SLACK, WIDTH_MIN_PLY,
};
use super::picker::MovePicker;
use super::pruning::{
    lmr, lmr_threat, move_count_limit, policy_reduction, pruning_value, width_limit,
};
use super::score::{from_tt, is_mate, lost_in, to_tt, win_in, INFINITE, MAX_PLY, WIN_BOUND};
use super::{Limits, Progress, Reporter, SearchEvent, SharedState};
use crate::board::types::CELLS;
use crate::board::{Board, Color, Pos, Threat};
use crate::eval::evaluate;
use crate::net::accumulator::NetState;
use crate::tactics::vcf::{line_dir, FailCache, VcfLimits, VcfSolver};
use crate::timeman::SoftScale;
use crate::tt::{Bound, TtEntry};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

mod quiesce;

/// Whether thread `id` leaves out iteration `depth`. The main thread (0) searches
/// every depth; a helper skips runs of depths (runs of 1 for helpers 1-4, of 2 for 5-8,
/// ...) at a phase set by its id, so that it works a depth or two ahead of the main
/// thread and fills the shared table with deeper results instead of repeating the main
/// thread's search move for move.
fn skips_depth(id: usize, depth: i32) -> bool {
    if id == 0 {
        return false;
    }
    let run = 1 + (id - 1) / HELPERS_PER_SKIP_RUN;
    (depth as usize + id) / run % 2 == 1
}

/// Step 2 of `search`: the table entry's score when it decides the node: a bound of
/// enough depth that cuts at a non-PV node. A proven win or loss holds at any depth
/// (the pruning can hide a win but never make one up): it cuts however shallow the
/// search that stored it.
#[inline(always)]
fn tt_cut(e: TtEntry, depth: i32, ply: usize, alpha: i32, beta: i32, pv_node: bool) -> Option<i32> {
    let score = from_tt(e.score, ply);
    if !pv_node && (e.depth >= depth || is_mate(score)) {
        let cut = match e.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        };
        if cut {
            return Some(score);
        }
    }
    None
}

/// Step 6 of `search`: the late-move reduction of move `i` (plies), searched first at
/// `new_depth` minus it. Quiet moves are reduced from the third move on, threat moves
/// (a three or four made or stopped) from the second, by less: threat moves are most
/// of the late moves in the tree, so leaving them whole left the reductions almost
/// unused (evidence: docs/strength-log.md, "Threat moves reduced"). A quiet move
/// adds `policy_plies`, the network policy's verdict on it. The reduced search keeps
/// at least one ply.
#[inline(always)]
fn reduction(
    depth: i32,
    new_depth: i32,
    i: usize,
    quiet: bool,
    pv_node: bool,
    policy_plies: i32,
) -> i32 {
    let reduction = if quiet && depth >= LMR_QUIET_MIN_DEPTH && i >= LMR_QUIET_FIRST_MOVE {
        lmr(depth, i) + !pv_node as i32 + policy_plies
    } else if !quiet && depth >= LMR_THREAT_MIN_DEPTH {
        lmr_threat(depth, i) - pv_node as i32
    } else {
        0
    };
    reduction.min(new_depth - 1).max(0)
}

pub struct Worker<'a> {
    pub board: Board,
    shared: &'a SharedState<'a>,
    limits: &'a Limits,
    pub id: usize,
    pub nodes: u64,
    flushed_nodes: u64,
    pub seldepth: usize,
    killers: Vec<[Pos; 2]>,
    /// `counter[last move][side to move]`: the quiet move that last refuted it.
    counter: Vec<[Pos; 2]>,
    /// Per ply, the move a singular-extension test leaves out (`Pos::NONE` if none).
    excluded: Vec<Pos>,
    history: History,
    pv: Vec<Vec<Pos>>,
    /// Per ply, the buffers of the move list and of its order (reused node after node).
    move_lists: Vec<Vec<(Pos, i32)>>,
    pick_keys: Vec<Vec<u64>>,
    /// The move generator's candidate cells (scratch).
    candidates: Vec<Pos>,
    /// Static evaluation of the node at each ply, where one was computed.
    evals: Vec<Option<i32>>,
    /// Per ply, whether the side to move there had to block a four (so the side to
    /// move one ply deeper is in a four chain).
    blocking: Vec<bool>,
    /// The quiescence's VCF solver.
    vcf: VcfSolver<'a>,
    /// Result of the last completed iteration.
    pub best: Option<IterationResult>,
    /// The main thread reports progress; helpers have none.
    report: Option<Reporter<'a>>,
    /// The network's incremental state, when a network evaluates.
    net: Option<NetState<'a>>,
    /// The policy's logits of a node's moves (scratch).
    logits: Vec<f32>,
    /// `policy_plies[ply * CELLS + cell]`: the plies the policy adds to the move's
    /// reduction (`policy_reduction`); written where the policy ordered the node.
    policy_plies: Box<[u8]>,
}

#[derive(Clone, Debug)]
pub struct IterationResult {
    pub depth: i32,
    pub score: i32,
    pub pv: Vec<Pos>,
}

impl<'a> Worker<'a> {
    /// Plays `p` for `c` on the thread's board (the network's state follows when it
    /// is next asked for an evaluation).
    #[inline(always)]
    fn play(&mut self, p: Pos, c: Color) {
        self.board.make(p, c);
    }

    /// Takes back the last move `play` made.
    #[inline(always)]
    fn take_back(&mut self) {
        self.board.undo();
        if let Some(net) = &mut self.net {
            net.taken_back(&self.board);
        }
    }

    /// The static evaluation for the side to move: the network's where one is set.
    #[inline(always)]
    fn evaluate(&mut self) -> i32 {
        match &mut self.net {
            Some(net) => net.evaluate(&self.board),
            None => evaluate(&self.board),
        }
    }

    pub fn new(
        board: Board,
        shared: &'a SharedState<'a>,
        limits: &'a Limits,
        id: usize,
        report: Option<Reporter<'a>>,
        vcf_table: &'a mut FailCache,
    ) -> Self {
        Worker {
            shared,
            limits,
            id,
            nodes: 0,
            flushed_nodes: 0,
            seldepth: 0,
            killers: vec![[Pos::NONE; 2]; MAX_PLY + 2],
            counter: vec![[Pos::NONE; 2]; CELLS],
            excluded: vec![Pos::NONE; MAX_PLY + 2],
            history: History::new(),
            pv: vec![Vec::new(); MAX_PLY + 2],
            move_lists: vec![Vec::new(); MAX_PLY + 2],
            pick_keys: vec![Vec::new(); MAX_PLY + 2],
            candidates: Vec::new(),
            evals: vec![None; MAX_PLY + 2],
            blocking: vec![false; MAX_PLY + 2],
            vcf: VcfSolver::lent(VcfLimits::default(), vcf_table),
            net: shared.net.map(|n| NetState::new(n, &board)),
            logits: Vec::new(),
            policy_plies: vec![0; (MAX_PLY + 2) * CELLS].into_boxed_slice(),
            best: None,
            report,
            board,
        }
    }

    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// Counts a node; the main thread also watches the clock and node limit.
    #[inline(always)]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes - self.flushed_nodes >= CHECK_EVERY {
            let add = self.nodes - self.flushed_nodes;
            self.flushed_nodes = self.nodes;
            let total = self.shared.nodes.fetch_add(add, Ordering::Relaxed) + add;
            if self.id == 0
                && (self.limits.start.elapsed() >= self.limits.hard
                    || total >= self.limits.max_nodes)
            {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Adds the nodes not yet counted to the shared total.
    pub fn flush_nodes(&mut self) {
        let add = self.nodes - self.flushed_nodes;
        self.flushed_nodes = self.nodes;
        self.shared.nodes.fetch_add(add, Ordering::Relaxed);
    }

    /// Iterative deepening; the main thread reports each completed depth.
    pub fn run(&mut self) {
        let mut depth = 1;
        while skips_depth(self.id, depth) {
            depth += 1;
        }
        let first = depth;
        let mut scale = SoftScale::default();
        while depth <= self.limits.max_depth {
            if depth > first
                && self.id == 0
                && self.limits.start.elapsed() >= scale.soft(self.limits.soft, self.limits.hard)
            {
                break;
            }
            self.seldepth = 0;
            let score = self.aspiration(depth);
            if self.stopped() {
                // An interrupted iteration still counts when at least its first root
                // move was searched fully: its best move beat that move at this depth.
                if !self.pv[0].is_empty() {
                    self.best = Some(IterationResult {
                        depth: depth - 1,
                        score,
                        pv: self.pv[0].clone(),
                    });
                }
                break;
            }
            if self.pv[0].is_empty() {
                break;
            }
            self.best = Some(IterationResult {
                depth,
                score,
                pv: self.pv[0].clone(),
            });
            scale.update(depth, self.pv[0][0].idx() as u16, score);
            if let Some(report) = self.report {
                report(&SearchEvent::Iteration(Progress {
                    depth,
                    seldepth: self.seldepth,
                    score,
                    nodes: self.shared.nodes.load(Ordering::Relaxed) + self.nodes
                        - self.flushed_nodes,
                    elapsed: self.limits.start.elapsed(),
                    pv: self.pv[0].clone(),
                }));
            }
            if self.stopped() || is_mate(score) && depth > (super::score::WIN - score.abs()) + 2 {
                break;
            }
            depth += 1;
            while skips_depth(self.id, depth) {
                depth += 1;
            }
        }
        self.flush_nodes();
    }

    /// The root search of one iteration in a window around the last score, widened on
    /// each fail (full window for the first depths and for mate scores).
    fn aspiration(&mut self, depth: i32) -> i32 {
        let previous = self.best.as_ref().map(|b| b.score).filter(|s| !is_mate(*s));
        let Some(previous) = previous.filter(|_| depth >= ASPIRATION_MIN_DEPTH) else {
            return self.search(-INFINITE, INFINITE, depth, 0, true);
        };
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.search(alpha, beta, depth, 0, true);
            if self.stopped() || (score > alpha && score < beta) {
                return score;
            }
            delta *= 2;
            if score <= alpha {
                alpha = (score - delta).max(-INFINITE);
            } else {
                beta = (score + delta).min(INFINITE);
            }
            if delta > ASPIRATION_MAX_DELTA {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    fn set_pv(&mut self, ply: usize, mv: Pos) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// Principal variation search. Scores are from the side to move's view.
    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        // Step 1. Node entry: stop, mate distance, forced fives and quick wins, horizon.
        self.tick();
        self.pv[ply].clear();
        if ply > 0 && self.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let us = self.board.to_move();
        let them = us.opp();
        if ply > 0 {
            alpha = alpha.max(lost_in(ply));
            beta = beta.min(win_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        // Fives on the board decide from the threat counts alone; the (costly) move
        // list is built only after the TT had its chance to cut.
        let forced_block = match forced_moves(&mut self.board) {
            Some(Forced::Win(p)) => {
                self.pv[ply].push(p);
                return win_in(ply + 1);
            }
            Some(Forced::Lost) => return lost_in(ply + 2),
            Some(blocks) => Some(blocks),
            None => {
                if let Some((p, plies)) = quick_win(&mut self.board) {
                    // A threat the opponent cannot stop in time (at the root, not one
                    // of multi-PV's excluded moves: the search then finds the next).
                    if ply > 0 || !self.limits.exclude.contains(&p) {
                        self.pv[ply].push(p);
                        return win_in(ply + plies);
                    }
                }
                None
            }
        };
        if ply >= MAX_PLY - 2 {
            return self.evaluate();
        }
        // A forced block is searched at the same depth (an extension for forced replies).
        let forced = forced_block.is_some();
        self.blocking[ply] = forced;
        if depth <= 0 && !forced {
            return self.quiesce(alpha, beta, ply);
        }

        // Step 2. Transposition table probe.
        let key = self.board.key();
        // A singular-extension test searches this node again without one move: the
        // table's entry for the node is what it tests, so it neither cuts on it nor
        // overwrites it.
        let excluded = self.excluded[ply];
        let entry = if excluded == Pos::NONE {
            self.shared.tt.probe(key)
        } else {
            None
        };
        let tt_move = entry.map_or(Pos::NONE, |e| e.mv);
        if let Some(score) = entry.and_then(|e| tt_cut(e, depth, ply, alpha, beta, pv_node)) {
            return score;
        }

        // Step 3. Static evaluation and static pruning (reverse futility, razoring,
        // futility).
        let (static_eval, futile) =
            match self.static_prune(alpha, beta, depth, ply, pv_node, forced, entry) {
                ControlFlow::Break(score) => return score,
                ControlFlow::Continue(v) => v,
            };
        self.evals[ply] = static_eval;
        // Unknown counts as improving: prune less (evidence:
        // docs/strength-log.md, "Improving").
        let improving = match (static_eval, ply.checked_sub(2).and_then(|p| self.evals[p])) {
            (Some(now), Some(before)) => now > before,
            _ => true,
        };

        // Step 4. Move list, its order and its limits.
        let mut list = match self.node_moves(ply, us, forced_block) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(list) => list,
        };
        let by_policy =
            depth >= POLICY_MIN_DEPTH && list.len() > 1 && self.order_by_policy(ply, &mut list);
        // The root orders like any node (evidence: docs/strength-log.md,
        // "Root move order").
        let keys = std::mem::take(&mut self.pick_keys[ply]);
        let killers = &self.killers[ply];
        let mut moves = MovePicker::new(keys, &list, tt_move, killers, self.counter_move());
        self.move_lists[ply] = list;
        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = Pos::NONE;
        let width = self.width(depth, ply, forced);
        let move_count = move_count_limit(depth, improving);

        // Step 5. Singular extension.
        let singular = match self.singular_extension(entry, depth, ply, forced) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(singular) => singular,
        };

        // Step 6. Move loop: width and move-count pruning, extensions, late-move
        // reductions and their re-searches.
        for (i, mv) in moves.by_ref().enumerate() {
            // Neither the width nor the move count cuts while every move searched so
            // far loses, so a node is scored lost only once all its moves lose: the
            // pruning can hide a win but never make one up, and a win found here needs
            // no second search without the pruning (evidence:
            // docs/strength-log.md, "Cautious re-search").
            // The width keeps the fours that make more than a four, and a plain four
            // that continues a four chain (the opponent has just blocked our four, and
            // this one is on a line through that four's stone, within four cells): a
            // four-chain win ordered late would otherwise go unseen (tests/
            // selective_soundness.rs). Any other plain four only trades the four for
            // the block, and crowded positions have dozens of them.
            let mine = self.board.threat(us, mv);
            if i >= width
                && best_score > -WIN_BOUND
                && mine < Threat::BLOCK4_PLUS
                && !(mine == Threat::BLOCK4 && self.continues_four_chain(ply, mv))
            {
                continue;
            }
            if mv == excluded {
                continue;
            }
            // A quiet move makes less than two twos (or a closed three with a two) and
            // stops less than a three. Our two-twos are the quiet moves a three-three
            // attack grows from: they are reduced like threat moves and never cut by the
            // move count (evidence: docs/strength-log.md, "Two-twos").
            let quiet = mine < Threat::FLEX2_2X && self.board.threat(them, mv) < Threat::FLEX3;
            // Move-count pruning: late quiet moves of non-PV nodes are not searched once
            // a move has given a real score.
            if !pv_node && quiet && (i >= move_count || futile && i > 0) && best_score > -WIN_BOUND
            {
                continue;
            }
            let new_depth = if forced || singular && mv == tt_move {
                depth
            } else {
                depth - 1
            };
            if ply == 0 && self.limits.report_root_moves {
                if let Some(report) = self.report {
                    report(&SearchEvent::RootMove(mv));
                }
            }
            self.shared.tt.prefetch(self.board.key_after(mv, us));
            self.play(mv, us);
            let mut score;
            if i == 0 {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, pv_node);
            } else {
                let policy_plies = if by_policy && quiet {
                    self.policy_plies[ply * CELLS + mv.idx()] as i32
                } else {
                    0
                };
                // Caro's several answers to a four are each searched in full.
                let reduction = if forced {
                    0
                } else {
                    reduction(depth, new_depth, i, quiet, pv_node, policy_plies)
                };
                score = -self.search(-alpha - 1, -alpha, new_depth - reduction, ply + 1, false);
                if score > alpha && reduction > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, true);
                }
            }
            self.take_back();
            if self.stopped() && ply > 0 {
                return 0;
            }
            if self.stopped() && ply == 0 {
                if i == 0 {
                    // The first move's score is unfinished: nothing of this iteration holds.
                    self.pv[0].clear();
                }
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if score >= beta {
                        if quiet {
                            self.reward(mv, us, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.pick_keys[ply] = moves.into_keys();

        // Step 7. Result and TT store. Not of a root searched without some of its moves
        // (multi-PV's later lines): its value is not the position's, and the table
        // lives on to later searches, where a stored loss would hide a win.
        let root_cut = ply == 0 && (self.stopped() || !self.limits.exclude.is_empty());
        if !root_cut && excluded == Pos::NONE {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared
                .tt
                .store(key, best_move, to_tt(best_score, ply), depth, bound);
        }
        best_score
    }

    /// Step 4 of `search`, with a network: adds the policy's logits to the move list's
    /// ordering scores and keeps the plies its gap to the best logit adds to its
    /// reduction.
    /// False where no network evaluates.
    fn order_by_policy(&mut self, ply: usize, list: &mut [(Pos, i32)]) -> bool {
        let Some(net) = &mut self.net else {
            return false;
        };
        net.policy(&self.board, list, &mut self.logits);
        let best = self.logits.iter().copied().fold(f32::MIN, f32::max);
        let plies = &mut self.policy_plies[ply * CELLS..];
        for ((p, score), &logit) in list.iter_mut().zip(&self.logits) {
            *score = score.saturating_add((logit * POLICY_WEIGHT) as i32);
            plies[p.idx()] = policy_reduction(best - logit) as u8;
        }
        true
    }

    /// Step 3 of `search`: static pruning at quiet non-PV nodes where the opponent
    /// threatens nothing that the static evaluation cannot see (a four-three, double
    /// three or open four is worth far more than any margin). Breaks with the node's
    /// score when it is pruned; else continues with the static evaluation (where one
    /// was computed) and whether the node is futile (only its first quiet move is
    /// searched).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn static_prune(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        forced: bool,
        entry: Option<TtEntry>,
    ) -> ControlFlow<i32, (Option<i32>, bool)> {
        let us = self.board.to_move();
        let them = us.opp();
        let strong = |b: &Board, c: Color| {
            b.threat_count(c, Threat::FLEX3_2X)
                + b.threat_count(c, Threat::BLOCK4_FLEX3)
                + b.threat_count(c, Threat::FLEX4)
                > 0
        };
        let mut static_eval = None;
        let mut futile = false;
        if !pv_node && !forced && ply > 0 && !strong(&self.board, them) {
            let raw = self.evaluate();
            static_eval = Some(raw);
            // A tighter stored bound replaces the evaluation in the margins below; the
            // `improving` test compares evaluations only.
            let eval = pruning_value(raw, entry.map(|e| (from_tt(e.score, ply), e.bound)));
            futile = depth <= FUTILITY_MAX_DEPTH && eval + FUTILITY_MARGIN * depth <= alpha;
            if depth <= RFP_MAX_DEPTH && eval - RFP_MARGIN * depth >= beta && eval < WIN_BOUND {
                return ControlFlow::Break(eval);
            }
            if depth <= RAZOR_MAX_DEPTH
                && eval + RAZOR_MARGIN * depth <= alpha
                && !strong(&self.board, us)
            {
                let v = self.quiesce(alpha, alpha + 1, ply);
                if v <= alpha {
                    return ControlFlow::Break(v);
                }
            }
        }
        ControlFlow::Continue((static_eval, futile))
    }

    /// Step 4 of `search`: the node's moves with their generator scores, in this ply's
    /// reused buffer (an allocation per node and list cost 4 % of the instructions): the
    /// forced block(s) alone, else the generator's list, at the root restricted to the
    /// limits' moves. Breaks with the node's score when no move is left.
    #[inline(always)]
    fn node_moves(
        &mut self,
        ply: usize,
        us: Color,
        forced_block: Option<Forced>,
    ) -> ControlFlow<i32, Vec<(Pos, i32)>> {
        let mut list = std::mem::take(&mut self.move_lists[ply]);
        list.clear();
        match forced_block {
            Some(Forced::Block(p)) => list.push((p, 0)),
            Some(Forced::Blocks(ps)) => list.extend(ps.into_iter().map(|p| (p, 0))),
            Some(Forced::Win(_) | Forced::Lost) | None => {
                let history = &self.history;
                let history = |p: Pos| history.order_bonus(p, us);
                scored_moves(&mut self.board, history, &mut self.candidates, &mut list);
            }
        }
        if list.is_empty() {
            // No candidate: a full board is a draw; only forbidden moves left loses.
            return ControlFlow::Break(if self.board.empty_count() == 0 {
                0
            } else {
                lost_in(ply + 2)
            });
        }
        if ply == 0 && (!self.limits.exclude.is_empty() || self.limits.allowed.is_some()) {
            list.retain(|m| !self.limits.exclude.contains(&m.0));
            if let Some(allowed) = &self.limits.allowed {
                // Keep the generator's list if none of its moves is among the allowed.
                if list.iter().any(|m| allowed.contains(&m.0)) {
                    list.retain(|m| allowed.contains(&m.0));
                }
            }
            if list.is_empty() {
                return ControlFlow::Break(-INFINITE);
            }
        }
        ControlFlow::Continue(list)
    }

    /// Step 4 of `search`: the width limit, moves searched at a node below the first
    /// plies (PentaZen's shape): a board with a four or an open three on it needs fewer
    /// moves than a quiet one. None in renju, where it lost in self-play (evidence:
    /// docs/strength-log.md, "Width limit in renju").
    #[inline(always)]
    fn width(&self, depth: i32, ply: usize, forced: bool) -> usize {
        if ply >= WIDTH_MIN_PLY && !forced && !self.board.rule().has_forbidden(Color::Black) {
            let calm = Color::BOTH
                .iter()
                .all(|&c| self.board.threat_count_at_least(c, Threat::FLEX4) == 0);
            width_limit(depth, calm, self.net.is_some())
        } else {
            usize::MAX
        }
    }

    /// Step 5 of `search`: whether the table's move is singular, i.e. every other move,
    /// searched at reduced depth, stays a margin below the table's score; it is then
    /// searched one ply deeper. Breaks with 0 when the search was stopped meanwhile.
    #[inline(always)]
    fn singular_extension(
        &mut self,
        entry: Option<TtEntry>,
        depth: i32,
        ply: usize,
        forced: bool,
    ) -> ControlFlow<i32, bool> {
        let Some(e) = entry.filter(|e| {
            ply > 0
                && depth >= SE_MIN_DEPTH
                && !forced
                && e.mv != Pos::NONE
                && matches!(e.bound, Bound::Lower | Bound::Exact)
                && e.depth >= depth - SE_TT_DEPTH_SLACK
                && !is_mate(e.score)
        }) else {
            return ControlFlow::Continue(false);
        };
        let singular_beta = from_tt(e.score, ply) - SE_MARGIN * depth;
        self.excluded[ply] = e.mv;
        let v = self.search(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            false,
        );
        self.excluded[ply] = Pos::NONE;
        if self.stopped() {
            return ControlFlow::Break(0);
        }
        self.pv[ply].clear();
        ControlFlow::Continue(v < singular_beta)
    }

    /// Whether `mv`, at `ply`, continues a four chain: the opponent has just blocked a
    /// four of ours, and `mv` is on a line through that four's stone, within four
    /// cells (the leaf VCF's "continuous attack").
    fn continues_four_chain(&self, ply: usize, mv: Pos) -> bool {
        ply > 0
            && self.blocking[ply - 1]
            && self
                .board
                .history()
                .iter()
                .rev()
                .nth(1)
                .is_some_and(|&(four, _)| line_dir(four, mv).is_some())
    }

    /// The quiet move that last refuted the opponent's last move, if any.
    fn counter_move(&self) -> Pos {
        match self.board.last_move() {
            Some((last, _)) => self.counter[last.idx()][self.board.to_move().idx()],
            None => Pos::NONE,
        }
    }

    /// A quiet move cut off: it becomes the counter-move and a killer, and the history
    /// rewards it. Only searched cut-offs are rewarded (evidence:
    /// docs/strength-log.md, "Cut-off rewards").
    fn reward(&mut self, mv: Pos, us: Color, depth: i32, ply: usize) {
        if let Some((last, _)) = self.board.last_move() {
            self.counter[last.idx()][us.idx()] = mv;
        }
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        self.history.reward(mv, us, depth);
    }
}

#[cfg(test)]
mod tests {
    use super::skips_depth;

    #[test]
    fn main_thread_searches_every_depth_and_helpers_spread() {
        assert!((1..60).all(|d| !skips_depth(0, d)));
        // The one helper of a two-thread search takes every other depth.
        let helper: Vec<i32> = (1..12).filter(|&d| !skips_depth(1, d)).collect();
        assert_eq!(helper, vec![1, 3, 5, 7, 9, 11]);
        // Helpers differ from one another and never stop deepening.
        for id in 1..16 {
            let searched = (1..40).filter(|&d| !skips_depth(id, d)).count();
            assert!((15..=25).contains(&searched), "helper {id}: {searched}");
        }
        assert_ne!(
            (1..12).map(|d| skips_depth(1, d)).collect::<Vec<_>>(),
            (1..12).map(|d| skips_depth(2, d)).collect::<Vec<_>>()
        );
    }
}
