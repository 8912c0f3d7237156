//! Key bindings: what each key does to the composer, in the order the
//! composer's own modes take them (Ctrl-R search, then the completion
//! popup, then plain editing). Readline/Emacs keys as in bash, Claude Code
//! and Codex.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::popup::Kind;
use super::search::Search;
use super::wrap;
use super::{Composer, ComposerOutcome};

/// The modifiers of `key` that matter (Shift is part of the char).
fn mods(key: &KeyEvent) -> (bool, bool, bool) {
    let m = key.modifiers;
    (
        m.contains(KeyModifiers::CONTROL),
        m.contains(KeyModifiers::ALT),
        m.contains(KeyModifiers::SHIFT),
    )
}

impl Composer {
    /// Handles one key press.
    pub fn handle_key(&mut self, key: KeyEvent) -> ComposerOutcome {
        if key.kind == KeyEventKind::Release {
            return ComposerOutcome::None;
        }
        if self.search.is_some() && self.search_key(key) {
            return ComposerOutcome::None;
        }
        if let Some(outcome) = self.popup_key(key) {
            return outcome;
        }
        self.edit_key(key)
    }

    /// Keys of an open Ctrl-R search; false when the key should also be
    /// handled as usual (after accepting the match).
    fn search_key(&mut self, key: KeyEvent) -> bool {
        let (ctrl, alt, _) = mods(&key);
        let Some(search) = self.search.as_mut() else {
            return false;
        };
        let entries = self.history.entries();
        match key.code {
            KeyCode::Char('r') if ctrl => search.older(entries),
            KeyCode::Char('c' | 'g') if ctrl => self.cancel_search(),
            KeyCode::Esc => self.cancel_search(),
            KeyCode::Enter | KeyCode::Tab => self.search = None,
            KeyCode::Backspace => {
                search.query.pop();
                search.refresh(entries);
            }
            KeyCode::Char(c) if !ctrl && !alt => {
                search.query.push(c);
                search.refresh(entries);
            }
            _ => {
                self.search = None;
                return false;
            }
        }
        self.show_search_hit();
        true
    }

    /// Puts the matched entry in the editor, the cursor on the match.
    fn show_search_hit(&mut self) {
        let Some(search) = &self.search else {
            return;
        };
        let Some(entry) = search.hit.and_then(|i| self.history.entries().get(i)) else {
            return;
        };
        let at = entry.find(&search.query).unwrap_or_default();
        let entry = entry.clone();
        self.editor.set_text(entry, at);
        self.suppress_popup();
    }

    /// Keeps the popup closed for the token at the cursor: a recalled
    /// `/command` should not turn the next Up into a popup move.
    fn suppress_popup(&mut self) {
        self.popup = None;
        self.dismissed = super::popup::trigger_at(self.editor.text(), self.editor.cursor())
            .map(|t| (t.kind, t.range.start));
    }

    fn cancel_search(&mut self) {
        if let Some(search) = self.search.take() {
            let (text, cursor) = search.original;
            self.editor.set_text(text, cursor);
        }
    }

    /// Keys of an open popup; `None` lets the key through to editing.
    fn popup_key(&mut self, key: KeyEvent) -> Option<ComposerOutcome> {
        let (ctrl, alt, shift) = mods(&key);
        let popup = self.popup.as_mut()?;
        match key.code {
            KeyCode::Up => popup.prev(),
            KeyCode::Char('p') if ctrl => popup.prev(),
            KeyCode::Down => popup.next(),
            KeyCode::Char('n') if ctrl => popup.next(),
            KeyCode::Esc => {
                self.dismissed = Some((popup.trigger.kind, popup.trigger.range.start));
                self.popup = None;
            }
            KeyCode::Tab => self.accept_completion(true),
            KeyCode::Enter if !shift && !alt => {
                // Enter on a command runs it; on a path it only completes.
                let run = matches!(popup.trigger.kind, Kind::Command | Kind::Model);
                self.accept_completion(!run);
                if run {
                    return Some(self.submit());
                }
            }
            _ => return None,
        }
        Some(ComposerOutcome::None)
    }

    /// Replaces the token with the selected item, then (with `space`) a
    /// space unless one follows already, except after a directory, so its
    /// contents can be picked next.
    fn accept_completion(&mut self, space: bool) {
        let Some(popup) = self.popup.take() else {
            return;
        };
        let Some(item) = popup.current() else {
            return;
        };
        let range = popup.trigger.range.clone();
        let mut replacement = item.replacement.clone();
        let spaced = self.editor.text()[range.end..].starts_with(char::is_whitespace);
        let space = space && !replacement.ends_with('/');
        if space && !spaced {
            replacement.push(' ');
        }
        self.editor.replace(range, &replacement);
        if space && spaced {
            // Step over the existing space, as if it had been typed.
            let next = self.editor.buf.next_boundary(self.editor.cursor());
            self.editor.buf.set_cursor(next);
        }
        self.after_edit();
    }

    /// Editing keys.
    fn edit_key(&mut self, key: KeyEvent) -> ComposerOutcome {
        let (ctrl, alt, shift) = mods(&key);
        let cursor = self.editor.cursor();
        let buf = &self.editor.buf;
        let vertical = matches!(key.code, KeyCode::Up | KeyCode::Down)
            || (ctrl && matches!(key.code, KeyCode::Char('p' | 'n')));
        if !vertical {
            self.goal_col = None;
        }
        match key.code {
            KeyCode::BackTab => return ComposerOutcome::CycleMode,
            KeyCode::Esc => return ComposerOutcome::Escape,
            KeyCode::Enter if shift || alt => self.type_text("\n"),
            KeyCode::Enter if buf.text()[..cursor].ends_with('\\') => {
                self.editor.replace(cursor - 1..cursor, "\n");
                self.after_edit();
            }
            KeyCode::Enter => return self.submit(),
            KeyCode::Char('j') if ctrl => self.type_text("\n"),
            KeyCode::Char('q') if ctrl => return self.queue(),
            KeyCode::Char('g') if ctrl => return ComposerOutcome::Editor,
            KeyCode::Char('c') if ctrl => {
                if self.is_empty() {
                    return ComposerOutcome::CtrlC;
                }
                self.clear();
            }
            KeyCode::Char('d') if ctrl => {
                if self.is_empty() {
                    return ComposerOutcome::Exit;
                }
                self.delete(cursor..buf.next_boundary(cursor));
            }
            KeyCode::Char('r') if ctrl => {
                let text = self.editor.text().to_owned();
                self.search = Some(Search::new(text, cursor));
                self.popup = None;
            }
            KeyCode::Tab => self.complete_on_tab(),
            KeyCode::Up => return self.vertical(false),
            KeyCode::Down => return self.vertical(true),
            KeyCode::Char('p') if ctrl => return self.vertical(false),
            KeyCode::Char('n') if ctrl => return self.vertical(true),
            KeyCode::Left | KeyCode::Right if ctrl || alt => {
                let to = if key.code == KeyCode::Left {
                    buf.word_start_before()
                } else {
                    buf.word_end_after()
                };
                self.move_to(to);
            }
            KeyCode::Char('b') if alt => self.move_to(buf.word_start_before()),
            KeyCode::Char('f') if alt => self.move_to(buf.word_end_after()),
            KeyCode::Left => self.move_to(buf.prev_boundary(cursor)),
            KeyCode::Char('b') if ctrl => self.move_to(buf.prev_boundary(cursor)),
            KeyCode::Right => self.move_to(buf.next_boundary(cursor)),
            KeyCode::Char('f') if ctrl => self.move_to(buf.next_boundary(cursor)),
            KeyCode::Home if ctrl => self.move_to(0),
            KeyCode::End if ctrl => self.move_to(buf.text().len()),
            KeyCode::Home => self.move_to(buf.line_start(cursor)),
            KeyCode::Char('a') if ctrl => self.move_to(buf.line_start(cursor)),
            KeyCode::End => self.move_to(buf.line_end(cursor)),
            KeyCode::Char('e') if ctrl => self.move_to(buf.line_end(cursor)),
            KeyCode::Backspace if ctrl || alt => self.kill(buf.word_start_before()..cursor, false),
            KeyCode::Char('w') if ctrl => self.kill(buf.big_word_start_before()..cursor, false),
            KeyCode::Backspace => self.delete(buf.prev_boundary(cursor)..cursor),
            KeyCode::Char('h') if ctrl => self.delete(buf.prev_boundary(cursor)..cursor),
            KeyCode::Delete if ctrl || alt => self.kill(cursor..buf.word_end_after(), true),
            KeyCode::Char('d') if alt => self.kill(cursor..buf.word_end_after(), true),
            KeyCode::Delete => self.delete(cursor..buf.next_boundary(cursor)),
            KeyCode::Char('k') if ctrl => {
                let end = buf.line_end(cursor);
                // At a line's end, Ctrl-K joins the next line.
                let end = if end == cursor {
                    buf.next_boundary(cursor)
                } else {
                    end
                };
                self.kill(cursor..end, true);
            }
            KeyCode::Char('u') if ctrl => {
                let start = buf.line_start(cursor);
                let start = if start == cursor {
                    buf.prev_boundary(cursor)
                } else {
                    start
                };
                self.kill(start..cursor, false);
            }
            KeyCode::Char('y') if ctrl => {
                self.editor.yank();
                self.after_edit();
            }
            KeyCode::Char('z' | '_' | '7' | '/') if ctrl => {
                self.editor.undo();
                self.after_edit();
            }
            // Ctrl+Alt is AltGr on some keyboards: the char is typed.
            KeyCode::Char(c) if ctrl == alt => self.type_text(c.encode_utf8(&mut [0; 4])),
            _ => {}
        }
        ComposerOutcome::None
    }

    fn type_text(&mut self, s: &str) {
        self.editor.type_str(s);
        self.after_edit();
    }

    fn delete(&mut self, range: std::ops::Range<usize>) {
        self.editor.delete(range);
        self.after_edit();
    }

    fn kill(&mut self, range: std::ops::Range<usize>, forward: bool) {
        self.editor.kill(range, forward);
        self.after_edit();
    }

    fn move_to(&mut self, pos: usize) {
        self.editor.buf.set_cursor(pos);
        self.editor.break_run();
        self.refresh_popup();
    }

    /// Tab without a popup: opens the one for the token at the cursor
    /// (even if Esc closed it); a single match is accepted at once.
    fn complete_on_tab(&mut self) {
        self.dismissed = None;
        self.refresh_popup();
        if self.popup.as_ref().is_some_and(|p| p.items.len() == 1) {
            self.accept_completion(true);
        }
    }

    /// Up/Down: moves between rows of a multi-row prompt; from the first
    /// (last) row, walks the history older (newer).
    fn vertical(&mut self, down: bool) -> ComposerOutcome {
        let text = self.editor.text();
        let width = match self.width.get() {
            0 => u16::MAX,
            w => w,
        };
        let rows = self.rows(width);
        let (row, col) = wrap::cursor_cell(text, &rows, self.editor.cursor());
        let goal = *self.goal_col.get_or_insert(col);
        let target = if down { row + 1 } else { row.wrapping_sub(1) };
        if let Some(range) = rows.get(target) {
            let pos = wrap::offset_at_column(text, range, goal);
            self.editor.buf.set_cursor(pos);
            self.editor.break_run();
            self.refresh_popup();
            return ComposerOutcome::None;
        }
        let current = text.to_owned();
        let entries = self.history.entries();
        let recalled = if down {
            self.nav.newer(entries, &current)
        } else {
            self.nav.older(entries, &current)
        };
        match recalled {
            Some(text) => {
                let end = text.len();
                self.editor.set_text(text, end);
                self.goal_col = None;
                self.suppress_popup();
            }
            None => self.move_to(if down { current.len() } else { 0 }),
        }
        ComposerOutcome::None
    }
}
