//! Logging to a size-bounded file, never to stdout or stderr (both belong to the
//! manager). The target is chosen by `--log FILE`, else the `FERRUM_LOG` environment
//! variable, else a `ferrum/` sub-folder of the manager's `INFO folder`; with none of
//! these, log lines are dropped. A thread of its own writes the file, so a slow disk
//! never holds up an answer.

use simplelog::{ConfigBuilder, LevelFilter, WriteLogger};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A log file grows to this size, then moves to `<name>.old` and starts again, so the
/// log never holds more than twice this.
pub const MAX_LOG_BYTES: u64 = 4 << 20;

/// Lines waiting for the writer thread; more are dropped: no thread of the engine ever
/// waits for the disk (the protocol thread's answers are timed).
const QUEUE_LINES: usize = 4096;

/// How long `flush` waits for the writer (before the process exits).
const FLUSH_WAIT: Duration = Duration::from_millis(200);

/// The writer thread's name.
const WRITER: &str = "log";

enum Message {
    Line(Vec<u8>),
    Open(PathBuf),
    Flushed(mpsc::Sender<()>),
}

#[derive(Default)]
struct Queue {
    /// To the writer thread, once a file was set.
    sender: Option<SyncSender<Message>>,
    /// The start of a line being written in pieces (the logger writes a record's
    /// fields one by one): only whole lines are queued.
    partial: Vec<u8>,
}

/// Where log lines go: a writer thread that owns the file, fed whole lines through a
/// bounded queue. It can be pointed at a file after start-up.
#[derive(Clone, Default)]
pub struct LogSink {
    queue: Arc<Mutex<Queue>>,
}

impl LogSink {
    /// Installs the global logger writing to this sink (once per process; later calls
    /// do nothing, which keeps tests that build several sessions working).
    pub fn install() -> LogSink {
        let sink = LogSink::default();
        let config = ConfigBuilder::new().set_time_format_rfc3339().build();
        let _ = WriteLogger::init(LevelFilter::Info, config, sink.clone());
        sink
    }

    /// Directs the log to `path` (appending), from the writer thread. Errors are
    /// ignored: logging must never stop the engine.
    pub fn set_file(&self, path: &Path) {
        let Ok(mut queue) = self.queue.lock() else {
            return;
        };
        if queue.sender.is_none() {
            let (sender, lines) = mpsc::sync_channel(QUEUE_LINES);
            let spawned = std::thread::Builder::new()
                .name(WRITER.into())
                .spawn(move || write_lines(lines));
            if spawned.is_err() {
                return;
            }
            queue.sender = Some(sender);
        }
        if let Some(sender) = &queue.sender {
            let _ = sender.try_send(Message::Open(path.to_path_buf()));
        }
    }
}

impl Write for LogSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let Ok(mut queue) = self.queue.lock() else {
            return Ok(buf.len());
        };
        let Queue { sender, partial } = &mut *queue;
        let Some(sender) = sender else {
            return Ok(buf.len());
        };
        partial.extend_from_slice(buf);
        if let Some(end) = partial.iter().rposition(|&b| b == b'\n') {
            let rest = partial.split_off(end + 1);
            let lines = std::mem::replace(partial, rest);
            let _ = sender.try_send(Message::Line(lines));
        }
        Ok(buf.len())
    }

    /// Waits (a bounded time) until the lines queued so far are in the file: called
    /// before the process exits.
    fn flush(&mut self) -> std::io::Result<()> {
        self.sync(FLUSH_WAIT);
        Ok(())
    }
}

impl LogSink {
    /// Waits at most `limit` until the lines queued so far are in the file (never on
    /// the writer thread itself: a panic there would wait for its own answer).
    fn sync(&self, limit: Duration) {
        if std::thread::current().name() == Some(WRITER) {
            return;
        }
        let Some(sender) = self.queue.lock().ok().and_then(|q| q.sender.clone()) else {
            return;
        };
        let deadline = Instant::now() + limit;
        let (ack, flushed) = mpsc::channel();
        let mut message = Message::Flushed(ack);
        loop {
            match sender.try_send(message) {
                Ok(()) => break,
                Err(TrySendError::Full(m)) if Instant::now() < deadline => {
                    message = m;
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(_) => return,
            }
        }
        let _ = flushed.recv_timeout(deadline.saturating_duration_since(Instant::now()));
    }
}

struct Target {
    path: PathBuf,
    file: File,
    written: u64,
}

impl Target {
    fn open(path: &Path) -> Option<Target> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()?;
        let written = file.metadata().map(|m| m.len()).unwrap_or(0);
        Some(Target {
            path: path.to_path_buf(),
            file,
            written,
        })
    }

    fn write(&mut self, buf: &[u8]) {
        let after = self.written + buf.len() as u64;
        if after > MAX_LOG_BYTES {
            let old = self.path.with_extension("log.old");
            // On Windows the rename fails while another program holds the file (a
            // viewer following it): the log then goes on, and is emptied only at twice
            // the size, so that it stays bounded.
            let moved = std::fs::rename(&self.path, &old).is_ok();
            if moved || after > 2 * MAX_LOG_BYTES {
                if let Ok(f) = File::create(&self.path) {
                    self.file = f;
                }
                self.written = 0;
            }
        }
        if self.file.write_all(buf).is_ok() {
            self.written += buf.len() as u64;
        }
    }
}

/// The writer thread: the file's only user.
fn write_lines(messages: Receiver<Message>) {
    let mut target: Option<Target> = None;
    for message in messages {
        match message {
            Message::Line(bytes) => {
                if let Some(t) = target.as_mut() {
                    t.write(&bytes);
                }
            }
            Message::Open(path) => target = Target::open(&path).or(target),
            Message::Flushed(ack) => {
                if let Some(t) = target.as_mut() {
                    let _ = t.file.flush();
                }
                let _ = ack.send(());
            }
        }
    }
}

/// Panics are logged, never printed to stderr.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        log::error!("panic: {info}");
        // The process may end with the panic: the line must reach the file first.
        log::logger().flush();
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_file_is_bounded() {
        let dir = std::env::temp_dir().join(format!("ferrum-log-test-{}", std::process::id()));
        let path = dir.join("test.log");
        let mut sink = LogSink::default();
        sink.set_file(&path);
        let mut line = vec![b'x'; 999];
        line.push(b'\n');
        for i in 0..(3 * MAX_LOG_BYTES / 1000) {
            sink.write_all(&line).unwrap();
            if i % 1000 == 0 {
                // The queue drops what the writer cannot take: let it keep up.
                sink.sync(Duration::from_secs(10));
            }
        }
        sink.sync(Duration::from_secs(10));
        let size = std::fs::metadata(&path).unwrap().len();
        let old = std::fs::metadata(path.with_extension("log.old"))
            .unwrap()
            .len();
        assert!(size <= MAX_LOG_BYTES && old <= MAX_LOG_BYTES);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A rotation that cannot move the log aside keeps the log (up to twice the size).
    #[test]
    fn a_log_that_cannot_be_moved_aside_is_kept() {
        let dir = std::env::temp_dir().join(format!("ferrum-log-kept-{}", std::process::id()));
        let path = dir.join("kept.log");
        let mut target = Target::open(&path).unwrap();
        // A folder where the old log would go: the rename fails, as a held file's does.
        std::fs::create_dir_all(path.with_extension("log.old").join("x")).unwrap();
        let mut line = vec![b'x'; 999];
        line.push(b'\n');
        let lines = MAX_LOG_BYTES / 1000 + 10;
        for _ in 0..lines {
            target.write(&line);
        }
        assert_eq!(std::fs::metadata(&path).unwrap().len(), lines * 1000);
        for _ in 0..lines {
            target.write(&line);
        }
        assert!(std::fs::metadata(&path).unwrap().len() < MAX_LOG_BYTES);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The logger writes a record in pieces; the file gets whole lines, in order.
    #[test]
    fn pieces_make_whole_lines() {
        let dir = std::env::temp_dir().join(format!("ferrum-log-lines-{}", std::process::id()));
        let path = dir.join("lines.log");
        let mut sink = LogSink::default();
        sink.write_all(b"before any file\n").unwrap();
        sink.set_file(&path);
        for piece in ["a", "b\nc", "d\n", "e"] {
            sink.write_all(piece.as_bytes()).unwrap();
        }
        sink.sync(Duration::from_secs(10));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "ab\ncd\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
