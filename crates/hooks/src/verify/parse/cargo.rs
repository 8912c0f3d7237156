//! `cargo … --message-format=json`: one JSON object per line on stdout,
//! mixed with cargo's own plain-text stderr ("error: could not compile"),
//! which is ignored here (the report falls back to it when nothing parsed).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::super::paths::{FileSet, Resolver};
use super::super::{Diagnostic, Severity};
use super::{Parsed, strip_ansi};

#[derive(Debug, Deserialize)]
struct Line {
    reason: String,
    #[serde(default)]
    message: Option<Message>,
    #[serde(default)]
    success: Option<bool>,
}

#[derive(Debug, Deserialize)]
struct Message {
    #[serde(default)]
    level: String,
    #[serde(default)]
    message: String,
    #[serde(default)]
    code: Option<Code>,
    #[serde(default)]
    spans: Vec<Span>,
    #[serde(default)]
    children: Vec<Message>,
    #[serde(default)]
    rendered: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Code {
    code: String,
}

#[derive(Debug, Deserialize)]
struct Span {
    file_name: String,
    line_start: u32,
    #[serde(default)]
    column_start: Option<u32>,
    #[serde(default)]
    is_primary: bool,
    #[serde(default)]
    expansion: Option<Box<Expansion>>,
}

#[derive(Debug, Deserialize)]
struct Expansion {
    span: Span,
    #[serde(default)]
    def_site_span: Option<Span>,
}

/// Macro expansions nest (a macro calling a macro); real chains are short.
const MAX_EXPANSION_DEPTH: usize = 16;

pub(super) fn parse(output: &str, cwd: &Path, edited: &FileSet) -> Parsed {
    let mut parsed = Parsed::default();
    let mut resolver = Resolver::new(cwd);
    for line in output.lines() {
        let line = line.trim();
        if !line.starts_with('{') {
            continue;
        }
        let Ok(line) = serde_json::from_str::<Line>(line) else {
            continue;
        };
        match line.reason.as_str() {
            "compiler-message" => {
                if let Some(d) = line
                    .message
                    .and_then(|m| diagnostic(m, &mut resolver, edited))
                {
                    parsed.diagnostics.push(d);
                }
            }
            "build-finished" => parsed.build_succeeded = line.success,
            _ => {}
        }
    }
    parsed
}

fn severity(level: &str) -> Option<Severity> {
    match level {
        // Includes "error: internal compiler error".
        l if l.starts_with("error") => Some(Severity::Error),
        "warning" => Some(Severity::Warning),
        "note" | "help" => Some(Severity::Note),
        // "failure-note" is the "for more information, try rustc --explain" line.
        _ => None,
    }
}

/// One rustc message as one diagnostic. It belongs to an edited file when any
/// of its spans touches one (a call site, a definition in a note, a macro
/// expansion), so an edit that breaks code elsewhere through the edited file
/// is still reported; otherwise it belongs to its primary span's file.
fn diagnostic(
    message: Message,
    resolver: &mut Resolver<'_>,
    edited: &FileSet,
) -> Option<Diagnostic> {
    let severity = severity(&message.level)?;
    let mut spans = Vec::new();
    collect_spans(&message, &mut spans);
    let primary = message
        .spans
        .iter()
        .find(|s| s.is_primary)
        .or(message.spans.first())
        .or(spans.first().copied())?;
    let located: Vec<(PathBuf, &Span)> = std::iter::once(primary)
        .chain(spans.iter().copied())
        .map(|s| (resolver.resolve(&s.file_name), s))
        .collect();
    let (file, span) = located
        .iter()
        .find(|(path, _)| edited.contains_identity(path))
        .or(located.first())?;
    // The position of a primary span in the chosen file, when there is one.
    let span = located
        .iter()
        .find(|(path, s)| path == file && s.is_primary)
        .map_or(*span, |(_, s)| *s);
    Some(Diagnostic {
        file: file.clone(),
        line: span.line_start,
        column: span.column_start,
        severity,
        code: message.code.map(|c| c.code),
        message: message.message,
        rendered: message
            .rendered
            .map(|r| strip_ansi(&r).into_owned())
            .filter(|r| !r.trim().is_empty()),
    })
}

fn collect_spans<'a>(message: &'a Message, out: &mut Vec<&'a Span>) {
    for span in &message.spans {
        push_with_expansions(span, out, 0);
    }
    for child in &message.children {
        collect_spans(child, out);
    }
}

fn push_with_expansions<'a>(span: &'a Span, out: &mut Vec<&'a Span>, depth: usize) {
    out.push(span);
    if depth >= MAX_EXPANSION_DEPTH {
        return;
    }
    if let Some(expansion) = &span.expansion {
        push_with_expansions(&expansion.span, out, depth + 1);
        if let Some(def) = &expansion.def_site_span {
            push_with_expansions(def, out, depth + 1);
        }
    }
}
