//! A recorded conversation as the updates `session/load` streams before it
//! answers: user and agent text, thoughts, and each tool call with its
//! result, as if it had just happened.

use std::collections::HashMap;
use std::path::Path;

use agent_client_protocol::v1::schema::{
    Plan, SessionUpdate, ToolCall, ToolCallStatus, ToolCallUpdate, ToolCallUpdateFields,
};
use wright_protocol::{ContentBlock, Message, Role, SUMMARY_MARKER, Touches};

use crate::tool_map;
use crate::updates::chunk;

/// The updates that replay `history` in order; `touches_of` says what a
/// recorded call touched (the backend asks the call's tool).
pub fn replay(
    history: &[Message],
    cwd: &Path,
    touches_of: &dyn Fn(&str, &str) -> Option<Touches>,
) -> Vec<SessionUpdate> {
    let mut out = Vec::new();
    // Tool names by call id, for their results (which come in the next message).
    let mut names: HashMap<&str, &str> = HashMap::new();
    for message in history {
        for block in &message.content {
            match (message.role, block) {
                (Role::User, ContentBlock::Text { text }) => match user_text(text) {
                    UserText::Typed => out.push(SessionUpdate::UserMessageChunk(chunk(text))),
                    UserText::Summary => out.push(SessionUpdate::AgentThoughtChunk(chunk(text))),
                    UserText::HookContext => {}
                },
                (Role::Assistant, ContentBlock::Text { text }) => {
                    out.push(SessionUpdate::AgentMessageChunk(chunk(text)));
                }
                (_, ContentBlock::Thinking { thinking, .. }) if !thinking.is_empty() => {
                    out.push(SessionUpdate::AgentThoughtChunk(chunk(thinking)));
                }
                (
                    _,
                    ContentBlock::ToolCall {
                        id,
                        name,
                        arguments,
                    },
                ) => {
                    names.insert(id, name);
                    if name == "TodoWrite"
                        && let Some(entries) = tool_map::plan_entries(arguments)
                    {
                        out.push(SessionUpdate::Plan(Plan::new(entries)));
                        continue;
                    }
                    let touches = touches_of(name, arguments);
                    let p = tool_map::present(name, None, arguments, touches.as_ref(), cwd);
                    out.push(SessionUpdate::ToolCall(
                        ToolCall::new(id.clone(), p.title)
                            .kind(p.kind)
                            .status(ToolCallStatus::Pending)
                            .locations(p.locations)
                            .content(p.content)
                            .raw_input(serde_json::from_str::<serde_json::Value>(arguments).ok()),
                    ));
                }
                (
                    _,
                    ContentBlock::ToolResult {
                        call_id,
                        content,
                        is_error,
                    },
                ) => {
                    let name = names.get(call_id.as_str()).copied().unwrap_or("");
                    if name == "TodoWrite" {
                        continue;
                    }
                    let mut fields = ToolCallUpdateFields::new().status(if *is_error {
                        ToolCallStatus::Failed
                    } else {
                        ToolCallStatus::Completed
                    });
                    if *is_error || tool_map::shows_output(name) {
                        fields = fields.content(tool_map::output_content(name, content));
                    }
                    out.push(SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(
                        call_id.clone(),
                        fields,
                    )));
                }
                _ => {}
            }
        }
    }
    out
}

/// What a recorded user text block is.
enum UserText {
    /// What the user sent.
    Typed,
    /// The summary that replaced earlier turns: shown as a thought, not as
    /// something the user said.
    Summary,
    /// Context a hook added (`[UserPromptSubmit hook context]`): the model
    /// saw it, the editor never did while the session ran.
    HookContext,
}

fn user_text(text: &str) -> UserText {
    let first = text.lines().next().unwrap_or("");
    if first.starts_with(SUMMARY_MARKER) {
        UserText::Summary
    } else if first.starts_with('[') && first.ends_with(" hook context]") {
        UserText::HookContext
    } else {
        UserText::Typed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conversation_replays_in_order() {
        let history = vec![
            Message::user_text("fix it"),
            Message {
                role: Role::Assistant,
                content: vec![
                    ContentBlock::Text {
                        text: "on it".into(),
                    },
                    ContentBlock::ToolCall {
                        id: "c1".into(),
                        name: "Bash".into(),
                        arguments: r#"{"command":"ls"}"#.into(),
                    },
                ],
            },
            Message {
                role: Role::User,
                content: vec![ContentBlock::ToolResult {
                    call_id: "c1".into(),
                    content: "a.rs".into(),
                    is_error: false,
                }],
            },
        ];
        let updates = replay(&history, Path::new("/p"), &|_: &str, _: &str| None);
        assert_eq!(updates.len(), 4);
        assert!(matches!(updates[0], SessionUpdate::UserMessageChunk(_)));
        assert!(matches!(updates[1], SessionUpdate::AgentMessageChunk(_)));
        let SessionUpdate::ToolCall(call) = &updates[2] else {
            panic!("tool call expected");
        };
        assert_eq!(call.title, "`ls`");
        let SessionUpdate::ToolCallUpdate(done) = &updates[3] else {
            panic!("update expected");
        };
        assert_eq!(done.fields.status, Some(ToolCallStatus::Completed));
    }

    #[test]
    fn hook_context_is_left_out_and_a_summary_is_a_thought() {
        let mut prompt = Message::user_text("fix it");
        prompt.content.push(ContentBlock::Text {
            text: "[UserPromptSubmit hook context]\nbranch: main".into(),
        });
        let history = vec![
            Message::user_text(format!("{SUMMARY_MARKER}\nearlier we did things")),
            prompt,
        ];
        let updates = replay(&history, Path::new("/p"), &|_: &str, _: &str| None);
        assert_eq!(updates.len(), 2, "{updates:?}");
        assert!(matches!(updates[0], SessionUpdate::AgentThoughtChunk(_)));
        let SessionUpdate::UserMessageChunk(typed) = &updates[1] else {
            panic!("the user's text expected");
        };
        assert!(format!("{typed:?}").contains("fix it"));
    }
}
