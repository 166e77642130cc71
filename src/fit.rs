//! One-dimensional fits shared by the tools: the scale that turns evaluation or search
//! scores into win probabilities (the tuner's K, the trainer's score scale).

/// The minimum of `f` on `[lo, hi]`, where `f` has one (golden-section search, 40
/// steps: to within 5e-9 of the interval).
pub fn golden_section_min(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if f(a) < f(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_minimum() {
        let x = golden_section_min(10.0, 5000.0, |x| (x - 421.0).powi(2));
        assert!((x - 421.0).abs() < 0.01, "{x}");
    }
}
