//! Request-body tests of the Anthropic adapter.

use super::*;
use serde_json::json;

fn tool_input(arguments: &str) -> Value {
    serde_json::to_value(ToolInput(arguments)).unwrap()
}
use crate::test_fixtures::conversation;

#[test]
fn full_conversation_body() {
    let body = request_body(&conversation());
    let expected = json!({
        "model": "test-model",
        "max_tokens": 1024,
        "system": "You are wright.",
        "stream": true,
        "tools": [{
            "name": "read",
            "description": "Read a file",
            "input_schema": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]},
        }],
        "messages": [
            {"role": "user", "content": [
                {"type": "text", "text": "Look at this."},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0K"}},
            ]},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Need the file.", "signature": "sig-1"},
                {"type": "redacted_thinking", "data": "opaque"},
                {"type": "text", "text": "Reading."},
                {"type": "tool_use", "id": "call_1", "name": "read", "input": {"path": "a.rs"}},
                {"type": "tool_use", "id": "call_2", "name": "grep", "input": {}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "call_1", "content": "fn main() {}", "is_error": false},
                {"type": "tool_result", "tool_use_id": "call_2", "content": "Invalid arguments: expected JSON", "is_error": true},
            ]},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "call_3", "name": "ls", "input": {}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "call_3", "content": "a.rs", "is_error": false},
                {"type": "text", "text": "Thanks."},
            ]},
        ],
    });
    assert_eq!(body, expected);
}

#[test]
fn empty_system_and_tools_are_omitted() {
    let mut request = conversation();
    request.system.clear();
    request.tools.clear();
    std::sync::Arc::make_mut(&mut request.messages).truncate(1);
    let body = request_body(&request);
    assert!(body.get("system").is_none());
    assert!(body.get("tools").is_none());
    assert_eq!(body["stream"], json!(true));
}

#[test]
fn non_object_arguments_become_empty_input() {
    assert_eq!(tool_input("[1,2]"), json!({}));
    assert_eq!(tool_input("\"s\""), json!({}));
    assert_eq!(tool_input(""), json!({}));
    assert_eq!(tool_input(r#"{"a":1}"#), json!({"a": 1}));
}

#[test]
fn unsigned_thinking_has_no_signature_field() {
    let b = serde_json::to_value(block(&ContentBlock::Thinking {
        thinking: "t".into(),
        signature: None,
    }))
    .unwrap();
    assert_eq!(b, json!({"type": "thinking", "thinking": "t"}));
}

#[test]
fn prompt_cache_breakpoints() {
    let mut request = conversation();
    request.prompt_cache = true;
    let body = request_body(&request);
    let eph = json!({"type": "ephemeral"});
    assert_eq!(
        body["system"],
        json!([{"type": "text", "text": "You are wright.", "cache_control": eph}])
    );
    assert_eq!(body["tools"][0]["cache_control"], eph);
    let messages = body["messages"].as_array().unwrap();
    let marked: Vec<(usize, usize)> = messages
        .iter()
        .enumerate()
        .flat_map(|(i, m)| {
            m["content"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
                .filter(|(_, b)| b.get("cache_control").is_some())
                .map(move |(j, _)| (i, j))
        })
        .collect();
    // The last block of the latest two user turns.
    assert_eq!(marked, vec![(2, 1), (4, 1)]);
    assert_eq!(
        messages[4]["content"][1],
        json!({"type": "text", "text": "Thanks.", "cache_control": eph})
    );
    let total = 2 + marked.len();
    assert!(total <= 4);
}

#[test]
fn no_cache_control_without_prompt_cache() {
    let body = request_body(&conversation());
    assert!(!body.to_string().contains("cache_control"));
}

#[test]
fn thinking_budget_raises_max_tokens() {
    let mut request = conversation();
    request.thinking_budget = Some(4000);
    let body = request_body(&request);
    assert_eq!(
        body["thinking"],
        json!({"type": "enabled", "budget_tokens": 4000})
    );
    assert_eq!(body["max_tokens"], json!(5024));
    request.max_tokens = 16_000;
    assert_eq!(request_body(&request)["max_tokens"], json!(16_000));
    request.thinking_budget = Some(10);
    let body = request_body(&request);
    assert_eq!(body["thinking"]["budget_tokens"], json!(1024));
}

#[test]
fn foreign_thinking_is_dropped_and_ids_normalized() {
    let mut request = conversation();
    request.messages = std::sync::Arc::new(vec![
        Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Thinking {
                    thinking: "summary".into(),
                    signature: Some(r#"openai-responses:{"id":"rs_1"}"#.into()),
                },
                ContentBlock::Thinking {
                    thinking: "chat reasoning".into(),
                    signature: None,
                },
                ContentBlock::ToolCall {
                    id: "call.1".into(),
                    name: "ls".into(),
                    arguments: "{}".into(),
                },
            ],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult {
                call_id: "call.1".into(),
                content: "ok".into(),
                is_error: false,
            }],
        },
    ]);
    let body = request_body(&request);
    let assistant = body["messages"][0]["content"].as_array().unwrap();
    assert_eq!(assistant.len(), 1);
    let id = assistant[0]["id"].as_str().unwrap();
    assert!(id.starts_with("call_1_"), "{id}");
    assert_eq!(body["messages"][1]["content"][0]["tool_use_id"], json!(id));
}

#[test]
fn tool_images_go_inside_their_result() {
    let m = Message {
        role: Role::User,
        content: vec![
            ContentBlock::ToolResult {
                call_id: "call_1".into(),
                content: "a screenshot".into(),
                is_error: false,
            },
            ContentBlock::Image {
                media_type: "image/png".into(),
                data: "AAAA".into(),
            },
            ContentBlock::ToolResult {
                call_id: "call_2".into(),
                content: String::new(),
                is_error: false,
            },
            ContentBlock::Image {
                media_type: "image/gif".into(),
                data: "BBBB".into(),
            },
        ],
    };
    let image = |mime: &str, data: &str| json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}});
    assert_eq!(
        serde_json::to_value(message(&m, false)).unwrap()["content"],
        json!([
            {"type": "tool_result", "tool_use_id": "call_1", "is_error": false, "content": [
                {"type": "text", "text": "a screenshot"},
                image("image/png", "AAAA"),
            ]},
            {"type": "tool_result", "tool_use_id": "call_2", "is_error": false, "content": [
                image("image/gif", "BBBB"),
            ]},
        ])
    );
}

#[test]
fn kept_message_bytes_equal_fresh_ones() {
    crate::test_fixtures::assert_cache_is_transparent(|request, cache| {
        serde_json::to_vec(&body(request, cache)).unwrap()
    });
}
