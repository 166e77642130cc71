//! Writing protocol lines: LF endings, one flush per line, each line logged.

use std::io::Write;

pub struct Output {
    out: std::io::Stdout,
}

impl Output {
    pub fn new() -> Output {
        Output {
            out: std::io::stdout(),
        }
    }

    pub fn line(&mut self, text: &str) {
        log::info!(">> {text}");
        let mut lock = self.out.lock();
        // A closed stdout means the manager is gone; the reader will see EOF and exit.
        let _ = lock.write_all(text.as_bytes());
        let _ = lock.write_all(b"\n");
        let _ = lock.flush();
    }
}
