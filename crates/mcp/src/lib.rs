//! wright's MCP client: which servers to run ([`config`]), the names their
//! tools get ([`names`]), the connections ([`McpManager`]) and the results in
//! wright's shape ([`result`]). Wiring into the core and the CLI lives
//! elsewhere; this crate knows nothing about models or permissions.

pub mod config;
pub mod names;
pub mod result;

pub use config::{ConfigError, ConfigSource, McpServer, McpServerConfig};
pub use names::{ToolNames, ToolRef};
pub use result::{McpImage, McpToolResult};
