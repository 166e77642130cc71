//! One engine process: spawn, line-by-line reading with deadlines, shutdown.
//!
//! A reader thread turns the engine's stdout into lines on a bounded channel, so every
//! read can wait with `recv_timeout`: the runner never blocks on an engine that prints
//! nothing, prints garbage forever or ignores `END`.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

/// Lines kept waiting in the channel. Bounded so that an engine printing garbage
/// forever blocks on its own pipe instead of filling our memory.
const CHANNEL_LINES: usize = 256;
/// Longer lines are cut (the rest up to the newline is dropped): no move or name is
/// this long, and an endless line without newline must not grow without bound.
const MAX_LINE_BYTES: usize = 4096;
/// How long `close` waits for the process to exit after `END` before killing it.
pub const END_GRACE: Duration = Duration::from_secs(1);
/// How long an engine may take to answer `ABOUT` at start.
pub const ABOUT_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a read returned no line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed.
    Timeout,
    /// stdout was closed: the process exited or crashed.
    Closed,
}

/// A running engine process.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Each line with the moment the reader thread had it whole.
    lines: Receiver<(String, Instant)>,
    /// The program's file name, the fallback engine name.
    program: String,
}

impl Process {
    /// Starts `cmd` (program and arguments). stderr goes to /dev/null because some
    /// engines write a lot there and nobody would drain it.
    pub fn spawn(cmd: &[String]) -> Result<Process> {
        let Some((program, args)) = cmd.split_first() else {
            bail!("empty engine command");
        };
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            // Ferrum's log variable names one file: engines a manager runs side by side
            // would write and rotate it at once (each engine's own is `--log`).
            .env_remove("FERRUM_LOG");
        // Own process group, so that a kill also reaches the engine's children (a shell
        // script's `sleep`, a wrapper's real engine), which would otherwise keep the
        // pipe open and live on.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .with_context(|| format!("cannot start engine `{}`", cmd.join(" ")))?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::sync_channel(CHANNEL_LINES);
        thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || read_lines(stdout, tx))
            .context("cannot start reader thread")?;
        let program = std::path::Path::new(program)
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| program.clone());
        Ok(Process {
            child,
            stdin,
            lines: rx,
            program,
        })
    }

    /// The program's file name.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// Writes one line (LF-terminated) and flushes. `false` when the pipe is broken,
    /// which means the engine is gone.
    pub fn send(&mut self, line: &str) -> bool {
        log::debug!("{} <- {}", self.program, line);
        let Some(stdin) = self.stdin.as_mut() else {
            return false;
        };
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|_| stdin.flush())
            .is_ok()
    }

    /// The next line, waiting until `deadline` at most.
    pub fn read_line(&self, deadline: Instant) -> Result<String, ReadError> {
        self.read_timed_line(deadline).map(|(line, _)| line)
    }

    /// The next line and when it arrived: a move is timed by its arrival, not by when
    /// a busy manager thread got to read it.
    pub fn read_timed_line(&self, deadline: Instant) -> Result<(String, Instant), ReadError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((line, at)) => {
                log::debug!("{} -> {}", self.program, line);
                Ok((line, at))
            }
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
        }
    }

    /// Drops every line already received (late output of an earlier command), so that
    /// it is not taken as the answer to the next one. `false` if stdout is closed.
    pub fn drain(&self) -> bool {
        loop {
            match self.lines.try_recv() {
                Ok(_) => continue,
                Err(TryRecvError::Empty) => return true,
                Err(TryRecvError::Disconnected) => return false,
            }
        }
    }

    /// The peak resident memory so far of the process and the processes it started
    /// (an engine behind a wrapper script is one of those), summed (Linux: `VmHWM` in
    /// /proc; None elsewhere or once the process is gone).
    pub fn peak_memory(&self) -> Option<u64> {
        let mut total = peak_of(self.child.id())?;
        let mut stack = children_of(self.child.id());
        // A process tree is finite, but its pids could be reused while it is walked.
        let mut seen = 0;
        while let Some(pid) = stack.pop().filter(|_| seen < 1000) {
            seen += 1;
            total += peak_of(pid).unwrap_or(0);
            stack.extend(children_of(pid));
        }
        Some(total)
    }

    /// Sends `ABOUT` and returns the `name="..."` of the answer, if one came in time.
    pub fn about_name(&mut self) -> Option<String> {
        if !self.send("ABOUT") {
            return None;
        }
        // c-gomoku-cli takes the first line after ABOUT as the answer; so do we.
        let line = self.read_line(Instant::now() + ABOUT_TIMEOUT).ok()?;
        parse_about_name(&line)
    }

    /// Whether the process has exited (a crash between two requests).
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Ends the process politely: `END`, up to [`END_GRACE`] to exit, then kill.
    /// (Dropping a `Process` kills it at once.)
    pub fn close(mut self) {
        self.send("END");
        self.stdin = None; // EOF as well, for engines that stop on it.
        let deadline = Instant::now() + END_GRACE;
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // Drop kills whatever is left (children included) and reaps the process.
    }

    fn kill_now(&mut self) {
        #[cfg(unix)]
        {
            // The whole group: see `spawn`. Also when the leader already exited, its
            // children may still hold our pipe. No libc crate here, so use kill(1).
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", self.child.id())])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stdin = None;
        self.kill_now();
    }
}

/// The value of `name="..."` in an ABOUT answer.
pub fn parse_about_name(line: &str) -> Option<String> {
    let start = line.find("name=\"")? + "name=\"".len();
    let len = line[start..].find('"')?;
    let name = line[start..start + len].trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// A process's peak resident memory (`VmHWM`), in bytes.
fn peak_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The processes a process started (every thread's `children` list).
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .filter_map(|t| t.ok())
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|list| {
            list.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// Reader thread body: splits stdout into lines (CR, LF or CR LF), cuts very long lines,
/// and stops at EOF, at a read error or when the receiver is gone.
fn read_lines(stdout: impl Read, tx: SyncSender<(String, Instant)>) {
    let mut reader = BufReader::new(stdout);
    let mut line: Vec<u8> = Vec::new();
    let mut overlong = false;
    // The last line ended with CR: an LF right after it ends nothing more.
    let mut after_cr = false;
    loop {
        let (consumed, newline) = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok([b'\n', ..]) if after_cr => {
                after_cr = false;
                (1, false)
            }
            Ok(buf) => match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => {
                    take(&mut line, &buf[..i], &mut overlong);
                    after_cr = buf[i] == b'\r';
                    (i + 1, true)
                }
                None => {
                    take(&mut line, buf, &mut overlong);
                    after_cr = false;
                    (buf.len(), false)
                }
            },
        };
        reader.consume(consumed);
        if newline {
            let text = String::from_utf8_lossy(&line).trim().to_string();
            line.clear();
            overlong = false;
            if !text.is_empty() && tx.send((text, Instant::now())).is_err() {
                return;
            }
        }
    }
    // A last line without newline still counts.
    let text = String::from_utf8_lossy(&line).trim().to_string();
    if !text.is_empty() {
        let _ = tx.send((text, Instant::now()));
    }
}

/// Appends `bytes` to `line` up to [`MAX_LINE_BYTES`].
fn take(line: &mut Vec<u8>, bytes: &[u8], overlong: &mut bool) {
    if *overlong {
        return;
    }
    let room = MAX_LINE_BYTES - line.len();
    if bytes.len() > room {
        line.extend_from_slice(&bytes[..room]);
        *overlong = true;
    } else {
        line.extend_from_slice(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_name() {
        let line = r#"name="Ferrum", version="0.1", author="x", country="y""#;
        assert_eq!(parse_about_name(line).as_deref(), Some("Ferrum"));
        assert_eq!(parse_about_name("garbage"), None);
        assert_eq!(parse_about_name(r#"name="""#), None);
    }

    #[test]
    fn lines_are_split_and_cut() {
        // CR LF, LF and CR alone each end a line (Piskvork's protocol allows all three).
        let input = format!("a\r\n\nb\r7,7\r{}\nlast", "x".repeat(10_000));
        let (tx, rx) = mpsc::sync_channel(16);
        read_lines(input.as_bytes(), tx);
        let got: Vec<String> = rx.iter().map(|(line, _)| line).collect();
        assert_eq!(got[..3], ["a", "b", "7,7"]);
        assert_eq!(got[3].len(), MAX_LINE_BYTES);
        assert_eq!(got[4], "last");
        assert_eq!(got.len(), 5);
        // A CR LF split across two reads is one line end.
        let (tx, rx) = mpsc::sync_channel(16);
        read_lines(std::io::Read::chain(&b"OK\r"[..], &b"\n8,8\n"[..]), tx);
        assert_eq!(rx.iter().map(|(l, _)| l).collect::<Vec<_>>(), ["OK", "8,8"]);
    }

    /// An engine behind a wrapper: its memory counts, not only the wrapper's.
    #[cfg(target_os = "linux")]
    #[test]
    fn peak_memory_counts_the_processes_started() {
        let script = "python3 -c 'x = bytearray(60 << 20); print(1, flush=True); \
                      import time; time.sleep(5)'; :";
        let p = Process::spawn(&["sh".into(), "-c".into(), script.into()]).unwrap();
        p.read_line(Instant::now() + Duration::from_secs(5))
            .unwrap();
        let peak = p.peak_memory().unwrap();
        assert!(peak > 60 << 20, "{peak} bytes");
    }

    /// A line is timed when it arrives, not when it is read.
    #[cfg(unix)]
    #[test]
    fn lines_carry_their_arrival() {
        let p = Process::spawn(&["sh".into(), "-c".into(), "echo 7,7; sleep 5".into()]).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let (line, at) = p.read_timed_line(Instant::now() + END_GRACE).unwrap();
        assert_eq!(line, "7,7");
        assert!(
            at.elapsed() >= Duration::from_millis(250),
            "{:?}",
            at.elapsed()
        );
    }
}
