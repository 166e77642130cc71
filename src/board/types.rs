//! Basic value types shared by the whole engine: colours, rules, positions.

use std::fmt;

/// Largest board side the engine accepts (Gomocup managers send 5..=32).
pub const MAX_SIZE: usize = 32;
/// Smallest board side the engine accepts.
pub const MIN_SIZE: usize = 5;
/// Wall padding around the board. Line keys look 5 cells each way, so 5 cells of
/// padding let every scan run without bounds checks.
pub const PAD: usize = 5;
/// Row stride of the padded array. Fixed for every board size so that direction
/// offsets and Zobrist tables are constants.
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Number of cells in the padded array.
pub const CELLS: usize = STRIDE * STRIDE;
/// The four line directions as index offsets: horizontal, vertical, diagonal,
/// anti-diagonal.
pub const DIRS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];
/// How far a line key looks on each side of its cell.
pub const HALF_LINE: usize = 5;

/// A side. Used as an index into `[T; 2]` everywhere so that no code is written twice.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The colour of a game's `n`-th stone (from 0): Black moves first.
    #[inline(always)]
    pub fn of_stone(n: usize) -> Color {
        Color::BOTH[n % 2]
    }

    #[inline(always)]
    pub fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    #[inline(always)]
    pub fn idx(self) -> usize {
        self as usize
    }

    /// The 2-bit cell code of a stone of this colour (see [`Cell`]).
    #[inline(always)]
    pub const fn cell(self) -> Cell {
        match self {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

/// Content of one cell. The discriminants are the 2-bit codes stored in line keys.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    /// Off the board, or a winning-line stone of a continuous game (BOARD field 3).
    Wall = 3,
}

/// Game rule. Values map from Gomocup's `INFO rule` bitmask with [`Rule::from_gomocup`].
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins, for both sides.
    Standard,
    /// Black: exactly five and no double-three, double-four or overline; White: five or more.
    Renju,
    /// Five or more wins unless both ends are blocked by opponent stones.
    Caro,
    /// Exactly five, not blocked at both ends by opponent stones.
    CaroExact,
}

impl Rule {
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// Decode Gomocup's `INFO rule` value: bit 1 exact five, bit 2 continuous game,
    /// bit 4 renju, bit 8 caro. Yixin-Board and Rapfi also read 2 as renju and 5/6
    /// as freestyle with swap1/swap2 openings.
    pub fn from_gomocup(v: i64) -> Option<Rule> {
        match v {
            0 | 5 | 6 => Some(Rule::Freestyle),
            1 | 3 => Some(Rule::Standard),
            2 | 4 => Some(Rule::Renju),
            8 | 10 => Some(Rule::Caro),
            9 | 11 => Some(Rule::CaroExact),
            v if (0..16).contains(&v) && v & 4 != 0 => Some(Rule::Renju),
            _ => None,
        }
    }

    /// The Gomocup value of this rule.
    pub fn gomocup_value(self) -> i64 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro-exact",
        }
    }

    /// A rule as a command line gives it (every tool's `--rule`): its name
    /// (case-insensitive; also `gomoku`, `exact`, `caroexact`) or its Gomocup number.
    pub fn parse(s: &str) -> Result<Rule, String> {
        Rule::from_name(s)
            .or_else(|| match s.to_ascii_lowercase().as_str() {
                "gomoku" => Some(Rule::Freestyle),
                "exact" | "standard-gomoku" => Some(Rule::Standard),
                "caroexact" | "caro_exact" => Some(Rule::CaroExact),
                other => other.parse::<i64>().ok().and_then(Rule::from_gomocup),
            })
            .ok_or_else(|| {
                format!("unknown rule '{s}' (freestyle, standard, renju, caro, caro-exact or a Gomocup number: 0, 1, 4, 8, 9)")
            })
    }

    pub fn from_name(s: &str) -> Option<Rule> {
        Rule::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s))
    }

    /// Whether a line of six or more stones of `c` fails to win.
    #[inline]
    pub fn needs_exact_five(self, c: Color) -> bool {
        match self {
            Rule::Freestyle | Rule::Caro => false,
            Rule::Standard | Rule::CaroExact => true,
            Rule::Renju => c == Color::Black,
        }
    }

    /// Whether a five blocked at both ends by the opponent fails to win.
    #[inline]
    pub fn blocked_five_loses(self) -> bool {
        matches!(self, Rule::Caro | Rule::CaroExact)
    }

    /// Whether `c` has renju forbidden points.
    #[inline]
    pub fn has_forbidden(self, c: Color) -> bool {
        self == Rule::Renju && c == Color::Black
    }

    /// Whether both colours play by the same rules, so that a position with its
    /// colours swapped is worth for the other side what it was worth.
    pub fn colours_alike(self) -> bool {
        self != Rule::Renju
    }
}

/// A cell index into the padded array. `Pos::NONE` is "no move".
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, Default, PartialOrd, Ord)]
pub struct Pos(pub u16);

impl Pos {
    pub const NONE: Pos = Pos(0);

    /// The cell for 0-based board coordinates. The caller checks the board's bounds.
    #[inline(always)]
    pub fn from_xy(x: usize, y: usize) -> Pos {
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }

    #[inline(always)]
    pub fn x(self) -> usize {
        self.0 as usize % STRIDE - PAD
    }

    #[inline(always)]
    pub fn y(self) -> usize {
        self.0 as usize / STRIDE - PAD
    }

    #[inline(always)]
    pub fn idx(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub fn offset(self, delta: isize) -> Pos {
        Pos((self.0 as isize + delta) as u16)
    }

    pub fn is_none(self) -> bool {
        self == Pos::NONE
    }

    /// Move-list notation: letter = x, number = y + 1 ("h8" is 7,7).
    pub fn notation(self) -> String {
        Pos::notation_of(self.x(), self.y())
    }

    /// The notation of any point [`Pos::parse_notation`] reads, on a board or not
    /// (x below 52).
    pub fn notation_of(x: usize, y: usize) -> String {
        let letter = if x < 26 {
            ((b'a' + x as u8) as char).to_string()
        } else {
            format!("a{}", (b'a' + (x - 26) as u8) as char)
        };
        format!("{}{}", letter, y + 1)
    }

    /// Reads move-list notation, the inverse of [`Pos::notation`]: a letter for x
    /// (`a` = 0; `aa`.. for 26 and up), then y + 1 in digits ("h8" is 7,7, "ab3" is
    /// 27,2); either case, surrounding blanks ignored. The board's bounds are the
    /// caller's to check (`Board::pos`).
    pub fn parse_notation(s: &str) -> Option<(usize, usize)> {
        let s = s.trim().to_ascii_lowercase();
        let split = s.find(|c: char| c.is_ascii_digit())?;
        let (letters, digits) = s.split_at(split);
        let x = match letters.as_bytes() {
            [c] if c.is_ascii_lowercase() => (c - b'a') as usize,
            [b'a', c] if c.is_ascii_lowercase() => 26 + (c - b'a') as usize,
            _ => return None,
        };
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let y: usize = digits.parse().ok()?;
        Some((x, y.checked_sub(1)?))
    }

    /// Reads a move list with or without separators ("h8i9j10", "h8 i9,j10"): each
    /// move is its letters then its digits, read by [`Pos::parse_notation`]. `None`
    /// when any part is not a move.
    pub fn parse_move_list(s: &str) -> Option<Vec<(usize, usize)>> {
        let sep = |c: char| c.is_whitespace() || c == ',';
        let mut moves = Vec::new();
        let mut rest = s.trim_start_matches(sep);
        while !rest.is_empty() {
            let letters = rest
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(rest.len());
            let end = rest[letters..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(rest.len(), |i| letters + i);
            moves.push(Pos::parse_notation(&rest[..end])?);
            rest = rest[end..].trim_start_matches(sep);
        }
        Some(moves)
    }

    /// Moves in move-list notation, separated by spaces ("h8 i9 j10"): principal
    /// variations, game records and tool output all print lines of moves so.
    pub fn line_notation(moves: &[Pos]) -> String {
        let names: Vec<String> = moves.iter().map(|p| p.notation()).collect();
        names.join(" ")
    }
}

impl std::str::FromStr for Pos {
    type Err = String;

    /// Move-list notation ([`Pos::parse_notation`]) of a cell that fits the largest
    /// board.
    fn from_str(s: &str) -> Result<Pos, String> {
        Pos::parse_notation(s)
            .filter(|&(x, y)| x < MAX_SIZE && y < MAX_SIZE)
            .map(|(x, y)| Pos::from_xy(x, y))
            .ok_or_else(|| format!("bad move '{}'", s.trim()))
    }
}

impl fmt::Display for Pos {
    /// Protocol form `x,y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_reads_what_it_prints() {
        assert_eq!(Pos::parse_notation("h8"), Some((7, 7)));
        assert_eq!(Pos::parse_notation(" A1 "), Some((0, 0)));
        assert_eq!(Pos::parse_notation("o15"), Some((14, 14)));
        assert_eq!(Pos::parse_notation("ab3"), Some((27, 2)));
        for bad in ["h0", "8h", "h", "", "zz", "h8x", "bb3"] {
            assert_eq!(Pos::parse_notation(bad), None, "{bad}");
        }
        for x in 0..MAX_SIZE {
            for y in [0, 9, MAX_SIZE - 1] {
                let p = Pos::from_xy(x, y);
                assert_eq!(p.notation().parse::<Pos>(), Ok(p));
            }
        }
        assert!("ag1".parse::<Pos>().is_err(), "x = 32 is off every board");
        assert_eq!(
            Pos::parse_move_list("h8i9 j10,ab3"),
            Some(vec![(7, 7), (8, 8), (9, 9), (27, 2)])
        );
        assert_eq!(Pos::parse_move_list(" "), Some(vec![]));
        for bad in ["h8!", "h8i", "88", "h8 9"] {
            assert_eq!(Pos::parse_move_list(bad), None, "{bad}");
        }
    }
}
