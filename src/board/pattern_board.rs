//! The pattern board: a padded cell array with per-cell, per-direction line keys and
//! the patterns, threat classes, threat counts and evaluation sums they imply, all
//! updated incrementally by `make` and `undo`.

use super::cell_scores::{CellScores, UNIT_SHIFT};
use super::pattern::{key_shift, Pattern, RuleTables, Threat};
use super::types::{Cell, Color, Pos, Rule, CELLS, DIRS, HALF_LINE, MAX_SIZE, MIN_SIZE};
use super::zobrist::{OUT_OF_TURN_KEY, WALL_KEYS, ZOBRIST};
use anyhow::{bail, Result};

/// Per-cell incremental data for one colour.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct CellInfo {
    pats: [Pattern; 4],
    threat: Threat,
    /// What a stone of this colour here is worth, as seen when this colour is to move
    /// (`[0]`) and when it waits (`[1]`).
    score: [i32; 2],
    /// Renju Black: the cell may be a double-three point (see `is_forbidden`).
    maybe_forbidden: bool,
}

/// A cell's infos before a move changed them (see `Board::info_log`).
#[derive(Clone)]
struct LoggedInfo {
    infos: [CellInfo; 2],
    cell: u32,
}

/// Cells whose line keys see a stone: `HALF_LINE` on each side in each direction.
const SEEN_CELLS: usize = 4 * 2 * HALF_LINE;

/// The cells on one line whose keys see a stone, nearest first: their offset from the
/// stone in steps along the line, and the bit shift of the stone in their key (a table:
/// computing the shift in `make` cost 2 % of the search's instructions).
const SEEN_BY: [(isize, u32); 2 * HALF_LINE] = {
    let mut out = [(0, 0); 2 * HALF_LINE];
    let mut i = 0;
    while i < 2 * HALF_LINE {
        let k = (i / 2 + 1) as isize;
        let side = if i % 2 == 0 { -1 } else { 1 };
        // The cell at `side * k` sees the stone at offset `-side * k`.
        out[i] = (side * k, key_shift(-side * k));
        i += 1;
    }
    out
};

/// Number of empty cells per colour and threat class.
pub type ThreatCounts = [[u16; Threat::COUNT]; 2];

/// The totals `make` changes, saved so that `undo` restores them by copying; the cell
/// infos it changes go to the board's `info_log`.
#[derive(Clone)]
struct Saved {
    threat_count: ThreatCounts,
    score_sum: [[i32; 2]; 2],
    /// The side to move before the move: `undo` restores it exactly, also after a
    /// stone placed out of turn (tactics replay lines for either side).
    to_move: Color,
    /// Length of `info_log` before the move.
    log_len: usize,
}

#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    tables: &'static RuleTables,
    /// What each cell is worth to each colour (the evaluation's table).
    cell_scores: &'static CellScores,
    cells: Box<[Cell]>,
    /// `keys[cell][dir]`: the 2-bit codes of the 5 cells on each side.
    keys: Box<[[u32; 4]]>,
    /// `info[cell][colour]`, valid for empty cells on the board.
    info: Box<[[CellInfo; 2]]>,
    /// `threat_count[colour][threat]` over empty cells on the board.
    threat_count: ThreatCounts,
    /// Sum of `CellInfo::score` over empty cells on the board, per colour and view.
    score_sum: [[i32; 2]; 2],
    /// `stone_rows[y + ROW_PAD]`: bit `x` set when a stone is on `(x, y)`; the empty
    /// rows around the board spare `near_stones` its bounds checks.
    stone_rows: [u64; PADDED_ROWS],
    /// `wall_rows[y]`: bit `x` set when a wall is on `(x, y)`.
    wall_rows: [u64; MAX_SIZE],
    hash: u64,
    history: Vec<(Pos, Color)>,
    /// Entry `i` for move `i` of `history`.
    saved: Vec<Saved>,
    /// The cell infos that moves changed, with their values before, oldest first:
    /// `undo` puts back those of the last move. Only changed cells are logged (about
    /// half of the cells a stone sees are walls, stones or keep their patterns), which
    /// made `make` and `undo` cheaper than saving all of them.
    info_log: Vec<LoggedInfo>,
    /// Per colour, a bit per empty cell where that colour makes a four or a five: the
    /// tactics list these cells at every node, and scanning the board for them cost
    /// more than the moves themselves.
    four_cells: [CellSet; 2],
    to_move: Color,
    /// While set, `make` leaves the cell scores and their sums alone (see
    /// [`Board::set_scores_frozen`]).
    scores_frozen: bool,
}

/// The cells of row `y` near a stone (occupied ones included), a bit per column: the
/// move candidates are the empty ones. Near means in the 5x5 square around a stone or
/// three steps away on one of its four lines. Shifting and or-ing the rows around `y`
/// per request is cheaper than keeping a count per cell up to date in every `make` and
/// `undo` (that took 7 % of a VCF's time).
#[inline]
fn near_stones(rows: &[u64; PADDED_ROWS], y: usize) -> u64 {
    let row = |dy: isize| rows[(y + ROW_PAD).wrapping_add_signed(dy)];
    let square = row(-2) | row(-1) | row(0) | row(1) | row(2);
    let three_away = row(-3) | row(3);
    let mid = row(0);
    (square | square << 1 | square << 2 | square >> 1 | square >> 2)
        | (three_away | three_away << 3 | three_away >> 3)
        | (mid << 3 | mid >> 3)
}

/// Empty rows above and below the board in `Board::stone_rows`: as far as a stone is
/// near.
const ROW_PAD: usize = 3;
const PADDED_ROWS: usize = MAX_SIZE + 2 * ROW_PAD;

/// A set of cells, a bit per padded index.
#[derive(Clone, Copy)]
struct CellSet([u64; CELLS.div_ceil(64)]);

impl CellSet {
    const EMPTY: CellSet = CellSet([0; CELLS.div_ceil(64)]);

    #[inline(always)]
    fn set(&mut self, i: usize, on: bool) {
        let (word, bit) = (i / 64, i % 64);
        self.0[word] = (self.0[word] & !(1 << bit)) | (on as u64) << bit;
    }

    /// The members in increasing index order (row by row on the board).
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + b
                })
            })
        })
    }
}

impl Board {
    /// An empty board scoring its cells by `cell_scores`. Sizes 5..=32 per side,
    /// rectangular allowed. `Board::new` (in `eval`) gives it the evaluation's table.
    pub fn with_cell_scores(
        width: usize,
        height: usize,
        rule: Rule,
        cell_scores: &'static CellScores,
    ) -> Result<Board> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            bail!("unsupported board size {width}x{height} (supported {MIN_SIZE}..={MAX_SIZE})");
        }
        let mut cells = vec![Cell::Wall; CELLS].into_boxed_slice();
        for y in 0..height {
            for x in 0..width {
                cells[Pos::from_xy(x, y).idx()] = Cell::Empty;
            }
        }
        let mut board = Board {
            width,
            height,
            rule,
            tables: RuleTables::get(rule),
            cell_scores,
            cells,
            keys: vec![[0; 4]; CELLS].into_boxed_slice(),
            info: vec![[CellInfo::default(); 2]; CELLS].into_boxed_slice(),
            threat_count: [[0; Threat::COUNT]; 2],
            score_sum: [[0; 2]; 2],
            stone_rows: [0; PADDED_ROWS],
            wall_rows: [0; MAX_SIZE],
            hash: 0,
            history: Vec::with_capacity(width * height),
            saved: Vec::with_capacity(width * height),
            info_log: Vec::with_capacity(width * height * SEEN_CELLS),
            four_cells: [CellSet::EMPTY; 2],
            to_move: Color::Black,
            scores_frozen: false,
        };
        board.rebuild();
        Ok(board)
    }

    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }
    pub fn rule(&self) -> Rule {
        self.rule
    }
    /// The stones and walls; the tactics key their tables with it and the attacker.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The position's key for the search's table: the hash, and the side to move where
    /// it is not the one the stones' count gives (a BOARD that placed stones out of
    /// turn), so that the same stones with the other side to move never share an entry.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key_of(self.hash, self.history.len(), self.to_move)
    }

    /// [`Board::key`] after `c` plays `p`.
    #[inline(always)]
    pub fn key_after(&self, p: Pos, c: Color) -> u64 {
        self.key_of(
            self.hash ^ ZOBRIST[c.idx()][p.idx()],
            self.history.len() + 1,
            c.opp(),
        )
    }

    #[inline(always)]
    fn key_of(&self, hash: u64, stones: usize, to_move: Color) -> u64 {
        let in_turn = if stones.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        hash ^ (OUT_OF_TURN_KEY * (to_move != in_turn) as u64)
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }
    /// Sets the side to move (positions given as a set of stones).
    pub fn set_to_move(&mut self, c: Color) {
        self.to_move = c;
    }
    /// Stones played, in order (walls are not moves).
    pub fn history(&self) -> &[(Pos, Color)] {
        &self.history
    }
    /// The moves played, in order, without their colours.
    pub fn moves_played(&self) -> Vec<Pos> {
        self.history.iter().map(|&(p, _)| p).collect()
    }
    pub fn move_count(&self) -> usize {
        self.history.len()
    }
    pub fn last_move(&self) -> Option<(Pos, Color)> {
        self.history.last().copied()
    }

    /// The cell at board coordinates, if they are on the board.
    pub fn pos(&self, x: i64, y: i64) -> Option<Pos> {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height {
            Some(Pos::from_xy(x as usize, y as usize))
        } else {
            None
        }
    }

    #[inline(always)]
    pub fn cell(&self, p: Pos) -> Cell {
        self.cells[p.idx()]
    }

    #[inline(always)]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.idx()] == Cell::Empty
    }

    /// The line key of cell `p` in direction `dir`: the 2-bit codes (`Cell`) of the
    /// `HALF_LINE` cells on each side (`pattern::key_shift` gives their places). Kept
    /// for every cell, occupied ones included.
    #[inline(always)]
    pub fn line_key(&self, p: Pos, dir: usize) -> u32 {
        self.keys[p.idx()][dir]
    }

    /// Every cell of the board, row by row.
    pub fn all_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::from_xy(x, y)))
    }

    /// Row `y`'s empty cells near stones, a bit per column.
    #[inline(always)]
    fn candidate_bits(&self, y: usize) -> u64 {
        let taken = self.stone_rows[y + ROW_PAD] | self.wall_rows[y];
        near_stones(&self.stone_rows, y) & !taken & ((1u64 << self.width) - 1)
    }

    /// [`Board::candidates`] into `out`, with plain loops: the move generator's hot
    /// path, where the flattened iterator cost 4 % of the search's time. The lazy
    /// iterator stays for the callers that stop early; a single row-and-bits iterator
    /// for both ran 1.3 % more instructions than this loop (callgrind, `bench 10`).
    pub fn candidates_into(&self, out: &mut Vec<Pos>) {
        for y in 0..self.height {
            let mut bits = self.candidate_bits(y);
            while bits != 0 {
                out.push(Pos::from_xy(bits.trailing_zeros() as usize, y));
                bits &= bits - 1;
            }
        }
    }

    /// Empty cells near stones: where moves are searched. Row by row.
    pub fn candidates(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| {
            let mut bits = self.candidate_bits(y);
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let x = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    Pos::from_xy(x, y)
                })
            })
        })
    }

    pub fn empty_count(&self) -> usize {
        self.all_cells().filter(|&p| self.is_empty(p)).count()
    }

    /// Board centre (the first move on an empty board).
    pub fn center(&self) -> Pos {
        Pos::from_xy(self.width / 2, self.height / 2)
    }

    #[inline(always)]
    pub fn pattern(&self, c: Color, p: Pos, dir: usize) -> Pattern {
        self.info[p.idx()][c.idx()].pats[dir]
    }

    #[inline(always)]
    pub fn threat(&self, c: Color, p: Pos) -> Threat {
        self.info[p.idx()][c.idx()].threat
    }

    /// Whether `c` playing empty cell `p` needs the recursive forbidden check: a cell
    /// with a definite forbidden shape, or with two threes (renju Black only).
    #[inline(always)]
    pub fn needs_forbid_check(&self, c: Color, p: Pos) -> bool {
        let info = &self.info[p.idx()][c.idx()];
        info.threat == Threat::FORBID || info.maybe_forbidden
    }

    /// Number of empty cells where `c` has threat class `t`.
    #[inline(always)]
    pub fn threat_count(&self, c: Color, t: Threat) -> u32 {
        self.threat_count[c.idx()][t.0 as usize] as u32
    }

    /// Number of empty cells where `c` has threat class `t` or stronger.
    pub fn threat_count_at_least(&self, c: Color, t: Threat) -> u32 {
        self.threat_count[c.idx()][t.0 as usize..]
            .iter()
            .map(|&n| n as u32)
            .sum()
    }

    /// Sum of cell scores of `c` over the empty cells, seen with `c` to move (`view`
    /// 0) or waiting (1).
    #[inline(always)]
    pub fn score_sum(&self, c: Color, view: usize) -> i32 {
        self.score_sum[c.idx()][view]
    }

    /// The score sums and threat counts as they were before the last move (indexed
    /// like `score_sum` and `threat_count`), with the side that was to move then;
    /// `None` on a board without moves.
    pub fn totals_before_last(&self) -> Option<(&[[i32; 2]; 2], &ThreatCounts, Color)> {
        self.saved
            .last()
            .map(|s| (&s.score_sum, &s.threat_count, s.to_move))
    }

    /// Whether `c` playing `p` (empty) wins at once under the rule.
    #[inline(always)]
    pub fn is_win_move(&self, c: Color, p: Pos) -> bool {
        self.threat(c, p) == Threat::FIVE
    }

    /// Caro's answers to `attacker`'s five points: the moves of its opponent after
    /// which it has none (empty: nothing to answer, or the fives win). A five blocked at
    /// both ends does not win in caro, so the cell beyond a five's end answers it too
    /// (`O X X X X . .`: the far cell as well as the five point), and one stone can
    /// answer two five points (`O . X X X X . O`: either). The candidates are each five
    /// point and the cells just past the ends of the run it would make, each tried.
    /// Elsewhere a lone five point is its own only answer and two have none (the
    /// callers know that without this).
    pub fn caro_answers_to_fives(&mut self, attacker: Color) -> Vec<Pos> {
        let fives: Vec<Pos> = self.cells_with_threat(attacker, Threat::FIVE).collect();
        let own = attacker.cell();
        let mut tried = Vec::new();
        for &f in &fives {
            if !tried.contains(&f) {
                tried.push(f);
            }
            for (dir, &step) in DIRS.iter().enumerate() {
                if self.pattern(attacker, f, dir) != Pattern::F5 {
                    continue;
                }
                for sign in [-1isize, 1] {
                    let mut q = f.offset(sign * step);
                    while q.idx() < CELLS && self.cells[q.idx()] == own {
                        q = q.offset(sign * step);
                    }
                    if q.idx() < CELLS && self.is_empty(q) && !tried.contains(&q) {
                        tried.push(q);
                    }
                }
            }
        }
        tried
            .into_iter()
            .filter(|&q| {
                self.make(q, attacker.opp());
                let stopped = self.threat_count(attacker, Threat::FIVE) == 0;
                self.undo();
                stopped
            })
            .collect()
    }

    /// Whether `c` may play `p`: on the board, empty, and not forbidden.
    pub fn is_legal(&mut self, c: Color, p: Pos) -> bool {
        if p.idx() >= CELLS || !self.is_empty(p) {
            return false;
        }
        !(self.rule.has_forbidden(c) && self.is_forbidden(p))
    }

    /// Places a stone of colour `c` on the empty cell `p`.
    pub fn make(&mut self, p: Pos, c: Color) {
        debug_assert!(self.is_empty(p));
        self.saved.push(Saved {
            threat_count: self.threat_count,
            score_sum: self.score_sum,
            to_move: self.to_move,
            log_len: self.info_log.len(),
        });
        self.leave_empty_set(p);
        self.cells[p.idx()] = c.cell();
        self.hash ^= ZOBRIST[c.idx()][p.idx()];
        self.update_keys(p, c.cell() as u32, true);
        self.stone_rows[p.y() + ROW_PAD] |= 1 << p.x();
        self.history.push((p, c));
        self.to_move = c.opp();
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        let Some((p, c)) = self.history.pop() else {
            return;
        };
        let saved = self.saved.pop().expect("one saved entry per move");
        self.cells[p.idx()] = Cell::Empty;
        self.hash ^= ZOBRIST[c.idx()][p.idx()];
        self.update_keys(p, 0, false);
        self.stone_rows[p.y() + ROW_PAD] &= !(1 << p.x());
        for LoggedInfo { infos, cell } in self.info_log.drain(saved.log_len..) {
            let q = cell as usize;
            self.info[q] = infos;
            for c in Color::BOTH {
                let four = infos[c.idx()].threat >= Threat::BLOCK4;
                self.four_cells[c.idx()].set(q, four);
            }
        }
        // `p`'s own info was left untouched while it was occupied.
        for c in Color::BOTH {
            let four = self.info[p.idx()][c.idx()].threat >= Threat::BLOCK4;
            self.four_cells[c.idx()].set(p.idx(), four);
        }
        self.threat_count = saved.threat_count;
        self.score_sum = saved.score_sum;
        self.to_move = saved.to_move;
    }

    /// Takes back every move: the board as it was before the first one.
    pub fn undo_all(&mut self) {
        while !self.history.is_empty() {
            self.undo();
        }
    }

    /// Freezes (or thaws) the cell scores: tactics that never evaluate (the VCF) skip
    /// their upkeep, a fifth of `make`. Only moves made and taken back while frozen are
    /// allowed: `undo` restores the scores of every cell it restores, so the board is
    /// exact again once the moves made while frozen are undone.
    pub fn set_scores_frozen(&mut self, frozen: bool) {
        self.scores_frozen = frozen;
    }

    pub fn scores_frozen(&self) -> bool {
        self.scores_frozen
    }

    /// Puts a wall on `p` (a winning-line stone of a continuous game: BOARD field 3).
    /// Walls go on before any move: `undo` restores the cells a move changed as they
    /// were before it, so a wall placed after a move would be partly undone with it.
    pub fn place_wall(&mut self, p: Pos) {
        debug_assert!(self.history.is_empty(), "walls come before the moves");
        if self.is_empty(p) {
            self.leave_empty_set(p);
            self.cells[p.idx()] = Cell::Wall;
            self.wall_rows[p.y()] |= 1 << p.x();
            self.hash ^= WALL_KEYS[p.idx()];
            self.update_keys(p, Cell::Wall as u32, true);
        }
    }

    /// Writes `code` (0 to clear) into the keys of the cells that see `p` and, with
    /// `refresh`, recomputes the patterns of the empty ones.
    #[inline(always)]
    fn update_keys(&mut self, p: Pos, code: u32, refresh: bool) {
        // The farthest cells' patterns cannot change under some rules: their keys are
        // kept, their patterns not looked up (a fifth of the lookups in freestyle).
        let refreshed = if self.tables.far_cells_matter {
            SEEN_BY.len()
        } else {
            SEEN_BY.len() - 2
        };
        for (dir, &step) in DIRS.iter().enumerate() {
            // Unrolled: each cell's tests get branches of their own, which the
            // predictor learns apart (a near cell's patterns nearly always change, a far
            // one's seldom).
            macro_rules! each_seen {
                ($($i:literal)*) => {$(
                    self.see(p, dir, step, $i, code, refresh && $i < refreshed);
                )*};
            }
            each_seen!(0 1 2 3 4 5 6 7 8 9);
        }
    }

    /// `update_keys` for the cell `SEEN_BY[i]` of `p` on direction `dir`.
    #[inline(always)]
    fn see(&mut self, p: Pos, dir: usize, step: isize, i: usize, code: u32, refresh: bool) {
        let (steps, shift) = SEEN_BY[i];
        let q = p.offset(steps * step);
        let key = &mut self.keys[q.idx()][dir];
        *key = (*key & !(3 << shift)) | (code << shift);
        if refresh && self.cells[q.idx()] == Cell::Empty {
            let pats = self.tables.patterns(*key);
            self.refresh(q, dir, pats);
        }
    }

    /// Sets the line patterns `pats` (by colour) of empty cell `q` in `dir` and updates
    /// what depends on them, logging the infos before.
    #[inline(always)]
    fn refresh(&mut self, q: Pos, dir: usize, pats: [Pattern; 2]) {
        let infos = &mut self.info[q.idx()];
        if infos[0].pats[dir] == pats[0] && infos[1].pats[dir] == pats[1] {
            return;
        }
        self.info_log.push(LoggedInfo {
            infos: *infos,
            cell: q.0 as u32,
        });
        for c in Color::BOTH {
            let pat = pats[c.idx()];
            let info = &mut infos[c.idx()];
            if info.pats[dir] == pat {
                continue;
            }
            // Built in a register and stored once: storing one byte at a variable index
            // and then loading all four stalled the store buffer (the hottest spot of
            // `make`).
            let shift = 8 * dir as u32;
            let packed = u32::from_le_bytes(info.pats.map(|p| p.0));
            let packed = (packed & !(0xff << shift)) | (pat.0 as u32) << shift;
            let pats = packed.to_le_bytes().map(Pattern);
            info.pats = pats;
            let (threat, maybe_forbidden) = self.tables.cell_class(c, pats);
            info.maybe_forbidden = maybe_forbidden;
            let counts = &mut self.threat_count[c.idx()];
            counts[info.threat.0 as usize] -= 1;
            counts[threat.0 as usize] += 1;
            if !self.scores_frozen {
                let score = self.cell_scores.get(pats, threat);
                let sum = &mut self.score_sum[c.idx()];
                sum[0] += score[0] - info.score[0];
                sum[1] += score[1] - info.score[1];
                info.score = score;
            }
            info.threat = threat;
            self.four_cells[c.idx()].set(q.idx(), threat >= Threat::BLOCK4);
        }
    }

    /// Removes empty cell `p` from the counts and sums (it is about to be filled).
    fn leave_empty_set(&mut self, p: Pos) {
        for c in Color::BOTH {
            let info = self.info[p.idx()][c.idx()];
            self.threat_count[c.idx()][info.threat.0 as usize] -= 1;
            let sum = &mut self.score_sum[c.idx()];
            sum[0] -= info.score[0];
            sum[1] -= info.score[1];
            self.four_cells[c.idx()].set(p.idx(), false);
        }
    }

    /// Adds cell `p`, empty, to the counts and sums from its current keys.
    fn enter_empty_set(&mut self, p: Pos) {
        for c in Color::BOTH {
            let info = self.cell_info_from_keys(p, c);
            self.info[p.idx()][c.idx()] = info;
            self.threat_count[c.idx()][info.threat.0 as usize] += 1;
            let sum = &mut self.score_sum[c.idx()];
            sum[0] += info.score[0];
            sum[1] += info.score[1];
            self.four_cells[c.idx()].set(p.idx(), info.threat >= Threat::BLOCK4);
        }
    }

    fn cell_info_from_keys(&self, p: Pos, c: Color) -> CellInfo {
        let pats = [0, 1, 2, 3].map(|d| self.tables.pattern(c, self.keys[p.idx()][d]));
        let (threat, maybe_forbidden) = self.tables.cell_class(c, pats);
        CellInfo {
            pats,
            threat,
            score: self.cell_scores.get(pats, threat),
            maybe_forbidden,
        }
    }

    /// Recomputes every incremental structure from the cells alone. Used at creation
    /// and, on a copy, by [`Board::verify`].
    fn rebuild(&mut self) {
        let cell_at = |cells: &[Cell], i: isize| -> Cell {
            if i < 0 || i as usize >= CELLS {
                Cell::Wall
            } else {
                cells[i as usize]
            }
        };
        for i in 0..CELLS {
            for (dir, &step) in DIRS.iter().enumerate() {
                let mut key = 0;
                for k in (-(HALF_LINE as isize)..=HALF_LINE as isize).filter(|&k| k != 0) {
                    let code = cell_at(&self.cells, i as isize + k * step) as u32;
                    key |= code << key_shift(k);
                }
                self.keys[i][dir] = key;
            }
        }
        self.threat_count = [[0; Threat::COUNT]; 2];
        self.score_sum = [[0; 2]; 2];
        self.four_cells = [CellSet::EMPTY; 2];
        self.hash = 0;
        self.stone_rows = [0; PADDED_ROWS];
        self.wall_rows = [0; MAX_SIZE];
        let all: Vec<Pos> = self.all_cells().collect();
        for &p in &all {
            match self.cells[p.idx()] {
                Cell::Empty => self.enter_empty_set(p),
                Cell::Black | Cell::White => {
                    let c = if self.cells[p.idx()] == Cell::Black {
                        Color::Black
                    } else {
                        Color::White
                    };
                    self.hash ^= ZOBRIST[c.idx()][p.idx()];
                    self.stone_rows[p.y() + ROW_PAD] |= 1 << p.x();
                }
                Cell::Wall => {
                    self.wall_rows[p.y()] |= 1 << p.x();
                    self.hash ^= WALL_KEYS[p.idx()];
                }
            }
        }
    }

    /// Checks every incremental structure against a from-scratch rebuild.
    pub fn verify(&self) -> std::result::Result<(), String> {
        let mut fresh = self.clone();
        fresh.rebuild();
        for p in self.all_cells() {
            if self.keys[p.idx()] != fresh.keys[p.idx()] {
                return Err(format!("line keys differ at {p}"));
            }
            if self.is_empty(p) && self.info[p.idx()] != fresh.info[p.idx()] {
                return Err(format!(
                    "cell info differs at {p}: {:?} vs {:?}",
                    self.info[p.idx()],
                    fresh.info[p.idx()]
                ));
            }
        }
        if self.threat_count != fresh.threat_count {
            return Err("threat counts differ".into());
        }
        if self.score_sum != fresh.score_sum {
            return Err("score sums differ".into());
        }
        if self.stone_rows != fresh.stone_rows || self.wall_rows != fresh.wall_rows {
            return Err("stone or wall rows differ".into());
        }
        if self.hash != fresh.hash {
            return Err("hash differs".into());
        }
        if self.four_cells.map(|s| s.0) != fresh.four_cells.map(|s| s.0) {
            return Err("four cells differ".into());
        }
        Ok(())
    }

    /// A new board of another rule with the same stones, walls and history.
    /// The moves are replayed, so that `undo` works on the new board as well.
    pub fn with_rule(&self, rule: Rule) -> Board {
        let mut b = Board::with_cell_scores(self.width, self.height, rule, self.cell_scores)
            .expect("same size as self");
        for p in self.all_cells() {
            if self.cells[p.idx()] == Cell::Wall {
                b.place_wall(p);
            }
        }
        for (&(p, c), saved) in self.history.iter().zip(&self.saved) {
            b.set_to_move(saved.to_move);
            b.make(p, c);
        }
        b.to_move = self.to_move;
        b
    }

    /// Text diagram for logs and tests ('X' black, 'O' white, '#' wall, '.' empty).
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for y in 0..self.height {
            for x in 0..self.width {
                s.push(match self.cell(Pos::from_xy(x, y)) {
                    Cell::Empty => '.',
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    Cell::Wall => '#',
                });
            }
            s.push('\n');
        }
        s
    }
}

impl Board {
    /// Score of empty cell `p` for colour `c` (pattern potential, see [`CellScores`]).
    #[inline(always)]
    pub fn cell_score(&self, c: Color, p: Pos) -> i32 {
        self.info[p.idx()][c.idx()].score[1] >> UNIT_SHIFT
    }

    /// Empty cells where `c` has a threat class of at least `t`.
    /// Row by row, like [`Board::candidates`].
    pub fn cells_with_threat(&self, c: Color, t: Threat) -> impl Iterator<Item = Pos> + '_ {
        let fours = (t >= Threat::BLOCK4).then(|| self.four_cells[c.idx()].iter());
        let scan = (t < Threat::BLOCK4).then(|| self.candidates());
        // Every four point has a stone next to it, so it is a candidate too.
        fours
            .into_iter()
            .flatten()
            .map(|i| Pos(i as u16))
            .chain(scan.into_iter().flatten())
            .filter(move |&p| self.threat(c, p) >= t)
    }
}
