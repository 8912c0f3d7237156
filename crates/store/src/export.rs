//! Transcripts for people: `wright sessions export ID --format markdown|json`.
//!
//! Markdown shows every entry on the current branch (the full turns, not
//! the compacted view), with tool calls and results truncated at
//! [`EXPORT_TRUNCATE`] bytes. JSON keeps messages whole.

use std::fmt::Write as _;

use serde_json::json;
use wright_protocol::{ContentBlock, Message, Role};

use crate::entry::{Entry, EntryBody, Snapshot};
use crate::error::{Result, StoreError};
use crate::load::{LoadedSession, is_user_prompt};
use crate::store::SessionStore;

/// Tool calls, results and thinking longer than this (bytes) are cut in Markdown.
pub const EXPORT_TRUNCATE: usize = 4 * 1024;

/// Export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// A readable transcript.
    Markdown,
    /// `{"session": header, "messages": [{"entry","ts","message"}], "usage", "cost_usd"}`
    /// (a subagent's header carries its `agent`, system prompt included).
    Json,
}

fn truncate(text: &str) -> String {
    if text.len() <= EXPORT_TRUNCATE {
        return text.to_string();
    }
    let mut end = EXPORT_TRUNCATE;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}\n… [truncated: {} bytes in all]",
        &text[..end],
        text.len()
    )
}

/// A code fence longer than any backtick run inside `text`.
fn fenced(text: &str, lang: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}{lang}\n{text}\n{fence}\n\n")
}

fn message_markdown(out: &mut String, message: &Message) {
    let heading = match message.role {
        Role::User if is_user_prompt(message) => Some("## User\n\n"),
        Role::User => None,
        Role::Assistant => Some("## Assistant\n\n"),
    };
    if let Some(h) = heading {
        out.push_str(h);
    }
    for block in &message.content {
        match block {
            ContentBlock::Text { text } => {
                out.push_str(text);
                out.push_str("\n\n");
            }
            ContentBlock::Image { media_type, data } => {
                let _ = write!(
                    out,
                    "_[image: {media_type}, {} bytes base64]_\n\n",
                    data.len()
                );
            }
            ContentBlock::Thinking { thinking, .. } => {
                let _ = write!(
                    out,
                    "<details><summary>Thinking</summary>\n\n{}\n\n</details>\n\n",
                    truncate(thinking)
                );
            }
            ContentBlock::RedactedThinking { .. } => out.push_str("_[redacted thinking]_\n\n"),
            ContentBlock::Opaque { block, .. } => {
                let kind = block["type"].as_str().unwrap_or("provider block");
                let _ = write!(out, "_[{kind}]_\n\n");
            }
            ContentBlock::ToolCall {
                id,
                name,
                arguments,
            } => {
                let _ = write!(out, "### Tool call: `{name}` ({id})\n\n");
                out.push_str(&fenced(&truncate(arguments), "json"));
            }
            ContentBlock::ToolResult {
                call_id,
                content,
                is_error,
            } => {
                let status = if *is_error { " — error" } else { "" };
                let _ = write!(out, "### Tool result ({call_id}){status}\n\n");
                out.push_str(&fenced(&truncate(content), ""));
            }
        }
    }
}

fn entry_markdown(out: &mut String, entry: &Entry) {
    match &entry.body {
        EntryBody::Message { message } => message_markdown(out, message),
        EntryBody::Usage {
            usage,
            model,
            cost_usd,
        } => {
            let _ = write!(
                out,
                "_usage ({model}): {} in ({} cache read, {} cache write), {} out",
                usage.input_tokens,
                usage.cache_read_input_tokens,
                usage.cache_creation_input_tokens,
                usage.output_tokens
            );
            if let Some(c) = cost_usd {
                let _ = write!(out, ", ${c:.4}");
            }
            out.push_str("_\n\n");
        }
        EntryBody::ModelChange { model, provider } => {
            let _ = write!(out, "_model changed to {provider}/{model}_\n\n");
        }
        EntryBody::Compaction { summary, .. } => {
            let _ = write!(out, "## Compaction summary\n\n{summary}\n\n");
        }
        EntryBody::Label { label, .. } => {
            let _ = write!(out, "_label: {label}_\n\n");
        }
        EntryBody::Checkpoint { path, before, .. } => {
            let what = match before {
                Snapshot::Absent(_) => "new file",
                Snapshot::Blob { .. } => "saved",
            };
            let _ = write!(out, "_checkpoint: {} ({what})_\n\n", path.display());
        }
        EntryBody::Rewind { restored } => {
            let _ = write!(out, "_rewound to here");
            if !restored.is_empty() {
                let files: Vec<String> = restored.iter().map(|p| p.display().to_string()).collect();
                let _ = write!(out, "; restored {}", files.join(", "));
            }
            out.push_str("_\n\n");
        }
        EntryBody::Hook {
            event,
            command,
            outcome,
            duration_ms,
            message,
        } => {
            let _ = write!(
                out,
                "_hook {event} `{command}`: {outcome} ({duration_ms} ms)"
            );
            if let Some(message) = message {
                let _ = write!(out, ": {message}");
            }
            out.push_str("_\n\n");
        }
        // A program's id for the prompt above: nothing a reader needs.
        EntryBody::MessageUuid { .. }
        | EntryBody::PromptTyped { .. }
        | EntryBody::Unknown { .. } => {}
    }
}

/// Renders a loaded session.
pub fn export_loaded(session: &LoadedSession, format: ExportFormat) -> Result<String> {
    let path = session.current_path();
    let (usage, cost) = session.usage_total();
    match format {
        ExportFormat::Json => {
            let messages: Vec<serde_json::Value> = path
                .iter()
                .filter_map(|e| match &e.body {
                    EntryBody::Message { message } => {
                        Some(json!({"entry": e.id, "ts": e.ts, "message": message}))
                    }
                    _ => None,
                })
                .collect();
            let doc = json!({
                "session": session.header,
                "messages": messages,
                "usage": usage,
                "cost_usd": cost,
            });
            serde_json::to_string_pretty(&doc).map_err(|e| StoreError::Encode(e.to_string()))
        }
        ExportFormat::Markdown => {
            let h = &session.header;
            let mut out = match &h.agent {
                Some(agent) => format!("# Subagent {}\n\n", agent.path),
                None => format!("# Session {}\n\n", h.id),
            };
            if let Some(agent) = &h.agent {
                let _ = writeln!(out, "- type: {}", agent.agent_type);
                if let Some(p) = &h.parent {
                    let _ = writeln!(out, "- session: {}", p.session);
                }
                let _ = writeln!(out, "- started by: {}", agent.parent_call_id);
            }
            let _ = writeln!(out, "- cwd: {}", h.cwd.display());
            let _ = writeln!(out, "- created: {}", h.created);
            let _ = writeln!(out, "- model: {}/{}", h.provider, h.model);
            if let (Some(p), None) = (&h.parent, &h.agent) {
                let at = p.entry.as_deref().unwrap_or("start");
                let _ = writeln!(out, "- forked from: {} at {at}", p.session);
            }
            out.push('\n');
            if let Some(agent) = &h.agent {
                // Fenced whole: the prompt is Markdown itself, and its
                // headings must not read as the transcript's.
                out.push_str("## System prompt\n\n");
                out.push_str(&fenced(&agent.system_prompt, ""));
            }
            for entry in &path {
                entry_markdown(&mut out, entry);
            }
            let _ = writeln!(
                out,
                "---\n\nTotal: {} input ({} cache read, {} cache write), {} output tokens, ${cost:.4}",
                usage.input_tokens,
                usage.cache_read_input_tokens,
                usage.cache_creation_input_tokens,
                usage.output_tokens
            );
            Ok(out)
        }
    }
}

impl SessionStore {
    /// Renders session `id` (full id) as Markdown or JSON.
    pub fn export(&self, id: &str, format: ExportFormat) -> Result<String> {
        export_loaded(&self.load(id)?, format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_marks_the_cut() {
        let text = "ä".repeat(EXPORT_TRUNCATE);
        let cut = truncate(&text);
        assert!(cut.len() < text.len());
        assert!(cut.ends_with(&format!("{} bytes in all]", text.len())));
    }

    #[test]
    fn fences_outgrow_backticks_inside() {
        let f = fenced("a ```` b", "");
        assert!(f.starts_with("`````\n"));
    }
}
