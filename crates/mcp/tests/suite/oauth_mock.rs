//! A loopback OAuth world for the login tests: one hyper server that is at
//! once an authorization server (RFC 8414 metadata, dynamic registration,
//! `/authorize` redirecting straight back with a code, `/token` checking
//! PKCE S256 and rotating refresh tokens) and the test MCP server on
//! streamable HTTP, which answers 401 with a `resource_metadata` challenge
//! unless it gets a bearer token it issued.

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::{Request, Response};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use serde_json::{Value, json};
use sha2::Digest as _;
use tokio_util::sync::CancellationToken;
use wright_test_support::mcp_server::TestServer;

type Body = BoxBody<Bytes, Infallible>;

#[derive(Default)]
struct MockState {
    next: u32,
    clients: HashMap<String, Vec<String>>,
    /// code → (client, PKCE challenge, redirect URI).
    codes: HashMap<String, (String, String, String)>,
    access: HashSet<String>,
    refresh: HashSet<String>,
    /// The Authorization header of every request to `/mcp`.
    seen: Vec<Option<String>>,
    refreshes: u32,
}

/// The running mock; stops when dropped.
pub struct OAuthMock {
    /// The MCP endpoint.
    pub mcp_url: String,
    state: Arc<Mutex<MockState>>,
    stop: CancellationToken,
}

impl OAuthMock {
    pub async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(Mutex::new(MockState::default()));
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
        Self {
            mcp_url: format!("{base}/mcp"),
            state,
            stop,
        }
    }

    /// The Authorization header of every request to `/mcp`, in order.
    pub fn seen_authorization(&self) -> Vec<Option<String>> {
        self.state.lock().unwrap().seen.clone()
    }

    /// How many refresh-token grants succeeded.
    pub fn refreshes(&self) -> u32 {
        self.state.lock().unwrap().refreshes
    }
}

impl Drop for OAuthMock {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

struct World {
    base: String,
    state: Arc<Mutex<MockState>>,
    mcp: StreamableHttpService<TestServer, LocalSessionManager>,
}

fn reply(status: u16, body: Value) -> Response<Body> {
    Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .header("cache-control", "no-store")
        .body(Full::new(Bytes::from(body.to_string())).boxed())
        .unwrap()
}

fn pairs(query: &str) -> HashMap<String, String> {
    reqwest::Url::parse(&format!("http://x/?{query}"))
        .unwrap()
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
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
                    let mut state = self.state.lock().unwrap();
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
                    "Bearer resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\", scope=\"mcp\"",
                    self.base
                );
                Response::builder()
                    .status(401)
                    .header("www-authenticate", challenge)
                    .body(Full::new(Bytes::new()).boxed())
                    .unwrap()
            }
            ("GET", "/.well-known/oauth-protected-resource/mcp") => reply(
                200,
                json!({
                    "resource": format!("{}/mcp", self.base),
                    "authorization_servers": [self.base],
                    "scopes_supported": ["mcp"],
                }),
            ),
            ("GET", "/.well-known/oauth-authorization-server") => reply(
                200,
                json!({
                    "issuer": self.base,
                    "authorization_endpoint": format!("{}/authorize", self.base),
                    "token_endpoint": format!("{}/token", self.base),
                    "registration_endpoint": format!("{}/register", self.base),
                    "response_types_supported": ["code"],
                    "grant_types_supported": ["authorization_code", "refresh_token"],
                    "code_challenge_methods_supported": ["S256"],
                    "token_endpoint_auth_methods_supported": ["none"],
                    "scopes_supported": ["mcp"],
                }),
            ),
            ("POST", "/register") => {
                let body = req.into_body().collect().await.unwrap().to_bytes();
                let request: Value = serde_json::from_slice(&body).unwrap();
                let uris: Vec<String> =
                    serde_json::from_value(request["redirect_uris"].clone()).unwrap();
                let mut state = self.state.lock().unwrap();
                state.next += 1;
                let id = format!("client-{}", state.next);
                state.clients.insert(id.clone(), uris.clone());
                reply(201, json!({"client_id": id, "redirect_uris": uris}))
            }
            ("GET", "/authorize") => {
                let q = pairs(&query);
                let mut state = self.state.lock().unwrap();
                let registered = state
                    .clients
                    .get(&q["client_id"])
                    .is_some_and(|uris| uris.contains(&q["redirect_uri"]));
                if !registered
                    || q.get("response_type").map(String::as_str) != Some("code")
                    || q.get("code_challenge_method").map(String::as_str) != Some("S256")
                {
                    return reply(400, json!({"error": "invalid_request"}));
                }
                state.next += 1;
                let code = format!("code-{}", state.next);
                state.codes.insert(
                    code.clone(),
                    (
                        q["client_id"].clone(),
                        q["code_challenge"].clone(),
                        q["redirect_uri"].clone(),
                    ),
                );
                let mut location = reqwest::Url::parse(&q["redirect_uri"]).unwrap();
                location
                    .query_pairs_mut()
                    .append_pair("code", &code)
                    .append_pair("state", &q["state"]);
                Response::builder()
                    .status(302)
                    .header("location", location.as_str())
                    .body(Full::new(Bytes::new()).boxed())
                    .unwrap()
            }
            ("POST", "/token") => {
                let body = req.into_body().collect().await.unwrap().to_bytes();
                let form = pairs(&String::from_utf8_lossy(&body));
                let mut state = self.state.lock().unwrap();
                let granted = match form.get("grant_type").map(String::as_str) {
                    Some("authorization_code") => state.codes.remove(&form["code"]).is_some_and(
                        |(client, challenge, redirect)| {
                            form.get("client_id") == Some(&client)
                                && form.get("redirect_uri") == Some(&redirect)
                                && pkce_s256(&form["code_verifier"]) == challenge
                        },
                    ),
                    Some("refresh_token") => {
                        let ok = state.refresh.remove(&form["refresh_token"]);
                        if ok {
                            state.refreshes += 1;
                        }
                        ok
                    }
                    _ => false,
                };
                if !granted {
                    return reply(400, json!({"error": "invalid_grant"}));
                }
                state.next += 1;
                let n = state.next;
                let (access, refresh) = (format!("at-{n}"), format!("rt-{n}"));
                state.access.insert(access.clone());
                state.refresh.insert(refresh.clone());
                reply(
                    200,
                    json!({
                        "access_token": access,
                        "token_type": "Bearer",
                        "expires_in": 3600,
                        "refresh_token": refresh,
                        "scope": "mcp",
                    }),
                )
            }
            _ => reply(404, json!({"error": "not_found"})),
        }
    }
}
