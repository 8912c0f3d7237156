//! The Responses stream state machine: semantic SSE events
//! (`response.output_item.*`, `response.output_text.delta`,
//! `response.reasoning_summary_text.delta`,
//! `response.function_call_arguments.*`, `response.completed` /
//! `incomplete` / `failed`, `error`) in, [`StreamEvent`]s out. Items are
//! ordered by `output_index`. Pure and synchronous so fixtures test it directly.

use std::collections::BTreeMap;

use serde_json::Value;
use wright_protocol::{ContentBlock, Message, Role, StopReason, Usage};

use crate::client::StreamEvent;
use crate::error::LlmError;
use crate::http::delegate_decoder;
use crate::sse::SseEvent;

use super::PROVIDER;
use super::wire::ReasoningRef;

/// Assembles one streamed Responses API response.
#[derive(Debug, Default)]
pub struct OpenAiResponsesDecoder {
    items: BTreeMap<u64, Item>,
    usage: Usage,
    complete: bool,
}

#[derive(Debug)]
enum Item {
    Message {
        text: String,
        refusal: bool,
    },
    Reasoning {
        r: ReasoningRef,
        summary: String,
        /// The `summary_index` of the last delta, to separate parts.
        part: Option<u64>,
    },
    Call {
        call_id: String,
        name: String,
        arguments: String,
    },
    /// Built-in tool items and future types we do not model.
    Other,
}

fn str_of<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

impl OpenAiResponsesDecoder {
    /// A decoder at the start of a response.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a terminal event (`response.completed` or `.incomplete`) has been seen.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Always false: the terminal event is also the last one, so there are
    /// no trailing events to wait for.
    pub fn is_finishing(&self) -> bool {
        false
    }

    /// Handles one SSE event, returning the events it produced.
    pub fn on_event(&mut self, event: &SseEvent) -> Result<Vec<StreamEvent>, LlmError> {
        if self.complete {
            return Ok(Vec::new());
        }
        let data = event.data.trim();
        // Not part of this API, but some compatible servers end with it.
        if data.is_empty() || data == "[DONE]" {
            return Ok(Vec::new());
        }
        let json: Value = serde_json::from_str(data)
            .map_err(|e| LlmError::protocol(PROVIDER, format!("invalid JSON in event: {e}")))?;
        let kind = json
            .get("type")
            .and_then(Value::as_str)
            .or(event.event.as_deref())
            .unwrap_or("");
        let index = json.get("output_index").and_then(Value::as_u64);
        let delta = str_of(&json, "/delta");
        match kind {
            "response.output_item.added" => Ok(self.item_added(index, &json["item"])),
            "response.output_item.done" => Ok(self.item_done(index, &json["item"])),
            "response.output_text.delta" | "response.refusal.delta" => {
                let refused = kind == "response.refusal.delta";
                match self.item(index, kind)? {
                    Item::Message { text, refusal } => {
                        text.push_str(delta);
                        *refusal |= refused;
                    }
                    _ => return Err(mismatch(kind)),
                }
                Ok(vec![StreamEvent::TextDelta(delta.to_owned())])
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                let part = json.get("summary_index").and_then(Value::as_u64);
                match self.item(index, kind)? {
                    Item::Reasoning {
                        summary, part: p, ..
                    } => {
                        let mut out = Vec::new();
                        if !summary.is_empty() && part != *p {
                            summary.push_str("\n\n");
                            out.push(StreamEvent::ThinkingDelta("\n\n".into()));
                        }
                        *p = part;
                        summary.push_str(delta);
                        out.push(StreamEvent::ThinkingDelta(delta.to_owned()));
                        Ok(out)
                    }
                    _ => Err(mismatch(kind)),
                }
            }
            "response.function_call_arguments.delta" => match self.item(index, kind)? {
                Item::Call { arguments, .. } => {
                    arguments.push_str(delta);
                    Ok(Vec::new())
                }
                _ => Err(mismatch(kind)),
            },
            "response.function_call_arguments.done" => {
                if let (Item::Call { arguments, .. }, Some(full)) = (
                    self.item(index, kind)?,
                    json.get("arguments").and_then(Value::as_str),
                ) {
                    *arguments = full.to_owned();
                }
                Ok(Vec::new())
            }
            "response.completed" | "response.incomplete" => Ok(self.finished(&json["response"])),
            "response.failed" => {
                let error = &json["response"]["error"];
                Err(api_error(str_of(error, "/code"), str_of(error, "/message")))
            }
            "error" => {
                // Documented flat; some servers nest it under `error`.
                let e = json.get("error").filter(|e| e.is_object()).unwrap_or(&json);
                let code = e
                    .get("code")
                    .and_then(Value::as_str)
                    .or_else(|| e.get("type").and_then(Value::as_str))
                    .unwrap_or("");
                Err(api_error(code, str_of(e, "/message")))
            }
            // `response.created`, `in_progress`, `content_part.*`, `*.done`
            // text events, annotations and future events add nothing.
            _ => Ok(Vec::new()),
        }
    }

    /// Handles the end of the byte stream: an error unless a terminal event came.
    pub fn finish(&mut self) -> Result<Vec<StreamEvent>, LlmError> {
        if self.complete {
            Ok(Vec::new())
        } else {
            Err(LlmError::Truncated { provider: PROVIDER })
        }
    }

    fn item(&mut self, index: Option<u64>, kind: &str) -> Result<&mut Item, LlmError> {
        let index = index
            .ok_or_else(|| LlmError::protocol(PROVIDER, format!("{kind} without output_index")))?;
        self.items.get_mut(&index).ok_or_else(|| {
            LlmError::protocol(PROVIDER, format!("{kind} for unknown output item {index}"))
        })
    }

    fn next_index(&self) -> u64 {
        self.items.keys().next_back().map_or(0, |i| i + 1)
    }

    fn item_added(&mut self, index: Option<u64>, item: &Value) -> Vec<StreamEvent> {
        let index = index.unwrap_or_else(|| self.next_index());
        let mut out = Vec::new();
        self.insert(index, new_item(item), &mut out);
        out
    }

    /// Stores a new item, announcing a call or initial text.
    fn insert(&mut self, index: u64, item: Item, out: &mut Vec<StreamEvent>) {
        match &item {
            Item::Call { call_id, name, .. } => out.push(StreamEvent::ToolCallStarted {
                id: call_id.clone(),
                name: name.clone(),
            }),
            Item::Message { text, .. } if !text.is_empty() => {
                out.push(StreamEvent::TextDelta(text.clone()));
            }
            _ => {}
        }
        self.items.insert(index, item);
    }

    /// The finished item is authoritative for ids, arguments and the
    /// encrypted content (which `.added` may carry incomplete).
    fn item_done(&mut self, index: Option<u64>, done: &Value) -> Vec<StreamEvent> {
        let index = index.unwrap_or_else(|| self.next_index());
        let done = new_item(done);
        let mut out = Vec::new();
        match (self.items.get_mut(&index), done) {
            (None, done) => self.insert(index, done, &mut out),
            (
                Some(Item::Reasoning { r, summary, .. }),
                Item::Reasoning {
                    r: new_r,
                    summary: new_summary,
                    ..
                },
            ) => {
                *r = new_r;
                if !new_summary.is_empty() {
                    *summary = new_summary;
                }
            }
            (
                Some(Item::Call { arguments, .. }),
                Item::Call {
                    arguments: full, ..
                },
            ) if !full.is_empty() => *arguments = full,
            (Some(Item::Message { text, .. }), Item::Message { text: full, .. })
                if text.is_empty() =>
            {
                *text = full;
            }
            _ => {}
        }
        out
    }

    fn finished(&mut self, response: &Value) -> Vec<StreamEvent> {
        self.complete = true;
        if let Some(usage) = response.get("usage").filter(|u| u.is_object()) {
            self.usage = convert_usage(usage);
        }
        // Items we never saw streamed (a server that only sends the final
        // object) still count.
        let mut out = Vec::new();
        if let Some(output) = response.get("output").and_then(Value::as_array) {
            for (i, item) in output.iter().enumerate() {
                let i = i as u64;
                if !self.items.contains_key(&i) {
                    self.insert(i, new_item(item), &mut out);
                }
            }
        }
        let mut content = Vec::new();
        let mut refused = false;
        for item in std::mem::take(&mut self.items).into_values() {
            match item {
                Item::Message { text, refusal } => {
                    refused |= refusal;
                    if !text.is_empty() {
                        content.push(ContentBlock::Text { text });
                    }
                }
                Item::Reasoning { r, summary, .. } => content.push(ContentBlock::Thinking {
                    thinking: summary,
                    signature: Some(r.to_signature()),
                }),
                Item::Call {
                    call_id,
                    name,
                    arguments,
                } => content.push(ContentBlock::ToolCall {
                    id: call_id,
                    name,
                    arguments: if arguments.trim().is_empty() {
                        "{}".to_owned()
                    } else {
                        arguments
                    },
                }),
                Item::Other => {}
            }
        }
        let has_calls = content
            .iter()
            .any(|b| matches!(b, ContentBlock::ToolCall { .. }));
        let incomplete = str_of(response, "/incomplete_details/reason");
        let stop_reason = if refused {
            StopReason::Refusal
        } else if incomplete == "max_output_tokens" {
            // A call cut by the output limit must not pass for a whole one.
            StopReason::MaxTokens
        } else if has_calls {
            StopReason::ToolUse
        } else {
            match (str_of(response, "/status"), incomplete) {
                (_, "max_output_tokens") => StopReason::MaxTokens,
                (_, "content_filter") => StopReason::Refusal,
                ("incomplete", _) => StopReason::Other,
                _ => StopReason::EndTurn,
            }
        };
        out.push(StreamEvent::Completed {
            message: Message {
                role: Role::Assistant,
                content,
            },
            stop_reason,
            usage: self.usage,
        });
        out
    }
}

fn new_item(item: &Value) -> Item {
    let s = |name: &str| str_of(item, name).to_owned();
    match str_of(item, "/type") {
        "message" => {
            let mut text = String::new();
            let mut refusal = false;
            for part in item
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                match str_of(part, "/type") {
                    "output_text" => text.push_str(str_of(part, "/text")),
                    "refusal" => {
                        refusal = true;
                        text.push_str(str_of(part, "/refusal"));
                    }
                    _ => {}
                }
            }
            Item::Message { text, refusal }
        }
        "reasoning" => {
            let summary: Vec<&str> = item
                .get("summary")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|p| str_of(p, "/text"))
                .filter(|t| !t.is_empty())
                .collect();
            Item::Reasoning {
                r: ReasoningRef {
                    id: s("/id"),
                    encrypted_content: item
                        .get("encrypted_content")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                },
                summary: summary.join("\n\n"),
                part: None,
            }
        }
        "function_call" => Item::Call {
            // The canonical id is `call_id`, which outputs refer to; `id`
            // (`fc_…`) names the item only.
            call_id: Some(s("/call_id"))
                .filter(|c| !c.is_empty())
                .unwrap_or_else(|| s("/id")),
            name: s("/name"),
            arguments: s("/arguments"),
        },
        _ => Item::Other,
    }
}

fn mismatch(kind: &str) -> LlmError {
    LlmError::protocol(PROVIDER, format!("{kind} for an item of another type"))
}

fn api_error(code: &str, message: &str) -> LlmError {
    let message = if message.is_empty() {
        "no message"
    } else {
        message
    };
    LlmError::Api {
        provider: PROVIDER,
        message: if code.is_empty() {
            message.to_owned()
        } else {
            format!("{code}: {message}")
        },
    }
}

/// `input_tokens` includes cached tokens in this API; ours counts them
/// separately. Reasoning tokens are part of `output_tokens` on both sides.
fn convert_usage(json: &Value) -> Usage {
    let field = |p: &str| json.pointer(p).and_then(Value::as_u64).unwrap_or(0);
    let cached = field("/input_tokens_details/cached_tokens");
    Usage {
        input_tokens: field("/input_tokens").saturating_sub(cached),
        output_tokens: field("/output_tokens"),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: cached,
    }
}

delegate_decoder!(OpenAiResponsesDecoder);

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
