//! Just enough HTTP/1.1 for the mock: read one request (headers, then a
//! `Content-Length` or chunked body) and write one scripted response, then
//! the connection closes. No keep-alive: every answer says `Connection: close`.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};

use crate::request::RecordedRequest;
use crate::response::{Framing, MockResponse};

/// Refuse request heads larger than this rather than buffering forever.
const MAX_HEAD_BYTES: usize = 256 * 1024;
/// Refuse bodies larger than this; real requests are far smaller.
const MAX_BODY_BYTES: usize = 256 * 1024 * 1024;

fn bad(msg: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.to_string())
}

/// Reads one request from `stream`. `Ok(None)` means the peer closed before
/// sending a request line (how the server's own wake-up connection looks).
pub(crate) fn read_request(stream: &TcpStream) -> io::Result<Option<RecordedRequest>> {
    let mut reader = BufReader::new(stream);
    let mut head_bytes = 0usize;
    let Some(request_line) = read_line(&mut reader, &mut head_bytes)? else {
        return Ok(None);
    };
    let mut parts = request_line.split_whitespace();
    let (Some(method), Some(path)) = (parts.next(), parts.next()) else {
        return Err(bad("malformed request line"));
    };
    let (method, path) = (method.to_string(), path.to_string());

    let mut headers = Vec::new();
    loop {
        let Some(line) = read_line(&mut reader, &mut head_bytes)? else {
            return Err(bad("connection closed inside the request head"));
        };
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(bad("malformed header line"));
        };
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let mut request = RecordedRequest {
        method,
        path,
        headers,
        body: Vec::new(),
        received_at: std::time::SystemTime::now(),
    };

    if request
        .header("expect")
        .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"))
    {
        let mut w = stream;
        w.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
        w.flush()?;
    }

    let chunked = request
        .header("transfer-encoding")
        .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
    request.body = if chunked {
        read_chunked_body(&mut reader, &mut head_bytes)?
    } else if let Some(len) = request.header("content-length") {
        let len: usize = len.parse().map_err(|_| bad("bad content-length"))?;
        if len > MAX_BODY_BYTES {
            return Err(bad("request body too large"));
        }
        let mut body = vec![0; len];
        reader.read_exact(&mut body)?;
        body
    } else {
        Vec::new()
    };
    Ok(Some(request))
}

/// One CRLF- (or LF-) terminated line without its terminator; `None` at a
/// clean end of stream before any byte of the line.
fn read_line(reader: &mut impl BufRead, budget_used: &mut usize) -> io::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = reader
        .by_ref()
        .take((MAX_HEAD_BYTES.saturating_sub(*budget_used) + 1) as u64)
        .read_until(b'\n', &mut buf)?;
    *budget_used += n;
    if n == 0 {
        return Ok(None);
    }
    if *budget_used > MAX_HEAD_BYTES {
        return Err(bad("request head too large"));
    }
    if buf.last() != Some(&b'\n') {
        return Err(bad("connection closed mid-line"));
    }
    buf.pop();
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    String::from_utf8(buf)
        .map(Some)
        .map_err(|_| bad("non-UTF-8 request head"))
}

fn read_chunked_body(reader: &mut impl BufRead, budget_used: &mut usize) -> io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line = read_line(reader, budget_used)?.ok_or_else(|| bad("truncated chunked body"))?;
        let size_text = line.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_text, 16).map_err(|_| bad("bad chunk size"))?;
        if size == 0 {
            // Trailers, if any, end with an empty line.
            while let Some(t) = read_line(reader, budget_used)? {
                if t.is_empty() {
                    break;
                }
            }
            return Ok(body);
        }
        if body.len() + size > MAX_BODY_BYTES {
            return Err(bad("request body too large"));
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader.read_exact(&mut body[start..])?;
        let mut crlf = [0u8; 2];
        reader.read_exact(&mut crlf)?;
        if &crlf != b"\r\n" {
            return Err(bad("chunk not followed by CRLF"));
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Payload Too Large",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        529 => "Overloaded",
        _ => "Status",
    }
}

/// Writes `response` and closes the connection (abruptly for `drop_after`
/// and `hang_up`).
pub(crate) fn write_response(stream: &TcpStream, response: &MockResponse) -> io::Result<()> {
    let mut w = stream;
    if response.hang_up {
        return stream.shutdown(Shutdown::Both);
    }
    let mut head = format!(
        "HTTP/1.1 {} {}\r\n",
        response.status,
        reason(response.status)
    );
    for (name, value) in &response.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    match response.framing {
        Framing::ContentLength => {
            head.push_str(&format!("content-length: {}\r\n", response.body.len()));
        }
        Framing::Chunked => head.push_str("transfer-encoding: chunked\r\n"),
        Framing::CloseDelimited => {}
    }
    head.push_str("connection: close\r\n\r\n");
    w.write_all(head.as_bytes())?;
    w.flush()?;

    let limit = response.drop_after.unwrap_or(usize::MAX);
    let mut written = 0usize;
    for piece in pieces(&response.body, &response.piece_sizes) {
        if written >= limit {
            break;
        }
        let piece = &piece[..piece.len().min(limit - written)];
        if response.framing == Framing::Chunked {
            w.write_all(format!("{:x}\r\n", piece.len()).as_bytes())?;
            w.write_all(piece)?;
            w.write_all(b"\r\n")?;
        } else {
            w.write_all(piece)?;
        }
        w.flush()?;
        written += piece.len();
    }
    if response.drop_after.is_some_and(|n| n < response.body.len()) {
        if response.stall {
            // Wait for the client to close; its read side ends with it.
            let mut sink = [0u8; 256];
            let mut r = stream;
            while matches!(std::io::Read::read(&mut r, &mut sink), Ok(n) if n > 0) {}
        }
        return stream.shutdown(Shutdown::Both);
    }
    if response.framing == Framing::Chunked {
        w.write_all(b"0\r\n\r\n")?;
    }
    w.flush()?;
    stream.shutdown(Shutdown::Write)
}

/// Splits `body` into consecutive pieces of the given sizes, cycled; the
/// whole body as one piece when `sizes` is empty. Never yields empty pieces.
pub(crate) fn pieces<'a>(body: &'a [u8], sizes: &[usize]) -> Vec<&'a [u8]> {
    if sizes.is_empty() {
        return if body.is_empty() {
            Vec::new()
        } else {
            vec![body]
        };
    }
    let mut out = Vec::new();
    let mut rest = body;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (head, tail) = rest.split_at(size.min(rest.len()));
        out.push(head);
        rest = tail;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_cycle_sizes_and_keep_every_byte() {
        let body = b"abcdefghij";
        let p = pieces(body, &[1, 3]);
        assert_eq!(p, vec![&b"a"[..], b"bcd", b"e", b"fgh", b"i", b"j"]);
        assert_eq!(p.concat(), body);
        assert_eq!(pieces(body, &[]), vec![&body[..]]);
        assert!(pieces(b"", &[2]).is_empty());
    }

    #[test]
    fn read_line_handles_crlf_and_lf() {
        let mut r = BufReader::new(&b"GET / HTTP/1.1\r\nx: y\n\r\n"[..]);
        let mut used = 0;
        assert_eq!(
            read_line(&mut r, &mut used).unwrap().unwrap(),
            "GET / HTTP/1.1"
        );
        assert_eq!(read_line(&mut r, &mut used).unwrap().unwrap(), "x: y");
        assert_eq!(read_line(&mut r, &mut used).unwrap().unwrap(), "");
        assert!(read_line(&mut r, &mut used).unwrap().is_none());
    }

    #[test]
    fn chunked_body_is_reassembled() {
        let mut r = BufReader::new(&b"3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\nx-trailer: 1\r\n\r\n"[..]);
        let mut used = 0;
        assert_eq!(read_chunked_body(&mut r, &mut used).unwrap(), b"abcde");
    }
}
