//! SSE bodies in the shape of OpenAI's `POST /v1/chat/completions` with
//! `"stream": true` and `stream_options.include_usage`: `chat.completion.chunk`
//! objects as unnamed `data:` events (role delta, content deltas, tool-call
//! deltas), a chunk with the `finish_reason`, a usage chunk whose `choices`
//! is empty, then `data: [DONE]`.

use serde_json::{Value, json};

use crate::MockUsage;
use crate::sse::{data, split_odd, split_text};

/// The completion id the builders use unless told otherwise.
pub const DEFAULT_COMPLETION_ID: &str = "chatcmpl-MockB7xQk2Lm9RtV4sNw";
/// The model name the builders report unless told otherwise.
pub const DEFAULT_MODEL: &str = "gpt-4o-2024-08-06";
/// The `created` timestamp every chunk carries (fixed for reproducible output).
pub const CREATED: u64 = 1_700_000_000;

#[derive(Debug, Clone)]
enum Part {
    Text(String),
    ToolCall {
        id: String,
        name: String,
        fragments: Vec<String>,
    },
}

/// Whether the final usage chunk is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageChunk {
    /// Sent, as with `stream_options: {"include_usage": true}`.
    Include,
    /// Not sent, as servers that ignore `stream_options` behave.
    Omit,
}

/// Builds one streamed completion part by part. The free functions of this
/// module cover the common cases.
#[derive(Debug, Clone)]
pub struct StreamBuilder {
    id: String,
    model: String,
    usage: MockUsage,
    usage_chunk: UsageChunk,
    finish_reason: Option<String>,
    parts: Vec<Part>,
}

impl Default for StreamBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamBuilder {
    /// An empty completion with the default id, model and usage.
    pub fn new() -> Self {
        Self {
            id: DEFAULT_COMPLETION_ID.into(),
            model: DEFAULT_MODEL.into(),
            usage: MockUsage::DEFAULT,
            usage_chunk: UsageChunk::Include,
            finish_reason: None,
            parts: Vec::new(),
        }
    }

    /// Sets the `chatcmpl-…` id.
    pub fn id(mut self, id: &str) -> Self {
        self.id = id.into();
        self
    }

    /// Sets the reported model name.
    pub fn model(mut self, model: &str) -> Self {
        self.model = model.into();
        self
    }

    /// Sets the usage; `prompt_tokens` is input plus cache reads, and
    /// `prompt_tokens_details.cached_tokens` the cache reads.
    pub fn usage(mut self, usage: MockUsage) -> Self {
        self.usage = usage;
        self
    }

    /// Chooses whether the final usage chunk is sent.
    pub fn usage_chunk(mut self, usage_chunk: UsageChunk) -> Self {
        self.usage_chunk = usage_chunk;
        self
    }

    /// Overrides the finish reason (default: `tool_calls` if any tool call,
    /// else `stop`), e.g. `length`.
    pub fn finish_reason(mut self, reason: &str) -> Self {
        self.finish_reason = Some(reason.into());
        self
    }

    /// Adds content, streamed as several `content` deltas.
    pub fn text(mut self, text: &str) -> Self {
        self.parts.push(Part::Text(text.into()));
        self
    }

    /// Adds a tool call whose arguments are streamed in fragments cut at odd places.
    pub fn tool_call(self, id: &str, name: &str, arguments: &Value) -> Self {
        let fragments = split_odd(&arguments.to_string());
        self.push_tool(id, name, fragments)
    }

    /// Adds a tool call streaming exactly these argument fragments (which
    /// need not form valid JSON).
    pub fn raw_tool_call(self, id: &str, name: &str, fragments: &[&str]) -> Self {
        let fragments = fragments.iter().map(|f| f.to_string()).collect();
        self.push_tool(id, name, fragments)
    }

    fn push_tool(mut self, id: &str, name: &str, fragments: Vec<String>) -> Self {
        self.parts.push(Part::ToolCall {
            id: id.into(),
            name: name.into(),
            fragments,
        });
        self
    }

    fn chunk(&self, delta: Value, finish_reason: Option<&str>) -> String {
        data(&json!({
            "id": self.id, "object": "chat.completion.chunk", "created": CREATED,
            "model": self.model, "system_fingerprint": "fp_mock",
            "choices": [{"index": 0, "delta": delta, "logprobs": null,
                         "finish_reason": finish_reason}],
            "usage": null,
        }))
    }

    /// The SSE body.
    pub fn build(&self) -> String {
        let mut out = String::new();
        let starts_with_tool = matches!(self.parts.first(), Some(Part::ToolCall { .. }));
        if !starts_with_tool {
            out.push_str(&self.chunk(
                json!({"role": "assistant", "content": "", "refusal": null}),
                None,
            ));
        }
        let mut tool_index = 0usize;
        for (n, part) in self.parts.iter().enumerate() {
            match part {
                Part::Text(text) => {
                    for piece in split_text(text) {
                        out.push_str(&self.chunk(json!({"content": piece}), None));
                    }
                }
                Part::ToolCall {
                    id,
                    name,
                    fragments,
                } => {
                    let mut head = json!({"tool_calls": [{
                        "index": tool_index, "id": id, "type": "function",
                        "function": {"name": name, "arguments": ""},
                    }]});
                    if n == 0 {
                        // With no text first, the real API puts the role in
                        // the first tool-call delta.
                        head["role"] = json!("assistant");
                        head["content"] = Value::Null;
                    }
                    out.push_str(&self.chunk(head, None));
                    for f in fragments {
                        out.push_str(&self.chunk(
                            json!({"tool_calls": [{"index": tool_index,
                                                    "function": {"arguments": f}}]}),
                            None,
                        ));
                    }
                    tool_index += 1;
                }
            }
        }
        let finish = self
            .finish_reason
            .clone()
            .unwrap_or_else(|| if tool_index > 0 { "tool_calls" } else { "stop" }.to_string());
        out.push_str(&self.chunk(json!({}), Some(&finish)));
        if self.usage_chunk == UsageChunk::Include {
            let u = &self.usage;
            let prompt = u.input_tokens + u.cache_read_input_tokens;
            out.push_str(&data(&json!({
                "id": self.id, "object": "chat.completion.chunk", "created": CREATED,
                "model": self.model, "system_fingerprint": "fp_mock",
                "choices": [],
                "usage": {
                    "prompt_tokens": prompt,
                    "completion_tokens": u.output_tokens,
                    "total_tokens": prompt + u.output_tokens,
                    "prompt_tokens_details": {"cached_tokens": u.cache_read_input_tokens,
                                              "audio_tokens": 0},
                    "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                        "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
                },
            })));
        }
        out.push_str("data: [DONE]\n\n");
        out
    }
}

/// One text answer, `finish_reason: stop`.
pub fn text(text: &str) -> String {
    StreamBuilder::new().text(text).build()
}

/// Tool calls only, `finish_reason: tool_calls`; each call's first delta has
/// `index`, `id`, `type`, `function.name` and empty `arguments`, then the
/// argument fragments follow.
pub fn tool_calls(calls: &[(&str, &str, Value)]) -> String {
    text_and_tool_calls("", calls)
}

/// Content (omitted when `text` is empty) followed by tool calls.
pub fn text_and_tool_calls(text: &str, calls: &[(&str, &str, Value)]) -> String {
    let mut b = StreamBuilder::new();
    if !text.is_empty() {
        b = b.text(text);
    }
    for (id, name, args) in calls {
        b = b.tool_call(id, name, args);
    }
    b.build()
}

/// One tool call streaming exactly these argument fragments, for
/// malformed-arguments tests.
pub fn raw_tool_call(id: &str, name: &str, argument_fragments: &[&str]) -> String {
    StreamBuilder::new()
        .raw_tool_call(id, name, argument_fragments)
        .build()
}

/// A stream that starts an answer ("Working") and then fails with an error
/// chunk `{"error":{"message":…,"type":"server_error"}}` and no `[DONE]`,
/// as OpenAI-compatible servers report failures after the 200.
pub fn error_chunk(message: &str) -> String {
    raw_error_chunk(&json!({"error": {"message": message, "type": "server_error"}}))
}

/// A stream that starts an answer ("Working") and then sends `chunk` as
/// its next (and last) `data:` event, for error shapes of any form.
pub fn raw_error_chunk(chunk: &Value) -> String {
    let b = StreamBuilder::new().text("Working");
    let mut out = b.chunk(
        json!({"role": "assistant", "content": "", "refusal": null}),
        None,
    );
    out.push_str(&b.chunk(json!({"content": "Working"}), None));
    out.push_str(&data(chunk));
    out
}
