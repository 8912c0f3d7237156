//! Canonical request → Chat Completions request body.

use serde_json::{Map, Value, json};
use wright_protocol::{ContentBlock, Message, Role};

use super::compat::{ChatCompat, MaxTokensField, SystemRole};
use crate::client::ModelRequest;
use crate::ids::IdRules;

/// The JSON body of a streaming Chat Completions request with the default
/// [`ChatCompat`]; see [`request_body_with`].
pub fn request_body(request: &ModelRequest) -> Value {
    request_body_with(request, &ChatCompat::default())
}

/// The JSON body of a streaming Chat Completions request: `{model,
/// messages, tools, stream: true, stream_options: {include_usage: true},
/// max_tokens}`, with `tools` omitted when empty and the system prompt as
/// the first message; role, limit field, `stream_options` and
/// `reasoning_effort` follow `compat` and the request options.
pub fn request_body_with(request: &ModelRequest, compat: &ChatCompat) -> Value {
    let mut messages = Vec::new();
    if !request.system.is_empty() {
        let role = match compat.system_role {
            SystemRole::System => "system",
            SystemRole::Developer => "developer",
        };
        messages.push(json!({"role": role, "content": request.system}));
    }
    for m in &request.messages {
        push_message(&mut messages, m, compat.tool_call_ids);
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    body.insert("messages".into(), Value::Array(messages));
    if !request.tools.is_empty() {
        let tools = request
            .tools
            .iter()
            .map(|t| {
                json!({
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": t.input_schema,
                    },
                })
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    body.insert("stream".into(), Value::Bool(true));
    if compat.stream_usage {
        body.insert("stream_options".into(), json!({"include_usage": true}));
    }
    let limit = match compat.max_tokens_field {
        MaxTokensField::MaxTokens => "max_tokens",
        MaxTokensField::MaxCompletionTokens => "max_completion_tokens",
    };
    body.insert(limit.into(), json!(request.max_tokens));
    if let Some(effort) = request.reasoning_effort {
        body.insert("reasoning_effort".into(), json!(effort.as_str()));
    }
    Value::Object(body)
}

/// Appends one canonical message as one or more chat messages. Tool results
/// become `tool` messages of their own; thinking is dropped (chat has no
/// place for it).
fn push_message(out: &mut Vec<Value>, message: &Message, ids: IdRules) {
    let tool_messages = message.content.iter().filter_map(|b| match b {
        ContentBlock::ToolResult {
            call_id, content, ..
        } => Some(json!({
            "role": "tool",
            "tool_call_id": ids.apply(call_id),
            "content": content,
        })),
        _ => None,
    });
    match message.role {
        // Tool messages must directly follow the assistant message that
        // asked for them, so they go before any user text.
        Role::User => {
            out.extend(tool_messages);
            if let Some(content) = user_content(&message.content) {
                out.push(json!({"role": "user", "content": content}));
            }
        }
        Role::Assistant => {
            if let Some(m) = assistant_message(&message.content, ids) {
                out.push(m);
            }
            out.extend(tool_messages);
        }
    }
}

fn joined_text(blocks: &[ContentBlock]) -> String {
    let texts: Vec<&str> = blocks
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    texts.join("\n")
}

/// A plain string when the message is text only (what every compatible
/// server accepts), content parts when it carries images.
fn user_content(blocks: &[ContentBlock]) -> Option<Value> {
    let has_image = blocks
        .iter()
        .any(|b| matches!(b, ContentBlock::Image { .. }));
    if !has_image {
        let has_text = blocks
            .iter()
            .any(|b| matches!(b, ContentBlock::Text { .. }));
        return has_text.then(|| Value::String(joined_text(blocks)));
    }
    let parts = blocks
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(json!({"type": "text", "text": text})),
            ContentBlock::Image { media_type, data } => Some(json!({
                "type": "image_url",
                "image_url": {"url": format!("data:{media_type};base64,{data}")},
            })),
            _ => None,
        })
        .collect();
    Some(Value::Array(parts))
}

fn assistant_message(blocks: &[ContentBlock], ids: IdRules) -> Option<Value> {
    let text = joined_text(blocks);
    let calls: Vec<Value> = blocks
        .iter()
        .filter_map(|b| match b {
            ContentBlock::ToolCall {
                id,
                name,
                arguments,
            } => Some(json!({
                "id": ids.apply(id),
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            })),
            _ => None,
        })
        .collect();
    if text.is_empty() && calls.is_empty() {
        // Only thinking: nothing chat can carry.
        return None;
    }
    let mut m = json!({
        "role": "assistant",
        "content": if text.is_empty() { Value::Null } else { Value::String(text) },
    });
    if !calls.is_empty() {
        m["tool_calls"] = Value::Array(calls);
    }
    Some(m)
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
