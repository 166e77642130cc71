//! The Gomocup ("pbrain") protocol front end: the only code that writes stdout.

pub mod command;
pub mod jobs;
mod output;
mod reader;
mod session;

use crate::logging::LogSink;
use crate::net::file::NetWeights;
use jobs::{Job, JobEvent, Outcome};
use std::sync::Arc;
use std::time::Instant;

/// What the session loop waits for: manager lines (from the reader thread) and
/// search news (from the search thread).
pub enum Event {
    Line(String, Instant),
    Eof,
    /// News and the end of search number n (`Session` numbers them).
    Job(u64, JobEvent),
    Done(u64, Job, Outcome),
}

/// Runs the protocol on stdin/stdout until END or end of input. `nets`: the networks
/// the engine may evaluate with, `use_net` whether it starts with them (`INFO eval`
/// switches).
pub fn run(
    log: LogSink,
    log_explicit: bool,
    threads: Option<usize>,
    nets: &[Arc<NetWeights>],
    use_net: bool,
) -> ! {
    let (tx, rx) = std::sync::mpsc::channel();
    reader::spawn(tx.clone());
    // The rules' pattern tables are built while the manager is still starting us, so
    // that START and `INFO rule` find them ready (a START that comes first waits for
    // the rest of the build, about a millisecond).
    let _ = std::thread::Builder::new()
        .name("tables".into())
        .spawn(|| crate::board::Rule::ALL.map(crate::board::RuleTables::get));
    let mut session = session::Session::new(tx, log, log_explicit, threads);
    session.set_nets(nets, use_net);
    session.run(rx)
}
