//! A loopback OAuth world for the MCP login tests.
//!
//! [`OAuthServer`] is one hyper server on `127.0.0.1` that is at once
//!
//! - an OAuth authorization server: protected-resource metadata (RFC 9728)
//!   at `/.well-known/oauth-protected-resource/mcp`, authorization-server
//!   metadata (RFC 8414) at `/.well-known/oauth-authorization-server`,
//!   dynamic client registration (RFC 7591) at `POST /register`,
//!   `GET /authorize` which grants at once by redirecting (302) to the
//!   registered `redirect_uri` with a code and the caller's `state`, and
//!   `POST /token` which checks PKCE S256 for the authorization-code grant
//!   and rotates refresh tokens;
//! - the [`TestServer`] on streamable HTTP at `/mcp`, which answers 401 with
//!   a `resource_metadata` challenge unless the request carries a bearer
//!   token this server issued.
//!
//! The MCP server runs in the test process: a client must not call its
//! `crash` tool, which would exit the process.
//!
//! Access tokens look like `at-N`, refresh tokens `rt-N` and codes `code-N`
//! (N counts up from 1 per server), so a test can search output for them.
//!
//! Async tests start it with [`OAuthServer::start`] on their own runtime;
//! synchronous tests (driving the `wright` binary) use
//! [`OAuthServer::start_blocking`], which gives it a runtime of its own.
//! [`browse`] is a blocking stand-in for the user's browser: it opens an
//! authorization URL and follows the redirect to the loopback redirect URI.

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use base64::Engine as _;
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::header::{HeaderName, HeaderValue};
use hyper::{Request, Response, StatusCode};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use serde_json::{Value, json};
use sha2::Digest as _;
use tokio_util::sync::CancellationToken;

use crate::mcp_server::TestServer;

type Body = BoxBody<Bytes, Infallible>;

/// The one scope the server advertises and grants.
pub const SCOPE: &str = "mcp";

/// The access-token lifetime `/token` reports, in seconds.
pub const EXPIRES_IN: u64 = 3600;

#[derive(Default)]
struct State {
    next: u32,
    /// client id → registered redirect URIs.
    clients: HashMap<String, Vec<String>>,
    /// code → (client, PKCE challenge, redirect URI).
    codes: HashMap<String, (String, String, String)>,
    access: HashSet<String>,
    refresh: HashSet<String>,
    /// Every token `/token` handed out, in order.
    issued: Vec<String>,
    /// The Authorization header of every request to `/mcp`.
    seen: Vec<Option<String>>,
    refreshes: u32,
}

/// The running authorization server + protected MCP server; stops when
/// dropped.
pub struct OAuthServer {
    /// The MCP endpoint, `http://127.0.0.1:PORT/mcp`.
    pub mcp_url: String,
    /// The issuer, `http://127.0.0.1:PORT`.
    pub base_url: String,
    state: Arc<Mutex<State>>,
    stop: CancellationToken,
    /// The runtime of [`OAuthServer::start_blocking`].
    runtime: Option<tokio::runtime::Runtime>,
}

impl OAuthServer {
    /// Binds an ephemeral loopback port and serves on the current tokio
    /// runtime (which must keep running: a multi-thread one in tests)
    /// until dropped.
    pub async fn start() -> Result<Self, String> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| format!("cannot bind 127.0.0.1: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let base = format!("http://{addr}");
        let state = Arc::new(Mutex::new(State::default()));
        let stop = CancellationToken::new();
        let mcp: StreamableHttpService<TestServer, LocalSessionManager> =
            StreamableHttpService::new(
                || Ok(TestServer::default()),
                Arc::default(),
                StreamableHttpServerConfig::default()
                    .with_sse_keep_alive(None)
                    .with_cancellation_token(stop.child_token()),
            );
        let world = Arc::new(World {
            base: base.clone(),
            state: Arc::clone(&state),
            mcp,
        });
        let token = stop.clone();
        tokio::spawn(async move {
            loop {
                let accepted = tokio::select! {
                    () = token.cancelled() => break,
                    accepted = listener.accept() => accepted,
                };
                let Ok((stream, _)) = accepted else { continue };
                let world = Arc::clone(&world);
                tokio::spawn(async move {
                    let handler = hyper::service::service_fn(move |req| {
                        let world = Arc::clone(&world);
                        async move { Ok::<_, Infallible>(world.route(req).await) }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), handler)
                        .await;
                });
            }
        });
        Ok(Self {
            mcp_url: format!("{base}/mcp"),
            base_url: base,
            state,
            stop,
            runtime: None,
        })
    }

    /// [`OAuthServer::start`] for synchronous tests: serves from a runtime
    /// of its own (two worker threads), shut down when dropped. Must not be
    /// called from inside a tokio runtime.
    pub fn start_blocking() -> Result<Self, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| format!("cannot build a tokio runtime: {e}"))?;
        let mut server = runtime.block_on(Self::start())?;
        server.runtime = Some(runtime);
        Ok(server)
    }

    fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// The Authorization header of every request to `/mcp`, in order.
    pub fn seen_authorization(&self) -> Vec<Option<String>> {
        self.state().seen.clone()
    }

    /// How many refresh-token grants succeeded.
    pub fn refreshes(&self) -> u32 {
        self.state().refreshes
    }

    /// Every access and refresh token `/token` issued, in order: what must
    /// never show up in a client's output.
    pub fn issued_tokens(&self) -> Vec<String> {
        self.state().issued.clone()
    }

    /// How many clients registered.
    pub fn registered_clients(&self) -> usize {
        self.state().clients.len()
    }
}

impl Drop for OAuthServer {
    fn drop(&mut self) {
        self.stop.cancel();
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// The state survives a panicking request handler.
fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(|e| e.into_inner())
}

struct World {
    base: String,
    state: Arc<Mutex<State>>,
    mcp: StreamableHttpService<TestServer, LocalSessionManager>,
}

/// A response with `status`, `headers` and `body`; a header value that is
/// not a valid header is left out.
fn response(status: u16, headers: &[(&'static str, &str)], body: Bytes) -> Response<Body> {
    let mut answer = Response::new(Full::new(body).boxed());
    *answer.status_mut() =
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    for (name, value) in headers {
        if let Ok(value) = HeaderValue::from_str(value) {
            answer
                .headers_mut()
                .insert(HeaderName::from_static(name), value);
        }
    }
    answer
}

fn reply(status: u16, body: &Value) -> Response<Body> {
    response(
        status,
        &[
            ("content-type", "application/json"),
            ("cache-control", "no-store"),
        ],
        Bytes::from(body.to_string()),
    )
}

fn invalid_request() -> Response<Body> {
    reply(400, &json!({"error": "invalid_request"}))
}

fn pairs(encoded: &[u8]) -> HashMap<String, String> {
    form_urlencoded::parse(encoded).into_owned().collect()
}

fn pkce_s256(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier))
}

impl World {
    async fn route(&self, req: Request<hyper::body::Incoming>) -> Response<Body> {
        let path = req.uri().path().to_owned();
        let query = req.uri().query().unwrap_or_default().to_owned();
        match (req.method().as_str(), path.as_str()) {
            (_, "/mcp") => {
                let header = req
                    .headers()
                    .get("authorization")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned);
                let allowed = {
                    let mut state = lock(&self.state);
                    state.seen.push(header.clone());
                    header
                        .as_deref()
                        .and_then(|h| h.strip_prefix("Bearer "))
                        .is_some_and(|t| state.access.contains(t))
                };
                if allowed {
                    return self.mcp.handle(req).await;
                }
                let challenge = format!(
                    "Bearer resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\", scope=\"{SCOPE}\"",
                    self.base
                );
                response(401, &[("www-authenticate", &challenge)], Bytes::new())
            }
            ("GET", "/.well-known/oauth-protected-resource/mcp") => reply(
                200,
                &json!({
                    "resource": format!("{}/mcp", self.base),
                    "authorization_servers": [self.base],
                    "scopes_supported": [SCOPE],
                }),
            ),
            ("GET", "/.well-known/oauth-authorization-server") => reply(
                200,
                &json!({
                    "issuer": self.base,
                    "authorization_endpoint": format!("{}/authorize", self.base),
                    "token_endpoint": format!("{}/token", self.base),
                    "registration_endpoint": format!("{}/register", self.base),
                    "response_types_supported": ["code"],
                    "grant_types_supported": ["authorization_code", "refresh_token"],
                    "code_challenge_methods_supported": ["S256"],
                    "token_endpoint_auth_methods_supported": ["none"],
                    "scopes_supported": [SCOPE],
                }),
            ),
            ("POST", "/register") => {
                let Ok(body) = req.into_body().collect().await else {
                    return invalid_request();
                };
                let Some(uris) = serde_json::from_slice::<Value>(&body.to_bytes())
                    .ok()
                    .and_then(|r| {
                        serde_json::from_value::<Vec<String>>(r["redirect_uris"].clone()).ok()
                    })
                else {
                    return invalid_request();
                };
                let mut state = lock(&self.state);
                state.next += 1;
                let id = format!("client-{}", state.next);
                state.clients.insert(id.clone(), uris.clone());
                reply(201, &json!({"client_id": id, "redirect_uris": uris}))
            }
            ("GET", "/authorize") => self.authorize(&pairs(query.as_bytes())),
            ("POST", "/token") => {
                let Ok(body) = req.into_body().collect().await else {
                    return invalid_request();
                };
                self.token(&pairs(&body.to_bytes()))
            }
            _ => reply(404, &json!({"error": "not_found"})),
        }
    }

    /// Grants at once: 302 to the registered redirect URI with a code.
    fn authorize(&self, q: &HashMap<String, String>) -> Response<Body> {
        let get = |k: &str| q.get(k).map(String::as_str);
        let (Some(client), Some(redirect), Some(challenge), Some(state_param)) = (
            get("client_id"),
            get("redirect_uri"),
            get("code_challenge"),
            get("state"),
        ) else {
            return invalid_request();
        };
        let mut state = lock(&self.state);
        let registered = state
            .clients
            .get(client)
            .is_some_and(|uris| uris.iter().any(|u| u == redirect));
        if !registered
            || get("response_type") != Some("code")
            || get("code_challenge_method") != Some("S256")
        {
            return invalid_request();
        }
        state.next += 1;
        let code = format!("code-{}", state.next);
        state.codes.insert(
            code.clone(),
            (client.to_owned(), challenge.to_owned(), redirect.to_owned()),
        );
        let query = form_urlencoded::Serializer::new(String::new())
            .append_pair("code", &code)
            .append_pair("state", state_param)
            .finish();
        let separator = if redirect.contains('?') { '&' } else { '?' };
        let location = format!("{redirect}{separator}{query}");
        response(302, &[("location", &location)], Bytes::new())
    }

    /// The authorization-code (PKCE S256) and refresh-token grants.
    fn token(&self, form: &HashMap<String, String>) -> Response<Body> {
        let get = |k: &str| form.get(k).map(String::as_str);
        let mut state = lock(&self.state);
        let granted = match get("grant_type") {
            Some("authorization_code") => get("code")
                .and_then(|code| state.codes.remove(code))
                .is_some_and(|(client, challenge, redirect)| {
                    get("client_id") == Some(&client)
                        && get("redirect_uri") == Some(&redirect)
                        && get("code_verifier").map(pkce_s256) == Some(challenge)
                }),
            Some("refresh_token") => {
                let ok = get("refresh_token").is_some_and(|t| state.refresh.remove(t));
                if ok {
                    state.refreshes += 1;
                }
                ok
            }
            _ => false,
        };
        if !granted {
            return reply(400, &json!({"error": "invalid_grant"}));
        }
        state.next += 1;
        let n = state.next;
        let (access, refresh) = (format!("at-{n}"), format!("rt-{n}"));
        state.access.insert(access.clone());
        state.refresh.insert(refresh.clone());
        state.issued.push(access.clone());
        state.issued.push(refresh.clone());
        reply(
            200,
            &json!({
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": EXPIRES_IN,
                "refresh_token": refresh,
                "scope": SCOPE,
            }),
        )
    }
}

/// One HTTP answer as [`get`] read it.
#[derive(Debug, Clone)]
pub struct HttpAnswer {
    /// The status code.
    pub status: u16,
    /// The headers, names lower-cased, in order.
    pub headers: Vec<(String, String)>,
    /// The body, lossily decoded as UTF-8.
    pub body: String,
}

impl HttpAnswer {
    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What [`browse`] saw.
#[derive(Debug, Clone)]
pub struct BrowserVisit {
    /// The authorization server's answer (a 302).
    pub authorization: HttpAnswer,
    /// Where it redirected to: the client's loopback redirect URI with the
    /// code and state.
    pub redirect: String,
    /// The loopback listener's answer to the redirect.
    pub callback: HttpAnswer,
}

/// The longest [`get`] waits on a silent peer, so a broken flow fails a
/// test instead of hanging it.
const BROWSER_IO_LIMIT: Duration = Duration::from_secs(60);

/// A blocking HTTP/1.1 `GET` of a plain-`http` loopback URL (`127.0.0.1`,
/// `localhost` or `[::1]`; anything else is refused), with
/// `Connection: close`, the whole answer read. Redirects are not followed.
pub fn get(url: &str) -> Result<HttpAnswer, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("not a plain http URL: {url}"))?;
    let (authority, target) = match rest.find(['/', '?']) {
        Some(i) if rest[i..].starts_with('/') => (&rest[..i], rest[i..].to_owned()),
        Some(i) => (&rest[..i], format!("/{}", &rest[i..])),
        None => (rest, "/".to_owned()),
    };
    let host = authority
        .rsplit_once(':')
        .map_or(authority, |(host, _)| host);
    if !matches!(host, "127.0.0.1" | "localhost" | "[::1]") {
        return Err(format!("refusing a non-loopback URL: {url}"));
    }
    let address = if authority.contains(':') && !authority.ends_with(']') {
        authority.to_owned()
    } else {
        format!("{authority}:80")
    };
    let mut stream =
        TcpStream::connect(&address).map_err(|e| format!("cannot connect to {address}: {e}"))?;
    stream
        .set_read_timeout(Some(BROWSER_IO_LIMIT))
        .and_then(|()| stream.set_write_timeout(Some(BROWSER_IO_LIMIT)))
        .map_err(|e| e.to_string())?;
    let request = format!(
        "GET {target} HTTP/1.1\r\nHost: {authority}\r\nUser-Agent: wright-test-browser\r\n\
         Accept: */*\r\nConnection: close\r\n\r\n"
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| format!("cannot send to {address}: {e}"))?;
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .map_err(|e| format!("cannot read from {address}: {e}"))?;
    parse_answer(&raw).ok_or_else(|| {
        format!(
            "not an HTTP answer from {address}: {:?}",
            String::from_utf8_lossy(&raw)
        )
    })
}

fn parse_answer(raw: &[u8]) -> Option<HttpAnswer> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    if chunked {
        body = dechunk(&body)?;
    }
    Some(HttpAnswer {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

fn dechunk(mut raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = raw.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&raw[..line_end]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        raw = &raw[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(raw.get(..size)?);
        raw = raw.get(size + 2..)?;
    }
}

/// Plays the user's browser for an authorization URL: `GET`s it (it must be
/// a loopback URL answering 302), then `GET`s the `Location` it redirects
/// to, the client's loopback redirect URI, and returns both answers.
pub fn browse(authorization_url: &str) -> Result<BrowserVisit, String> {
    let authorization = get(authorization_url)?;
    if authorization.status != 302 {
        return Err(format!(
            "the authorization server answered {} to {authorization_url}: {}",
            authorization.status, authorization.body
        ));
    }
    let redirect = authorization
        .header("location")
        .ok_or("the authorization server's 302 has no Location")?
        .to_owned();
    let callback = get(&redirect)?;
    Ok(BrowserVisit {
        authorization,
        redirect,
        callback,
    })
}
