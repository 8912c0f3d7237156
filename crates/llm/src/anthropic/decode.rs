//! The Anthropic stream state machine: SSE events (`message_start`,
//! `content_block_*`, `message_delta`, `message_stop`, `ping`, `error`) in,
//! [`StreamEvent`]s out. Pure and synchronous so fixtures test it directly.

use std::collections::BTreeMap;

use serde_json::Value;
use wright_protocol::{ContentBlock, Message, Role, StopReason, Usage};

use crate::client::StreamEvent;
use crate::error::LlmError;
use crate::http::delegate_decoder;
use crate::sse::SseEvent;

use super::PROVIDER;

/// Assembles one streamed Anthropic response.
#[derive(Debug, Default)]
pub struct AnthropicDecoder {
    /// Content blocks by their stream `index`, which orders the message.
    blocks: BTreeMap<u64, Block>,
    usage: Usage,
    stop_reason: Option<StopReason>,
    complete: bool,
}

#[derive(Debug)]
enum Block {
    Text(String),
    Thinking {
        thinking: String,
        signature: Option<String>,
    },
    Redacted(String),
    ToolUse {
        id: String,
        name: String,
        json: String,
        /// `input` from `content_block_start`; used when no deltas follow.
        initial: Value,
    },
    /// Block types we do not model (server tools and the like): the
    /// start event's block, and streamed `input` JSON if any, to be sent
    /// back verbatim.
    Other {
        block: Value,
        json: String,
    },
}

impl AnthropicDecoder {
    /// A decoder at the start of a response.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether `message_stop` has been seen.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Whether `message_delta` brought a stop reason but `message_stop` has
    /// not come yet: the answer is whole, only the end marker is missing.
    pub fn is_finishing(&self) -> bool {
        !self.complete && self.stop_reason.is_some()
    }

    /// Handles one SSE event, returning the events it produced.
    pub fn on_event(&mut self, event: &SseEvent) -> Result<Vec<StreamEvent>, LlmError> {
        if self.complete {
            return Ok(Vec::new());
        }
        let json: Value = serde_json::from_str(&event.data).map_err(|e| {
            LlmError::protocol(
                PROVIDER,
                format!("invalid JSON in {} event: {e}", event_name(event)),
            )
        })?;
        let kind = json
            .get("type")
            .and_then(Value::as_str)
            .or(event.event.as_deref())
            .unwrap_or("");
        match kind {
            "message_start" => {
                if let Some(usage) = json.pointer("/message/usage") {
                    merge_usage(&mut self.usage, usage);
                }
                // Said at once: a cancel before the end still knows the
                // input it paid for.
                let reported = self.usage.total_input() + self.usage.output_tokens > 0;
                Ok(if reported {
                    vec![StreamEvent::Usage(self.usage)]
                } else {
                    Vec::new()
                })
            }
            "content_block_start" => self.block_start(&json),
            "content_block_delta" => self.block_delta(&json),
            "content_block_stop" => Ok(self.block_stop(&json)),
            "message_delta" => {
                if let Some(reason) = json.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop_reason = Some(stop_reason(reason));
                }
                if let Some(usage) = json.get("usage") {
                    merge_usage(&mut self.usage, usage);
                }
                Ok(Vec::new())
            }
            "message_stop" => {
                self.complete = true;
                Ok(vec![self.completed()])
            }
            "error" => {
                let kind = json
                    .pointer("/error/type")
                    .and_then(Value::as_str)
                    .unwrap_or("error");
                let message = json
                    .pointer("/error/message")
                    .and_then(Value::as_str)
                    .unwrap_or("no message");
                Err(LlmError::Api {
                    provider: PROVIDER,
                    message: format!("{kind}: {message}"),
                })
            }
            // `ping` and event types added later carry
            // nothing we need.
            _ => Ok(Vec::new()),
        }
    }

    /// Handles the end of the byte stream. A response whose `message_delta`
    /// brought a stop reason is complete even without `message_stop`;
    /// otherwise it was cut.
    pub fn finish(&mut self) -> Result<Vec<StreamEvent>, LlmError> {
        if self.complete {
            Ok(Vec::new())
        } else if self.stop_reason.is_some() {
            self.complete = true;
            Ok(vec![self.completed()])
        } else {
            Err(LlmError::Truncated { provider: PROVIDER })
        }
    }

    fn block_start(&mut self, json: &Value) -> Result<Vec<StreamEvent>, LlmError> {
        let index = index(json)?;
        let start = json.get("content_block").unwrap_or(&Value::Null);
        let text_of = |field: &str| {
            start
                .get(field)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let mut out = Vec::new();
        let block = match start.get("type").and_then(Value::as_str).unwrap_or("") {
            "text" => {
                let text = text_of("text");
                if !text.is_empty() {
                    out.push(StreamEvent::TextDelta(text.clone()));
                }
                Block::Text(text)
            }
            "thinking" => {
                let thinking = text_of("thinking");
                if !thinking.is_empty() {
                    out.push(StreamEvent::ThinkingDelta(thinking.clone()));
                }
                Block::Thinking {
                    thinking,
                    signature: start
                        .get("signature")
                        .and_then(Value::as_str)
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned),
                }
            }
            "redacted_thinking" => Block::Redacted(text_of("data")),
            "tool_use" => {
                let (id, name) = (text_of("id"), text_of("name"));
                out.push(StreamEvent::ToolCallStarted {
                    id: id.clone(),
                    name: name.clone(),
                });
                Block::ToolUse {
                    id,
                    name,
                    json: String::new(),
                    initial: start.get("input").cloned().unwrap_or(Value::Null),
                }
            }
            _ => Block::Other {
                block: start.clone(),
                json: String::new(),
            },
        };
        self.blocks.insert(index, block);
        Ok(out)
    }

    fn block_delta(&mut self, json: &Value) -> Result<Vec<StreamEvent>, LlmError> {
        let index = index(json)?;
        let block = self.blocks.get_mut(&index).ok_or_else(|| {
            LlmError::protocol(PROVIDER, format!("delta for unknown content block {index}"))
        })?;
        let delta = json.get("delta").unwrap_or(&Value::Null);
        let field = |name: &str| delta.get(name).and_then(Value::as_str).unwrap_or("");
        let kind = delta.get("type").and_then(Value::as_str).unwrap_or("");
        match (kind, block) {
            ("text_delta", Block::Text(text)) => {
                let piece = field("text");
                text.push_str(piece);
                Ok(vec![StreamEvent::TextDelta(piece.to_owned())])
            }
            ("thinking_delta", Block::Thinking { thinking, .. }) => {
                let piece = field("thinking");
                thinking.push_str(piece);
                Ok(vec![StreamEvent::ThinkingDelta(piece.to_owned())])
            }
            ("signature_delta", Block::Thinking { signature, .. }) => {
                signature
                    .get_or_insert_with(String::new)
                    .push_str(field("signature"));
                Ok(Vec::new())
            }
            ("input_json_delta", Block::ToolUse { json, .. }) => {
                json.push_str(field("partial_json"));
                Ok(Vec::new())
            }
            // A server tool's input streams like a tool call's.
            ("input_json_delta", Block::Other { json, .. }) => {
                json.push_str(field("partial_json"));
                Ok(Vec::new())
            }
            // Other deltas of blocks we do not model are dropped.
            (_, Block::Other { .. }) => Ok(Vec::new()),
            ("text_delta" | "thinking_delta" | "signature_delta" | "input_json_delta", _) => Err(
                LlmError::protocol(PROVIDER, format!("{kind} for a block of another type")),
            ),
            // Citations and future delta types are not part of our model.
            _ => Ok(Vec::new()),
        }
    }

    /// A thinking block's end: its whole signature, when it has one.
    fn block_stop(&self, json: &Value) -> Vec<StreamEvent> {
        let Ok(index) = index(json) else {
            return Vec::new();
        };
        match self.blocks.get(&index) {
            Some(Block::Thinking {
                signature: Some(signature),
                ..
            }) if !signature.is_empty() => {
                vec![StreamEvent::ThinkingSignature(signature.clone())]
            }
            _ => Vec::new(),
        }
    }

    fn completed(&mut self) -> StreamEvent {
        let mut content = Vec::new();
        for block in std::mem::take(&mut self.blocks).into_values() {
            match block {
                Block::Text(text) if text.is_empty() => {}
                Block::Text(text) => content.push(ContentBlock::Text { text }),
                Block::Thinking {
                    thinking,
                    signature,
                } => content.push(ContentBlock::Thinking {
                    thinking,
                    signature,
                }),
                Block::Redacted(data) => content.push(ContentBlock::RedactedThinking { data }),
                Block::ToolUse {
                    id,
                    name,
                    json,
                    initial,
                } => {
                    let arguments = if !json.trim().is_empty() {
                        json
                    } else if initial.is_object() {
                        initial.to_string()
                    } else {
                        "{}".to_owned()
                    };
                    content.push(ContentBlock::ToolCall {
                        id,
                        name,
                        arguments,
                    });
                }
                Block::Other { mut block, json } => {
                    if let Ok(input) = serde_json::from_str::<Value>(&json) {
                        block["input"] = input;
                    }
                    content.push(ContentBlock::Opaque {
                        provider: PROVIDER.to_owned(),
                        block,
                    });
                }
            }
        }
        let has_calls = content
            .iter()
            .any(|b| matches!(b, ContentBlock::ToolCall { .. }));
        let stop_reason = self.stop_reason.unwrap_or(if has_calls {
            StopReason::ToolUse
        } else {
            StopReason::EndTurn
        });
        StreamEvent::Completed {
            message: Message {
                role: Role::Assistant,
                content,
            },
            stop_reason,
            usage: self.usage,
        }
    }
}

delegate_decoder!(AnthropicDecoder);

fn event_name(event: &SseEvent) -> &str {
    event.event.as_deref().unwrap_or("message")
}

fn index(json: &Value) -> Result<u64, LlmError> {
    json.get("index")
        .and_then(Value::as_u64)
        .ok_or_else(|| LlmError::protocol(PROVIDER, "content block event without an index"))
}

fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "end_turn" => StopReason::EndTurn,
        "tool_use" => StopReason::ToolUse,
        "max_tokens" | "model_context_window_exceeded" => StopReason::MaxTokens,
        "stop_sequence" => StopReason::StopSequence,
        "refusal" => StopReason::Refusal,
        "pause_turn" => StopReason::PauseTurn,
        _ => StopReason::Other,
    }
}

/// Fields present in a usage object replace ours: `message_delta` counts
/// are cumulative, not increments.
fn merge_usage(usage: &mut Usage, json: &Value) {
    let field = |name: &str| json.get(name).and_then(Value::as_u64);
    if let Some(n) = field("input_tokens") {
        usage.input_tokens = n;
    }
    if let Some(n) = field("output_tokens") {
        usage.output_tokens = n;
    }
    if let Some(n) = field("cache_creation_input_tokens") {
        usage.cache_creation_input_tokens = n;
    }
    if let Some(n) = field("cache_read_input_tokens") {
        usage.cache_read_input_tokens = n;
    }
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
