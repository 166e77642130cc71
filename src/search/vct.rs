//! VCT solver (victory by continuous threats): the attacker plays fours and threes;
//! every defence is tried.
//!
//! Soundness comes from the defence side. After a three the attacker threatens a VCF
//! line `L` (found by the VCF solver as if the defender passed). A defender move can
//! refute `L` only if it is a four (it gains a tempo) or lies within reach of `L`'s
//! cells on one of their lines; every other move leaves `L` winning as it stands. Each
//! candidate defence is first tested by replaying `L` on the real board (an exact
//! check); only the defences that break `L` are searched further. So a reported win is
//! a proof, within the depth limits, never a guess.

use super::movegen::us_may_not_play;
use super::vcf::{four_moves, replay_wins, VcfLimits, VcfResult, VcfSolver};
use crate::board::types::DIRS;
use crate::board::{Board, Color, Pos, Threat};
use std::time::Instant;

/// Budget and limits of a VCT search.
#[derive(Clone, Copy, Debug)]
pub struct VctLimits {
    /// Most attacker moves in a line (threats, fours and the final five).
    pub max_depth: u32,
    /// Most attacker moves of any VCF the search relies on: a VCF that wins outright,
    /// or the VCF a threat threatens (quintet's `threat_limit`).
    pub vcf_depth: u32,
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
}

impl Default for VctLimits {
    fn default() -> Self {
        VctLimits {
            max_depth: 20,
            vcf_depth: 12,
            max_nodes: u64::MAX,
            deadline: None,
        }
    }
}

/// Longest defender VCF looked for (short ones are cheap and decide most cases).
const DEFENDER_VCF_DEPTH: u32 = 4;
/// Nodes an inner VCF search may spend.
const INNER_VCF_NODES: u64 = 20_000;
/// Threat moves tried at one attacker node, best first.
const MAX_THREES: usize = 400;

/// Failures keyed by position: (hash, depth, unused).
struct FailCache {
    entries: Vec<(u64, u8, u8)>,
}

impl FailCache {
    fn new(bits: u32) -> Self {
        FailCache {
            entries: vec![(0, 0, 0); 1 << bits],
        }
    }
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }
    fn failed(&self, key: u64, depth: u32, threats: u32) -> bool {
        let (k, d, t) = self.entries[self.slot(key)];
        k == key && d as u32 >= depth && t as u32 >= threats
    }
    fn insert(&mut self, key: u64, depth: u32, threats: u32) {
        let i = self.slot(key);
        self.entries[i] = (key, depth.min(255) as u8, threats.min(255) as u8);
    }
}

pub struct VctSolver {
    limits: VctLimits,
    vcf: VcfSolver,
    /// The defender's own VCFs (a solver of its own: its cache is per attacker).
    defender_vcf: VcfSolver,
    pub nodes: u64,
    aborted: bool,
    /// `total_nodes()` when the current call started (the node budget is per call).
    call_start: u64,
    fails: FailCache,
    attacker: Color,
}

/// Outcome of a VCT search (the line is a principal variation of the proof).
pub type VctResult = VcfResult;

impl VctSolver {
    pub fn new(limits: VctLimits) -> Self {
        VctSolver {
            limits,
            vcf: VcfSolver::new(VcfLimits::default()),
            defender_vcf: VcfSolver::new(VcfLimits::default()),
            nodes: 0,
            aborted: false,
            call_start: 0,
            fails: FailCache::new(16),
            attacker: Color::Black,
        }
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes + self.vcf.nodes + self.defender_vcf.nodes
    }

    /// Searches a VCT for the side to move, deepening the number of attacker moves.
    /// Searches with new limits, keeping what the solver learnt (same attacker only).
    pub fn solve_with(&mut self, board: &mut Board, limits: VctLimits) -> VctResult {
        self.limits = limits;
        self.solve(board)
    }

    pub fn solve(&mut self, board: &mut Board) -> VctResult {
        self.aborted = false;
        self.call_start = self.total_nodes();
        self.attacker = board.to_move();
        let mut line = Vec::new();
        for depth in 1..=self.limits.max_depth {
            if self.attack(board, depth, &mut line) {
                return VcfResult::Win(line);
            }
            if self.aborted {
                return VcfResult::Unknown;
            }
        }
        VcfResult::NoWin
    }

    fn out_of_budget(&mut self) -> bool {
        if !self.aborted {
            let used = self.total_nodes() - self.call_start;
            if used >= self.limits.max_nodes {
                self.aborted = true;
            } else if let Some(d) = self.limits.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// A VCF of the attacker (to move) within `depth` moves.
    fn vcf(&mut self, board: &mut Board, depth: u32) -> Option<Vec<Pos>> {
        bounded_vcf(&mut self.vcf, board, depth, self.limits.deadline)
    }

    /// A short VCF of the defender, the defender to move.
    fn defender_vcf(&mut self, board: &mut Board) -> Option<Vec<Pos>> {
        bounded_vcf(
            &mut self.defender_vcf,
            board,
            DEFENDER_VCF_DEPTH,
            self.limits.deadline,
        )
    }

    /// Attacker to move with at most `depth` more attacker moves.
    fn attack(&mut self, board: &mut Board, depth: u32, line: &mut Vec<Pos>) -> bool {
        self.nodes += 1;
        if depth == 0 || self.out_of_budget() {
            return false;
        }
        let attacker = self.attacker;
        let defender = attacker.opp();
        if let Some(l) = self.vcf(board, depth.min(self.limits.vcf_depth)) {
            *line = l;
            return true;
        }
        // A threat and at least a five after it.
        if depth < 2 {
            return false;
        }
        let key = board.hash();
        if self.fails.failed(key, depth, 0) {
            return false;
        }
        // A four of the defender must be blocked; the VCF above covered blocking fours.
        let their_five = if board.threat_count(defender, Threat::FIVE) > 0 {
            match board
                .cells_with_threat(defender, Threat::FIVE)
                .take(2)
                .collect::<Vec<_>>()[..]
            {
                [p] => Some(p),
                _ => {
                    self.fails.insert(key, depth, 0);
                    return false;
                }
            }
        } else {
            None
        };
        // Fours that lead into threats, then threats; with a five of the defender on the
        // board, only moves that block it.
        let mut fours = four_moves(board, attacker);
        if let Some(must) = their_five {
            fours.retain(|&p| p == must);
        }
        for mv in fours {
            if self.four_then(board, mv, depth, line) {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        let mut threes = self.three_moves(board, their_five);
        // If the defender threatens a short VCF of its own, a threat of ours that does
        // not stop it comes too late: keep only moves that might break it.
        if their_five.is_none() && !threes.is_empty() {
            board.set_to_move(defender);
            let counter = self.defender_vcf(board);
            board.set_to_move(attacker);
            if let Some(counter) = counter {
                let breakers = breaking_candidates(board, attacker, &counter);
                threes.retain(|p| breakers.contains(p));
            }
        }
        for mv in threes {
            board.make(mv, attacker);
            let won = self.after_threat(board, depth, line);
            board.undo();
            if won {
                line.insert(0, mv);
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        self.fails.insert(key, depth, 0);
        false
    }

    /// The attacker's four `mv`, the forced block, then the attack goes on.
    fn four_then(&mut self, board: &mut Board, mv: Pos, depth: u32, line: &mut Vec<Pos>) -> bool {
        let attacker = self.attacker;
        let defender = attacker.opp();
        board.make(mv, attacker);
        let mut won = false;
        let block = board.cells_with_threat(attacker, Threat::FIVE).next();
        if let Some(block) = block {
            // Two five points or a forbidden block were found by the VCF already.
            if board.threat_count(attacker, Threat::FIVE) == 1
                && !board.is_win_move(defender, block)
                && !us_may_not_play(board, defender, block)
            {
                board.make(block, defender);
                won = self.attack(board, depth - 1, line);
                board.undo();
                if won {
                    line.insert(0, block);
                    line.insert(0, mv);
                }
            }
        }
        board.undo();
        won
    }

    /// Legal non-four moves that build a threat (a three, or two lesser shapes), best
    /// first. Whether a move really threatens is decided after it: a VCF must follow.
    fn three_moves(&mut self, board: &mut Board, must: Option<Pos>) -> Vec<Pos> {
        let attacker = self.attacker;
        let mut moves: Vec<(Pos, Threat)> = board
            .candidates()
            .filter(|&p| must.is_none_or(|m| m == p))
            .map(|p| (p, board.threat(attacker, p)))
            .filter(|&(_, t)| t >= Threat::FLEX2 && t < Threat::BLOCK4)
            .collect();
        moves.retain(|&(p, _)| !us_may_not_play(board, attacker, p));
        moves.sort_by_key(|e| std::cmp::Reverse(e.1));
        moves.truncate(MAX_THREES);
        moves.into_iter().map(|e| e.0).collect()
    }

    /// After the attacker's threat move: it must threaten a VCF, and every defence must
    /// lose.
    fn after_threat(&mut self, board: &mut Board, depth: u32, line: &mut Vec<Pos>) -> bool {
        let attacker = self.attacker;
        let defender = attacker.opp();
        if board.threat_count(defender, Threat::FIVE) > 0 {
            return false;
        }
        // A defender with a VCF of its own wins first.
        if self.defender_vcf(board).is_some() {
            return false;
        }
        // The threat: a VCF if the defender passed.
        board.set_to_move(attacker);
        let threat = self.vcf(board, (depth - 1).min(self.limits.vcf_depth));
        board.set_to_move(defender);
        let Some(threat_line) = threat else {
            return false;
        };
        let defences = breaking_candidates(board, defender, &threat_line);
        // The principal variation: the first defence that needed a new attack, else the
        // first defence with the threat line itself.
        let mut principal: Option<Vec<Pos>> = None;
        let mut first: Option<Pos> = None;
        for m in defences {
            board.make(m, defender);
            let refuted = replay_wins(board, attacker, &threat_line);
            let mut sub = Vec::new();
            let holds = refuted || self.attack(board, depth - 1, &mut sub);
            board.undo();
            if !holds {
                return false;
            }
            first.get_or_insert(m);
            if !refuted && principal.is_none() {
                principal = Some(std::iter::once(m).chain(sub).collect());
            }
        }
        let fallback = || {
            first
                .into_iter()
                .chain(threat_line.iter().copied())
                .collect()
        };
        *line = principal.unwrap_or_else(fallback);
        true
    }
}

/// A VCF for the side to move within `depth` moves, with bounded effort: "unknown" counts
/// as no VCF, which can only lose wins, never invent one; a line found is exact.
fn bounded_vcf(
    solver: &mut VcfSolver,
    board: &mut Board,
    depth: u32,
    deadline: Option<Instant>,
) -> Option<Vec<Pos>> {
    let limits = VcfLimits {
        max_depth: depth,
        max_nodes: INNER_VCF_NODES,
        deadline,
    };
    match solver.solve_with(board, limits) {
        VcfResult::Win(line) => Some(line),
        _ => None,
    }
}

/// Every move of `defender` that might break the attacker's VCF `threat_line`, likely
/// refutations first. Any other move leaves the line winning as it stands:
/// - a move off the line changes none of its fours or forced replies, so it can only
///   matter if it is a four itself, or if it makes a four together with one of the
///   defender's forced replies (then that reply gains a tempo): both are collected;
/// - the ends: the two five points of a final double four, and the surroundings of a
///   final block that is forbidden for Black.
///
/// Renju with Black attacking is the exception: a White stone can make one of Black's
/// later fours forbidden through the recursive real-three rule, far from the line, so
/// there every cell within reach of the line's cells is collected instead.
pub fn breaking_candidates(board: &mut Board, defender: Color, threat_line: &[Pos]) -> Vec<Pos> {
    let attacker = defender.opp();
    let mut wanted = vec![false; crate::board::types::CELLS];
    let mark_around = |p: Pos, reach: isize, wanted: &mut Vec<bool>| {
        for step in DIRS {
            for k in -reach..=reach {
                if let Some(cell) = wanted.get_mut(p.offset(k * step).idx()) {
                    *cell = true;
                }
            }
        }
    };
    if board.rule().has_forbidden(attacker) {
        for &p in threat_line {
            mark_around(p, 8, &mut wanted);
        }
    } else {
        // Replay the line, noting the defender's four points that each forced reply
        // creates, and how the line ends.
        let mut made = 0;
        for (i, &p) in threat_line.iter().enumerate() {
            if !board.is_empty(p) {
                break;
            }
            wanted[p.idx()] = true;
            let color = if i % 2 == 0 { attacker } else { defender };
            board.make(p, color);
            made += 1;
            if color == defender {
                for (dir, step) in DIRS.iter().enumerate() {
                    for k in -4..=4isize {
                        let q = p.offset(k * step);
                        if q.idx() < wanted.len()
                            && board.is_empty(q)
                            && board.pattern(defender, q, dir) >= crate::board::Pattern::B4
                        {
                            wanted[q.idx()] = true;
                        }
                    }
                }
            }
        }
        let fives: Vec<Pos> = board.cells_with_threat(attacker, Threat::FIVE).collect();
        for &f in &fives {
            wanted[f.idx()] = true;
            if board.rule().has_forbidden(defender) {
                mark_around(f, 5, &mut wanted);
            }
        }
        for _ in 0..made {
            board.undo();
        }
    }
    let cells: Vec<Pos> = board.all_cells().filter(|&p| board.is_empty(p)).collect();
    let mut out: Vec<(Pos, i32)> = Vec::new();
    for p in cells {
        let four = board.threat(defender, p) >= Threat::BLOCK4;
        if !(wanted[p.idx()] || four) || us_may_not_play(board, defender, p) {
            continue;
        }
        let on_line = threat_line.contains(&p) as i32;
        let score = on_line * 1000
            + board.threat(attacker, p).0 as i32 * 10
            + board.threat(defender, p).0 as i32;
        out.push((p, score));
    }
    out.sort_by_key(|e| std::cmp::Reverse(e.1));
    out.into_iter().map(|e| e.0).collect()
}
