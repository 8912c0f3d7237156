//! The Chat Completions stream state machine: `chat.completion.chunk`
//! events in, [`StreamEvent`]s out. Tool calls are assembled by their
//! `index`; reasoning arrives as `reasoning_content` or `reasoning` from
//! servers that expose it. Pure and synchronous so fixtures test it directly.

use serde_json::Value;
use wright_protocol::{ContentBlock, Message, Role, StopReason, Usage};

use super::compat::ChatCompat;
use crate::client::StreamEvent;
use crate::error::LlmError;
use crate::http::delegate_decoder;
use crate::sse::SseEvent;

use super::PROVIDER;

/// Assembles one streamed Chat Completions response.
#[derive(Debug)]
pub struct OpenAiChatDecoder {
    text: String,
    reasoning: String,
    calls: Vec<Call>,
    finish_reason: Option<String>,
    usage: Usage,
    /// Whether a usage object has arrived.
    has_usage: bool,
    compat: ChatCompat,
    complete: bool,
}

#[derive(Debug)]
struct Call {
    /// The `index` the server keys this call's fragments by.
    wire_index: u64,
    id: String,
    name: String,
    arguments: String,
    started: bool,
}

impl OpenAiChatDecoder {
    /// A decoder at the start of a response, for the default [`ChatCompat`].
    pub fn new() -> Self {
        Self::with_compat(ChatCompat::default())
    }

    /// A decoder for a server with these quirks: reasoning deltas are
    /// ignored unless `reasoning_field`, and `stream_usage` decides when
    /// the response is complete without `[DONE]`.
    pub fn with_compat(compat: ChatCompat) -> Self {
        Self {
            text: String::new(),
            reasoning: String::new(),
            calls: Vec::new(),
            finish_reason: None,
            usage: Usage::default(),
            has_usage: false,
            compat,
            complete: false,
        }
    }

    /// Whether the response is complete: `[DONE]` seen, or the
    /// `finish_reason` and (when stream usage is on) the usage chunk, so a
    /// server that holds the connection open without `[DONE]` cannot stall us.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Whether the `finish_reason` has arrived but the response is not yet
    /// complete (the usage chunk or `[DONE]` may still follow); the HTTP
    /// shell then waits only a short grace before completing it.
    pub fn is_finishing(&self) -> bool {
        !self.complete && self.finish_reason.is_some()
    }

    /// Handles one SSE event, returning the events it produced.
    pub fn on_event(&mut self, event: &SseEvent) -> Result<Vec<StreamEvent>, LlmError> {
        if self.complete {
            return Ok(Vec::new());
        }
        let data = event.data.trim();
        if data == "[DONE]" {
            return Ok(self.complete());
        }
        if data.is_empty() {
            return Ok(Vec::new());
        }
        let json: Value = serde_json::from_str(data)
            .map_err(|e| LlmError::protocol(PROVIDER, format!("invalid JSON in chunk: {e}")))?;
        if let Some(error) = json.get("error").filter(|e| !e.is_null()) {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .or_else(|| error.as_str())
                .unwrap_or("no message");
            return Err(LlmError::Api {
                provider: PROVIDER,
                message: message.to_owned(),
            });
        }
        if let Some(usage) = json.get("usage").filter(|u| u.is_object()) {
            self.usage = convert_usage(usage);
            self.has_usage = true;
        }
        let mut out = Vec::new();
        let choices = json.get("choices").and_then(Value::as_array);
        // We never ask for n > 1; other choices would only be noise.
        for choice in choices
            .into_iter()
            .flatten()
            .filter(|c| c.get("index").and_then(Value::as_u64).unwrap_or(0) == 0)
        {
            if let Some(delta) = choice.get("delta") {
                self.on_delta(delta, &mut out);
            }
            if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
                self.finish_reason = Some(reason.to_owned());
            }
        }
        if self.finish_reason.is_some() && (self.has_usage || !self.compat.stream_usage) {
            out.extend(self.complete());
        }
        Ok(out)
    }

    /// Handles the end of the byte stream. A response that reported its
    /// `finish_reason` is complete even without `[DONE]`; otherwise it was cut.
    pub fn finish(&mut self) -> Result<Vec<StreamEvent>, LlmError> {
        if self.complete {
            Ok(Vec::new())
        } else if self.finish_reason.is_some() {
            Ok(self.complete())
        } else {
            Err(LlmError::Truncated { provider: PROVIDER })
        }
    }

    fn on_delta(&mut self, delta: &Value, out: &mut Vec<StreamEvent>) {
        let text = |name: &str| {
            delta
                .get(name)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        };
        let reasoning = if self.compat.reasoning_field {
            text("reasoning_content").or_else(|| text("reasoning"))
        } else {
            None
        };
        if let Some(reasoning) = reasoning {
            self.reasoning.push_str(reasoning);
            out.push(StreamEvent::ThinkingDelta(reasoning.to_owned()));
        }
        if let Some(content) = text("content") {
            self.text.push_str(content);
            out.push(StreamEvent::TextDelta(content.to_owned()));
        }
        for call in delta
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.on_tool_call(call, out);
        }
    }

    fn on_tool_call(&mut self, fragment: &Value, out: &mut Vec<StreamEvent>) {
        let field = |v: &Value, name: &str| {
            v.get(name)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        let id = field(fragment, "id");
        let function = fragment.get("function").unwrap_or(&Value::Null);
        let name = field(function, "name");
        let wire_index = match fragment.get("index").and_then(Value::as_u64) {
            Some(i) => i,
            // Some servers omit `index` and send each call whole.
            None => match self.calls.last() {
                Some(last) if continues(last, id.as_deref(), name.as_deref()) => last.wire_index,
                _ => self
                    .calls
                    .iter()
                    .map(|c| c.wire_index + 1)
                    .max()
                    .unwrap_or(0),
            },
        };
        let position = match self.calls.iter().position(|c| c.wire_index == wire_index) {
            Some(p) => p,
            None => {
                self.calls.push(Call {
                    wire_index,
                    id: String::new(),
                    name: String::new(),
                    arguments: String::new(),
                    started: false,
                });
                self.calls.len() - 1
            }
        };
        let call = &mut self.calls[position];
        if let Some(id) = id.filter(|_| call.id.is_empty()) {
            call.id = id;
        }
        if let Some(name) = name.filter(|_| call.name.is_empty()) {
            call.name = name;
        }
        if let Some(arguments) = function.get("arguments").and_then(Value::as_str) {
            call.arguments.push_str(arguments);
        }
        if !call.started && !call.name.is_empty() {
            start_call(call, position, out);
        }
    }

    /// Late `ToolCallStarted`s for calls that never got a name mid-stream,
    /// then `Completed`.
    fn complete(&mut self) -> Vec<StreamEvent> {
        self.complete = true;
        let mut content = Vec::new();
        if !self.reasoning.is_empty() {
            content.push(ContentBlock::Thinking {
                thinking: std::mem::take(&mut self.reasoning),
                signature: None,
            });
        }
        if !self.text.is_empty() {
            content.push(ContentBlock::Text {
                text: std::mem::take(&mut self.text),
            });
        }
        let mut late_starts = Vec::new();
        for (position, mut call) in std::mem::take(&mut self.calls).into_iter().enumerate() {
            if !call.started {
                start_call(&mut call, position, &mut late_starts);
            }
            content.push(ContentBlock::ToolCall {
                id: call.id,
                name: call.name,
                arguments: call.arguments,
            });
        }
        let has_calls = content
            .iter()
            .any(|b| matches!(b, ContentBlock::ToolCall { .. }));
        let stop_reason = match self.finish_reason.as_deref() {
            // A call cut by the output limit must not pass for a whole one.
            Some("length") => StopReason::MaxTokens,
            // Some servers report "stop" even when they sent tool calls.
            _ if has_calls => StopReason::ToolUse,
            None | Some("stop") => StopReason::EndTurn,
            Some("tool_calls" | "function_call") => StopReason::ToolUse,
            Some("content_filter") => StopReason::Refusal,
            Some(_) => StopReason::Other,
        };
        late_starts.push(StreamEvent::Completed {
            message: Message {
                role: Role::Assistant,
                content,
            },
            stop_reason,
            usage: self.usage,
        });
        late_starts
    }
}

/// Whether a fragment without an `index` continues `last`: with an id, when
/// it is `last`'s; without one, unless it names another function, or names
/// any function once `last` already has its name and some arguments.
fn continues(last: &Call, id: Option<&str>, name: Option<&str>) -> bool {
    match (id, name) {
        (Some(id), _) => id == last.id,
        (None, None) => true,
        (None, Some(name)) => {
            last.name.is_empty() || (name == last.name && last.arguments.is_empty())
        }
    }
}

/// Gives the call an id if the server sent none and marks it started.
fn start_call(call: &mut Call, position: usize, out: &mut Vec<StreamEvent>) {
    if call.id.is_empty() {
        call.id = format!("call_{position}");
    }
    call.started = true;
    out.push(StreamEvent::ToolCallStarted {
        id: call.id.clone(),
        name: call.name.clone(),
    });
}

impl Default for OpenAiChatDecoder {
    fn default() -> Self {
        Self::new()
    }
}

delegate_decoder!(OpenAiChatDecoder);

/// Cached prompt tokens are part of `prompt_tokens` in this API; ours
/// counts them separately.
fn convert_usage(json: &Value) -> Usage {
    let field = |v: Option<&Value>| v.and_then(Value::as_u64).unwrap_or(0);
    let prompt = field(json.get("prompt_tokens"));
    let cached = field(json.pointer("/prompt_tokens_details/cached_tokens"));
    Usage {
        input_tokens: prompt.saturating_sub(cached),
        output_tokens: field(json.get("completion_tokens")),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: cached,
    }
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
