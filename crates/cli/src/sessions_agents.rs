//! Subagents in `wright sessions show`: the tree of a session's children
//! after its transcript, and `--agent PATH` for one child's transcript.

use std::fmt::Write as _;

use serde_json::{Value, json};
use wright_store::{ExportFormat, SessionStore, StoreError, SubagentSummary};

use crate::render::escape_controls;
use wright_context::thousands;

/// What a session or its subagents spent.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spent {
    /// Input tokens, cached ones included.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// Cost in USD (0 when unpriced).
    pub cost_usd: f64,
}

impl Spent {
    /// `self` plus every subagent's share.
    fn with(self, subagents: &[SubagentSummary]) -> Spent {
        subagents.iter().fold(self, |total, s| Spent {
            input_tokens: total.input_tokens.saturating_add(s.input_tokens),
            output_tokens: total.output_tokens.saturating_add(s.output_tokens),
            cost_usd: total.cost_usd + s.cost_usd.unwrap_or(0.0),
        })
    }
}

/// Session `id`'s rendered transcript `out` followed by its subagents:
/// in Markdown a `## Subagents` tree and the total with them (nothing when
/// it has none), in JSON a `subagents` array and `total_with_subagents`
/// added to the document. `own` is what the session itself spent.
pub fn with_subagents(
    store: &SessionStore,
    id: &str,
    out: String,
    format: ExportFormat,
    own: Spent,
) -> Result<String, StoreError> {
    let subagents = store.subagents(id)?;
    let total = own.with(&subagents);
    match format {
        ExportFormat::Json => {
            let mut doc: Value =
                serde_json::from_str(&out).map_err(|e| StoreError::Encode(e.to_string()))?;
            if let Some(map) = doc.as_object_mut() {
                map.insert(
                    "subagents".to_owned(),
                    subagents.iter().map(summary_json).collect(),
                );
                map.insert(
                    "total_with_subagents".to_owned(),
                    json!({
                        "input_tokens": total.input_tokens,
                        "output_tokens": total.output_tokens,
                        "cost_usd": total.cost_usd,
                    }),
                );
            }
            serde_json::to_string_pretty(&doc).map_err(|e| StoreError::Encode(e.to_string()))
        }
        ExportFormat::Markdown => {
            let mut out = out;
            if !subagents.is_empty() {
                out.push_str("\n## Subagents\n\n");
                for s in &subagents {
                    let _ = writeln!(out, "{}", tree_line(s));
                }
                let _ = writeln!(
                    out,
                    "\nTotal with subagents: {} input, {} output tokens, ${:.4}",
                    thousands(total.input_tokens),
                    thousands(total.output_tokens),
                    total.cost_usd
                );
                let _ = writeln!(
                    out,
                    "\n_One transcript: wright sessions show {id} --agent PATH_"
                );
            }
            Ok(out)
        }
    }
}

/// A listed session's cost with its subagents' (the parent's totals
/// include its children's, as the run's result did). Only a session with
/// an agents directory beside its file costs a look into it.
pub fn cost_with_subagents(store: &SessionStore, s: &wright_store::SessionSummary) -> Option<f64> {
    if !s.path.with_extension("agents").is_dir() {
        return s.cost_usd;
    }
    let subagents = store.subagents(&s.id).unwrap_or_default();
    subagents
        .iter()
        .filter_map(|c| c.cost_usd)
        .fold(s.cost_usd, |total, c| Some(total.unwrap_or(0.0) + c))
}

/// The transcript of subagent `agent` of session `id`: its system prompt
/// first, then its messages, tool calls and results, as `show` renders a
/// session. Load warnings go to stderr, as for a session.
pub fn show_agent(
    store: &SessionStore,
    id: &str,
    agent: &str,
    format: ExportFormat,
) -> Result<String, StoreError> {
    let loaded = store.load_subagent(id, agent)?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    wright_store::export_loaded(&loaded, format)
}

/// One subagent as JSON.
fn summary_json(s: &SubagentSummary) -> Value {
    json!({
        "path": s.path,
        "agent_type": s.agent_type,
        "parent_call_id": s.parent_call_id,
        "requests": s.requests,
        "input_tokens": s.input_tokens,
        "output_tokens": s.output_tokens,
        "cost_usd": s.cost_usd,
        "tool_calls": s.tool_calls,
        "file": s.file,
    })
}

/// `- root/explore-1 (explore, from toolu_01) · 3 requests · 1,234 tokens
/// · $0.0021 · Grep, Read, Read`, indented by nesting depth so nested
/// agents form a tree. Every field comes from a file the model's output
/// fed, so control characters are made visible, never sent to the terminal.
fn tree_line(s: &SubagentSummary) -> String {
    let depth = s.path.matches('/').count().saturating_sub(1);
    let mut line = format!(
        "{}- {} ({}, from {}) · {} · {} tokens",
        "  ".repeat(depth),
        escape_controls(&s.path),
        escape_controls(&s.agent_type),
        escape_controls(&s.parent_call_id),
        plural(s.requests, "request"),
        thousands(s.input_tokens.saturating_add(s.output_tokens)),
    );
    if let Some(cost) = s.cost_usd {
        let _ = write!(line, " · ${cost:.4}");
    }
    if s.tool_calls.is_empty() {
        line.push_str(" · no tool calls");
    } else {
        let names: Vec<String> = s.tool_calls.iter().map(|n| escape_controls(n)).collect();
        let _ = write!(line, " · {}", names.join(", "));
    }
    line
}

/// `1 request`, `3 requests`.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(path: &str, tools: &[&str]) -> SubagentSummary {
        SubagentSummary {
            path: path.to_owned(),
            agent_type: "explore".to_owned(),
            parent_call_id: "toolu_01".to_owned(),
            requests: 3,
            input_tokens: 1_200,
            output_tokens: 34,
            cost_usd: Some(0.0021),
            tool_calls: tools.iter().map(|t| (*t).to_owned()).collect(),
            file: "f".into(),
        }
    }

    #[test]
    fn tree_lines_have_every_field() {
        assert_eq!(
            tree_line(&summary("root/explore-1", &["Grep", "Read", "Read"])),
            "- root/explore-1 (explore, from toolu_01) · 3 requests · 1,234 tokens · $0.0021 · Grep, Read, Read"
        );
        let nested = tree_line(&summary("root/a/b", &[]));
        assert!(nested.starts_with("  - root/a/b "), "{nested}");
        assert!(nested.ends_with("no tool calls"), "{nested}");
        let hostile = tree_line(&summary("root/x\u{1b}[2J", &[]));
        assert!(!hostile.contains('\u{1b}'), "{hostile}");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
