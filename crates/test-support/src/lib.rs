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

pub mod anthropic;
mod http;
pub mod openai_chat;
pub mod openai_responses;
mod request;
mod response;
pub mod scenario;
mod server;
pub mod session_damage;
mod sse;

pub use request::RecordedRequest;
pub use response::MockResponse;
pub use server::{MockServer, ScriptMode};

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
}

impl Provider {
    /// Parses the CLI spelling (`anthropic`, `openai-chat`).
    pub fn parse(name: &str) -> Option<Provider> {
        match name {
            "anthropic" => Some(Provider::Anthropic),
            "openai-chat" => Some(Provider::OpenAiChat),
            _ => None,
        }
    }

    /// The CLI spelling of this provider.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenAiChat => "openai-chat",
        }
    }
}
