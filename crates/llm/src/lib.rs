//! The provider layer of wright: one [`ModelClient`] trait, a hand-written
//! SSE parser, streaming wire adapters for the Anthropic Messages API, the
//! OpenAI Responses API and the OpenAI Chat Completions API, the retry
//! policy, and the model catalog.
//!
//! Each adapter splits into a request-body builder (`wire`), a pure,
//! synchronous stream decoder (`decode`) that turns SSE events into
//! [`StreamEvent`]s, and a thin HTTP shell that feeds response bytes through
//! [`sse::SseParser`] into that decoder.

pub mod anthropic;
pub mod catalog;
mod client;
mod decoder;
mod endpoint;
mod error;
mod http;
mod ids;
pub mod openai_chat;
pub mod openai_responses;
pub mod redact;
mod retry;
mod secret_match;
pub mod sse;
mod stream_redact;
#[cfg(test)]
mod test_fixtures;
mod tls_roots;
mod wire_cache;
mod wire_json;

pub use anthropic::{AnthropicClient, AnthropicDecoder};
pub use catalog::{Catalog, Lookup, ModelInfo, Pricing, cost_usd};
pub use client::{EventStream, ModelClient, ModelRequest, ReasoningEffort, StreamEvent};
pub use error::LlmError;
pub use http::{
    DEFAULT_FINISH_GRACE, DEFAULT_FIRST_BYTE_TIMEOUT, DEFAULT_IDLE_TIMEOUT, http_client,
    http_client_for,
};
pub use ids::{IdRules, normalize_tool_call_id};
pub use openai_chat::{ChatCompat, OpenAiChatClient, OpenAiChatDecoder};
pub use openai_responses::{OpenAiResponsesClient, OpenAiResponsesDecoder};
pub use retry::{DEFAULT_TOTAL_LIMIT, RetryPolicy, is_hopeless_connection};
pub use stream_redact::StreamRedactor;
