//! Ferrum: a Gomoku/Renju engine for the Gomocup ("pbrain") protocol.

pub mod arena;
pub mod bench;
pub mod board;
pub mod engine;
pub mod eval;
pub mod logging;
pub mod protocol;
pub mod search;
pub mod sysmem;
pub mod tactics;
pub mod timeman;
pub mod tt;

pub mod tools {
    //! Helpers for the command-line tools and tests.
    pub mod analyze;
    pub mod json;
    pub mod move_scan;
    pub mod sample;
    pub mod solve;
    pub mod tune;
}
