//! Tactics at the root, before the alpha-beta search: play a proven VCF win, and when
//! the opponent threatens a VCF, keep only the moves that stop it.
//!
//! No VCT here: it took the tactics' whole time in many moves, while the main search
//! found almost every such win itself, and deeper without it (evidence:
//! docs/strength-log.md, "Root tactics without a VCT").

use super::params::{OWN_VCF_NODES, RECHECK_NODES, THEIR_VCF_NODES};
use crate::board::{Board, Pos};
use crate::tactics::cutoff::Cutoff;
use crate::tactics::memory::RootMemory;
use crate::tactics::vcf::{replay_wins, VcfLimits, VcfResult, VcfSolver};
use crate::tactics::vct::breaking_candidates;

/// What the root tactics decided.
pub enum RootPlan {
    /// A proven win: play the line's first move.
    Win(Vec<Pos>),
    /// The opponent has a VCF: only these moves stop it (never empty).
    Restrict(Vec<Pos>),
    /// Nothing forced: search every move.
    Normal,
}

impl RootPlan {
    /// The plan for a search that may not play the `excluded` moves (multi-PV's later
    /// lines): an excluded win's first move leaves the search to find another win, and
    /// with every stopper excluded, each move left loses.
    pub fn without(self, excluded: &[Pos]) -> RootPlan {
        match self {
            RootPlan::Win(line) if line.first().is_some_and(|p| excluded.contains(p)) => {
                RootPlan::Normal
            }
            RootPlan::Restrict(mut moves) => {
                moves.retain(|m| !excluded.contains(m));
                if moves.is_empty() {
                    RootPlan::Normal
                } else {
                    RootPlan::Restrict(moves)
                }
            }
            plan => plan,
        }
    }
}

fn vcf_limits(max_nodes: u64, cutoff: Cutoff) -> VcfLimits {
    VcfLimits {
        max_nodes,
        cutoff,
        ..VcfLimits::default()
    }
}

/// Decides the root plan for the side to move, giving up at the `cutoff` (time or
/// stop flag; without one, the node budgets alone bound it and the result is
/// deterministic) and within `max_nodes` in all (a node-limited search's share: the
/// solvers' own budgets are far larger than such a search). Returns the plan and the
/// nodes spent. The solvers work in the engine's `memory`.
pub fn plan(
    board: &mut Board,
    cutoff: Cutoff,
    memory: &mut RootMemory,
    max_nodes: u64,
) -> (RootPlan, u64) {
    let us = board.to_move();
    let them = us.opp();
    let budget = |fixed: u64, spent: u64| fixed.min(max_nodes.saturating_sub(spent));
    let mut nodes = 0;
    let mut own = VcfSolver::lent(
        vcf_limits(budget(OWN_VCF_NODES, 0), cutoff),
        &mut memory.own_vcf,
    );
    let result = own.solve(board);
    nodes += own.nodes;
    if let VcfResult::Win(line) = result {
        return (RootPlan::Win(line), nodes);
    }
    // The opponent's VCF if we passed.
    let limits = vcf_limits(budget(THEIR_VCF_NODES, nodes), cutoff);
    let mut theirs = VcfSolver::lent(limits, &mut memory.their_vcf);
    let threat = theirs.solve_for(board, them, limits);
    let VcfResult::Win(line) = threat else {
        nodes += theirs.nodes;
        return (RootPlan::Normal, nodes);
    };
    let mut stoppers = Vec::new();
    for m in breaking_candidates(board, us, &line) {
        board.make(m, us);
        // The known line must fail, and no other VCF may be found in its place.
        let mut stops = !replay_wins(board, them, &line);
        let left = budget(RECHECK_NODES, nodes + theirs.nodes);
        if stops && left > 0 && !cutoff.reached() {
            let r = theirs.solve_with(board, vcf_limits(left, cutoff));
            stops = !matches!(r, VcfResult::Win(_));
        }
        board.undo();
        if stops {
            stoppers.push(m);
        }
    }
    nodes += theirs.nodes;
    if stoppers.is_empty() {
        // Lost against best play: let the search pick the most stubborn move.
        (RootPlan::Normal, nodes)
    } else {
        (RootPlan::Restrict(stoppers), nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Rule};

    /// The plan leaves the board as it found it, side to move included: the search
    /// runs on that board next (a replayed threat line once left the opponent to move).
    #[test]
    fn plan_restricts_to_stoppers_and_keeps_the_side_to_move() {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        let p = |x, y| Pos::from_xy(x, y);
        // White threatens an open four on row 5; Black has two loose stones.
        for (i, &(x, y)) in [(7, 7), (5, 5), (7, 8), (6, 5), (2, 12), (7, 5)]
            .iter()
            .enumerate()
        {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            board.make(p(x, y), c);
        }
        assert_eq!(board.to_move(), Color::Black);
        let hash = board.hash();
        use crate::tactics::memory::SolverMemory;
        let mut memory = SolverMemory::new();
        let (plan, _) = plan(&mut board, Cutoff::NONE, &mut memory.root, u64::MAX);
        assert_eq!(board.to_move(), Color::Black);
        assert_eq!(board.hash(), hash);
        let RootPlan::Restrict(moves) = plan else {
            panic!("White's open three must be answered");
        };
        for m in [p(4, 5), p(8, 5)] {
            assert!(moves.contains(&m), "{m} stops the three");
        }
        assert!(!moves.contains(&p(7, 9)), "a quiet move does not");
    }
}
