//! The note appended to the edit's tool result: the diagnostics in the
//! edited files, errors first, capped so a broken build cannot flood the
//! model's context, with a stable one-line header it can rely on.

use std::collections::HashSet;
use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;

use super::parse::{parse_detailed, pattern, strip_ansi};
use super::paths::{FileSet, display};
use super::{CheckRun, Diagnostic, Severity};

/// How much of a checker's findings one report may show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportLimits {
    /// Diagnostics shown (an error with its notes counts once).
    pub max_diagnostics: usize,
    /// Bytes of text, roughly; the first diagnostic is cut to fit.
    pub max_bytes: usize,
    /// Lines of one diagnostic's rendering.
    pub max_rendered_lines: usize,
}

impl Default for ReportLimits {
    fn default() -> Self {
        ReportLimits {
            max_diagnostics: 20,
            max_bytes: 8_000,
            max_rendered_lines: 30,
        }
    }
}

/// What the verifier appends to the tool result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The note, starting with a `[verifier: …]` header line.
    pub text: String,
    /// Errors in the edited files (all of them, not just those shown).
    pub errors: usize,
    /// Warnings in the edited files.
    pub warnings: usize,
}

/// An error or warning with the notes printed right after it, which belong to it.
#[derive(Debug)]
struct Group<'a> {
    head: &'a Diagnostic,
    notes: Vec<&'a Diagnostic>,
}

/// Renders the diagnostics of `run.files`; those in other files are only
/// counted (errors), notes are shown only under an error.
pub fn report(run: &CheckRun, diagnostics: &[Diagnostic], limits: ReportLimits) -> Report {
    let edited = FileSet::new(&run.files);
    let (mine, elsewhere): (Vec<Group<'_>>, Vec<Group<'_>>) = group(diagnostics)
        .into_iter()
        .partition(|g| edited.contains(&g.head.file));
    let elsewhere_errors = elsewhere
        .iter()
        .filter(|g| g.head.severity == Severity::Error)
        .count();
    let (errors, warnings): (Vec<Group<'_>>, Vec<Group<'_>>) = mine
        .into_iter()
        .partition(|g| g.head.severity == Severity::Error);
    let (error_count, warning_count) = (errors.len(), warnings.len());

    let mut text = header(&run.label, error_count, warning_count, elsewhere_errors);
    let blocks = errors
        .iter()
        .map(|g| block(g, run, limits, true))
        .chain(warnings.iter().map(|g| block(g, run, limits, false)));
    let total = error_count + warning_count;
    let mut shown: Vec<String> = Vec::new();
    let mut used = text.len();
    for block in blocks.take(limits.max_diagnostics) {
        // Each block costs its length plus up to two separating newlines.
        let cost = block.len() + 2;
        if used + cost > limits.max_bytes {
            if shown.is_empty() {
                shown.push(cut_bytes(&block, limits.max_bytes.saturating_sub(used + 2)));
            }
            break;
        }
        used += cost;
        shown.push(block);
    }
    for (i, block) in shown.iter().enumerate() {
        // A blank line keeps multi-line renderings apart; one-liners stay compact.
        let apart = i > 0 && (block.contains('\n') || shown[i - 1].contains('\n'));
        text.push_str(if apart { "\n\n" } else { "\n" });
        text.push_str(block);
    }
    if shown.len() < total {
        text.push_str(&format!("\n[… {} more not shown]", total - shown.len()));
    }
    Report {
        text,
        errors: error_count,
        warnings: warning_count,
    }
}

/// Parses `output` (from running `run`) and reports it. `exit_code` is the
/// checker's status when known; a failed run that produced no error this
/// module could place (a broken manifest, a missing tool, a config error)
/// is reported with the tail of its output instead of as clean.
pub fn report_output(
    run: &CheckRun,
    output: &str,
    exit_code: Option<i32>,
    limits: ReportLimits,
) -> Report {
    let parsed = parse_detailed(run.format, output, &run.cwd, &run.files);
    let failed = exit_code.is_some_and(|c| c != 0) || parsed.build_succeeded == Some(false);
    let any_error = parsed
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
    if let Some(code @ (126 | 127)) = exit_code
        && parsed.diagnostics.is_empty()
    {
        let why = match tail(output) {
            Some(tail) => format!("exit status {code}: {tail}"),
            None => format!("exit status {code}"),
        };
        return Report {
            text: failure_note(run, &why),
            errors: 0,
            warnings: 0,
        };
    }
    let mut report = report(run, &parsed.diagnostics, limits);
    if failed && !any_error {
        let status = exit_code.map_or_else(
            || "failed".to_string(),
            |c| format!("exited with status {c}"),
        );
        let note = match tail(output) {
            Some(tail) => format!(
                "[verifier: {} {status} but reported no errors: {tail}]",
                run.label
            ),
            None => format!("[verifier: {} {status} but printed nothing]", run.label),
        };
        if report.warnings == 0 {
            // The clean header would be a false "all good".
            report.text = note;
        } else {
            report.text = format!("{}\n{note}", report.text);
        }
    }
    report
}

const WHY_MAX_CHARS: usize = 200;

/// One short line saying the check did not produce a result, e.g.
/// `[verifier: cargo check could not run: timed out after 120 s]`.
pub fn failure_note(run: &CheckRun, why: &str) -> String {
    let why = why
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("unknown reason");
    format!(
        "[verifier: {} could not run: {}]",
        run.label,
        cut_chars(why, WHY_MAX_CHARS)
    )
}

/// [`failure_note`] for a run the core stopped at `run.timeout`.
pub fn timeout_note(run: &CheckRun) -> String {
    failure_note(run, &format!("timed out after {}", seconds(run.timeout)))
}

fn seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// Drops duplicates (cargo reports a shared module once per target) and
/// attaches each note to the diagnostic before it; a leading note has no owner.
fn group(diagnostics: &[Diagnostic]) -> Vec<Group<'_>> {
    let mut seen = HashSet::new();
    let mut groups: Vec<Group<'_>> = Vec::new();
    let mut skipping = false;
    for d in diagnostics {
        if d.severity == Severity::Note {
            if let Some(last) = groups.last_mut()
                && !skipping
            {
                last.notes.push(d);
            }
            continue;
        }
        let key = (&d.file, d.line, d.column, d.severity, &d.code, &d.message);
        skipping = !seen.insert(key);
        if !skipping {
            groups.push(Group {
                head: d,
                notes: Vec::new(),
            });
        }
    }
    groups
}

fn header(label: &str, errors: usize, warnings: usize, elsewhere: usize) -> String {
    let summary = match (errors, warnings) {
        (0, 0) => "no errors".to_string(),
        (0, w) => format!("no errors, {}", count(w, "warning")),
        (e, 0) => count(e, "error"),
        (e, w) => format!("{}, {}", count(e, "error"), count(w, "warning")),
    };
    let elsewhere = if elsewhere > 0 {
        format!(
            " ({} elsewhere in the workspace)",
            count(elsewhere, "error")
        )
    } else {
        String::new()
    };
    format!("[verifier: {label} — {summary} in the edited files{elsewhere}]")
}

fn count(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// One diagnostic as text: the checker's own rendering when it has one
/// (cargo's includes the source line), else one `path:line:col: …` line each.
fn block(group: &Group<'_>, run: &CheckRun, limits: ReportLimits, with_notes: bool) -> String {
    let notes: &[&Diagnostic] = if with_notes { &group.notes } else { &[] };
    let mut lines: Vec<String> = Vec::new();
    for d in std::iter::once(&group.head).chain(notes) {
        match &d.rendered {
            Some(rendered) => lines.extend(relocate(rendered, run).lines().map(str::to_string)),
            None => lines.push(plain(d, run)),
        }
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    if lines.len() > limits.max_rendered_lines {
        let more = lines.len() - limits.max_rendered_lines;
        lines.truncate(limits.max_rendered_lines);
        let unit = if more == 1 { "line" } else { "lines" };
        lines.push(format!("… ({more} more {unit})"));
    }
    lines.join("\n")
}

fn plain(d: &Diagnostic, run: &CheckRun) -> String {
    let mut location = display(&d.file, &run.root);
    if d.line > 0 {
        location.push_str(&format!(":{}", d.line));
        if let Some(column) = d.column {
            location.push_str(&format!(":{column}"));
        }
    }
    let code = d
        .code
        .as_ref()
        .map(|c| format!("[{c}]"))
        .unwrap_or_default();
    format!("{location}: {}{code}: {}", d.severity.as_str(), d.message)
}

/// ` --> path:line:col` and ` ::: path:…` lines of a rustc rendering name
/// files relative to cargo's workspace; the model's tools use the root.
static ARROW: LazyLock<Option<Regex>> =
    LazyLock::new(|| pattern(r"^(?P<pre>\s*(?:-->|:::)\s+)(?P<path>.+?)(?P<pos>:\d+:\d+)$"));

fn relocate(rendered: &str, run: &CheckRun) -> String {
    let rendered = strip_ansi(rendered);
    let Some(arrow) = ARROW.as_ref() else {
        return rendered.into_owned();
    };
    let lines: Vec<String> = rendered
        .lines()
        .map(|line| match arrow.captures(line) {
            Some(c) => {
                let path = run.cwd.join(c.name("path").map_or("", |m| m.as_str()));
                let shown = display(&path, &run.root);
                let (pre, pos) = (
                    c.name("pre").map_or("", |m| m.as_str()),
                    c.name("pos").map_or("", |m| m.as_str()),
                );
                format!("{pre}{shown}{pos}")
            }
            None => line.to_string(),
        })
        .collect();
    lines.join("\n")
}

/// The last few lines of output that are not JSON, for a failure note.
fn tail(output: &str) -> Option<String> {
    let output = strip_ansi(output);
    let lines: Vec<&str> = output
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('{'))
        .collect();
    let start = lines.len().saturating_sub(3);
    let tail = lines[start..].join(" | ");
    (!tail.is_empty()).then(|| cut_chars(&tail, WHY_MAX_CHARS * 2))
}

fn cut_chars(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}

fn cut_bytes(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max.saturating_sub('…'.len_utf8());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod report_tests;
