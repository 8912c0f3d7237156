//! Listing and searching sessions by streaming their files.
//!
//! Listing avoids parsing every line: our writer emits fields in a fixed
//! order, so a user prompt or a usage entry is recognised by a byte marker
//! and only those lines (the first prompt, usage lines) are parsed.

use std::path::{Path, PathBuf};

use wright_protocol::ContentBlock;

use crate::entry::{EntryBody, EntryId, ForkRef, Header, Line};
use crate::error::Result;
use crate::lines::{BoundedLines, RawLine};
use crate::store::SessionStore;

/// Longest title, in characters.
const TITLE_MAX: usize = 80;
/// Context kept either side of a search match, in bytes.
const SNIPPET_BEFORE: usize = 60;
const SNIPPET_AFTER: usize = 100;

/// Byte markers of a line holding a prompt typed by the user.
const PROMPT_MARKS: [&[u8]; 2] = [
    br#""type":"message","message":{"role":"user","content":[{"type":"text""#,
    br#""type":"message","message":{"role":"user","content":[{"type":"image""#,
];
const USAGE_MARK: &[u8] = br#""type":"usage""#;
const TYPED_MARK: &[u8] = br#""type":"prompt_typed""#;

/// One row of `wright sessions list`.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSummary {
    /// Session id.
    pub id: String,
    /// The first user prompt, one line, at most 80 characters.
    pub title: String,
    /// Working directory.
    pub cwd: PathBuf,
    /// Creation time (RFC 3339).
    pub created: String,
    /// Last write (RFC 3339, from the file's modification time).
    pub updated: String,
    /// Number of user prompts on the current branch (a rewind leaves the
    /// prompts after its point on an abandoned branch, not counted).
    pub turns: usize,
    /// Sum of the recorded request costs, if any cost was recorded.
    pub cost_usd: Option<f64>,
    /// Fork origin, if forked.
    pub parent: Option<ForkRef>,
    /// The session file.
    pub path: PathBuf,
}

/// One search match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchHit {
    /// Session id.
    pub session: String,
    /// Entry holding the match.
    pub entry: EntryId,
    /// One line of text around the match.
    pub snippet: String,
    /// The session file.
    pub path: PathBuf,
}

/// Options of [`SessionStore::search`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// Only this project's sessions (default: all).
    pub project: Option<PathBuf>,
    /// Stop after this many hits (default: no limit).
    pub limit: Option<usize>,
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    find_ci(hay, needle).is_some()
}

/// ASCII-case-insensitive find; `needle` must already be lowercase.
fn find_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    let first = needle[0];
    let last_start = hay.len().checked_sub(needle.len())?;
    (0..=last_start).find(|&i| {
        hay[i].to_ascii_lowercase() == first
            && hay[i..i + needle.len()]
                .iter()
                .zip(needle)
                .all(|(h, n)| h.to_ascii_lowercase() == *n)
    })
}

fn one_line_title(text: &str) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if line.chars().count() <= TITLE_MAX {
        return line.to_string();
    }
    let mut title: String = line.chars().take(TITLE_MAX - 1).collect();
    title.push('…');
    title
}

fn rfc3339(time: std::time::SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(time).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// The entries of a session file as far as counting the current branch's
/// prompts needs: each entry's id, parent and whether it is a prompt.
#[derive(Default)]
struct Branch {
    parents: std::collections::HashMap<String, (Option<String>, bool)>,
    last: Option<String>,
    /// Prompts on lines without a readable id (counted as before).
    loose_prompts: usize,
}

impl Branch {
    fn add(&mut self, line: &[u8], prompt: bool) {
        match entry_ids(line) {
            Some((id, parent)) => {
                self.last = Some(id.clone());
                self.parents.insert(id, (parent, prompt));
            }
            None if prompt => self.loose_prompts += 1,
            None => {}
        }
    }

    /// Prompts from the last entry back to the root (or to the fork point:
    /// inherited entries live in the parent's file).
    fn turns(&self) -> usize {
        let mut turns = self.loose_prompts;
        let mut cursor = self.last.as_deref();
        let mut steps = 0;
        while let Some(id) = cursor {
            let Some((parent, prompt)) = self.parents.get(id) else {
                break;
            };
            turns += usize::from(*prompt);
            steps += 1;
            if steps > self.parents.len() {
                break; // a parent cycle (a hand-edited file)
            }
            cursor = parent.as_deref();
        }
        turns
    }
}

/// `id` and `parent_id` from the start of an entry line, which our writer
/// emits first (`{"id":"…","parent_id":"…"|null,…`); `None` otherwise.
fn entry_ids(line: &[u8]) -> Option<(String, Option<String>)> {
    let rest = line.strip_prefix(br#"{"id":""#)?;
    let end = rest.iter().position(|b| *b == b'"')?;
    let id = std::str::from_utf8(&rest[..end]).ok()?.to_owned();
    let rest = rest[end + 1..].strip_prefix(br#","parent_id":"#)?;
    if rest.starts_with(b"null") {
        return Some((id, None));
    }
    let rest = rest.strip_prefix(b"\"")?;
    let end = rest.iter().position(|b| *b == b'"')?;
    let parent = std::str::from_utf8(&rest[..end]).ok()?.to_owned();
    Some((id, Some(parent)))
}

/// Summarizes one session file.
fn summarize(path: &Path) -> Option<SessionSummary> {
    let file = crate::regular::open_regular(path).ok()?;
    let mut lines = BoundedLines::new(file);
    let header: Option<Header> = match lines.next_line() {
        Ok(Some(RawLine::Text { bytes, .. })) => serde_json::from_slice(bytes).ok(),
        _ => None,
    };
    let id = path.file_stem()?.to_string_lossy().into_owned();
    let mut title = String::new();
    // The first prompt gave the title; a `prompt_typed` entry after it
    // (before the next prompt) replaces it.
    let mut titled = false;
    let mut typed_seen = false;
    let mut branch = Branch::default();
    let mut cost: Option<f64> = None;
    // An oversized line is left out of the summary, as loading skips it;
    // a read error ends the summary with what was read.
    while let Ok(Some(line)) = lines.next_line() {
        let RawLine::Text { bytes: line, .. } = line else {
            continue;
        };
        let prompt = PROMPT_MARKS.iter().any(|m| contains(line, m));
        branch.add(line, prompt);
        if !typed_seen && titled && contains(line, TYPED_MARK) {
            // The first prompt as typed, right after it.
            typed_seen = true;
            if let Ok(Line {
                body: EntryBody::PromptTyped { text },
                ..
            }) = serde_json::from_slice::<Line>(line)
            {
                title = one_line_title(&text);
            }
        }
        if prompt {
            if titled {
                typed_seen = true;
            }
            if title.is_empty()
                && let Ok(Line {
                    body: EntryBody::Message { message },
                    ..
                }) = serde_json::from_slice::<Line>(line)
            {
                title = one_line_title(&crate::load::typed_text(&message));
                titled = true;
            }
        } else if contains(line, USAGE_MARK)
            && let Ok(Line {
                body: EntryBody::Usage {
                    cost_usd: Some(c), ..
                },
                ..
            }) = serde_json::from_slice::<Line>(line)
        {
            *cost.get_or_insert(0.0) += c;
        }
    }
    let updated = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .map(rfc3339)
        .unwrap_or_default();
    let (cwd, created, parent) = match header {
        Some(h) => (h.cwd, h.created, h.parent),
        None => (PathBuf::new(), String::new(), None),
    };
    Some(SessionSummary {
        id,
        title,
        cwd,
        created,
        updated,
        turns: branch.turns(),
        cost_usd: cost,
        parent,
        path: path.to_path_buf(),
    })
}

/// The searchable texts of an entry.
fn texts(body: &EntryBody) -> Vec<&str> {
    match body {
        EntryBody::Message { message } => message
            .content
            .iter()
            .flat_map(|b| match b {
                ContentBlock::Text { text } => vec![text.as_str()],
                ContentBlock::Thinking { thinking, .. } => vec![thinking.as_str()],
                ContentBlock::ToolCall {
                    name, arguments, ..
                } => vec![name.as_str(), arguments.as_str()],
                ContentBlock::ToolResult { content, .. } => vec![content.as_str()],
                ContentBlock::Image { .. }
                | ContentBlock::RedactedThinking { .. }
                | ContentBlock::Opaque { .. } => vec![],
            })
            .collect(),
        EntryBody::Compaction { summary, .. } => vec![summary.as_str()],
        EntryBody::Label { label, .. } => vec![label.as_str()],
        _ => Vec::new(),
    }
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn snippet(text: &str, at: usize, len: usize) -> String {
    let start = floor_boundary(text, at.saturating_sub(SNIPPET_BEFORE));
    let end = floor_boundary(text, (at + len + SNIPPET_AFTER).min(text.len()));
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(
        text[start..end]
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c }),
    );
    if end < text.len() {
        out.push('…');
    }
    out
}

impl SessionStore {
    /// Summaries of the sessions of `project` (or all), newest first.
    pub fn list(&self, project: Option<&Path>) -> Vec<SessionSummary> {
        let mut rows: Vec<SessionSummary> = self
            .session_files(project)
            .iter()
            .filter_map(|p| summarize(p))
            .collect();
        rows.sort_by(|a, b| b.updated.cmp(&a.updated).then_with(|| b.id.cmp(&a.id)));
        rows
    }

    /// Case-insensitive (ASCII) substring search over every message, tool
    /// call, tool result, summary and label, newest sessions first. Text
    /// stored out of line (blobs) is not searched.
    pub fn search(&self, text: &str, options: &SearchOptions) -> Result<Vec<SearchHit>> {
        let needle = text.to_ascii_lowercase();
        // Lines hold JSON-escaped text; prefilter on the escaped form.
        let escaped = serde_json::to_string(&needle).unwrap_or_default();
        let escaped = escaped
            .get(1..escaped.len().saturating_sub(1))
            .unwrap_or_default()
            .as_bytes()
            .to_vec();
        let limit = options.limit.unwrap_or(usize::MAX);
        let mut hits = Vec::new();
        if needle.is_empty() || limit == 0 {
            return Ok(hits);
        }
        let mut files = self.session_files(options.project.as_deref());
        files.sort_by_cached_key(|p| {
            std::cmp::Reverse(
                std::fs::metadata(p)
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH),
            )
        });
        for path in files {
            let Ok(file) = crate::regular::open_regular(&path) else {
                continue;
            };
            let session = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let mut lines = BoundedLines::new(file);
            while let Ok(Some(line)) = lines.next_line() {
                let RawLine::Text { bytes: line, .. } = line else {
                    continue;
                };
                if !contains(line, &escaped) {
                    continue;
                }
                let Ok(parsed) = serde_json::from_slice::<Line>(line) else {
                    continue;
                };
                let found = texts(&parsed.body).into_iter().find_map(|t| {
                    find_ci(t.as_bytes(), needle.as_bytes()).map(|at| snippet(t, at, needle.len()))
                });
                if let Some(snippet) = found {
                    hits.push(SearchHit {
                        session: session.clone(),
                        entry: parsed.id,
                        snippet,
                        path: path.clone(),
                    });
                    if hits.len() >= limit {
                        return Ok(hits);
                    }
                }
            }
        }
        Ok(hits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_the_prompt_as_typed() {
        use wright_protocol::{ContentBlock, Message, Role};
        let with_context = Message {
            role: Role::User,
            content: vec![
                ContentBlock::Text {
                    text: "fix the bug".into(),
                },
                ContentBlock::Text {
                    text: "SessionStart hook context: branch main".into(),
                },
            ],
        };
        assert_eq!(crate::load::typed_text(&with_context), "fix the bug");
        let shell = Message::user_text(
            "<bash-input>git status</bash-input>\n<bash-stdout>clean</bash-stdout>",
        );
        assert_eq!(crate::load::typed_text(&shell), "!git status");
    }

    #[test]
    fn titles_are_one_short_line() {
        assert_eq!(one_line_title("\n  fix the bug \nplease"), "fix the bug");
        let long = "é".repeat(200);
        let title = one_line_title(&long);
        assert_eq!(title.chars().count(), TITLE_MAX);
        assert!(title.ends_with('…'));
    }

    #[test]
    fn entry_ids_read_the_line_start() {
        assert_eq!(
            entry_ids(br#"{"id":"a1","parent_id":null,"ts":"t"}"#),
            Some(("a1".to_owned(), None))
        );
        assert_eq!(
            entry_ids(br#"{"id":"b2","parent_id":"a1","ts":"t"}"#),
            Some(("b2".to_owned(), Some("a1".to_owned())))
        );
        assert_eq!(entry_ids(br#"{"type":"session"}"#), None);
    }

    #[test]
    fn only_the_current_branch_counts() {
        let mut b = Branch::default();
        b.add(br#"{"id":"p1","parent_id":null}"#, true);
        b.add(br#"{"id":"a1","parent_id":"p1"}"#, false);
        b.add(br#"{"id":"p2","parent_id":"a1"}"#, true);
        b.add(br#"{"id":"a2","parent_id":"p2"}"#, false);
        // A rewind to before p2, then a new prompt.
        b.add(br#"{"id":"r","parent_id":"a1"}"#, false);
        b.add(br#"{"id":"p3","parent_id":"r"}"#, true);
        assert_eq!(b.turns(), 2);
        // A rewind to before the first prompt: nothing left.
        b.add(br#"{"id":"r0","parent_id":null}"#, false);
        assert_eq!(b.turns(), 0);
    }

    #[test]
    fn case_insensitive_find() {
        assert_eq!(find_ci(b"Hello World", b"world"), Some(6));
        assert_eq!(find_ci(b"abc", b"abcd"), None);
    }

    #[test]
    fn snippets_respect_char_boundaries() {
        let text = format!("{}needle{}", "ü".repeat(100), "ö\n".repeat(100));
        let at = text.find("needle").unwrap();
        let s = snippet(&text, at, 6);
        assert!(s.contains("needle"));
        assert!(!s.contains('\n'));
    }
}
