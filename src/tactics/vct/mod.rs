//! VCT solver (victory by continuous threats): the attacker plays fours and threes;
//! every defence is tried. A depth-first proof-number search (df-pn, Nagai 2002, with
//! the 1+ε threshold trick of Pawlewicz & Lew 2007) spends its effort where the proof
//! is cheapest, so long narrow wins are found without exploring every wide threat.
//!
//! Soundness comes from the defence side. After a three the attacker threatens a VCF
//! line `L` (found by the VCF solver as if the defender passed). A defender move can
//! refute `L` only if it is in [`breaking_candidates`]; every other move leaves `L`
//! winning as it stands. Each candidate is first tested by replaying `L` on the real
//! board (an exact check); only the defences that break `L` become children. So a
//! reported win is a proof, within the depth limits, never a guess.
//!
//! Nodes: an OR node has the attacker to move, an AND node the defender. `depth` counts
//! the attacker moves still allowed, the final five included; an AND node carries the
//! depth of the attacker move that made it, and a threat's VCF may have that many
//! moves (quintet counts so: its depth limits are the puzzles').

mod defence;
mod expand;
mod expansion_cache;
mod proof_table;

pub use defence::breaking_candidates;

use super::cutoff::Cutoff;
use super::vcf::{VcfLimits, VcfResult, VcfSolver};
use crate::board::zobrist::ZOBRIST;
use crate::board::{Board, Color, Pos, Threat};
use expand::Expansion;
use expansion_cache::ExpansionCache;
use proof_table::{Numbers, ProofTable, INF};

/// Budget and limits of a VCT search.
#[derive(Clone, Copy, Debug)]
pub struct VctLimits<'a> {
    /// Most attacker moves in a line (threats, fours and the final five).
    pub max_depth: u32,
    /// Most attacker moves of any VCF the search relies on: a VCF that wins outright,
    /// or the VCF a threat threatens (quintet's `threat_limit`).
    pub vcf_depth: u32,
    pub max_nodes: u64,
    pub cutoff: Cutoff<'a>,
    /// Look for short wins first (3, 5, 8 attacker moves, then the limit): cheap to
    /// find within a small budget, and short to play. Without, one search at the full
    /// depth: much faster for a long win, as it need not disprove every shorter one
    /// first (quintet-23 after E8 H5: 27 s -> 11 s).
    pub shortest_first: bool,
}

impl Default for VctLimits<'_> {
    fn default() -> Self {
        VctLimits {
            max_depth: 20,
            vcf_depth: 12,
            max_nodes: u64::MAX,
            cutoff: Cutoff::NONE,
            shortest_first: true,
        }
    }
}

/// Outcome of a VCT search (the line is a principal variation of the proof).
pub type VctResult = VcfResult;

/// Keys of the search parameters mixed into node keys, so that one table serves
/// several searches (a node's value depends on the attacker, the attacker moves left
/// and the VCF length allowed).
const PARAM_SALT: u64 = 0x9E37_79B9_7F4A_7C15;
const AND_SALT: u64 = 0xD1B5_4A32_D192_ED03;

pub struct VctSolver<'a> {
    limits: VctLimits<'a>,
    vcf: VcfSolver<'a>,
    /// The defender's own VCFs (a solver of its own: its cache is per attacker).
    defender_vcf: VcfSolver<'a>,
    pub nodes: u64,
    aborted: bool,
    /// `total_nodes()` when the current call started (the node budget is per call).
    call_start: u64,
    table: ProofTable,
    expansions: ExpansionCache,
    attacker: Color,
}

impl<'a> VctSolver<'a> {
    /// A solver with a proof table of `1 << table_bits` entries (24 bytes each) and
    /// room for `expansion_cache` node expansions (each costs VCF searches to
    /// compute): a move scan needs little, long offline solves (the `solve` tool) much
    /// more (quintet-24 was not solved in 150 s with 2^20 entries and 2^18 expansions).
    pub fn with_memory(limits: VctLimits<'a>, table_bits: u32, expansion_cache: usize) -> Self {
        VctSolver {
            limits,
            vcf: VcfSolver::new(VcfLimits::default()),
            defender_vcf: VcfSolver::new(VcfLimits::default()),
            nodes: 0,
            aborted: false,
            call_start: 0,
            table: ProofTable::new(table_bits),
            expansions: ExpansionCache::new(expansion_cache),
            attacker: Color::Black,
        }
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes + self.vcf.nodes + self.defender_vcf.nodes
    }

    /// Searches a VCT for the side to move within the limits (see
    /// [`VctLimits::shortest_first`] for the depths searched).
    pub fn solve(&mut self, board: &mut Board) -> VctResult {
        self.aborted = false;
        self.call_start = self.total_nodes();
        self.attacker = board.to_move();
        self.limits.vcf_depth = self.limits.vcf_depth.max(1);
        let max = self.limits.max_depth;
        let steps: &[u32] = if self.limits.shortest_first {
            &[3, 5, 8]
        } else {
            &[]
        };
        let depths = steps.iter().copied().filter(|&d| d < max);
        for depth in depths.chain(std::iter::once(max)) {
            let n = self.mid(board, depth, Numbers { pn: INF, dn: INF });
            if n.proven() {
                let mut line = Vec::new();
                if self.principal_line(board, depth, &mut line) {
                    return VcfResult::Win(line);
                }
                // The proof was evicted and the budget ran out proving it again.
                return VcfResult::Unknown;
            }
            if self.aborted || !n.disproven() {
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
            } else {
                self.aborted = self.limits.cutoff.reached();
            }
        }
        self.aborted
    }

    /// The key of the node reached by `mover` playing `mv` (or of `board` itself).
    fn key(&self, hash: u64, defender_to_move: bool, depth: u32) -> u64 {
        let l = &self.limits;
        let params = (self.attacker as u64) << 40 | l.vcf_depth as u64;
        let salt = (params ^ (depth as u64) << 50).wrapping_mul(PARAM_SALT);
        hash ^ salt ^ if defender_to_move { AND_SALT } else { 0 }
    }

    fn node_key(&self, board: &Board, depth: u32) -> u64 {
        self.key(board.hash(), board.to_move() != self.attacker, depth)
    }

    /// The expansion of the node on `board` (cached: it costs VCF searches). Depths
    /// beyond the VCF length allowed expand alike, so they share a cache entry.
    fn expansion(&mut self, board: &mut Board, depth: u32) -> Expansion {
        let key = self.node_key(board, depth.min(self.limits.vcf_depth + 2));
        if let Some(e) = self.expansions.get(key) {
            return e;
        }
        let e = if board.to_move() == self.attacker {
            self.expand_attack(board, depth)
        } else {
            self.expand_defence(board, depth)
        };
        if !self.aborted {
            self.expansions.insert(key, e.clone());
        }
        e
    }

    /// Multiple iterative deepening at one node: searches it until its numbers reach a
    /// threshold, and returns them.
    fn mid(&mut self, board: &mut Board, depth: u32, th: Numbers) -> Numbers {
        self.nodes += 1;
        let work_start = self.total_nodes();
        let key = self.node_key(board, depth);
        if self.out_of_budget() {
            return self.table.get(key).unwrap_or(Numbers::UNKNOWN);
        }
        let children = match self.expansion(board, depth) {
            Expansion::Proven => Numbers::PROVEN,
            Expansion::Disproven => Numbers::DISPROVEN,
            Expansion::Children(c) => {
                return self.mid_children(board, depth, th, key, &c, work_start)
            }
        };
        if !self.aborted {
            self.table.put(key, children, u64::MAX);
        }
        children
    }

    fn mid_children(
        &mut self,
        board: &mut Board,
        depth: u32,
        th: Numbers,
        key: u64,
        children: &[Pos],
        work_start: u64,
    ) -> Numbers {
        let mover = board.to_move();
        let or_node = mover == self.attacker;
        let child_depth = if or_node { depth } else { depth - 1 };
        // A child not searched yet looks as costly to settle as its parent is wide, so
        // an expanded (narrower) sibling is searched on first: depth before breadth.
        let wide = (children.len() as u32).min(INF - 1);
        let unexplored = if or_node {
            Numbers { pn: wide, dn: 1 }
        } else {
            Numbers { pn: 1, dn: wide }
        };
        loop {
            // OR node: pn = min over children, dn = sum; AND node: the other way round.
            // `best` minimises the "min" number; `second` is the runner-up value.
            let mut min_val = INF;
            let mut second = INF;
            let mut sum: u64 = 0;
            let mut best = 0;
            let mut best_numbers = Numbers::UNKNOWN;
            for (i, &m) in children.iter().enumerate() {
                let child_key = self.key(
                    board.hash() ^ ZOBRIST[mover.idx()][m.idx()],
                    or_node,
                    child_depth,
                );
                let c = self.table.get(child_key).unwrap_or(unexplored);
                let (small, summed) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
                sum += summed as u64;
                if small < min_val {
                    second = min_val;
                    min_val = small;
                    best = i;
                    best_numbers = c;
                } else if small < second {
                    second = small;
                }
            }
            let summed = if sum >= INF as u64 {
                // Saturated: a real INF only when a child is settled that way.
                if children.len() == 1 {
                    INF
                } else {
                    (INF - 1).min(sum as u32)
                }
            } else {
                sum as u32
            };
            let summed = if min_val == 0 { INF } else { summed };
            let n = if or_node {
                Numbers {
                    pn: min_val,
                    dn: summed,
                }
            } else {
                Numbers {
                    pn: summed,
                    dn: min_val,
                }
            };
            let work = self.total_nodes() - work_start;
            if !self.aborted {
                self.table.put(key, n, work);
            }
            if n.pn >= th.pn || n.dn >= th.dn || self.aborted {
                return n;
            }
            // The best child's thresholds: keep searching it while it stays the best
            // (with 1+ε slack against thrashing) and the parent stays under its own.
            let slack = |v: u32| ((v as u64 * 5 / 4 + 1).min(INF as u64)) as u32;
            let child_th = if or_node {
                Numbers {
                    pn: th.pn.min(slack(second)),
                    dn: (th.dn - n.dn).saturating_add(best_numbers.dn).min(INF),
                }
            } else {
                Numbers {
                    pn: (th.pn - n.pn).saturating_add(best_numbers.pn).min(INF),
                    dn: th.dn.min(slack(second)),
                }
            };
            let mv = children[best];
            board.make(mv, mover);
            self.mid(board, child_depth, child_th);
            board.undo();
        }
    }

    /// The proven node's principal variation into `line`: the attacker's proven move at
    /// OR nodes, the first defence at AND nodes, down to a VCF.
    fn principal_line(&mut self, board: &mut Board, depth: u32, line: &mut Vec<Pos>) -> bool {
        let attacker = self.attacker;
        let or_node = board.to_move() == attacker;
        if or_node {
            if let Some(l) = self.vcf(board, depth.min(self.limits.vcf_depth)) {
                line.extend(l);
                return true;
            }
        } else {
            let fives = board.threat_count(attacker, Threat::FIVE);
            let unstoppable = if board.rule().blocked_five_loses() {
                fives > 0 && board.caro_answers_to_fives(attacker).is_empty()
            } else {
                fives >= 2
            };
            if unstoppable || (fives == 1 && expand::block_is_forbidden(board, attacker)) {
                return true;
            }
        }
        let children = match self.expansion(board, depth) {
            Expansion::Children(c) => c,
            Expansion::Proven if !or_node => {
                return self.threat_line_after_any_defence(board, depth, line)
            }
            _ => return false,
        };
        let child_depth = if or_node { depth } else { depth - 1 };
        let mover = board.to_move();
        let hash = board.hash();
        let child_key =
            |s: &Self, m: Pos| s.key(hash ^ ZOBRIST[mover.idx()][m.idx()], or_node, child_depth);
        let proven = |s: &Self, m: Pos| s.table.get(child_key(s, m)).is_some_and(Numbers::proven);
        let chosen = if or_node {
            let mut pick = children.iter().copied().find(|&m| proven(self, m));
            if pick.is_none()
                && self
                    .mid(board, depth, Numbers { pn: INF, dn: INF })
                    .proven()
            {
                // The proof was evicted from the table: prove the node again.
                pick = children.iter().copied().find(|&m| proven(self, m));
            }
            pick
        } else {
            // Every defence loses; the first one is the principal.
            Some(children[0])
        };
        let Some(m) = chosen else {
            return false;
        };
        line.push(m);
        board.make(m, mover);
        let mut ok = true;
        if !self
            .table
            .get(self.node_key(board, child_depth))
            .is_some_and(Numbers::proven)
        {
            ok = self
                .mid(board, child_depth, Numbers { pn: INF, dn: INF })
                .proven();
        }
        ok = ok && self.principal_line(board, child_depth, line);
        board.undo();
        ok
    }

    /// A line for a threat no defence breaks: any defence, then the threat line.
    fn threat_line_after_any_defence(
        &mut self,
        board: &mut Board,
        depth: u32,
        line: &mut Vec<Pos>,
    ) -> bool {
        let defender = board.to_move();
        let threat = self.vcf(board, depth.min(self.limits.vcf_depth));
        let Some(threat) = threat else {
            return false;
        };
        let Some(&m) = breaking_candidates(board, defender, &threat).first() else {
            return false;
        };
        line.push(m);
        line.extend(threat);
        true
    }

    /// A VCF of the attacker (whoever is to move) within `depth` moves, with bounded
    /// effort: "unknown" counts as no VCF, which can only lose wins, never invent one.
    fn vcf(&mut self, board: &mut Board, depth: u32) -> Option<Vec<Pos>> {
        let attacker = self.attacker;
        bounded_vcf(&mut self.vcf, board, attacker, depth, self.limits.cutoff)
    }
}

/// Nodes an inner VCF search may spend.
const INNER_VCF_NODES: u64 = 20_000;

/// A VCF for `attacker` (whoever is to move) within `depth` moves, with bounded effort:
/// "unknown" counts as no VCF, which can only lose wins, never invent one; a line found
/// is exact.
fn bounded_vcf<'a>(
    solver: &mut VcfSolver<'a>,
    board: &mut Board,
    attacker: Color,
    depth: u32,
    cutoff: Cutoff<'a>,
) -> Option<Vec<Pos>> {
    let limits = VcfLimits {
        max_depth: depth,
        max_nodes: INNER_VCF_NODES,
        cutoff,
        ..VcfLimits::default()
    };
    match solver.solve_for(board, attacker, limits) {
        VcfResult::Win(line) => Some(line),
        _ => None,
    }
}
