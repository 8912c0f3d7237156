//! Request-body tests of the Responses adapter.

use super::*;
use crate::ReasoningEffort;
use crate::test_fixtures::conversation;
use serde_json::json;

#[test]
fn full_conversation_body() {
    let body = request_body(&conversation());
    let expected = json!({
        "model": "test-model",
        "instructions": "You are wright.",
        "max_output_tokens": 1024,
        "stream": true,
        "store": false,
        "tools": [{
            "type": "function",
            "name": "read",
            "description": "Read a file",
            "parameters": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]},
            "strict": false,
        }],
        "input": [
            {"role": "user", "content": [
                {"type": "input_text", "text": "Look at this."},
                {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0K"},
            ]},
            // Anthropic-signed and redacted thinking are not ours to send.
            {"role": "assistant", "content": "Reading."},
            {"type": "function_call", "call_id": "call_1", "name": "read", "arguments": "{\"path\":\"a.rs\"}"},
            {"type": "function_call", "call_id": "call_2", "name": "grep", "arguments": "{not json"},
            {"type": "function_call_output", "call_id": "call_1", "output": "fn main() {}"},
            {"type": "function_call_output", "call_id": "call_2", "output": "Invalid arguments: expected JSON"},
            {"type": "function_call", "call_id": "call_3", "name": "ls", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "call_3", "output": "a.rs"},
            {"role": "user", "content": [{"type": "input_text", "text": "Thanks."}]},
        ],
    });
    assert_eq!(body, expected);
}

#[test]
fn reasoning_models_get_include_and_effort() {
    let mut request = conversation();
    request.model = "o4-mini".into();
    request.system.clear();
    request.tools.clear();
    let body = request_body(&request);
    assert_eq!(body["include"], json!(["reasoning.encrypted_content"]));
    assert!(body.get("reasoning").is_none());
    assert!(body.get("instructions").is_none());
    assert!(body.get("tools").is_none());
    request.model = "gpt-4.1".into();
    assert!(request_body(&request).get("include").is_none());
    request.reasoning_effort = Some(ReasoningEffort::Low);
    let body = request_body(&request);
    assert_eq!(body["reasoning"], json!({"effort": "low"}));
    assert_eq!(body["include"], json!(["reasoning.encrypted_content"]));
}

#[test]
fn signature_encoding_round_trips() {
    let r = ReasoningRef {
        id: "rs_1".into(),
        encrypted_content: Some("enc".into()),
    };
    let sig = r.to_signature();
    assert!(sig.starts_with(SIGNATURE_PREFIX));
    assert_eq!(ReasoningRef::from_signature(&sig), Some(r));
    assert_eq!(ReasoningRef::from_signature("EqQBCgIYAhIM"), None);
    assert_eq!(ReasoningRef::from_signature("openai-responses:{bad"), None);
    let bare = ReasoningRef {
        id: "rs_2".into(),
        encrypted_content: None,
    };
    assert_eq!(
        ReasoningRef::from_signature(&bare.to_signature()),
        Some(bare)
    );
}

#[test]
fn foreign_tool_ids_are_normalized_consistently() {
    let mut request = conversation();
    request.messages = std::sync::Arc::new(vec![
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::ToolCall {
                id: "functions.read:0".into(),
                name: "read".into(),
                arguments: "{}".into(),
            }],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult {
                call_id: "functions.read:0".into(),
                content: "ok".into(),
                is_error: false,
            }],
        },
    ]);
    let body = request_body(&request);
    let call = body["input"][0]["call_id"].as_str().unwrap().to_owned();
    assert_eq!(body["input"][1]["call_id"], json!(call));
    assert!(call.starts_with("functions_read_0_"));
}

#[test]
fn tool_images_follow_the_outputs_as_user_input() {
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
    push_message(&mut out, &m);
    let out = serde_json::to_value(&out).unwrap();
    assert_eq!(out.as_array().unwrap().len(), 2, "{out}");
    assert_eq!(out[0]["type"], "function_call_output");
    assert_eq!(out[1]["role"], "user");
    assert_eq!(out[1]["content"][0]["type"], "input_image");
    assert_eq!(
        out[1]["content"][0]["image_url"],
        "data:image/png;base64,AAAA"
    );
}

#[test]
fn kept_message_bytes_equal_fresh_ones() {
    crate::test_fixtures::assert_cache_is_transparent(|request, cache| {
        serde_json::to_vec(&body(request, cache)).unwrap()
    });
}
