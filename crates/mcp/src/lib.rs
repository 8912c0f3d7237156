//! wright's MCP client: which servers to run ([`config`]), the names their
//! tools get ([`names`]), the connections ([`McpManager`]: tools, resources,
//! prompts, progress, instructions), tool schemas the model APIs accept
//! ([`schema`]), the results in wright's shape ([`result`]), OAuth login
//! for HTTP servers ([`auth`]) and the relay to the in-process servers of
//! a program driving wright ([`SdkRelay`]). Wiring into the core and the CLI lives
//! elsewhere; this crate knows nothing about models or permissions.

pub mod auth;
mod auth_callback;
mod auth_store;
mod client;
pub mod config;
mod error;
mod manager;
pub mod names;
pub mod project_env;
pub mod result;
pub mod schema;
mod sdk;
mod stdio;
mod tap;
mod tls;
mod types;

pub use client::AUTH_REQUIRED;
pub use config::{ConfigError, ConfigSource, McpServer, McpServerConfig};
pub use error::McpError;
pub use manager::{MAX_INSTRUCTIONS_CHARS, McpManager};
pub use names::{ToolNames, ToolRef};
pub use result::McpToolResult;
pub use schema::normalize_schema;
pub use sdk::{SDK_NEEDS_RELAY, SdkRelay, SdkRelayError};
pub use types::{
    McpImage, McpProgress, McpPrompt, McpPromptArg, McpPromptMessage, McpResource, McpTool,
    ProgressSink, PromptRole, ServerReport, ServerStatus, StartOptions, ToolHints,
};
