//! The canonical conversation model every provider adapter converts to and
//! from. Provider-opaque fields (thinking signatures) ride along so a
//! conversation can be sent back exactly as the model produced it.

use serde::{Deserialize, Serialize};

/// Who authored a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The human, or tool results sent back on their behalf.
    User,
    /// The model.
    Assistant,
}

/// First line of the user message that carries a compaction summary; how
/// an old summary is recognised when compacting again, and how a replay
/// (an editor reopening the session) tells it from a prompt.
pub const SUMMARY_MARKER: &str = "[wright: summary of the earlier conversation]";

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Author of the message.
    pub role: Role,
    /// Ordered content blocks.
    pub content: Vec<ContentBlock>,
}

impl Message {
    /// A user message holding one text block.
    pub fn user_text(text: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: vec![ContentBlock::Text { text: text.into() }],
        }
    }

    /// Concatenated text blocks of the message (thinking and tool blocks excluded).
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The tool calls this message asks for, in order.
    pub fn tool_calls(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.content.iter().filter_map(|b| match b {
            ContentBlock::ToolCall {
                id,
                name,
                arguments,
            } => Some((id.as_str(), name.as_str(), arguments.as_str())),
            _ => None,
        })
    }
}

/// One block of message content. Its `Deserialize` is written out in
/// `block_de` (one pass instead of serde's buffered internally tagged form).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    /// Plain text.
    Text {
        /// The text.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// MIME type such as `image/png`.
        media_type: String,
        /// Base64 data.
        data: String,
    },
    /// Model reasoning. The signature is opaque and must be sent back unchanged.
    Thinking {
        /// Reasoning text (may be empty when the provider hides it).
        thinking: String,
        /// Provider signature, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signature: Option<String>,
    },
    /// Reasoning the provider redacted; only the opaque data is kept.
    RedactedThinking {
        /// Opaque data to send back.
        data: String,
    },
    /// A request from the model to run a tool.
    ToolCall {
        /// Provider-assigned call id; the result refers to it.
        id: String,
        /// Tool name.
        name: String,
        /// Arguments as the raw JSON text the model produced. Kept raw
        /// because models do emit malformed JSON, and that must become an
        /// error result rather than a lost call.
        arguments: String,
    },
    /// The result of a tool call, sent back to the model.
    ToolResult {
        /// The id of the call this answers.
        call_id: String,
        /// Result text the model sees.
        content: String,
        /// Whether the call failed or was refused.
        #[serde(default)]
        is_error: bool,
    },
    /// A provider block wright does not model (Anthropic server tools:
    /// `server_tool_use`, `web_search_tool_result` and the like), kept
    /// verbatim so the conversation goes back exactly as received (a
    /// `pause_turn` continuation needs it). Other providers drop it.
    Opaque {
        /// The provider that produced it (`anthropic`).
        provider: String,
        /// The block exactly as the provider sent it.
        block: serde_json::Value,
    },
}

/// Why the model stopped producing output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The model finished its answer.
    EndTurn,
    /// The model wants tools run.
    ToolUse,
    /// The output token limit was hit.
    MaxTokens,
    /// A stop sequence matched.
    StopSequence,
    /// The provider refused to continue (safety).
    Refusal,
    /// The provider paused a long turn; send the conversation back to continue.
    PauseTurn,
    /// Anything else the provider reported.
    Other,
}
