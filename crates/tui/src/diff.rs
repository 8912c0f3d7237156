//! Coloured diffs: a unified diff (what an edit reports after it ran) with
//! old and new line numbers, and the change an edit proposes (shown in the
//! approval menu before it runs), computed with `similar`.

use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use similar::{ChangeTag, TextDiff};

use crate::wrap::wrap;

/// Rows of at most this many are shown; the rest is counted.
pub const MAX_ROWS: usize = 40;

fn removed() -> Style {
    Style::default().fg(Color::Red)
}

fn added() -> Style {
    Style::default().fg(Color::Green)
}

fn gutter() -> Style {
    Style::default().fg(Color::DarkGray)
}

/// A unified diff (`@@ -a,b +c,d @@` hunks) as numbered, coloured rows.
pub fn unified(diff: &str, width: u16, max_rows: usize) -> Vec<Line<'static>> {
    let mut old = 0u64;
    let mut new = 0u64;
    let mut rows = Vec::new();
    for line in diff.lines() {
        if line.starts_with("---") || line.starts_with("+++") {
            continue;
        }
        if let Some(header) = line.strip_prefix("@@") {
            (old, new) = hunk_start(header);
            if !rows.is_empty() {
                rows.push(Line::from(Span::styled("     ⋮", gutter())));
            }
            continue;
        }
        let (sign, text) = line.split_at(line.len().min(1));
        let row = match sign {
            "-" => {
                old += 1;
                numbered(old, "-", text, removed())
            }
            "+" => {
                new += 1;
                numbered(new, "+", text, added())
            }
            " " => {
                old += 1;
                new += 1;
                numbered(new, " ", text, Style::default())
            }
            // "\ No newline at end of file", or a note in place of the diff.
            _ => Line::from(Span::styled(format!("      {line}"), gutter())),
        };
        rows.push(row);
    }
    finish(rows, width, max_rows)
}

/// The change from `old` to `new` (an edit not yet made: no file line
/// numbers are known, so rows carry only their sign).
pub fn proposed(old: &str, new: &str, width: u16, max_rows: usize) -> Vec<Line<'static>> {
    let diff = TextDiff::from_lines(old, new);
    let mut rows = Vec::new();
    for group in diff.grouped_ops(3) {
        if !rows.is_empty() {
            rows.push(Line::from(Span::styled("  ⋮", gutter())));
        }
        for op in group {
            for change in diff.iter_changes(&op) {
                let text = change.value().trim_end_matches(['\n', '\r']);
                let (sign, style) = match change.tag() {
                    ChangeTag::Delete => ("-", removed()),
                    ChangeTag::Insert => ("+", added()),
                    ChangeTag::Equal => (" ", Style::default()),
                };
                rows.push(Line::from(vec![
                    Span::styled(format!("{sign} "), style),
                    Span::styled(text.to_owned(), style),
                ]));
            }
        }
    }
    finish(rows, width, max_rows)
}

fn numbered(n: u64, sign: &str, text: &str, style: Style) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!("{n:>5} "), gutter()),
        Span::styled(format!("{sign} "), style),
        Span::styled(text.replace('\t', "    "), style),
    ])
}

/// Wraps each row (continuations under the text) and cuts the whole to `max_rows`.
fn finish(rows: Vec<Line<'static>>, width: u16, max_rows: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let total = rows.len();
    for (i, row) in rows.into_iter().enumerate() {
        if out.len() >= max_rows {
            out.push(Line::from(Span::styled(
                format!("      … {} more lines", total - i),
                gutter(),
            )));
            break;
        }
        out.extend(wrap(row, width, &[Span::raw("        ")]));
    }
    out
}

/// `-12,3 +12,4 @@ fn x` → the first old and new line numbers, minus one.
fn hunk_start(header: &str) -> (u64, u64) {
    let mut old = 0;
    let mut new = 0;
    for part in header.split_whitespace() {
        let number = |p: &str| {
            p.split(',')
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .map_or(0, |n| n.saturating_sub(1))
        };
        if let Some(p) = part.strip_prefix('-') {
            old = number(p);
        } else if let Some(p) = part.strip_prefix('+') {
            new = number(p);
        } else if part == "@@" {
            break;
        }
    }
    (old, new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified_rows_carry_line_numbers() {
        let diff = "--- a/x\n+++ b/x\n@@ -10,3 +10,3 @@\n a\n-b\n+c\n d\n";
        let rows: Vec<String> = unified(diff, 40, 40)
            .iter()
            .map(|l| l.to_string())
            .collect();
        assert_eq!(rows, ["   10   a", "   11 - b", "   11 + c", "   12   d"]);
    }

    #[test]
    fn long_diffs_are_cut() {
        let old: String = (0..100).map(|i| format!("{i}\n")).collect();
        let rows = proposed(&old, "", 40, 5);
        assert_eq!(rows.len(), 6);
        assert_eq!(rows[5].to_string(), "      … 95 more lines");
    }
}
