//! Shared helpers: servers built from the test-server binary.

mod calls;
mod features;
mod http;
mod lifecycle;
mod oauth;

use std::collections::BTreeMap;
use std::time::Duration;

use wright_mcp::{ConfigSource, McpManager, McpServer, McpServerConfig, StartOptions};

/// A stdio server running the test-server binary with `args`.
pub fn test_server(name: &str, args: &[&str]) -> McpServer {
    test_server_with_env(name, args, BTreeMap::new())
}

/// [`test_server`] with extra env.
pub fn test_server_with_env(name: &str, args: &[&str], env: BTreeMap<String, String>) -> McpServer {
    let bin = wright_test_support::mcp_test_server_bin().unwrap();
    McpServer {
        name: name.to_owned(),
        config: McpServerConfig::Stdio {
            command: bin.to_string_lossy().into_owned(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env,
        },
        source: ConfigSource::CommandLine,
    }
}

/// Options with short waits so failure tests finish quickly.
pub fn quick_options() -> StartOptions {
    StartOptions {
        startup_timeout: Duration::from_secs(20),
        shutdown_grace: Duration::from_millis(500),
        ..StartOptions::default()
    }
}

/// Starts the given servers.
pub async fn start(servers: Vec<McpServer>) -> McpManager {
    McpManager::start(servers, quick_options()).await
}
