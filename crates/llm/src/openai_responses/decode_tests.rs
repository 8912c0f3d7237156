//! Fixture tests of the Responses stream decoder, each fixture fed at many
//! chunk sizes so arguments and UTF-8 split at odd places.

use super::*;
use crate::openai_responses::request_body;
use crate::test_fixtures::{
    assert_truncated, completed, decode_split, sse, started, text_answer, tool_call, usage,
};
use crate::{ModelRequest, ReasoningEffort};
use serde_json::json;

const TEXT: &str = include_str!("../../tests/fixtures/openai_responses/text.sse");
const TOOL_CALLS: &str = include_str!("../../tests/fixtures/openai_responses/tool_calls.sse");
const ERROR_MID_STREAM: &str =
    include_str!("../../tests/fixtures/openai_responses/error_mid_stream.sse");
const FAILED: &str = include_str!("../../tests/fixtures/openai_responses/failed.sse");
const INCOMPLETE: &str = include_str!("../../tests/fixtures/openai_responses/incomplete.sse");

fn decode(fixture: &str) -> (Vec<StreamEvent>, Option<LlmError>) {
    decode_split(OpenAiResponsesDecoder::new, fixture)
}

#[test]
fn plain_text_with_cached_usage() {
    let (events, error) = decode(TEXT);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        events,
        text_answer(&["Hel", "lo ☃ wörld"], usage(40, 20, 0, 60))
    );
}

fn expected_reasoning() -> ContentBlock {
    ContentBlock::Thinking {
        thinking: "**Plan**\n\nRead both files.\n\nThen grep.".into(),
        signature: Some(
            r#"openai-responses:{"encrypted_content":"gAAAAABenc+/rypted==","id":"rs_1"}"#.into(),
        ),
    }
}

#[test]
fn reasoning_and_parallel_calls_with_split_arguments() {
    let (events, error) = decode(TOOL_CALLS);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        &events[..6],
        &[
            StreamEvent::ThinkingDelta("**Plan**\n\n".into()),
            StreamEvent::ThinkingDelta("Read both files.".into()),
            StreamEvent::ThinkingDelta("\n\n".into()),
            StreamEvent::ThinkingDelta("Then grep.".into()),
            started("call_A1", "read"),
            started("call_B2", "grep"),
        ]
    );
    let (message, stop, usage) = completed(&events);
    assert_eq!(events.len(), 7);
    assert_eq!(stop, StopReason::ToolUse);
    assert_eq!((usage.input_tokens, usage.output_tokens), (500, 120));
    assert_eq!(
        message.content,
        vec![
            expected_reasoning(),
            tool_call("call_A1", "read", r#"{"path": "src/main.rs"}"#),
            tool_call("call_B2", "grep", r#"{"pattern": "fn mäin"}"#),
        ]
    );
}

#[test]
fn reasoning_round_trips_into_the_next_request() {
    let (events, _) = decode(TOOL_CALLS);
    let (message, _, _) = completed(&events);
    let request = ModelRequest {
        model: "gpt-5".into(),
        messages: std::sync::Arc::new(vec![
            Message::user_text("go"),
            message.clone(),
            Message {
                role: Role::User,
                content: vec![
                    ContentBlock::ToolResult {
                        call_id: "call_A1".into(),
                        content: "fn main() {}".into(),
                        is_error: false,
                    },
                    ContentBlock::ToolResult {
                        call_id: "call_B2".into(),
                        content: "no match".into(),
                        is_error: false,
                    },
                ],
            },
        ]),
        max_tokens: 100,
        reasoning_effort: Some(ReasoningEffort::High),
        ..ModelRequest::default()
    };
    let body = request_body(&request);
    assert_eq!(
        body["input"],
        json!([
            {"role": "user", "content": [{"type": "input_text", "text": "go"}]},
            {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAAABenc+/rypted==",
             "summary": [{"type": "summary_text", "text": "**Plan**\n\nRead both files.\n\nThen grep."}]},
            {"type": "function_call", "call_id": "call_A1", "name": "read", "arguments": "{\"path\": \"src/main.rs\"}"},
            {"type": "function_call", "call_id": "call_B2", "name": "grep", "arguments": "{\"pattern\": \"fn mäin\"}"},
            {"type": "function_call_output", "call_id": "call_A1", "output": "fn main() {}"},
            {"type": "function_call_output", "call_id": "call_B2", "output": "no match"},
        ])
    );
    assert_eq!(body["reasoning"], json!({"effort": "high"}));
}

#[test]
fn error_event_mid_stream() {
    let (events, error) = decode(ERROR_MID_STREAM);
    assert_eq!(events, vec![StreamEvent::TextDelta("Partial".into())]);
    let error = error.expect("an error");
    assert!(
        matches!(&error, LlmError::Api { provider: "openai-responses", message }
            if message == "server_error: The server had an error while processing your request."),
        "{error:?}"
    );
    assert!(error.is_retryable());
}

#[test]
fn failed_response_is_an_api_error() {
    let (events, error) = decode(FAILED);
    assert!(events.is_empty());
    let error = error.expect("an error");
    assert_eq!(
        error.to_string(),
        "openai-responses API error: rate_limit_exceeded: Rate limit reached for gpt-5."
    );
    assert!(error.is_retryable());
    let (_, error) = decode(&sse(&[
        r#"{"type":"response.failed","response":{"status":"failed","error":{"code":"invalid_prompt","message":"no"}}}"#,
    ]));
    assert!(!error.expect("an error").is_retryable());
}

#[test]
fn incomplete_response_stops_at_max_tokens() {
    let (events, error) = decode(INCOMPLETE);
    assert!(error.is_none(), "{error:?}");
    let (message, stop, usage) = completed(&events);
    assert_eq!(stop, StopReason::MaxTokens);
    assert_eq!(message.text(), "Cut sh");
    assert_eq!(usage.output_tokens, 5);
}

#[test]
fn truncated_stream() {
    for cut in [
        TOOL_CALLS
            .find("event: response.completed")
            .expect("fixture"),
        TOOL_CALLS
            .find("{\"type\":\"response.completed")
            .expect("fixture")
            + 30,
    ] {
        let (events, error) = decode(&TOOL_CALLS[..cut]);
        assert_truncated("openai-responses", &events, error.as_ref());
    }
}

#[test]
fn items_only_in_the_final_object_still_count() {
    let (events, error) = decode(&sse(&[
        r#"{"type":"response.completed","response":{"status":"completed","output":[
            {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi"}]},
            {"type":"function_call","id":"fc_9","call_id":"call_9","name":"ls","arguments":""}
        ]}}"#
            .replace('\n', "")
            .as_str(),
    ]));
    assert!(error.is_none(), "{error:?}");
    assert_eq!(events[0], StreamEvent::TextDelta("Hi".into()));
    assert_eq!(events[1], started("call_9", "ls"));
    let (message, stop, usage) = completed(&events);
    assert_eq!(stop, StopReason::ToolUse);
    assert_eq!(usage, Usage::default());
    assert_eq!(message.content[1], tool_call("call_9", "ls", "{}"));
}

#[test]
fn refusal_and_protocol_errors() {
    let (events, error) = decode(&sse(&[
        r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"message","content":[]}}"#,
        r#"{"type":"response.refusal.delta","output_index":0,"delta":"I can't."}"#,
        r#"{"type":"response.completed","response":{"status":"completed"}}"#,
    ]));
    assert!(error.is_none(), "{error:?}");
    assert_eq!(completed(&events).1, StopReason::Refusal);
    let (_, error) = decode(&sse(&[
        r#"{"type":"response.output_text.delta","output_index":3,"delta":"x"}"#,
    ]));
    assert!(
        matches!(error, Some(LlmError::Protocol { .. })),
        "{error:?}"
    );
    let (_, error) = decode(&sse(&[r#"{"type":"response.created","#]));
    assert!(
        matches!(error, Some(LlmError::Protocol { .. })),
        "{error:?}"
    );
    let (_, error) = decode(&sse(&[
        r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs"}}"#,
        r#"{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{"}"#,
    ]));
    assert!(
        matches!(error, Some(LlmError::Protocol { .. })),
        "{error:?}"
    );
}
