//! wright's MCP client: which servers to run ([`config`]), the names their
//! tools get ([`names`]), the connections ([`McpManager`]) and the results in
//! wright's shape ([`result`]), and OAuth login for HTTP servers ([`auth`]).
//! Wiring into the core and the CLI lives elsewhere; this crate knows
//! nothing about models or permissions.

pub mod auth;
mod auth_callback;
mod auth_store;
mod client;
pub mod config;
mod error;
mod manager;
pub mod names;
pub mod result;
mod stdio;
mod types;

pub use client::AUTH_REQUIRED;
pub use config::{ConfigError, ConfigSource, McpServer, McpServerConfig};
pub use error::McpError;
pub use manager::McpManager;
pub use names::{ToolNames, ToolRef};
pub use result::{McpImage, McpToolResult};
pub use types::{McpTool, ServerReport, ServerStatus, StartOptions, ToolHints};
