//! What the mock answers to one request: status, headers, body and the ways
//! of delivering it badly (odd chunking, a dropped stream, no answer).

/// How the body is framed on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framing {
    /// `Content-Length`: the default for JSON answers.
    ContentLength,
    /// `Transfer-Encoding: chunked`, one HTTP chunk per written piece: the
    /// default for SSE, as the real APIs stream over HTTP/1.1. A dropped
    /// stream then shows up as an incomplete chunked body.
    Chunked,
    /// No length at all; the body ends when the connection closes, so a
    /// dropped stream looks like a clean end at the HTTP level.
    CloseDelimited,
}

/// One scripted answer of a [`crate::MockServer`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MockResponse {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
    pub(crate) framing: Framing,
    pub(crate) piece_sizes: Vec<usize>,
    pub(crate) drop_after: Option<usize>,
    pub(crate) hang_up: bool,
    pub(crate) stall: bool,
}

impl MockResponse {
    fn new(status: u16, content_type: &str, body: Vec<u8>, framing: Framing) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            body,
            framing,
            piece_sizes: Vec::new(),
            drop_after: None,
            hang_up: false,
            stall: false,
        }
    }

    /// A 200 `text/event-stream` answer with this SSE body, sent with
    /// `Transfer-Encoding: chunked` (see [`MockResponse::close_delimited`]).
    pub fn sse(body: impl Into<String>) -> Self {
        let mut r = Self::new(
            200,
            "text/event-stream; charset=utf-8",
            body.into().into_bytes(),
            Framing::Chunked,
        );
        r.headers.push(("cache-control".into(), "no-cache".into()));
        r
    }

    /// An `application/json` answer with any status and a `Content-Length`.
    pub fn json(status: u16, body: serde_json::Value) -> Self {
        Self::new(
            status,
            "application/json",
            body.to_string().into_bytes(),
            Framing::ContentLength,
        )
    }

    /// An answer with any status, content type and raw body bytes.
    pub fn raw(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Self {
        Self::new(status, content_type, body.into(), Framing::ContentLength)
    }

    /// A provider-style error: `{"type":"error","error":{"type":kind,"message":message}}`.
    pub fn api_error(status: u16, kind: &str, message: &str) -> Self {
        Self::json(
            status,
            serde_json::json!({"type": "error", "error": {"type": kind, "message": message}}),
        )
    }

    /// Adds a header (e.g. `retry-after`); a header of the same name set
    /// earlier is replaced.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        let name = name.to_ascii_lowercase();
        self.headers.retain(|(n, _)| *n != name);
        self.headers.push((name, value.to_string()));
        self
    }

    /// Writes the body in pieces of these sizes (cycled), flushing after
    /// each, to split events and UTF-8 sequences at odd byte boundaries.
    /// Zero sizes are ignored; an empty or all-zero list means one piece.
    pub fn chunked(mut self, sizes: &[usize]) -> Self {
        self.piece_sizes = sizes.iter().copied().filter(|&s| s > 0).collect();
        self
    }

    /// Closes the connection abruptly after writing this many body bytes,
    /// as a dropped stream would.
    pub fn drop_after(mut self, bytes: usize) -> Self {
        self.drop_after = Some(bytes);
        self
    }

    /// With `drop_after`: instead of closing, keep the connection open and
    /// silent until the client goes away (a server that stops mid-stream;
    /// used to kill the client during a streaming turn).
    pub fn stall(mut self) -> Self {
        self.stall = true;
        self
    }

    /// Frames the body by closing the connection instead of chunked
    /// encoding or a length.
    pub fn close_delimited(mut self) -> Self {
        self.framing = Framing::CloseDelimited;
        self
    }

    /// Reads the request, then closes the socket without writing anything.
    pub fn hang_up() -> Self {
        let mut r = Self::new(0, "text/plain", Vec::new(), Framing::ContentLength);
        r.headers.clear();
        r.hang_up = true;
        r
    }

    /// The answer to every request once a non-looping script is used up.
    pub(crate) fn exhausted() -> Self {
        Self::api_error(500, "api_error", "mock script exhausted")
    }

    /// The body bytes this answer carries (all of them, before `drop_after`).
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// The HTTP status (0 for [`MockResponse::hang_up`]).
    pub fn status(&self) -> u16 {
        self.status
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_header_lowercases_and_replaces() {
        let r = MockResponse::json(429, serde_json::json!({}))
            .with_header("Retry-After", "1")
            .with_header("retry-after", "2");
        let hits: Vec<_> = r
            .headers
            .iter()
            .filter(|(n, _)| n == "retry-after")
            .collect();
        assert_eq!(hits, vec![&("retry-after".to_string(), "2".to_string())]);
    }

    #[test]
    fn chunked_drops_zero_sizes() {
        let r = MockResponse::sse("x").chunked(&[0, 3, 0, 1]);
        assert_eq!(r.piece_sizes, vec![3, 1]);
    }

    #[test]
    fn sse_defaults_to_chunked_framing() {
        let r = MockResponse::sse("data: 1\n\n");
        assert_eq!(r.framing, Framing::Chunked);
        assert_eq!(r.status(), 200);
        assert_eq!(
            MockResponse::sse("x").close_delimited().framing,
            Framing::CloseDelimited
        );
    }
}
