//! A `pbrain-ferrum` process for the tests that talk to the real binary line by line.

use std::io::{BufRead, BufReader, Lines, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
}

impl EngineProcess {
    /// The engine with no arguments, as a manager starts it (each test binary compiles
    /// this module; not all call it).
    #[allow(dead_code)]
    pub fn start() -> EngineProcess {
        EngineProcess::start_with(&[])
    }

    /// The engine started with command-line `args`.
    pub fn start_with(args: &[&str]) -> EngineProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-ferrum"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        EngineProcess {
            child,
            stdin,
            lines,
        }
    }

    /// The process id (each test binary compiles this module; not all read it).
    #[allow(dead_code)]
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes `text` (whole lines, newlines included) without waiting for an answer.
    pub fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Writes `text`, then returns the next line that is not MESSAGE or DEBUG.
    pub fn reply(&mut self, text: &str) -> String {
        self.send(text);
        loop {
            let line = self.lines.next().expect("a reply").unwrap();
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return line;
            }
        }
    }

    /// Writes `text`, then returns every line up to and including the next one that is
    /// not MESSAGE or DEBUG (each test binary compiles this module; not all call it).
    #[allow(dead_code)]
    pub fn reply_lines(&mut self, text: &str) -> Vec<String> {
        self.send(text);
        let mut lines = Vec::new();
        loop {
            let line = self.lines.next().expect("a reply").unwrap();
            let done = !line.starts_with("MESSAGE") && !line.starts_with("DEBUG");
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// `END`, then waits for the process to exit.
    pub fn end(mut self) {
        self.send("END\n");
        drop(self.stdin);
        self.child.wait().unwrap();
    }
}
