//! The catch-all format: any line that names an edited file (absolute, or
//! relative to the run's directory) is an error for that file, at `path:N`
//! (or `path(N,M)`) when a line number follows the name, else at line 0.

use std::path::{Path, PathBuf};

use super::super::paths::{identity, relative_to};
use super::super::{Diagnostic, Severity};
use super::strip_ansi;

/// A checker may print very long lines (minified code); the model needs
/// the gist, not all of it.
const MAX_MESSAGE_CHARS: usize = 400;

struct Target {
    file: PathBuf,
    /// Every spelling of the file a checker might print, longest first so
    /// the most specific one is found.
    names: Vec<String>,
}

pub(super) fn parse(output: &str, cwd: &Path, edited: &[PathBuf]) -> Vec<Diagnostic> {
    let targets: Vec<Target> = edited.iter().map(|f| target(f, cwd)).collect();
    let output = strip_ansi(output);
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    for line in output.lines() {
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        for target in &targets {
            // Two edited files can be one file spelled twice.
            if diagnostics
                .last()
                .is_some_and(|d| d.file == target.file && d.message == cut(text))
            {
                continue;
            }
            let Some((line_no, column)) = target.names.iter().find_map(|n| mention(text, n)) else {
                continue;
            };
            diagnostics.push(Diagnostic {
                file: target.file.clone(),
                line: line_no,
                column,
                severity: Severity::Error,
                code: None,
                message: cut(text),
                rendered: None,
            });
        }
    }
    diagnostics
}

fn target(file: &Path, cwd: &Path) -> Target {
    let id = identity(file);
    let mut names: Vec<String> = Vec::new();
    for spelling in [file.to_path_buf(), id.clone()] {
        names.push(spelling.display().to_string());
        if let Some(rel) = relative_to(&spelling, cwd) {
            let rel = rel.display().to_string();
            names.push(format!("./{rel}"));
            names.push(rel);
        }
    }
    names.retain(|n| !n.is_empty());
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names.dedup();
    Target { file: id, names }
}

fn cut(text: &str) -> String {
    if text.chars().count() <= MAX_MESSAGE_CHARS {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(MAX_MESSAGE_CHARS).collect();
    cut.push('…');
    cut
}

/// Where `text` names `name` as a whole path, the line and column after it.
fn mention(text: &str, name: &str) -> Option<(u32, Option<u32>)> {
    let mut from = 0;
    while let Some(found) = text.get(from..).and_then(|t| t.find(name)) {
        let start = from + found;
        let end = start + name.len();
        from = start + name.chars().next().map_or(1, char::len_utf8);
        let before = text[..start].chars().next_back();
        let after = &text[end..];
        if before.is_some_and(continues_path) || after_continues_path(after) {
            continue;
        }
        return Some(position(after));
    }
    None
}

fn continues_path(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '\\')
}

/// `a.ts` inside `a.tsx` or `a.ts.bak` is another file; `a.ts.` ending a
/// sentence is not.
fn after_continues_path(after: &str) -> bool {
    let mut chars = after.chars();
    match chars.next() {
        Some('.') => chars.next().is_some_and(|c| c.is_alphanumeric()),
        Some(c) => c.is_alphanumeric() || matches!(c, '_' | '-' | '/' | '\\'),
        None => false,
    }
}

/// `:12`, `:12:5`, `(12,5)` or `(12)` right after the name; else line 0.
fn position(after: &str) -> (u32, Option<u32>) {
    let (rest, close) = if let Some(rest) = after.strip_prefix(':') {
        (rest, None)
    } else if let Some(rest) = after.strip_prefix('(') {
        (rest, Some(')'))
    } else {
        return (0, None);
    };
    let Some((line, rest)) = leading_number(rest) else {
        return (0, None);
    };
    let separator = if close.is_some() { ',' } else { ':' };
    let column = rest
        .strip_prefix(separator)
        .and_then(leading_number)
        .map(|(c, _)| c);
    (line, column)
}

fn leading_number(text: &str) -> Option<(u32, &str)> {
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let number = text[..digits].parse().ok()?;
    Some((number, &text[digits..]))
}
