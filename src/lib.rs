//! Ferrum: a Gomoku/Renju engine for the Gomocup ("pbrain") protocol.

pub mod bench;
pub mod board;
pub mod cores;
pub mod engine;
pub mod eval;
pub mod fit;
pub mod logging;
pub mod manager;
pub mod net;
pub mod openings;
pub mod protocol;
pub mod record;
pub mod rng;
pub mod search;
pub mod selfplay;
pub mod sysmem;
pub mod tactics;
pub mod timeman;
pub mod tt;
#[cfg(feature = "board")]
pub mod web;

pub mod tools {
    //! The subcommands of `pbrain-ferrum` other than the protocol.
    pub mod analyze;
    pub mod args;
    pub mod move_scan;
    pub mod parallel;
    pub mod progress;
    pub mod sample;
    pub mod selfplay;
    pub mod solve;
    pub mod train;
    pub mod tune;
}
