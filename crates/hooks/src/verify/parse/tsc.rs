//! TypeScript's `tsc`: `file(line,col): error TS2322: message` with
//! `--pretty false`, and `file:line:col - error TS2322: message` when pretty
//! output slips through. A message's indented follow-up lines (the
//! elaboration chain) are kept with it; config errors without a file are
//! left to the report's exit-status fallback.

use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

use super::super::paths::Resolver;
use super::super::{Diagnostic, Severity};
use super::{number, pattern, strip_ansi};

static PLAIN: LazyLock<Option<Regex>> = LazyLock::new(|| {
    pattern(
        r"^(?P<file>\S.*?)\((?P<line>\d+),(?P<col>\d+)\): (?P<sev>error|warning|message) (?P<code>TS\d+): (?P<msg>.*)$",
    )
});

static PRETTY: LazyLock<Option<Regex>> = LazyLock::new(|| {
    pattern(
        r"^(?P<file>\S.*?):(?P<line>\d+):(?P<col>\d+) - (?P<sev>error|warning|message) (?P<code>TS\d+): (?P<msg>.*)$",
    )
});

/// Follow-up lines past this many are dropped; tsc elaborations nest deeply.
const MAX_CONTINUATION_LINES: usize = 8;

pub(super) fn parse(output: &str, cwd: &Path) -> Vec<Diagnostic> {
    let patterns: Vec<&Regex> = [PLAIN.as_ref(), PRETTY.as_ref()]
        .into_iter()
        .flatten()
        .collect();
    let output = strip_ansi(output);
    let mut resolver = Resolver::new(cwd);
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    // Whether indented lines right now continue the last diagnostic.
    let mut continuing = false;
    let mut continuation_lines = 0;
    for line in output.lines() {
        let line = line.trim_end();
        if continuing && line.starts_with(char::is_whitespace) && !line.trim().is_empty() {
            if let Some(last) = diagnostics.last_mut()
                && continuation_lines < MAX_CONTINUATION_LINES
            {
                last.message.push('\n');
                last.message.push_str(line);
                continuation_lines += 1;
            }
            continue;
        }
        continuing = false;
        let Some(caps) = patterns.iter().find_map(|p| p.captures(line)) else {
            continue;
        };
        let (Some(file), Some(line_no)) = (
            caps.name("file"),
            caps.name("line").and_then(|m| number(m.as_str())),
        ) else {
            continue;
        };
        let severity = match caps.name("sev").map(|m| m.as_str()) {
            Some("warning") => Severity::Warning,
            Some("message") => Severity::Note,
            _ => Severity::Error,
        };
        diagnostics.push(Diagnostic {
            file: resolver.resolve(file.as_str()),
            line: line_no,
            column: caps.name("col").and_then(|m| number(m.as_str())),
            severity,
            code: caps.name("code").map(|m| m.as_str().to_string()),
            message: caps
                .name("msg")
                .map_or("", |m| m.as_str())
                .trim()
                .to_string(),
            rendered: None,
        });
        continuing = true;
        continuation_lines = 0;
    }
    diagnostics
}
