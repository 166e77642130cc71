//! The learned evaluation: line-shape features, the network and its trainer.

pub mod accumulator;
pub mod file;
pub mod inference;
pub mod model;
pub mod shape;
pub mod train;
