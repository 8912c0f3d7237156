//! Reading a session file back: tolerant parsing (torn or corrupt lines,
//! entries of unknown types and entries whose parent is missing become
//! warnings, and never cost the history around them), fork ancestry, and
//! the views the core needs: the conversation on the current branch, the
//! user turns, the usage total.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

// Entry ids are hashed several times per entry while a session loads
// (duplicates, reattaching, the branch walk); SipHash was a visible part
// of `--resume`. foldhash is still seeded per process.
use foldhash::{HashMap, HashSet, HashSetExt};

use wright_protocol::{ContentBlock, Message, Role, Usage};

use crate::blob;
use crate::entry::{
    BlobRef, Entry, EntryBody, EntryId, FORMAT_VERSION, Header, KNOWN_TYPES, Line, Probe,
};
use crate::error::{Result, StoreError};
use crate::legacy;
use crate::lines::{BoundedLines, MAX_LINE, RawLine, describe_size};
use crate::repair::repair;

/// How deep a chain of forks may go before loading stops. A loop is caught
/// earlier, by the chain of files being loaded; this bounds a long chain of
/// distinct files.
const MAX_FORK_DEPTH: usize = 64;

/// A session as read from disk.
#[derive(Debug, Clone)]
pub struct LoadedSession {
    /// The header line.
    pub header: Header,
    /// The session file.
    pub path: PathBuf,
    /// This file's entries, in file order (blobs restored).
    pub entries: Vec<Entry>,
    /// For a fork: the parent's entries from its root to the fork point.
    pub inherited: Vec<Entry>,
    /// What was skipped or repaired, for the user to see.
    pub warnings: Vec<String>,
    /// Blob directories, this session's first, then its fork ancestors'.
    pub(crate) blob_dirs: Vec<PathBuf>,
}

/// One user prompt, for a rewind picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserTurn {
    /// The message entry.
    pub entry: EntryId,
    /// The entry before it (where "rewind to before this turn" returns).
    pub parent_id: Option<EntryId>,
    /// The prompt text.
    pub text: String,
    /// When it was sent.
    pub ts: String,
    /// The id the program that sent it gave it (an Agent SDK user
    /// message's uuid), when it gave one.
    pub uuid: Option<String>,
}

/// The prompt as the user typed it: the message's first text (context
/// that hooks added comes after it), and a `!cmd` as typed rather than
/// the `<bash-input>` block the model gets.
pub(crate) fn typed_text(message: &wright_protocol::Message) -> String {
    let first = message
        .content
        .iter()
        .find_map(|b| match b {
            wright_protocol::ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .unwrap_or_default();
    match first
        .strip_prefix("<bash-input>")
        .and_then(|rest| rest.split_once("</bash-input>"))
    {
        Some((command, _)) => format!("!{command}"),
        None => first.to_owned(),
    }
}

/// Whether a message is a prompt typed by the user (not tool results).
pub(crate) fn is_user_prompt(message: &Message) -> bool {
    message.role == Role::User
        && !message
            .content
            .iter()
            .any(|b| matches!(b, ContentBlock::ToolResult { .. }))
        && message
            .content
            .iter()
            .any(|b| matches!(b, ContentBlock::Text { .. }))
}

impl LoadedSession {
    /// The session id.
    pub fn id(&self) -> &str {
        &self.header.id
    }

    /// The current leaf: the last entry of this file, or the fork point.
    pub fn leaf(&self) -> Option<&EntryId> {
        self.entries
            .last()
            .map(|e| &e.id)
            .or_else(|| self.header.parent.as_ref().and_then(|p| p.entry.as_ref()))
    }

    /// Every entry, inherited ones first: what [`path_positions`] indexes.
    fn all(&self) -> impl Iterator<Item = &Entry> {
        self.inherited.iter().chain(&self.entries)
    }

    /// An entry of this session's tree (inherited ones included).
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries
            .iter()
            .rev()
            .chain(self.inherited.iter().rev())
            .find(|e| e.id == id)
    }

    /// The entries from the root to `id` inclusive (empty for `None` or an unknown id).
    pub fn path_to(&self, id: Option<&str>) -> Vec<&Entry> {
        let all: Vec<&Entry> = self.all().collect();
        path_positions(&all, id)
            .into_iter()
            .map(|at| all[at])
            .collect()
    }

    /// The entries from the root to the current leaf.
    pub fn current_path(&self) -> Vec<&Entry> {
        self.path_to(self.leaf().map(String::as_str))
    }

    /// The conversation to send next: the current branch's messages, with
    /// the latest compaction applied and dangling tool calls answered.
    pub fn history(&self) -> Vec<Message> {
        messages_on(self.current_path(), |e| match &e.body {
            EntryBody::Message { message } => Some(message.clone()),
            _ => None,
        })
    }

    /// [`Self::history`], moving the messages out instead of copying them
    /// (a long session's history is most of its memory).
    pub fn into_history(self) -> Vec<Message> {
        let positions = {
            let all: Vec<&Entry> = self.all().collect();
            path_positions(&all, self.leaf().map(String::as_str))
        };
        let mut all: Vec<Option<Entry>> = self
            .inherited
            .into_iter()
            .chain(self.entries)
            .map(Some)
            .collect();
        let path: Vec<Entry> = positions
            .into_iter()
            .filter_map(|at| all.get_mut(at).and_then(Option::take))
            .collect();
        messages_on(path, |e| match e.body {
            EntryBody::Message { message } => Some(message),
            _ => None,
        })
    }

    /// The conversation as it stood at `entry`.
    pub fn history_at(&self, entry: &str) -> Vec<Message> {
        messages_on(self.path_to(Some(entry)), |e| match &e.body {
            EntryBody::Message { message } => Some(message.clone()),
            _ => None,
        })
    }

    /// The user prompts on the current branch, oldest first, each with
    /// the program's id of it when a `message_uuid` entry follows it.
    pub fn user_turns(&self) -> Vec<UserTurn> {
        let mut turns: Vec<UserTurn> = Vec::new();
        // The entries right after the last prompt that speak of it (its
        // uuid, its typed form), each the parent of the next.
        let mut about_last: Vec<String> = Vec::new();
        for e in self.current_path() {
            let follows = |turns: &[UserTurn], about: &[String]| {
                turns.last().is_some_and(|t| {
                    e.parent_id.as_deref() == Some(t.entry.as_str())
                        || about.last().map(String::as_str) == e.parent_id.as_deref()
                })
            };
            match &e.body {
                EntryBody::Message { message } if is_user_prompt(message) => {
                    about_last.clear();
                    turns.push(UserTurn {
                        entry: e.id.clone(),
                        parent_id: e.parent_id.clone(),
                        text: typed_text(message),
                        ts: e.ts.clone(),
                        uuid: None,
                    });
                }
                EntryBody::MessageUuid { uuid } => {
                    if follows(&turns, &about_last)
                        && let Some(turn) = turns.last_mut()
                    {
                        turn.uuid = Some(uuid.clone());
                        about_last.push(e.id.clone());
                    }
                }
                EntryBody::PromptTyped { text } => {
                    if follows(&turns, &about_last)
                        && let Some(turn) = turns.last_mut()
                    {
                        turn.text.clone_from(text);
                        about_last.push(e.id.clone());
                    }
                }
                _ => {}
            }
        }
        turns
    }

    /// Usage and cost summed over every usage entry of this file.
    pub fn usage_total(&self) -> (Usage, f64) {
        let mut total = Usage::default();
        let mut cost = 0.0;
        for e in &self.entries {
            if let EntryBody::Usage {
                usage, cost_usd, ..
            } = &e.body
            {
                total.add(usage);
                cost += cost_usd.unwrap_or(0.0);
            }
        }
        (total, cost)
    }
}

/// [`LoadedSession::path_to`] as positions in `all` (every entry, inherited
/// ones first); a later entry with the same id wins.
fn path_positions(all: &[&Entry], id: Option<&str>) -> Vec<usize> {
    let index: HashMap<&str, usize> = all
        .iter()
        .enumerate()
        .map(|(at, e)| (e.id.as_str(), at))
        .collect();
    let mut path = Vec::new();
    let mut cursor = id;
    while let Some(current) = cursor {
        let Some(&at) = index.get(current) else {
            break;
        };
        path.push(at);
        if path.len() > index.len() {
            // A parent cycle can only come from a hand-edited file.
            break;
        }
        cursor = all[at].parent_id.as_deref();
    }
    path.reverse();
    path
}

/// The messages of `path` (entries root first), with its latest compaction
/// applied and the result repaired; `message` takes an entry's message, by
/// copy or by move.
fn messages_on<E: Borrow<Entry>>(
    path: Vec<E>,
    message: impl Fn(E) -> Option<Message>,
) -> Vec<Message> {
    let compaction = path
        .iter()
        .rposition(|e| matches!(e.borrow().body, EntryBody::Compaction { .. }));
    let Some(at) = compaction else {
        return repair(path.into_iter().filter_map(message).collect());
    };
    let EntryBody::Compaction {
        summary,
        first_kept,
        messages_follow,
        ..
    } = &path[at].borrow().body
    else {
        return Vec::new();
    };
    // The summary stands in for what came before; with `messages_follow`
    // the whole compacted conversation comes after the compaction entry.
    let (summary, kept_from) = if *messages_follow {
        (None, at)
    } else {
        let kept_from = first_kept
            .as_deref()
            .and_then(|k| path[..at].iter().position(|e| e.borrow().id == k))
            .unwrap_or(at);
        (Some(Message::user_text(summary.clone())), kept_from)
    };
    let mut out: Vec<Message> = summary.into_iter().collect();
    out.extend(
        path.into_iter()
            .enumerate()
            .filter(|(i, _)| *i >= kept_from && *i != at)
            .filter_map(|(_, e)| message(e)),
    );
    repair(out)
}

/// The blob directory beside a session file: `<id>.blobs`.
pub(crate) fn blob_dir_of(path: &Path) -> PathBuf {
    path.with_extension("blobs")
}

/// Parses one session file (no fork ancestry). Never fails on content,
/// only on I/O: bad lines become warnings.
pub(crate) fn parse_file(path: &Path) -> Result<(Header, Vec<Entry>, Vec<String>)> {
    let file =
        crate::regular::open_regular(path).map_err(|e| StoreError::io("reading", path, e))?;
    let mut lines = BoundedLines::new(file);
    let mut warnings = Vec::new();
    let blob_dirs = vec![blob_dir_of(path)];
    let file_id = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut header = None;
    let mut entries = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    // Unknown entry types: the first line and how many, per type.
    let mut unknown: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut number = 0;
    while let Some(line) = lines
        .next_line()
        .map_err(|e| StoreError::io("reading", path, e))?
    {
        number += 1;
        let (raw, terminated) = match line {
            RawLine::Text { bytes, terminated } => (bytes, terminated),
            RawLine::Oversized { len, .. } => {
                warnings.push(format!(
                    "line {number}: skipped an entry of {} (above the {} MiB limit of a session line)",
                    describe_size(len),
                    MAX_LINE >> 20
                ));
                continue;
            }
        };
        // Only the last line can lack its newline.
        let torn = !terminated;
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if number == 1 {
            match serde_json::from_slice::<Header>(raw) {
                Ok(h) if h.kind == "session" => {
                    if h.version > FORMAT_VERSION {
                        warnings.push(format!(
                            "session written by a newer wright (format {}); unknown parts are ignored",
                            h.version
                        ));
                    }
                    header = Some(h);
                    continue;
                }
                _ => warnings.push("line 1: the session header is unreadable".to_string()),
            }
        }
        match parse_entry(raw, &blob_dirs, &mut warnings) {
            // Entries are appended, never rewritten, so the first entry
            // with an id is the original; a later one (a hand edit, a
            // botched merge) would otherwise shadow it and lose history.
            Some(entry) if !seen.insert(entry.id.clone()) => warnings.push(format!(
                "line {number}: skipped a second entry with id {}",
                entry.id
            )),
            Some(entry) => {
                if let EntryBody::Unknown { kind, .. } = &entry.body {
                    unknown.entry(kind.clone()).or_insert((number, 0)).1 += 1;
                }
                entries.push(entry);
            }
            None if torn => warnings.push(format!(
                "line {number}: skipped an incomplete last line (the session was interrupted while writing)"
            )),
            None => warnings.push(format!("line {number}: skipped a corrupt line")),
        }
    }
    for (kind, (first, count)) in unknown {
        let more = if count > 1 {
            format!(" and {} more", count - 1)
        } else {
            String::new()
        };
        warnings.push(format!(
            "line {first}{more}: ignored entries of unknown type '{kind}' (written by a newer wright?)"
        ));
    }
    let header = header.unwrap_or_else(|| Header {
        kind: "session".to_string(),
        version: FORMAT_VERSION,
        id: file_id.clone(),
        cwd: PathBuf::new(),
        created: String::new(),
        model: String::new(),
        provider: String::new(),
        parent: None,
        agent: None,
    });
    // A subagent's file is named after its agent, not its id.
    let header = if header.id == file_id || file_id.is_empty() || header.agent.is_some() {
        header
    } else {
        // The file name is what users resume by; it wins over a copied header.
        Header {
            id: file_id,
            ..header
        }
    };
    Ok((header, entries, warnings))
}

/// The two entry types that make up nearly all of a long session
/// (messages and usage), read in one pass. [`Line`]'s flattened, internally
/// tagged body makes serde buffer every line into a generic tree and read
/// it again, which was most of the cost of `--continue`; any other type, or
/// a line this shape does not fit, takes the general path.
#[derive(serde::Deserialize)]
struct CommonLine {
    id: EntryId,
    #[serde(default)]
    parent_id: Option<EntryId>,
    #[serde(default)]
    ts: String,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    message: Option<Message>,
    #[serde(default)]
    usage: Option<Usage>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    cost_usd: Option<f64>,
    #[serde(default)]
    blobs: Vec<BlobRef>,
}

/// A message or usage line as a [`Line`], when it is one.
fn common_line(raw: &[u8]) -> Option<Line> {
    let line = serde_json::from_slice::<CommonLine>(raw).ok()?;
    let body = match (line.kind.as_str(), line.message, line.usage, line.model) {
        ("message", Some(message), _, _) => EntryBody::Message { message },
        ("usage", None, Some(usage), Some(model)) => EntryBody::Usage {
            usage,
            model,
            cost_usd: line.cost_usd,
        },
        _ => return None,
    };
    Some(Line {
        id: line.id,
        parent_id: line.parent_id,
        ts: line.ts,
        body,
        blobs: line.blobs,
    })
}

fn parse_entry(raw: &[u8], blob_dirs: &[PathBuf], warnings: &mut Vec<String>) -> Option<Entry> {
    let parsed = match common_line(raw) {
        Some(line) => Ok(line),
        None => serde_json::from_slice::<Line>(raw),
    };
    match parsed {
        Ok(line) => {
            let mut body = line.body;
            if let EntryBody::Message { message } = &mut body {
                if !line.blobs.is_empty() {
                    blob::restore(message, &line.blobs, blob_dirs, warnings);
                }
                legacy::upgrade_tool_calls(message);
            }
            Some(Entry {
                id: line.id,
                parent_id: line.parent_id,
                ts: line.ts,
                body,
            })
        }
        Err(_) => {
            let probe = serde_json::from_slice::<Probe>(raw).ok()?;
            if KNOWN_TYPES.contains(&probe.kind.as_str()) {
                return None;
            }
            let raw = serde_json::from_slice(raw).ok()?;
            Some(Entry {
                id: probe.id,
                parent_id: probe.parent_id,
                ts: probe.ts,
                body: EntryBody::Unknown {
                    kind: probe.kind,
                    raw,
                },
            })
        }
    }
}

/// Loads a session and, for a fork, the parent path it continues.
/// `locate` maps a session id to its file.
pub(crate) fn load_tree(
    path: &Path,
    locate: &dyn Fn(&str) -> Option<PathBuf>,
) -> Result<LoadedSession> {
    load_depth(path, locate, &[])
}

/// Loads `path`; `chain` holds the files whose loading led here (a fork's
/// children), so a parent that points back into it is a loop.
fn load_depth(
    path: &Path,
    locate: &dyn Fn(&str) -> Option<PathBuf>,
    chain: &[&Path],
) -> Result<LoadedSession> {
    let (header, entries, warnings) = parse_file(path)?;
    Ok(attach_parent(
        header, path, entries, warnings, locate, chain,
    ))
}

/// A session whose header is not on disk yet (a fresh fork).
pub(crate) fn load_unwritten(
    header: Header,
    path: &Path,
    locate: &dyn Fn(&str) -> Option<PathBuf>,
) -> LoadedSession {
    attach_parent(header, path, Vec::new(), Vec::new(), locate, &[])
}

fn attach_parent(
    header: Header,
    path: &Path,
    mut entries: Vec<Entry>,
    mut warnings: Vec<String>,
    locate: &dyn Fn(&str) -> Option<PathBuf>,
    chain: &[&Path],
) -> LoadedSession {
    let mut blob_dirs = vec![blob_dir_of(path)];
    let mut inherited = Vec::new();
    // A subagent's `parent` names the session that started it, not a fork
    // point: its conversation starts empty and inherits nothing.
    let fork = header.parent.as_ref().filter(|_| header.agent.is_none());
    if let Some(fork) = fork {
        let parent_path = locate(&fork.session);
        let looped = parent_path
            .as_deref()
            .is_some_and(|p| p == path || chain.contains(&p));
        let parent = if looped || chain.len() >= MAX_FORK_DEPTH {
            None
        } else {
            let mut longer = chain.to_vec();
            longer.push(path);
            parent_path.and_then(|p| load_depth(&p, locate, &longer).ok())
        };
        match parent {
            Some(parent) => {
                if let Some(at) = &fork.entry {
                    if parent.get(at).is_none() {
                        warnings.push(format!(
                            "fork point {at} is missing from parent session {}",
                            fork.session
                        ));
                    }
                    inherited = parent.path_to(Some(at)).into_iter().cloned().collect();
                }
                warnings.extend(
                    parent
                        .warnings
                        .into_iter()
                        .map(|w| format!("parent {}: {w}", fork.session)),
                );
                blob_dirs.extend(parent.blob_dirs);
            }
            None if looped => warnings.push(format!(
                "parent session {} leads back to this session (a fork loop); the history before the fork is lost",
                fork.session
            )),
            None => warnings.push(format!(
                "parent session {} is missing; the history before the fork is lost",
                fork.session
            )),
        }
    }
    let fork_point = fork.and_then(|f| f.entry.as_deref());
    reattach(&mut entries, &inherited, fork_point, &mut warnings);
    LoadedSession {
        header,
        path: path.to_path_buf(),
        entries,
        inherited,
        warnings,
        blob_dirs,
    }
}

/// Gives every entry whose parent is unknown (its line was corrupt or
/// lost, or names an entry that never existed) the entry before it in the
/// file as its parent, so the history before the damage stays on the
/// current branch instead of being cut off at it. Only earlier entries
/// count as known, so a damaged file can never form a parent cycle.
fn reattach(
    entries: &mut [Entry],
    inherited: &[Entry],
    fork_point: Option<&str>,
    warnings: &mut Vec<String>,
) {
    // Decided on the ids alone, then applied: no id is copied to do it.
    let fixes = {
        let mut known: HashSet<&str> = inherited.iter().map(|e| e.id.as_str()).collect();
        // A fork's first entry follows the fork point, even when the parent
        // session is gone (that loss is reported already).
        let mut previous: Option<&str> = fork_point.filter(|p| known.contains(*p));
        let mut fixes = Vec::new();
        for (at, entry) in entries.iter().enumerate() {
            if let Some(parent) = &entry.parent_id
                && !known.contains(parent.as_str())
            {
                if Some(parent.as_str()) != fork_point {
                    warnings.push(format!(
                        "entry {} follows entry {parent}, which is missing; it was attached to the entry before it",
                        entry.id
                    ));
                }
                fixes.push((at, previous.map(str::to_owned)));
            }
            known.insert(entry.id.as_str());
            previous = Some(entry.id.as_str());
        }
        fixes
    };
    for (at, parent) in fixes {
        entries[at].parent_id = parent;
    }
}

#[cfg(test)]
mod common_line_tests {
    use super::*;

    /// The one-pass reader must give exactly what the general one gives.
    #[test]
    fn common_lines_read_as_the_general_path_reads_them() {
        let lines = [
            r#"{"id":"a1","parent_id":null,"ts":"t","type":"message","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}"#,
            r#"{"id":"a2","parent_id":"a1","ts":"t","type":"message","message":{"role":"assistant","content":[{"type":"tool_call","id":"c1","name":"Bash","arguments":"{\"command\":\"ls\"}"}]},"blobs":[]}"#,
            r#"{"id":"a3","parent_id":"a2","ts":"t","type":"usage","usage":{"input_tokens":100,"output_tokens":20,"cache_creation_input_tokens":0,"cache_read_input_tokens":3},"model":"m","cost_usd":0.5}"#,
            r#"{"id":"a4","parent_id":"a3","ts":"t","type":"usage","usage":{"input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":5,"cache_read_input_tokens":0},"model":"m"}"#,
        ];
        for raw in lines {
            let fast = common_line(raw.as_bytes()).map(|l| (l.id, l.parent_id, l.ts, l.body));
            let general = serde_json::from_slice::<Line>(raw.as_bytes())
                .ok()
                .map(|l| (l.id, l.parent_id, l.ts, l.body));
            assert!(fast.is_some(), "{raw}");
            assert_eq!(fast, general, "{raw}");
        }
    }

    /// Other types, and lines the common shape does not fit, take the
    /// general path (which keeps or rejects them as before).
    #[test]
    fn other_lines_are_left_to_the_general_path() {
        for raw in [
            r#"{"id":"b1","type":"model_change","model":"m","provider":"p"}"#,
            r#"{"id":"b2","type":"hook","event":"Stop","command":"x","outcome":"ok","duration_ms":1,"message":"said"}"#,
            r#"{"id":"b3","type":"message"}"#,
            r#"{"id":"b4","type":"usage","model":"m"}"#,
            r#"{"id":"b5","type":"future_kind","message":{"role":"user","content":[]}}"#,
        ] {
            assert!(common_line(raw.as_bytes()).is_none(), "{raw}");
        }
    }
}
