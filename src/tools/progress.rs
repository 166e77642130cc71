//! A one-line progress display on stderr for the long tools (solve, tune, the arena),
//! shown only when stderr is a terminal: redirected output and logs stay clean, and
//! stdout, which carries the tools' data, is never touched.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Redraws no more often than this: a terminal is slow next to a fast loop.
const REDRAW: Duration = Duration::from_millis(100);

/// Counts items done out of a total and redraws `label done/total note`.
pub struct Progress {
    label: String,
    total: usize,
    done: AtomicUsize,
    /// When the line was last drawn; `None` when stderr is no terminal.
    drawn: Option<Mutex<Instant>>,
}

impl Progress {
    pub fn new(label: impl Into<String>, total: usize) -> Progress {
        let shown = std::io::stderr().is_terminal();
        Progress {
            label: label.into(),
            total,
            done: AtomicUsize::new(0),
            drawn: shown.then(|| Mutex::new(Instant::now() - REDRAW)),
        }
    }

    /// Whether anything is drawn.
    pub fn shown(&self) -> bool {
        self.drawn.is_some()
    }

    /// Counts one item; `note` (made only when the line is redrawn) follows the count.
    pub fn tick(&self, note: impl FnOnce() -> String) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.draw(done, note);
    }

    fn draw(&self, done: usize, note: impl FnOnce() -> String) {
        let Some(drawn) = &self.drawn else {
            return;
        };
        let mut last = drawn.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() < REDRAW && done < self.total {
            return;
        }
        *last = Instant::now();
        let note = note();
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[K{} {done}/{} {note}", self.label, self.total);
        let _ = err.flush();
    }

    /// Clears the line, so that what follows starts on a clean one.
    pub fn finish(&self) {
        if self.drawn.is_some() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
