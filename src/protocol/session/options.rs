//! INFO keys and what they size: the table, threads, limits, rule, log, evaluation.

use super::{lock, Opening, Session};
use crate::board::Rule;
use crate::engine::default_threads;
use crate::net::file::NetWeights;
use std::sync::Arc;

impl Session {
    /// Sizes the TT from max_memory, hash_size, the solvers' tables and the thread
    /// count (only between searches; the table is made at the next search).
    pub(super) fn size_tt(&mut self) {
        let (max_memory, hash_kb) = (self.max_memory, self.hash_kb);
        self.with_engine(move |engine| {
            let hash_bytes = hash_kb.map(|kb| kb.saturating_mul(1024));
            if let Some(bytes) = engine.size_tt(max_memory, hash_bytes) {
                log::info!(
                    "TT: {} MiB, solver tables: {} MiB",
                    bytes >> 20,
                    engine.solver_bytes() >> 20
                );
            }
        });
    }

    /// The networks the engine may use and whether it starts with them.
    pub fn set_nets(&mut self, nets: &[Arc<NetWeights>], use_net: bool) {
        lock(&self.engine).set_nets(nets, use_net);
    }

    pub(super) fn info(&mut self, key: &str, value: &str) {
        let int = value.trim().parse::<i64>().ok();
        match (key, int) {
            ("timeout_turn", Some(v)) => self.time.turn_ms = Some(v.max(0) as u64),
            ("timeout_match", Some(v)) => self.time.set_match(v),
            ("time_left", Some(v)) => self.time.set_left(v),
            // A negative size is no size: ignored, not read as 0 (no limit).
            ("max_memory", Some(v)) if v >= 0 => {
                self.max_memory = v as u64;
                self.size_tt();
            }
            ("hash_size", Some(v)) => {
                self.hash_kb = (v > 0).then_some(v as u64);
                self.size_tt();
            }
            ("thread_num", Some(v)) => {
                // No more than the cores: a manager passes on what its user typed, and
                // more threads than cores only delay the answer.
                let n = if v > 0 {
                    (v as usize).min(default_threads())
                } else {
                    default_threads()
                };
                log::info!("search threads: {n}");
                self.with_engine(move |engine| engine.set_threads(n));
                // Each thread has a solver table of its own, within max_memory.
                if self.max_memory > 0 {
                    self.size_tt();
                }
            }
            ("max_depth", Some(v)) => self.max_depth = if v > 0 { v.min(100) as i32 } else { 100 },
            ("max_node", Some(v)) => self.max_nodes = if v > 0 { v as u64 } else { u64::MAX },
            ("rule", Some(v)) => {
                if let Some(rule) = Rule::from_gomocup(v) {
                    self.opening = match v {
                        5 => Opening::Swap1,
                        6 => Opening::Swap2,
                        _ => Opening::Free,
                    };
                    if rule != self.rule {
                        self.clear_table();
                    }
                    self.rule = rule;
                    if let Some(b) = &self.board {
                        self.board = Some(b.with_rule(rule));
                    }
                }
            }
            // A folder that came in another encoding than UTF-8 (an ANSI manager's
            // `C:\Users\Müller`) reads with replacement characters: a folder of that
            // name would be a new one, or one the engine may not create.
            ("folder", _) if value.contains(char::REPLACEMENT_CHARACTER) => {
                log::info!("INFO folder {value}: not UTF-8, not used")
            }
            ("folder", _) if !self.log_explicit && !value.is_empty() => {
                let path = std::path::Path::new(value)
                    .join("ferrum")
                    .join("ferrum.log");
                self.log.set_file(&path);
            }
            // Yixin-Board: 0 nothing, 1 realtime, 2 detail, 3 both (Rapfi's reading).
            // Only the realtime lines are MESSAGE lines; the detail form is not sent.
            ("show_detail", Some(v)) => self.realtime = v & 1 != 0,
            ("swapable", Some(v)) => self.swapable = v == 1,
            // Our own key: `INFO eval net` or `INFO eval classical` (`--eval`).
            ("eval", _) if matches!(value.trim(), "net" | "classical") => {
                let use_net = value.trim() == "net";
                self.with_engine(move |engine| engine.set_use_net(use_net));
                // The table's scores are the other evaluation's.
                self.clear_table();
            }
            // game_type, evaluate, pondering (we never think on the opponent's time),
            // caution_factor (the candidate range is the search's own) and unknown
            // keys need nothing from us.
            _ => log::info!("INFO {key} {value} ignored"),
        }
    }
}
