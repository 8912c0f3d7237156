//! The composer's text and cursor, and where each motion lands: grapheme
//! steps, word jumps, line starts and ends. Collapsed-paste labels are
//! "atoms": one step of the cursor and one Backspace cover a whole label.
//! Nothing here knows about keys or undo; [`super::edit`] builds on it.

use std::ops::Range;

use unicode_segmentation::UnicodeSegmentation;

/// Text plus a cursor (a byte offset, always on a grapheme boundary).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct TextBuffer {
    text: String,
    cursor: usize,
    /// Labels that move and delete as one unit (collapsed pastes).
    atoms: Vec<String>,
}

/// How a character counts for word motions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Space,
    Word,
    Punct,
}

fn class(grapheme: &str) -> Class {
    match grapheme.chars().next() {
        Some(c) if c.is_whitespace() => Class::Space,
        Some(c) if c.is_alphanumeric() || c == '_' => Class::Word,
        _ => Class::Punct,
    }
}

impl TextBuffer {
    /// The whole text.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The cursor's byte offset.
    pub(crate) fn cursor(&self) -> usize {
        self.cursor
    }

    /// Replaces the text and puts the cursor at `cursor` (clamped and
    /// snapped to a boundary).
    pub(crate) fn set(&mut self, text: String, cursor: usize) {
        self.text = text;
        self.set_cursor(cursor);
    }

    /// Moves the cursor, snapping it out of any atom and onto a char
    /// boundary.
    pub(crate) fn set_cursor(&mut self, pos: usize) {
        let mut pos = pos.min(self.text.len());
        while !self.text.is_char_boundary(pos) {
            pos -= 1;
        }
        if let Some(atom) = self.atom_ranges().find(|r| r.start < pos && pos < r.end) {
            pos = atom.end;
        }
        self.cursor = pos;
    }

    /// Declares the labels that act as atoms.
    pub(crate) fn set_atoms(&mut self, atoms: Vec<String>) {
        self.atoms = atoms;
    }

    /// Byte ranges of every atom occurrence in the text.
    pub(crate) fn atom_ranges(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.atoms
            .iter()
            .filter(|a| !a.is_empty())
            .flat_map(|atom| {
                self.text
                    .match_indices(atom.as_str())
                    .map(|(i, m)| i..i + m.len())
            })
    }

    /// Inserts `s` at the cursor and moves the cursor after it.
    pub(crate) fn insert(&mut self, s: &str) {
        self.text.insert_str(self.cursor, s);
        self.cursor += s.len();
    }

    /// Removes `range` (clamped) and returns it; the cursor goes to its
    /// start.
    pub(crate) fn remove(&mut self, range: Range<usize>) -> String {
        let end = range.end.min(self.text.len());
        let start = range.start.min(end);
        let removed: String = self.text.drain(start..end).collect();
        self.cursor = start;
        removed
    }

    /// The boundary one grapheme (or atom) before `pos`.
    pub(crate) fn prev_boundary(&self, pos: usize) -> usize {
        if let Some(atom) = self.atom_ranges().find(|r| r.end == pos && r.start < pos) {
            return atom.start;
        }
        self.text[..pos]
            .grapheme_indices(true)
            .next_back()
            .map_or(0, |(i, _)| i)
    }

    /// The boundary one grapheme (or atom) after `pos`.
    pub(crate) fn next_boundary(&self, pos: usize) -> usize {
        if let Some(atom) = self.atom_ranges().find(|r| r.start == pos && pos < r.end) {
            return atom.end;
        }
        self.text[pos..]
            .graphemes(true)
            .next()
            .map_or(pos, |g| pos + g.len())
    }

    /// The grapheme ending at `pos`, if any.
    fn grapheme_before(&self, pos: usize) -> Option<&str> {
        self.text[..pos].graphemes(true).next_back()
    }

    /// The grapheme starting at `pos`, if any.
    fn grapheme_after(&self, pos: usize) -> Option<&str> {
        self.text[pos..].graphemes(true).next()
    }

    /// Start of the word before the cursor (readline's `backward-word`:
    /// skip anything that is not a word char, then the word).
    pub(crate) fn word_start_before(&self) -> usize {
        let mut pos = self.cursor;
        pos = self.skip_back(pos, |c| c != Class::Word);
        self.skip_back(pos, |c| c == Class::Word)
    }

    /// End of the word after the cursor (readline's `forward-word`).
    pub(crate) fn word_end_after(&self) -> usize {
        let mut pos = self.cursor;
        pos = self.skip_forward(pos, |c| c != Class::Word);
        self.skip_forward(pos, |c| c == Class::Word)
    }

    /// Start of the whitespace-delimited word before the cursor (what
    /// Ctrl-W removes: `unix-word-rubout`).
    pub(crate) fn big_word_start_before(&self) -> usize {
        let pos = self.skip_back(self.cursor, |c| c == Class::Space);
        self.skip_back(pos, |c| c != Class::Space)
    }

    fn skip_back(&self, mut pos: usize, keep: impl Fn(Class) -> bool) -> usize {
        while let Some(g) = self.grapheme_before(pos) {
            if !keep(class(g)) {
                break;
            }
            pos -= g.len();
        }
        pos
    }

    fn skip_forward(&self, mut pos: usize, keep: impl Fn(Class) -> bool) -> usize {
        while let Some(g) = self.grapheme_after(pos) {
            if !keep(class(g)) {
                break;
            }
            pos += g.len();
        }
        pos
    }

    /// Start of the logical line holding `pos`.
    pub(crate) fn line_start(&self, pos: usize) -> usize {
        self.text[..pos].rfind('\n').map_or(0, |i| i + 1)
    }

    /// End of the logical line holding `pos` (before its `\n`).
    pub(crate) fn line_end(&self, pos: usize) -> usize {
        self.text[pos..]
            .find('\n')
            .map_or(self.text.len(), |i| pos + i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buf(text: &str, cursor: usize) -> TextBuffer {
        let mut b = TextBuffer::default();
        b.set(text.to_owned(), cursor);
        b
    }

    #[test]
    fn grapheme_steps_cover_wide_and_combined_chars() {
        let b = buf("a語👍🏽e\u{301}", 0);
        let mut pos = 0;
        let mut stops = vec![];
        while pos < b.text().len() {
            pos = b.next_boundary(pos);
            stops.push(pos);
        }
        assert_eq!(stops, [1, 4, 12, 15]);
        assert_eq!(b.prev_boundary(15), 12);
        assert_eq!(b.prev_boundary(12), 4);
        assert_eq!(b.prev_boundary(0), 0);
    }

    #[test]
    fn word_motions_skip_punctuation_like_readline() {
        let mut b = buf("foo.bar  baz", 12);
        assert_eq!(b.word_start_before(), 9);
        b.set_cursor(9);
        assert_eq!(b.word_start_before(), 4);
        b.set_cursor(4);
        assert_eq!(b.word_start_before(), 0);
        b.set_cursor(0);
        assert_eq!(b.word_end_after(), 3);
        b.set_cursor(3);
        assert_eq!(b.word_end_after(), 7);
        b.set_cursor(7);
        assert_eq!(b.word_end_after(), 12);
    }

    #[test]
    fn big_word_is_whitespace_delimited() {
        let b = buf("git commit -m foo.bar  ", 23);
        assert_eq!(b.big_word_start_before(), 14);
    }

    #[test]
    fn atoms_move_and_snap_as_one_unit() {
        let mut b = buf("x [pasted 9 lines] y", 0);
        b.set_atoms(vec!["[pasted 9 lines]".into()]);
        assert_eq!(b.next_boundary(2), 18);
        assert_eq!(b.prev_boundary(18), 2);
        b.set_cursor(5);
        assert_eq!(b.cursor(), 18);
    }

    #[test]
    fn lines_and_clamping() {
        let mut b = buf("ab\ncd\n", 4);
        assert_eq!((b.line_start(4), b.line_end(4)), (3, 5));
        assert_eq!((b.line_start(6), b.line_end(6)), (6, 6));
        b.set_cursor(99);
        assert_eq!(b.cursor(), 6);
        let mut w = buf("語", 2);
        assert_eq!(w.cursor(), 0);
        w.set_cursor(3);
        assert_eq!(w.cursor(), 3);
    }
}
