//! Soft-wrapping the composer's text into screen rows, measured in
//! terminal cells with `unicode-width` per grapheme (what ratatui's buffer
//! uses, so rows and the cursor agree with what is drawn).
//!
//! Rows break after whitespace when they can, else mid-word. A logical
//! line whose last row is exactly full gets an empty row after it, so the
//! cursor at the end of that line has a cell of its own: the row count
//! then never depends on where the cursor is.

use std::ops::Range;

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// Terminal cells `s` takes.
pub(crate) fn width(s: &str) -> usize {
    s.graphemes(true).map(UnicodeWidthStr::width).sum()
}

/// Screen rows of `text` at `width` cells: each a byte range of `text`
/// (without its `\n`). Never empty. Rows do not break at the spaces
/// inside the `keep` ranges (collapsed-paste labels).
pub(crate) fn rows(text: &str, width: u16, keep: &[Range<usize>]) -> Vec<Range<usize>> {
    let width = usize::from(width.max(1));
    let mut rows = Vec::new();
    let mut line_start = 0;
    for line in text.split('\n') {
        wrap_line(line, line_start, width, keep, &mut rows);
        line_start += line.len() + 1;
    }
    rows
}

/// Appends the rows of one logical line starting at byte `offset`.
fn wrap_line(
    line: &str,
    offset: usize,
    width: usize,
    keep: &[Range<usize>],
    rows: &mut Vec<Range<usize>>,
) {
    let mut start = 0;
    let mut used = 0;
    // Byte offset just after the last whitespace in the current row: the
    // preferred place to break.
    let mut after_space: Option<usize> = None;
    for (i, g) in line.grapheme_indices(true) {
        let w = g.width();
        let space = g.chars().all(char::is_whitespace);
        if used + w > width && i > start && !space {
            let cut = after_space
                .filter(|&s| s > start && self::width(&line[s..i]) + w <= width)
                .unwrap_or(i);
            rows.push(offset + start..offset + cut);
            start = cut;
            used = self::width(&line[start..i]);
            after_space = None;
        }
        used += w;
        let kept = keep
            .iter()
            .any(|k| k.start <= offset + i && offset + i < k.end);
        if space && !kept {
            after_space = Some(i + g.len());
        }
        if used > width {
            // A space hanging past the edge, or a wide char alone on a
            // too narrow row: the row ends after it.
            rows.push(offset + start..offset + i + g.len());
            start = i + g.len();
            used = 0;
            after_space = None;
        }
    }
    rows.push(offset + start..offset + line.len());
    if used >= width {
        rows.push(offset + line.len()..offset + line.len());
    }
}

/// The (row, column) of byte offset `cursor` among `rows` of `text`: the
/// last row starting at or before it, so a cursor on a soft break shows at
/// the start of the next row.
pub(crate) fn cursor_cell(text: &str, rows: &[Range<usize>], cursor: usize) -> (usize, usize) {
    let row = rows
        .iter()
        .rposition(|r| r.start <= cursor)
        .unwrap_or_default();
    let start = rows.get(row).map_or(0, |r| r.start);
    let end = cursor.clamp(start, text.len());
    (row, width(text.get(start..end).unwrap_or_default()))
}

/// The byte offset in `row` closest to display column `col` (for Up/Down
/// keeping the column), never inside a grapheme.
pub(crate) fn offset_at_column(text: &str, row: &Range<usize>, col: usize) -> usize {
    let mut used = 0;
    for (i, g) in text[row.clone()].grapheme_indices(true) {
        let w = g.width();
        if used + w > col {
            return row.start + i;
        }
        used += w;
    }
    row.end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(text: &str, width: u16) -> Vec<&str> {
        rows(text, width, &[])
            .into_iter()
            .map(|r| &text[r])
            .collect()
    }

    #[test]
    fn wraps_at_whitespace_and_hard_breaks_long_words() {
        assert_eq!(show("hello big world", 10), ["hello big ", "world"]);
        assert_eq!(show("hello world", 5), ["hello ", "world", ""]);
        assert_eq!(show("abcdefghijkl", 5), ["abcde", "fghij", "kl"]);
        assert_eq!(show("a\n\nb", 5), ["a", "", "b"]);
        assert_eq!(show("", 5), [""]);
    }

    #[test]
    fn kept_ranges_are_not_broken_at_their_spaces() {
        let text = "see [pasted 7 lines]";
        let label = vec![Range { start: 4, end: 20 }];
        let r = rows(text, 12, &label);
        let shown: Vec<&str> = r.into_iter().map(|r| &text[r]).collect();
        assert_eq!(shown, ["see ", "[pasted 7 li", "nes]"]);
        let r = rows(text, 17, &label);
        let shown: Vec<&str> = r.into_iter().map(|r| &text[r]).collect();
        assert_eq!(shown, ["see ", "[pasted 7 lines]"]);
    }

    #[test]
    fn a_full_row_gets_a_cursor_row_after_it() {
        assert_eq!(show("abcde", 5), ["abcde", ""]);
        assert_eq!(show("abcde\nx", 5), ["abcde", "", "x"]);
    }

    #[test]
    fn wide_chars_never_split_and_count_two_cells() {
        assert_eq!(show("語語語", 5), ["語語", "語"]);
        assert_eq!(show("ab👍🏽cd", 3), ["ab", "👍🏽c", "d"]);
        // A wide char on a 1-cell row still takes a row alone.
        assert_eq!(show("語x", 1), ["語", "x", ""]);
    }

    #[test]
    fn cursor_cells_on_wrapped_and_wide_text() {
        let text = "語語語";
        let r = rows(text, 5, &[]);
        assert_eq!(cursor_cell(text, &r, 0), (0, 0));
        assert_eq!(cursor_cell(text, &r, 3), (0, 2));
        assert_eq!(cursor_cell(text, &r, 6), (1, 0));
        assert_eq!(cursor_cell(text, &r, 9), (1, 2));
        let full = "abcde";
        let r = rows(full, 5, &[]);
        assert_eq!(cursor_cell(full, &r, 5), (1, 0));
        let lines = "ab\ncd";
        let r = rows(lines, 5, &[]);
        assert_eq!(cursor_cell(lines, &r, 2), (0, 2));
        assert_eq!(cursor_cell(lines, &r, 3), (1, 0));
    }

    #[test]
    fn column_lookup_lands_on_grapheme_starts() {
        let text = "a語b";
        let row = 0..text.len();
        assert_eq!(offset_at_column(text, &row, 0), 0);
        assert_eq!(offset_at_column(text, &row, 1), 1);
        assert_eq!(offset_at_column(text, &row, 2), 1);
        assert_eq!(offset_at_column(text, &row, 3), 4);
        assert_eq!(offset_at_column(text, &row, 9), 5);
    }
}
