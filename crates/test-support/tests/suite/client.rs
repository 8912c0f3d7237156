//! A deliberately dumb raw-socket HTTP client, so the server is tested
//! against the bytes it writes rather than another library's leniency.

use std::io::{Read, Write};
use std::net::TcpStream;

/// A response as read off the socket until EOF.
pub struct RawResponse {
    pub status: u16,
    /// Lowercased names.
    pub headers: Vec<(String, String)>,
    /// Everything after the head, still framed.
    pub raw_body: Vec<u8>,
}

impl RawResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body with chunked framing removed; also returns the chunk sizes
    /// and whether the terminating zero chunk arrived.
    pub fn dechunk(&self) -> (Vec<u8>, Vec<usize>, bool) {
        let mut body = Vec::new();
        let mut sizes = Vec::new();
        let mut rest = &self.raw_body[..];
        loop {
            let Some(pos) = rest.windows(2).position(|w| w == b"\r\n") else {
                return (body, sizes, false);
            };
            let size =
                usize::from_str_radix(std::str::from_utf8(&rest[..pos]).unwrap(), 16).unwrap();
            rest = &rest[pos + 2..];
            if size == 0 {
                return (body, sizes, rest == b"\r\n");
            }
            let take = size.min(rest.len());
            body.extend_from_slice(&rest[..take]);
            sizes.push(size);
            if rest.len() < size + 2 {
                return (body, sizes, false);
            }
            rest = &rest[size + 2..];
        }
    }

    /// The body, de-chunked when the response said so.
    pub fn body(&self) -> Vec<u8> {
        if self.header("transfer-encoding") == Some("chunked") {
            self.dechunk().0
        } else {
            self.raw_body.clone()
        }
    }

    pub fn body_text(&self) -> String {
        String::from_utf8(self.body()).unwrap()
    }
}

/// Sends raw request bytes and reads the whole answer until the server closes.
pub fn send_raw(url: &str, request: &[u8]) -> RawResponse {
    let addr = url.strip_prefix("http://").unwrap();
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(request).unwrap();
    s.flush().unwrap();
    let mut buf = Vec::new();
    // A reset (possible after hang_up) just ends the read; what arrived counts.
    let _ = s.read_to_end(&mut buf);
    parse(&buf)
}

/// POSTs a JSON body with a Content-Length.
pub fn post(url: &str, path: &str, body: &str) -> RawResponse {
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nX-Api-Key: test-key\r\nContent-Length: {}\r\n\r\n{body}",
        url.trim_start_matches("http://"),
        body.len()
    );
    send_raw(url, req.as_bytes())
}

fn parse(buf: &[u8]) -> RawResponse {
    let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
        return RawResponse {
            status: 0,
            headers: Vec::new(),
            raw_body: buf.to_vec(),
        };
    };
    let head = std::str::from_utf8(&buf[..end]).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .map(|l| {
            let (n, v) = l.split_once(':').unwrap();
            (n.trim().to_ascii_lowercase(), v.trim().to_string())
        })
        .collect();
    RawResponse {
        status,
        headers,
        raw_body: buf[end + 4..].to_vec(),
    }
}
