//! Request-body tests of the Chat Completions adapter.

use super::*;
use crate::test_fixtures::conversation;

#[test]
fn full_conversation_body() {
    let body = request_body(&conversation());
    let expected = json!({
        "model": "test-model",
        "max_tokens": 1024,
        "stream": true,
        "stream_options": {"include_usage": true},
        "tools": [{
            "type": "function",
            "function": {
                "name": "read",
                "description": "Read a file",
                "parameters": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]},
            },
        }],
        "messages": [
            {"role": "system", "content": "You are wright."},
            {"role": "user", "content": [
                {"type": "text", "text": "Look at this."},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0K"}},
            ]},
            {"role": "assistant", "content": "Reading.", "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "read", "arguments": "{\"path\":\"a.rs\"}"}},
                {"id": "call_2", "type": "function", "function": {"name": "grep", "arguments": "{not json"}},
            ]},
            {"role": "tool", "tool_call_id": "call_1", "content": "fn main() {}"},
            {"role": "tool", "tool_call_id": "call_2", "content": "Invalid arguments: expected JSON"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_3", "type": "function", "function": {"name": "ls", "arguments": "{}"}},
            ]},
            {"role": "tool", "tool_call_id": "call_3", "content": "a.rs"},
            {"role": "user", "content": "Thanks."},
        ],
    });
    assert_eq!(body, expected);
}

#[test]
fn empty_system_and_tools_are_omitted() {
    let mut request = conversation();
    request.system.clear();
    request.tools.clear();
    request.messages = vec![Message::user_text("hi")];
    let body = request_body(&request);
    assert!(body.get("tools").is_none());
    assert_eq!(body["messages"], json!([{"role": "user", "content": "hi"}]));
}

#[test]
fn thinking_only_assistant_message_is_dropped() {
    let mut out = Vec::new();
    push_message(
        &mut out,
        &Message {
            role: Role::Assistant,
            content: vec![ContentBlock::Thinking {
                thinking: "t".into(),
                signature: None,
            }],
        },
    );
    assert!(out.is_empty());
}
