//! A canonical conversation shared by the request-body tests of every adapter.

use serde_json::json;
use wright_protocol::{ContentBlock, Message, Role, ToolSpec};

use crate::client::ModelRequest;

/// Text, an image, thinking (signed and redacted), two tool calls (one with
/// malformed arguments), their results (one an error), and a follow-up.
pub(crate) fn conversation() -> ModelRequest {
    ModelRequest {
        model: "test-model".into(),
        system: "You are wright.".into(),
        messages: vec![
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
        ],
        tools: vec![ToolSpec {
            name: "read".into(),
            description: "Read a file".into(),
            input_schema: json!({"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}),
        }],
        max_tokens: 1024,
        ..ModelRequest::default()
    }
}
