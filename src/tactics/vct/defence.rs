//! The defender's candidate replies to a threat: every move that might break the
//! attacker's threatened VCF line.

use crate::board::types::DIRS;
use crate::board::{us_may_not_play, Board, Color, Pos, Threat};

/// Every move of `defender` that might break the attacker's VCF `threat_line`, likely
/// refutations first. Any other move leaves the line winning as it stands:
/// - a move off the line changes none of its fours or forced replies, so it can only
///   matter if it is a four itself, or if it makes a four together with one of the
///   defender's forced replies (then that reply gains a tempo): both are collected;
/// - the ends: the two five points of a final double four, and the surroundings of a
///   final block that is forbidden for Black.
///
/// Caro adds the cells within five of the line's stones: a stone beyond the end of a five
/// to come leaves it blocked at both ends, and a five blocked at both ends does not win;
/// a line through a four with several answers shows one branch only, so every cell.
///
/// Renju adds the recursive real-three rule, which reaches off every line of the
/// threat: whether a three is real depends on its straight-four points, and theirs on
/// the lines through them. With Black attacking, a White stone there can make a Black
/// move of the line forbidden (a fake three made real turns a four-three into a
/// four-three-three); that needs a Black move of the line that may be forbidden. With
/// Black defending, a Black stone there can make a forbidden final block legal. In both
/// cases every cell is a candidate, and the exact replay of each keeps those that break
/// the line.
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
    // Replay the line, noting the defender's four points that each forced reply
    // creates, whether a move of the attacker's may be a forbidden double three, and
    // how the line ends.
    let mut made = 0;
    let mut recursion_risk = false;
    let mut several_answers = false;
    for (i, &p) in threat_line.iter().enumerate() {
        if !board.is_empty(p) {
            break;
        }
        wanted[p.idx()] = true;
        let color = if i % 2 == 0 { attacker } else { defender };
        recursion_risk |= board.rule().has_forbidden(color) && board.needs_forbid_check(color, p);
        board.make(p, color);
        made += 1;
        if color == attacker && board.rule().blocked_five_loses() {
            several_answers |= board.caro_answers_to_fives(attacker).len() > 1;
        }
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
            recursion_risk |= board.is_forbidden(f);
        }
    }
    for _ in 0..made {
        board.undo();
    }
    if recursion_risk {
        wanted.fill(true);
    }
    if board.rule().blocked_five_loses() {
        // Caro: a stone beyond the end of a five to come leaves it blocked at both ends;
        // and a four with several answers has a branch the line does not show, so any
        // cell may break it.
        if several_answers {
            wanted.fill(true);
        }
        for &p in threat_line {
            mark_around(p, 5, &mut wanted);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;

    /// After Black's 6,5 both of Black's four-threes
    /// (at 7,5 and at 4,7) rest on fake threes whose straight-four point 7,7 is a Black
    /// double four; White's 11,11 blocks that double four's second four, the threes
    /// become real and both four-threes forbidden. 11,11 is on no line through the
    /// threat's cells: it must still be a candidate, and it breaks the threat.
    #[test]
    fn a_renju_defence_off_every_line_of_the_threat_is_tried() {
        let black = [
            (5, 7),
            (6, 7),
            (7, 6),
            (7, 4),
            (8, 8),
            (9, 9),
            (10, 10),
            (4, 8),
            (4, 9),
            (4, 10),
            (5, 3),
            (4, 2),
            (3, 1),
            (9, 5),
            (14, 3),
            (10, 0),
            (3, 12),
            (14, 12),
            (13, 14),
            (6, 5),
        ];
        let white = [
            (2, 7),
            (9, 7),
            (7, 2),
            (7, 9),
            (6, 6),
            (12, 12),
            (5, 8),
            (4, 11),
            (9, 4),
            (2, 0),
            (8, 4),
            (6, 8),
            (9, 10),
            (8, 9),
            (4, 3),
            (10, 9),
            (5, 4),
            (9, 2),
            (6, 9),
        ];
        let mut board = Board::new(15, 15, Rule::Renju).unwrap();
        for (stones, color) in [(&black[..], Color::Black), (&white[..], Color::White)] {
            for &(x, y) in stones {
                board.make(board.pos(x, y).unwrap(), color);
            }
        }
        board.set_to_move(Color::White);
        let at = |x, y| Pos::from_xy(x, y);
        let threat = [at(7, 5), at(6, 4), at(8, 5)];
        let defence = at(11, 11);
        assert!(breaking_candidates(&mut board, Color::White, &threat).contains(&defence));
        board.make(defence, Color::White);
        assert!(board.is_forbidden(threat[0]) && board.is_forbidden(at(4, 7)));
    }
}
