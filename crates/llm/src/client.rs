//! The provider-neutral surface: the [`ModelClient`] trait, what a request
//! carries, and the events a streaming response produces.

use std::pin::Pin;

use tokio_util::sync::CancellationToken;
use wright_protocol::{Message, StopReason, ToolSpec, Usage};

use crate::error::LlmError;

/// A streaming model response. Once the stream exists, failures arrive as
/// `Err` items; an `Err` is always the last item.
pub type EventStream = Pin<Box<dyn futures::Stream<Item = Result<StreamEvent, LlmError>> + Send>>;

/// A model provider able to stream one response per request.
pub trait ModelClient: Send + Sync {
    /// Provider name for messages, e.g. "anthropic", "openai-chat".
    fn provider(&self) -> &'static str;
    /// Start one streaming request. Failures after the stream exists are stream items.
    fn stream(&self, request: ModelRequest, cancel: CancellationToken) -> EventStream;
}

/// Everything one model request carries, in canonical form.
#[derive(Debug, Clone, Default)]
pub struct ModelRequest {
    /// Model name as the provider knows it.
    pub model: String,
    /// System prompt text; empty means none.
    pub system: String,
    /// The conversation so far.
    pub messages: Vec<Message>,
    /// Tools offered to the model.
    pub tools: Vec<ToolSpec>,
    /// Output token limit.
    pub max_tokens: u32,
}

/// One normalized event of a streaming response.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    /// More answer text.
    TextDelta(String),
    /// More reasoning text.
    ThinkingDelta(String),
    /// The model began a tool call; its arguments follow in `Completed`.
    ToolCallStarted {
        /// Provider call id (generated when the server sends none).
        id: String,
        /// Tool name.
        name: String,
    },
    /// Always the last event of a successful stream: the fully assembled assistant message.
    Completed {
        /// The assistant message, blocks in the order the model produced them.
        message: Message,
        /// Why the model stopped.
        stop_reason: StopReason,
        /// Token usage the provider reported (zeros when it reported none).
        usage: Usage,
    },
}
