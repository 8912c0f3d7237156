//! The completion popup: when it opens (a `/command` typed at the start
//! of the prompt, an `@path` token under the cursor), what it lists, which
//! row is selected, and how it is drawn.

use std::ops::Range;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

use super::CommandEntry;
use super::wrap::width;

/// Rows the popup shows at most; the list scrolls past that.
pub(crate) const MAX_ROWS: usize = 8;

/// What is being completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A `/command` at the start of the prompt.
    Command,
    /// An `@path` mention anywhere.
    File,
    /// The model name after `/model `.
    Model,
}

/// The token under the cursor that can be completed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Trigger {
    pub(crate) kind: Kind,
    /// The whole token, sigil included (what accepting replaces).
    pub(crate) range: Range<usize>,
    /// The token between the sigil and the cursor.
    pub(crate) query: String,
}

/// The completable token at `cursor`, if any.
pub(crate) fn trigger_at(text: &str, cursor: usize) -> Option<Trigger> {
    let is_space = |c: char| c.is_whitespace();
    let start = text[..cursor].rfind(is_space).map_or(0, |i| {
        i + text[i..].chars().next().map_or(1, char::len_utf8)
    });
    let end = text[cursor..]
        .find(is_space)
        .map_or(text.len(), |i| cursor + i);
    let token = &text[start..cursor];
    if start == "/model ".len() && text.starts_with("/model ") {
        return Some(Trigger {
            kind: Kind::Model,
            range: start..end,
            query: token.to_owned(),
        });
    }
    let kind = if start == 0 && token.starts_with('/') {
        Kind::Command
    } else if token.starts_with('@') {
        Kind::File
    } else {
        return None;
    };
    Some(Trigger {
        kind,
        range: start..end,
        query: token[1..].to_owned(),
    })
}

/// One row of the popup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Item {
    /// What the row shows first (`/help`, `src/main.rs`).
    pub(crate) label: String,
    /// Dimmed text after it (a command's description).
    pub(crate) detail: String,
    /// What replaces the token when accepted.
    pub(crate) replacement: String,
}

/// The commands matching `query` (without its `/`): prefix matches in
/// the given order, then names merely containing it.
pub(crate) fn command_items(commands: &[CommandEntry], query: &str) -> Vec<Item> {
    let query = query.to_lowercase();
    let bare = |c: &CommandEntry| c.name.trim_start_matches('/').to_lowercase();
    let prefixed = commands.iter().filter(|c| bare(c).starts_with(&query));
    let containing = commands
        .iter()
        .filter(|c| !bare(c).starts_with(&query) && bare(c).contains(&query));
    prefixed
        .chain(containing)
        .map(|c| Item {
            label: c.name.clone(),
            detail: c.description.clone(),
            replacement: c.name.clone(),
        })
        .collect()
}

/// The model names starting with (then containing) `query`.
pub(crate) fn model_items(models: &[String], query: &str) -> Vec<Item> {
    let query = query.to_lowercase();
    let prefixed = models
        .iter()
        .filter(|m| m.to_lowercase().starts_with(&query));
    let containing = models
        .iter()
        .filter(|m| !m.to_lowercase().starts_with(&query) && m.to_lowercase().contains(&query));
    prefixed
        .chain(containing)
        .map(|m| Item {
            label: m.clone(),
            detail: String::new(),
            replacement: m.clone(),
        })
        .collect()
}

/// `@path` items for paths ranked by the file source.
pub(crate) fn file_items(paths: Vec<String>) -> Vec<Item> {
    paths
        .into_iter()
        .map(|p| Item {
            replacement: format!("@{p}"),
            label: p,
            detail: String::new(),
        })
        .collect()
}

/// An open popup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Popup {
    pub(crate) trigger: Trigger,
    pub(crate) items: Vec<Item>,
    pub(crate) selected: usize,
    /// Shown when there are no items yet (files still being indexed).
    pub(crate) note: Option<String>,
}

impl Popup {
    /// The selected item.
    pub(crate) fn current(&self) -> Option<&Item> {
        self.items.get(self.selected)
    }

    /// Moves the selection down (wrapping).
    pub(crate) fn next(&mut self) {
        if !self.items.is_empty() {
            self.selected = (self.selected + 1) % self.items.len();
        }
    }

    /// Moves the selection up (wrapping).
    pub(crate) fn prev(&mut self) {
        if !self.items.is_empty() {
            self.selected = self.selected.checked_sub(1).unwrap_or(self.items.len() - 1);
        }
    }

    /// Rows it takes on screen.
    pub(crate) fn height(&self) -> usize {
        if self.items.is_empty() {
            usize::from(self.note.is_some())
        } else {
            self.items.len().min(MAX_ROWS)
        }
    }

    /// Draws the rows into `area` (clipped to its height).
    pub(crate) fn render(&self, area: Rect, buf: &mut Buffer) {
        let dim = Style::default().add_modifier(Modifier::DIM);
        if self.items.is_empty() {
            if let Some(note) = &self.note {
                buf.set_stringn(area.x + 2, area.y, note, width_of(area, 2), dim);
            }
            return;
        }
        let rows = usize::from(area.height).min(MAX_ROWS);
        let top = (self.selected + 1).saturating_sub(rows);
        let shown = self.items.iter().enumerate().skip(top).take(rows);
        let label_width = self
            .items
            .iter()
            .map(|i| width(&i.label))
            .max()
            .unwrap_or_default()
            .min(usize::from(area.width) / 2);
        for (y, (i, item)) in (area.y..).zip(shown) {
            let selected = i == self.selected;
            let base = if selected {
                Style::default().add_modifier(Modifier::REVERSED)
            } else {
                Style::default()
            };
            let marker = if selected { "› " } else { "  " };
            let (x, _) = buf.set_stringn(area.x, y, marker, width_of(area, 0), Style::default());
            let room = usize::from(area.right().saturating_sub(x));
            let (mut x, _) = buf.set_stringn(x, y, &item.label, room.min(label_width), base);
            if !item.detail.is_empty() {
                let pad = label_width.saturating_sub(width(&item.label)) + 2;
                x = x.saturating_add(u16::try_from(pad).unwrap_or(u16::MAX));
                let room = usize::from(area.right().saturating_sub(x));
                buf.set_stringn(x.min(area.right()), y, &item.detail, room, dim);
            }
        }
    }
}

/// Cells left in `area` after `indent`.
fn width_of(area: Rect, indent: u16) -> usize {
    usize::from(area.width.saturating_sub(indent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triggers_on_a_leading_slash_and_on_at_tokens() {
        let t = trigger_at("/comp", 5).unwrap();
        assert_eq!(
            (t.kind, t.range, t.query.as_str()),
            (Kind::Command, 0..5, "comp")
        );
        let t = trigger_at("/compact now", 3).unwrap();
        assert_eq!(
            (t.kind, t.range, t.query.as_str()),
            (Kind::Command, 0..8, "co")
        );
        assert_eq!(trigger_at("/compact now", 12), None);
        assert_eq!(trigger_at("a /x", 4), None);
        let t = trigger_at("look at @src/ma please", 15).unwrap();
        assert_eq!(
            (t.kind, t.range, t.query.as_str()),
            (Kind::File, 8..15, "src/ma")
        );
        assert_eq!(trigger_at("mail me@host", 12), None);
        let t = trigger_at("語 @", 5).unwrap();
        assert_eq!((t.range, t.query.as_str()), (4..5, ""));
    }

    #[test]
    fn commands_match_prefix_first_then_substring() {
        let cmds: Vec<CommandEntry> = ["/compact", "/context", "/cost", "/rewind", "/review"]
            .iter()
            .map(|n| CommandEntry {
                name: (*n).into(),
                description: String::new(),
            })
            .collect();
        let names = |q| -> Vec<String> {
            command_items(&cmds, q)
                .into_iter()
                .map(|i| i.label)
                .collect()
        };
        assert_eq!(names("co"), ["/compact", "/context", "/cost"]);
        assert_eq!(names("EW"), ["/rewind", "/review"]);
        assert_eq!(names("t").first().map(String::as_str), Some("/compact"));
        assert!(names("zz").is_empty());
    }

    #[test]
    fn selection_wraps_both_ways() {
        let mut p = Popup {
            trigger: trigger_at("@", 1).unwrap(),
            items: file_items(vec!["a".into(), "b".into()]),
            selected: 0,
            note: None,
        };
        p.prev();
        assert_eq!(p.current().unwrap().replacement, "@b");
        p.next();
        assert_eq!(p.selected, 0);
    }
}
