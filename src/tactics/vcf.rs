//! VCF solver (victory by continuous fours): the attacker plays only fours, the
//! defender only the forced block (in caro every answer to the four, each of which
//! must lose). A proof returns the whole winning line (in caro, one branch of it).
//!
//! Rule-exact through the pattern board: renju Black's fours must not be forbidden and
//! its fives must be exact; a White four whose block is forbidden for Black wins at
//! once; overlines and caro's blocked fives win or not as the tables say.

use super::cutoff::Cutoff;
use super::memory::Held;
use crate::board::types::DIRS;
use crate::board::{us_may_not_play, Board, Color, Pattern, Pos, Threat};

/// Outcome of a VCF search.
#[derive(Clone, Debug, PartialEq)]
pub enum VcfResult {
    /// A win: the line, attacker first (attacker, defender, ..., attacker), up to the
    /// winning four (see `plies_to_five`).
    Win(Vec<Pos>),
    /// No VCF within the depth searched.
    NoWin,
    /// The node or time budget ran out first.
    Unknown,
}

/// Plies from a VCF `line`'s first move to the five, for `attacker` on `board` (before
/// the line). A line ends at the four that no move answers (two five points, a block
/// the defender may not play, caro's hanging fives): the defender's move and the five
/// follow. Only a line that is
/// a five already on the board (one move) ends with the five itself.
pub fn plies_to_five(board: &Board, attacker: Color, line: &[Pos]) -> usize {
    match line {
        [p] if board.is_win_move(attacker, *p) => 1,
        _ => line.len() + 2,
    }
}

/// Budget of one VCF search.
#[derive(Clone, Copy, Debug)]
pub struct VcfLimits<'a> {
    /// Most attacker moves in a line, the final five included.
    pub max_depth: u32,
    pub max_nodes: u64,
    pub cutoff: Cutoff<'a>,
    /// Look for short lines first (a VCT wants short threat lines: fewer defences to
    /// try). Without, the first line found at the full depth is taken: faster when
    /// any win will do.
    pub shortest_first: bool,
    /// Only fours that make more than a four, and below the first move only the two
    /// most promising of them on a line through the attacker's last stone (PentaZen's
    /// leaf VCF): a cheap look for the usual continuous attack. Wins found are still
    /// proofs; failures are not, and the failure table keeps those of first nodes
    /// apart from the narrowed ones (a solver keeps one setting).
    pub narrow: bool,
}

impl Default for VcfLimits<'_> {
    fn default() -> Self {
        VcfLimits {
            max_depth: 100,
            max_nodes: u64::MAX,
            cutoff: Cutoff::NONE,
            shortest_first: true,
            narrow: false,
        }
    }
}

/// Mixed into the failure keys when White attacks.
const WHITE_ATTACKS_SALT: u64 = 0x5BD1_E995_2C6E_F1A3;
/// Mixed into the failure keys of a narrow call's first node, which tries every four:
/// a failure found there holds for other first nodes only, one found below it (two
/// fours tried) for other nodes below a first one only.
const NARROW_FIRST_SALT: u64 = 0xC2B2_AE3D_27D4_EB4F;

/// Depth stored for a failure that did not depend on the depth limit.
const COMPLETE: u32 = 255;

/// Positions proven not to win within a depth, keyed by hash (direct-mapped). One
/// word per entry, the depth in the key's low byte: a lookup costs one cache miss.
pub struct FailCache {
    entries: Vec<u64>,
    /// Mixed into every key: changing it forgets every entry at once (a lookup of a
    /// new key never matches an old entry) without writing the table.
    salt: u64,
}

impl Default for FailCache {
    fn default() -> Self {
        Self::new()
    }
}

/// `1 << FAIL_CACHE_BITS` entries (2 MB).
const FAIL_CACHE_BITS: u32 = 18;

impl FailCache {
    pub const BYTES: usize = 8 << FAIL_CACHE_BITS;

    pub fn new() -> Self {
        FailCache {
            entries: vec![0; 1 << FAIL_CACHE_BITS],
            salt: 0,
        }
    }

    /// A new salt moves every key to another slot by the same XOR, so keys collide
    /// exactly as in a new table: a solver on a forgotten table searches as on a new
    /// one (the `bench` node count depends on it).
    fn forget_all(&mut self) {
        self.salt = self.salt.wrapping_add(0x9E37_79B9_7F4A_7C15);
    }
    fn slot(&self, key: u64) -> usize {
        ((key >> 8) as usize) & (self.entries.len() - 1)
    }
    /// The depth up to which `key` is known to fail ([`COMPLETE`]: at every depth).
    fn lookup(&self, key: u64) -> Option<u32> {
        let key = key ^ self.salt;
        let e = self.entries[self.slot(key)];
        (e != 0 && e >> 8 == key >> 8).then_some((e & 0xff) as u32)
    }
    fn insert(&mut self, key: u64, depth: u32) {
        let key = key ^ self.salt;
        let i = self.slot(key);
        self.entries[i] = (key & !0xff) | depth.min(255) as u64;
    }
}

pub struct VcfSolver<'a> {
    limits: VcfLimits<'a>,
    /// Nodes searched over every call.
    pub nodes: u64,
    /// `nodes` when the current call started (the node budget is per call).
    call_start: u64,
    aborted: bool,
    /// Whether the current iteration cut a line at its depth limit.
    hit_limit: bool,
    /// Stones on the board when the current call started (its first move's node).
    root_moves: usize,
    fails: Held<'a, FailCache>,
}

impl<'a> VcfSolver<'a> {
    /// A solver with a table of its own.
    pub fn new(limits: VcfLimits<'a>) -> Self {
        Self::with_table(limits, Held::Own(FailCache::new()))
    }

    /// A solver on a table kept between searches, emptied first.
    pub fn lent(limits: VcfLimits<'a>, fails: &'a mut FailCache) -> Self {
        fails.forget_all();
        Self::with_table(limits, Held::Lent(fails))
    }

    fn with_table(limits: VcfLimits<'a>, fails: Held<'a, FailCache>) -> Self {
        VcfSolver {
            limits,
            nodes: 0,
            call_start: 0,
            aborted: false,
            hit_limit: false,
            root_moves: 0,
            fails,
        }
    }

    /// Forgets what the solver learnt, for an unrelated position (maybe under another
    /// rule): cheaper than a new solver, whose table must be zeroed (2 MB).
    pub fn forget(&mut self) {
        self.fails.forget_all();
    }

    /// Searches with new limits, keeping what the solver learnt (same attacker only).
    pub fn solve_with(&mut self, board: &mut Board, limits: VcfLimits<'a>) -> VcfResult {
        self.limits = limits;
        self.solve(board)
    }

    /// Searches a VCF for `attacker` whoever is to move (the opponent's threat "if we
    /// passed"); the side to move is restored after.
    pub fn solve_for(
        &mut self,
        board: &mut Board,
        attacker: Color,
        limits: VcfLimits<'a>,
    ) -> VcfResult {
        let to_move = board.to_move();
        board.set_to_move(attacker);
        let result = self.solve_with(board, limits);
        board.set_to_move(to_move);
        result
    }

    /// Searches a VCF for the side to move of `board`, deepening the line length.
    pub fn solve(&mut self, board: &mut Board) -> VcfResult {
        // The VCF reads threats only: the board may skip the evaluation's upkeep.
        let was_frozen = board.scores_frozen();
        let moves = board.move_count();
        board.set_scores_frozen(true);
        let result = self.solve_frozen(board);
        debug_assert_eq!(board.move_count(), moves, "the VCF takes back its moves");
        board.set_scores_frozen(was_frozen);
        result
    }

    fn solve_frozen(&mut self, board: &mut Board) -> VcfResult {
        self.aborted = false;
        self.call_start = self.nodes;
        self.root_moves = board.move_count();
        let attacker = board.to_move();
        let mut line = Vec::new();
        let max = self.limits.max_depth;
        // Short wins first (cheap), then the full depth at once: deepening one move at a
        // time would re-search long lines dozens of times.
        let steps: &[u32] = if self.limits.shortest_first {
            &[2, 4, 8, max]
        } else {
            &[max]
        };
        for depth in steps.iter().copied().filter(|&d| d <= max) {
            self.hit_limit = false;
            if self.attack(board, attacker, depth, &mut line) {
                return VcfResult::Win(line);
            }
            if self.aborted {
                return VcfResult::Unknown;
            }
            if !self.hit_limit {
                // Every line ended before the depth limit: no VCF exists at all.
                return VcfResult::NoWin;
            }
        }
        VcfResult::NoWin
    }

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes - self.call_start >= self.limits.max_nodes {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(1024) {
            self.aborted = self.limits.cutoff.reached();
        }
        self.aborted
    }

    /// Attacker to move with at most `depth` more fours. On success `line` holds the
    /// winning continuation from here.
    fn attack(
        &mut self,
        board: &mut Board,
        attacker: Color,
        depth: u32,
        line: &mut Vec<Pos>,
    ) -> bool {
        self.nodes += 1;
        if self.out_of_budget() {
            return false;
        }
        let defender = attacker.opp();
        if depth == 0 {
            // The five itself counts as an attacker move (quintet's convention).
            self.hit_limit |= board.threat_count_at_least(attacker, Threat::BLOCK4) > 0;
            return false;
        }
        if board.threat_count(attacker, Threat::FIVE) > 0 {
            if let Some(p) = board.cells_with_threat(attacker, Threat::FIVE).next() {
                line.clear();
                line.push(p);
                return true;
            }
        }
        // The attacker is part of the key: one solver may serve both sides in turn.
        let narrowed = self.limits.narrow && board.move_count() > self.root_moves;
        let first = self.limits.narrow && !narrowed;
        let key = board.hash()
            ^ (WHITE_ATTACKS_SALT * (attacker == Color::White) as u64)
            ^ (NARROW_FIRST_SALT * first as u64);
        match self.fails.lookup(key) {
            Some(COMPLETE) => return false,
            Some(d) if d >= depth => {
                // A failure cut by a depth limit: deeper searches may still win here.
                self.hit_limit = true;
                return false;
            }
            _ => {}
        }
        if board.threat_count_at_least(attacker, Threat::BLOCK4) == 0 {
            self.fails.insert(key, COMPLETE);
            return false;
        }
        let their_fives: Vec<Pos> = if board.threat_count(defender, Threat::FIVE) > 0 {
            board
                .cells_with_threat(defender, Threat::FIVE)
                .take(2)
                .collect()
        } else {
            Vec::new()
        };
        if their_fives.len() > 1 {
            self.fails.insert(key, COMPLETE);
            return false;
        }
        // Whether this subtree hits the depth limit decides how its failure is stored.
        let outer_hit = std::mem::replace(&mut self.hit_limit, false);
        let mut fours = if depth <= 2 {
            self.fours_within(board, attacker, depth)
        } else {
            four_moves(board, attacker)
        };
        if let Some(&must) = their_fives.first() {
            // The opponent threatens five: only a four on that very point keeps the VCF.
            fours.retain(|&p| p == must);
        } else if self.limits.narrow && depth > 2 {
            let before = fours.len();
            fours.retain(|&p| makes_more_than_a_four(board, attacker, p));
            self.hit_limit |= fours.len() < before;
        }
        if their_fives.is_empty() && narrowed {
            // `four_moves` ranks the follow-up fours first (and `fours_within` keeps its
            // order): the narrow list is its first two if they follow up.
            let last = last_stone(board, attacker);
            let keep = fours
                .iter()
                .take(2)
                .take_while(|&&p| follows_up(board, attacker, last, p))
                .count();
            fours.truncate(keep);
        }
        let mut won = false;
        for mv in fours {
            board.make(mv, attacker);
            won = self.after_four(board, attacker, depth, line);
            board.undo();
            if won {
                line.insert(0, mv);
                break;
            }
            if self.aborted {
                break;
            }
        }
        let limited = self.hit_limit;
        self.hit_limit |= outer_hit;
        if !won && !self.aborted {
            self.fails
                .insert(key, if limited { depth } else { COMPLETE });
        }
        won
    }

    /// The fours that may still win within `depth` attacker moves (`depth` <= 2). The
    /// others are not played (most of a short VCF's nodes were such leaves), and the
    /// line counts as cut by the limit, as it would have been. Skipping a four can only
    /// lose a win, never invent one; tests/vcf_depth.rs finds the last two moves of
    /// every shared VCF line within their depth.
    /// - Last move: only a four that wins at once: two five points (class
    ///   [`Threat::FLEX4`]: a straight or double four), or a five point the defender
    ///   may not block (renju, White attacking).
    /// - Two moves left: the next move needs such a point. A block adds none, so it
    ///   comes from the four's stone: a three-shape on another line (class
    ///   [`Threat::BLOCK4_PLUS`] and up), or a four point already on the four's own
    ///   line. Every four stays when such a point is on the board already (the four
    ///   may be the forced block of the defender's five), and in renju, where a White
    ///   block can turn a forbidden Black double four into a straight four and a Black
    ///   block can make the forbidden point a White four needs.
    fn fours_within(&mut self, board: &mut Board, attacker: Color, depth: u32) -> Vec<Pos> {
        let forbidden_blocks = board.rule().has_forbidden(attacker.opp());
        let fours = board.threat_count_at_least(attacker, Threat::BLOCK4) as usize;
        let mut moves = Vec::new();
        if depth == 1 {
            if forbidden_blocks || board.threat_count_at_least(attacker, Threat::FLEX4) > 0 {
                moves = four_moves(board, attacker);
                moves.retain(|&p| {
                    board.threat(attacker, p) >= Threat::FLEX4
                        || (forbidden_blocks && block_may_be_forbidden(board, attacker, p))
                });
            }
        } else {
            moves = four_moves(board, attacker);
            let keep_all = forbidden_blocks
                || board.threat_count_at_least(attacker, Threat::FLEX4) > 0
                || board.threat_count(attacker, Threat::FORBID) > 0;
            if !keep_all {
                moves.retain(|&p| {
                    board.threat(attacker, p) >= Threat::BLOCK4_PLUS
                        || four_point_on_four_line(board, attacker, p)
                });
            }
        }
        self.hit_limit |= fours > moves.len();
        moves
    }

    /// After the attacker's four: decide the defender's forced reply.
    fn after_four(
        &mut self,
        board: &mut Board,
        attacker: Color,
        depth: u32,
        line: &mut Vec<Pos>,
    ) -> bool {
        let defender = attacker.opp();
        let block = match board.threat_count(attacker, Threat::FIVE) {
            0 => return false,
            _ if board.rule().blocked_five_loses() => {
                let mut answers = board.caro_answers_to_fives(attacker);
                match answers.len() {
                    0 => {
                        line.clear();
                        return true;
                    }
                    1 => answers.remove(0),
                    _ => return self.after_answers(board, attacker, depth, &answers, line),
                }
            }
            1 => match board.cells_with_threat(attacker, Threat::FIVE).next() {
                Some(block) => block,
                None => return false,
            },
            _ => {
                line.clear();
                return true;
            }
        };
        if board.rule().has_forbidden(defender) && board.is_forbidden(block) {
            // Black may not block: White's four wins.
            line.clear();
            return true;
        }
        if board.is_win_move(defender, block) {
            // Blocking also completes the defender's five.
            return false;
        }
        if depth == 1 {
            // No move is left after the block: the line is cut by the limit
            // (the block need not be played to know that).
            self.hit_limit = true;
            return false;
        }
        board.make(block, defender);
        let won = self.attack(board, attacker, depth - 1, line);
        board.undo();
        if won {
            line.insert(0, block);
        }
        won
    }

    /// Caro: a four with several answers (a stone beyond a five's end also stops it)
    /// wins only if it wins after each; the line goes on after the answer whose win is
    /// longest (its distance is the four's).
    fn after_answers(
        &mut self,
        board: &mut Board,
        attacker: Color,
        depth: u32,
        answers: &[Pos],
        line: &mut Vec<Pos>,
    ) -> bool {
        let defender = attacker.opp();
        if depth == 1 {
            self.hit_limit = true;
            return false;
        }
        let mut longest: Option<Vec<Pos>> = None;
        for &answer in answers {
            if board.is_win_move(defender, answer) {
                return false;
            }
            let mut rest = Vec::new();
            board.make(answer, defender);
            let won = self.attack(board, attacker, depth - 1, &mut rest);
            board.undo();
            if !won {
                return false;
            }
            if longest.as_ref().is_none_or(|l| rest.len() + 1 > l.len()) {
                rest.insert(0, answer);
                longest = Some(rest);
            }
        }
        *line = longest.unwrap_or_default();
        true
    }
}

/// The attacker's legal fours, the most promising first: fours on a line through the
/// attacker's last stone (the attack it just started goes on there; quintet orders its
/// VCF so too), then by threat class: the fewest nodes on the VCF puzzles of the orders
/// measured (evidence: docs/strength-log.md, "VCF four order").
pub fn four_moves(board: &mut Board, attacker: Color) -> Vec<Pos> {
    let last = last_stone(board, attacker);
    let mut fours: Vec<(Pos, i32)> = board
        .cells_with_threat(attacker, Threat::BLOCK4)
        .map(|p| {
            let t = board.threat(attacker, p);
            let follows_up = follows_up(board, attacker, last, p);
            (p, t.0 as i32 + follows_up as i32 * Threat::COUNT as i32)
        })
        .collect();
    fours.retain(|&(p, _)| !us_may_not_play(board, attacker, p));
    fours.sort_by_key(|e| std::cmp::Reverse(e.1));
    fours.into_iter().map(|e| e.0).collect()
}

/// The last stone `attacker` played, if any.
fn last_stone(board: &Board, attacker: Color) -> Option<Pos> {
    board
        .history()
        .iter()
        .rev()
        .find(|m| m.1 == attacker)
        .map(|m| m.0)
}

/// Whether `attacker`'s four at `p` is on a line through its last stone `last`: the
/// attack that stone started goes on there.
fn follows_up(board: &Board, attacker: Color, last: Option<Pos>, p: Pos) -> bool {
    last.and_then(|l| line_dir(l, p))
        .is_some_and(|d| board.pattern(attacker, p, d).four_count() > 0)
}

/// Whether `attacker`'s four at `p` makes more than the four, as the narrow VCF
/// requires of every four it plays (PentaZen 0.4.18's VCF likewise): a three or
/// another four on another line, or, in renju, a block the defender may be forbidden.
/// After a bare four and its block the attacker has no four point it did not have
/// before; a line that needs such a four is given up (the depth-limited searches at
/// the end of a line have their own, exact filter, `fours_within`). It cuts the leaf
/// VCF's cost and played at least even (evidence: docs/strength-log.md,
/// "Narrow VCF").
fn makes_more_than_a_four(board: &Board, attacker: Color, p: Pos) -> bool {
    board.threat(attacker, p) >= Threat::BLOCK4_FLEX3
        || (0..DIRS.len()).any(|d| {
            let pat = board.pattern(attacker, p, d);
            pat >= Pattern::B3 && pat.four_count() == 0
        })
        || (board.rule().has_forbidden(attacker.opp())
            && block_may_be_forbidden(board, attacker, p))
}

/// Whether a four of `attacker` at `p` has, on its own line and within reach, a cell
/// that is a four point already (on another line): past the block, the four's stones
/// may give that cell a second four.
fn four_point_on_four_line(board: &Board, attacker: Color, p: Pos) -> bool {
    cells_on_four_lines(board, attacker, p)
        .any(|q| board.is_empty(q) && board.threat(attacker, q) >= Threat::BLOCK4)
}

/// The cells within 4 of `p` on the lines where `attacker` playing `p` makes a four.
fn cells_on_four_lines(board: &Board, attacker: Color, p: Pos) -> impl Iterator<Item = Pos> + '_ {
    DIRS.iter()
        .enumerate()
        .filter(move |&(dir, _)| board.pattern(attacker, p, dir).four_count() > 0)
        .flat_map(move |(_, &step)| {
            (-4..=4isize)
                .filter(|&k| k != 0)
                .map(move |k| p.offset(k * step))
        })
}

/// Whether a four of `attacker` at `p` may leave a five point that the defender may
/// not block: a cell within reach on the four's line where the defender has a
/// forbidden shape or two threes now. The four's stone only weakens the defender's
/// shapes, so a cell without such a shape now has none after it either.
fn block_may_be_forbidden(board: &Board, attacker: Color, p: Pos) -> bool {
    cells_on_four_lines(board, attacker, p).any(|q| board.needs_forbid_check(attacker.opp(), q))
}

/// Replays a VCF `line` (attacker first) for `attacker` to move on `board` and tells
/// whether it still wins there, move by move on the real board: every attacker move
/// legal and a four, every defender reply the forced one, the defender never holding a
/// five. Anything unexpected counts as "does not win" (the caller then searches).
pub fn replay_wins(board: &mut Board, attacker: Color, line: &[Pos]) -> bool {
    let defender = attacker.opp();
    let mut made = 0;
    let mut won = false;
    let mut i = 0;
    while i < line.len() {
        let a = line[i];
        if !board.is_empty(a) || board.threat_count(defender, Threat::FIVE) > 0 {
            break;
        }
        if board.is_win_move(attacker, a) {
            won = true;
            break;
        }
        if us_may_not_play(board, attacker, a) {
            break;
        }
        board.make(a, attacker);
        made += 1;
        let block = match board.threat_count(attacker, Threat::FIVE) {
            0 => break,
            _ if board.rule().blocked_five_loses() => {
                match board.caro_answers_to_fives(attacker).as_slice() {
                    [] => {
                        won = true;
                        break;
                    }
                    &[block] => Some(block),
                    // Several answers: more than the line shows.
                    _ => break,
                }
            }
            1 => board.cells_with_threat(attacker, Threat::FIVE).next(),
            _ => {
                won = true;
                break;
            }
        };
        let Some(block) = block else {
            break;
        };
        if board.rule().has_forbidden(defender) && board.is_forbidden(block) {
            won = true;
            break;
        }
        if line.get(i + 1) != Some(&block) || board.is_win_move(defender, block) {
            break;
        }
        board.make(block, defender);
        made += 1;
        i += 2;
    }
    if !won && i >= line.len() {
        won = board.threat_count(attacker, Threat::FIVE) > 0
            && board.threat_count(defender, Threat::FIVE) == 0;
    }
    for _ in 0..made {
        board.undo();
    }
    won
}

/// The direction (an index of `DIRS`) of the line through `a` and `b` when they are
/// within 4 cells on it.
pub fn line_dir(a: Pos, b: Pos) -> Option<usize> {
    let dx = b.x() as i32 - a.x() as i32;
    let dy = b.y() as i32 - a.y() as i32;
    if dx.abs().max(dy.abs()) > 4 {
        return None;
    }
    match (dx, dy) {
        (0, 0) => None,
        (_, 0) => Some(0),
        (0, _) => Some(1),
        _ if dx == dy => Some(2),
        _ if dx == -dy => Some(3),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;

    /// A four-three for Black at (10,7): a four on row 7 (White closes its left end)
    /// and an open three on column 10.
    fn four_three() -> Board {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 7), (9, 7), (10, 8), (10, 9)] {
            board.make(Pos::from_xy(x, y), Color::Black);
        }
        for (x, y) in [(6, 7), (2, 2), (2, 12), (12, 2), (12, 12)] {
            board.make(Pos::from_xy(x, y), Color::White);
        }
        board.set_to_move(Color::Black);
        board
    }

    fn solve_within(board: &mut Board, max_depth: u32) -> VcfResult {
        let limits = VcfLimits {
            max_depth,
            ..VcfLimits::default()
        };
        VcfSolver::new(limits).solve(board)
    }

    /// The narrow VCF plays no four that makes nothing else: with a lone closed three
    /// it stops at its first node, where the full VCF tries both of the three's fours.
    #[test]
    fn the_narrow_vcf_skips_bare_fours() {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 7), (9, 7)] {
            board.make(Pos::from_xy(x, y), Color::Black);
        }
        for (x, y) in [(6, 7), (2, 2), (12, 12)] {
            board.make(Pos::from_xy(x, y), Color::White);
        }
        board.set_to_move(Color::Black);
        let mut nodes = |narrow| {
            let limits = VcfLimits {
                max_depth: 12,
                shortest_first: false,
                narrow,
                ..VcfLimits::default()
            };
            let mut solver = VcfSolver::new(limits);
            assert_eq!(solver.solve(&mut board), VcfResult::NoWin);
            solver.nodes
        };
        assert_eq!(nodes(true), 1);
        assert!(nodes(false) > 1);
        // With a three beside it the four is played, and the four-three found.
        let mut board = four_three();
        let limits = VcfLimits {
            narrow: true,
            shortest_first: false,
            ..VcfLimits::default()
        };
        assert!(matches!(
            VcfSolver::new(limits).solve(&mut board),
            VcfResult::Win(_)
        ));
    }

    /// The leaf pruning of short searches keeps the fours that win in time: the
    /// four-three wins within two attacker moves (four, then a straight four), not one.
    #[test]
    fn a_four_three_needs_two_moves() {
        let mut board = four_three();
        assert_eq!(solve_within(&mut board, 1), VcfResult::NoWin);
        let VcfResult::Win(line) = solve_within(&mut board, 2) else {
            panic!("the four-three wins in two moves");
        };
        assert_eq!(line[0], Pos::from_xy(10, 7));
        assert_eq!(line[1], Pos::from_xy(11, 7), "the forced block");
        // One move later the straight four is the last move needed.
        board.make(line[0], Color::Black);
        board.make(line[1], Color::White);
        assert!(matches!(solve_within(&mut board, 1), VcfResult::Win(_)));
    }
}
