//! The key split at every position across two and three deltas, through
//! each provider's decoder exactly as the HTTP driver runs it.

use serde_json::json;
use wright_protocol::ContentBlock;

use super::*;
use crate::http::test_util::run;
use crate::test_fixtures::sse;
use crate::{AnthropicDecoder, OpenAiChatDecoder, OpenAiResponsesDecoder};

/// An obviously fake key.
const KEY: &str = "sk-fake-TESTKEY0123456789";
/// What the model says around the key.
const BEFORE: &str = "key é: ";
const AFTER: &str = " ok";

#[derive(Clone, Copy, Debug)]
enum Kind {
    Text,
    Thinking,
    Args,
}

fn anthropic(kind: Kind, pieces: &[&str]) -> String {
    let (block, delta) = match kind {
        Kind::Text => (json!({"type":"text","text":""}), "text_delta"),
        Kind::Thinking => (json!({"type":"thinking","thinking":""}), "thinking_delta"),
        Kind::Args => (
            json!({"type":"tool_use","id":"toolu_1","name":"read","input":{}}),
            "input_json_delta",
        ),
    };
    let field = match kind {
        Kind::Text => "text",
        Kind::Thinking => "thinking",
        Kind::Args => "partial_json",
    };
    let mut events = vec![
        json!({"type":"message_start","message":{"id":"m","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}),
        json!({"type":"content_block_start","index":0,"content_block":block}),
    ];
    for p in pieces {
        events.push(json!({"type":"content_block_delta","index":0,"delta":{"type":delta,field:p}}));
    }
    events.push(json!({"type":"content_block_stop","index":0}));
    events.push(json!({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}));
    events.push(json!({"type":"message_stop"}));
    to_sse(&events)
}

fn chat(kind: Kind, pieces: &[&str]) -> String {
    let mut events = Vec::new();
    if let Kind::Args = kind {
        events.push(json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"read","arguments":""}}]}}]}));
    }
    for p in pieces {
        let delta = match kind {
            Kind::Text => json!({"content":p}),
            Kind::Thinking => json!({"reasoning_content":p}),
            Kind::Args => json!({"tool_calls":[{"index":0,"function":{"arguments":p}}]}),
        };
        events.push(json!({"choices":[{"index":0,"delta":delta}]}));
    }
    events.push(json!({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}));
    let mut out = to_sse(&events);
    out.push_str(&sse(&["[DONE]"]));
    out
}

fn responses(kind: Kind, pieces: &[&str]) -> String {
    let (item, delta) = match kind {
        Kind::Text => (
            json!({"id":"msg_1","type":"message","role":"assistant","content":[]}),
            "response.output_text.delta",
        ),
        Kind::Thinking => (
            json!({"id":"rs_1","type":"reasoning","summary":[]}),
            "response.reasoning_summary_text.delta",
        ),
        Kind::Args => (
            json!({"id":"fc_1","type":"function_call","call_id":"call_1","name":"read","arguments":""}),
            "response.function_call_arguments.delta",
        ),
    };
    let mut events =
        vec![json!({"type":"response.output_item.added","output_index":0,"item":item})];
    for p in pieces {
        events.push(json!({"type":delta,"output_index":0,"summary_index":0,"delta":p}));
    }
    events.push(json!({"type":"response.completed","response":{"output":[],"usage":{"input_tokens":1,"output_tokens":1}}}));
    to_sse(&events)
}

fn to_sse(events: &[serde_json::Value]) -> String {
    let data: Vec<String> = events.iter().map(ToString::to_string).collect();
    sse(&data.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Runs `fixture` through `decoder` behind a redactor; returns the
/// streamed text of `kind` and everything written in the final message.
fn decode<D: Decoder>(decoder: D, kind: Kind, fixture: &str) -> (String, String) {
    let (events, error) = run(Redacting::new(decoder, Some(KEY)), fixture.as_bytes(), 7);
    assert!(error.is_none(), "{error:?}");
    let mut streamed = String::new();
    let mut message = String::new();
    for event in &events {
        match (event, kind) {
            (StreamEvent::TextDelta(d), Kind::Text)
            | (StreamEvent::ThinkingDelta(d), Kind::Thinking) => {
                assert!(!d.is_empty(), "empty delta");
                streamed.push_str(d);
            }
            (StreamEvent::Completed { message: m, .. }, _) => {
                for block in &m.content {
                    match block {
                        ContentBlock::Text { text } => message.push_str(text),
                        ContentBlock::Thinking { thinking, .. } => message.push_str(thinking),
                        ContentBlock::ToolCall { arguments, .. } => message.push_str(arguments),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    (streamed, message)
}

/// Every way of cutting `text` into two and three non-empty pieces.
fn splits(text: &str) -> Vec<Vec<&str>> {
    let cuts: Vec<usize> = (1..text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    let mut out = Vec::new();
    for &a in &cuts {
        out.push(vec![&text[..a], &text[a..]]);
        for &b in cuts.iter().filter(|&&b| b > a) {
            out.push(vec![&text[..a], &text[a..b], &text[b..]]);
        }
    }
    out
}

fn check(
    provider: &str,
    fixture: fn(Kind, &[&str]) -> String,
    decode_one: fn(Kind, &str) -> (String, String),
) {
    for kind in [Kind::Text, Kind::Thinking, Kind::Args] {
        let text = match kind {
            Kind::Args => format!(r#"{{"path": "{KEY}"}}"#),
            _ => format!("{BEFORE}{KEY}{AFTER}"),
        };
        let want = text.replace(KEY, REDACTED);
        for pieces in splits(&text) {
            let (streamed, message) = decode_one(kind, &fixture(kind, &pieces));
            let context = format!("{provider} {kind:?} {pieces:?}");
            if !matches!(kind, Kind::Args) {
                assert_eq!(streamed, want, "{context}");
            }
            assert_eq!(message, want, "{context}");
        }
    }
}

#[test]
fn anthropic_key_split_across_deltas_is_redacted() {
    check("anthropic", anthropic, |k, f| {
        decode(AnthropicDecoder::new(), k, f)
    });
}

#[test]
fn openai_chat_key_split_across_deltas_is_redacted() {
    check("openai-chat", chat, |k, f| {
        decode(OpenAiChatDecoder::new(), k, f)
    });
}

#[test]
fn openai_responses_key_split_across_deltas_is_redacted() {
    check("openai-responses", responses, |k, f| {
        decode(OpenAiResponsesDecoder::new(), k, f)
    });
}

#[test]
fn text_that_only_starts_like_the_key_is_released_unchanged() {
    let mut r = StreamRedactor::new(Some(KEY));
    let out = r.process(vec![StreamEvent::TextDelta("see sk-fa".into())]);
    assert_eq!(out, vec![StreamEvent::TextDelta("see ".into())]);
    let out = r.process(vec![
        StreamEvent::TextDelta("ke".into()),
        StreamEvent::ThinkingDelta("hmm".into()),
    ]);
    assert_eq!(
        out,
        vec![
            StreamEvent::TextDelta("sk-fake".into()),
            StreamEvent::ThinkingDelta("hmm".into()),
        ]
    );
}

#[test]
fn without_a_key_events_pass_unchanged() {
    for key in [None, Some(""), Some(" ab ")] {
        let mut r = StreamRedactor::new(key);
        let events = vec![StreamEvent::TextDelta("ab sk-".into())];
        assert_eq!(r.process(events.clone()), events);
    }
}

#[test]
fn tool_names_are_redacted() {
    let mut r = StreamRedactor::new(Some(KEY));
    let out = r.process(vec![StreamEvent::ToolCallStarted {
        id: "c1".into(),
        name: format!("x{KEY}"),
    }]);
    assert_eq!(
        out,
        vec![StreamEvent::ToolCallStarted {
            id: "c1".into(),
            name: format!("x{REDACTED}"),
        }]
    );
}
