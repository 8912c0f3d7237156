//! One live connection to one server: rmcp's client service over the
//! child's pipes (stdio) or streamable HTTP behind the [`Tap`] (progress
//! routing, `list_changed` flags), the requests wright makes (tools,
//! resources, prompts), and closing it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::{
    CallToolRequestParams, ClientConfig, GetPromptRequestParams, GetPromptResult, Implementation,
    Prompt, ReadResourceRequestParams, ReadResourceResult, Resource, ServerPeerInfo, Tool,
};
use rmcp::service::{Peer, RoleClient, RunningService, ServiceError};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpClientTransportConfig,
};
use rmcp::transport::{IntoTransport, StreamableHttpClientTransport};
use rmcp::{ClientHandler, ServiceExt};

use crate::auth::{self, TokenStore};
use crate::config::McpServerConfig;
use crate::sdk::{RelayState, RelayTransport, SDK_NEEDS_RELAY, SdkRelay};
use crate::stdio::{self, SpawnSpec, StdioChild};
use crate::tap::{Shared, Tap};
use crate::types::ProgressSink;

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
    /// Woken when a server says its tools or prompts changed.
    pub list_changed: &'a Arc<tokio::sync::Notify>,
    /// The way to `"type": "sdk"` servers, when a program drives wright.
    pub sdk_relay: Option<&'a Arc<dyn SdkRelay>>,
}

/// The client side rmcp calls back into: only the client's identity
/// (sampling, roots and elicitation keep rmcp's refusing defaults until the
/// core supports them; notifications are read by the [`Tap`]).
pub(crate) struct Handler;

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.client_info = Implementation::new("wright", env!("CARGO_PKG_VERSION"));
        info
    }
}

/// What a server offered when it connected.
pub(crate) struct Listing {
    pub tools: Vec<Tool>,
    /// Empty when the server does not advertise prompts.
    pub prompts: Vec<Prompt>,
    /// Its `initialize` result (capabilities, instructions).
    pub info: Option<Arc<ServerPeerInfo>>,
}

/// A connected server.
pub(crate) struct Connection {
    service: tokio::sync::Mutex<Option<RunningService<RoleClient, Handler>>>,
    peer: Peer<RoleClient>,
    shared: Arc<Shared>,
    dead: AtomicBool,
    /// The process, for stdio servers.
    pub child: Option<StdioChild>,
    /// The relay's state, for SDK servers (why it closed).
    relay: Option<Arc<RelayState>>,
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
    ) -> Result<(Self, Listing), String> {
        let shared = Arc::new(Shared::new(Arc::clone(settings.list_changed)));
        let handler = Handler;
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
                let pipes =
                    IntoTransport::<RoleClient, std::io::Error, _>::into_transport((stdout, stdin));
                let transport = Tap::new(pipes, Arc::clone(&shared));
                let started = tokio::time::timeout(
                    timeout,
                    initialize(handler, transport, settings.server_name),
                )
                .await;
                match started {
                    Ok(Ok((service, listing))) => {
                        Ok((Self::new(service, shared, Some(child)), listing))
                    }
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
                let mut transport_config =
                    StreamableHttpClientTransportConfig::with_uri(url.as_str())
                        .custom_headers(custom);
                transport_config.retry_config = Arc::new(FewRetries);
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
                let tap = Arc::clone(&shared);
                let started = match authorized {
                    Some(client) => {
                        connect_http(handler, client, transport_config, tap, settings).await
                    }
                    None => {
                        connect_http(handler, http_client()?, transport_config, tap, settings).await
                    }
                };
                started.map(|(service, listing)| (Self::new(service, shared, None), listing))
            }
            McpServerConfig::Sdk => {
                let relay = settings
                    .sdk_relay
                    .ok_or_else(|| SDK_NEEDS_RELAY.to_owned())?;
                let (relay, state) = RelayTransport::new(Arc::clone(relay), settings.server_name);
                let transport = Tap::new(relay, Arc::clone(&shared));
                let started = tokio::time::timeout(
                    timeout,
                    initialize(handler, transport, settings.server_name),
                )
                .await;
                let closed = || {
                    state
                        .closed_reason()
                        .map(|r| format!(" (the relay to the program closed: {r})"))
                        .unwrap_or_default()
                };
                match started {
                    Ok(Ok((service, listing))) => {
                        let mut conn = Self::new(service, shared, None);
                        conn.relay = Some(state);
                        Ok((conn, listing))
                    }
                    Ok(Err(e)) => Err(format!("{e}{}", closed())),
                    Err(_) => Err(format!(
                        "no answer to initialize within {} s{}",
                        timeout.as_secs_f32(),
                        closed()
                    )),
                }
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
        shared: Arc<Shared>,
        child: Option<StdioChild>,
    ) -> Self {
        Self {
            peer: service.peer().clone(),
            service: tokio::sync::Mutex::new(Some(service)),
            shared,
            dead: AtomicBool::new(false),
            child,
            relay: None,
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
        self.shared.tools_stale.swap(false, Ordering::SeqCst)
    }

    /// Whether a list changed since the last look (the flags stay up).
    pub(crate) fn is_stale(&self) -> bool {
        self.shared.tools_stale.load(Ordering::SeqCst)
            || self.shared.prompts_stale.load(Ordering::SeqCst)
    }

    /// Takes the "prompt list changed" flag (clears it).
    pub(crate) fn take_prompts_stale(&self) -> bool {
        self.shared.prompts_stale.swap(false, Ordering::SeqCst)
    }

    /// Lists the tools again.
    pub(crate) async fn list_tools(&self) -> Result<Vec<Tool>, String> {
        self.peer
            .list_all_tools()
            .await
            .map_err(|e| format!("tools/list failed: {e}"))
    }

    /// Lists the prompts again.
    pub(crate) async fn list_prompts(&self) -> Result<Vec<Prompt>, String> {
        self.peer
            .list_all_prompts()
            .await
            .map_err(|e| format!("prompts/list failed: {e}"))
    }

    /// One `tools/call`, its progress notifications sent to `progress`.
    /// Dropping the future (timeout, cancel) makes rmcp send
    /// `notifications/cancelled` for the request.
    pub(crate) async fn call(
        &self,
        tool: &str,
        arguments: Option<serde_json::Map<String, serde_json::Value>>,
        progress: Option<ProgressSink>,
    ) -> Result<rmcp::model::CallToolResult, CallFailure> {
        let mut params = CallToolRequestParams::new(tool.to_owned());
        if let Some(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        // Held until the call ends, however it ends.
        let route = progress.map(|sink| self.shared.route(sink));
        if let Some(route) = &route {
            params.meta = Some(route.meta());
        }
        let outcome = self.peer.call_tool(params).await;
        drop(route);
        self.settle(outcome).await
    }

    /// Every resource (all pages).
    pub(crate) async fn list_resources(&self) -> Result<Vec<Resource>, CallFailure> {
        let outcome = self.peer.list_all_resources().await;
        self.settle(outcome).await
    }

    /// One `resources/read`.
    pub(crate) async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, CallFailure> {
        let outcome = self
            .peer
            .read_resource(ReadResourceRequestParams::new(uri))
            .await;
        self.settle(outcome).await
    }

    /// One `prompts/get`.
    pub(crate) async fn get_prompt(
        &self,
        name: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> Result<GetPromptResult, CallFailure> {
        let params = GetPromptRequestParams::new(name).with_arguments(arguments);
        let outcome = self.peer.get_prompt(params).await;
        self.settle(outcome).await
    }

    /// A request's outcome, with a closed transport marking the connection
    /// dead.
    async fn settle<T>(&self, outcome: Result<T, ServiceError>) -> Result<T, CallFailure> {
        match outcome {
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
            Err(ServiceError::TransportSend(error)) => {
                Err(CallFailure::Other(transport_error_text(&error)))
            }
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
            None => match self.relay.as_ref().and_then(|r| r.closed_reason()) {
                Some(reason) => format!("the relay to the program closed: {reason}"),
                None => "the connection to the server closed".to_owned(),
            },
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

/// Streamable HTTP through `client` (plain, or rmcp's `AuthClient`) behind
/// the [`Tap`], within the startup timeout.
async fn connect_http<C>(
    handler: Handler,
    client: C,
    config: StreamableHttpClientTransportConfig,
    shared: Arc<Shared>,
    settings: &ConnectSettings<'_>,
) -> Result<(RunningService<RoleClient, Handler>, Listing), String>
where
    C: StreamableHttpClient + Send + Sync + 'static,
{
    let transport = Tap::new(
        StreamableHttpClientTransport::with_client(client, config),
        shared,
    );
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

/// Handshake, then the first `tools/list` and, when the server offers
/// prompts, `prompts/list`.
async fn initialize<T, E, A>(
    handler: Handler,
    transport: T,
    server_name: &str,
) -> Result<(RunningService<RoleClient, Handler>, Listing), String>
where
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let service = handler.serve(transport).await.map_err(|e| {
        if e.is_authorization_required() {
            // No token, or one the server rejects that cannot be refreshed:
            // `wright mcp login` is the user's next step.
            format!("{}; {AUTH_REQUIRED}", auth::needs_login(server_name))
        } else if let rmcp::service::ClientInitializeError::TransportError { error, .. } = &e {
            format!("initialize failed: {}", transport_error_text(error))
        } else {
            format!("initialize failed: {e}")
        }
    })?;
    let tools = service
        .peer()
        .list_all_tools()
        .await
        .map_err(|e| format!("tools/list failed: {e}"))?;
    let info = service.peer().peer_info();
    let offers_prompts = info
        .as_ref()
        .is_some_and(|info| info.capabilities.prompts.is_some());
    // Prompts are an extra: a server whose listing fails still serves its
    // tools.
    let prompts = if offers_prompts {
        service.peer().list_all_prompts().await.unwrap_or_default()
    } else {
        Vec::new()
    };
    Ok((
        service,
        Listing {
            tools,
            prompts,
            info,
        },
    ))
}

/// rustls with the ring provider (installed as the process default once,
/// like wright-llm does) and no redirects, so custom headers (tokens) are
/// never replayed to another host.
fn http_client() -> Result<reqwest::Client, String> {
    crate::tls::install_crypto_provider();
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

/// How often a broken SSE stream of an HTTP server is resumed: rmcp's
/// default retries forever with a doubling delay, so a call in flight to a
/// server that died would wait for the call timeout (10 minutes). Three
/// tries within a few seconds ride out a blip; then the call fails and the
/// server is restarted on the next call like a dead stdio server.
#[derive(Debug)]
struct FewRetries;

impl rmcp::transport::common::client_side_sse::SseRetryPolicy for FewRetries {
    fn retry(&self, current_times: usize) -> Option<Duration> {
        const DELAYS_MS: [u64; 3] = [250, 1000, 2000];
        DELAYS_MS
            .get(current_times)
            .map(|ms| Duration::from_millis(*ms))
    }
}

/// What went wrong in a transport, for a person: rmcp's own text starts
/// with the transport's Rust type name, so this walks the cause chain
/// instead ("error sending request for url (…): … Connection refused"),
/// leaving out causes their parent already quotes.
fn transport_error_text(error: &rmcp::transport::DynamicTransportError) -> String {
    let mut text = error.error.to_string();
    let mut cause = cause_of(error.error.as_ref());
    while let Some(e) = cause {
        let part = e.to_string();
        if !text.contains(&part) {
            text = format!("{text}: {part}");
        }
        cause = cause_of(e);
    }
    text
}

/// `e`'s cause; rmcp's HTTP client error does not declare its reqwest
/// error a source, so it is dug out here.
fn cause_of<'a>(
    e: &'a (dyn std::error::Error + 'static),
) -> Option<&'a (dyn std::error::Error + 'static)> {
    use rmcp::transport::streamable_http_client::StreamableHttpError;
    match e.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
        Some(StreamableHttpError::Client(inner)) => Some(inner),
        _ => e.source(),
    }
}
