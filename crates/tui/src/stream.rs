//! A streamed answer, committed line by line: a row goes to the scrollback
//! only once its source line is complete (and, for a table, once the whole
//! table is), so nothing already written ever changes. The text is cut into
//! blocks at blank lines outside code fences; finished blocks are rendered
//! once and dropped, so a long answer costs no more per delta than a short one.
//!
//! The open block is rendered again only when it changed: its complete
//! lines when a newline arrives, its unfinished rows (the tail) when a frame
//! is drawn after new text. Code blocks keep their highlighting between
//! renders ([`CodeCache`]), and rows already committed are counted, not built.

use std::cell::RefCell;

use ratatui::text::Line;

use crate::code::CodeCache;
use crate::markdown;

/// The answer being streamed.
#[derive(Debug, Default)]
pub struct MarkdownStream {
    /// Source of the open block (blocks before it are committed and dropped).
    block: String,
    /// Rows of the open block already committed, at `committed_width`.
    committed_rows: usize,
    /// The width those rows were made at.
    committed_width: u16,
    /// The source they came from: `block[..committed_bytes]` (whole lines).
    committed_bytes: usize,
    /// The committed source's row count at another width (the window was
    /// resized mid-block): that width and the count.
    resized: RefCell<Option<(u16, usize)>>,
    /// Whether any block was committed (a gap goes before the next one).
    started: bool,
    /// Whether the open block is inside a code fence (and its marker).
    fence: Option<String>,
    /// Bytes of `block` already scanned for fences and blank lines.
    scanned: usize,
    /// Code blocks of the open block, highlighted so far.
    code: RefCell<CodeCache>,
    /// Changes whenever `block` or `committed_rows` does.
    version: u64,
    /// The last tail drawn: its version, width and rows.
    tail: RefCell<Option<(u64, u16, Vec<Line<'static>>)>>,
}

impl MarkdownStream {
    /// An empty stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `delta`; returns the rows that became final, wrapped to `width`.
    pub fn push(&mut self, delta: &str, width: u16) -> Vec<Line<'static>> {
        if delta.is_empty() {
            return Vec::new();
        }
        self.block.push_str(delta);
        self.version += 1;
        let mut out = Vec::new();
        // Cut finished blocks at blank lines outside fences.
        while let Some(end) = self.next_line_end() {
            let line = &self.block[self.scanned..end];
            let trimmed = line.trim();
            let fence_marker = fence_of(trimmed);
            match (&self.fence, fence_marker) {
                (None, Some(m)) => self.fence = Some(m),
                (Some(open), Some(m))
                    if m.starts_with(open.as_str()) && trimmed.len() == m.len() =>
                {
                    self.fence = None;
                }
                _ => {}
            }
            self.scanned = end + 1;
            if trimmed.is_empty() && self.fence.is_none() {
                let finished: String = self.block[..self.scanned].to_owned();
                if !finished.trim().is_empty() {
                    out.extend(self.commit_block(&finished, width));
                }
                self.block.drain(..self.scanned);
                self.scanned = 0;
                self.committed_rows = 0;
                self.committed_bytes = 0;
                *self.resized.get_mut() = None;
                self.code.get_mut().clear();
            }
        }
        // In the open block, commit the rows of its complete lines (which
        // change only when a line ends).
        if delta.contains('\n') {
            out.extend(self.commit_complete(width));
        }
        out
    }

    /// Everything left, at the end of the answer.
    pub fn finish(&mut self, width: u16) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        if !self.block.trim().is_empty() {
            // Still in place: a resize since the last commit counts the
            // committed part of it again.
            let rows = self.render(&self.block, width);
            if self.committed_rows == 0 && self.started {
                out.push(Line::default());
            }
            out.extend(rows);
        }
        *self = Self::default();
        out
    }

    /// The rows not yet committed (the partial line, a table being built).
    pub fn tail(&self, width: u16) -> Vec<Line<'static>> {
        if let Some((version, w, rows)) = self.tail.borrow().as_ref()
            && *version == self.version
            && *w == width
        {
            return rows.clone();
        }
        let rows = self.fresh_tail(width);
        *self.tail.borrow_mut() = Some((self.version, width, rows.clone()));
        rows
    }

    fn fresh_tail(&self, width: u16) -> Vec<Line<'static>> {
        if self.block.trim().is_empty() {
            return Vec::new();
        }
        let mut out: Vec<Line<'static>> = Vec::new();
        if self.committed_rows == 0 && self.started {
            out.push(Line::default());
        }
        out.extend(self.render(&self.block, width));
        out
    }

    /// The rows of `source` (the open block or its start) past those committed.
    fn render(&self, source: &str, width: u16) -> Vec<Line<'static>> {
        let skip = self.rows_committed_at(width);
        let mut code = self.code.borrow_mut();
        markdown::render_from(source, width, skip, &mut code)
    }

    /// How many rows the committed source makes at `width`: the count
    /// kept, at the width it was made at; after a resize, counted again
    /// (complete lines render the same however the block goes on), so the
    /// rows after them are neither repeated nor skipped.
    fn rows_committed_at(&self, width: u16) -> usize {
        if self.committed_rows == 0 || width == self.committed_width {
            return self.committed_rows;
        }
        if let Some((w, n)) = *self.resized.borrow()
            && w == width
        {
            return n;
        }
        let source = &self.block[..self.committed_bytes.min(self.block.len())];
        let n = markdown::render_from(source, width, 0, &mut CodeCache::default()).len();
        *self.resized.borrow_mut() = Some((width, n));
        n
    }

    fn next_line_end(&self) -> Option<usize> {
        self.block[self.scanned..]
            .find('\n')
            .map(|i| self.scanned + i)
    }

    fn commit_block(&mut self, source: &str, width: u16) -> Vec<Line<'static>> {
        let rows = self.render(source, width);
        let mut out = Vec::new();
        if self.committed_rows == 0 && self.started && !rows.is_empty() {
            out.push(Line::default());
        }
        out.extend(rows);
        self.started = true;
        out
    }

    fn commit_complete(&mut self, width: u16) -> Vec<Line<'static>> {
        let Some(last_newline) = self.block.rfind('\n') else {
            return Vec::new();
        };
        let complete = &self.block[..=last_newline];
        // A table's columns depend on every row: hold it whole.
        let stable_end = table_start(complete).unwrap_or(complete.len());
        let stable = &complete[..stable_end];
        if stable.trim().is_empty() {
            return Vec::new();
        }
        let rows = self.render(stable, width);
        if rows.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.committed_rows == 0 && self.started {
            out.push(Line::default());
        }
        self.committed_rows = self.rows_committed_at(width) + rows.len();
        self.committed_width = width;
        self.committed_bytes = stable_end;
        *self.resized.get_mut() = None;
        self.version += 1;
        out.extend(rows);
        self.started = true;
        out
    }
}

/// The opening of a trailing table in `text` (its last lines start with
/// `|`), found from the end: a long block costs no more than a short one.
fn table_start(text: &str) -> Option<usize> {
    let mut start = None;
    let mut rest = text;
    while !rest.is_empty() {
        let body = rest.strip_suffix('\n').unwrap_or(rest);
        let line_start = body.rfind('\n').map_or(0, |i| i + 1);
        if !rest[line_start..].trim_start().starts_with('|') {
            break;
        }
        start = Some(line_start);
        rest = &rest[..line_start];
    }
    start
}

/// A code fence marker at the start of a trimmed line: "```" or "~~~" and longer.
fn fence_of(trimmed: &str) -> Option<String> {
    for c in ['`', '~'] {
        let n = trimmed.chars().take_while(|&x| x == c).count();
        if n >= 3 {
            return Some(std::iter::repeat_n(c, n).collect());
        }
    }
    None
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
