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

/// Whether a message holds tool results and nothing else.
fn is_results_only(message: &Message) -> bool {
    message.role == Role::User
        && !message.content.is_empty()
        && message
            .content
            .iter()
            .all(|b| matches!(b, ContentBlock::ToolResult { .. }))
}

/// Puts a merged group of results into the order of the calls they answer
/// (the order the core sends them in), unknown ones last.
fn sort_by_calls(message: &mut Message, calls: &[String]) {
    message.content.sort_by_key(|b| match b {
        ContentBlock::ToolResult { call_id, .. } => calls
            .iter()
            .position(|c| c == call_id)
            .unwrap_or(usize::MAX),
        _ => usize::MAX,
    });
}

/// Joins results recorded one message per call (each is written as soon as
/// its call finishes, so a crash keeps the finished ones) back into the one
/// message that answers the calls, in call order.
fn merge_split_results(messages: Vec<Message>) -> Vec<Message> {
    let mut out: Vec<Message> = Vec::with_capacity(messages.len());
    let mut calls: Vec<String> = Vec::new();
    let mut merged = false;
    for message in messages {
        if is_results_only(&message) && out.last().is_some_and(is_results_only) {
            if let Some(last) = out.last_mut() {
                last.content.extend(message.content);
            }
            merged = true;
            continue;
        }
        if merged && let Some(last) = out.last_mut() {
            sort_by_calls(last, &calls);
        }
        merged = false;
        if message.role == Role::Assistant {
            calls = message
                .tool_calls()
                .map(|(id, _, _)| id.to_string())
                .collect();
        }
        out.push(message);
    }
    if merged && let Some(last) = out.last_mut() {
        sort_by_calls(last, &calls);
    }
    out
}

/// Repairs `messages` (see the module doc). Valid input comes back unchanged.
pub(crate) fn repair(messages: Vec<Message>) -> Vec<Message> {
    let messages = merge_split_results(messages);
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
    fn results_recorded_one_by_one_are_merged_in_call_order() {
        let msgs = vec![
            Message::user_text("go"),
            assistant(vec![call("a"), call("b"), call("c")]),
            user(vec![result("b")]),
            user(vec![result("a")]),
            user(vec![result("c")]),
            assistant(vec![ContentBlock::Text {
                text: "done".into(),
            }]),
        ];
        let fixed = repair(msgs);
        assert_eq!(fixed.len(), 4);
        assert_eq!(
            fixed[2].content,
            vec![result("a"), result("b"), result("c")]
        );
    }

    #[test]
    fn a_kill_between_calls_keeps_the_finished_results() {
        let msgs = vec![
            Message::user_text("go"),
            assistant(vec![call("a"), call("b"), call("c")]),
            user(vec![result("a")]),
            user(vec![result("b")]),
        ];
        let fixed = repair(msgs);
        assert_eq!(fixed.len(), 3);
        assert_eq!(
            fixed[2].content,
            vec![result("a"), result("b"), synthesized("c")]
        );
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
