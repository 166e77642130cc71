//! Random balanced openings: a few stones near the centre, alternating from Black,
//! with no five or four on the board, kept when a short search finds the side to move
//! neither winning nor losing. They start the self-play games and, from a different
//! seed, the test matches; `exclude` keeps the two sets apart under the board's
//! symmetries.

use ahash::AHashSet;
use anyhow::{bail, Result};
use std::sync::atomic::AtomicBool;

use crate::board::{Board, Rule, Threat};
use crate::engine::Engine;
use crate::openings::{canonical, Opening};
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

/// Random stone sets drawn, and balance searches run, for one opening before giving
/// up: a small board or window can run out of balanced openings not excluded.
const MAX_DRAWS: u32 = 1_000_000;
const MAX_SEARCHES: u32 = 10_000;

/// Draws random stone sets until one is balanced. `excluded` holds the canonical
/// forms (`canonical`) of openings not to return. Returns the opening and its score.
pub fn balanced_opening(
    spec: &OpeningSpec,
    rng: &mut Rng,
    engine: &mut Engine,
    excluded: &AHashSet<Opening>,
) -> Result<(Opening, i32)> {
    let mut searches = 0;
    for _ in 0..MAX_DRAWS {
        let Some((board, opening)) = random_stones(spec, rng)? else {
            continue;
        };
        if excluded.contains(&canonical(&opening, spec.width, spec.height)) {
            continue;
        }
        searches += 1;
        if searches > MAX_SEARCHES {
            break;
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
    bail!(
        "no balanced opening found in {MAX_DRAWS} draws or {MAX_SEARCHES} searches \
         ({}-{} stones within {} of the centre, {} openings excluded; on boards much \
         smaller than 15x15 the networks' scores run large: `--eval classical` judges \
         balance there)",
        spec.stones.0,
        spec.stones.1,
        spec.radius,
        excluded.len()
    )
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
        opening.push((x as usize, y as usize));
    }
    let fours = |b: &Board| {
        let (us, them) = (b.to_move(), b.to_move().opp());
        b.threat_count(us, Threat::FIVE) + b.threat_count(them, Threat::FIVE)
    };
    Ok((fours(&board) == 0).then_some((board, opening)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::cells;

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
