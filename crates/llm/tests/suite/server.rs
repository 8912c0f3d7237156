//! A one-connection loopback HTTP/1.1 server that records the request and
//! writes a scripted raw response. Enough to drive the adapters end to end
//! without a mock-server dependency.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// What the client sent.
pub struct Recorded {
    pub head: String,
    pub body: serde_json::Value,
}

/// What happens after the scripted bytes are written.
#[derive(Clone, Copy, PartialEq)]
pub enum After {
    Close,
    /// Keep the connection open until the client drops it.
    Hold,
}

/// Serves one request on a fresh port; returns the base URL and the
/// recorded request.
pub async fn serve_once(response: Vec<u8>, after: After) -> (String, oneshot::Receiver<Recorded>) {
    // Small writes so the client sees the stream in many pieces.
    serve_once_in(response, after, 37).await
}

/// [`serve_once`] writing the response `piece` bytes at a time.
pub async fn serve_once_in(
    response: Vec<u8>,
    after: After,
    piece: usize,
) -> (String, oneshot::Receiver<Recorded>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = oneshot::channel();
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        let head_end = loop {
            let n = socket.read(&mut chunk).await.unwrap();
            assert!(n > 0, "client closed before sending a request");
            buf.extend_from_slice(&chunk[..n]);
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
        };
        let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
        let length: usize = head
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("content-length")
                    .then(|| v.trim().parse().unwrap())
            })
            .unwrap_or(0);
        while buf.len() < head_end + length {
            let n = socket.read(&mut chunk).await.unwrap();
            assert!(n > 0, "client closed mid-body");
            buf.extend_from_slice(&chunk[..n]);
        }
        let body = serde_json::from_slice(&buf[head_end..head_end + length]).unwrap();
        let _ = tx.send(Recorded { head, body });
        for piece in response.chunks(piece) {
            if socket.write_all(piece).await.is_err() {
                return;
            }
            let _ = socket.flush().await;
        }
        if after == After::Hold {
            // Returns once the client goes away.
            let _ = socket.read(&mut chunk).await;
        }
    });
    (format!("http://{addr}"), rx)
}

/// A close-delimited `200 text/event-stream` response.
pub fn sse_response(body: &str) -> Vec<u8> {
    format!("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n{body}")
        .into_bytes()
}

/// A JSON error response.
pub fn error_response(status: &str, extra_headers: &str, body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n{extra_headers}\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A complete (content-length) response with any status and content type.
pub fn raw_response(status: &str, content_type: &str, extra_headers: &str, body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n{extra_headers}\r\n{body}",
        body.len()
    )
    .into_bytes()
}
