//! The seam between the ACP server and the binary: what the server asks
//! for (a session for a directory, with the editor's MCP servers, maybe
//! resuming a recorded one) and what it gets back (the core's op sender
//! and event stream, plus the recorded conversation for a replay).

use std::path::PathBuf;

use futures::future::BoxFuture;
use tokio::sync::mpsc;
use wright_protocol::{Event, Message, Op};

/// An MCP server the editor asked the session to use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpServerSpec {
    /// A child process speaking MCP on stdio.
    Stdio {
        /// The server's name (the `<server>` of `mcp__<server>__<tool>`).
        name: String,
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables added to its environment.
        env: Vec<(String, String)>,
    },
    /// Streamable HTTP.
    Http {
        /// The server's name.
        name: String,
        /// The endpoint.
        url: String,
        /// Headers sent with every request.
        headers: Vec<(String, String)>,
    },
    /// The legacy HTTP + SSE transport.
    Sse {
        /// The server's name.
        name: String,
        /// The endpoint.
        url: String,
        /// Headers sent with every request.
        headers: Vec<(String, String)>,
    },
}

/// What `session/new` and `session/load` ask the backend for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRequest {
    /// The session's working directory (absolute, from the editor).
    pub cwd: PathBuf,
    /// The editor's MCP servers; the user chose them, so they start
    /// without wright's own approval question.
    pub mcp_servers: Vec<McpServerSpec>,
    /// A recorded session to continue (`session/load`).
    pub resume: Option<String>,
    /// The model to use instead of the configured one.
    pub model: Option<String>,
    /// The editor's unsaved buffers, when it offers `fs/read_text_file`.
    pub editor: Option<crate::EditorFs>,
}

/// A model the editor may switch to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelChoice {
    /// The name wright passes to the provider.
    pub name: String,
    /// The catalog's provider family: `anthropic`, `openai`, `custom`, …
    pub provider: String,
}

/// A running core session.
pub struct BackendSession {
    /// The session id (also the id the editor uses); empty when the
    /// backend does not know it, and then the core's first event names it.
    pub id: String,
    /// Ops into the core.
    pub ops: mpsc::Sender<Op>,
    /// Events out of the core, lossless and in order.
    pub events: mpsc::UnboundedReceiver<Event>,
    /// For a resumed session: the recorded conversation, replayed to the
    /// editor as updates.
    pub history: Vec<Message>,
    /// Start-up notes (warnings, a detected local server) for the log.
    pub notice: Option<String>,
    /// The model's context window in tokens, for usage updates.
    pub context_window: Option<u64>,
    /// Models the catalog knows (the server offers those of the session's
    /// provider).
    pub models: Vec<ModelChoice>,
    /// The project's and user's custom slash commands, offered to the
    /// editor beside the built-in `/compact`.
    pub commands: Vec<CustomCommand>,
    /// What a recorded call touched, for the replay of `history` (live calls
    /// carry it in their items).
    pub touches_of: TouchesOf,
}

/// What a call of the named tool with these raw arguments touches, as the
/// tool says; `None` for a tool the backend does not know.
pub type TouchesOf = Box<dyn Fn(&str, &str) -> Option<wright_protocol::Touches> + Send + Sync>;

/// A custom slash command (`.wright/commands/NAME.md`) as the editor sees it.
pub struct CustomCommand {
    /// The name, without the slash.
    pub name: String,
    /// What it does, from its frontmatter.
    pub description: String,
    /// What its arguments are, e.g. `[file]`.
    pub hint: Option<String>,
    /// The prompt text for `/NAME ARGS`: the command's body with `ARGS`
    /// put in, done by the backend as every other front end does it.
    pub expand: Box<dyn Fn(&str) -> String + Send + Sync>,
}

/// Whether wright can reach a model without the editor doing anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthState {
    /// A key or a local server is configured.
    Ready,
    /// Nothing is configured; the text says what to set.
    Missing {
        /// What the user must do, e.g. "set ANTHROPIC_API_KEY".
        hint: String,
    },
}

/// Why a session could not start.
#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    /// No credentials: the editor should show the auth methods.
    #[error("{0}")]
    AuthRequired(String),
    /// The session named does not exist (or cannot be read).
    #[error("{0}")]
    NotFound(String),
    /// Anything else (bad configuration, a locked session).
    #[error("{0}")]
    Failed(String),
}

/// Starts sessions for the ACP server; implemented by the binary, which
/// owns configuration, providers, MCP and the session store.
pub trait Backend: Send + Sync + 'static {
    /// Starts (or resumes) a session.
    fn start(
        &self,
        request: SessionRequest,
    ) -> BoxFuture<'static, Result<BackendSession, BackendError>>;

    /// Whether credentials or a local server are in place.
    fn auth(&self) -> AuthState;
}
