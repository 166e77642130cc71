//! The little HTTP the board needs: read a request head, check where it comes from,
//! answer GET with a compiled-in asset or switch to the WebSocket.

use std::io::{Read, Write};
use std::net::TcpStream;

/// Longest request head read; a browser's is well under this.
const MAX_HEAD: usize = 8192;

pub const INDEX_HTML: &str = include_str!("assets/index.html");
pub const APP_JS: &str = include_str!("assets/app.js");
pub const STYLE_CSS: &str = include_str!("assets/style.css");

/// A request head.
pub struct Head {
    pub method: String,
    /// The path without its query.
    pub path: String,
    headers: Vec<(String, String)>,
    /// Bytes read past the head (a client that sent its first frame early).
    pub rest: Vec<u8>,
}

impl Head {
    /// A header's value (names are case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn wants_websocket(&self) -> bool {
        self.header("upgrade")
            .is_some_and(|u| u.eq_ignore_ascii_case("websocket"))
    }
}

/// Reads a request head; `None` for anything that is not one (too long, cut, not text).
pub fn read_head(stream: &mut TcpStream) -> Option<Head> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 1024];
    let end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        if buf.len() > MAX_HEAD {
            return None;
        }
        let n = stream.read(&mut chunk).ok().filter(|&n| n > 0)?;
        buf.extend_from_slice(&chunk[..n]);
    };
    let text = std::str::from_utf8(&buf[..end]).ok()?;
    let mut lines = text.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let (method, target) = (first.next()?.to_string(), first.next()?);
    let path = target.split(['?', '#']).next().unwrap_or("").to_string();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    Some(Head {
        method,
        path,
        headers,
        rest: buf[end + 4..].to_vec(),
    })
}

/// Why a request is refused, if it is: its `Host` must name the address we serve and
/// its `Origin`, when it has one, our page. A page of another site that got its name
/// pointed at 127.0.0.1 (DNS rebinding) sends its own name in both.
pub fn refusal(head: &Head, hosts: &[String]) -> Option<&'static str> {
    let ours = |h: &str| hosts.iter().any(|o| o.eq_ignore_ascii_case(h));
    let scheme = |o: &str| {
        o.get(..7)
            .is_some_and(|s| s.eq_ignore_ascii_case("http://"))
    };
    match (head.header("host"), head.header("origin")) {
        (None, _) => Some("no Host"),
        (Some(h), _) if !ours(h) => Some("unknown Host"),
        (_, Some(o)) if !scheme(o) || !ours(&o[7..]) => Some("foreign Origin"),
        _ => None,
    }
}

/// The asset at `path` and its content type.
pub fn asset(path: &str) -> Option<(&'static str, &'static str)> {
    match path {
        "/" | "/index.html" => Some((INDEX_HTML, "text/html; charset=utf-8")),
        "/app.js" => Some((APP_JS, "text/javascript; charset=utf-8")),
        "/style.css" => Some((STYLE_CSS, "text/css; charset=utf-8")),
        _ => None,
    }
}

/// Writes a whole response and closes the exchange (`Connection: close`).
pub fn respond(stream: &mut TcpStream, status: &str, content_type: &str, body: &str) {
    // The page may load only its own files and talk only to this server.
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
         Content-Security-Policy: default-src 'self'; connect-src 'self'; img-src 'self' data:\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(response.as_bytes());
    let _ = stream.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(host: Option<&str>, origin: Option<&str>) -> Head {
        let mut headers = Vec::new();
        headers.extend(host.map(|h| ("Host".to_string(), h.to_string())));
        headers.extend(origin.map(|o| ("Origin".to_string(), o.to_string())));
        Head {
            method: "GET".into(),
            path: "/".into(),
            headers,
            rest: Vec::new(),
        }
    }

    #[test]
    fn only_our_host_and_origin() {
        let hosts = ["127.0.0.1:8077".to_string(), "localhost:8077".to_string()];
        assert_eq!(refusal(&head(Some("127.0.0.1:8077"), None), &hosts), None);
        assert_eq!(
            refusal(
                &head(Some("LOCALHOST:8077"), Some("http://localhost:8077")),
                &hosts
            ),
            None
        );
        assert!(refusal(&head(Some("evil.example:8077"), None), &hosts).is_some());
        assert!(refusal(
            &head(Some("127.0.0.1:8077"), Some("http://evil.example")),
            &hosts
        )
        .is_some());
        assert!(refusal(&head(None, None), &hosts).is_some());
    }
}
