//! Board and rules: positions, incremental line patterns, Zobrist hashing, win
//! detection per rule and renju forbidden points.

pub mod cell_scores;
pub mod combo;
mod forbid;
pub mod pattern;
mod pattern_board;
pub mod types;
pub mod zobrist;

pub use forbid::{us_may_not_play, ForbidKind};
pub use pattern::{Pattern, RuleTables, Threat};
pub use pattern_board::Board;
pub use types::{Cell, Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
