//! Editing on top of [`TextBuffer`]: an undo stack of snapshots (typing
//! and deleting runs are grouped, so one undo takes back a word or a kill,
//! not a letter) and a kill buffer for Ctrl-K/U/W and Ctrl-Y.

use std::ops::Range;

use super::text::TextBuffer;

/// Undo snapshots kept; older ones are dropped.
const UNDO_LIMIT: usize = 200;

/// The kind of the previous edit, to group runs of the same kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Last {
    #[default]
    Other,
    Typing,
    Deleting,
    KillForward,
    KillBackward,
}

/// The text being edited, with undo and a kill buffer.
#[derive(Debug, Default)]
pub(crate) struct Editor {
    /// The text and cursor.
    pub(crate) buf: TextBuffer,
    undo: Vec<(String, usize)>,
    kill: String,
    last: Last,
}

impl Editor {
    /// The text.
    pub(crate) fn text(&self) -> &str {
        self.buf.text()
    }

    /// The cursor's byte offset.
    pub(crate) fn cursor(&self) -> usize {
        self.buf.cursor()
    }

    /// Saves the current state for undo, unless this edit continues a run
    /// of typing or deleting.
    fn snapshot(&mut self, kind: Last) {
        let grouped = matches!(kind, Last::Typing | Last::Deleting) && kind == self.last;
        if !grouped {
            if self.undo.len() == UNDO_LIMIT {
                self.undo.remove(0);
            }
            self.undo
                .push((self.buf.text().to_owned(), self.buf.cursor()));
        }
        self.last = kind;
    }

    /// Ends the current run, so the next edit starts a new undo step
    /// (called on cursor motion).
    pub(crate) fn break_run(&mut self) {
        self.last = Last::Other;
    }

    /// Types `s` at the cursor; a run of typing is one undo step, split
    /// at whitespace so undo takes back a word at a time.
    pub(crate) fn type_str(&mut self, s: &str) {
        let starts_word = s.starts_with(char::is_whitespace);
        if starts_word {
            self.last = Last::Other;
        }
        self.snapshot(Last::Typing);
        self.buf.insert(s);
    }

    /// Inserts `s` as its own undo step (a paste, a completion, a yank).
    pub(crate) fn insert(&mut self, s: &str) {
        self.snapshot(Last::Other);
        self.buf.insert(s);
        self.last = Last::Other;
    }

    /// Replaces `range` with `s` as one undo step; the cursor goes after it.
    pub(crate) fn replace(&mut self, range: Range<usize>, s: &str) {
        self.snapshot(Last::Other);
        self.buf.remove(range);
        self.buf.insert(s);
    }

    /// Deletes `range` (Backspace/Delete); runs of deletes group.
    pub(crate) fn delete(&mut self, range: Range<usize>) {
        if range.is_empty() {
            return;
        }
        self.snapshot(Last::Deleting);
        self.buf.remove(range);
    }

    /// Deletes `range` into the kill buffer. Consecutive kills in the same
    /// direction accumulate there, as in readline; each is its own undo
    /// step.
    pub(crate) fn kill(&mut self, range: Range<usize>, forward: bool) {
        if range.is_empty() {
            return;
        }
        let kind = if forward {
            Last::KillForward
        } else {
            Last::KillBackward
        };
        let continuing = self.last == kind;
        self.snapshot(kind);
        let killed = self.buf.remove(range);
        if !continuing {
            self.kill.clear();
        }
        if forward {
            self.kill.push_str(&killed);
        } else {
            self.kill.insert_str(0, &killed);
        }
    }

    /// Inserts the kill buffer at the cursor.
    pub(crate) fn yank(&mut self) {
        if !self.kill.is_empty() {
            let text = self.kill.clone();
            self.insert(&text);
        }
    }

    /// Replaces the whole text (history recall, clearing) as one undo step.
    pub(crate) fn set_text(&mut self, text: String, cursor: usize) {
        if text == self.buf.text() {
            self.buf.set_cursor(cursor);
            return;
        }
        self.snapshot(Last::Other);
        self.buf.set(text, cursor);
    }

    /// Takes back the last edit; false when there is nothing to undo.
    pub(crate) fn undo(&mut self) -> bool {
        self.last = Last::Other;
        match self.undo.pop() {
            Some((text, cursor)) => {
                self.buf.set(text, cursor);
                true
            }
            None => false,
        }
    }

    /// Starts afresh after a submit: empty text and no undo history.
    pub(crate) fn reset(&mut self) {
        self.buf.set(String::new(), 0);
        self.undo.clear();
        self.last = Last::Other;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typing_undoes_a_word_at_a_time() {
        let mut e = Editor::default();
        for c in ["h", "i", " ", "y", "o"] {
            e.type_str(c);
        }
        assert_eq!(e.text(), "hi yo");
        assert!(e.undo());
        assert_eq!(e.text(), "hi");
        assert!(e.undo());
        assert_eq!(e.text(), "");
        assert!(!e.undo());
    }

    #[test]
    fn consecutive_kills_accumulate_and_yank_back() {
        let mut e = Editor::default();
        e.insert("one two three");
        e.kill(8..13, false);
        e.kill(4..8, false);
        assert_eq!(e.text(), "one ");
        e.yank();
        assert_eq!(e.text(), "one two three");
        e.buf.set_cursor(0);
        e.break_run();
        e.kill(0..4, true);
        e.yank();
        e.yank();
        assert_eq!(e.text(), "one one two three");
    }

    #[test]
    fn undo_restores_a_kill_and_cursor() {
        let mut e = Editor::default();
        e.insert("abc def");
        e.kill(3..7, true);
        assert_eq!((e.text(), e.cursor()), ("abc", 3));
        assert!(e.undo());
        assert_eq!((e.text(), e.cursor()), ("abc def", 7));
    }

    #[test]
    fn undo_stack_is_bounded() {
        let mut e = Editor::default();
        for _ in 0..UNDO_LIMIT + 50 {
            e.insert("x");
        }
        let mut n = 0;
        while e.undo() {
            n += 1;
        }
        assert_eq!(n, UNDO_LIMIT);
    }
}
