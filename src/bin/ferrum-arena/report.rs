//! The match's running totals and the text printed for each game and at the end.

use std::collections::BTreeMap;

use crate::stats::{elo_with_margin, pair_elo_with_margin, Decision, Sprt, Tally};
use ferrum::board::Color;
use ferrum::manager::referee::Verdict;

/// Totals from engine A's side.
#[derive(Debug, Default, Clone)]
pub struct Totals {
    pub tally: Tally,
    /// Per reason kind: games won by A, won by B, drawn.
    pub reasons: BTreeMap<&'static str, [u32; 3]>,
    /// Set when the SPRT crossed a bound (the first time).
    pub decision: Option<Decision>,
    /// A's and B's longest answer to a move request, in milliseconds.
    pub slowest_ms: [u64; 2],
    /// A's and B's largest peak resident memory over their processes, where known.
    pub peak_memory: [Option<u64>; 2],
    /// Opening pairs (games 2k and 2k+1: one opening, colours swapped) by A's points
    /// in half points, 0 to 4; and A's half points of a pair's game already in.
    pub pairs: [u32; 5],
    pending: BTreeMap<usize, u8>,
}

impl Totals {
    /// Adds game `index` (from 0); `a_color` is the colour engine A played.
    pub fn add(&mut self, index: usize, verdict: &Verdict, a_color: Color) {
        let half_points = match verdict.winner {
            None => 1,
            Some(c) if c == a_color => 2,
            Some(_) => 0,
        };
        match self.pending.remove(&(index / 2)) {
            Some(first) => self.pairs[(first + half_points) as usize] += 1,
            None => {
                self.pending.insert(index / 2, half_points);
            }
        }
        let slot = match verdict.winner {
            None => {
                self.tally.draws += 1;
                2
            }
            Some(c) if c == a_color => {
                self.tally.wins += 1;
                0
            }
            Some(_) => {
                self.tally.losses += 1;
                1
            }
        };
        self.reasons.entry(verdict.reason.kind()).or_default()[slot] += 1;
    }

    /// Adds one game's slowest answers and peak memory, A's first.
    pub fn add_resources(&mut self, slowest_ms: [u64; 2], peak_memory: [Option<u64>; 2]) {
        for side in 0..2 {
            self.slowest_ms[side] = self.slowest_ms[side].max(slowest_ms[side]);
            self.peak_memory[side] = self.peak_memory[side].max(peak_memory[side]);
        }
    }
}

/// `game 7: A (black) vs B (white): 1-0 five`
pub fn game_line(number: usize, black: &str, white: &str, verdict: &Verdict) -> String {
    format!(
        "game {number}: {black} (black) vs {white} (white): {} {}",
        verdict.result_text(),
        verdict.reason
    )
}

/// `Score of A vs B: W - L - D [score] n`, as c-gomoku-cli prints it.
pub fn score_line(names: &[String; 2], t: &Tally) -> String {
    format!(
        "Score of {} vs {}: {} - {} - {} [{:.3}] {}",
        names[0],
        names[1],
        t.wins,
        t.losses,
        t.draws,
        t.score(),
        t.games()
    )
}

/// The closing summary.
pub fn summary(names: &[String; 2], totals: &Totals, sprt: Option<&Sprt>) -> String {
    let t = &totals.tally;
    let (elo, margin) = elo_with_margin(t);
    let mut out = format!("Finished {} games\n{}\n", t.games(), score_line(names, t));
    out += &format!(
        "{} scored {:.1} %: W-L-D {}-{}-{}, Elo difference {} +/- {} (95 %)\n",
        names[0],
        t.score() * 100.0,
        t.wins,
        t.losses,
        t.draws,
        signed(elo),
        unsigned(margin)
    );
    // The pairs show how far the games are independent: under a node limit an opening's
    // two games often mirror each other (1-1), which the per-game interval ignores.
    let p = &totals.pairs;
    let pair_elo = match pair_elo_with_margin(p) {
        Some((elo, margin)) => format!(", Elo difference {} +/- {}", signed(elo), unsigned(margin)),
        None => String::new(),
    };
    out += &format!(
        "Opening pairs by {}'s points 0, 1/2, 1, 3/2, 2: {} {} {} {} {}{pair_elo}\n",
        names[0], p[0], p[1], p[2], p[3], p[4]
    );
    out += "Reasons:\n";
    for (kind, [a, b, d]) in &totals.reasons {
        let total = a + b + d;
        let detail = if *d > 0 {
            String::new()
        } else if kind_is_fault(kind) {
            // Faults are more telling by who committed them.
            format!("  (lost by {} {b}, by {} {a})", names[0], names[1])
        } else {
            format!("  (won by {} {a}, by {} {b})", names[0], names[1])
        };
        out += &format!("  {kind}: {total}{detail}\n");
    }
    out += &format!(
        "Slowest answer: {} {} ms, {} {} ms\n",
        names[0], totals.slowest_ms[0], names[1], totals.slowest_ms[1]
    );
    let mib = |m: Option<u64>| {
        m.map_or("unknown".into(), |b| {
            format!("{:.1} MiB", b as f64 / 1048576.0)
        })
    };
    out += &format!(
        "Peak memory: {} {}, {} {}\n",
        names[0],
        mib(totals.peak_memory[0]),
        names[1],
        mib(totals.peak_memory[1])
    );
    if let Some(sprt) = sprt {
        let (lower, upper) = sprt.bounds();
        let decision = match totals.decision {
            Some(Decision::H0) => "H0 accepted",
            Some(Decision::H1) => "H1 accepted",
            None => "no decision",
        };
        let (llr, model) = sprt.llr(t, &totals.pairs);
        out += &format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} ({}) bounds [{:.3}, {:.3}]: {decision}\n",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            llr,
            model.name(),
            lower,
            upper
        );
    }
    out
}

fn kind_is_fault(kind: &str) -> bool {
    matches!(
        kind,
        "illegal move" | "forbidden move" | "time forfeit" | "crash"
    )
}

fn signed(x: f64) -> String {
    // `+ 0.0` turns -0.0 into 0.0, which prints as `+0.0`.
    let x = x + 0.0;
    if x.is_finite() {
        format!("{x:+.1}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

fn unsigned(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrum::manager::referee::Reason;

    #[test]
    fn lines_and_summary() {
        let names = ["A".to_string(), "B".to_string()];
        let mut totals = Totals::default();
        let five = Verdict::win(Color::Black, Reason::Five);
        assert_eq!(
            game_line(7, "A", "B", &five),
            "game 7: A (black) vs B (white): 1-0 five"
        );
        totals.add(0, &five, Color::Black); // A won
        totals.add(
            1,
            &Verdict::loss(Color::Black, Reason::TimeForfeit),
            Color::White,
        ); // A won
        totals.add(3, &Verdict::win(Color::Black, Reason::Five), Color::White); // B won
        let draw = Verdict {
            winner: None,
            reason: Reason::FullBoard,
        };
        totals.add(2, &draw, Color::White);
        totals.add_resources([90, 120], [Some(15 << 20), None]);
        totals.add_resources([95, 80], [Some(10 << 20), None]);
        assert_eq!(
            score_line(&names, &totals.tally),
            "Score of A vs B: 2 - 1 - 1 [0.625] 4"
        );
        let text = summary(&names, &totals, Sprt::parse("0,10,0.05,0.05").as_ref());
        assert!(text.contains("A scored 62.5 %: W-L-D 2-1-1, Elo difference +88.7"));
        assert!(text.contains("  five: 2  (won by A 1, by B 1)"));
        assert!(text.contains("  time forfeit: 1  (lost by A 0, by B 1)"));
        assert!(text.contains("  full board: 1\n"));
        assert!(text.contains("no decision"));
        // Games 1-2: A won both; games 3-4 (in the other order): a loss and a draw.
        assert_eq!(totals.pairs, [0, 1, 0, 0, 1]);
        assert!(text.contains("Opening pairs by A's points 0, 1/2, 1, 3/2, 2: 0 1 0 0 1,"));
        assert!(text.contains("Slowest answer: A 95 ms, B 120 ms\n"));
        assert!(text.contains("Peak memory: A 15.0 MiB, B unknown\n"));
    }
}
