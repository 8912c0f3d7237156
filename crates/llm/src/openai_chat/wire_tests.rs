//! Request-body tests of the Chat Completions adapter.

use super::*;
use crate::test_fixtures::conversation;
use serde_json::json;

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
    request.messages = std::sync::Arc::new(vec![Message::user_text("hi")]);
    let body = request_body(&request);
    assert!(body.get("tools").is_none());
    assert_eq!(body["messages"], json!([{"role": "user", "content": "hi"}]));
}

#[test]
fn thinking_only_assistant_message_is_dropped() {
    let thinking = Message {
        role: Role::Assistant,
        content: vec![ContentBlock::Thinking {
            thinking: "t".into(),
            signature: None,
        }],
    };
    let mut out = Vec::new();
    push_message(&mut out, &thinking, IdRules::CHAT);
    assert!(out.is_empty());
}

#[test]
fn compat_shapes_the_body() {
    use super::super::compat::{ChatCompat, MaxTokensField, SystemRole};
    let mut request = conversation();
    request.reasoning_effort = Some(crate::ReasoningEffort::Medium);
    let compat = ChatCompat {
        system_role: SystemRole::Developer,
        max_tokens_field: MaxTokensField::MaxCompletionTokens,
        stream_usage: false,
        reasoning_field: false,
        tool_call_ids: crate::IdRules::CHAT,
    };
    let body = request_body_with(&request, &compat);
    assert_eq!(
        body["messages"][0],
        json!({"role": "developer", "content": "You are wright."})
    );
    assert_eq!(body["max_completion_tokens"], json!(1024));
    assert!(body.get("max_tokens").is_none());
    assert!(body.get("stream_options").is_none());
    assert_eq!(body["reasoning_effort"], json!("medium"));
    assert!(
        request_body(&conversation())
            .get("reasoning_effort")
            .is_none()
    );
}

#[test]
fn long_tool_ids_are_shortened_for_call_and_result() {
    let long = "toolu_01A09q90qw90lq917835lq9-extra-long-id-x";
    let request = ModelRequest {
        messages: std::sync::Arc::new(vec![
            Message {
                role: Role::Assistant,
                content: vec![ContentBlock::ToolCall {
                    id: long.into(),
                    name: "ls".into(),
                    arguments: "{}".into(),
                }],
            },
            Message {
                role: Role::User,
                content: vec![ContentBlock::ToolResult {
                    call_id: long.into(),
                    content: "ok".into(),
                    is_error: false,
                }],
            },
        ]),
        ..conversation()
    };
    let openai =
        super::super::compat::ChatCompat::for_server("https://api.openai.com/v1", "gpt-4o");
    let body = request_body_with(&request, &openai);
    let id = body["messages"][1]["tool_calls"][0]["id"].as_str().unwrap();
    assert!(id.len() <= 40, "{id}");
    assert_eq!(body["messages"][2]["tool_call_id"], json!(id));
}

#[test]
fn tool_images_follow_the_tool_messages_as_user_content() {
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
        ],
    };
    let mut out = Vec::new();
    push_message(&mut out, &m, IdRules::CHAT);
    let out = serde_json::to_value(&out).unwrap();
    assert_eq!(out.as_array().unwrap().len(), 2, "{out}");
    assert_eq!(out[0]["role"], "tool");
    assert_eq!(out[0]["content"], "a screenshot");
    assert_eq!(out[1]["role"], "user");
    assert_eq!(
        out[1]["content"][0]["image_url"]["url"],
        "data:image/png;base64,AAAA"
    );
}

/// A vLLM id (`chatcmpl-tool-` + 32 hex) goes back exactly as the server
/// sent it, in the call and in its result; OpenAI's own service, which caps
/// ids at 40 characters, gets the same rewritten id in both places.
#[test]
fn server_tool_call_ids_are_echoed_when_valid() {
    use super::super::compat::ChatCompat;
    use crate::test_fixtures::tool_call;
    let vllm = "chatcmpl-tool-0123456789abcdef0123456789abcdef";
    let mut request = conversation();
    request.messages = std::sync::Arc::new(vec![
        Message::user_text("go"),
        Message {
            role: Role::Assistant,
            content: vec![tool_call(vllm, "read", "{}")],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult {
                call_id: vllm.into(),
                content: "ok".into(),
                is_error: false,
            }],
        },
    ]);
    let local = ChatCompat::for_server("http://localhost:8000/v1", "qwen");
    let body = request_body_with(&request, &local);
    assert_eq!(body["messages"][2]["tool_calls"][0]["id"], json!(vllm));
    assert_eq!(body["messages"][3]["tool_call_id"], json!(vllm));
    let openai = ChatCompat::for_server("https://api.openai.com/v1", "gpt-4o");
    let body = request_body_with(&request, &openai);
    let id = body["messages"][2]["tool_calls"][0]["id"].as_str().unwrap();
    assert!(id.len() <= 40 && id != vllm, "{id}");
    assert_eq!(body["messages"][3]["tool_call_id"], json!(id));
}

#[test]
fn kept_message_bytes_equal_fresh_ones() {
    for compat in [
        ChatCompat::default(),
        ChatCompat::for_server("https://api.openai.com/v1", "gpt-5"),
    ] {
        crate::test_fixtures::assert_cache_is_transparent(|request, cache| {
            serde_json::to_vec(&body(request, &compat, cache)).unwrap()
        });
    }
}
