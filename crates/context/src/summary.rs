//! The request that asks the model to summarize older turns: a structured
//! prompt and the turns rendered as a plain transcript (so the summarizer
//! sees no live tool calls it could try to answer).

use wright_protocol::{ContentBlock, Message, Role};

use crate::compaction::SUMMARY_MARKER;

/// Longest tool result (in characters) shown in the transcript.
const RESULT_CHARS: usize = 2_000;
/// Longest tool-call argument text shown in the transcript.
const ARGUMENT_CHARS: usize = 1_000;

/// The sections the summary must have, in order.
pub const SUMMARY_SECTIONS: [&str; 7] = [
    "Goal",
    "User's constraints and preferences",
    "Decisions",
    "Files read and changed",
    "Errors and fixes",
    "Current state",
    "Next steps",
];

const SYSTEM: &str = "You write the working summary of a coding agent's conversation. The agent \
will continue the task with your summary in place of the messages you are given, so anything you \
leave out is lost. Be factual and specific: exact file paths, function names, commands, error \
messages and values. Do not invent anything; do not call tools; do not continue the task yourself.";

const SECTION_HINTS: [&str; 7] = [
    "what the user asked for, in their words where it matters, including later changes of plan",
    "every instruction, constraint and preference the user stated (style, tools, things to avoid)",
    "choices made and why, including approaches tried and rejected",
    "paths of files read (with what mattered in them) and files created or changed (with what changed)",
    "errors met, their causes, and how they were fixed or what is still failing",
    "what is done and what is in progress at the end of these messages",
    "the concrete next actions to finish the task",
];

/// The system prompt and the single user message of the summary request
/// for `messages` (the turns before the cut), with an optional focus from
/// `/compact <focus>`.
pub fn summary_request(messages: &[Message], focus: Option<&str>) -> (String, Vec<Message>) {
    let mut prompt = String::from("Here is the conversation so far:\n\n<transcript>\n");
    prompt.push_str(&render_transcript(messages));
    prompt
        .push_str("</transcript>\n\nWrite the summary in Markdown with exactly these sections:\n");
    for (section, hint) in SUMMARY_SECTIONS.iter().zip(SECTION_HINTS) {
        prompt.push_str(&format!("\n## {section}\n{hint}\n"));
    }
    prompt.push_str(
        "\nIf the transcript starts with an earlier summary, fold it in: keep what still matters.",
    );
    if let Some(focus) = focus.map(str::trim).filter(|f| !f.is_empty()) {
        prompt.push_str(&format!("\nGive particular attention to: {focus}"));
    }
    (SYSTEM.to_owned(), vec![Message::user_text(prompt)])
}

/// The messages as labelled plain text, tool output truncated.
fn render_transcript(messages: &[Message]) -> String {
    let mut out = String::new();
    for message in messages {
        let who = match message.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        for block in &message.content {
            match block {
                ContentBlock::Text { text } if text.starts_with(SUMMARY_MARKER) => {
                    out.push_str(&format!("[earlier summary]\n{}\n\n", text.trim()));
                }
                ContentBlock::Text { text } => {
                    out.push_str(&format!("[{who}]\n{}\n\n", text.trim()));
                }
                ContentBlock::Image { media_type, .. } => {
                    out.push_str(&format!("[{who}: image {media_type}]\n\n"));
                }
                // Reasoning is the model's scratch work; the summary records
                // outcomes, and signatures mean nothing outside the provider.
                ContentBlock::Thinking { .. } | ContentBlock::RedactedThinking { .. } => {}
                // Server tools (web search and the like): what they found.
                ContentBlock::Opaque { block, .. } => {
                    let kind = block["type"].as_str().unwrap_or("provider block");
                    out.push_str(&format!(
                        "[{who}: {kind}]\n{}\n\n",
                        truncate(&block.to_string(), ARGUMENT_CHARS)
                    ));
                }
                ContentBlock::ToolCall {
                    id,
                    name,
                    arguments,
                } => {
                    out.push_str(&format!(
                        "[tool call {name} id={id}]\n{}\n\n",
                        truncate(arguments, ARGUMENT_CHARS)
                    ));
                }
                ContentBlock::ToolResult {
                    call_id,
                    content,
                    is_error,
                } => {
                    let label = if *is_error {
                        "tool error"
                    } else {
                        "tool result"
                    };
                    out.push_str(&format!(
                        "[{label} id={call_id}]\n{}\n\n",
                        truncate(content, RESULT_CHARS)
                    ));
                }
            }
        }
    }
    out
}

fn truncate(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.trim_end().to_owned();
    }
    let head: String = text.chars().take(max).collect();
    format!("{head}\n[… {} more characters]", count - max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_has_sections_transcript_and_focus() {
        let messages = vec![
            Message::user_text(format!("{SUMMARY_MARKER}\nold summary")),
            Message::user_text("fix the build"),
            Message {
                role: Role::Assistant,
                content: vec![
                    ContentBlock::Thinking {
                        thinking: "secret plan".to_owned(),
                        signature: Some("sig".to_owned()),
                    },
                    ContentBlock::ToolCall {
                        id: "c1".to_owned(),
                        name: "read".to_owned(),
                        arguments: "{\"path\":\"src/lib.rs\"}".to_owned(),
                    },
                ],
            },
            Message {
                role: Role::User,
                content: vec![ContentBlock::ToolResult {
                    call_id: "c1".to_owned(),
                    content: "x".repeat(5_000),
                    is_error: true,
                }],
            },
        ];
        let (system, request) = summary_request(&messages, Some("the linker error"));
        assert!(system.contains("summary"));
        assert_eq!(request.len(), 1);
        let text = request[0].text();
        for section in SUMMARY_SECTIONS {
            assert!(text.contains(&format!("## {section}\n")), "{section}");
        }
        assert!(text.contains("[earlier summary]\n[wright: summary"));
        assert!(text.contains("[user]\nfix the build"));
        assert!(text.contains("[tool call read id=c1]\n{\"path\":\"src/lib.rs\"}"));
        assert!(text.contains("[tool error id=c1]"));
        assert!(text.contains("[… 3000 more characters]"));
        assert!(!text.contains("secret plan"));
        assert!(text.ends_with("Give particular attention to: the linker error"));
    }
}
