use super::*;

const DOC: &str = "# Plan\n\nFirst **bold** step with `code` and a [link](https://example.com).\nSecond line.\n\n- one\n- two 日本語\n\n```rust\nfn main() {\n\n    println!(\"hi\");\n}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> done 🎉\n";

fn plain(lines: &[Line<'static>]) -> Vec<String> {
    lines.iter().map(|l| l.to_string()).collect()
}

fn streamed(pieces: &[&str], width: u16) -> Vec<String> {
    let mut s = MarkdownStream::new();
    let mut out = Vec::new();
    for p in pieces {
        out.extend(s.push(p, width));
    }
    out.extend(s.finish(width));
    plain(&out)
}

#[test]
fn any_split_gives_the_same_rows() {
    let whole = streamed(&[DOC], 40);
    assert!(whole.contains(&"Plan".to_owned()));
    assert!(whole.iter().any(|l| l.contains("fn main")));
    // Every split point, and byte-by-byte on char boundaries.
    for (i, _) in DOC.char_indices() {
        assert_eq!(streamed(&[&DOC[..i], &DOC[i..]], 40), whole, "split at {i}");
    }
    let chars: Vec<String> = DOC.chars().map(String::from).collect();
    let pieces: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(streamed(&pieces, 40), whole);
}

#[test]
fn a_line_is_committed_only_when_complete() {
    let mut s = MarkdownStream::new();
    assert!(s.push("Hello wor", 40).is_empty());
    assert_eq!(plain(&s.tail(40)), ["Hello wor"]);
    assert_eq!(plain(&s.push("ld\nnext", 40)), ["Hello world"]);
    assert_eq!(plain(&s.tail(40)), ["next"]);
}

#[test]
fn tables_are_held_until_complete() {
    let mut s = MarkdownStream::new();
    assert!(s.push("| a | b |\n|---|---|\n| 1 | 2 |\n", 40).is_empty());
    assert_eq!(s.tail(40).len(), 5);
    let rows = s.push("| 333 | 4 |\n\nafter\n", 40);
    assert_eq!(plain(&rows)[0], "┌─────┬───┐");
    assert_eq!(plain(&rows).last().map(String::as_str), Some("after"));
}

/// Code blocks in a paragraph's block, a list item and a quote, with blank
/// lines inside the fence and a line long enough to wrap.
const CODE_DOC: &str = "Some code:\n```python\ndef f(x):\n    return \"a long string that wraps past the edge\" # note\n\n    pass\n```\n- item\n  ```sh\n  echo hi && ls -la /tmp\n  ```\n\n> quoted\n> ```rust\n> fn a() -> u32 { 1 }\n> ```\n\n~~~\nplain ~~~ text\n~~~\n";

#[test]
fn code_blocks_give_the_same_rows_at_any_split() {
    for width in [16, 40] {
        let whole = {
            let mut s = MarkdownStream::new();
            let mut out = s.push(CODE_DOC, width);
            out.extend(s.finish(width));
            out
        };
        for (i, _) in CODE_DOC.char_indices() {
            let mut s = MarkdownStream::new();
            let mut out = s.push(&CODE_DOC[..i], width);
            out.extend(s.push(&CODE_DOC[i..], width));
            out.extend(s.finish(width));
            assert_eq!(out, whole, "width {width}, split at {i}");
        }
        let mut s = MarkdownStream::new();
        let mut out = Vec::new();
        for c in CODE_DOC.chars() {
            out.extend(s.push(&c.to_string(), width));
        }
        out.extend(s.finish(width));
        assert_eq!(out, whole, "width {width}, char by char");
    }
}

/// The tail drawn from the caches is the tail a fresh render gives.
#[test]
fn cached_tails_match_fresh_renders() {
    for width in [16, 40] {
        let mut s = MarkdownStream::new();
        for c in CODE_DOC.chars() {
            let _ = s.push(&c.to_string(), width);
            let fresh = if s.block.trim().is_empty() {
                Vec::new()
            } else {
                let mut rows = Vec::new();
                if s.committed_rows == 0 && s.started {
                    rows.push(Line::default());
                }
                let all = markdown::render(&s.block, width);
                rows.extend(all.into_iter().skip(s.committed_rows));
                rows
            };
            assert_eq!(s.tail(width), fresh, "width {width}, block {:?}", s.block);
            // Asked again for the same frame: the same rows.
            assert_eq!(s.tail(width), fresh);
        }
    }
}

#[test]
fn resizing_while_a_wrapped_list_streams_keeps_every_item_once() {
    // One block (no blank lines), items long enough to wrap at every width.
    let items: Vec<String> = (1..=12)
        .map(|i| format!("- item{i:02} has a long description that wraps across lines here\n"))
        .collect();
    let mut s = MarkdownStream::new();
    let mut out = Vec::new();
    let widths = [40u16, 24, 60, 18, 80, 30];
    for (n, item) in items.iter().enumerate() {
        let width = widths[n % widths.len()];
        // Each item in pieces, so lines end mid-way through deltas too.
        let (a, b) = item.split_at(item.len() / 2);
        out.extend(s.push(a, width));
        out.extend(s.push(b, width));
    }
    out.extend(s.finish(33));
    let text: String = plain(&out).join(" ");
    for i in 1..=12 {
        let tag = format!("item{i:02}");
        assert_eq!(text.matches(&tag).count(), 1, "{tag} in:\n{text}");
    }
    let words: usize = text.matches("description").count();
    assert_eq!(words, 12, "{text}");
}
