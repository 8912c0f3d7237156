//! Unified diffs of file changes for the front end. Diffing has a deadline
//! (`similar` falls back to a coarser, still correct diff when it passes),
//! so a large file with many changes never takes quadratic time, and a diff
//! too large to be useful is replaced by a note.

use std::time::Duration;

use similar::{ChangeTag, TextDiff};

/// How long the diff algorithm may search for a minimal diff.
const DEADLINE: Duration = Duration::from_millis(500);

/// Largest diff text kept for display; larger ones become a note.
const MAX_DIFF_BYTES: usize = 1 << 20;

/// A change from `old` to `new`, computed once.
pub(crate) struct Change {
    /// The unified diff, or a "diff omitted" note when it is too large.
    pub text: String,
    /// Lines added.
    pub added: usize,
    /// Lines removed.
    pub removed: usize,
}

/// The diff (3 lines of context) from `old` to `new`, labelled with `path`.
pub(crate) fn change(path: &str, old: &str, new: &str) -> Change {
    let diff = TextDiff::configure().timeout(DEADLINE).diff_lines(old, new);
    let mut added = 0;
    let mut removed = 0;
    for op in diff.ops() {
        for c in diff.iter_changes(op) {
            match c.tag() {
                ChangeTag::Insert => added += 1,
                ChangeTag::Delete => removed += 1,
                ChangeTag::Equal => {}
            }
        }
    }
    let mut text = diff
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string();
    if text.len() > MAX_DIFF_BYTES {
        text = format!(
            "--- a/{path}\n+++ b/{path}\n(diff omitted: +{added} -{removed} lines, {} bytes; \
             too large to show)\n",
            text.len()
        );
    }
    Change {
        text,
        added,
        removed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_and_stats() {
        let c = change("f.txt", "a\nb\n", "a\nc\n");
        assert!(c.text.contains("--- a/f.txt"));
        assert!(c.text.contains("-b\n"));
        assert!(c.text.contains("+c\n"));
        let c = change("f.txt", "a\nb\n", "a\nc\nd\n");
        assert_eq!((c.added, c.removed), (2, 1));
    }

    /// A big file where every other line changes: Myers without a deadline
    /// is quadratic here. The call must come back with a diff or a note.
    #[test]
    fn large_files_with_many_changes_complete() {
        let n = 200_000;
        let old: String = (0..n).map(|i| format!("line {i}\n")).collect();
        let new: String = (0..n)
            .map(|i| {
                if i % 2 == 0 {
                    format!("changed {}\n", i * 7919 % n)
                } else {
                    format!("line {i}\n")
                }
            })
            .collect();
        let c = change("big.txt", &old, &new);
        assert!(c.added >= n / 2 && c.removed >= n / 2);
        assert!(
            c.text.contains("diff omitted") || c.text.contains("@@"),
            "{}",
            &c.text[..c.text.len().min(300)]
        );
    }
}
