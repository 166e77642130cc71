//! The web board (`pbrain-ferrum board`) driven through its WebSocket as a page would:
//! games against Ferrum and a fixture engine, bad messages, foreign Host and Origin,
//! an engine that crashes, and the engine's end with the page and the server.
#![cfg(feature = "board")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-ferrum");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A board server on a free port, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(engine: &str) -> Server {
        let mut child = Command::new(BIN)
            .args(["board", "--port", "0", "--engine", engine])
            .stdout(Stdio::piped())
            .spawn()
            .expect("the board starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    fn ferrum() -> Server {
        Server::start(&format!("{BIN} --threads 1"))
    }

    fn fixture(name: &str) -> Server {
        Server::start(&format!("bash {ROOT}/tests/engines/{name}"))
    }

    /// A page's WebSocket, with an `Origin` header when given.
    fn page_with(&self, origin: Option<&str>) -> Result<Page, tungstenite::Error> {
        let mut request = format!("ws://{}/ws", self.addr).into_client_request()?;
        if let Some(o) = origin {
            request.headers_mut().insert("Origin", o.parse().unwrap());
        }
        let stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let (ws, _) = tungstenite::client(request, stream).map_err(|e| match e {
            tungstenite::HandshakeError::Failure(e) => e,
            other => panic!("{other}"),
        })?;
        let mut page = Page { ws };
        page.next("state", 10);
        Ok(page)
    }

    fn page(&self) -> Page {
        let origin = format!("http://{}", self.addr);
        self.page_with(Some(&origin)).expect("the page connects")
    }

    /// The raw answer's status line to a GET of `/` with this `Host`.
    fn get_status(&self, host: &str) -> String {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        write!(s, "GET / HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        answer.lines().next().unwrap_or("").to_string()
    }

    /// Engine processes started by the server (its children).
    fn children(&self) -> Vec<u32> {
        let mut pids = Vec::new();
        let tasks = format!("/proc/{}/task", self.child.id());
        for task in std::fs::read_dir(tasks).into_iter().flatten().flatten() {
            let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            pids.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<u32>().ok()),
            );
        }
        pids
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Page {
    ws: WebSocket<TcpStream>,
}

impl Page {
    fn send(&mut self, msg: Value) {
        self.ws.send(Message::text(msg.to_string())).unwrap();
    }

    /// The next message of `kind` within `secs` (others are skipped).
    fn next(&mut self, kind: &str, secs: u64) -> Value {
        self.until(secs, |m| m["type"] == kind)
    }

    /// The first message for which `check` holds, within `secs`.
    fn until(&mut self, secs: u64, mut check: impl FnMut(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < deadline {
            match self.ws.read() {
                Ok(Message::Text(t)) => {
                    let m: Value = serde_json::from_str(t.as_str()).unwrap();
                    if check(&m) {
                        return m;
                    }
                }
                Ok(_) => {}
                Err(e) if read_timed_out(&e) => {}
                Err(e) => panic!("connection ended: {e}"),
            }
        }
        panic!("nothing as expected within {secs} s");
    }

    /// Whether the server closes the connection within `secs`.
    fn closes(&mut self, secs: u64) -> bool {
        let deadline = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < deadline {
            match self.ws.read() {
                Ok(Message::Close(_)) => return true,
                Ok(_) => {}
                Err(e) if read_timed_out(&e) => {}
                Err(_) => return true,
            }
        }
        false
    }
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| !s.split(") ").nth(1).unwrap_or("").starts_with('Z'))
}

fn gone_within(pids: &[u32], secs: u64) -> bool {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < deadline {
        if pids.iter().all(|&p| !alive(p)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn a_human_plays_ferrum_and_sees_its_search() {
    let server = Server::ferrum();
    let mut page = server.page();
    page.send(json!({"type": "time", "ms": 200}));
    page.send(json!({"type": "new", "size": 15, "rule": "freestyle"}));
    page.send(json!({"type": "play", "x": 7, "y": 7}));
    let info = page.next("info", 10);
    assert!(!info["pv"].as_array().unwrap().is_empty(), "{info}");
    let state = page.until(10, |m| {
        m["type"] == "state" && m["moves"].as_array().unwrap().len() == 2
    });
    assert_eq!(state["to_move"], "black");
    assert!(state["evals"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e.is_i64()));
    // Taken, off the board: refused with a reason.
    page.send(json!({"type": "play", "x": 7, "y": 7}));
    assert!(page.next("error", 5)["message"]
        .as_str()
        .unwrap()
        .contains("taken"));
    page.send(json!({"type": "save", "format": "psq"}));
    let record = page.next("record", 5);
    assert!(record["text"]
        .as_str()
        .unwrap()
        .starts_with("Piskvorky 15x15"));
    page.send(json!({"type": "undo"}));
    let state = page.next("state", 5);
    assert_eq!(state["moves"], json!([]));
}

#[test]
fn a_game_against_another_engine_plays_to_its_result() {
    // The fixture plays the first free point row by row: against itself Black makes
    // five on the diagonal, which our referee must see.
    let server = Server::fixture("legal.sh");
    let mut page = server.page();
    page.send(json!({"type": "time", "ms": 200}));
    page.send(json!({"type": "players", "black": "engine", "white": "engine"}));
    let end = page.until(60, |m| m["type"] == "state" && !m["result"].is_null());
    assert_eq!(end["result"]["winner"], "black", "{end}");
    assert_eq!(end["result"]["reason"], "five");
    assert_eq!(end["result"]["line"].as_array().unwrap().len(), 5);
    assert_eq!(end["engine"], "legal");
}

#[test]
fn bad_messages_get_errors_and_the_server_stays() {
    let server = Server::ferrum();
    let mut page = server.page();
    for bad in [
        "{",
        "null",
        r#"{"type":"teleport"}"#,
        r#"{"type":"play","x":-1,"y":99}"#,
        r#"{"type":"play","x":1e99,"y":0}"#,
        r#"{"type":"new","size":1000,"rule":"renju"}"#,
        r#"{"type":"load","format":"moves","text":"h8h8"}"#,
        r#"{"type":"load","format":"psq","text":"Piskvorky 9999x9999"}"#,
    ] {
        page.ws.send(Message::text(bad)).unwrap();
        page.next("error", 5);
    }
    page.ws.send(Message::binary(vec![1u8, 2, 3])).unwrap();
    page.next("error", 5);
    // A flood: dropped beyond the rate, with an error; the page still works after.
    for _ in 0..200 {
        page.send(json!({"type": "time", "ms": 300}));
    }
    page.until(5, |m| {
        m["type"] == "error" && m["message"].as_str().unwrap().contains("too many")
    });
    std::thread::sleep(Duration::from_millis(1500));
    page.send(json!({"type": "play", "x": 3, "y": 3}));
    page.until(5, |m| m["type"] == "state" && m["moves"] == json!([[3, 3]]));
    // Oversized: an error, then the connection is closed; others go on.
    let huge = format!(
        r#"{{"type":"load","format":"moves","text":"{}"}}"#,
        "h8".repeat(100_000)
    );
    page.ws.send(Message::text(huge)).unwrap();
    assert!(page.next("error", 5)["message"]
        .as_str()
        .unwrap()
        .contains("too large"));
    assert!(page.closes(5));
    server.page();
}

#[test]
fn foreign_host_and_origin_are_refused() {
    let server = Server::ferrum();
    assert!(server.get_status(&server.addr).contains("200"));
    let port = server.addr.rsplit(':').next().unwrap();
    assert!(server
        .get_status(&format!("localhost:{port}"))
        .contains("200"));
    assert!(server
        .get_status(&format!("evil.example:{port}"))
        .contains("403"));
    assert!(server.page_with(Some("http://evil.example")).is_err());
    assert!(server
        .page_with(Some(&format!("http://evil.example:{port}")))
        .is_err());
    assert!(server.page_with(None).is_ok(), "no Origin: not a browser");
}

#[test]
fn an_engine_crash_is_reported_and_the_server_goes_on() {
    // The fixture answers START and exits.
    let server = Server::fixture("exiter.sh");
    let mut page = server.page();
    page.send(json!({"type": "play", "x": 7, "y": 7}));
    let msg = page.next("engine", 10);
    assert!(
        ["crashed", "error"].contains(&msg["status"].as_str().unwrap()),
        "{msg}"
    );
    page.send(json!({"type": "undo"}));
    page.until(5, |m| m["type"] == "state" && m["moves"] == json!([]));
    server.page();
}

#[test]
fn the_engine_ends_with_its_page_and_with_the_server() {
    let mut server = Server::ferrum();
    let mut page = server.page();
    page.send(json!({"type": "play", "x": 7, "y": 7}));
    page.next("info", 10);
    let engines = server.children();
    assert_eq!(engines.len(), 1, "one engine per page");
    drop(page);
    assert!(gone_within(&engines, 5), "the engine outlived its page");

    let mut page = server.page();
    page.send(json!({"type": "play", "x": 7, "y": 7}));
    page.send(json!({"type": "analyse"}));
    page.next("info", 10);
    let engines = server.children();
    assert_eq!(engines.len(), 1);
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    // Its stdin closes with the server: a pbrain engine exits on end of input.
    assert!(gone_within(&engines, 5), "the engine outlived the server");
}

/// Whether a read ended only by the socket's read timeout (the connection is fine).
fn read_timed_out(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Io(io) if matches!(
        io.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    ))
}
