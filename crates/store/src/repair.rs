//! Makes a loaded conversation valid for the next request: every tool call
//! is answered by a result in the next message, no result is orphaned, and
//! no message is empty. A session cut off by a crash mid-tool therefore
//! resumes instead of failing at the provider.

use std::collections::HashSet;

use wright_protocol::{ContentBlock, Message, Role};

/// Text of the result synthesized for a call whose result was never recorded.
pub const MISSING_RESULT: &str =
    "No result was recorded (the session ended before the tool finished).";

fn synthesized(call_id: &str) -> ContentBlock {
    ContentBlock::ToolResult {
        call_id: call_id.to_string(),
        content: MISSING_RESULT.to_string(),
        is_error: true,
    }
}

fn is_empty(message: &Message) -> bool {
    message
        .content
        .iter()
        .all(|b| matches!(b, ContentBlock::Text { text } if text.is_empty()))
}

/// Repairs `messages` (see the module doc). Valid input comes back unchanged.
pub(crate) fn repair(messages: Vec<Message>) -> Vec<Message> {
    let mut out: Vec<Message> = Vec::with_capacity(messages.len() + 1);
    let mut pending: Vec<String> = Vec::new();
    for message in messages {
        match message.role {
            Role::Assistant => {
                if !pending.is_empty() {
                    out.push(Message {
                        role: Role::User,
                        content: pending.drain(..).map(|id| synthesized(&id)).collect(),
                    });
                }
                if is_empty(&message) {
                    continue;
                }
                pending = message
                    .tool_calls()
                    .map(|(id, _, _)| id.to_string())
                    .collect();
                out.push(message);
            }
            Role::User => {
                let open: HashSet<&str> = pending.iter().map(String::as_str).collect();
                let mut answered: HashSet<String> = HashSet::new();
                let mut results = Vec::new();
                let mut others = Vec::new();
                for block in message.content {
                    match &block {
                        ContentBlock::ToolResult { call_id, .. } => {
                            if open.contains(call_id.as_str()) && answered.insert(call_id.clone()) {
                                results.push(block);
                            }
                        }
                        _ => others.push(block),
                    }
                }
                for id in &pending {
                    if !answered.contains(id) {
                        results.push(synthesized(id));
                    }
                }
                pending.clear();
                results.extend(others);
                let repaired = Message {
                    role: Role::User,
                    content: results,
                };
                if !is_empty(&repaired) {
                    out.push(repaired);
                }
            }
        }
    }
    if !pending.is_empty() {
        out.push(Message {
            role: Role::User,
            content: pending.iter().map(|id| synthesized(id)).collect(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(id: &str) -> ContentBlock {
        ContentBlock::ToolCall {
            id: id.into(),
            name: "bash".into(),
            arguments: "{}".into(),
        }
    }

    fn result(id: &str) -> ContentBlock {
        ContentBlock::ToolResult {
            call_id: id.into(),
            content: "ok".into(),
            is_error: false,
        }
    }

    fn assistant(content: Vec<ContentBlock>) -> Message {
        Message {
            role: Role::Assistant,
            content,
        }
    }

    fn user(content: Vec<ContentBlock>) -> Message {
        Message {
            role: Role::User,
            content,
        }
    }

    #[test]
    fn valid_conversations_are_unchanged() {
        let msgs = vec![
            Message::user_text("go"),
            assistant(vec![call("a"), call("b")]),
            user(vec![result("b"), result("a")]),
            assistant(vec![ContentBlock::Text {
                text: "done".into(),
            }]),
        ];
        assert_eq!(repair(msgs.clone()), msgs);
    }

    #[test]
    fn dangling_calls_get_error_results() {
        let msgs = vec![
            Message::user_text("go"),
            assistant(vec![call("a"), call("b")]),
            user(vec![result("a")]),
            assistant(vec![call("c")]),
        ];
        let fixed = repair(msgs);
        assert_eq!(fixed.len(), 5);
        assert_eq!(fixed[2].content[0], result("a"));
        assert_eq!(fixed[2].content[1], synthesized("b"));
        assert_eq!(fixed[4].content, vec![synthesized("c")]);
    }

    #[test]
    fn call_followed_by_assistant_gets_results_between() {
        let msgs = vec![
            assistant(vec![call("a")]),
            assistant(vec![ContentBlock::Text { text: "x".into() }]),
        ];
        let fixed = repair(msgs);
        assert_eq!(fixed.len(), 3);
        assert_eq!(fixed[1].role, Role::User);
    }

    #[test]
    fn orphans_and_empty_messages_are_dropped() {
        let msgs = vec![
            Message::user_text("go"),
            user(vec![result("zz")]),
            assistant(vec![]),
            assistant(vec![ContentBlock::Text { text: "hi".into() }]),
        ];
        let fixed = repair(msgs);
        assert_eq!(fixed.len(), 2);
    }
}
