//! Logging to a size-bounded file, never to stdout or stderr (both belong to the
//! manager). The target is chosen by `--log FILE`, else the `FERRUM_LOG` environment
//! variable, else a `ferrum/` sub-folder of the manager's `INFO folder`; with none of
//! these, log lines are dropped.

use simplelog::{ConfigBuilder, LevelFilter, WriteLogger};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A log file grows to this size, then moves to `<name>.old` and starts again, so the
/// log never holds more than twice this.
pub const MAX_LOG_BYTES: u64 = 4 << 20;

struct Target {
    path: PathBuf,
    file: File,
    written: u64,
}

/// Where log lines go; can be pointed at a file after start-up.
#[derive(Clone, Default)]
pub struct LogSink {
    target: Arc<Mutex<Option<Target>>>,
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

    /// Directs the log to `path` (appending). Errors are ignored: logging must never
    /// stop the engine.
    pub fn set_file(&self, path: &Path) {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let Ok(file) = OpenOptions::new().create(true).append(true).open(path) else {
            return;
        };
        let written = file.metadata().map(|m| m.len()).unwrap_or(0);
        if let Ok(mut t) = self.target.lock() {
            *t = Some(Target {
                path: path.to_path_buf(),
                file,
                written,
            });
        }
    }
}

impl Write for LogSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let Ok(mut guard) = self.target.lock() else {
            return Ok(buf.len());
        };
        if let Some(t) = guard.as_mut() {
            if t.written + buf.len() as u64 > MAX_LOG_BYTES {
                let old = t.path.with_extension("log.old");
                let _ = std::fs::rename(&t.path, &old);
                if let Ok(f) = File::create(&t.path) {
                    t.file = f;
                }
                t.written = 0;
            }
            if t.file.write_all(buf).is_ok() {
                t.written += buf.len() as u64;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if let Ok(mut guard) = self.target.lock() {
            if let Some(t) = guard.as_mut() {
                let _ = t.file.flush();
            }
        }
        Ok(())
    }
}

/// Panics are logged, never printed to stderr.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        log::error!("panic: {info}");
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
        let line = vec![b'x'; 1000];
        for _ in 0..(3 * MAX_LOG_BYTES / 1000) {
            sink.write_all(&line).unwrap();
        }
        sink.flush().unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        let old = std::fs::metadata(path.with_extension("log.old"))
            .unwrap()
            .len();
        assert!(size <= MAX_LOG_BYTES && old <= MAX_LOG_BYTES);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
