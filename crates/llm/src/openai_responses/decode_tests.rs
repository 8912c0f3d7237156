//! Fixture tests of the Responses stream decoder, each fixture fed at many
//! chunk sizes so arguments and UTF-8 split at odd places.

use super::*;
use crate::http::test_util::{CHUNK_SIZES, run};
use crate::openai_responses::request_body;
use crate::{ModelRequest, ReasoningEffort};
use serde_json::json;

const TEXT: &str = include_str!("../../tests/fixtures/openai_responses/text.sse");
const TOOL_CALLS: &str = include_str!("../../tests/fixtures/openai_responses/tool_calls.sse");
const ERROR_MID_STREAM: &str =
    include_str!("../../tests/fixtures/openai_responses/error_mid_stream.sse");
const FAILED: &str = include_str!("../../tests/fixtures/openai_responses/failed.sse");
const INCOMPLETE: &str = include_str!("../../tests/fixtures/openai_responses/incomplete.sse");

fn decode(fixture: &str) -> (Vec<StreamEvent>, Option<LlmError>) {
    let whole = run(
        OpenAiResponsesDecoder::new(),
        fixture.as_bytes(),
        usize::MAX,
    );
    for &size in CHUNK_SIZES {
        let split = run(OpenAiResponsesDecoder::new(), fixture.as_bytes(), size);
        assert_eq!(split.0, whole.0, "events differ at chunk size {size}");
        assert_eq!(
            split.1.as_ref().map(ToString::to_string),
            whole.1.as_ref().map(ToString::to_string),
            "errors differ at chunk size {size}"
        );
    }
    whole
}

fn completed(events: &[StreamEvent]) -> (&Message, StopReason, Usage) {
    match events.last() {
        Some(StreamEvent::Completed {
            message,
            stop_reason,
            usage,
        }) => (message, *stop_reason, *usage),
        other => panic!("last event is not Completed: {other:?}"),
    }
}

fn sse(lines: &[&str]) -> String {
    lines.iter().map(|d| format!("data: {d}\n\n")).collect()
}

#[test]
fn plain_text_with_cached_usage() {
    let (events, error) = decode(TEXT);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        events,
        vec![
            StreamEvent::TextDelta("Hel".into()),
            StreamEvent::TextDelta("lo ☃ wörld".into()),
            StreamEvent::Completed {
                message: Message {
                    role: Role::Assistant,
                    content: vec![ContentBlock::Text {
                        text: "Hello ☃ wörld".into()
                    }],
                },
                stop_reason: StopReason::EndTurn,
                usage: Usage {
                    input_tokens: 40,
                    output_tokens: 20,
                    cache_creation_input_tokens: 0,
                    cache_read_input_tokens: 60,
                },
            },
        ]
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
            StreamEvent::ToolCallStarted {
                id: "call_A1".into(),
                name: "read".into()
            },
            StreamEvent::ToolCallStarted {
                id: "call_B2".into(),
                name: "grep".into()
            },
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
            ContentBlock::ToolCall {
                id: "call_A1".into(),
                name: "read".into(),
                arguments: r#"{"path": "src/main.rs"}"#.into(),
            },
            ContentBlock::ToolCall {
                id: "call_B2".into(),
                name: "grep".into(),
                arguments: r#"{"pattern": "fn mäin"}"#.into(),
            },
        ]
    );
}

#[test]
fn reasoning_round_trips_into_the_next_request() {
    let (events, _) = decode(TOOL_CALLS);
    let (message, _, _) = completed(&events);
    let request = ModelRequest {
        model: "gpt-5".into(),
        messages: vec![
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
        ],
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
        assert!(
            matches!(
                error,
                Some(LlmError::Truncated {
                    provider: "openai-responses"
                })
            ),
            "{error:?}"
        );
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, StreamEvent::Completed { .. }))
        );
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
    assert_eq!(
        events[1],
        StreamEvent::ToolCallStarted {
            id: "call_9".into(),
            name: "ls".into()
        }
    );
    let (message, stop, usage) = completed(&events);
    assert_eq!(stop, StopReason::ToolUse);
    assert_eq!(usage, Usage::default());
    assert_eq!(
        message.content[1],
        ContentBlock::ToolCall {
            id: "call_9".into(),
            name: "ls".into(),
            arguments: "{}".into()
        }
    );
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
