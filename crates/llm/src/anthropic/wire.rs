//! Canonical request → Anthropic Messages request body.

use serde_json::{Map, Value, json};
use wright_protocol::{ContentBlock, Message, Role};

use crate::client::ModelRequest;
use crate::ids::IdRules;
use crate::openai_responses::SIGNATURE_PREFIX;

/// The smallest thinking budget the API accepts.
pub const MIN_THINKING_BUDGET: u32 = 1024;

/// The JSON body of a streaming Messages request: `{model, max_tokens,
/// system, messages, tools, stream: true}`, with `system` and `tools`
/// omitted when empty; `thinking` when a budget is set; and, with
/// `prompt_cache`, `cache_control` breakpoints (at most 4) on the system
/// prompt, the last tool, and the last block of the latest two user turns.
pub fn request_body(request: &ModelRequest) -> Value {
    let cache = request.prompt_cache;
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    let mut max_tokens = request.max_tokens;
    if let Some(budget) = request.thinking_budget {
        let budget = budget.max(MIN_THINKING_BUDGET);
        // The budget is part of max_tokens, which must exceed it; leave the
        // answer the room the caller asked for.
        if max_tokens <= budget {
            max_tokens = budget.saturating_add(request.max_tokens.max(1));
        }
        body.insert(
            "thinking".into(),
            json!({"type": "enabled", "budget_tokens": budget}),
        );
    }
    body.insert("max_tokens".into(), json!(max_tokens));
    if !request.system.is_empty() {
        let system = if cache {
            json!([{"type": "text", "text": request.system, "cache_control": ephemeral()}])
        } else {
            json!(request.system)
        };
        body.insert("system".into(), system);
    }
    let mut messages: Vec<Value> = request.messages.iter().map(message).collect();
    if cache {
        mark_latest_user_turns(&mut messages, 2);
    }
    body.insert("messages".into(), Value::Array(messages));
    if !request.tools.is_empty() {
        let mut tools: Vec<Value> = request
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
        if cache && let Some(last) = tools.last_mut() {
            last["cache_control"] = ephemeral();
        }
        body.insert("tools".into(), Value::Array(tools));
    }
    body.insert("stream".into(), Value::Bool(true));
    Value::Object(body)
}

fn ephemeral() -> Value {
    json!({"type": "ephemeral"})
}

/// Puts a breakpoint on the last block of the latest `turns` user messages:
/// the newest caches this request's prefix for the next one, the one before
/// keeps hitting the cache when a turn added many blocks.
fn mark_latest_user_turns(messages: &mut [Value], turns: usize) {
    let latest = messages
        .iter_mut()
        .rev()
        .filter(|m| m["role"] == "user")
        .take(turns);
    for m in latest {
        if let Some(last) = m["content"].as_array_mut().and_then(|c| c.last_mut()) {
            last["cache_control"] = ephemeral();
        }
    }
}

fn message(message: &Message) -> Value {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    // Thinking is only valid with an Anthropic signature: unsigned
    // reasoning (Chat servers) and Responses reasoning items are dropped.
    let mut content: Vec<Value> = Vec::with_capacity(message.content.len());
    let kept = message.content.iter().filter(|b| match b {
        ContentBlock::Thinking { signature, .. } => signature
            .as_deref()
            .is_some_and(|s| !s.starts_with(SIGNATURE_PREFIX)),
        ContentBlock::Opaque { provider, .. } => provider == super::PROVIDER,
        _ => true,
    });
    for b in kept {
        let value = block(b);
        // A tool's images follow its result; the API wants them inside it
        // (a user message's tool_result blocks must come first).
        if matches!(b, ContentBlock::Image { .. })
            && let Some(last) = content.last_mut()
            && last["type"] == "tool_result"
        {
            attach_to_result(last, value);
        } else {
            content.push(value);
        }
    }
    json!({"role": role, "content": content})
}

/// Turns a tool_result's text content into a list of blocks (if it is not
/// one yet) and appends `image`.
fn attach_to_result(result: &mut Value, image: Value) {
    if let Value::String(text) = &result["content"] {
        let text = text.clone();
        result["content"] = if text.is_empty() {
            json!([])
        } else {
            json!([{"type": "text", "text": text}])
        };
    }
    if let Some(parts) = result["content"].as_array_mut() {
        parts.push(image);
    }
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
            "id": IdRules::ANTHROPIC.apply(id),
            "name": name,
            "input": tool_input(arguments),
        }),
        ContentBlock::ToolResult {
            call_id,
            content,
            is_error,
        } => json!({
            "type": "tool_result",
            "tool_use_id": IdRules::ANTHROPIC.apply(call_id),
            "content": content,
            "is_error": is_error,
        }),
        ContentBlock::Opaque { block, .. } => block.clone(),
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
