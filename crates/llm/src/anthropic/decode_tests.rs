//! Fixture tests of the Anthropic stream decoder, each fixture fed at many
//! chunk sizes so tool arguments and UTF-8 split at odd places.

use super::*;
use crate::test_fixtures::{
    assert_truncated, completed, decode_split, sse, started, text_answer, tool_call, usage,
};

const TEXT: &str = include_str!("../../tests/fixtures/anthropic/text.sse");
const TOOL_CALLS: &str = include_str!("../../tests/fixtures/anthropic/tool_calls.sse");
const THINKING: &str = include_str!("../../tests/fixtures/anthropic/thinking.sse");
const ERROR_MID_STREAM: &str = include_str!("../../tests/fixtures/anthropic/error_mid_stream.sse");
const UNKNOWN_EVENTS: &str = include_str!("../../tests/fixtures/anthropic/unknown_events.sse");

/// The decoded events without the early usage reports (one test below
/// is about those).
fn decode(fixture: &str) -> (Vec<StreamEvent>, Option<LlmError>) {
    let (events, error) = decode_split(AnthropicDecoder::new, fixture);
    let events = events
        .into_iter()
        .filter(|e| !matches!(e, StreamEvent::Usage(_)))
        .collect();
    (events, error)
}

#[test]
fn message_start_reports_the_input_at_once() {
    let (events, _) = decode_split(AnthropicDecoder::new, TEXT);
    let StreamEvent::Usage(early) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(early.input_tokens, 25);
    let (_, _, last) = completed(&events);
    assert_eq!(last.input_tokens, 25);
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, StreamEvent::Usage(_)))
            .count(),
        1
    );
}

#[test]
fn plain_text_with_usage() {
    let (events, error) = decode(TEXT);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        events,
        text_answer(&["Hello", ", wörld 😀"], usage(25, 15, 3, 7))
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
            started("toolu_01", "read"),
            started("toolu_02", "grep"),
            started("toolu_03", "ls"),
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
            tool_call("toolu_01", "read", r#"{"path": "src/main.rs"}"#),
            tool_call("toolu_02", "grep", r#"{"pattern": "fn mäin"}"#),
            // No deltas at all: the start block's `input` stands.
            tool_call("toolu_03", "ls", "{}"),
        ]
    );
}

#[test]
fn thinking_with_signature_and_redacted_thinking() {
    let (events, error) = decode(THINKING);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        &events[..4],
        &[
            StreamEvent::ThinkingDelta("Let me think".into()),
            StreamEvent::ThinkingDelta(" step by step.".into()),
            // The whole signature, at the block's end, before the next block.
            StreamEvent::ThinkingSignature("EqQBCgIYAhIM1gbcDa9GJwZA2b3h".into()),
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
        .find("event: message_delta")
        .expect("fixture has message_delta");
    let (events, error) = decode(&TEXT[..cut]);
    assert_truncated("anthropic", &events, error.as_ref());
}

#[test]
fn stop_reason_without_message_stop_is_complete() {
    let cut = TEXT
        .find("event: message_stop")
        .expect("fixture has message_stop");
    let (events, error) = decode(&TEXT[..cut]);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        events,
        text_answer(&["Hello", ", wörld 😀"], usage(25, 15, 3, 7))
    );
}

#[test]
fn finishing_after_message_delta_until_message_stop() {
    let mut d = AnthropicDecoder::new();
    let delta = TEXT.find("event: message_delta").expect("fixture");
    let stop = TEXT.find("event: message_stop").expect("fixture");
    for e in crate::sse::SseParser::new().push(&TEXT.as_bytes()[..delta]) {
        d.on_event(&e).expect("valid fixture");
    }
    assert!(!d.is_finishing());
    for e in crate::sse::SseParser::new().push(&TEXT.as_bytes()[delta..stop]) {
        d.on_event(&e).expect("valid fixture");
    }
    assert!(d.is_finishing() && !d.is_complete());
    let out = d.finish().expect("has a stop reason");
    let (message, stop, _) = completed(&out);
    assert_eq!(message.text(), "Hello, wörld 😀");
    assert_eq!(stop, StopReason::EndTurn);
    assert!(d.is_complete() && !d.is_finishing());
}

#[test]
fn cut_mid_line_is_truncated_not_malformed() {
    let cut = TEXT.find("{\"type\":\"message_delta").expect("fixture") + 10;
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
    // Unknown blocks are kept verbatim (to go back as received).
    let text: Vec<_> = message
        .content
        .iter()
        .filter(|b| !matches!(b, ContentBlock::Opaque { provider, .. } if provider == "anthropic"))
        .collect();
    assert_eq!(text, vec![&ContentBlock::Text { text: "ok".into() }]);
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
        vec![tool_call("t1", "ls", r#"{"path":"."}"#)]
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
