//! What `wright context` prints: every part of the system prompt with its
//! source, size and token estimate (and its full text), then the tools with
//! their schema sizes, then the conversation's use of the window. The same
//! data serializes for `--json`.

use serde::Serialize;

use crate::assemble::{Context, Part, PartKind};
use crate::estimate_tokens_for_chars;
use crate::warning::Warning;

/// One tool's share of the request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolReport {
    /// Tool name.
    pub name: String,
    /// Characters of its name, description and JSON schema.
    pub schema_chars: usize,
    /// `schema_chars / 4`, rounded up.
    pub tokens_estimate: usize,
}

/// The conversation's use of the model's window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ConversationUse {
    /// Estimated tokens (last reported usage + chars/4 after it).
    pub estimate: u64,
    /// The model's context window.
    pub window: u64,
    /// `estimate` as a whole percentage of `window`.
    pub percent: u64,
}

/// The `--json` shape of `wright context`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContextReport {
    /// The parts in the order sent, with their text.
    pub parts: Vec<Part>,
    /// Characters of the whole system prompt (separators included).
    pub system_prompt_chars: usize,
    /// Token estimate of the whole system prompt.
    pub system_prompt_tokens: usize,
    /// Tools in the order given.
    pub tools: Vec<ToolReport>,
    /// Token estimate of all tool schemas.
    pub tools_tokens: usize,
    /// Present inside a session.
    pub conversation: Option<ConversationUse>,
    /// Problems found while assembling.
    pub warnings: Vec<Warning>,
}

/// Builds the report from the context, `(tool name, schema chars)` pairs
/// and, inside a session, `(estimate, window)`.
pub fn report(
    context: &Context,
    tools: &[(String, usize)],
    conversation: Option<(u64, u64)>,
) -> ContextReport {
    let tools: Vec<ToolReport> = tools
        .iter()
        .map(|(name, chars)| ToolReport {
            name: name.clone(),
            schema_chars: *chars,
            tokens_estimate: estimate_tokens_for_chars(*chars),
        })
        .collect();
    let chars = context.chars();
    ContextReport {
        parts: context.parts.clone(),
        system_prompt_chars: chars,
        system_prompt_tokens: estimate_tokens_for_chars(chars),
        tools_tokens: tools.iter().map(|t| t.tokens_estimate).sum(),
        tools,
        conversation: conversation.map(|(estimate, window)| ConversationUse {
            estimate,
            window,
            percent: estimate
                .saturating_mul(100)
                .checked_div(window)
                .unwrap_or(0),
        }),
        warnings: context.warnings.clone(),
    }
}

/// The human-readable report.
pub fn render_report(
    context: &Context,
    tools: &[(String, usize)],
    conversation: Option<(u64, u64)>,
) -> String {
    let r = report(context, tools, conversation);
    let mut out = format!(
        "System prompt: {} parts, {} chars, ~{} tokens\n",
        r.parts.len(),
        thousands(r.system_prompt_chars as u64),
        thousands(r.system_prompt_tokens as u64)
    );
    for part in &r.parts {
        out.push_str(&format!(
            "\n── {} · {} · {} chars · ~{} tokens ──\n{}\n",
            kind_label(part.kind),
            part.source,
            thousands(part.chars as u64),
            thousands(part.tokens_estimate as u64),
            part.text
        ));
    }
    out.push_str(&format!(
        "\nTools: {}, ~{} tokens\n",
        r.tools.len(),
        thousands(r.tools_tokens as u64)
    ));
    let width = r.tools.iter().map(|t| t.name.len()).max().unwrap_or(0);
    for tool in &r.tools {
        out.push_str(&format!(
            "  {:width$}  {:>7} chars  ~{} tokens\n",
            tool.name,
            thousands(tool.schema_chars as u64),
            thousands(tool.tokens_estimate as u64)
        ));
    }
    if let Some(c) = r.conversation {
        out.push_str(&format!(
            "\nConversation: ~{} of {} tokens ({}%)\n",
            thousands(c.estimate),
            thousands(c.window),
            c.percent
        ));
    }
    if !r.warnings.is_empty() {
        out.push_str("\nWarnings:\n");
        for w in &r.warnings {
            out.push_str(&format!("  - {w}\n"));
        }
    }
    out
}

fn kind_label(kind: PartKind) -> &'static str {
    match kind {
        PartKind::BasePrompt => "base prompt",
        PartKind::Environment => "environment",
        PartKind::Instructions => "instructions",
        PartKind::Skills => "skills",
        PartKind::Memory => "memory",
        PartKind::Appended => "appended",
    }
}

/// `1234567` → `1,234,567`, as the reports print counts.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Context {
        let part = |kind, source: &str, text: &str| Part {
            kind,
            source: source.to_owned(),
            text: text.to_owned(),
            chars: text.chars().count(),
            tokens_estimate: estimate_tokens_for_chars(text.chars().count()),
        };
        Context {
            parts: vec![
                part(PartKind::BasePrompt, "built-in", "base"),
                part(
                    PartKind::Instructions,
                    "/p/AGENTS.md",
                    "Project instructions from /p/AGENTS.md:\n\nhi",
                ),
            ],
            warnings: vec![Warning::at("/p/x.md", "missing")],
        }
    }

    #[test]
    fn text_report_lists_parts_tools_and_conversation() {
        let tools = vec![("read".to_owned(), 1_234), ("bash".to_owned(), 99)];
        let text = render_report(&context(), &tools, Some((12_345, 200_000)));
        assert_eq!(
            text,
            "System prompt: 2 parts, 49 chars, ~13 tokens\n\
             \n── base prompt · built-in · 4 chars · ~1 tokens ──\nbase\n\
             \n── instructions · /p/AGENTS.md · 43 chars · ~11 tokens ──\n\
             Project instructions from /p/AGENTS.md:\n\nhi\n\
             \nTools: 2, ~334 tokens\n\
             \x20\x20read    1,234 chars  ~309 tokens\n\
             \x20\x20bash       99 chars  ~25 tokens\n\
             \nConversation: ~12,345 of 200,000 tokens (6%)\n\
             \nWarnings:\n  - /p/x.md: missing\n"
        );
    }

    #[test]
    fn json_shape() {
        let value = serde_json::to_value(report(&context(), &[], None)).unwrap();
        assert_eq!(value["parts"][1]["kind"], "instructions");
        assert_eq!(value["parts"][1]["source"], "/p/AGENTS.md");
        assert_eq!(value["system_prompt_chars"], 49);
        assert_eq!(value["conversation"], serde_json::Value::Null);
        assert_eq!(value["warnings"][0]["path"], "/p/x.md");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(thousands(999), "999");
    }
}
