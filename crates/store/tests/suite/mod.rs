//! Test modules and shared fixtures.

mod basics;
mod crash;
mod damage;
mod fork_rewind;
mod huge;
mod listing;
#[cfg(unix)]
mod rewind_security;
mod roundtrip;
mod subagents;

use std::path::Path;

use wright_protocol::{ContentBlock, Message, Role, Usage};
use wright_store::{EntryBody, SessionMeta, SessionStore, SessionWriter};

pub fn meta(cwd: &Path) -> SessionMeta {
    SessionMeta {
        cwd: cwd.to_path_buf(),
        model: "claude-test".into(),
        provider: "anthropic".into(),
    }
}

pub fn assistant(content: Vec<ContentBlock>) -> Message {
    Message {
        role: Role::Assistant,
        content,
    }
}

pub fn text(t: &str) -> ContentBlock {
    ContentBlock::Text { text: t.into() }
}

pub fn call(id: &str, args: &str) -> ContentBlock {
    ContentBlock::ToolCall {
        id: id.into(),
        name: "Bash".into(),
        arguments: args.into(),
    }
}

pub fn result(id: &str, content: &str) -> Message {
    Message {
        role: Role::User,
        content: vec![ContentBlock::ToolResult {
            call_id: id.into(),
            content: content.into(),
            is_error: false,
        }],
    }
}

/// Appends one full turn (prompt, tool call, result, answer, usage) and returns its messages.
pub fn turn(w: &mut SessionWriter, n: usize) -> Vec<Message> {
    let msgs = vec![
        Message::user_text(format!("prompt {n}")),
        assistant(vec![
            ContentBlock::Thinking {
                thinking: format!("think {n}"),
                signature: Some(format!("sig-{n}")),
            },
            call(&format!("call-{n}"), r#"{"command":"ls"}"#),
        ]),
        result(&format!("call-{n}"), &format!("output {n}")),
        assistant(vec![text(&format!("answer {n}"))]),
    ];
    for m in &msgs {
        w.append_message(m).unwrap();
    }
    w.append(&EntryBody::Usage {
        usage: Usage {
            input_tokens: 10,
            output_tokens: 5,
            ..Usage::default()
        },
        model: "claude-test".into(),
        cost_usd: Some(0.01),
    })
    .unwrap();
    msgs
}

/// Every tool call is answered in the next message, and no message is empty.
pub fn assert_valid(history: &[Message]) {
    for (i, m) in history.iter().enumerate() {
        assert!(!m.content.is_empty(), "message {i} is empty");
        let calls: Vec<&str> = m.tool_calls().map(|(id, _, _)| id).collect();
        if calls.is_empty() {
            continue;
        }
        let next = history
            .get(i + 1)
            .expect("a message answers the tool calls");
        for id in calls {
            assert!(
                next.content.iter().any(
                    |b| matches!(b, ContentBlock::ToolResult { call_id, .. } if call_id == id)
                ),
                "call {id} has no result"
            );
        }
    }
}

pub fn store() -> (tempfile::TempDir, SessionStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::new(dir.path());
    (dir, store)
}
