//! The loopback end of the authorization-code flow: a listener on
//! 127.0.0.1 that waits for the browser's redirect to `/callback`, checks
//! its `state`, answers the browser with a short page and hands back the
//! code. Just enough HTTP/1.1 for one GET; anything else gets a 404.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

/// The redirect URI's path.
pub(crate) const CALLBACK_PATH: &str = "/callback";

/// The longest request head read from the browser.
const MAX_HEAD: usize = 16 * 1024;

/// How long one browser connection may take to send its request: a
/// speculative connection that never sends one must not hold a task forever.
const READ_LIMIT: Duration = Duration::from_secs(30);

/// What the redirect brought.
#[derive(PartialEq, Eq)]
pub(crate) enum Callback {
    /// The authorization server granted a code (with the `iss` of RFC 9207
    /// when it sent one).
    Code {
        code: String,
        issuer: Option<String>,
    },
    /// The authorization server refused (`error`, `error_description`).
    Denied(String),
    /// The `state` did not match: not the redirect of this login.
    StateMismatch,
}

impl std::fmt::Debug for Callback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Code { .. } => f.write_str("Code([REDACTED])"),
            Self::Denied(reason) => write!(f, "Denied({reason:?})"),
            Self::StateMismatch => f.write_str("StateMismatch"),
        }
    }
}

/// Binds 127.0.0.1:`port` (0: any free port).
pub(crate) async fn bind(port: u16) -> std::io::Result<TcpListener> {
    TcpListener::bind(("127.0.0.1", port)).await
}

/// Serves `listener` until a request to [`CALLBACK_PATH`] arrives, and
/// returns what it carried. Browser connections are served concurrently
/// (a browser may open several, some idle), and dropped with the listener.
pub(crate) async fn wait_for_callback(listener: TcpListener, expected_state: &str) -> Callback {
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Callback>(4);
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let tx = tx.clone();
                let expected = expected_state.to_owned();
                connections.spawn(async move {
                    if let Ok(Some(callback)) =
                        tokio::time::timeout(READ_LIMIT, serve(stream, &expected)).await
                    {
                        let _ = tx.send(callback).await;
                    }
                });
            }
            Some(callback) = rx.recv() => return callback,
            // Reap finished connections so the set does not grow.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
}

/// Answers one connection; `Some` when it was the callback.
async fn serve(mut stream: TcpStream, expected_state: &str) -> Option<Callback> {
    let target = read_request_target(&mut stream).await?;
    let (path, query) = target.split_once('?').unwrap_or((target.as_str(), ""));
    if path != CALLBACK_PATH {
        respond(&mut stream, "404 Not Found", "Not found.").await;
        return None;
    }
    let callback = parse_callback(query, expected_state);
    let (status, body) = match &callback {
        Callback::Code { .. } => (
            "200 OK",
            "wright: login complete. You can close this tab and return to the terminal.",
        ),
        Callback::Denied(_) => (
            "400 Bad Request",
            "wright: the authorization server refused the login. See the terminal.",
        ),
        Callback::StateMismatch => (
            "400 Bad Request",
            "wright: this redirect does not belong to the login in progress; it was rejected.",
        ),
    };
    respond(&mut stream, status, body).await;
    Some(callback)
}

/// Reads the request head and returns the target of a GET.
async fn read_request_target(stream: &mut TcpStream) -> Option<String> {
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0_u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await.ok()?;
        if n == 0 || head.len() + n > MAX_HEAD {
            return None;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&head);
    let mut parts = head.lines().next()?.split(' ');
    match (parts.next(), parts.next()) {
        (Some("GET"), Some(target)) => Some(target.to_owned()),
        _ => None,
    }
}

/// Interprets the callback's query string.
fn parse_callback(query: &str, expected_state: &str) -> Callback {
    let mut code = None;
    let mut state = None;
    let mut issuer = None;
    let mut error = None;
    let mut description = None;
    let parsed = reqwest::Url::parse(&format!("http://127.0.0.1/?{query}"));
    for (key, value) in parsed.iter().flat_map(reqwest::Url::query_pairs) {
        let value = value.into_owned();
        match key.as_ref() {
            "code" => code = Some(value),
            "state" => state = Some(value),
            "iss" => issuer = Some(value),
            "error" => error = Some(value),
            "error_description" => description = Some(value),
            _ => {}
        }
    }
    // Checked first: an error redirect that is not ours must not end the
    // login with a message an attacker chose.
    if !state
        .as_deref()
        .is_some_and(|s| constant_time_eq(s.as_bytes(), expected_state.as_bytes()))
    {
        return Callback::StateMismatch;
    }
    match (code, error) {
        (Some(code), None) if !code.is_empty() => Callback::Code { code, issuer },
        (_, Some(error)) => Callback::Denied(printable(&match description {
            Some(d) => format!("{error}: {d}"),
            None => error,
        })),
        _ => Callback::Denied("the redirect carried no authorization code".to_owned()),
    }
}

/// Keeps a server-chosen message to one printable line of bounded length.
fn printable(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(300).collect()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0_u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

async fn respond(stream: &mut TcpStream, status: &str, body: &str) {
    let page = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(page.as_bytes()).await;
    let _ = stream.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_must_match_before_anything_else_counts() {
        assert_eq!(
            parse_callback("code=abc&state=s1", "s1"),
            Callback::Code {
                code: "abc".into(),
                issuer: None
            }
        );
        assert_eq!(
            parse_callback("code=abc&state=s2", "s1"),
            Callback::StateMismatch
        );
        assert_eq!(parse_callback("code=abc", "s1"), Callback::StateMismatch);
        assert_eq!(
            parse_callback("error=access_denied&state=evil", "s1"),
            Callback::StateMismatch
        );
        assert_eq!(
            parse_callback("error=access_denied&error_description=no%0A&state=s1", "s1"),
            Callback::Denied("access_denied: no".into())
        );
    }

    #[test]
    fn debug_hides_the_code() {
        let shown = format!(
            "{:?}",
            Callback::Code {
                code: "secret-code".into(),
                issuer: None
            }
        );
        assert!(!shown.contains("secret-code"));
    }
}
