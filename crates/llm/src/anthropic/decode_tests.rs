//! Fixture tests of the Anthropic stream decoder, each fixture fed at many
//! chunk sizes so tool arguments and UTF-8 split at odd places.

use super::*;
use crate::http::test_util::{CHUNK_SIZES, run};

const TEXT: &str = include_str!("../../tests/fixtures/anthropic/text.sse");
const TOOL_CALLS: &str = include_str!("../../tests/fixtures/anthropic/tool_calls.sse");
const THINKING: &str = include_str!("../../tests/fixtures/anthropic/thinking.sse");
const ERROR_MID_STREAM: &str = include_str!("../../tests/fixtures/anthropic/error_mid_stream.sse");
const UNKNOWN_EVENTS: &str = include_str!("../../tests/fixtures/anthropic/unknown_events.sse");

/// Decodes `fixture` at every chunk size, checks they all agree, and
/// returns the result.
fn decode(fixture: &str) -> (Vec<StreamEvent>, Option<LlmError>) {
    let whole = run(AnthropicDecoder::new(), fixture.as_bytes(), usize::MAX);
    for &size in CHUNK_SIZES {
        let split = run(AnthropicDecoder::new(), fixture.as_bytes(), size);
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
    lines
        .iter()
        .map(|data| format!("data: {data}\n\n"))
        .collect()
}

#[test]
fn plain_text_with_usage() {
    let (events, error) = decode(TEXT);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        events,
        vec![
            StreamEvent::TextDelta("Hello".into()),
            StreamEvent::TextDelta(", wörld 😀".into()),
            StreamEvent::Completed {
                message: Message {
                    role: Role::Assistant,
                    content: vec![ContentBlock::Text {
                        text: "Hello, wörld 😀".into()
                    }],
                },
                stop_reason: StopReason::EndTurn,
                usage: Usage {
                    input_tokens: 25,
                    output_tokens: 15,
                    cache_creation_input_tokens: 3,
                    cache_read_input_tokens: 7,
                },
            },
        ]
    );
}

#[test]
fn tool_calls_with_split_arguments() {
    let (events, error) = decode(TOOL_CALLS);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        &events[..4],
        &[
            StreamEvent::TextDelta("Let me look.".into()),
            StreamEvent::ToolCallStarted {
                id: "toolu_01".into(),
                name: "read".into()
            },
            StreamEvent::ToolCallStarted {
                id: "toolu_02".into(),
                name: "grep".into()
            },
            StreamEvent::ToolCallStarted {
                id: "toolu_03".into(),
                name: "ls".into()
            },
        ]
    );
    let (message, stop, usage) = completed(&events);
    assert_eq!(stop, StopReason::ToolUse);
    assert_eq!(usage.input_tokens, 400);
    assert_eq!(usage.output_tokens, 89);
    assert_eq!(
        message.content,
        vec![
            ContentBlock::Text {
                text: "Let me look.".into()
            },
            ContentBlock::ToolCall {
                id: "toolu_01".into(),
                name: "read".into(),
                arguments: r#"{"path": "src/main.rs"}"#.into(),
            },
            ContentBlock::ToolCall {
                id: "toolu_02".into(),
                name: "grep".into(),
                arguments: r#"{"pattern": "fn mäin"}"#.into(),
            },
            // No deltas at all: the start block's `input` stands.
            ContentBlock::ToolCall {
                id: "toolu_03".into(),
                name: "ls".into(),
                arguments: "{}".into(),
            },
        ]
    );
}

#[test]
fn thinking_with_signature_and_redacted_thinking() {
    let (events, error) = decode(THINKING);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        &events[..3],
        &[
            StreamEvent::ThinkingDelta("Let me think".into()),
            StreamEvent::ThinkingDelta(" step by step.".into()),
            StreamEvent::TextDelta("42".into()),
        ]
    );
    let (message, stop, _) = completed(&events);
    assert_eq!(stop, StopReason::EndTurn);
    assert_eq!(
        message.content,
        vec![
            ContentBlock::Thinking {
                thinking: "Let me think step by step.".into(),
                signature: Some("EqQBCgIYAhIM1gbcDa9GJwZA2b3h".into()),
            },
            ContentBlock::RedactedThinking {
                data: "EmwKAhgBEgy3va3pzix".into()
            },
            ContentBlock::Text { text: "42".into() },
        ]
    );
}

#[test]
fn error_event_mid_stream() {
    let (events, error) = decode(ERROR_MID_STREAM);
    assert_eq!(events, vec![StreamEvent::TextDelta("Partial".into())]);
    let error = error.expect("an error");
    assert!(
        matches!(&error, LlmError::Api { provider: "anthropic", message } if message == "overloaded_error: Overloaded"),
        "{error:?}"
    );
    assert!(error.is_retryable());
}

#[test]
fn truncated_stream() {
    let cut = TEXT
        .find("event: message_stop")
        .expect("fixture has message_stop");
    let (events, error) = decode(&TEXT[..cut]);
    assert!(matches!(
        error,
        Some(LlmError::Truncated {
            provider: "anthropic"
        })
    ));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, StreamEvent::Completed { .. }))
    );
}

#[test]
fn cut_mid_line_is_truncated_not_malformed() {
    let cut = TEXT.find("{\"type\":\"message_stop").expect("fixture") + 10;
    let (_, error) = decode(&TEXT[..cut]);
    assert!(
        matches!(error, Some(LlmError::Truncated { .. })),
        "{error:?}"
    );
}

#[test]
fn unknown_events_blocks_and_deltas_are_ignored() {
    let (events, error) = decode(UNKNOWN_EVENTS);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(events[0], StreamEvent::TextDelta("ok".into()));
    let (message, stop, usage) = completed(&events);
    assert_eq!(stop, StopReason::PauseTurn);
    assert_eq!(usage.output_tokens, 5);
    assert_eq!(
        message.content,
        vec![ContentBlock::Text { text: "ok".into() }]
    );
    assert_eq!(events.len(), 2, "nothing after message_stop: {events:?}");
}

#[test]
fn malformed_json_is_a_protocol_error() {
    let (_, error) = decode(&sse(&[r#"{"type":"message_start","#]));
    assert!(
        matches!(&error, Some(LlmError::Protocol { provider: "anthropic", message }) if message.contains("invalid JSON")),
        "{error:?}"
    );
}

#[test]
fn delta_for_unknown_block_is_a_protocol_error() {
    let (_, error) = decode(&sse(&[
        r#"{"type":"content_block_delta","index":4,"delta":{"type":"text_delta","text":"x"}}"#,
    ]));
    assert!(
        matches!(error, Some(LlmError::Protocol { .. })),
        "{error:?}"
    );
}

#[test]
fn missing_stop_reason_is_inferred() {
    let (events, error) = decode(&sse(&[
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"ls","input":{"path":"."}}}"#,
        r#"{"type":"message_stop"}"#,
    ]));
    assert!(error.is_none(), "{error:?}");
    let (message, stop, usage) = completed(&events);
    assert_eq!(stop, StopReason::ToolUse);
    assert_eq!(usage, Usage::default());
    assert_eq!(
        message.content,
        vec![ContentBlock::ToolCall {
            id: "t1".into(),
            name: "ls".into(),
            arguments: r#"{"path":"."}"#.into()
        }]
    );
}

#[test]
fn stop_reasons_map() {
    for (wire, ours) in [
        ("end_turn", StopReason::EndTurn),
        ("tool_use", StopReason::ToolUse),
        ("max_tokens", StopReason::MaxTokens),
        ("stop_sequence", StopReason::StopSequence),
        ("refusal", StopReason::Refusal),
        ("pause_turn", StopReason::PauseTurn),
        ("something_new", StopReason::Other),
    ] {
        assert_eq!(stop_reason(wire), ours);
    }
}
