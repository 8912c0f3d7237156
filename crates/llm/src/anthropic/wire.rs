//! Canonical request → Anthropic Messages request body.

use serde_json::{Map, Value, json};
use wright_protocol::{ContentBlock, Message, Role};

use crate::client::ModelRequest;

/// The JSON body of a streaming Messages request: `{model, max_tokens,
/// system, messages, tools, stream: true}`, with `system` and `tools`
/// omitted when empty.
pub fn request_body(request: &ModelRequest) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    body.insert("max_tokens".into(), json!(request.max_tokens));
    if !request.system.is_empty() {
        body.insert("system".into(), json!(request.system));
    }
    body.insert(
        "messages".into(),
        Value::Array(request.messages.iter().map(message).collect()),
    );
    if !request.tools.is_empty() {
        let tools = request
            .tools
            .iter()
            .map(|t| {
                json!({
                    "name": t.name,
                    "description": t.description,
                    "input_schema": t.input_schema,
                })
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    body.insert("stream".into(), Value::Bool(true));
    Value::Object(body)
}

fn message(message: &Message) -> Value {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    json!({
        "role": role,
        "content": message.content.iter().map(block).collect::<Vec<_>>(),
    })
}

fn block(block: &ContentBlock) -> Value {
    match block {
        ContentBlock::Text { text } => json!({"type": "text", "text": text}),
        ContentBlock::Image { media_type, data } => json!({
            "type": "image",
            "source": {"type": "base64", "media_type": media_type, "data": data},
        }),
        ContentBlock::Thinking {
            thinking,
            signature,
        } => {
            let mut b = json!({"type": "thinking", "thinking": thinking});
            if let Some(signature) = signature {
                b["signature"] = json!(signature);
            }
            b
        }
        ContentBlock::RedactedThinking { data } => {
            json!({"type": "redacted_thinking", "data": data})
        }
        ContentBlock::ToolCall {
            id,
            name,
            arguments,
        } => json!({
            "type": "tool_use",
            "id": id,
            "name": name,
            "input": tool_input(arguments),
        }),
        ContentBlock::ToolResult {
            call_id,
            content,
            is_error,
        } => json!({
            "type": "tool_result",
            "tool_use_id": call_id,
            "content": content,
            "is_error": is_error,
        }),
    }
}

/// The API requires `input` to be an object; a model's malformed arguments
/// were already answered with an error result, so `{}` keeps the history valid.
fn tool_input(arguments: &str) -> Value {
    match serde_json::from_str::<Value>(arguments) {
        Ok(v @ Value::Object(_)) => v,
        _ => json!({}),
    }
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
