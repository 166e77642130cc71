//! One page's WebSocket: reads its messages (size- and rate-limited), hands them to
//! the session, polls the engine between reads, and ends the engine when the page goes.

use std::io::ErrorKind;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::Value;
use tungstenite::error::Error as WsError;
use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

use super::messages;
use super::session::Session;

/// Largest message the page may send (a pasted `.psq` of a full 32x32 board is ~10 KB).
pub const MAX_MESSAGE: usize = 64 * 1024;
/// How long a read waits before the engine is polled again.
const POLL: Duration = Duration::from_millis(20);
/// Messages the page may send in a burst, and per second after it.
const BURST: f64 = 40.0;
const PER_SECOND: f64 = 20.0;

/// When a silent page is pinged, and when one that answers nothing, not even a ping,
/// is taken for gone: a page whose machine slept or lost the network sends no close,
/// and would hold its engine and one of the few page slots for good. A browser answers
/// pings by itself, so a page left open, however long, stays.
#[derive(Debug, Clone, Copy)]
pub struct Keepalive {
    pub ping_after: Duration,
    pub gone_after: Duration,
}

impl Keepalive {
    pub const DEFAULT: Keepalive = Keepalive {
        ping_after: Duration::from_secs(20),
        gone_after: Duration::from_secs(60),
    };
}

/// A token bucket: floods are dropped, with one error a second at most.
struct RateLimit {
    tokens: f64,
    last: Instant,
    last_warning: Option<Instant>,
}

impl RateLimit {
    fn new() -> RateLimit {
        RateLimit {
            tokens: BURST,
            last: Instant::now(),
            last_warning: None,
        }
    }

    /// `Ok(())` to handle a message; `Err(warn)` to drop it, `warn` when the page should
    /// be told.
    fn take(&mut self) -> Result<(), bool> {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * PER_SECOND;
        self.tokens = (self.tokens + refill).min(BURST);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return Ok(());
        }
        let warn = self
            .last_warning
            .is_none_or(|t| now.duration_since(t) >= Duration::from_secs(1));
        if warn {
            self.last_warning = Some(now);
        }
        Err(warn)
    }
}

/// Serves the page on `stream` (the handshake already answered) until it closes or
/// falls silent past `keepalive`.
pub fn run(stream: TcpStream, early: Vec<u8>, engine: Vec<String>, keepalive: Keepalive) {
    if stream.set_read_timeout(Some(POLL)).is_err()
        || stream
            .set_write_timeout(Some(Duration::from_secs(5)))
            .is_err()
    {
        return;
    }
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let mut ws = WebSocket::from_partially_read(stream, early, Role::Server, Some(config));
    let mut session = Session::new(engine);
    let mut limit = RateLimit::new();
    let mut out = session.hello();
    let (mut heard, mut pinged) = (Instant::now(), None);
    loop {
        if !send(&mut ws, &mut out) {
            break;
        }
        let silent = heard.elapsed();
        if silent >= keepalive.gone_after {
            break;
        }
        if silent >= keepalive.ping_after && pinged.is_none_or(|t: Instant| t < heard) {
            if ws.send(Message::Ping(Vec::new().into())).is_err() {
                break;
            }
            pinged = Some(Instant::now());
        }
        let read = ws.read();
        if read.is_ok() {
            heard = Instant::now();
        }
        match read {
            Ok(Message::Text(text)) => match limit.take() {
                Ok(()) => out.extend(session.handle(text.as_str())),
                Err(true) => out.push(messages::error("too many messages: some were dropped")),
                Err(false) => {}
            },
            Ok(Message::Binary(_)) => out.push(messages::error("binary messages are not read")),
            Ok(Message::Close(_)) => break,
            Ok(_) => {} // Ping and pong: tungstenite answers pings itself.
            Err(WsError::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(WsError::Capacity(e)) => {
                // The rest of the frame cannot be skipped: say why, then close.
                let mut last = vec![messages::error(&format!(
                    "message too large ({e}); closing"
                ))];
                send(&mut ws, &mut last);
                let _ = ws.close(None);
                let _ = ws.flush();
                break;
            }
            Err(_) => break,
        }
        // The page hears its answer before the poll, which may wait seconds for a
        // starting engine.
        if !send(&mut ws, &mut out) {
            break;
        }
        out.extend(session.poll());
    }
    // Dropping the session ends the engine (END, a grace period, then kill).
}

/// Sends and clears `out`; `false` when the page is gone.
fn send(ws: &mut WebSocket<TcpStream>, out: &mut Vec<Value>) -> bool {
    for value in out.drain(..) {
        if ws.send(Message::text(value.to_string())).is_err() {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;
    use std::sync::mpsc;

    const SHORT: Keepalive = Keepalive {
        ping_after: Duration::from_millis(100),
        gone_after: Duration::from_millis(400),
    };

    /// A served page's socket pair; the server side runs on its own thread and reports
    /// how long it served.
    fn page() -> (TcpStream, mpsc::Receiver<Duration>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let start = Instant::now();
            run(
                server,
                Vec::new(),
                vec!["/nonexistent/engine".into()],
                SHORT,
            );
            let _ = tx.send(start.elapsed());
        });
        (client, rx)
    }

    #[test]
    fn a_page_that_answers_nothing_is_taken_for_gone() {
        let (_client, served) = page();
        let time = served
            .recv_timeout(Duration::from_secs(10))
            .expect("still served");
        assert!(time >= SHORT.gone_after, "{time:?}");
    }

    #[test]
    fn a_page_that_answers_pings_stays() {
        let (client, served) = page();
        client.set_read_timeout(Some(POLL)).unwrap();
        let mut ws = WebSocket::from_raw_socket(client, Role::Client, None);
        let (start, mut pings) = (Instant::now(), 0);
        while start.elapsed() < SHORT.gone_after * 3 {
            // Reading answers the server's pings.
            if let Ok(Message::Ping(_)) = ws.read() {
                pings += 1;
            }
            let _ = ws.flush();
        }
        assert!(pings >= 2, "{pings} pings");
        assert!(
            served.try_recv().is_err(),
            "a page that answered was dropped"
        );
        let _ = ws.close(None);
        let _ = ws.flush();
        served
            .recv_timeout(Duration::from_secs(10))
            .expect("closed");
    }
}
