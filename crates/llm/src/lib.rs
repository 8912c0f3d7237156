//! The provider layer of wright: one [`ModelClient`] trait, a hand-written
//! SSE parser, and streaming wire adapters for the Anthropic Messages API and
//! the OpenAI Chat Completions API.
//!
//! Each adapter splits into a request-body builder (`wire`), a pure,
//! synchronous stream decoder (`decode`) that turns SSE events into
//! [`StreamEvent`]s, and a thin HTTP shell that feeds response bytes through
//! [`sse::SseParser`] into that decoder.

pub mod anthropic;
mod client;
mod error;
mod http;
pub mod openai_chat;
pub mod redact;
pub mod sse;
#[cfg(test)]
mod test_fixtures;

pub use anthropic::{AnthropicClient, AnthropicDecoder};
pub use client::{EventStream, ModelClient, ModelRequest, StreamEvent};
pub use error::LlmError;
pub use http::http_client;
pub use openai_chat::{OpenAiChatClient, OpenAiChatDecoder};
