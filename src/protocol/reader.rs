//! The stdin reader thread: splits the byte stream into lines on CR, LF or CRLF and
//! stamps each line with its arrival time, so that a move's clock starts when the
//! manager sent the command and not when the session got round to it.

use super::Event;
use std::io::Read;
use std::sync::mpsc::Sender;
use std::time::Instant;

/// Lines longer than this are cut (a manager never sends one; a broken pipe might).
const MAX_LINE: usize = 1 << 16;

pub fn spawn(events: Sender<Event>) {
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(std::io::stdin().lock(), events))
        .expect("spawning the stdin reader thread");
}

fn read_lines(mut input: impl Read, events: Sender<Event>) {
    let mut buf = [0u8; 4096];
    let mut line: Vec<u8> = Vec::new();
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        for &b in &buf[..n] {
            if b == b'\n' || b == b'\r' {
                if !line.is_empty() && !emit(&events, &mut line) {
                    return;
                }
            } else if line.len() < MAX_LINE {
                line.push(b);
            }
        }
    }
    if !line.is_empty() {
        emit(&events, &mut line);
    }
    let _ = events.send(Event::Eof);
}

fn emit(events: &Sender<Event>, line: &mut Vec<u8>) -> bool {
    // A byte-order mark (a Windows editor's script) is not part of the command.
    let text = String::from_utf8_lossy(line)
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
        .to_string();
    line.clear();
    text.is_empty() || events.send(Event::Line(text, Instant::now())).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_and_trimmed() {
        let (events, lines) = std::sync::mpsc::channel();
        let input: &[u8] = b"\xef\xbb\xbfSTART 15\r\n\r\n  ABOUT \rEND";
        read_lines(input, events);
        let got: Vec<String> = lines
            .iter()
            .filter_map(|e| match e {
                Event::Line(text, _) => Some(text),
                _ => None,
            })
            .collect();
        assert_eq!(got, ["START 15", "ABOUT", "END"]);
    }
}
