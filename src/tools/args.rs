//! The command-line value checks the tools and the match runner share: a value out of
//! its range is refused when parsed, with the range in the message.

use std::str::FromStr;

use crate::search::MAX_DEPTH;

/// A search depth, 1 to the deepest iteration the search runs.
pub fn depth() -> clap::builder::RangedI64ValueParser<i32> {
    clap::value_parser!(i32).range(1..=MAX_DEPTH as i64)
}

/// A count of at least one.
pub fn at_least_one<T: FromStr + PartialOrd + From<u8>>(s: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .ok()
        .filter(|n| *n >= T::from(1))
        .ok_or_else(|| "wants a whole number of at least 1".into())
}

/// A share, from 0 to 1.
pub fn share<T: FromStr + PartialOrd + From<f32>>(s: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .ok()
        .filter(|x| *x >= T::from(0.0) && *x <= T::from(1.0))
        .ok_or_else(|| "wants a number from 0 to 1".into())
}

/// A finite number of at least 0.
pub fn non_negative(s: &str) -> Result<f32, String> {
    s.trim()
        .parse()
        .ok()
        .filter(|x: &f32| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| "wants a number of at least 0".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_out_of_range_are_refused() {
        assert_eq!(at_least_one::<usize>("3"), Ok(3));
        assert!(at_least_one::<usize>("0").is_err());
        assert!(at_least_one::<u64>("-1").is_err());
        assert_eq!(share::<f32>("0.2"), Ok(0.2));
        assert_eq!(share::<f64>("1"), Ok(1.0));
        assert!(share::<f32>("5").is_err());
        assert!(share::<f32>("-3").is_err());
        assert!(share::<f32>("NaN").is_err());
        assert!(non_negative("-1").is_err());
        assert!(non_negative("inf").is_err());
        assert_eq!(non_negative("0"), Ok(0.0));
    }
}
