//! The composer: the prompt editor at the bottom of the screen (editing keys,
//! history, reverse search, paste, completion of `/commands` and `@paths`).
//!
//! Its contract with the app: the app hands it every key and paste while no
//! approval menu is open; the composer answers with a [`ComposerOutcome`] and
//! never talks to the session itself.

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// What a key press asks the app to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ComposerOutcome {
    /// Nothing for the app; the composer handled it (or ignored it).
    None,
    /// The user sent this prompt (the full text, pastes expanded).
    Submit(String),
    /// Ctrl-C on an empty composer (a non-empty one is cleared instead).
    CtrlC,
    /// Ctrl-D on an empty composer.
    Exit,
    /// Esc with nothing of the composer's own to close (popup, search).
    Escape,
    /// Shift-Tab: cycle the permission mode.
    CycleMode,
}

/// A `/command` the composer can complete, with its one-line description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandEntry {
    /// The name with its slash, e.g. `/compact`.
    pub name: String,
    /// Shown next to it in the completion list.
    pub description: String,
}

/// The prompt editor.
#[derive(Debug, Default)]
pub struct Composer {
    text: String,
}

impl Composer {
    /// An empty composer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Handles one key press.
    pub fn handle_key(&mut self, _key: KeyEvent) -> ComposerOutcome {
        ComposerOutcome::None
    }

    /// Handles a bracketed paste: kept as one piece of the prompt.
    pub fn handle_paste(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// Whether nothing is typed.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Rows the composer wants at this width (input plus any popup).
    pub fn desired_height(&self, _width: u16) -> u16 {
        1
    }

    /// Draws the composer into `area`.
    pub fn render(&self, _area: Rect, _buf: &mut Buffer) {}

    /// Where the terminal cursor goes when the composer is drawn in `area`.
    pub fn cursor_position(&self, area: Rect) -> (u16, u16) {
        (area.x, area.y)
    }
}
