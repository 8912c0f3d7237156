//! The composer: the prompt editor at the bottom of the screen (editing keys,
//! history, reverse search, paste, completion of `/commands` and `@paths`).
//!
//! Its contract with the app: the app hands it every key and paste while no
//! approval menu is open; the composer answers with a [`ComposerOutcome`] and
//! never talks to the session itself. The app gives it what it completes
//! from ([`Composer::set_commands`], [`Composer::set_file_source`]) and
//! where history lives ([`Composer::with_history`]).
//!
//! Modules: [`text`] (text, cursor, motions), [`edit`] (undo, kill
//! buffer), [`wrap`] (rows and cells), [`keys`] (key bindings), [`render`]
//! (drawing), [`history`], [`search`] (Ctrl-R), [`paste`], [`popup`] and
//! [`files`] (completion).

mod edit;
mod files;
mod history;
mod keys;
mod paste;
mod popup;
mod render;
mod search;
mod text;
mod wrap;

use std::cell::Cell;

pub use files::{DEFAULT_FILE_CAP, FileSource};
pub use history::{DEFAULT_HISTORY_LIMIT, History};
pub use render::MAX_INPUT_ROWS;

use edit::Editor;
use history::HistoryNav;
use paste::Pastes;
use popup::{Kind, Popup};
use search::Search;

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
    /// Ctrl-Q: send this prompt after the running turn, not into it.
    Queue(String),
    /// Ctrl-G: edit the prompt in the person's editor.
    Editor,
}

/// A `/command` the composer can complete, with its one-line description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandEntry {
    /// The name with its slash, e.g. `/compact`.
    pub name: String,
    /// Shown next to it in the completion list.
    pub description: String,
}

/// The dim hint shown in an empty composer.
pub const DEFAULT_PLACEHOLDER: &str = "Ask anything · / commands · @ files · ! shell";

/// The prompt editor.
#[derive(Debug)]
pub struct Composer {
    editor: Editor,
    pastes: Pastes,
    history: History,
    nav: HistoryNav,
    search: Option<Search>,
    commands: Vec<CommandEntry>,
    /// The model names `/model` completes.
    models: Vec<String>,
    files: Option<FileSource>,
    popup: Option<Popup>,
    /// The popup the user closed with Esc (kind and token start): it stays
    /// closed while the cursor is in that token.
    dismissed: Option<(Kind, usize)>,
    /// Whether the file popup was filled before the index was complete
    /// (so [`Composer::tick`] refreshes it).
    files_pending: bool,
    /// The display column Up/Down try to keep.
    goal_col: Option<usize>,
    placeholder: String,
    /// The text width of the last layout, for Up/Down over wrapped rows.
    width: Cell<u16>,
    /// The first input row shown when the text is taller than its rows.
    scroll: Cell<usize>,
}

impl Default for Composer {
    fn default() -> Self {
        Self {
            editor: Editor::default(),
            pastes: Pastes::default(),
            history: History::in_memory(),
            nav: HistoryNav::default(),
            search: None,
            commands: Vec::new(),
            models: Vec::new(),
            files: None,
            popup: None,
            dismissed: None,
            files_pending: false,
            goal_col: None,
            placeholder: DEFAULT_PLACEHOLDER.to_owned(),
            width: Cell::new(0),
            scroll: Cell::new(0),
        }
    }
}

impl Composer {
    /// An empty composer with an in-memory history.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same composer walking (and saving to) `history`.
    pub fn with_history(mut self, history: History) -> Self {
        self.set_history(history);
        self
    }

    /// Replaces the history (e.g. after the project changed).
    pub fn set_history(&mut self, history: History) {
        self.history = history;
        self.nav.reset();
    }

    /// The history, e.g. to show [`History::last_error`].
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The `/commands` Tab completes, in the order listed.
    pub fn set_commands(&mut self, commands: Vec<CommandEntry>) {
        self.commands = commands;
        self.refresh_popup();
    }

    /// The model names `/model ` completes.
    pub fn set_models(&mut self, models: Vec<String>) {
        self.models = models;
    }

    /// Where `@path` completions come from; without one, `@` completes
    /// nothing.
    pub fn set_file_source(&mut self, files: FileSource) {
        self.files = Some(files);
        self.refresh_popup();
    }

    /// The dim hint shown while the composer is empty.
    pub fn set_placeholder(&mut self, placeholder: impl Into<String>) {
        self.placeholder = placeholder.into();
    }

    /// Handles a bracketed paste: kept as one piece of the prompt (a long
    /// one collapsed to a label), its newlines never submit.
    pub fn handle_paste(&mut self, text: &str) {
        if self.search.is_some() {
            self.search = None;
        }
        let text = paste::sanitize(text);
        if text.is_empty() {
            return;
        }
        match self.pastes.collapse(&text) {
            Some(label) => {
                self.editor.buf.set_atoms(self.pastes.labels());
                self.editor.insert(&label);
            }
            None => self.editor.insert(&text),
        }
        self.after_edit();
    }

    /// Whether nothing is typed.
    pub fn is_empty(&self) -> bool {
        self.editor.text().is_empty()
    }

    /// The text as shown (collapsed pastes as their labels).
    pub fn text(&self) -> &str {
        self.editor.text()
    }

    /// The text as it would be submitted (pastes expanded).
    pub fn full_text(&self) -> String {
        self.pastes.expand(self.editor.text())
    }

    /// Whether the completion popup is open.
    pub fn is_popup_open(&self) -> bool {
        self.popup.is_some()
    }

    /// Whether a Ctrl-R search is open.
    pub fn is_searching(&self) -> bool {
        self.search.is_some()
    }

    /// Replaces the text (cursor at its end), as one undo step.
    pub fn set_text(&mut self, text: &str) {
        let text = paste::sanitize(text);
        let end = text.len();
        self.editor.set_text(text, end);
        self.after_edit();
    }

    /// Replaces everything with `text` (what an editor saved): pastes
    /// already expanded in it are plain text now.
    pub fn load(&mut self, text: &str) {
        self.reset();
        self.set_text(text);
    }

    /// Empties the composer (undo brings the text back).
    pub fn clear(&mut self) {
        self.search = None;
        self.editor.set_text(String::new(), 0);
        self.nav.reset();
        self.after_edit();
    }

    /// Takes the full text (pastes expanded) and starts afresh, without
    /// recording it in the history (for an app that queues it).
    pub fn take_text(&mut self) -> String {
        let text = self.full_text();
        self.reset();
        text
    }

    /// Refreshes an `@path` popup filled while the file index was still
    /// being built; the app may call it on each frame (cheap otherwise).
    /// Returns whether the popup changed (the frame must be redrawn).
    pub fn tick(&mut self) -> bool {
        let refresh = self.files_pending && self.popup.is_some();
        if refresh {
            self.refresh_popup();
        }
        refresh
    }

    /// Submits what is typed: the full text goes to the history and out.
    fn submit(&mut self) -> ComposerOutcome {
        match self.take_prompt() {
            Some(text) => ComposerOutcome::Submit(text),
            None => ComposerOutcome::None,
        }
    }

    /// As [`Composer::submit`], for after the running turn.
    fn queue(&mut self) -> ComposerOutcome {
        match self.take_prompt() {
            Some(text) => ComposerOutcome::Queue(text),
            None => ComposerOutcome::None,
        }
    }

    /// The prompt typed, into the history, and the composer emptied.
    fn take_prompt(&mut self) -> Option<String> {
        let text = self.full_text();
        if text.trim().is_empty() {
            return None;
        }
        self.history.push(&text);
        self.reset();
        Some(text)
    }

    fn reset(&mut self) {
        self.editor.reset();
        self.pastes.clear();
        self.editor.buf.set_atoms(Vec::new());
        self.nav.reset();
        self.search = None;
        self.popup = None;
        self.dismissed = None;
        self.goal_col = None;
        self.scroll.set(0);
    }

    /// Bookkeeping after the text changed.
    fn after_edit(&mut self) {
        self.goal_col = None;
        self.refresh_popup();
    }

    /// Opens, updates or closes the popup for the token at the cursor.
    fn refresh_popup(&mut self) {
        let text = self.editor.text();
        let Some(trigger) = popup::trigger_at(text, self.editor.cursor()) else {
            self.popup = None;
            self.dismissed = None;
            return;
        };
        if self.dismissed == Some((trigger.kind, trigger.range.start)) {
            self.popup = None;
            return;
        }
        self.dismissed = None;
        self.files_pending = false;
        let (items, note) = match trigger.kind {
            Kind::Command => (popup::command_items(&self.commands, &trigger.query), None),
            Kind::Model => (popup::model_items(&self.models, &trigger.query), None),
            Kind::File => match &self.files {
                Some(files) => {
                    let items =
                        popup::file_items(files.best_matches(&trigger.query, popup::MAX_ROWS));
                    self.files_pending = !files.is_ready();
                    let note = self.files_pending.then(|| "indexing files…".to_owned());
                    (items, note)
                }
                None => (Vec::new(), None),
            },
        };
        if items.is_empty() && note.is_none() {
            self.popup = None;
            return;
        }
        let selected = match &self.popup {
            Some(old) if old.trigger == trigger => old.selected.min(items.len().saturating_sub(1)),
            _ => 0,
        };
        self.popup = Some(Popup {
            trigger,
            items,
            selected,
            note,
        });
    }
}

#[cfg(test)]
#[path = "keys_tests.rs"]
mod keys_tests;

#[cfg(test)]
#[path = "render_tests.rs"]
mod render_tests;
