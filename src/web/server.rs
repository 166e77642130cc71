//! The listener: one thread per connection, a bound on how many, and the choice
//! between a page asset and the WebSocket.

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

use super::{connection, http};

/// Pages served at once; each runs its own engine process.
const MAX_PAGES: usize = 4;
/// Connections handled at once (asset requests included); more are closed at once.
const MAX_CONNECTIONS: usize = 32;
/// How long a client may take to send its whole request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(5);

/// Counts a live connection (or page) until dropped.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(counter: &Arc<AtomicUsize>, max: usize) -> Option<Slot> {
        let taken = counter.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < max).then_some(n + 1)
        });
        taken.ok().map(|_| Slot(Arc::clone(counter)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves until the process is stopped.
pub fn serve(listener: TcpListener, engine: Vec<String>) -> Result<()> {
    let hosts = Arc::new(http::Hosts::of(
        listener.local_addr().context("listener address")?,
    ));
    let connections = Arc::new(AtomicUsize::new(0));
    let pages = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let Some(slot) = Slot::take(&connections, MAX_CONNECTIONS) else {
            continue; // Dropped: closed at once.
        };
        let (hosts, pages, engine) = (Arc::clone(&hosts), Arc::clone(&pages), engine.clone());
        let spawned = std::thread::Builder::new()
            .name("board-connection".into())
            .spawn(move || {
                let _slot = slot;
                handle(stream, &hosts, &pages, engine);
            });
        if let Err(e) = spawned {
            log::warn!("board: cannot start a connection thread: {e}");
        }
    }
    Ok(())
}

fn handle(
    mut stream: TcpStream,
    hosts: &http::Hosts,
    pages: &Arc<AtomicUsize>,
    engine: Vec<String>,
) {
    if stream.set_read_timeout(Some(HEAD_TIMEOUT)).is_err() {
        return;
    }
    let _ = stream.set_write_timeout(Some(HEAD_TIMEOUT));
    let Some(head) = http::read_head(&mut stream, HEAD_TIMEOUT) else {
        return http::respond(
            &mut stream,
            "400 Bad Request",
            "text/plain",
            "bad request\n",
        );
    };
    if let Some(why) = http::refusal(&head, hosts) {
        return http::respond(
            &mut stream,
            "403 Forbidden",
            "text/plain",
            &format!("{why}\n"),
        );
    }
    if head.method != "GET" {
        return http::respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            "GET only\n",
        );
    }
    if head.path == "/ws" && head.wants_websocket() {
        let Some(_page) = Slot::take(pages, MAX_PAGES) else {
            return http::respond(
                &mut stream,
                "503 Service Unavailable",
                "text/plain",
                "too many pages open\n",
            );
        };
        let key = head.header("sec-websocket-key").unwrap_or("");
        if key.is_empty() || head.header("sec-websocket-version") != Some("13") {
            return http::respond(
                &mut stream,
                "400 Bad Request",
                "text/plain",
                "bad WebSocket request\n",
            );
        }
        let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
        let reply = format!(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
        );
        if stream.write_all(reply.as_bytes()).is_ok() {
            connection::run(stream, head.rest, engine, connection::Keepalive::DEFAULT);
        }
        return;
    }
    match http::asset(&head.path) {
        Some((body, content_type)) => http::respond(&mut stream, "200 OK", content_type, body),
        None => http::respond(&mut stream, "404 Not Found", "text/plain", "not found\n"),
    }
}
