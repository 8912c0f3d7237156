//! Unified diffs of file changes for the front end.

/// A unified diff (3 lines of context) from `old` to `new`, labelled with `path`.
pub(crate) fn unified(path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

/// Counts of added and removed lines, for a one-line summary.
pub(crate) fn stats(old: &str, new: &str) -> (usize, usize) {
    let diff = similar::TextDiff::from_lines(old, new);
    let mut added = 0;
    let mut removed = 0;
    for change in diff.iter_all_changes() {
        match change.tag() {
            similar::ChangeTag::Insert => added += 1,
            similar::ChangeTag::Delete => removed += 1,
            similar::ChangeTag::Equal => {}
        }
    }
    (added, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_and_stats() {
        let d = unified("f.txt", "a\nb\n", "a\nc\n");
        assert!(d.contains("--- a/f.txt"));
        assert!(d.contains("-b\n"));
        assert!(d.contains("+c\n"));
        assert_eq!(stats("a\nb\n", "a\nc\nd\n"), (2, 1));
    }
}
