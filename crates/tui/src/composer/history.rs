//! Prompt history: the list Up/Down and Ctrl-R walk, persisted as JSON
//! Lines (`{"text": "..."}` per line, so multi-line prompts survive) at a
//! path the app chooses (one file per project).
//!
//! Reading never fails: a missing file is an empty history, unreadable
//! lines are skipped. Appends are one `write` of one line in append mode,
//! so two wright sessions in the same project interleave whole entries.
//! The file is rewritten down to the newest entries when it grows past
//! twice the limit. A failed write is kept for [`History::last_error`]
//! and never interrupts typing.

use std::collections::HashMap;
use std::fs::{self, OpenOptions};
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};

/// Entries kept by default.
pub const DEFAULT_HISTORY_LIMIT: usize = 1000;

/// Prompts larger than this are not saved (a huge paste would bloat the
/// file and every later load).
const MAX_ENTRY_BYTES: usize = 64 * 1024;

/// At most this much of the end of the file is read (the newest
/// entries); the rest is dropped at the next compaction.
const MAX_READ_BYTES: u64 = 8 * 1024 * 1024;

/// The submitted prompts, oldest first, optionally backed by a file.
#[derive(Debug, Clone)]
pub struct History {
    entries: Vec<String>,
    path: Option<PathBuf>,
    limit: usize,
    /// Lines in the file, to know when to compact it.
    file_lines: usize,
    error: Option<String>,
}

impl Default for History {
    fn default() -> Self {
        Self::in_memory()
    }
}

impl History {
    /// An empty history that is not saved anywhere.
    pub fn in_memory() -> Self {
        Self {
            entries: Vec::new(),
            path: None,
            limit: DEFAULT_HISTORY_LIMIT,
            file_lines: 0,
            error: None,
        }
    }

    /// Loads the history at `path` (a missing or broken file gives what
    /// can be read, possibly nothing) and appends new entries to it.
    pub fn open(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let mut history = Self::in_memory();
        if let Some(bytes) = read_tail(&path) {
            let text = String::from_utf8_lossy(&bytes);
            for line in text.lines() {
                history.file_lines += 1;
                if let Some(entry) = parse_line(line) {
                    history.entries.push(entry);
                }
            }
        }
        history.trim();
        history.path = Some(path);
        history
    }

    /// Keeps at most `limit` entries (at least one).
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = limit.max(1);
        self.trim();
        self
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> &[String] {
        &self.entries
    }

    /// The file this history is saved to, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The last failure to save, as a one-line message for the user.
    pub fn last_error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Records a submitted prompt: blank prompts, a repeat of the newest
    /// entry and prompts over 64 KiB are not recorded.
    pub fn push(&mut self, entry: &str) {
        if entry.trim().is_empty()
            || entry.len() > MAX_ENTRY_BYTES
            || self.entries.last().is_some_and(|last| last == entry)
        {
            return;
        }
        self.entries.push(entry.to_owned());
        self.trim();
        if let Err(e) = self.save(entry) {
            self.error = Some(e);
        }
    }

    fn trim(&mut self) {
        let excess = self.entries.len().saturating_sub(self.limit);
        self.entries.drain(..excess);
    }

    /// Appends `entry` to the file, or rewrites the file with the kept
    /// entries when it has grown past twice the limit.
    fn save(&mut self, entry: &str) -> Result<(), String> {
        let Some(path) = self.path.clone() else {
            return Ok(());
        };
        let fail =
            |e: std::io::Error| format!("cannot save prompt history to {}: {e}", path.display());
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(fail)?;
        }
        if self.file_lines + 1 > self.limit.saturating_mul(2) {
            let body: String = self.entries.iter().map(|e| line_for(e)).collect();
            let tmp = path.with_extension("jsonl.tmp");
            fs::write(&tmp, body).map_err(fail)?;
            fs::rename(&tmp, &path).map_err(fail)?;
            self.file_lines = self.entries.len();
            return Ok(());
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(fail)?;
        file.write_all(line_for(entry).as_bytes()).map_err(fail)?;
        self.file_lines += 1;
        Ok(())
    }
}

/// The last [`MAX_READ_BYTES`] of the file at `path`, starting at a
/// line; `None` when it cannot be read.
fn read_tail(path: &Path) -> Option<Vec<u8>> {
    let mut file = fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let skip = len.saturating_sub(MAX_READ_BYTES);
    file.seek(SeekFrom::Start(skip)).ok()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    if skip > 0 {
        // The first line is probably cut: drop it.
        let start = bytes
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| i + 1);
        bytes.drain(..start);
    }
    Some(bytes)
}

/// One file line for `entry`, newline included.
fn line_for(entry: &str) -> String {
    let mut obj = serde_json::Map::new();
    obj.insert("text".to_owned(), serde_json::Value::from(entry));
    format!("{}\n", serde_json::Value::Object(obj))
}

/// The entry on one file line, if the line is a `{"text": …}` object.
fn parse_line(line: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(line).ok()?;
    let text = value.get("text")?.as_str()?;
    (!text.trim().is_empty()).then(|| text.to_owned())
}

/// Walking the history with Up/Down: remembers the draft that was being
/// typed (given back when walking past the newest entry) and edits made
/// to recalled entries, until the next submit.
#[derive(Debug, Default)]
pub(crate) struct HistoryNav {
    /// The entry shown, or `None` for the draft.
    index: Option<usize>,
    draft: String,
    edits: HashMap<usize, String>,
}

impl HistoryNav {
    /// The text one entry older than what is shown, given what the
    /// composer holds now; `None` at the oldest.
    pub(crate) fn older(&mut self, entries: &[String], current: &str) -> Option<String> {
        let target = match self.index {
            None => entries.len().checked_sub(1)?,
            Some(i) => i.checked_sub(1)?,
        };
        self.remember(entries, current);
        self.index = Some(target);
        Some(self.shown(entries, target))
    }

    /// The text one entry newer, or the draft past the newest; `None`
    /// when the draft is already shown.
    pub(crate) fn newer(&mut self, entries: &[String], current: &str) -> Option<String> {
        let i = self.index?;
        self.remember(entries, current);
        if i + 1 < entries.len() {
            self.index = Some(i + 1);
            Some(self.shown(entries, i + 1))
        } else {
            self.index = None;
            Some(std::mem::take(&mut self.draft))
        }
    }

    /// Forgets the walk (after a submit or a new history).
    pub(crate) fn reset(&mut self) {
        *self = Self::default();
    }

    fn remember(&mut self, entries: &[String], current: &str) {
        match self.index {
            None => self.draft = current.to_owned(),
            Some(i) if entries.get(i).is_some_and(|e| e != current) => {
                self.edits.insert(i, current.to_owned());
            }
            Some(i) => {
                self.edits.remove(&i);
            }
        }
    }

    fn shown(&self, entries: &[String], i: usize) -> String {
        self.edits
            .get(&i)
            .or_else(|| entries.get(i))
            .cloned()
            .unwrap_or_default()
    }
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;
