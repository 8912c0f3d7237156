//! Why an MCP request (a tool call, a resource read, a prompt) failed
//! before the server produced a result. The core turns each into an error
//! tool result or a message with this text.

use std::time::Duration;

/// A failed call (messages name the server and the tool, never arguments).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum McpError {
    /// No connected server exposes this name.
    #[error("unknown MCP tool {0}")]
    UnknownTool(String),
    /// The server is not connected (failed to start, or died again after
    /// its one restart).
    #[error("MCP server \"{server}\" is not available: {reason}")]
    Unavailable {
        /// The server.
        server: String,
        /// Why.
        reason: String,
    },
    /// The server died (or the connection closed) during the call; it is
    /// restarted once on the next call.
    #[error("MCP server \"{server}\" stopped during {tool}: {detail}")]
    ServerDied {
        /// The server.
        server: String,
        /// The tool's exposed name (for resources and prompts, the request).
        tool: String,
        /// Exit code and stderr tail, or the transport's message.
        detail: String,
    },
    /// No result within the call timeout (the request was cancelled).
    #[error("{tool} timed out after {} s (MCP server \"{server}\")", .after.as_secs_f32())]
    Timeout {
        /// The server.
        server: String,
        /// The tool's exposed name (for resources and prompts, the request).
        tool: String,
        /// The timeout.
        after: Duration,
    },
    /// The caller cancelled the call (the request was cancelled).
    #[error("{tool} was cancelled")]
    Cancelled {
        /// The tool's exposed name (for resources and prompts, the request).
        tool: String,
    },
    /// The arguments are not a JSON object.
    #[error("{tool}: the arguments must be a JSON object")]
    BadArguments {
        /// The tool's exposed name (for resources and prompts, the request).
        tool: String,
    },
    /// No server of this name is configured.
    #[error("no MCP server named \"{0}\"")]
    UnknownServer(String),
    /// The server does not offer resources or prompts (it did not advertise
    /// the capability).
    #[error("MCP server \"{server}\" does not offer {feature}")]
    Unsupported {
        /// The server.
        server: String,
        /// `resources` or `prompts`.
        feature: &'static str,
    },
    /// The server lists no prompt of this name.
    #[error("MCP server \"{server}\" has no prompt \"{prompt}\"")]
    UnknownPrompt {
        /// The server.
        server: String,
        /// The prompt's name.
        prompt: String,
    },
    /// Required prompt arguments were not given.
    #[error(
        "prompt \"{prompt}\" of MCP server \"{server}\" needs {}: {}",
        if .missing.len() == 1 { "the argument" } else { "the arguments" },
        .missing.join(", ")
    )]
    MissingArguments {
        /// The server.
        server: String,
        /// The prompt's name.
        prompt: String,
        /// The missing arguments, in the prompt's order.
        missing: Vec<String>,
    },
    /// A protocol-level error (JSON-RPC error answer, unexpected reply).
    #[error("MCP server \"{server}\" failed {tool}: {message}")]
    Protocol {
        /// The server.
        server: String,
        /// The tool's exposed name (for resources and prompts, the request).
        tool: String,
        /// The server's or rmcp's message.
        message: String,
    },
    /// Logging in or out failed (OAuth discovery, registration, the
    /// browser step, the token exchange, the token store). Never holds a
    /// token.
    #[error("MCP server \"{server}\": {message}")]
    Auth {
        /// The server.
        server: String,
        /// What failed.
        message: String,
    },
}
