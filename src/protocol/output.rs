//! Writing protocol lines: LF endings, one write and one flush per line, each line
//! logged after it is out.

use std::io::Write;

pub struct Output {
    out: Box<dyn Write + Send>,
}

impl Output {
    pub fn new() -> Output {
        Output::to(Box::new(std::io::stdout()))
    }

    /// Lines to `out` instead of stdout (the session's tests read them).
    pub fn to(out: Box<dyn Write + Send>) -> Output {
        Output { out }
    }

    /// The line goes out before it is logged: a log file's write can stall on a busy
    /// disk, and the manager's clock is running.
    pub fn line(&mut self, text: &str) {
        let mut bytes = Vec::with_capacity(text.len() + 1);
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(b'\n');
        // A closed stdout means the manager is gone; the reader will see EOF and exit.
        let _ = self.out.write_all(&bytes);
        let _ = self.out.flush();
        log::info!(">> {text}");
    }
}
