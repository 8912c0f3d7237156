//! The provider-neutral surface: the [`ModelClient`] trait, what a request
//! carries, and the events a streaming response produces.

use std::pin::Pin;
use std::sync::Arc;

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
    /// The conversation so far, shared with the session that keeps it: a
    /// request is serialized straight from it, never copied.
    pub messages: Arc<Vec<Message>>,
    /// Tools offered to the model.
    pub tools: Vec<ToolSpec>,
    /// Output token limit.
    pub max_tokens: u32,
    /// Reasoning effort for models that take one (OpenAI `reasoning.effort`);
    /// `None` leaves the provider default.
    pub reasoning_effort: Option<ReasoningEffort>,
    /// Anthropic extended thinking budget in tokens; `None` means off.
    pub thinking_budget: Option<u32>,
    /// Mark prompt-cache breakpoints (Anthropic `cache_control`); off by default.
    pub prompt_cache: bool,
}

/// How hard a reasoning model should think.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReasoningEffort {
    /// Fastest, least reasoning.
    Low,
    /// The usual default.
    Medium,
    /// Most reasoning.
    High,
}

impl ReasoningEffort {
    /// The wire spelling: `low`, `medium` or `high`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReasoningEffort::Low => "low",
            ReasoningEffort::Medium => "medium",
            ReasoningEffort::High => "high",
        }
    }
}

impl std::str::FromStr for ReasoningEffort {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "low" => Ok(ReasoningEffort::Low),
            "medium" => Ok(ReasoningEffort::Medium),
            "high" => Ok(ReasoningEffort::High),
            other => Err(format!(
                "unknown reasoning effort `{other}` (expected low, medium or high)"
            )),
        }
    }
}

/// One normalized event of a streaming response.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    /// More answer text.
    TextDelta(String),
    /// More reasoning text.
    ThinkingDelta(String),
    /// The provider's signature of the reasoning block just streamed, once
    /// the block is whole (Anthropic's `signature_delta`s joined). Front
    /// ends that mirror Claude Code show it on the thinking block; it is
    /// also in `Completed`'s message, where it is sent back from.
    ThinkingSignature(String),
    /// The model began a tool call; its arguments follow in `Completed`.
    ToolCallStarted {
        /// Provider call id (generated when the server sends none).
        id: String,
        /// Tool name.
        name: String,
    },
    /// The usage the provider reported so far (Anthropic's `message_start`
    /// input tokens), before the stream completes: what a request cut off
    /// by a cancel has already cost. `Completed` carries the final figures.
    Usage(Usage),
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
