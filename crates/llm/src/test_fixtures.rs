//! Fixtures shared by the tests of every adapter: a canonical conversation
//! for the request-body tests, and helpers that feed SSE fixtures to a
//! stream decoder.

use serde_json::json;
use wright_protocol::{ContentBlock, Message, Role, StopReason, ToolSpec, Usage};

use crate::client::{ModelRequest, StreamEvent};
use crate::error::LlmError;
use crate::http::Decoder;
use crate::http::test_util::{CHUNK_SIZES, run};

/// Decodes `fixture` with a fresh decoder from `new`, whole and at every
/// chunk size, checks they all agree, and returns the result.
pub(crate) fn decode_split<D: Decoder>(
    new: impl Fn() -> D,
    fixture: &str,
) -> (Vec<StreamEvent>, Option<LlmError>) {
    let whole = run(new(), fixture.as_bytes(), usize::MAX);
    for &size in CHUNK_SIZES {
        let split = run(new(), fixture.as_bytes(), size);
        assert_eq!(split.0, whole.0, "events differ at chunk size {size}");
        assert_eq!(
            split.1.as_ref().map(ToString::to_string),
            whole.1.as_ref().map(ToString::to_string),
            "errors differ at chunk size {size}"
        );
    }
    whole
}

/// The parts of the last event, which must be `Completed`.
pub(crate) fn completed(events: &[StreamEvent]) -> (&Message, StopReason, Usage) {
    match events.last() {
        Some(StreamEvent::Completed {
            message,
            stop_reason,
            usage,
        }) => (message, *stop_reason, *usage),
        other => panic!("last event is not Completed: {other:?}"),
    }
}

/// The events of a plain text answer: a `TextDelta` per entry of `deltas`,
/// then `Completed` with their concatenation, `EndTurn` and `usage`.
pub(crate) fn text_answer(deltas: &[&str], usage: Usage) -> Vec<StreamEvent> {
    let mut events: Vec<StreamEvent> = deltas
        .iter()
        .map(|d| StreamEvent::TextDelta((*d).into()))
        .collect();
    events.push(StreamEvent::Completed {
        message: Message {
            role: Role::Assistant,
            content: vec![ContentBlock::Text {
                text: deltas.concat(),
            }],
        },
        stop_reason: StopReason::EndTurn,
        usage,
    });
    events
}

/// A [`Usage`] from its four counts, in field order.
pub(crate) fn usage(input: u64, output: u64, cache_creation: u64, cache_read: u64) -> Usage {
    Usage {
        input_tokens: input,
        output_tokens: output,
        cache_creation_input_tokens: cache_creation,
        cache_read_input_tokens: cache_read,
    }
}

/// A `ToolCallStarted` event.
pub(crate) fn started(id: &str, name: &str) -> StreamEvent {
    StreamEvent::ToolCallStarted {
        id: id.into(),
        name: name.into(),
    }
}

/// A `ToolCall` content block.
pub(crate) fn tool_call(id: &str, name: &str, arguments: &str) -> ContentBlock {
    ContentBlock::ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: arguments.into(),
    }
}

/// Asserts that the stream ended as truncated by `provider` without a
/// `Completed` event.
pub(crate) fn assert_truncated(provider: &str, events: &[StreamEvent], error: Option<&LlmError>) {
    assert!(
        matches!(error, Some(LlmError::Truncated { provider: p }) if *p == provider),
        "{error:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, StreamEvent::Completed { .. }))
    );
}

/// One unnamed SSE event per entry of `data`.
pub(crate) fn sse(data: &[&str]) -> String {
    data.iter().map(|d| format!("data: {d}\n\n")).collect()
}

/// Text, an image, thinking (signed and redacted), two tool calls (one with
/// malformed arguments), their results (one an error), and a follow-up.
pub(crate) fn conversation() -> ModelRequest {
    ModelRequest {
        model: "test-model".into(),
        system: "You are wright.".into(),
        messages: std::sync::Arc::new(vec![
            Message {
                role: Role::User,
                content: vec![
                    ContentBlock::Text {
                        text: "Look at this.".into(),
                    },
                    ContentBlock::Image {
                        media_type: "image/png".into(),
                        data: "iVBORw0K".into(),
                    },
                ],
            },
            Message {
                role: Role::Assistant,
                content: vec![
                    ContentBlock::Thinking {
                        thinking: "Need the file.".into(),
                        signature: Some("sig-1".into()),
                    },
                    ContentBlock::RedactedThinking {
                        data: "opaque".into(),
                    },
                    ContentBlock::Text {
                        text: "Reading.".into(),
                    },
                    ContentBlock::ToolCall {
                        id: "call_1".into(),
                        name: "read".into(),
                        arguments: r#"{"path":"a.rs"}"#.into(),
                    },
                    ContentBlock::ToolCall {
                        id: "call_2".into(),
                        name: "grep".into(),
                        arguments: "{not json".into(),
                    },
                ],
            },
            Message {
                role: Role::User,
                content: vec![
                    ContentBlock::ToolResult {
                        call_id: "call_1".into(),
                        content: "fn main() {}".into(),
                        is_error: false,
                    },
                    ContentBlock::ToolResult {
                        call_id: "call_2".into(),
                        content: "Invalid arguments: expected JSON".into(),
                        is_error: true,
                    },
                ],
            },
            Message {
                role: Role::Assistant,
                content: vec![ContentBlock::ToolCall {
                    id: "call_3".into(),
                    name: "ls".into(),
                    arguments: "{}".into(),
                }],
            },
            Message {
                role: Role::User,
                content: vec![
                    ContentBlock::ToolResult {
                        call_id: "call_3".into(),
                        content: "a.rs".into(),
                        is_error: false,
                    },
                    ContentBlock::Text {
                        text: "Thanks.".into(),
                    },
                ],
            },
        ]),
        tools: vec![ToolSpec {
            name: "read".into(),
            description: "Read a file".into(),
            input_schema:
                json!({"type":"object","properties":{"path":{"type":"string"}},"required":["path"]})
                    .into(),
        }],
        max_tokens: 1024,
        ..ModelRequest::default()
    }
}

/// Checks that a wire writer's bytes through one [`WireCache`] kept over a
/// conversation's requests (growing, with breakpoints moving, an earlier
/// message edited, rewound, compacted) equal what a fresh cache writes.
pub(crate) fn assert_cache_is_transparent(
    write: impl Fn(&ModelRequest, &crate::wire_cache::WireCache) -> Vec<u8>,
) {
    let kept = crate::wire_cache::WireCache::default();
    let base = conversation();
    let mut steps: Vec<Vec<Message>> = Vec::new();
    let mut history = base.messages.to_vec();
    steps.push(history.clone());
    history.push(Message {
        role: Role::Assistant,
        content: vec![ContentBlock::Text {
            text: "Done \"quoted\" \u{2603}".into(),
        }],
    });
    history.push(Message::user_text("Next."));
    steps.push(history.clone());
    if let Some(ContentBlock::ToolResult { content, .. }) = history[2].content.first_mut() {
        content.push_str(" // edited");
    }
    steps.push(history.clone());
    history.truncate(3);
    steps.push(history.clone());
    steps.push(vec![Message::user_text("Summary of earlier work.")]);
    steps.push(Vec::new());
    steps.push(base.messages.to_vec());
    for cache in [false, true] {
        for (n, messages) in steps.iter().enumerate() {
            let request = ModelRequest {
                messages: std::sync::Arc::new(messages.clone()),
                prompt_cache: cache,
                ..conversation()
            };
            let fresh = write(&request, &crate::wire_cache::WireCache::default());
            assert_eq!(
                String::from_utf8_lossy(&write(&request, &kept)),
                String::from_utf8_lossy(&fresh),
                "step {n}, prompt cache {cache}"
            );
        }
    }
}
