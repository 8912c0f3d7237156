//! SSE bodies in the shape of Anthropic's `POST /v1/messages` with
//! `"stream": true`: `message_start`, then per content block
//! `content_block_start` / `content_block_delta`* / `content_block_stop`
//! (a `ping` after the first block starts, as the real API sends it),
//! `message_delta` with the stop reason and output usage, `message_stop`.

use serde_json::{Value, json};

use crate::MockUsage;
use crate::sse::{event, split_odd, split_text};

/// The message id the builders use unless told otherwise.
pub const DEFAULT_MESSAGE_ID: &str = "msg_01MockXq7Vb3RkTn2LpHs9Wd";
/// The model name the builders report unless told otherwise.
pub const DEFAULT_MODEL: &str = "claude-sonnet-4-5-20250929";

#[derive(Debug, Clone)]
enum Block {
    Text(String),
    Thinking {
        thinking: String,
        signature: String,
    },
    RedactedThinking(String),
    ToolUse {
        id: String,
        name: String,
        fragments: Vec<String>,
    },
}

/// Builds one streamed assistant message block by block. The free
/// functions of this module cover the common cases.
#[derive(Debug, Clone)]
pub struct StreamBuilder {
    message_id: String,
    model: String,
    usage: MockUsage,
    stop_reason: Option<String>,
    blocks: Vec<Block>,
    error: Option<(String, String)>,
}

impl Default for StreamBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamBuilder {
    /// An empty message with the default id, model and usage.
    pub fn new() -> Self {
        Self {
            message_id: DEFAULT_MESSAGE_ID.into(),
            model: DEFAULT_MODEL.into(),
            usage: MockUsage::DEFAULT,
            stop_reason: None,
            blocks: Vec::new(),
            error: None,
        }
    }

    /// Sets the `msg_…` id.
    pub fn message_id(mut self, id: &str) -> Self {
        self.message_id = id.into();
        self
    }

    /// Sets the reported model name.
    pub fn model(mut self, model: &str) -> Self {
        self.model = model.into();
        self
    }

    /// Sets the reported usage (input in `message_start`, output in `message_delta`).
    pub fn usage(mut self, usage: MockUsage) -> Self {
        self.usage = usage;
        self
    }

    /// Overrides the stop reason (default: `tool_use` if any tool call,
    /// else `end_turn`), e.g. `max_tokens` or `refusal`.
    pub fn stop_reason(mut self, reason: &str) -> Self {
        self.stop_reason = Some(reason.into());
        self
    }

    /// Adds a text block, streamed as several `text_delta`s.
    pub fn text(mut self, text: &str) -> Self {
        self.blocks.push(Block::Text(text.into()));
        self
    }

    /// Adds a thinking block: `thinking_delta`s, then one `signature_delta`.
    pub fn thinking(mut self, thinking: &str, signature: &str) -> Self {
        self.blocks.push(Block::Thinking {
            thinking: thinking.into(),
            signature: signature.into(),
        });
        self
    }

    /// Adds a `redacted_thinking` block carrying opaque data.
    pub fn redacted_thinking(mut self, data: &str) -> Self {
        self.blocks.push(Block::RedactedThinking(data.into()));
        self
    }

    /// Adds a `tool_use` block whose input is streamed as `input_json_delta`
    /// fragments cut at odd places.
    pub fn tool_call(self, id: &str, name: &str, input: &Value) -> Self {
        let fragments = split_odd(&input.to_string());
        self.push_tool(id, name, fragments)
    }

    /// Adds a `tool_use` block streaming exactly these `partial_json`
    /// fragments (which need not form valid JSON).
    pub fn raw_tool_call(self, id: &str, name: &str, fragments: &[&str]) -> Self {
        let fragments = fragments.iter().map(|f| f.to_string()).collect();
        self.push_tool(id, name, fragments)
    }

    fn push_tool(mut self, id: &str, name: &str, fragments: Vec<String>) -> Self {
        self.blocks.push(Block::ToolUse {
            id: id.into(),
            name: name.into(),
            fragments,
        });
        self
    }

    /// Ends the stream right after `message_start` and a `ping` with an
    /// `event: error` (blocks added are not sent).
    pub fn error(mut self, kind: &str, message: &str) -> Self {
        self.error = Some((kind.into(), message.into()));
        self
    }

    /// The SSE body.
    pub fn build(&self) -> String {
        let u = &self.usage;
        let mut out = event(
            "message_start",
            &json!({"type": "message_start", "message": {
                "id": self.message_id, "type": "message", "role": "assistant",
                "model": self.model, "content": [],
                "stop_reason": null, "stop_sequence": null,
                "usage": {
                    "input_tokens": u.input_tokens,
                    "cache_creation_input_tokens": u.cache_creation_input_tokens,
                    "cache_read_input_tokens": u.cache_read_input_tokens,
                    "output_tokens": 1,
                },
            }}),
        );
        let ping = event("ping", &json!({"type": "ping"}));
        if let Some((kind, message)) = &self.error {
            out.push_str(&ping);
            out.push_str(&event(
                "error",
                &json!({"type": "error", "error": {"type": kind, "message": message}}),
            ));
            return out;
        }
        for (index, block) in self.blocks.iter().enumerate() {
            // The real API pings between the first block's start and its deltas.
            let after_start = if index == 0 { ping.as_str() } else { "" };
            out.push_str(&block_events(index, block, after_start));
        }
        if self.blocks.is_empty() {
            out.push_str(&ping);
        }
        let has_tool = self
            .blocks
            .iter()
            .any(|b| matches!(b, Block::ToolUse { .. }));
        let stop = self
            .stop_reason
            .clone()
            .unwrap_or_else(|| if has_tool { "tool_use" } else { "end_turn" }.to_string());
        out.push_str(&event(
            "message_delta",
            &json!({"type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": null},
                "usage": {"output_tokens": u.output_tokens}}),
        ));
        out.push_str(&event("message_stop", &json!({"type": "message_stop"})));
        out
    }
}

fn block_events(index: usize, block: &Block, after_start: &str) -> String {
    let delta = |d: Value| {
        event(
            "content_block_delta",
            &json!({"type": "content_block_delta", "index": index, "delta": d}),
        )
    };
    let (start, deltas): (Value, Vec<String>) = match block {
        Block::Text(text) => (
            json!({"type": "text", "text": ""}),
            split_text(text)
                .into_iter()
                .map(|t| delta(json!({"type": "text_delta", "text": t})))
                .collect(),
        ),
        Block::Thinking {
            thinking,
            signature,
        } => {
            let mut d: Vec<String> = split_text(thinking)
                .into_iter()
                .map(|t| delta(json!({"type": "thinking_delta", "thinking": t})))
                .collect();
            d.push(delta(
                json!({"type": "signature_delta", "signature": signature}),
            ));
            (
                json!({"type": "thinking", "thinking": "", "signature": ""}),
                d,
            )
        }
        Block::RedactedThinking(data) => (
            json!({"type": "redacted_thinking", "data": data}),
            Vec::new(),
        ),
        Block::ToolUse {
            id,
            name,
            fragments,
        } => {
            // The real API opens every tool input with an empty fragment.
            let d = std::iter::once(String::new())
                .chain(fragments.iter().cloned())
                .map(|f| delta(json!({"type": "input_json_delta", "partial_json": f})))
                .collect();
            (
                json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
                d,
            )
        }
    };
    let mut out = event(
        "content_block_start",
        &json!({"type": "content_block_start", "index": index, "content_block": start}),
    );
    out.push_str(after_start);
    for d in deltas {
        out.push_str(&d);
    }
    out.push_str(&event(
        "content_block_stop",
        &json!({"type": "content_block_stop", "index": index}),
    ));
    out
}

/// One text answer, `stop_reason: end_turn`.
pub fn text(text: &str) -> String {
    StreamBuilder::new().text(text).build()
}

/// Tool calls only, `stop_reason: tool_use`; each input streamed as
/// `input_json_delta` fragments split at odd places.
pub fn tool_calls(calls: &[(&str, &str, Value)]) -> String {
    text_and_tool_calls("", calls)
}

/// A text block (omitted when `text` is empty) followed by tool calls.
pub fn text_and_tool_calls(text: &str, calls: &[(&str, &str, Value)]) -> String {
    let mut b = StreamBuilder::new();
    if !text.is_empty() {
        b = b.text(text);
    }
    for (id, name, input) in calls {
        b = b.tool_call(id, name, input);
    }
    b.build()
}

/// A thinking block with its signature, then a text block.
pub fn thinking_then_text(thinking: &str, signature: &str, text: &str) -> String {
    StreamBuilder::new()
        .thinking(thinking, signature)
        .text(text)
        .build()
}

/// `message_start`, `ping`, then `event: error` with this error type
/// (e.g. `overloaded_error`) and message; no `message_stop`.
pub fn error_event(kind: &str, message: &str) -> String {
    StreamBuilder::new().error(kind, message).build()
}

/// One tool call streaming exactly these `partial_json` fragments, for
/// malformed-arguments tests.
pub fn raw_tool_call(id: &str, name: &str, partial_json_fragments: &[&str]) -> String {
    StreamBuilder::new()
        .raw_tool_call(id, name, partial_json_fragments)
        .build()
}
