//! The HTTP shell shared by the adapters: building the client, turning a
//! request into an [`EventStream`] (response bytes → [`SseParser`] →
//! provider decoder), honouring cancellation, and turning non-2xx answers
//! and transport failures into [`LlmError`]s without leaking credentials.

use std::collections::VecDeque;
use std::time::Duration;

use futures::StreamExt;
use reqwest::header::{CONTENT_TYPE, HeaderMap, LOCATION};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::client::{EventStream, StreamEvent};
use crate::error::LlmError;
use crate::redact::redact;
use crate::sse::{MAX_EVENT_BYTES, SseEvent, SseParser};
use crate::stream_redact::Redacting;

/// Most of an error body we read; servers can send whole HTML pages.
const ERROR_BODY_CAP: usize = 64 * 1024;
/// Most characters of a server message we keep in an error.
const ERROR_MESSAGE_CHARS: usize = 500;
/// How long a response's body may go without a single byte before the
/// stream counts as stalled ([`LlmError::Stalled`], retried once). Anthropic
/// pings every few seconds and OpenAI's streams send events throughout, so a
/// minute of silence is a dead connection, not a slow model.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a request may wait for the response to begin (its headers).
/// Streaming servers answer with headers before the first token.
pub const DEFAULT_FIRST_BYTE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a stream whose answer is finished (Chat `finish_reason`,
/// Anthropic `message_delta` with a `stop_reason`) may still wait for its
/// trailing events (the usage chunk, `[DONE]`, `message_stop`) before it is
/// completed with what arrived.
pub const DEFAULT_FINISH_GRACE: Duration = Duration::from_secs(2);
/// Most characters of a JSON body quoted when an event stream was expected.
const JSON_ANSWER_CHARS: usize = 200;
/// Most characters of an HTML error page's title we keep.
const HTML_TITLE_CHARS: usize = 200;

pub(crate) use crate::decoder::Decoder;

/// Implements [`Decoder`] for a decoder type by delegating to its inherent
/// `on_event`, `finish` and `is_complete`.
macro_rules! delegate_decoder {
    ($decoder:ident) => {
        impl $crate::http::Decoder for $decoder {
            fn on_event(
                &mut self,
                event: &$crate::sse::SseEvent,
            ) -> Result<Vec<$crate::client::StreamEvent>, $crate::error::LlmError> {
                $decoder::on_event(self, event)
            }

            fn finish(
                &mut self,
            ) -> Result<Vec<$crate::client::StreamEvent>, $crate::error::LlmError> {
                $decoder::finish(self)
            }

            fn is_complete(&self) -> bool {
                $decoder::is_complete(self)
            }

            fn is_finishing(&self) -> bool {
                $decoder::is_finishing(self)
            }
        }
    };
}
pub(crate) use delegate_decoder;

/// Builds the shared HTTP client: rustls with the ring provider (install it
/// as the process default once, ignoring "already installed"), connect
/// timeout 10s, no overall request timeout (streams are long), a user agent
/// "wright/<version>", and no redirects: following one would re-send the API
/// key to wherever the server points, so a 3xx answer becomes an
/// [`LlmError::Http`] naming the `Location` instead. Trusts the system's
/// root certificates; [`http_client_for`] skips them for `http://` servers.
pub fn http_client() -> Result<reqwest::Client, LlmError> {
    build_client(Roots::System)
}

/// The shared HTTP client (see [`http_client`]) for requests to `url`. An
/// `http://` URL (a local server) gets a client without root certificates:
/// loading and parsing the system's roots costs milliseconds at start-up
/// and a plain connection never uses them (redirects, which could lead to
/// an `https://` URL, are not followed).
pub fn http_client_for(url: &str) -> Result<reqwest::Client, LlmError> {
    let plain = url
        .get(..7)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("http://"));
    build_client(if plain { Roots::None } else { Roots::System })
}

/// Which root certificates a client trusts.
enum Roots {
    /// None: for plain-HTTP servers.
    None,
    /// The system's.
    System,
}

fn build_client(roots: Roots) -> Result<reqwest::Client, LlmError> {
    // An error only means a provider is already the process default.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut builder = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(Duration::from_secs(10))
        .user_agent(concat!("wright/", env!("CARGO_PKG_VERSION")));
    builder = match roots {
        Roots::None => builder.tls_certs_only(Vec::new()),
        Roots::System => match crate::tls_roots::system_roots() {
            Some(certs) => builder.tls_certs_only(certs.iter().cloned()),
            // No bundle file: the platform verifier finds the roots
            // (certificate directories included).
            None => builder,
        },
    };
    builder.build().map_err(|e| LlmError::Connection {
        provider: "http",
        message: format!("cannot build the HTTP client: {}", error_chain(&e)),
    })
}

/// How long the driver waits for the server.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timeouts {
    /// Longest wait for the response head.
    pub(crate) first_byte: Duration,
    /// Longest wait for the next body chunk.
    pub(crate) idle: Duration,
    /// Longest wait for trailing events once the answer is finished.
    pub(crate) finish_grace: Duration,
}

/// Sends `request` lazily (on first poll) and streams its decoded events.
pub(crate) fn drive<D: Decoder>(
    provider: &'static str,
    request: reqwest::RequestBuilder,
    secret: Option<String>,
    decoder: D,
    cancel: CancellationToken,
    timeouts: Timeouts,
) -> EventStream {
    let driver = Driver {
        first_byte_timeout: timeouts.first_byte,
        idle_timeout: timeouts.idle,
        finish_grace: timeouts.finish_grace,
        finish_deadline: None,
        provider,
        request: Some(request),
        body: None,
        parser: SseParser::new(),
        // Every provider's output passes here, so this is the one place
        // that keeps the key out of what the model streams back.
        decoder: Redacting::new(decoder, secret.as_deref()),
        cancel,
        secret,
        pending: VecDeque::new(),
        done: false,
    };
    Box::pin(futures::stream::unfold(driver, |mut d| async move {
        let item = d.next_item().await?;
        Some((item, d))
    }))
}

type ByteStream = futures::stream::BoxStream<'static, reqwest::Result<bytes::Bytes>>;

struct Driver<D> {
    provider: &'static str,
    /// Longest wait for the response head.
    first_byte_timeout: Duration,
    /// Longest wait for the next body chunk.
    idle_timeout: Duration,
    /// Longest wait for trailing events once the decoder is finishing.
    finish_grace: Duration,
    /// When the finish grace runs out; set once the decoder is finishing.
    finish_deadline: Option<Instant>,
    request: Option<reqwest::RequestBuilder>,
    body: Option<ByteStream>,
    parser: SseParser,
    decoder: D,
    cancel: CancellationToken,
    secret: Option<String>,
    pending: VecDeque<Result<StreamEvent, LlmError>>,
    done: bool,
}

impl<D: Decoder> Driver<D> {
    async fn next_item(&mut self) -> Option<Result<StreamEvent, LlmError>> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                if item.is_err() {
                    self.stop();
                }
                return Some(item);
            }
            if self.done {
                return None;
            }
            self.step().await;
        }
    }

    fn stop(&mut self) {
        self.pending.clear();
        self.body = None;
        self.done = true;
    }

    /// Ends the stream with `error`. Every error passes here, so server
    /// text from any source (HTTP bodies, in-stream `error` events, error
    /// chunks, failed responses) is redacted and capped in one place.
    fn fail(&mut self, error: LlmError) {
        let error = error.redacted(&self.secrets(), ERROR_MESSAGE_CHARS);
        self.pending.push_back(Err(error));
        self.done = true;
    }

    async fn step(&mut self) {
        let cancel = self.cancel.clone();
        if let Some(request) = self.request.take() {
            let sent = tokio::select! {
                biased;
                () = cancel.cancelled() => return self.fail(LlmError::Cancelled),
                sent = tokio::time::timeout(self.first_byte_timeout, request.send()) => sent,
            };
            let Ok(sent) = sent else {
                let error = self.stalled(self.first_byte_timeout, false);
                return self.fail(error);
            };
            match sent {
                Err(e) => {
                    let error = self.connection_error(&e);
                    self.fail(error);
                }
                Ok(response) if !response.status().is_success() => {
                    let error = http_error(
                        self.provider,
                        self.secret.clone(),
                        cancel,
                        self.idle_timeout,
                        response,
                    )
                    .await;
                    self.fail(error);
                }
                Ok(response) if is_json(response.headers()) => {
                    let error = json_answer_error(
                        self.provider,
                        self.secret.clone(),
                        cancel,
                        self.idle_timeout,
                        response,
                    )
                    .await;
                    self.fail(error);
                }
                Ok(response) => self.body = Some(response.bytes_stream().boxed()),
            }
            return;
        }
        let Some(body) = self.body.as_mut() else {
            self.done = true;
            return;
        };
        let mut deadline = Instant::now() + self.idle_timeout;
        if let Some(grace_end) = self.finish_deadline {
            deadline = deadline.min(grace_end);
        }
        let chunk = tokio::select! {
            biased;
            () = cancel.cancelled() => None,
            chunk = tokio::time::timeout_at(deadline, body.next()) => Some(chunk),
        };
        let Some(chunk) = chunk else {
            return self.fail(LlmError::Cancelled);
        };
        let Ok(chunk) = chunk else {
            // A finished answer is kept rather than failed (and retried)
            // because its trailing events never came.
            if self.finish_deadline.is_some() {
                return self.end_of_body();
            }
            let error = self.stalled(self.idle_timeout, true);
            return self.fail(error);
        };
        match chunk {
            Some(Ok(bytes)) => {
                let events = self.parser.push(&bytes);
                self.decode(&events);
                if self.done {
                    // A decoder error ended the stream.
                } else if self.decoder.is_complete() {
                    self.body = None;
                    self.done = true;
                } else if self.parser.overflowed() {
                    self.body = None;
                    self.fail(LlmError::protocol(
                        self.provider,
                        format!(
                            "an event from the server exceeded {} MiB",
                            MAX_EVENT_BYTES / (1024 * 1024)
                        ),
                    ));
                } else if self.finish_deadline.is_none() && self.decoder.is_finishing() {
                    self.finish_deadline = Some(Instant::now() + self.finish_grace);
                }
            }
            // A connection that breaks once the stop reason has come lost
            // only the trailing events: the answer is whole, so it is kept
            // (retrying it would show it again and could run its tools twice).
            Some(Err(_)) if self.decoder.is_finishing() => self.end_of_body(),
            Some(Err(e)) => {
                let error = self.connection_error(&e);
                self.fail(error);
            }
            None => self.end_of_body(),
        }
    }

    /// Ends the stream: the parser's last event, then the decoder's verdict.
    fn end_of_body(&mut self) {
        self.body = None;
        let events = self.parser.finish();
        self.decode(&events);
        if !self.done && !self.decoder.is_complete() {
            let tail = self.decoder.finish();
            self.push_result(tail);
        }
        self.done = true;
    }

    fn decode(&mut self, events: &[SseEvent]) {
        for event in events {
            if self.decoder.is_complete() {
                return;
            }
            let result = self.decoder.on_event(event);
            if !self.push_result(result) {
                return;
            }
        }
    }

    /// Queues a decoder result; false when it was an error.
    fn push_result(&mut self, result: Result<Vec<StreamEvent>, LlmError>) -> bool {
        match result {
            Ok(events) => {
                self.pending.extend(events.into_iter().map(Ok));
                true
            }
            Err(e) => {
                self.fail(e);
                false
            }
        }
    }

    fn stalled(&self, after: Duration, mid_stream: bool) -> LlmError {
        LlmError::Stalled {
            provider: self.provider,
            after,
            mid_stream,
        }
    }

    fn secrets(&self) -> Vec<&str> {
        self.secret.as_deref().into_iter().collect()
    }

    fn connection_error(&self, error: &reqwest::Error) -> LlmError {
        LlmError::Connection {
            provider: self.provider,
            message: redact(&error_chain(error), &self.secrets()),
        }
    }
}

/// Reads at most [`ERROR_BODY_CAP`] bytes of a body, stopping early when the
/// server goes quiet for `idle`; `None` when cancelled.
async fn read_capped(
    cancel: &CancellationToken,
    idle: Duration,
    response: &mut reqwest::Response,
) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    while body.len() < ERROR_BODY_CAP {
        let chunk = tokio::select! {
            biased;
            () = cancel.cancelled() => return None,
            chunk = tokio::time::timeout(idle, response.chunk()) => chunk,
        };
        match chunk {
            Ok(Ok(Some(bytes))) => {
                let room = ERROR_BODY_CAP - body.len();
                body.extend_from_slice(&bytes[..bytes.len().min(room)]);
            }
            // A body we cannot finish reading still leaves the status to report.
            Ok(Ok(None) | Err(_)) | Err(_) => break,
        }
    }
    Some(body)
}

fn content_type(headers: &HeaderMap) -> String {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Whether the answer is JSON (`application/json`, `application/*+json`).
fn is_json(headers: &HeaderMap) -> bool {
    let kind = content_type(headers);
    kind == "application/json" || (kind.starts_with("application/") && kind.ends_with("+json"))
}

/// Reads a non-2xx answer into [`LlmError::Http`]. A free function so the
/// future holds no `&Driver` (whose byte stream is not `Sync`).
async fn http_error(
    provider: &'static str,
    secret: Option<String>,
    cancel: CancellationToken,
    idle: Duration,
    mut response: reqwest::Response,
) -> LlmError {
    let status = response.status();
    let retry_after = retry_after(response.headers());
    let message = if status.is_redirection() {
        redirect_message(response.headers())
    } else {
        let Some(body) = read_capped(&cancel, idle, &mut response).await else {
            return LlmError::Cancelled;
        };
        error_body_message(&body, &content_type(response.headers()))
            .unwrap_or_else(|| status.canonical_reason().unwrap_or("no message").to_owned())
    };
    LlmError::Http {
        provider,
        status: status.as_u16(),
        message: truncate_chars(
            &redact(&message, &secret.as_deref().into_iter().collect::<Vec<_>>()),
            ERROR_MESSAGE_CHARS,
        ),
        retry_after,
    }
}

/// Why a 3xx answer is an error, naming where it pointed.
fn redirect_message(headers: &HeaderMap) -> String {
    let location = headers
        .get(LOCATION)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_owned())
        .filter(|l| !l.is_empty());
    match location {
        Some(location) => format!(
            "the server redirected to {location}; wright does not follow redirects \
             (set --base-url to the final URL)"
        ),
        None => "the server answered with a redirect without a Location; wright does not \
                 follow redirects (set --base-url to the final URL)"
            .to_owned(),
    }
}

/// Reads a successful answer that is JSON instead of an event stream into
/// an [`LlmError::Protocol`] quoting the server's message.
async fn json_answer_error(
    provider: &'static str,
    secret: Option<String>,
    cancel: CancellationToken,
    idle: Duration,
    mut response: reqwest::Response,
) -> LlmError {
    let Some(body) = read_capped(&cancel, idle, &mut response).await else {
        return LlmError::Cancelled;
    };
    let quoted = json_answer_quote(&body);
    LlmError::protocol(
        provider,
        redact(
            &format!("expected an event stream but the server answered with JSON: {quoted}"),
            &secret.as_deref().into_iter().collect::<Vec<_>>(),
        ),
    )
}

/// `error.message` of a JSON body, or else its first characters.
fn json_answer_quote(body: &[u8]) -> String {
    let message = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|json| {
            json.pointer("/error/message")
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned)
        });
    match message {
        Some(message) => truncate_chars(&message, ERROR_MESSAGE_CHARS),
        None => truncate_chars(
            &collapse_whitespace(&String::from_utf8_lossy(body)),
            JSON_ANSWER_CHARS,
        ),
    }
}

fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The server's error message from an error body: `{"error":{"message":..}}`
/// (both APIs), `{"error":".."}` or `{"message":..}` (some compatible
/// servers), the title of an HTML page (a proxy's error page, never the
/// whole page), or else the body text itself. `content_type` is the
/// answer's lowercased media type.
pub(crate) fn error_body_message(body: &[u8], content_type: &str) -> Option<String> {
    if let Ok(json) = serde_json::from_slice::<serde_json::Value>(body) {
        let found = json
            .pointer("/error/message")
            .or_else(|| json.get("error").filter(|e| e.is_string()))
            .or_else(|| json.get("message"))
            .or_else(|| json.get("detail"))
            .and_then(serde_json::Value::as_str);
        if let Some(message) = found {
            return Some(message.to_owned());
        }
    }
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if content_type.contains("html") || looks_like_html(text) {
        let title = html_title(text).unwrap_or_else(|| "an HTML error page".to_owned());
        return Some(format!("{title} (HTML body omitted)"));
    }
    (!text.is_empty()).then(|| collapse_whitespace(text))
}

/// Whether text sniffs as an HTML document.
fn looks_like_html(text: &str) -> bool {
    if !text.starts_with('<') {
        return false;
    }
    let head: String = text
        .chars()
        .take(1024)
        .collect::<String>()
        .to_ascii_lowercase();
    ["<!doctype html", "<html", "<head", "<body", "<title"]
        .iter()
        .any(|tag| head.contains(tag))
}

/// The text of an HTML page's `<title>`, whitespace collapsed and the
/// common entities decoded; `None` when it has no non-empty title.
fn html_title(html: &str) -> Option<String> {
    // ASCII lowercasing keeps byte offsets, so they index `html` too.
    let lower = html.to_ascii_lowercase();
    let open = lower.find("<title")?;
    let start = open + lower[open..].find('>')? + 1;
    let end = start + lower[start..].find("</title")?;
    let title = collapse_whitespace(&html[start..end])
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    let title = title.trim();
    (!title.is_empty()).then(|| truncate_chars(title, HTML_TITLE_CHARS))
}

/// `retry-after-ms` (OpenAI) or `Retry-After` in seconds; HTTP dates are not
/// worth a date parser here.
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let parse = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v >= 0.0)
    };
    if let Some(ms) = parse("retry-after-ms") {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    parse("retry-after").map(Duration::from_secs_f64)
}

/// An error and its sources as one line, without repeats.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut parts: Vec<String> = vec![error.to_string()];
    let mut source = error.source();
    while let Some(e) = source {
        let text = e.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = e.source();
    }
    parts.join(": ")
}

fn truncate_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// Runs a decoder over fixture bytes exactly as the HTTP driver would.
#[cfg(test)]
pub(crate) mod test_util {
    use super::*;

    /// Feeds `bytes` in chunks of `chunk` bytes; returns the events and the
    /// error that ended the stream, if any.
    pub(crate) fn run<D: Decoder>(
        mut decoder: D,
        bytes: &[u8],
        chunk: usize,
    ) -> (Vec<StreamEvent>, Option<LlmError>) {
        // The parser does not depend on the decoder, so parse first.
        let mut parser = SseParser::new();
        let mut sse = Vec::new();
        for piece in bytes.chunks(chunk.max(1)) {
            parser.push_into(piece, &mut sse);
        }
        sse.extend(parser.finish());
        let mut events = Vec::new();
        for e in &sse {
            if decoder.is_complete() {
                return (events, None);
            }
            match decoder.on_event(e) {
                Ok(v) => events.extend(v),
                Err(err) => return (events, Some(err)),
            }
        }
        if decoder.is_complete() {
            return (events, None);
        }
        match decoder.finish() {
            Ok(v) => {
                events.extend(v);
                (events, None)
            }
            Err(err) => (events, Some(err)),
        }
    }

    /// Chunk sizes that split fixtures at many odd places, whole included.
    pub(crate) const CHUNK_SIZES: &[usize] = &[1, 2, 3, 5, 7, 11, 13, 64, 100_000];
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn error_message_shapes() {
        let anthropic =
            br#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        let json = "application/json";
        assert_eq!(
            error_body_message(anthropic, json).as_deref(),
            Some("Overloaded")
        );
        let openai = br#"{"error":{"message":"Incorrect API key","type":"invalid_request_error","code":"invalid_api_key"}}"#;
        assert_eq!(
            error_body_message(openai, json).as_deref(),
            Some("Incorrect API key")
        );
        assert_eq!(
            error_body_message(br#"{"error":"model not found"}"#, "").as_deref(),
            Some("model not found")
        );
        assert_eq!(
            error_body_message(b"upstream \n  timed   out", "text/plain").as_deref(),
            Some("upstream timed out")
        );
        assert_eq!(error_body_message(b"  ", ""), None);
    }

    #[test]
    fn html_error_pages_are_reduced_to_their_title() {
        let page =
            b"<!DOCTYPE html>\n<html><head>\n<TITLE> 502 Bad\n Gateway &amp; more </TITLE>\n\
            <style>body{}</style></head><body><h1>Bad Gateway</h1><p>nginx</p></body></html>";
        assert_eq!(
            error_body_message(page, "text/html").as_deref(),
            Some("502 Bad Gateway & more (HTML body omitted)")
        );
        // Sniffed without a content type; no title.
        assert_eq!(
            error_body_message(b"<html>\n Bad   Gateway </html>", "").as_deref(),
            Some("an HTML error page (HTML body omitted)")
        );
        assert_eq!(
            error_body_message(b"<html><title>  </title></html>", "").as_deref(),
            Some("an HTML error page (HTML body omitted)")
        );
        // Labelled HTML but not a page.
        assert_eq!(
            error_body_message(b"oops", "text/html; charset=utf-8").as_deref(),
            Some("an HTML error page (HTML body omitted)")
        );
        // Text that merely mentions a tag is not a page.
        assert_eq!(
            error_body_message(b"bad value <title> in field", "").as_deref(),
            Some("bad value <title> in field")
        );
    }

    #[test]
    fn json_answers_quote_the_error_message_or_the_start_of_the_body() {
        assert_eq!(
            json_answer_quote(br#"{"error":{"message":"stream is not supported"}}"#),
            "stream is not supported"
        );
        let long = format!(
            r#"{{"id":"x","choices":[{{"text":"{}"}}]}}"#,
            "y".repeat(500)
        );
        let quoted = json_answer_quote(long.as_bytes());
        assert!(quoted.starts_with(r#"{"id":"x","choices""#), "{quoted}");
        assert_eq!(quoted.chars().count(), JSON_ANSWER_CHARS + 1);
        assert!(quoted.ends_with('…'));
    }

    #[test]
    fn json_content_types() {
        let mut h = HeaderMap::new();
        assert!(!is_json(&h));
        h.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
        assert!(!is_json(&h));
        h.insert(
            CONTENT_TYPE,
            HeaderValue::from_static("Application/JSON; charset=utf-8"),
        );
        assert!(is_json(&h));
        h.insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        );
        assert!(is_json(&h));
    }

    #[test]
    fn redirect_messages_name_the_location() {
        let mut h = HeaderMap::new();
        h.insert(
            LOCATION,
            HeaderValue::from_static("https://other.example/v1"),
        );
        assert_eq!(
            redirect_message(&h),
            "the server redirected to https://other.example/v1; wright does not follow \
             redirects (set --base-url to the final URL)"
        );
        assert!(redirect_message(&HeaderMap::new()).contains("without a Location"));
    }

    #[test]
    fn retry_after_headers() {
        let mut h = HeaderMap::new();
        assert_eq!(retry_after(&h), None);
        h.insert("retry-after", HeaderValue::from_static("7"));
        assert_eq!(retry_after(&h), Some(Duration::from_secs(7)));
        h.insert("retry-after-ms", HeaderValue::from_static("1500"));
        assert_eq!(retry_after(&h), Some(Duration::from_millis(1500)));
        let mut h = HeaderMap::new();
        h.insert(
            "retry-after",
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(retry_after(&h), None);
    }

    #[test]
    fn truncation_respects_char_boundaries() {
        assert_eq!(truncate_chars("héllo", 2), "hé…");
        assert_eq!(truncate_chars("hé", 2), "hé");
    }

    #[test]
    fn client_builds_twice() {
        assert!(http_client().is_ok());
        assert!(http_client().is_ok());
    }
}
