//! `file:line[:col]: …` lines: gcc and clang (`severity: message`), ruff's
//! concise output (`CODE message`), and `go vet` (a bare message, sometimes
//! after `vet: `, between `# package` headers). Source excerpts, carets and
//! summaries ("1 error generated.", "Found 3 errors.") do not start with a
//! location and are skipped.

use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

use super::super::paths::Resolver;
use super::super::{Diagnostic, Severity};
use super::{number, pattern, strip_ansi};

/// The file may contain spaces but not start with one (that is a source
/// excerpt) and, past a Windows drive, no colon. The message must be
/// non-empty so "In file included from a.c:1:" is not a diagnostic.
static LOCATION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    pattern(
        r"^(?:vet: )?(?P<file>(?:[A-Za-z]:[\\/])?[^\s:][^:]*?):(?P<line>\d+):(?:(?P<col>\d+):)?\s+(?P<rest>\S.*)$",
    )
});

/// gcc/clang's severity word, with clang's optional bracketed code.
static SEVERITY: LazyLock<Option<Regex>> = LazyLock::new(|| {
    pattern(
        r"^(?P<sev>fatal error|error|warning|note|remark|info)(?:\[(?P<code>[^\]]+)\])?:\s*(?P<msg>.*)$",
    )
});

/// ruff's rule code, optionally followed by its `[*]` fixable mark.
static RULE: LazyLock<Option<Regex>> =
    LazyLock::new(|| pattern(r"^(?P<code>[A-Z]{1,5}[0-9]{1,5})\s+(?:\[\*\]\s+)?(?P<msg>.+)$"));

pub(super) fn parse(output: &str, cwd: &Path) -> Vec<Diagnostic> {
    let (Some(location), Some(severity_re), Some(rule)) =
        (LOCATION.as_ref(), SEVERITY.as_ref(), RULE.as_ref())
    else {
        return Vec::new();
    };
    let output = strip_ansi(output);
    let mut resolver = Resolver::new(cwd);
    let mut diagnostics = Vec::new();
    for line in output.lines() {
        let line = line.trim_end();
        if line.starts_with("In file included from") {
            continue;
        }
        let Some(caps) = location.captures(line) else {
            continue;
        };
        let (Some(file), Some(line_no), Some(rest)) =
            (caps.name("file"), caps.name("line"), caps.name("rest"))
        else {
            continue;
        };
        let Some(line_no) = number(line_no.as_str()) else {
            continue;
        };
        let column = caps.name("col").and_then(|c| number(c.as_str()));
        let rest = rest.as_str();
        let (severity, code, message) = if let Some(s) = severity_re.captures(rest) {
            let word = s.name("sev").map_or("", |m| m.as_str());
            let severity = match word {
                "warning" => Severity::Warning,
                "note" | "remark" | "info" => Severity::Note,
                _ => Severity::Error,
            };
            let code = s.name("code").map(|m| m.as_str().to_string());
            (severity, code, s.name("msg").map_or("", |m| m.as_str()))
        } else if let Some(r) = rule.captures(rest) {
            // A linter finding is something the model should fix, like an error.
            let code = r.name("code").map(|m| m.as_str().to_string());
            (
                Severity::Error,
                code,
                r.name("msg").map_or("", |m| m.as_str()),
            )
        } else {
            // go vet and other bare `file:line: message` checkers.
            (Severity::Error, None, rest)
        };
        diagnostics.push(Diagnostic {
            file: resolver.resolve(file.as_str()),
            line: line_no,
            column,
            severity,
            code,
            message: message.trim().to_string(),
            rendered: None,
        });
    }
    diagnostics
}
