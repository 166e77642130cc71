//! Match statistics from the first engine's side: W-L-D, Elo difference with a 95 %
//! interval, and the SPRT log-likelihood ratio.

/// The 97.5 % quantile of the standard normal distribution (two-sided 95 %).
const Z_975: f64 = 1.959963984540054;

/// Wins, losses and draws of engine A.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points of A: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Mean score per game in [0, 1] (0.5 before any game).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// Variance of one game's score (1, 0 or 1/2) around the mean score.
    pub fn variance(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let mu = self.score();
        let sq = |x: f64| (x - mu) * (x - mu);
        (self.wins as f64 * sq(1.0) + self.losses as f64 * sq(0.0) + self.draws as f64 * sq(0.5))
            / n as f64
    }
}

/// Logistic Elo difference for a mean score `p`: `-400 log10(1/p - 1)`; infinite at 0
/// and 1.
pub fn elo_from_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// Mean score for an Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference and the half-width of its 95 % interval.
///
/// The normal approximation of cutechess-cli (`projects/lib/src/elo.cpp`, class `Elo`):
/// the standard error of the mean score is `sqrt(var / n)` with `var` the per-game
/// variance ([`Tally::variance`]); the score interval `mu ± 1.96 se` is mapped through
/// [`elo_from_score`], and the margin is half the Elo width of that interval,
/// `(elo(mu + 1.96 se) - elo(mu - 1.96 se)) / 2`. Infinite when the interval reaches
/// a score of 0 or 1.
pub fn elo_with_margin(t: &Tally) -> (f64, f64) {
    let n = t.games();
    let mu = t.score();
    if n == 0 {
        return (0.0, f64::INFINITY);
    }
    let se = (t.variance() / n as f64).sqrt();
    let margin = (elo_from_score(mu + Z_975 * se) - elo_from_score(mu - Z_975 * se)) / 2.0;
    (elo_from_score(mu), margin)
}

/// Elo difference and its 95 % half-width from opening pairs (`pairs[k]`: pairs where A
/// scored k half points of 4), a pair's mean score taken as one observation: the same
/// normal approximation as [`elo_with_margin`], with the pairs' variance, which counts
/// an opening's two games as one. `None` with fewer than two kinds of pair (no variance
/// to speak of).
pub fn pair_elo_with_margin(pairs: &[u32; 5]) -> Option<(f64, f64)> {
    let (n, mu, var) = pair_moments(pairs)?;
    let se = (var / n).sqrt();
    let margin = (elo_from_score(mu + Z_975 * se) - elo_from_score(mu - Z_975 * se)) / 2.0;
    Some((elo_from_score(mu), margin))
}

/// The number of pairs, their mean score (a pair's points / 2) and its variance; `None`
/// with fewer than two kinds of pair.
fn pair_moments(pairs: &[u32; 5]) -> Option<(f64, f64, f64)> {
    if pairs.iter().filter(|&&c| c > 0).count() < 2 {
        return None;
    }
    let n: f64 = pairs.iter().map(|&c| c as f64).sum();
    let score = |k: usize| k as f64 / 4.0;
    let mu = (0..5).map(|k| pairs[k] as f64 * score(k)).sum::<f64>() / n;
    let var = (0..5)
        .map(|k| pairs[k] as f64 * (score(k) - mu).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mu, var))
}

/// The SPRT's two hypotheses and error rates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Which hypothesis the SPRT accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    H0,
    H1,
}

impl Sprt {
    /// Parses `elo0,elo1,alpha,beta`.
    pub fn parse(s: &str) -> Option<Sprt> {
        let v: Vec<f64> = s
            .split(',')
            .map(|t| t.trim().parse().ok())
            .collect::<Option<_>>()?;
        let [elo0, elo1, alpha, beta] = v[..] else {
            return None;
        };
        let probability = |x: f64| x > 0.0 && x < 1.0;
        // Scores within a millionth of 0 or 1 (beyond about 2400 Elo) leave the fits
        // no room (the bisection's range grows as 1 / score).
        let fits = |elo: f64| (1e-6..=1.0 - 1e-6).contains(&score_from_elo(elo));
        let scores = fits(elo0) && fits(elo1);
        // With alpha + beta >= 1 Wald's bounds swap and the first game decides.
        let bounds_apart = alpha + beta < 1.0;
        (elo0 < elo1 && scores && probability(alpha) && probability(beta) && bounds_apart)
            .then_some(Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            })
    }

    /// Lower and upper LLR bounds: `ln(beta / (1 - alpha))` (accept H0) and
    /// `ln((1 - beta) / alpha)` (accept H1), Wald's bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 (elo1) against H0 (elo0), and the model it came
    /// from: opening pairs (`pairs`, as [`pair_elo_with_margin`] counts them) once two
    /// kinds of pair are in, else single games (`t`), by [`gsprt`]. Per pair
    /// (pentanomial: 0 to 2 points, fishtest's model) an opening's two games count as
    /// one observation, as the test needs when they depend on each other: with a strong
    /// first-move advantage most pairs split 1-1, and single games overstate the noise.
    /// Each model gives 0 until two kinds of result are in.
    pub fn llr(&self, t: &Tally, pairs: &[u32; 5]) -> (f64, Model) {
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        if pair_moments(pairs).is_some() {
            return (gsprt(pairs, s0, s1), Model::Pairs);
        }
        let by_score = [t.losses, t.draws, t.wins];
        if by_score.iter().filter(|&&c| c > 0).count() < 2 {
            return (0.0, Model::Games);
        }
        (gsprt(&by_score, s0, s1), Model::Games)
    }

    /// The decision once the LLR crosses a bound.
    pub fn decision(&self, t: &Tally, pairs: &[u32; 5]) -> Option<Decision> {
        let (llr, _) = self.llr(t, pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Decision::H1)
        } else if llr <= lower {
            Some(Decision::H0)
        } else {
            None
        }
    }
}

/// The generalized SPRT's log-likelihood ratio of fishtest (`LLRcalc.py`, Michel Van
/// den Bergh): `counts[k]` observations scored `k / (counts.len() - 1)`, with observed
/// frequencies `f`; `p0` and `p1` are the distributions of largest likelihood for `f`
/// whose mean score is `s0` and `s1`, and `LLR = N sum f_k ln(p1_k / p0_k)`. An outcome
/// never seen counts 1e-3 (fishtest's regularization), so that both fits exist. Its
/// normal approximation `N (s1 - s0)(2 mu - s0 - s1) / (2 var)` (c-gomoku-cli's) runs
/// high where most observations are one outcome, as Gomoku's split pairs are: 3.19
/// against 2.42 for pairs [0, 0, 94, 6, 0], past the usual bound of 2.94 where the
/// exact ratio is not.
fn gsprt(counts: &[u32], s0: f64, s1: f64) -> f64 {
    let last = (counts.len() - 1) as f64;
    let weights: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let n: f64 = weights.iter().sum();
    let f: Vec<f64> = weights.iter().map(|w| w / n).collect();
    let a = |k: usize| k as f64 / last;
    // The fit of mean `s`: p_k = f_k / (1 + x (a_k - s)), x the root of
    // sum f_k (a_k - s) / (1 + x (a_k - s)) (decreasing in x) where every denominator
    // is positive, -1 / (1 - s) < x < 1 / s.
    let fit = |s: f64| -> Vec<f64> {
        let g = |x: f64| {
            (0..f.len())
                .map(|k| f[k] * (a(k) - s) / (1.0 + x * (a(k) - s)))
                .sum::<f64>()
        };
        let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if g(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let x = 0.5 * (lo + hi);
        (0..f.len())
            .map(|k| f[k] / (1.0 + x * (a(k) - s)))
            .collect()
    };
    let (p0, p1) = (fit(s0), fit(s1));
    n * (0..f.len())
        .map(|k| f[k] * (p1[k] / p0[k]).ln())
        .sum::<f64>()
}

/// What an LLR was computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// Opening pairs, five outcomes.
    Pairs,
    /// Single games: win, draw, loss.
    Games,
}

impl Model {
    pub fn name(self) -> &'static str {
        match self {
            Model::Pairs => "pentanomial, by opening pairs",
            Model::Games => "trinomial, by games",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_PAIRS: [u32; 5] = [0; 5];

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn pairs_by_hand() {
        // 10 pairs: 6 split 1-1, 2 at 3/2, 2 won twice: mu 0.65, var 0.04, se 0.063246;
        // Elo 107.54, interval 0.77396 / 0.52604 -> 213.8 / 18.1, margin 97.85.
        let (elo, margin) = pair_elo_with_margin(&[0, 0, 6, 2, 2]).unwrap();
        assert!(
            close(elo, 107.5381, 1e-3) && close(margin, 97.8504, 1e-3),
            "{elo} {margin}"
        );
        // Every pair split: no variance to judge by.
        assert_eq!(pair_elo_with_margin(&[0, 0, 9, 0, 0]), None);
    }

    #[test]
    fn elo_and_interval_by_hand() {
        // 10-5-5: mu = 12.5/20 = 0.625, Elo = -400 log10(0.6) = 88.74.
        // var = (10*0.375^2 + 5*0.625^2 + 5*0.125^2) / 20 = 3.4375/20 = 0.171875,
        // se = sqrt(0.171875/20) = 0.092702; mu ± 1.96 se = 0.80670 / 0.44330,
        // Elo 248.19 / -39.57, margin (248.19 + 39.57) / 2 = 143.87.
        let t = Tally {
            wins: 10,
            losses: 5,
            draws: 5,
        };
        assert_eq!(t.score(), 0.625);
        assert!(close(t.variance(), 0.171875, 1e-12));
        let (elo, margin) = elo_with_margin(&t);
        assert!(close(elo, 88.7395, 1e-3), "{elo}");
        assert!(close(margin, 143.8749, 1e-3), "{margin}");
        // 30-10-0: mu 0.75, Elo 400 log10(3) = 190.85, margin 135.58.
        let (elo, margin) = elo_with_margin(&Tally {
            wins: 30,
            losses: 10,
            draws: 0,
        });
        assert!(close(elo, 190.8485, 1e-3) && close(margin, 135.5792, 1e-3));
        // Even score: 0 Elo; all wins: infinite.
        let even = Tally {
            wins: 3,
            losses: 3,
            draws: 4,
        };
        assert_eq!(elo_with_margin(&even).0, 0.0);
        let all = Tally {
            wins: 4,
            ..Tally::default()
        };
        assert_eq!(elo_with_margin(&all).0, f64::INFINITY);
        assert!(close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12));
    }

    #[test]
    fn sprt_by_hand() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        // Bounds ln(0.05/0.95) = -2.9444, ln(0.95/0.05) = 2.9444.
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.94444, 1e-4) && close(hi, 2.94444, 1e-4));
        // Expected values from an independent transcription of fishtest's LLRcalc.py
        // (maximum-likelihood fits by bisection, 1e-3 for outcomes never seen).
        // 10-5-5 (s0 = 0.5, s1 = 0.514387): 0.181119 (the normal approximation: 0.197225).
        let t = Tally {
            wins: 10,
            losses: 5,
            draws: 5,
        };
        assert!(close(sprt.llr(&t, &NO_PAIRS).0, 0.181119, 1e-5));
        assert_eq!(sprt.decision(&t, &NO_PAIRS), None);
        // 30-10-0: 0.559094 (approximation 0.745237).
        let t = Tally {
            wins: 30,
            losses: 10,
            draws: 0,
        };
        assert!(close(sprt.llr(&t, &NO_PAIRS).0, 0.559094, 1e-5));
        // Many wins: H1; many losses: H0; a single kind of result: no LLR yet.
        let good = Tally {
            wins: 300,
            losses: 100,
            draws: 0,
        };
        assert_eq!(sprt.decision(&good, &NO_PAIRS), Some(Decision::H1));
        let bad = Tally {
            wins: 100,
            losses: 300,
            draws: 0,
        };
        assert_eq!(sprt.decision(&bad, &NO_PAIRS), Some(Decision::H0));
        let only_wins = Tally {
            wins: 50,
            ..Tally::default()
        };
        assert_eq!(sprt.llr(&only_wins, &NO_PAIRS), (0.0, Model::Games));
        assert!(Sprt::parse("10,0,0.05,0.05").is_none());
        assert!(Sprt::parse("0,20000,0.05,0.05").is_none());
        assert!(Sprt::parse("-20000,0,0.05,0.05").is_none());
        assert!(Sprt::parse("0,inf,0.05,0.05").is_none());
        // Pairs take over once two kinds are in: [0, 0, 6, 2, 2] gives 0.283555
        // (approximation 0.513646), the same games' W-L-D (one way the pairs may have
        // split: 12-6-2) 0.182775.
        let pairs = [0, 0, 6, 2, 2];
        let (llr, model) = sprt.llr(
            &Tally {
                wins: 12,
                losses: 6,
                draws: 2,
            },
            &pairs,
        );
        assert!(close(llr, 0.283555, 1e-5) && model == Model::Pairs, "{llr}");
        let games = sprt
            .llr(
                &Tally {
                    wins: 12,
                    losses: 6,
                    draws: 2,
                },
                &NO_PAIRS,
            )
            .0;
        assert!(close(games, 0.182775, 1e-5), "{games}");
        // Mostly split pairs, where the approximation ran 30 % high (3.186).
        let (llr, _) = sprt.llr(&Tally::default(), &[0, 0, 94, 6, 0]);
        assert!(close(llr, 2.418785, 1e-5), "{llr}");
        let (llr, _) = sprt.llr(&Tally::default(), &[34, 2, 125, 0, 39]);
        assert!(close(llr, 0.088008, 1e-5), "{llr}");
        // One kind of pair only (every pair split): the games decide, as before.
        assert_eq!(sprt.llr(&t, &[0, 0, 20, 0, 0]).1, Model::Games);
        assert!(Sprt::parse("0,10,0.05").is_none());
    }
}
