//! Fixture tests of the Chat Completions stream decoder, each fixture fed
//! at many chunk sizes so tool arguments and UTF-8 split at odd places.

use super::*;
use crate::http::test_util::run;
use crate::test_fixtures::{
    assert_truncated, completed, decode_split, started, text_answer, tool_call, usage,
};

const TEXT: &str = include_str!("../../tests/fixtures/openai_chat/text.sse");
const TOOL_CALLS: &str = include_str!("../../tests/fixtures/openai_chat/tool_calls.sse");
const REASONING: &str = include_str!("../../tests/fixtures/openai_chat/reasoning.sse");
const ERROR_MID_STREAM: &str =
    include_str!("../../tests/fixtures/openai_chat/error_mid_stream.sse");
const UNKNOWN_EVENTS: &str = include_str!("../../tests/fixtures/openai_chat/unknown_events.sse");

fn decode(fixture: &str) -> (Vec<StreamEvent>, Option<LlmError>) {
    decode_split(OpenAiChatDecoder::new, fixture)
}

/// One chunk per delta object, choice 0.
fn chunks(deltas: &[(&str, Option<&str>)], done: bool) -> String {
    let mut out: String = deltas
        .iter()
        .map(|(delta, finish)| {
            let finish = finish.map_or("null".to_owned(), |f| format!("\"{f}\""));
            format!(
                "data: {{\"choices\":[{{\"index\":0,\"delta\":{delta},\"finish_reason\":{finish}}}]}}\n\n"
            )
        })
        .collect();
    if done {
        out.push_str("data: [DONE]\n\n");
    }
    out
}

#[test]
fn plain_text_with_cached_usage() {
    let (events, error) = decode(TEXT);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        events,
        text_answer(&["Hel", "lo ☃ wörld"], usage(40, 12, 0, 60))
    );
}

#[test]
fn parallel_tool_calls_assembled_by_index() {
    let (events, error) = decode(TOOL_CALLS);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        &events[..2],
        &[started("call_a", "read"), started("call_b", "grep"),]
    );
    let (message, stop, usage) = completed(&events);
    assert_eq!(stop, StopReason::ToolUse);
    assert_eq!(usage.input_tokens, 300);
    assert_eq!(usage.output_tokens, 40);
    assert_eq!(
        message.content,
        vec![
            tool_call("call_a", "read", r#"{"path": "src/main.rs"}"#),
            tool_call("call_b", "grep", r#"{"pattern": "fn mäin"}"#),
        ]
    );
}

#[test]
fn reasoning_content_becomes_thinking() {
    let (events, error) = decode(REASONING);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        &events[..3],
        &[
            StreamEvent::ThinkingDelta("Thinking".into()),
            StreamEvent::ThinkingDelta(" hard.".into()),
            StreamEvent::TextDelta("Answer".into()),
        ]
    );
    let (message, stop, usage) = completed(&events);
    assert_eq!(stop, StopReason::MaxTokens);
    assert_eq!(usage.input_tokens, 5);
    assert_eq!(
        message.content,
        vec![
            ContentBlock::Thinking {
                thinking: "Thinking hard.".into(),
                signature: None
            },
            ContentBlock::Text {
                text: "Answer".into()
            },
        ]
    );
}

#[test]
fn reasoning_field_variant() {
    let stream = chunks(
        &[
            (r#"{"reasoning":"hmm"}"#, None),
            (r#"{"content":"x"}"#, Some("stop")),
        ],
        true,
    );
    let (events, error) = decode(&stream);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(events[0], StreamEvent::ThinkingDelta("hmm".into()));
}

#[test]
fn error_chunk_mid_stream() {
    let (events, error) = decode(ERROR_MID_STREAM);
    assert_eq!(events, vec![StreamEvent::TextDelta("Partial".into())]);
    assert!(
        matches!(&error, Some(LlmError::Api { provider: "openai-chat", message }) if message.starts_with("The server had an error")),
        "{error:?}"
    );
}

#[test]
fn no_finish_reason_and_no_done_is_truncated() {
    let stream = chunks(&[(r#"{"content":"Hel"}"#, None)], false);
    let (events, error) = decode(&stream);
    assert_eq!(events, vec![StreamEvent::TextDelta("Hel".into())]);
    assert_truncated("openai-chat", &events, error.as_ref());
}

#[test]
fn finish_reason_without_done_or_usage_is_complete() {
    let stream = chunks(
        &[(r#"{"content":"Hi"}"#, None), ("{}", Some("stop"))],
        false,
    );
    let (events, error) = decode(&stream);
    assert!(error.is_none(), "{error:?}");
    let (message, stop, usage) = completed(&events);
    assert_eq!(message.text(), "Hi");
    assert_eq!(stop, StopReason::EndTurn);
    assert_eq!(usage, Usage::default());
}

#[test]
fn done_without_finish_reason_is_complete() {
    let stream = chunks(&[(r#"{"content":"Hi"}"#, None)], true);
    let (events, error) = decode(&stream);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(completed(&events).1, StopReason::EndTurn);
}

#[test]
fn unknown_fields_events_and_other_choices_are_ignored() {
    let (events, error) = decode(UNKNOWN_EVENTS);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0], StreamEvent::TextDelta("ok".into()));
    assert_eq!(completed(&events).0.text(), "ok");
}

#[test]
fn missing_ids_are_generated_and_stop_with_calls_is_tool_use() {
    let stream = chunks(
        &[
            (
                r#"{"tool_calls":[{"index":0,"function":{"name":"ls","arguments":"{}"}}]}"#,
                None,
            ),
            (
                r#"{"tool_calls":[{"index":1,"function":{"name":"read","arguments":"{\"path\":\"a\"}"}}]}"#,
                Some("stop"),
            ),
        ],
        true,
    );
    let (events, error) = decode(&stream);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        &events[..2],
        &[started("call_0", "ls"), started("call_1", "read"),]
    );
    let (message, stop, _) = completed(&events);
    assert_eq!(stop, StopReason::ToolUse);
    let calls: Vec<_> = message.tool_calls().collect();
    assert_eq!(
        calls,
        vec![
            ("call_0", "ls", "{}"),
            ("call_1", "read", r#"{"path":"a"}"#)
        ]
    );
}

#[test]
fn whole_calls_without_index_are_separate_calls() {
    let stream = chunks(
        &[
            (
                r#"{"tool_calls":[{"id":"x1","function":{"name":"ls","arguments":"{}"}}]}"#,
                None,
            ),
            (
                r#"{"tool_calls":[{"id":"x2","function":{"name":"read","arguments":"{}"}}]}"#,
                Some("tool_calls"),
            ),
        ],
        true,
    );
    let (events, error) = decode(&stream);
    assert!(error.is_none(), "{error:?}");
    let ids: Vec<_> = completed(&events)
        .0
        .tool_calls()
        .map(|(id, _, _)| id.to_owned())
        .collect();
    assert_eq!(ids, vec!["x1", "x2"]);
}

#[test]
fn indexless_call_with_another_name_is_a_new_call() {
    // QA: the second call used to be merged into the first, giving
    // `read` the arguments `{"path":"f.txt"}{}`.
    let stream = chunks(
        &[
            (
                r#"{"tool_calls":[{"index":0,"id":"call_A","function":{"name":"read","arguments":""}}]}"#,
                None,
            ),
            (
                r#"{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":\"f.txt\"}"}}]}"#,
                None,
            ),
            (
                r#"{"tool_calls":[{"type":"function","function":{"name":"ls","arguments":"{}"}}]}"#,
                None,
            ),
            ("{}", Some("stop")),
        ],
        false,
    );
    let (events, error) = decode(&stream);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(events[0], started("call_A", "read"));
    assert_eq!(events[1], started("call_1", "ls"));
    let (message, stop, _) = completed(&events);
    assert_eq!(stop, StopReason::ToolUse);
    assert_eq!(
        message.content,
        vec![
            tool_call("call_A", "read", r#"{"path":"f.txt"}"#),
            tool_call("call_1", "ls", "{}"),
        ]
    );
}

#[test]
fn indexless_call_with_the_same_name_after_arguments_is_a_new_call() {
    let stream = chunks(
        &[
            (
                r#"{"tool_calls":[{"function":{"name":"read","arguments":"{\"path\":\"a\"}"}}]}"#,
                None,
            ),
            (
                r#"{"tool_calls":[{"function":{"name":"read","arguments":"{\"path\":\"b\"}"}}]}"#,
                Some("tool_calls"),
            ),
        ],
        true,
    );
    let (events, error) = decode(&stream);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        completed(&events).0.content,
        vec![
            tool_call("call_0", "read", r#"{"path":"a"}"#),
            tool_call("call_1", "read", r#"{"path":"b"}"#),
        ]
    );
}

#[test]
fn indexless_fragments_without_a_new_name_continue_the_call() {
    let stream = chunks(
        &[
            (
                r#"{"tool_calls":[{"function":{"name":"read","arguments":""}}]}"#,
                None,
            ),
            // The name repeated before any arguments, then bare arguments.
            (
                r#"{"tool_calls":[{"function":{"name":"read","arguments":"{\"pa"}}]}"#,
                None,
            ),
            (
                r#"{"tool_calls":[{"function":{"arguments":"th\":\"a\"}"}}]}"#,
                Some("tool_calls"),
            ),
        ],
        true,
    );
    let (events, error) = decode(&stream);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        completed(&events).0.content,
        vec![tool_call("call_0", "read", r#"{"path":"a"}"#)]
    );
}

#[test]
fn finishing_between_finish_reason_and_usage() {
    let mut d = OpenAiChatDecoder::new();
    let body = chunks(&[(r#"{"content":"Hi"}"#, None)], false);
    for e in crate::sse::SseParser::new().push(body.as_bytes()) {
        d.on_event(&e).unwrap();
    }
    assert!(!d.is_finishing());
    let body = chunks(&[("{}", Some("stop"))], false);
    for e in crate::sse::SseParser::new().push(body.as_bytes()) {
        d.on_event(&e).unwrap();
    }
    assert!(d.is_finishing() && !d.is_complete());
    let out = d.finish().unwrap();
    let (message, _, usage) = completed(&out);
    assert_eq!(message.text(), "Hi");
    assert_eq!(usage, Usage::default());
    assert!(!d.is_finishing());
}

#[test]
fn finish_reasons_map() {
    for (wire, ours) in [
        ("length", StopReason::MaxTokens),
        ("content_filter", StopReason::Refusal),
        ("tool_calls", StopReason::ToolUse),
        ("weird", StopReason::Other),
    ] {
        let stream = chunks(&[(r#"{"content":"a"}"#, Some(wire))], true);
        let (events, _) = decode(&stream);
        assert_eq!(completed(&events).1, ours, "{wire}");
    }
}

#[test]
fn malformed_json_is_a_protocol_error() {
    let (_, error) = decode("data: {\"choices\":[\n\n");
    assert!(
        matches!(error, Some(LlmError::Protocol { .. })),
        "{error:?}"
    );
}

#[test]
fn completes_without_done_after_finish_and_usage() {
    let mut body = chunks(
        &[(r#"{"content":"Hi"}"#, None), ("{}", Some("stop"))],
        false,
    );
    let mut d = OpenAiChatDecoder::new();
    let mut parser = crate::sse::SseParser::new();
    let events: Vec<_> = parser.push(body.as_bytes());
    for e in &events {
        d.on_event(e).unwrap();
    }
    // Stream usage is on: the usage chunk is still to come.
    assert!(!d.is_complete());
    body =
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":1}}\n\n".into();
    let out = d.on_event(&parser.push(body.as_bytes())[0]).unwrap();
    assert!(d.is_complete());
    let (message, stop, usage) = completed(&out);
    assert_eq!(message.text(), "Hi");
    assert_eq!(stop, StopReason::EndTurn);
    assert_eq!(usage.input_tokens, 5);
}

#[test]
fn completes_at_finish_reason_when_stream_usage_is_off() {
    let compat = ChatCompat {
        stream_usage: false,
        reasoning_field: false,
        ..ChatCompat::default()
    };
    let body = chunks(
        &[
            (r#"{"reasoning_content":"hmm"}"#, None),
            (r#"{"content":"Hi"}"#, Some("stop")),
        ],
        false,
    );
    let (events, error) = run(OpenAiChatDecoder::with_compat(compat), body.as_bytes(), 7);
    assert!(error.is_none(), "{error:?}");
    // Reasoning deltas are ignored for this server.
    assert_eq!(events[0], StreamEvent::TextDelta("Hi".into()));
    let (message, _, _) = completed(&events);
    assert_eq!(
        message.content,
        vec![ContentBlock::Text { text: "Hi".into() }]
    );
}
