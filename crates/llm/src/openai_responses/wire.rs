//! Canonical request → Responses API request body, and the encoding of
//! reasoning items into the canonical model.
//!
//! A reasoning item is stored as `ContentBlock::Thinking { thinking:
//! <summary text>, signature: Some("openai-responses:" + json) }` where
//! `json` is `{"id":..,"encrypted_content":..}`. The prefix marks the
//! signature as ours: the Anthropic wire drops such blocks and Chat drops
//! all thinking, so no other provider is sent data it cannot verify.

use serde_json::{Map, Value, json};
use wright_protocol::{ContentBlock, Message, Role};

use crate::client::ModelRequest;
use crate::ids::IdRules;

/// The prefix of a `Thinking` signature that holds a Responses reasoning item.
pub const SIGNATURE_PREFIX: &str = "openai-responses:";

/// The opaque half of a reasoning item.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReasoningRef {
    /// The item id (`rs_…`).
    pub id: String,
    /// The encrypted reasoning, when the server sent it.
    pub encrypted_content: Option<String>,
}

impl ReasoningRef {
    /// The `Thinking` signature carrying this item.
    pub fn to_signature(&self) -> String {
        // Keys in sorted order, so the text is the same whether or not the
        // build's serde_json keeps insertion order (`preserve_order`).
        let mut o = Map::new();
        if let Some(e) = &self.encrypted_content {
            o.insert("encrypted_content".into(), json!(e));
        }
        o.insert("id".into(), json!(self.id));
        format!("{SIGNATURE_PREFIX}{}", Value::Object(o))
    }

    /// The item encoded in `signature`, if it is one of ours.
    pub fn from_signature(signature: &str) -> Option<Self> {
        let json: Value = serde_json::from_str(signature.strip_prefix(SIGNATURE_PREFIX)?).ok()?;
        Some(Self {
            id: json.get("id")?.as_str()?.to_owned(),
            encrypted_content: json
                .get("encrypted_content")
                .and_then(Value::as_str)
                .map(str::to_owned),
        })
    }
}

/// Whether `model` is a reasoning model, which alone accept
/// `include: ["reasoning.encrypted_content"]` (others reject it).
fn is_reasoning_model(model: &str) -> bool {
    let bare = model.rsplit('/').next().unwrap_or(model);
    bare.starts_with("gpt-5")
        || bare.starts_with("codex")
        || (bare.starts_with('o') && bare.chars().nth(1).is_some_and(|c| c.is_ascii_digit()))
}

/// The JSON body of a streaming Responses request: `{model, instructions,
/// input, tools, stream: true, store: false, include, max_output_tokens,
/// reasoning}`. `instructions` and `tools` are omitted when empty; `include`
/// and `reasoning` only go to reasoning models or when an effort is set.
pub fn request_body(request: &ModelRequest) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    if !request.system.is_empty() {
        body.insert("instructions".into(), json!(request.system));
    }
    let mut input = Vec::new();
    for m in &request.messages {
        push_message(&mut input, m);
    }
    body.insert("input".into(), Value::Array(input));
    if !request.tools.is_empty() {
        let tools = request
            .tools
            .iter()
            .map(|t| {
                // `strict` defaults to true here, which demands schemas with
                // every property required and no additional properties.
                json!({
                    "type": "function",
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.input_schema,
                    "strict": false,
                })
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    body.insert("stream".into(), Value::Bool(true));
    // Stateless: reasoning travels back encrypted instead of being stored.
    body.insert("store".into(), Value::Bool(false));
    if request.reasoning_effort.is_some() || is_reasoning_model(&request.model) {
        body.insert("include".into(), json!(["reasoning.encrypted_content"]));
    }
    body.insert("max_output_tokens".into(), json!(request.max_tokens));
    if let Some(effort) = request.reasoning_effort {
        body.insert("reasoning".into(), json!({"effort": effort.as_str()}));
    }
    Value::Object(body)
}

fn push_message(out: &mut Vec<Value>, message: &Message) {
    match message.role {
        Role::User => {
            // Outputs answer the previous assistant turn's calls, so they
            // come before the user's new text.
            for b in &message.content {
                if let ContentBlock::ToolResult {
                    call_id, content, ..
                } = b
                {
                    out.push(json!({
                        "type": "function_call_output",
                        "call_id": IdRules::RESPONSES.apply(call_id),
                        "output": content,
                    }));
                }
            }
            let parts: Vec<Value> = message
                .content
                .iter()
                .filter_map(|b| match b {
                    ContentBlock::Text { text } => {
                        Some(json!({"type": "input_text", "text": text}))
                    }
                    ContentBlock::Image { media_type, data } => Some(json!({
                        "type": "input_image",
                        "image_url": format!("data:{media_type};base64,{data}"),
                    })),
                    _ => None,
                })
                .collect();
            if !parts.is_empty() {
                out.push(json!({"role": "user", "content": parts}));
            }
        }
        Role::Assistant => {
            // Items keep the model's order; consecutive text joins one message.
            let mut text = String::new();
            let flush = |text: &mut String, out: &mut Vec<Value>| {
                if !text.is_empty() {
                    out.push(json!({"role": "assistant", "content": std::mem::take(text)}));
                }
            };
            for b in &message.content {
                match b {
                    ContentBlock::Text { text: t } => {
                        if !text.is_empty() {
                            text.push('\n');
                        }
                        text.push_str(t);
                    }
                    ContentBlock::ToolCall {
                        id,
                        name,
                        arguments,
                    } => {
                        flush(&mut text, out);
                        out.push(json!({
                            "type": "function_call",
                            "call_id": IdRules::RESPONSES.apply(id),
                            "name": name,
                            "arguments": arguments,
                        }));
                    }
                    ContentBlock::Thinking {
                        thinking,
                        signature: Some(signature),
                    } => {
                        // Other providers' thinking cannot be verified here.
                        if let Some(r) = ReasoningRef::from_signature(signature) {
                            flush(&mut text, out);
                            out.push(reasoning_item(&r, thinking));
                        }
                    }
                    _ => {}
                }
            }
            flush(&mut text, out);
        }
    }
}

fn reasoning_item(r: &ReasoningRef, summary: &str) -> Value {
    let summary: Vec<Value> = if summary.is_empty() {
        Vec::new()
    } else {
        vec![json!({"type": "summary_text", "text": summary})]
    };
    let mut item = json!({"type": "reasoning", "id": r.id, "summary": summary});
    if let Some(e) = &r.encrypted_content {
        item["encrypted_content"] = json!(e);
    }
    item
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
