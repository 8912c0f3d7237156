//! A thread's last few results computed from a text ([`Recent`]).
//!
//! One bash command is examined several times in a row: by the permission
//! engine, by the destructive-command guard inside it, by the tool before it
//! spawns and by the checks around an approval. Parsing (tree-sitter's error
//! recovery on a garbled script above all) and the guard's walk of every
//! nested script are the costly steps, and both depend on the text alone,
//! so each keeps its last few answers per thread.

use std::cell::RefCell;
use std::collections::VecDeque;

/// How many results are kept.
const LEN: usize = 4;
/// Longest text whose result is kept (a longer one is computed every time).
const MAX_TEXT: usize = 64 * 1024;

/// The last [`LEN`] results of a function of a text, newest first. Meant
/// for a `thread_local!`; a hit compares the whole text.
#[derive(Debug, Default)]
pub struct Recent<T> {
    items: RefCell<VecDeque<(String, T)>>,
}

impl<T: Clone> Recent<T> {
    /// An empty memory (const, for `thread_local!`).
    pub const fn new() -> Self {
        Self {
            items: RefCell::new(VecDeque::new()),
        }
    }

    /// The remembered result for `text`, or `compute(text)`, remembered.
    /// `compute` runs with nothing borrowed, so it may use this memory
    /// itself (a nested check).
    pub fn get_or(&self, text: &str, compute: impl FnOnce(&str) -> T) -> T {
        let hit = self.items.try_borrow().ok().and_then(|items| {
            items
                .iter()
                .find(|(known, _)| known == text)
                .map(|(_, value)| value.clone())
        });
        if let Some(value) = hit {
            return value;
        }
        let value = compute(text);
        if text.len() <= MAX_TEXT
            && let Ok(mut items) = self.items.try_borrow_mut()
        {
            items.truncate(LEN - 1);
            items.push_front((text.to_owned(), value.clone()));
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    #[test]
    fn a_repeated_text_is_computed_once() {
        let recent = Recent::new();
        let calls = Cell::new(0);
        let f = |t: &str| {
            calls.set(calls.get() + 1);
            t.len()
        };
        assert_eq!(recent.get_or("abc", f), 3);
        assert_eq!(recent.get_or("abc", f), 3);
        assert_eq!(calls.get(), 1);
        // Only the exact text hits.
        assert_eq!(recent.get_or("abcd", f), 4);
        assert_eq!(recent.get_or("ab", f), 2);
        assert_eq!(calls.get(), 3);
    }

    #[test]
    fn keeps_the_newest_few_and_skips_long_texts() {
        let recent = Recent::new();
        let calls = Cell::new(0);
        let f = |t: &str| {
            calls.set(calls.get() + 1);
            t.to_owned()
        };
        for t in ["a", "b", "c", "d", "e"] {
            recent.get_or(t, f);
        }
        assert_eq!(calls.get(), 5);
        recent.get_or("e", f);
        recent.get_or("b", f);
        assert_eq!(calls.get(), 5, "the last four are kept");
        recent.get_or("a", f);
        assert_eq!(calls.get(), 6, "the oldest was dropped");
        let long = "x".repeat(MAX_TEXT + 1);
        recent.get_or(&long, f);
        recent.get_or(&long, f);
        assert_eq!(calls.get(), 8, "a long text is not kept");
    }

    #[test]
    fn a_nested_use_does_not_panic() {
        let recent: Recent<usize> = Recent::new();
        let outer = recent.get_or("outer", |t| recent.get_or("inner", |i| i.len()) + t.len());
        assert_eq!(outer, 10);
        assert_eq!(recent.get_or("outer", |_| 0), 10);
    }
}
