//! Test support for wright: a loopback mock of the provider wire APIs.
//!
//! [`MockServer`] is a blocking `std::net` HTTP/1.1 server on its own
//! threads, so synchronous tests (driving the `wright` binary with
//! `assert_cmd`) can use it without an async runtime. It answers requests
//! from a script of [`MockResponse`]s, one per request in arrival order, and
//! records every request as a [`RecordedRequest`].
//!
//! [`anthropic`] and [`openai_chat`] build SSE bodies in the exact shape the
//! real streaming APIs send; [`scenario`] holds the canned multi-turn scripts
//! shared by end-to-end tests, benchmarks and the `wright-mock` binary.
//! [`mcp_server`] is the MCP server behind `wright-mcp-test-server`, and
//! [`mcp_test_server_bin`] finds (building it if needed) that binary.
//! [`oauth_server`] is a loopback OAuth authorization server in front of
//! that MCP server on streamable HTTP, for the MCP login tests.
//! [`subagents`] is a routed scenario (see [`MockServer::start_routed`])
//! where a parent's two subagents run side by side.

pub mod anthropic;
mod http;
pub mod mcp_server;
pub mod oauth_server;
pub mod openai_chat;
pub mod openai_responses;
mod request;
mod response;
pub mod scenario;
mod server;
pub mod session_damage;
mod sse;
pub mod subagents;

pub use request::RecordedRequest;
pub use response::MockResponse;
pub use server::{MockServer, Router, ScriptMode};

/// Token counts a mock stream reports, in Anthropic's terms; the OpenAI
/// builders translate them (`prompt_tokens` includes cached input there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MockUsage {
    /// Input tokens not served from a cache.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// Input tokens read from the prompt cache.
    pub cache_read_input_tokens: u64,
    /// Input tokens written to the prompt cache.
    pub cache_creation_input_tokens: u64,
}

impl MockUsage {
    /// The usage every builder reports unless told otherwise. Fixed numbers
    /// so tests can assert exact token and cost totals.
    pub const DEFAULT: MockUsage = MockUsage {
        input_tokens: 100,
        output_tokens: 20,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
    };
}

impl Default for MockUsage {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The wire protocol a mock speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// Anthropic Messages, `POST /v1/messages`.
    Anthropic,
    /// OpenAI Chat Completions, `POST /v1/chat/completions`.
    OpenAiChat,
    /// OpenAI Responses, `POST /v1/responses`.
    OpenAiResponses,
}

impl Provider {
    /// Parses the CLI spelling (`anthropic`, `openai-chat`, `openai-responses`).
    pub fn parse(name: &str) -> Option<Provider> {
        match name {
            "anthropic" => Some(Provider::Anthropic),
            "openai-chat" => Some(Provider::OpenAiChat),
            "openai-responses" => Some(Provider::OpenAiResponses),
            _ => None,
        }
    }

    /// The CLI spelling of this provider.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenAiChat => "openai-chat",
            Provider::OpenAiResponses => "openai-responses",
        }
    }
}

/// The path of the `wright-mcp-test-server` binary, built (once per test
/// process) with the cargo that runs the tests: other crates' tests do not
/// get `CARGO_BIN_EXE_*` for this crate's binaries.
pub fn mcp_test_server_bin() -> Result<std::path::PathBuf, String> {
    static PATH: std::sync::OnceLock<Result<std::path::PathBuf, String>> =
        std::sync::OnceLock::new();
    PATH.get_or_init(build_mcp_test_server).clone()
}

fn build_mcp_test_server() -> Result<std::path::PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let out = std::process::Command::new(cargo)
        .args([
            "build",
            "--quiet",
            "--message-format=json",
            "--manifest-path",
        ])
        .arg(manifest)
        .args(["--bin", "wright-mcp-test-server"])
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo build of wright-mcp-test-server failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|msg| msg["target"]["name"] == "wright-mcp-test-server")
        .find_map(|msg| msg["executable"].as_str().map(std::path::PathBuf::from))
        .ok_or_else(|| "cargo did not report the wright-mcp-test-server executable".to_owned())
}
