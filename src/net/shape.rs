//! Line shapes: the network's input. For every cell and direction, the 4 cells on
//! each side (own, opponent's, empty; a wall ends the line) and the cell itself, seen
//! from one colour, make one of `SHAPES` indices. A line read backwards is the same
//! shape, so the two sides are an unordered pair. The engine and the trainer both read
//! shapes through here, from the board's line keys.

use crate::board::{Board, Cell, Color, Pos};

/// The cells the network pools: every cell but the walls (a continuous game's
/// winning lines), which are no more part of the game than the board's edge.
pub fn pooled_cells(board: &Board) -> impl Iterator<Item = Pos> + '_ {
    board.all_cells().filter(|&p| board.cell(p) != Cell::Wall)
}

/// Cells on each side of the centre that a shape sees.
pub const REACH: usize = 4;
/// Distinct sides: with `n` cells before the wall (0..=4), 3^n contents.
const SIDES: usize = 1 + 3 + 9 + 27 + 81;
/// Unordered pairs of sides.
const PAIRS: usize = SIDES * (SIDES + 1) / 2;
/// Shapes: a pair of sides and the centre (empty, own, opponent's).
pub const SHAPES: usize = PAIRS * 3;

/// `SIDE_OF[colour][half][key byte]`: one side's index from the byte of its four
/// cells in the line key (half 0: offsets -4..-1, nearest in the top slot; half 1:
/// offsets 1..4, nearest in the bottom slot). Built at compile time: 1 KiB stays in the
/// first-level cache, which a table of whole pairs (256 KiB) would miss on the
/// network's every update.
static SIDE_OF: [[[u8; 256]; 2]; 2] = {
    let mut table = [[[0u8; 256]; 2]; 2];
    let mut own = 0;
    while own < 2 {
        let colour = Color::BOTH[own];
        let mut byte = 0;
        while byte < 256 {
            let b = byte as u32;
            let c = [b & 3, (b >> 2) & 3, (b >> 4) & 3, (b >> 6) & 3];
            table[own][0][byte] = side_index([c[3], c[2], c[1], c[0]], colour) as u8;
            table[own][1][byte] = side_index(c, colour) as u8;
            byte += 1;
        }
        own += 1;
    }
    table
};

/// One side's index from its cells' codes, nearest first.
const fn side_index(codes: [u32; REACH], own: Color) -> usize {
    const FIRST: [usize; REACH + 1] = [0, 1, 4, 13, 40];
    let (mut index, mut weight, mut seen) = (0, 1, 0);
    while seen < REACH {
        let code = codes[seen];
        if code == Cell::Wall as u32 {
            break;
        }
        index += weight * trit(code, own);
        weight *= 3;
        seen += 1;
    }
    FIRST[seen] + index
}

/// 0 empty, 1 a stone of `own`, 2 the opponent's.
#[inline(always)]
const fn trit(code: u32, own: Color) -> usize {
    if code == 0 {
        0
    } else if code == own.cell() as u32 {
        1
    } else {
        2
    }
}

/// The shape of `p` in direction `dir` for colour `own`.
#[inline(always)]
pub fn shape(board: &Board, p: Pos, dir: usize, own: Color) -> usize {
    // The key's 10 slots hold offsets -5..-1 and 1..5: drop the outermost of each.
    let bits = (board.line_key(p, dir) >> 2) as usize & 0xffff;
    let centre = match board.cell(p) {
        Cell::Wall => 0,
        c => trit(c as u32, own),
    };
    let sides = &SIDE_OF[own.idx()];
    let left = sides[0][bits & 0xff] as usize;
    let right = sides[1][bits >> 8] as usize;
    let (a, b) = (left.min(right), left.max(right));
    (b * (b + 1) / 2 + a) * 3 + centre
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;

    #[test]
    fn sides_are_numbered_densely() {
        let mut seen = [false; SIDES];
        for bits in 0..1u32 << 8 {
            let codes = [0, 1, 2, 3].map(|i| (bits >> (2 * i)) & 3);
            seen[side_index(codes, Color::Black)] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(side_index([3, 1, 1, 1], Color::Black), 0);
        assert_eq!(side_index([1, 3, 0, 0], Color::Black), 2);
        assert_eq!(side_index([1, 3, 0, 0], Color::White), 3);
    }

    #[test]
    fn mirrored_lines_share_a_shape_and_colours_swap() {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        let at = |x, y| Pos::from_xy(x, y);
        for (x, c) in [(5, Color::Black), (6, Color::White), (9, Color::Black)] {
            board.make(at(x, 7), c);
        }
        // Row 7 around x=7: B W [.] . B; row 3 holds its mirror image.
        for (x, c) in [(9, Color::Black), (8, Color::White), (5, Color::Black)] {
            board.make(at(x, 3), c);
        }
        let east = 0;
        assert_eq!(
            shape(&board, at(7, 7), east, Color::Black),
            shape(&board, at(7, 3), east, Color::Black)
        );
        assert_ne!(
            shape(&board, at(7, 7), east, Color::Black),
            shape(&board, at(7, 7), east, Color::White)
        );
        // The wall: a cell on the edge sees nothing on its outer side.
        let edge = shape(&board, at(0, 12), east, Color::Black);
        assert!(edge < SHAPES);
        // A stone's own cell is part of its shape.
        assert_eq!(
            shape(&board, at(6, 7), east, Color::White) % 3,
            1,
            "own stone in the centre"
        );
        assert_eq!(shape(&board, at(6, 7), east, Color::Black) % 3, 2);
    }
}
