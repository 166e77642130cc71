//! The little HTTP the board needs: read a request head, check where it comes from,
//! answer GET with a compiled-in asset or switch to the WebSocket.

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

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

/// Reads a request head within `timeout` in all (a client sending a byte at a time
/// must not hold a connection for hours); `None` for anything that is not one (too
/// long, cut, late, not text).
pub fn read_head(stream: &mut TcpStream, timeout: Duration) -> Option<Head> {
    let deadline = Instant::now() + timeout;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 1024];
    let end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        if buf.len() > MAX_HEAD {
            return None;
        }
        let left = deadline.checked_duration_since(Instant::now())?;
        stream
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .ok()?;
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

/// The `Host` values this server answers to.
pub struct Hosts {
    /// Host names with their port (and without it on port 80, as browsers send them).
    names: Vec<String>,
    /// Listening on every address: any address literal with this port, whichever of
    /// the machine's addresses the page was opened by.
    any_address: Option<u16>,
}

impl Hosts {
    /// The address the server listens on, and the loopback names when it listens on
    /// loopback. A name other than these is refused: a page of another site that got
    /// its name pointed at us (DNS rebinding) sends its own name.
    pub fn of(addr: SocketAddr) -> Hosts {
        let port = addr.port();
        let mut names = vec![addr.to_string()];
        if addr.ip().is_loopback() {
            for name in ["127.0.0.1", "localhost", "[::1]"] {
                names.push(format!("{name}:{port}"));
            }
        }
        if port == 80 {
            let bare: Vec<String> = names.iter().map(|n| n[..n.len() - 3].to_string()).collect();
            names.extend(bare);
        }
        Hosts {
            names,
            any_address: addr.ip().is_unspecified().then_some(port),
        }
    }

    fn accept(&self, host: &str) -> bool {
        let address_on = |port: u16| {
            host.parse::<SocketAddr>().is_ok_and(|a| a.port() == port)
                || (port == 80
                    && host
                        .trim_start_matches('[')
                        .trim_end_matches(']')
                        .parse::<IpAddr>()
                        .is_ok())
        };
        self.names.iter().any(|n| n.eq_ignore_ascii_case(host))
            || self.any_address.is_some_and(address_on)
    }
}

/// Why a request is refused, if it is: its `Host` must be one of `hosts` and its
/// `Origin`, when it has one, our page.
pub fn refusal(head: &Head, hosts: &Hosts) -> Option<&'static str> {
    let ours = |h: &str| hosts.accept(h);
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
        let hosts = Hosts::of("127.0.0.1:8077".parse().unwrap());
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

    /// Every address on a port: any address literal with it (a name could be another
    /// site's); on port 80 browsers leave the port out.
    #[test]
    fn every_address_and_port_80() {
        let any = Hosts::of("0.0.0.0:8077".parse().unwrap());
        for host in ["192.168.1.20:8077", "10.0.0.5:8077", "[fe80::1]:8077"] {
            assert_eq!(refusal(&head(Some(host), None), &any), None, "{host}");
        }
        let origin = Some("http://192.168.1.20:8077");
        assert_eq!(
            refusal(&head(Some("192.168.1.20:8077"), origin), &any),
            None
        );
        for host in ["192.168.1.20:80", "evil.example:8077", "192.168.1.20"] {
            assert!(refusal(&head(Some(host), None), &any).is_some(), "{host}");
        }
        let web = Hosts::of("127.0.0.1:80".parse().unwrap());
        for host in ["localhost", "127.0.0.1", "localhost:80"] {
            assert_eq!(refusal(&head(Some(host), None), &web), None, "{host}");
        }
        assert!(refusal(&head(Some("evil.example"), None), &web).is_some());
        let any_web = Hosts::of("[::]:80".parse().unwrap());
        assert_eq!(refusal(&head(Some("192.168.1.20"), None), &any_web), None);
        assert_eq!(refusal(&head(Some("[fe80::1]"), None), &any_web), None);
    }
}
