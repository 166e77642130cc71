//! Random balanced openings: a few stones near the centre, alternating from Black,
//! with no five or four on the board, kept when a short search finds the side to move
//! neither winning nor losing. They start the self-play games and, from a different
//! seed, the test matches; `exclude` keeps the two sets apart under the board's
//! symmetries.

use ahash::AHashSet;
use anyhow::Result;
use std::sync::atomic::AtomicBool;

use crate::board::{Board, Pos, Rule, Threat};
use crate::engine::Engine;
use crate::rng::Rng;
use crate::search::Limits;

/// How openings are drawn and judged.
#[derive(Clone, Debug)]
pub struct OpeningSpec {
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    /// Stones per opening, drawn in this range.
    pub stones: (usize, usize),
    /// Stones go at most this far from the centre (Chebyshev distance).
    pub radius: usize,
    /// Nodes of the balance search.
    pub nodes: u64,
    /// Largest |score| of the balance search for the side to move.
    pub max_eval: i32,
}

impl OpeningSpec {
    /// The defaults for a rule and board: 3-6 stones within a quarter of the board's
    /// side from the centre, judged by a 20 000-node search.
    pub fn new(rule: Rule, width: usize, height: usize) -> OpeningSpec {
        OpeningSpec {
            rule,
            width,
            height,
            stones: (3, 6),
            radius: (width.min(height) / 4).max(2),
            nodes: 20_000,
            max_eval: 120,
        }
    }
}

/// An opening as board coordinates, in move order.
pub type Opening = Vec<(u8, u8)>;

/// Draws random stone sets until one is balanced. `excluded` holds the canonical
/// forms (`canonical`) of openings not to return. Returns the opening and its score.
pub fn balanced_opening(
    spec: &OpeningSpec,
    rng: &mut Rng,
    engine: &mut Engine,
    excluded: &AHashSet<Opening>,
) -> Result<(Opening, i32)> {
    loop {
        let Some((board, opening)) = random_stones(spec, rng)? else {
            continue;
        };
        if excluded.contains(&canonical(&opening, spec.width, spec.height)) {
            continue;
        }
        engine.clear();
        let limits = Limits {
            max_nodes: spec.nodes,
            ..Limits::default()
        };
        // The search sets its stop flag when it ends: a fresh one per search.
        let stop = AtomicBool::new(false);
        let score = engine.search(&board, &limits, &stop, &|_| {}).score;
        if score.abs() <= spec.max_eval {
            return Ok((opening, score));
        }
    }
}

/// One random placement, `None` when it went wrong (a forbidden point, a four).
fn random_stones(spec: &OpeningSpec, rng: &mut Rng) -> Result<Option<(Board, Opening)>> {
    let mut board = Board::new(spec.width, spec.height, spec.rule)?;
    let count = rng.range(spec.stones.0 as i64, spec.stones.1 as i64) as usize;
    let (cx, cy) = ((spec.width / 2) as i64, (spec.height / 2) as i64);
    let r = spec.radius as i64;
    let mut opening = Vec::with_capacity(count);
    while opening.len() < count {
        let (x, y) = (cx + rng.range(-r, r), cy + rng.range(-r, r));
        let Some(p) = board.pos(x, y) else { continue };
        let c = board.to_move();
        if !board.is_empty(p) {
            continue;
        }
        if !board.is_legal(c, p) || board.is_win_move(c, p) {
            return Ok(None);
        }
        board.make(p, c);
        opening.push((x as u8, y as u8));
    }
    let fours = |b: &Board| {
        let (us, them) = (b.to_move(), b.to_move().opp());
        b.threat_count(us, Threat::FIVE) + b.threat_count(them, Threat::FIVE)
    };
    Ok((fours(&board) == 0).then_some((board, opening)))
}

/// The smallest of an opening's images under the board's symmetries (8 on a square
/// board, 4 on a rectangle), as a sorted stone list per colour: two openings with the
/// same canonical form are the same position.
pub fn canonical(opening: &Opening, width: usize, height: usize) -> Opening {
    let (w, h) = (width as i32 - 1, height as i32 - 1);
    // (x, y, width - 1, height - 1) to the image of (x, y).
    type Symmetry = fn(i32, i32, i32, i32) -> (i32, i32);
    let maps: &[Symmetry] = &[
        |x, y, _, _| (x, y),
        |x, y, w, _| (w - x, y),
        |x, y, _, h| (x, h - y),
        |x, y, w, h| (w - x, h - y),
        |x, y, _, _| (y, x),
        |x, y, w, _| (y, w - x),
        |x, y, _, h| (h - y, x),
        |x, y, w, h| (h - y, w - x),
    ];
    let count = if width == height { 8 } else { 4 };
    maps[..count]
        .iter()
        .map(|m| {
            let mut image: Vec<(u8, u8, bool)> = opening
                .iter()
                .enumerate()
                .map(|(i, &(x, y))| {
                    let (a, b) = m(x as i32, y as i32, w, h);
                    (a as u8, b as u8, i % 2 == 1)
                })
                .collect();
            image.sort_by_key(|&(x, y, white)| (white, y, x));
            image
                .into_iter()
                .map(|(x, y, _)| (x, y))
                .collect::<Opening>()
        })
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
    fn openings_are_balanced_legal_and_reproducible() {
        let spec = OpeningSpec {
            nodes: 2_000,
            ..OpeningSpec::new(Rule::Renju, 15, 15)
        };
        let mut engine = Engine::new(1 << 20, 1);
        let draw = |engine: &mut Engine| {
            let mut rng = Rng::for_item(7, 3);
            balanced_opening(&spec, &mut rng, engine, &AHashSet::new()).unwrap()
        };
        let (opening, score) = draw(&mut engine);
        assert!(score.abs() <= spec.max_eval);
        assert!((3..=6).contains(&opening.len()));
        assert_eq!(draw(&mut engine).0, opening);
        let mut board = Board::new(15, 15, Rule::Renju).unwrap();
        for p in cells(&board.clone(), &opening) {
            let c = board.to_move();
            assert!(board.is_legal(c, p) && !board.is_win_move(c, p));
            board.make(p, c);
        }
        let mut excluded = AHashSet::new();
        excluded.insert(canonical(&opening, 15, 15));
        let mut rng = Rng::for_item(7, 3);
        let (other, _) = balanced_opening(&spec, &mut rng, &mut engine, &excluded).unwrap();
        assert_ne!(other, opening);
    }
}
