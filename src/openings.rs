//! Openings in the offset format of Piskvork and c-gomoku-cli: one opening per line,
//! `dx,dy, dx,dy, ...` from the centre `(floor(w/2), floor(h/2))`, x to the right, y
//! down, stones alternating from Black. Read by the arena and self-play, written by
//! `pbrain-ferrum openings`.

use anyhow::{bail, Context, Result};

use crate::board::{Board, Pos};

/// Opening stones in game order, as board coordinates.
pub type Opening = Vec<(usize, usize)>;

/// Parses one line of offsets into board coordinates on a `width` x `height` board.
pub fn parse_line(line: &str, width: usize, height: usize) -> Result<Opening> {
    let numbers = line
        .split(',')
        .map(|t| t.trim().parse::<i64>())
        .collect::<Result<Vec<i64>, _>>()
        .with_context(|| format!("bad number in opening `{line}`"))?;
    if numbers.len() % 2 != 0 {
        bail!("odd number of coordinates in opening `{line}`");
    }
    let (cx, cy) = ((width / 2) as i64, (height / 2) as i64);
    numbers
        .chunks(2)
        .map(|c| {
            let (x, y) = (cx + c[0], cy + c[1]);
            if x < 0 || y < 0 || x >= width as i64 || y >= height as i64 {
                bail!(
                    "opening `{line}`: offset {},{} is off a {width}x{height} board",
                    c[0],
                    c[1]
                );
            }
            Ok((x as usize, y as usize))
        })
        .collect()
}

/// Every opening of a file (blank lines skipped), checked for the board only: the
/// arena checks the stones against the rules too.
pub fn read_file(path: &std::path::Path, width: usize, height: usize) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            parse_line(l, width, height)
                .with_context(|| format!("{} line {}", path.display(), i + 1))
        })
        .collect()
}

/// (x, y, width - 1, height - 1) to the image of (x, y) under one of the board's
/// symmetries: the identity and the mirrors first, then those that swap the axes.
type Symmetry = fn(i32, i32, i32, i32) -> (i32, i32);
const SYMMETRIES: [Symmetry; 8] = [
    |x, y, _, _| (x, y),
    |x, y, w, _| (w - x, y),
    |x, y, _, h| (x, h - y),
    |x, y, w, h| (w - x, h - y),
    |x, y, _, _| (y, x),
    |x, y, w, _| (y, w - x),
    |x, y, _, h| (h - y, x),
    |x, y, w, h| (h - y, w - x),
];

/// The images of `points` under each of the board's symmetries (8 on a square board,
/// 4 on a rectangle), the identity first, each in the order of `points`.
pub fn symmetric_images(
    points: &[(usize, usize)],
    width: usize,
    height: usize,
) -> impl Iterator<Item = Vec<(usize, usize)>> + '_ {
    let (w, h) = (width as i32 - 1, height as i32 - 1);
    let count = if width == height { 8 } else { 4 };
    SYMMETRIES[..count].iter().map(move |m| {
        points
            .iter()
            .map(|&(x, y)| {
                let (a, b) = m(x as i32, y as i32, w, h);
                (a as usize, b as usize)
            })
            .collect()
    })
}

/// Opening stones (alternating from Black) sorted per colour, Black's first: the
/// position they make, whatever order they were played in.
pub fn sorted_by_colour(stones: &[(usize, usize)]) -> Opening {
    let mut tagged: Vec<(bool, usize, usize)> = stones
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| (i % 2 == 1, y, x))
        .collect();
    tagged.sort_unstable();
    tagged.into_iter().map(|(_, y, x)| (x, y)).collect()
}

/// The smallest of an opening's images under the board's symmetries, as a sorted
/// stone list per colour: two openings with the same canonical form are the same
/// position.
pub fn canonical(opening: &Opening, width: usize, height: usize) -> Opening {
    symmetric_images(opening, width, height)
        .map(|image| sorted_by_colour(&image))
        .min()
        .expect("at least one symmetry")
}

/// An opening in the offset format of the opening files (`dx,dy, dx,dy` from the
/// centre `(floor(w/2), floor(h/2))`).
pub fn offset_line(opening: &Opening, width: usize, height: usize) -> String {
    let (cx, cy) = ((width / 2) as i64, (height / 2) as i64);
    let parts: Vec<String> = opening
        .iter()
        .map(|&(x, y)| format!("{},{}", x as i64 - cx, y as i64 - cy))
        .collect();
    parts.join(", ")
}

/// Stones of an opening as board cells.
pub fn cells(board: &Board, opening: &Opening) -> Vec<Pos> {
    opening
        .iter()
        .filter_map(|&(x, y)| board.pos(x as i64, y as i64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_from_the_centre() {
        assert_eq!(
            parse_line("4,6, 1,5, 0,3", 15, 15).unwrap(),
            vec![(11, 13), (8, 12), (7, 10)]
        );
        // floor(N/2) on an even board.
        assert_eq!(
            parse_line("0,0, -1,-1", 20, 20).unwrap(),
            vec![(10, 10), (9, 9)]
        );
        assert!(parse_line("8,0", 15, 15).is_err());
        assert!(parse_line("1,2, 3", 15, 15).is_err());
        assert!(parse_line("a,b", 15, 15).is_err());
    }

    #[test]
    fn symmetric_images_share_a_canonical_form() {
        let a: Opening = vec![(7, 7), (8, 7), (6, 9)];
        let mirrored: Opening = vec![(7, 7), (6, 7), (8, 9)];
        let turned: Opening = vec![(7, 7), (7, 8), (9, 6)];
        let other: Opening = vec![(7, 7), (8, 7), (6, 10)];
        let c = canonical(&a, 15, 15);
        assert_eq!(canonical(&mirrored, 15, 15), c);
        assert_eq!(canonical(&turned, 15, 15), c);
        assert_ne!(canonical(&other, 15, 15), c);
        // Colours matter: the same cells with the colours swapped are another position.
        let swapped: Opening = vec![(8, 7), (7, 7), (6, 9), (0, 0)];
        let a4: Opening = vec![(7, 7), (8, 7), (6, 9), (0, 0)];
        assert_ne!(canonical(&swapped, 15, 15), canonical(&a4, 15, 15));
    }

    #[test]
    fn printed_lines_parse_back() {
        let o: Opening = vec![(7, 7), (9, 4), (3, 12)];
        let line = offset_line(&o, 15, 15);
        assert_eq!(line, "0,0, 2,-3, -4,5");
        assert_eq!(parse_line(&line, 15, 15).unwrap(), o);
        assert_eq!(parse_line(&offset_line(&o, 19, 16), 19, 16).unwrap(), o);
    }
}
