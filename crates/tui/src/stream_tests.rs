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
