//! Word wrapping of styled lines to a terminal width, measuring every
//! character with `unicode-width` so wide characters and emoji take the two
//! columns the terminal gives them. Lines are wrapped once, when made, so a
//! line written to the scrollback is exactly one terminal row.

use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// Columns `text` takes on a terminal.
pub fn width(text: &str) -> usize {
    text.chars().map(char_width).sum()
}

/// Columns one character takes (control characters none: they are never drawn).
fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// Wraps `line` to `width` columns; continuation rows start with `indent`
/// (e.g. the hanging indent of a list item). Breaks at spaces where it can,
/// inside a word when a word is longer than a row.
pub fn wrap(line: Line<'static>, width: u16, indent: &[Span<'static>]) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let indent_width: usize = indent.iter().map(|s| self::width(&s.content)).sum();
    // An indent as wide as the row would leave no room: drop it.
    let indent: &[Span<'static>] = if indent_width + 1 >= width {
        &[]
    } else {
        indent
    };
    let indent_width: usize = indent.iter().map(|s| self::width(&s.content)).sum();
    let style = line.style;
    let mut rows: Vec<Line<'static>> = Vec::new();
    let mut row: Vec<Span<'static>> = Vec::new();
    let mut used = 0usize;
    // Words keep their trailing space so the text round-trips.
    for span in line.spans {
        for word in split_words(&span.content) {
            let word_width = self::width(word);
            let bare_width = word_width - trailing_spaces(word);
            let row_start = if rows.is_empty() { 0 } else { indent_width };
            if used + bare_width > width && used > row_start {
                rows.push(finish(std::mem::take(&mut row), style));
                row.extend_from_slice(indent);
                used = indent_width;
            }
            if used + bare_width <= width {
                // Spaces past the edge are trimmed when the row ends.
                row.push(Span::styled(word.to_owned(), span.style));
                used += word_width;
                continue;
            }
            // Longer than a row: cut it character by character.
            let mut piece = String::new();
            for c in word.trim_end_matches(' ').chars() {
                let w = char_width(c);
                if used + w > width && used > indent_width {
                    if !piece.is_empty() {
                        row.push(Span::styled(std::mem::take(&mut piece), span.style));
                    }
                    rows.push(finish(std::mem::take(&mut row), style));
                    row.extend_from_slice(indent);
                    used = indent_width;
                }
                piece.push(c);
                used += w;
            }
            piece.push_str(&word[word.trim_end_matches(' ').len()..]);
            if !piece.is_empty() {
                row.push(Span::styled(piece, span.style));
            }
            used += trailing_spaces(word);
        }
    }
    rows.push(finish(row, style));
    rows
}

fn trailing_spaces(word: &str) -> usize {
    word.len() - word.trim_end_matches(' ').len()
}

/// Splits into words, each with the spaces after it.
fn split_words(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut start = 0;
    let mut in_space = false;
    for (i, c) in text.char_indices() {
        if c == ' ' {
            in_space = true;
        } else if in_space {
            words.push(&text[start..i]);
            start = i;
            in_space = false;
        }
    }
    if start < text.len() {
        words.push(&text[start..]);
    }
    words
}

/// A finished row without its trailing spaces.
fn finish(mut spans: Vec<Span<'static>>, style: ratatui::style::Style) -> Line<'static> {
    while let Some(last) = spans.last_mut() {
        let trimmed = last.content.trim_end_matches(' ');
        if trimmed.is_empty() {
            spans.pop();
            continue;
        }
        if trimmed.len() != last.content.len() {
            last.content = trimmed.to_owned().into();
        }
        break;
    }
    Line::from(spans).style(style)
}

/// Cuts `text` to at most `max` columns, ending with `…` when cut.
pub fn truncate(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = char_width(c);
        if used + w + 1 > max {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line<'static>]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn wraps_at_spaces_with_a_hanging_indent() {
        let rows = wrap(Line::from("one two three four"), 9, &[Span::raw("  ")]);
        assert_eq!(texts(&rows), ["one two", "  three", "  four"]);
    }

    #[test]
    fn cuts_words_longer_than_a_row() {
        let rows = wrap(Line::from("abcdefghij"), 4, &[]);
        assert_eq!(texts(&rows), ["abcd", "efgh", "ij"]);
    }

    #[test]
    fn wide_characters_take_two_columns() {
        let rows = wrap(Line::from("日本語のテキスト"), 6, &[]);
        assert_eq!(texts(&rows), ["日本語", "のテキ", "スト"]);
        for row in &rows {
            assert!(width(&row.to_string()) <= 6);
        }
        assert_eq!(truncate("🦀🦀🦀", 4), "🦀…");
    }

    #[test]
    fn tiny_widths_never_loop_or_panic() {
        for w in 0..4 {
            let rows = wrap(Line::from("日本 ab  c"), w, &[Span::raw("    ")]);
            assert!(!rows.is_empty());
        }
    }
}
