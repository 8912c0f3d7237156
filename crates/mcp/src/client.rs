//! One live connection to one server: rmcp's client service over the
//! child's pipes (stdio) or streamable HTTP, the `tools/list_changed` flag,
//! its tools, and closing it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::{CallToolRequestParams, ClientConfig, Implementation, Tool};
use rmcp::service::{NotificationContext, Peer, RoleClient, RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpClientTransportConfig,
};
use rmcp::{ClientHandler, ServiceExt};

use crate::auth::{self, TokenStore};
use crate::config::McpServerConfig;
use crate::stdio::{self, SpawnSpec, StdioChild};

/// The marker in a failure reason for an HTTP server that answered 401/403,
/// after [`auth::needs_login`]'s text (the wiring offers `wright mcp login`
/// when it sees either).
pub const AUTH_REQUIRED: &str = "the server answered 401/403 (authorization required)";

/// Settings a connection needs from the manager's options.
pub(crate) struct ConnectSettings<'a> {
    pub startup_timeout: Duration,
    pub withheld_env: &'a [String],
    pub cwd: Option<&'a PathBuf>,
    /// The server's name (for the "needs login" reason).
    pub server_name: &'a str,
    /// Where OAuth tokens are, if the caller uses them.
    pub auth_store: Option<&'a TokenStore>,
}

/// The client side rmcp calls back into: only notices that the server's
/// tool list changed (sampling, roots and elicitation keep rmcp's refusing
/// defaults until the core supports them).
pub(crate) struct Handler {
    stale: Arc<AtomicBool>,
}

impl ClientHandler for Handler {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.stale.store(true, Ordering::SeqCst);
    }

    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.client_info = Implementation::new("wright", env!("CARGO_PKG_VERSION"));
        info
    }
}

/// A connected server.
pub(crate) struct Connection {
    service: tokio::sync::Mutex<Option<RunningService<RoleClient, Handler>>>,
    peer: Peer<RoleClient>,
    stale: Arc<AtomicBool>,
    dead: AtomicBool,
    /// The process, for stdio servers.
    pub child: Option<StdioChild>,
}

/// Why a call did not produce a result.
pub(crate) enum CallFailure {
    /// The connection is gone (the process died, the HTTP session ended).
    Closed(String),
    /// The server answered with a JSON-RPC error, or something else failed.
    Other(String),
}

impl Connection {
    /// Connects and lists the tools, all within the startup timeout. The
    /// error is the status line's reason.
    pub(crate) async fn connect(
        config: &McpServerConfig,
        settings: &ConnectSettings<'_>,
    ) -> Result<(Self, Vec<Tool>), String> {
        let stale = Arc::new(AtomicBool::new(false));
        let handler = Handler {
            stale: Arc::clone(&stale),
        };
        let timeout = settings.startup_timeout;
        match config {
            McpServerConfig::Stdio { command, args, env } => {
                let spec = SpawnSpec {
                    command,
                    args,
                    env,
                    withheld_env: settings.withheld_env,
                    cwd: settings.cwd.map(PathBuf::as_path),
                };
                let (child, stdout, stdin) = stdio::spawn(&spec)?;
                let started = tokio::time::timeout(
                    timeout,
                    initialize(handler, (stdout, stdin), settings.server_name),
                )
                .await;
                match started {
                    Ok(Ok((service, tools))) => Ok((Self::new(service, stale, Some(child)), tools)),
                    Ok(Err(e)) => {
                        // Give an exiting process a moment so the report has
                        // its exit code.
                        let _ = child.wait_exit(Duration::from_millis(500)).await;
                        child.kill().await;
                        Err(format!("{e} ({})", child.describe_end()))
                    }
                    Err(_) => {
                        child.kill().await;
                        Err(format!(
                            "no answer to initialize within {} s ({})",
                            timeout.as_secs_f32(),
                            child.describe_end()
                        ))
                    }
                }
            }
            McpServerConfig::Http { url, headers } => {
                let mut custom = HashMap::new();
                for (name, value) in headers {
                    let name = HeaderName::try_from(name.as_str())
                        .map_err(|_| format!("invalid header name {name:?}"))?;
                    // The value usually holds a token: never echo it.
                    let value = HeaderValue::try_from(value.as_str())
                        .map_err(|_| format!("invalid value for header {name}"))?;
                    custom.insert(name, value);
                }
                let transport_config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                    .custom_headers(custom);
                // A configured Authorization header is the user's own token;
                // a stored OAuth token must not be mixed in.
                let own_auth = headers
                    .keys()
                    .any(|k| k.eq_ignore_ascii_case("authorization"));
                let authorized = match settings.auth_store {
                    Some(store) if !own_auth => {
                        auth::authorized_client(settings.server_name, url, store, http_client()?)
                            .await?
                    }
                    _ => None,
                };
                let started = match authorized {
                    Some(client) => connect_http(handler, client, transport_config, settings).await,
                    None => connect_http(handler, http_client()?, transport_config, settings).await,
                };
                started.map(|(service, tools)| (Self::new(service, stale, None), tools))
            }
            McpServerConfig::Sse { .. } => Err(
                "the legacy SSE transport is not supported (rmcp 3.11 has no SSE client); \
                 use \"type\": \"http\" if the server speaks streamable HTTP"
                    .to_owned(),
            ),
        }
    }

    fn new(
        service: RunningService<RoleClient, Handler>,
        stale: Arc<AtomicBool>,
        child: Option<StdioChild>,
    ) -> Self {
        Self {
            peer: service.peer().clone(),
            service: tokio::sync::Mutex::new(Some(service)),
            stale,
            dead: AtomicBool::new(false),
            child,
        }
    }

    /// Whether the connection can no longer carry calls.
    pub(crate) fn is_closed(&self) -> bool {
        self.dead.load(Ordering::SeqCst)
            || self.peer.is_transport_closed()
            || self
                .child
                .as_ref()
                .is_some_and(|c| c.exit_status().is_some())
    }

    /// Takes the "tool list changed" flag (clears it).
    pub(crate) fn take_stale(&self) -> bool {
        self.stale.swap(false, Ordering::SeqCst)
    }

    /// Lists the tools again.
    pub(crate) async fn list_tools(&self) -> Result<Vec<Tool>, String> {
        self.peer
            .list_all_tools()
            .await
            .map_err(|e| format!("tools/list failed: {e}"))
    }

    /// One `tools/call`. Dropping the future (timeout, cancel) makes rmcp
    /// send `notifications/cancelled` for the request.
    pub(crate) async fn call(
        &self,
        tool: &str,
        arguments: Option<serde_json::Map<String, serde_json::Value>>,
    ) -> Result<rmcp::model::CallToolResult, CallFailure> {
        let mut params = CallToolRequestParams::new(tool.to_owned());
        if let Some(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        match self.peer.call_tool(params).await {
            Ok(result) => Ok(result),
            // Whatever rmcp says, a closed transport means the server is
            // gone (a send error when the pipe broke, for instance).
            Err(e)
                if matches!(e, ServiceError::TransportClosed)
                    || self.peer.is_transport_closed() =>
            {
                self.dead.store(true, Ordering::SeqCst);
                Err(CallFailure::Closed(self.end_report().await))
            }
            Err(ServiceError::McpError(e)) => Err(CallFailure::Other(format!(
                "the server answered with an error: {}",
                e.message
            ))),
            Err(e) => Err(CallFailure::Other(e.to_string())),
        }
    }

    /// "connection closed" plus, for a process, how it ended.
    async fn end_report(&self) -> String {
        match &self.child {
            Some(child) => {
                let _ = child.wait_exit(Duration::from_millis(500)).await;
                format!("the server exited ({})", child.describe_end())
            }
            None => "the connection to the server closed".to_owned(),
        }
    }

    /// Closes the session (stdin EOF for a process) and, for a process,
    /// terminates its group after `grace`.
    pub(crate) async fn close(&self, grace: Duration) {
        let service = self.service.lock().await.take();
        if let Some(mut service) = service {
            let _ = service.close_with_timeout(grace).await;
        }
        if let Some(child) = &self.child {
            child.terminate(grace).await;
        }
    }
}

/// Streamable HTTP through `client` (plain, or rmcp's `AuthClient`), within
/// the startup timeout.
async fn connect_http<C>(
    handler: Handler,
    client: C,
    config: StreamableHttpClientTransportConfig,
    settings: &ConnectSettings<'_>,
) -> Result<(RunningService<RoleClient, Handler>, Vec<Tool>), String>
where
    C: StreamableHttpClient + Send + Sync + 'static,
{
    let transport = StreamableHttpClientTransport::with_client(client, config);
    let timeout = settings.startup_timeout;
    tokio::time::timeout(
        timeout,
        initialize(handler, transport, settings.server_name),
    )
    .await
    .unwrap_or_else(|_| {
        Err(format!(
            "no answer to initialize within {} s",
            timeout.as_secs_f32()
        ))
    })
}

/// Handshake, then the first `tools/list`.
async fn initialize<T, E, A>(
    handler: Handler,
    transport: T,
    server_name: &str,
) -> Result<(RunningService<RoleClient, Handler>, Vec<Tool>), String>
where
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let service = handler.serve(transport).await.map_err(|e| {
        if e.is_authorization_required() {
            // No token, or one the server rejects that cannot be refreshed:
            // `wright mcp login` is the user's next step.
            format!("{}; {AUTH_REQUIRED}", auth::needs_login(server_name))
        } else {
            format!("initialize failed: {e}")
        }
    })?;
    let tools = service
        .peer()
        .list_all_tools()
        .await
        .map_err(|e| format!("tools/list failed: {e}"))?;
    Ok((service, tools))
}

/// rustls with the ring provider (installed as the process default once,
/// like wright-llm does) and no redirects, so custom headers (tokens) are
/// never replayed to another host.
fn http_client() -> Result<reqwest::Client, String> {
    install_crypto_provider();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        // rmcp's own default: a reused connection whose previous SSE body
        // was not drained stalls on delayed ACKs.
        .pool_max_idle_per_host(0)
        .connect_timeout(Duration::from_secs(10))
        .user_agent(concat!("wright/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))
}

/// Makes ring the process's rustls provider unless one is set (rmcp's OAuth
/// client builds its own reqwest clients, which need it too).
pub(crate) fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
