//! `pbrain-ferrum bench [depth]`: fixed positions searched to a fixed depth with one
//! thread and a fixed, cleared TT. The total node count is the search's signature:
//! identical on every run and machine for the same code.

use crate::board::{Board, Color, Pos, Rule};
use crate::engine::Engine;
use crate::net::accumulator::NetState;
use crate::net::file::NetWeights;
use crate::search::Limits;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

pub const DEFAULT_DEPTH: i32 = 7;
/// The node counts of `bench` at `DEFAULT_DEPTH`, with the classical evaluation
/// (`--eval classical`) and with the built-in networks (the default): a change that
/// should not alter play keeps both (tests check them); a change in play updates them
/// in the same commit.
pub const SIGNATURE: u64 = 28533;
pub const NET_SIGNATURE: u64 = 20223;
const BENCH_TT_BYTES: usize = 16 << 20;

/// A bench position: rule, size, Black's stones, White's stones, side to move.
struct BenchPosition {
    name: &'static str,
    rule: Rule,
    size: usize,
    black: &'static str,
    white: &'static str,
    to_move: Color,
}

const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        name: "freestyle15 opening",
        rule: Rule::Freestyle,
        size: 15,
        black: "h8 j8",
        white: "i9",
        to_move: Color::White,
    },
    BenchPosition {
        name: "freestyle15 middle game",
        rule: Rule::Freestyle,
        size: 15,
        black: "e6 i6 f7 g7 f8 h8 i8 g10 i10",
        white: "f6 g6 h7 i7 e8 j8 f9 g9 j10",
        to_move: Color::Black,
    },
    BenchPosition {
        name: "freestyle20 opening",
        rule: Rule::Freestyle,
        size: 20,
        black: "j14 n16 q12",
        white: "j16 o15",
        to_move: Color::White,
    },
    BenchPosition {
        name: "standard15 tactical",
        rule: Rule::Standard,
        size: 15,
        black: "f6 g6 j6 g7 i7 f8 h8",
        white: "e5 k5 f7 h7 g8 g9 i9",
        to_move: Color::Black,
    },
    BenchPosition {
        name: "renju15 opening",
        rule: Rule::Renju,
        size: 15,
        black: "h8 j6",
        white: "h7",
        to_move: Color::White,
    },
    BenchPosition {
        name: "renju15 tactical",
        rule: Rule::Renju,
        size: 15,
        black: "h8 h9 h11 g12 i12",
        white: "h7 i9 g10 i10 g11",
        to_move: Color::Black,
    },
    BenchPosition {
        name: "renju15 middle game",
        rule: Rule::Renju,
        size: 15,
        black: "h8 j6 i6 k8 j7 j9 l9 i10 l7 l10",
        white: "h7 k5 k6 i8 h5 j10 m10 h11 m6 l6",
        to_move: Color::Black,
    },
];

fn setup(pos: &BenchPosition) -> Board {
    let mut board = Board::new(pos.size, pos.size, pos.rule).expect("bench size");
    for (list, color) in [(pos.black, Color::Black), (pos.white, Color::White)] {
        for m in list.split_whitespace() {
            let (x, y) = Pos::parse_notation(m).expect("bench move");
            let p = board
                .pos(x as i64, y as i64)
                .expect("bench move on the board");
            board.make(p, color);
        }
    }
    board.set_to_move(pos.to_move);
    board
}

/// One line per position, then `Bench: <nodes> nodes <nps> nps`, returned as text (the
/// caller prints it).
/// `nets` and `use_net` as the engine's (`--net`, `--eval`).
pub fn run(depth: i32, nets: &[Arc<NetWeights>], use_net: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut total_nodes = 0u64;
    let mut total_secs = 0f64;
    let mut engine = Engine::new(BENCH_TT_BYTES, 1);
    engine.set_nets(nets, use_net);
    for pos in POSITIONS {
        engine.clear();
        let board = setup(pos);
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let result = engine.search(&board, &Limits::depth(depth), &stop, &|_| {});
        let secs = start.elapsed().as_secs_f64();
        total_nodes += result.nodes;
        total_secs += secs;
        lines.push(format!(
            "{:<24} depth {:>2} best {:<4} score {:>6} nodes {:>10} time {:>7.3}s",
            pos.name,
            result.depth,
            result
                .best
                .map(|p| p.notation())
                .unwrap_or_else(|| "-".into()),
            crate::search::score::format_score(result.score),
            result.nodes,
            secs
        ));
    }
    // The networks the searches used: the engine resolves loaded and built-in ones.
    let mut rules: Vec<Rule> = Vec::new();
    for pos in POSITIONS {
        if !rules.contains(&pos.rule) {
            rules.push(pos.rule);
        }
    }
    for net in rules.into_iter().filter_map(|r| engine.net_for(r)) {
        let (update, value) = net_costs(net);
        lines.push(format!(
            "Network ({}): {update:.0} ns to update for a move and take it back, {value:.0} ns per value",
            net.rule.name()
        ));
    }
    let nps = (total_nodes as f64 / total_secs.max(1e-9)) as u64;
    lines.push(format!("Bench: {total_nodes} nodes {nps} nps"));
    lines
}

/// The network's costs on the first bench position of its rule, in ns: bringing its
/// state up to date after one move and restoring it on the take-back (the board's
/// own make and undo subtracted), and one value (the head and, for a residual
/// network, the classical evaluation).
fn net_costs(net: &NetWeights) -> (f64, f64) {
    const ROUNDS: usize = 2000;
    let position = POSITIONS.iter().find(|p| p.rule == net.rule);
    let mut board = match position {
        Some(p) => setup(p),
        None => Board::new(15, 15, net.rule).expect("15x15"),
    };
    let moves: Vec<Pos> = board.candidates().collect();
    let mut state = NetState::new(net, &board);
    let time = |f: &mut dyn FnMut()| {
        let start = Instant::now();
        f();
        start.elapsed().as_secs_f64() * 1e9 / (ROUNDS * moves.len()) as f64
    };
    let c = board.to_move();
    let board_only = time(&mut || {
        for _ in 0..ROUNDS {
            for &p in &moves {
                board.make(p, c);
                board.undo();
            }
        }
    });
    let with_net = time(&mut || {
        for _ in 0..ROUNDS {
            for &p in &moves {
                board.make(p, c);
                std::hint::black_box(state.value(&board));
                board.undo();
                state.taken_back(&board);
            }
        }
    });
    let value = time(&mut || {
        for _ in 0..ROUNDS {
            for _ in &moves {
                std::hint::black_box(state.value(std::hint::black_box(&board)));
            }
        }
    });
    ((with_net - board_only - value).max(0.0), value)
}

#[cfg(test)]
mod tests {
    fn nodes(use_net: bool) -> u64 {
        let lines = super::run(super::DEFAULT_DEPTH, &[], use_net);
        let total = lines.last().expect("a summary line");
        total
            .strip_prefix("Bench: ")
            .and_then(|t| t.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("bad summary {total}"))
    }

    #[test]
    fn bench_keeps_its_signatures() {
        assert_eq!(nodes(false), super::SIGNATURE, "classical bench changed");
        assert_eq!(nodes(true), super::NET_SIGNATURE, "network bench changed");
    }
}
