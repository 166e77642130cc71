//! Expanding a VCT node: the attacker's threats at OR nodes, the defender's replies
//! that break the threat at AND nodes, or the node's value when it is settled at once.

use super::{bounded_vcf, breaking_candidates, VctSolver};
use crate::board::{us_may_not_play, Board, Color, Pos, Threat};
use crate::tactics::vcf::{four_moves, replay_wins};

/// Longest defender VCF looked for (short ones are cheap and decide most cases; quintet
/// looks as far. 4 cost a third more time on quintet-23 after E8 H5: 34 s -> 27 s).
const DEFENDER_VCF_DEPTH: u32 = 2;
/// Threat moves tried at one attacker node, best first.
const MAX_THREATS: usize = 400;

/// A node settled at once, or the moves to search from it.
#[derive(Clone, Debug)]
pub enum Expansion {
    Proven,
    Disproven,
    Children(Vec<Pos>),
}

/// Whether the attacker's single five point is forbidden for the defender (Black in
/// renju), so that the four wins as it stands.
pub fn block_is_forbidden(board: &mut Board, attacker: Color) -> bool {
    let defender = attacker.opp();
    let Some(block) = board.cells_with_threat(attacker, Threat::FIVE).next() else {
        return false;
    };
    board.rule().has_forbidden(defender) && board.is_forbidden(block)
}

/// The defender's five point, if it has exactly one; `Err` when it has two (the
/// attacker cannot block both).
fn defender_five(board: &Board, defender: Color) -> Result<Option<Pos>, ()> {
    if board.threat_count(defender, Threat::FIVE) == 0 {
        return Ok(None);
    }
    let mut fives = board.cells_with_threat(defender, Threat::FIVE);
    let first = fives.next();
    match fives.next() {
        Some(_) => Err(()),
        None => Ok(first),
    }
}

impl VctSolver<'_> {
    /// A short VCF of the defender, whoever is to move.
    fn defender_vcf(&mut self, board: &mut Board) -> Option<Vec<Pos>> {
        let defender = self.attacker.opp();
        bounded_vcf(
            &mut self.defender_vcf,
            board,
            defender,
            DEFENDER_VCF_DEPTH,
            self.limits.cutoff,
        )
    }

    /// OR node, attacker to move: a VCF wins at once; otherwise fours, then threats
    /// (only ones that might stop the defender's own short VCF, if it has one).
    pub(super) fn expand_attack(&mut self, board: &mut Board, depth: u32) -> Expansion {
        let attacker = self.attacker;
        let defender = attacker.opp();
        if depth == 0 {
            return Expansion::Disproven;
        }
        let Ok(must) = defender_five(board, defender) else {
            return Expansion::Disproven;
        };
        if self.vcf(board, depth.min(self.limits.vcf_depth)).is_some() {
            return Expansion::Proven;
        }
        // With one move left only a five wins (the VCF above would have found it), or in
        // renju a White four whose block is forbidden: a quiet threat cannot be finished.
        // This prunes the widest level of the tree (measured: quintet-23 after 4 moves of
        // its line, 11.6 s -> 7.4 s).
        let last_move = depth <= 1;
        if last_move && !board.rule().has_forbidden(defender) {
            return Expansion::Disproven;
        }
        let mut fours = four_moves(board, attacker);
        if let Some(must) = must {
            fours.retain(|&p| p == must);
        }
        let mut threats = if last_move {
            Vec::new()
        } else {
            self.threat_moves(board, must)
        };
        if must.is_none() && !threats.is_empty() {
            let counter = self.defender_vcf(board);
            if let Some(counter) = counter {
                // A threat that leaves the defender's VCF standing comes too late.
                let breakers = breaking_candidates(board, attacker, &counter);
                threats.retain(|p| breakers.contains(p));
            }
        }
        // Threats before fours. A four's forced reply costs the proof nothing, so df-pn
        // would otherwise run down chains of fours first (every one already failed as a
        // VCF above) and disprove each chain to the depth limit before trying a three.
        let mut moves = threats;
        moves.extend(fours);
        if moves.is_empty() {
            Expansion::Disproven
        } else {
            Expansion::Children(moves)
        }
    }

    /// Legal non-four moves that build a threat, best first: at least an open two, as
    /// quiet threats ("fukumi", quintet-16) often build a three only with a later four.
    /// Leaving out an attacker move can lose a win, never invent one. Whether a move
    /// really threatens is decided after it: a VCF must follow.
    /// With a four of the defender on the board, the block is the only move, and it
    /// counts as a threat whatever its shape: the attacker may already threaten a VCF.
    fn threat_moves(&mut self, board: &mut Board, must: Option<Pos>) -> Vec<Pos> {
        let attacker = self.attacker;
        if let Some(block) = must {
            let four = board.threat(attacker, block) >= Threat::BLOCK4;
            let legal = !us_may_not_play(board, attacker, block);
            return if legal && !four {
                vec![block]
            } else {
                Vec::new()
            };
        }
        let mut moves: Vec<(Pos, Threat)> = board
            .candidates()
            .map(|p| (p, board.threat(attacker, p)))
            .filter(|&(_, t)| t >= Threat::FLEX2 && t < Threat::BLOCK4)
            .collect();
        moves.retain(|&(p, _)| !us_may_not_play(board, attacker, p));
        // The strongest shape first, then the cell's whole potential (all four lines):
        // the first threat is searched deepest before its siblings.
        moves.sort_by_key(|&(p, t)| std::cmp::Reverse((t, board.cell_score(attacker, p))));
        moves.truncate(MAX_THREATS);
        moves.into_iter().map(|e| e.0).collect()
    }

    /// AND node, defender to move after the attacker's move: the forced block after a
    /// four; after a threat, the moves that break the threatened VCF.
    pub(super) fn expand_defence(&mut self, board: &mut Board, depth: u32) -> Expansion {
        let attacker = self.attacker;
        let defender = attacker.opp();
        if board.threat_count(defender, Threat::FIVE) > 0 {
            return Expansion::Disproven;
        }
        match board.threat_count(attacker, Threat::FIVE) {
            0 => {}
            _ if board.rule().blocked_five_loses() => {
                // Caro: every move that leaves no five point answers (`caro_answers_to_fives`).
                let answers = board.caro_answers_to_fives(attacker);
                return match answers.is_empty() {
                    true => Expansion::Proven,
                    false if depth > 1 => Expansion::Children(answers),
                    false => Expansion::Disproven,
                };
            }
            1 => {
                if block_is_forbidden(board, attacker) {
                    return Expansion::Proven;
                }
                let block = board.cells_with_threat(attacker, Threat::FIVE).next();
                return match block {
                    Some(b) if depth > 1 => Expansion::Children(vec![b]),
                    _ => Expansion::Disproven,
                };
            }
            _ => return Expansion::Proven,
        }
        // A defender with a VCF of its own wins first.
        let counter = self.defender_vcf(board);
        if counter.is_some() {
            return Expansion::Disproven;
        }
        // The threat: a VCF if the defender passed, as long as the depth left before the
        // threat (quintet's count, which the puzzles' depth limits follow).
        let threat = self.vcf(board, depth.min(self.limits.vcf_depth));
        let Some(threat_line) = threat else {
            return Expansion::Disproven;
        };
        let defences: Vec<Pos> = breaking_candidates(board, defender, &threat_line)
            .into_iter()
            .filter(|&m| {
                board.make(m, defender);
                let refuted = replay_wins(board, attacker, &threat_line);
                board.undo();
                !refuted
            })
            .collect();
        if defences.is_empty() {
            Expansion::Proven
        } else {
            Expansion::Children(defences)
        }
    }
}
