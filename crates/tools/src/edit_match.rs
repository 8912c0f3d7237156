//! Finding `old_string` in a file for the `edit` tool: exact first, then a
//! whitespace-tolerant line match (trailing whitespace, then indentation),
//! and, when nothing matches, the closest region to show the model.
//!
//! All text here is LF-normalized and BOM-free; `edit` restores both.

use crate::output::cut_line;

/// How `old_string` was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MatchKind {
    /// Byte for byte (after line-ending normalization).
    Exact,
    /// Line by line, ignoring trailing whitespace or indentation.
    Whitespace,
}

/// A successful replacement.
#[derive(Debug)]
pub(crate) struct Applied {
    pub text: String,
    pub count: usize,
    pub kind: MatchKind,
}

/// Why nothing was replaced.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum MatchError {
    /// Several matches and `replace_all` was not set.
    NotUnique { count: usize, kind: MatchKind },
    /// No match; the closest region of the file, numbered.
    NoMatch { closest: Option<String> },
}

#[derive(Clone, Copy)]
enum Level {
    TrailingSpace,
    Indentation,
}

impl Level {
    fn norm(self, s: &str) -> &str {
        match self {
            Self::TrailingSpace => s.trim_end(),
            Self::Indentation => s.trim(),
        }
    }
}

/// Replaces `old` with `new` in `text` per the rules in the module doc.
pub(crate) fn apply(
    text: &str,
    old: &str,
    new: &str,
    replace_all: bool,
) -> Result<Applied, MatchError> {
    let count = text.matches(old).count();
    if count > 1 && !replace_all {
        return Err(MatchError::NotUnique {
            count,
            kind: MatchKind::Exact,
        });
    }
    if count > 0 {
        let text = if replace_all {
            text.replace(old, new)
        } else {
            text.replacen(old, new, 1)
        };
        return Ok(Applied {
            text,
            count,
            kind: MatchKind::Exact,
        });
    }
    let (old_lines, trailing_nl) = split_old(old);
    if old_lines.iter().all(|l| l.trim().is_empty()) {
        return Err(MatchError::NoMatch {
            closest: closest_region(text, old),
        });
    }
    let file = line_spans(text);
    for level in [Level::TrailingSpace, Level::Indentation] {
        let windows = find_windows(text, &file, &old_lines, level);
        if windows.is_empty() {
            continue;
        }
        if windows.len() > 1 && !replace_all {
            return Err(MatchError::NotUnique {
                count: windows.len(),
                kind: MatchKind::Whitespace,
            });
        }
        let new = if trailing_nl {
            new.strip_suffix('\n').unwrap_or(new)
        } else {
            new
        };
        let mut out = text.to_owned();
        for &i in windows.iter().rev() {
            let start = file[i].0;
            let end = file[i + old_lines.len() - 1].1;
            let replacement = match level {
                Level::TrailingSpace => new.to_owned(),
                Level::Indentation => reindent(new, &old_lines, &text[start..end]),
            };
            out.replace_range(start..end, &replacement);
        }
        return Ok(Applied {
            text: out,
            count: windows.len(),
            kind: MatchKind::Whitespace,
        });
    }
    Err(MatchError::NoMatch {
        closest: closest_region(text, old),
    })
}

/// `old` split into lines, without the empty piece after a final newline.
fn split_old(old: &str) -> (Vec<&str>, bool) {
    let trailing = old.ends_with('\n');
    let body = old.strip_suffix('\n').unwrap_or(old);
    (body.split('\n').collect(), trailing)
}

/// (start, end-before-newline) of every line of `text`.
fn line_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    for piece in text.split_inclusive('\n') {
        let end = start + piece.strip_suffix('\n').unwrap_or(piece).len();
        spans.push((start, end));
        start += piece.len();
    }
    spans
}

fn find_windows(text: &str, file: &[(usize, usize)], old: &[&str], level: Level) -> Vec<usize> {
    let k = old.len();
    let mut found = Vec::new();
    let mut i = 0;
    while k > 0 && i + k <= file.len() {
        let hit = old.iter().enumerate().all(|(j, o)| {
            let (s, e) = file[i + j];
            level.norm(&text[s..e]) == level.norm(o)
        });
        if hit {
            found.push(i);
            i += k;
        } else {
            i += 1;
        }
    }
    found
}

fn indent_of(s: &str) -> &str {
    &s[..s.len() - s.trim_start().len()]
}

/// Shifts `new` by the indentation difference between `old` and the file.
fn reindent(new: &str, old_lines: &[&str], file_region: &str) -> String {
    let Some(pos) = old_lines.iter().position(|l| !l.trim().is_empty()) else {
        return new.to_owned();
    };
    let old_indent = indent_of(old_lines[pos]);
    let file_indent = file_region
        .split('\n')
        .nth(pos)
        .map(indent_of)
        .unwrap_or_default();
    new.split('\n')
        .map(|line| match line.strip_prefix(old_indent) {
            Some(rest) if !line.trim().is_empty() => format!("{file_indent}{rest}"),
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

const CONTEXT: usize = 2;
const MAX_SHOWN: usize = 30;
const SCORE_CHARS: usize = 200;
const FULL_SCAN_PAIRS: usize = 20_000;

fn similarity(a: &str, b: &str) -> f32 {
    let a: String = a.trim().chars().take(SCORE_CHARS).collect();
    let b: String = b.trim().chars().take(SCORE_CHARS).collect();
    similar::TextDiff::from_chars(a.as_str(), b.as_str()).ratio()
}

/// The file region most like `old`, numbered like `read`, or `None` when
/// nothing is even a little similar.
pub(crate) fn closest_region(text: &str, old: &str) -> Option<String> {
    let file: Vec<&str> = text.lines().collect();
    let (old_lines, _) = split_old(old);
    if file.is_empty() {
        return None;
    }
    let k = old_lines.len().clamp(1, file.len());
    let first = old_lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .unwrap_or(0);
    let starts: Vec<usize> = (0..=file.len() - k).collect();
    let candidates: Vec<usize> = if starts.len() * k <= FULL_SCAN_PAIRS {
        starts
    } else {
        // Too many windows to score fully: shortlist by the first real line.
        let mut scored: Vec<(f32, usize)> = starts
            .iter()
            .map(|&i| {
                let line = file.get(i + first).copied().unwrap_or("");
                (
                    similarity(old_lines.get(first).copied().unwrap_or(""), line),
                    i,
                )
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        scored.into_iter().take(50).map(|(_, i)| i).collect()
    };
    let score = |i: usize| -> f32 {
        let total: f32 = (0..k)
            .map(|j| similarity(old_lines.get(j).copied().unwrap_or(""), file[i + j]))
            .sum();
        total / k as f32
    };
    let (best_score, best) = candidates
        .into_iter()
        .map(|i| (score(i), i))
        .fold((f32::MIN, 0), |acc, x| if x.0 > acc.0 { x } else { acc });
    if best_score < 0.3 {
        return None;
    }
    let from = best.saturating_sub(CONTEXT);
    let to = (best + k + CONTEXT).min(file.len()).min(from + MAX_SHOWN);
    let mut out = String::new();
    for (n, line) in file.iter().enumerate().take(to).skip(from) {
        out.push_str(&format!("{:>6}\t{}\n", n + 1, cut_line(line, 500)));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_unique_and_not_unique() {
        let a = apply("a b a", "b", "c", false).unwrap();
        assert_eq!(
            (a.text.as_str(), a.count, a.kind),
            ("a c a", 1, MatchKind::Exact)
        );
        assert_eq!(
            apply("a b a", "a", "c", false).unwrap_err(),
            MatchError::NotUnique {
                count: 2,
                kind: MatchKind::Exact
            }
        );
        let a = apply("a b a", "a", "c", true).unwrap();
        assert_eq!((a.text.as_str(), a.count), ("c b c", 2));
    }

    #[test]
    fn trailing_whitespace_fallback() {
        let text = "fn a() {   \n    x();\n}\n";
        let a = apply(text, "fn a() {\n    x();\n", "fn a() {\n    y();\n", false).unwrap();
        assert_eq!(a.text, "fn a() {\n    y();\n}\n");
        assert_eq!(a.kind, MatchKind::Whitespace);
    }

    #[test]
    fn indentation_fallback_shifts_new_text() {
        let text = "mod m {\n        if x {\n            y();\n        }\n}\n";
        let old = "if x {\n    y();\n}";
        let new = "if x {\n    z();\n    w();\n}";
        let a = apply(text, old, new, false).unwrap();
        assert_eq!(
            a.text,
            "mod m {\n        if x {\n            z();\n            w();\n        }\n}\n"
        );
    }

    #[test]
    fn fuzzy_not_unique() {
        let text = "  a\n  b\n  a\n  b\n";
        let err = apply(text, "a\nb", "c", false).unwrap_err();
        assert_eq!(
            err,
            MatchError::NotUnique {
                count: 2,
                kind: MatchKind::Whitespace
            }
        );
        let a = apply(text, "a\nb", "c", true).unwrap();
        assert_eq!(a.text, "  c\n  c\n");
    }

    #[test]
    fn no_match_shows_closest_region() {
        let text: String = (1..=20).map(|i| format!("let v{i} = {i};\n")).collect();
        let err = apply(&text, "let v10 = 99;", "x", false).unwrap_err();
        let MatchError::NoMatch { closest: Some(c) } = err else {
            panic!("{err:?}");
        };
        assert!(c.contains("    10\tlet v10 = 10;"), "{c}");
        assert!(c.contains("     8\t") && c.contains("    12\t"), "{c}");
    }

    #[test]
    fn nothing_similar() {
        let err = apply("aaaa\n", "zzzzzzzzzz", "x", false).unwrap_err();
        assert_eq!(err, MatchError::NoMatch { closest: None });
    }

    #[test]
    fn closest_on_big_file_uses_shortlist() {
        let text: String = (1..=30_000).map(|i| format!("line number {i}\n")).collect();
        let c = closest_region(&text, "line number 2999x\nline number 3000x").unwrap();
        assert!(c.contains("line number 2999"), "{c}");
    }
}
