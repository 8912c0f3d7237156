//! Finds `@path` imports in instruction text, following Claude Code's
//! convention: an `@` at the start of a line or after whitespace, followed by
//! a path, anywhere in prose but never inside a code span or fenced block.
//!
//! A token counts as a path only when it contains `/` or `.`, so that
//! mentions like "ask @alice" are not treated as missing files.

/// The import paths of `text`, in order of appearance, as written.
pub(crate) fn find_imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for line in text.lines() {
        if let Some(marker) = fence_marker(line) {
            match fence {
                None => fence = Some(marker),
                Some((ch, len)) if marker.0 == ch && marker.1 >= len => fence = None,
                Some(_) => {}
            }
            continue;
        }
        if fence.is_some() {
            continue;
        }
        scan_line(&strip_code_spans(line), &mut out);
    }
    out
}

/// The fence character and run length when `line` opens or closes a fenced
/// code block (up to three spaces of indent).
pub(crate) fn fence_marker(line: &str) -> Option<(char, usize)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let ch = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = rest.chars().take_while(|c| *c == ch).count();
    (len >= 3).then_some((ch, len))
}

/// `line` with the contents of code spans blanked out. A backtick run with
/// no closing run of the same length is literal, as in CommonMark.
fn strip_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|c| **c == '`').count();
        match find_closing(&chars, i + run, run) {
            Some(end) => {
                out.push(' ');
                i = end + run;
            }
            None => {
                out.extend(std::iter::repeat_n('`', run));
                i += run;
            }
        }
    }
    out
}

fn find_closing(chars: &[char], from: usize, run: usize) -> Option<usize> {
    let mut j = from;
    while j < chars.len() {
        if chars[j] == '`' {
            let len = chars[j..].iter().take_while(|c| **c == '`').count();
            if len == run {
                return Some(j);
            }
            j += len;
        } else {
            j += 1;
        }
    }
    None
}

fn scan_line(line: &str, out: &mut Vec<String>) {
    let mut prev_is_space = true;
    let mut iter = line.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        if c == '@' && prev_is_space {
            let rest = &line[i + 1..];
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let token =
                rest[..end].trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']', '"', '\'']);
            if !token.is_empty()
                && !token.starts_with('@')
                && (token.contains('/') || token.contains('.'))
            {
                out.push(token.to_owned());
            }
            // Skip the token so an `@` inside it is not read again.
            while iter.peek().is_some_and(|(_, ch)| !ch.is_whitespace()) {
                iter.next();
            }
            prev_is_space = false;
            continue;
        }
        prev_is_space = c.is_whitespace();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_line_and_inline_imports() {
        let text = "@docs/style.md\nSee @../shared/a.md, and @b.md.\nmail me@x.org or ask @alice";
        assert_eq!(
            find_imports(text),
            ["docs/style.md", "../shared/a.md", "b.md"]
        );
    }

    #[test]
    fn ignores_code_spans_and_fences() {
        let text =
            "use `@not/this.md` here\n```\n@fenced.md\n```\n~~~~\n@also.md\n~~~\n~~~~\n@after.md";
        assert_eq!(find_imports(text), ["after.md"]);
        assert_eq!(find_imports("`` a ` @x.md `` @y.md"), ["y.md"]);
        assert_eq!(find_imports("unclosed ` @z.md"), ["z.md"]);
    }
}
