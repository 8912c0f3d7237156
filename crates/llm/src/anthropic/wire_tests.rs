//! Request-body tests of the Anthropic adapter.

use super::*;
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
    request.messages.truncate(1);
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
    let b = block(&ContentBlock::Thinking {
        thinking: "t".into(),
        signature: None,
    });
    assert_eq!(b, json!({"type": "thinking", "thinking": "t"}));
}
