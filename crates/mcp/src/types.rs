//! The manager's public value types: start options, per-server status
//! reports, and tools as the model will see them.

use std::path::PathBuf;
use std::time::Duration;

use crate::auth::TokenStore;
use crate::config::ConfigSource;
use crate::sdk::SdkRelay;

/// How servers are started and stopped.
#[derive(Debug, Clone)]
pub struct StartOptions {
    /// Longest wait for a server's initialize + first `tools/list`.
    pub startup_timeout: Duration,
    /// Each shutdown stage's wait (after closing stdin, after SIGTERM).
    pub shutdown_grace: Duration,
    /// Variables removed from a stdio server's inherited environment in
    /// addition to the credentials every child is denied
    /// ([`wright_sandbox::scrub_env`]).
    pub withheld_env: Vec<String>,
    /// Working directory of stdio servers; `None` keeps wright's.
    pub cwd: Option<PathBuf>,
    /// Working directories of particular servers (by name), over `cwd`:
    /// the caller starts the user's own servers outside an untrusted
    /// project (whose `node_modules/.bin` or `foo.py` would otherwise
    /// decide what `npx foo` or `python -m foo` runs) and the project's
    /// approved servers inside it.
    pub server_cwd: std::collections::BTreeMap<String, PathBuf>,
    /// Where OAuth tokens from `wright mcp login` are: an HTTP server with
    /// one stored for its URL gets it as a bearer token (refreshed when
    /// expired). `None`: no OAuth.
    pub auth_store: Option<TokenStore>,
    /// How `"type": "sdk"` servers are reached: the front end that speaks
    /// to the program driving wright (stream-json's control protocol)
    /// supplies it. `None`: such servers fail with
    /// [`crate::SDK_NEEDS_RELAY`].
    pub sdk_relay: Option<std::sync::Arc<dyn SdkRelay>>,
}

impl Default for StartOptions {
    fn default() -> Self {
        Self {
            startup_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(2),
            withheld_env: Vec::new(),
            cwd: None,
            server_cwd: std::collections::BTreeMap::new(),
            auth_store: None,
            sdk_relay: None,
        }
    }
}

/// A server's state for `wright mcp list`, doctor and the init line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerStatus {
    /// Not connected yet ([`crate::McpManager::connect_all`] has not finished it).
    Starting,
    /// Connected; its tools' exposed names.
    Connected {
        /// Exposed names, sorted.
        tools: Vec<String>,
    },
    /// Not usable: why (command, exit code and stderr tail for a process).
    Failed {
        /// A sentence for the user.
        reason: String,
    },
    /// Turned off by the user for this session (its tools are not offered).
    Disabled,
}

/// One server's line in a status report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerReport {
    /// The configured name.
    pub name: String,
    /// `stdio`, `http`, `sse` or `sdk`.
    pub transport: &'static str,
    /// The command line or URL (for an SDK server, where it runs).
    pub target: String,
    /// Where it was configured.
    pub source: ConfigSource,
    /// Connected or failed.
    pub status: ServerStatus,
}

/// The behaviour hints a server gives for a tool (MCP `annotations`);
/// hints, not guarantees: the permission layer decides whether to trust them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolHints {
    /// `readOnlyHint`.
    pub read_only: Option<bool>,
    /// `destructiveHint`.
    pub destructive: Option<bool>,
    /// `idempotentHint`.
    pub idempotent: Option<bool>,
    /// `openWorldHint`.
    pub open_world: Option<bool>,
}

/// A server tool as the model will see it.
#[derive(Debug, Clone, PartialEq)]
pub struct McpTool {
    /// The exposed name, `mcp__<server>__<tool>` (sanitized).
    pub name: String,
    /// The server.
    pub server: String,
    /// The tool's own name on the server.
    pub tool: String,
    /// Its display title, if any.
    pub title: Option<String>,
    /// Its description, if any.
    pub description: Option<String>,
    /// Its JSON schema for the arguments, as the server sent it.
    pub input_schema: serde_json::Value,
    /// Its annotations.
    pub hints: ToolHints,
}

/// Receives a tool call's `notifications/progress`, in the order the server
/// sent them, before the call returns. It runs on the connection's reader,
/// so it should be quick (forward to a channel, update a status line).
pub type ProgressSink = std::sync::Arc<dyn Fn(McpProgress) + Send + Sync>;

/// One progress notification of a tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct McpProgress {
    /// Progress so far (increases with each notification).
    pub progress: f64,
    /// The total, when the server knows it.
    pub total: Option<f64>,
    /// What the server is doing, if it says.
    pub message: Option<String>,
}

/// A resource a server offers (`resources/list`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpResource {
    /// The server offering it.
    pub server: String,
    /// Its URI, as `read_resource` takes it.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// Its display title, if any.
    pub title: Option<String>,
    /// Its description, if any.
    pub description: Option<String>,
    /// Its MIME type, if the server says.
    pub mime_type: Option<String>,
}

/// A prompt a server offers (`prompts/list`), e.g. for a slash command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpPrompt {
    /// The server offering it.
    pub server: String,
    /// Its name on the server.
    pub name: String,
    /// `mcp__<server>__<prompt>`, sanitized and deduplicated like tool names.
    pub exposed: String,
    /// Its description, if any.
    pub description: Option<String>,
    /// Its arguments, in the server's order.
    pub arguments: Vec<McpPromptArg>,
}

/// One argument of a prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpPromptArg {
    /// Its name.
    pub name: String,
    /// Its description, if any.
    pub description: Option<String>,
    /// Whether `get_prompt` needs it.
    pub required: bool,
}

/// Who speaks a prompt message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptRole {
    /// The user.
    User,
    /// The assistant.
    Assistant,
}

/// One message of an expanded prompt (`prompts/get`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpPromptMessage {
    /// Who speaks it.
    pub role: PromptRole,
    /// Its text; embedded resources are inlined, other content summarized.
    pub text: String,
    /// Its images.
    pub images: Vec<McpImage>,
}

/// One image of a result, ready for a model's image block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpImage {
    /// E.g. `image/png`.
    pub mime_type: String,
    /// The image bytes, base64 (as the server sent them).
    pub data: String,
}
