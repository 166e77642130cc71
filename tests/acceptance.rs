//! Gomocup's own rule-acceptance positions (GomocupJudge's test_zip_rules.py, from
//! tests/data/rules/gomocup_acceptance.jsonl): the engine must win at once, block
//! the right point, and never play a renju forbidden point or treat a caro blocked
//! five as a win.

mod json_points;

use ferrum::board::{Board, Color, Pos, Rule};
use ferrum::engine::Engine;
use ferrum::search::Limits;
use json_points::as_points;
use serde_json::Value as Json;
use std::sync::atomic::AtomicBool;

fn cases() -> Vec<Json> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/rules/gomocup_acceptance.jsonl"
    );
    std::fs::read_to_string(path)
        .expect("tests/data")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Json>(l).unwrap())
        .collect()
}

fn points(j: Option<&Json>) -> Vec<Pos> {
    j.and_then(as_points)
        .unwrap_or_default()
        .into_iter()
        .map(|(x, y)| Pos::from_xy(x as usize, y as usize))
        .collect()
}

#[test]
fn gomocup_acceptance_positions() {
    let cases = cases();
    assert_eq!(cases.len(), 8);
    let engine = Engine::new(8 << 20, 1);
    for case in &cases {
        let id = case.get("id").and_then(Json::as_str).unwrap();
        let rule = Rule::from_name(case.get("rule").and_then(Json::as_str).unwrap()).unwrap();
        let size = case.get("size").and_then(Json::as_i64).unwrap() as usize;
        let mut board = Board::new(size, size, rule).unwrap();
        let mut color = Color::Black;
        for p in points(case.get("moves")) {
            board.make(p, color);
            color = color.opp();
        }
        for depth in [1, 4, 7] {
            let stop = AtomicBool::new(false);
            let result = engine.search(&board, &Limits::depth(depth), &stop, &|_| {});
            let mv = result.best.expect("a move");
            let must = points(case.get("must_play_one_of"));
            let must_not = points(case.get("must_not_play"));
            assert!(
                must.is_empty() || must.contains(&mv),
                "{id} depth {depth}: played {mv}, wanted one of {must:?}"
            );
            assert!(
                !must_not.contains(&mv),
                "{id} depth {depth}: played forbidden {mv}"
            );
            let mut check = board.clone();
            assert!(check.is_legal(board.to_move(), mv), "{id}: illegal {mv}");
        }
    }
}
