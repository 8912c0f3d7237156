//! Removes HTML comments (`<!-- … -->`) from instruction text before the
//! model sees it: they are notes for the people editing the file (the
//! placeholders `wright init` writes, for one). Fenced code blocks are kept
//! as written, and a `<!--` that is never closed is literal text.

use crate::imports::fence_marker;

/// `text` without its HTML comments. A line that held only comments is
/// removed with its line break.
pub(crate) fn strip_html_comments(text: &str) -> String {
    if !text.contains("<!--") {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<(char, usize)> = None;
    let mut pos = 0;
    while pos < text.len() {
        let end = line_end(text, pos);
        let line = &text[pos..end];
        if let Some(marker) = fence_marker(line.trim_end_matches(['\n', '\r'])) {
            fence = match fence {
                None => Some(marker),
                Some((ch, len)) if marker.0 == ch && marker.1 >= len => None,
                open => open,
            };
            out.push_str(line);
            pos = end;
            continue;
        }
        if fence.is_some() {
            out.push_str(line);
            pos = end;
            continue;
        }
        // One line of output, which a comment may stretch over several lines.
        let mut built = String::new();
        let mut cur = pos;
        let mut had_comment = false;
        loop {
            let end = line_end(text, cur);
            let open = text[cur..end].find("<!--").map(|i| cur + i);
            let close = open.and_then(|s| text[s + 4..].find("-->").map(|e| s + 4 + e + 3));
            match (open, close) {
                (Some(s), Some(after)) => {
                    built.push_str(&text[cur..s]);
                    cur = after;
                    had_comment = true;
                }
                _ => {
                    built.push_str(&text[cur..end]);
                    cur = end;
                    break;
                }
            }
        }
        if !(had_comment && built.trim().is_empty()) {
            out.push_str(&built);
        }
        pos = cur;
    }
    out
}

/// The byte index just past the line starting at `pos` (its `\n` included).
fn line_end(text: &str, pos: usize) -> usize {
    text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1)
}

#[cfg(test)]
mod tests {
    use super::strip_html_comments as strip;

    #[test]
    fn comments_go_and_lines_of_only_comments_with_them() {
        assert_eq!(
            strip("# T\n<!-- note -->\n- Build: `make`\n- Test: <!-- cmd -->\n"),
            "# T\n- Build: `make`\n- Test: \n"
        );
        assert_eq!(strip("a <!-- x --> b <!-- y --> c"), "a  b  c");
    }

    #[test]
    fn multi_line_comments_and_text_after_them() {
        assert_eq!(strip("a\n<!-- one\ntwo -->\nb\n"), "a\nb\n");
        assert_eq!(strip("a <!-- one\ntwo --> b\nc"), "a  b\nc");
    }

    #[test]
    fn fences_and_unclosed_comments_are_kept() {
        let fenced = "```html\n<!-- kept -->\n```\n";
        assert_eq!(strip(fenced), fenced);
        assert_eq!(
            strip("a <!-- never closed\nb\n"),
            "a <!-- never closed\nb\n"
        );
        assert_eq!(strip("plain\n"), "plain\n");
    }
}
