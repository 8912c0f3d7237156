//! Subagents' transcripts: each child a session runs (the `Task` tool) is
//! recorded in its own file beside the parent's, in
//! `<parent-id>.agents/<agent-name>.jsonl`, with a normal session header
//! plus an `agent` field (path, the parent's call id, type, system prompt)
//! and `parent` naming the parent session.
//!
//! The file name is only a readable hint: children are identified by the
//! agent path in their header, so a renamed or de-duplicated file
//! (`explore-1-2.jsonl`) is still found by its agent path.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use wright_protocol::ContentBlock;

use crate::entry::{AgentHeader, EntryBody, FORMAT_VERSION, ForkRef, Header, new_uuid, now_ts};
use crate::error::{Result, StoreError};
use crate::load::{LoadedSession, parse_file};
use crate::lock;
use crate::slug::normalize_cwd;
use crate::store::{SessionMeta, SessionStore};
use crate::writer::SessionWriter;

/// Longest file stem made from an agent path, in bytes.
const NAME_MAX: usize = 96;
/// How many `-N` suffixes are tried when a name is taken.
const MAX_SUFFIX: usize = 1000;

/// The session and tool call a subagent is started from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubagentParent {
    /// The parent session's id.
    pub session_id: String,
    /// The parent's working directory (finds its project directory when
    /// the parent's file is not written yet).
    pub cwd: PathBuf,
    /// Agent path, e.g. `root/explore-1`.
    pub agent: String,
    /// The parent's tool call that started the agent.
    pub parent_call_id: String,
    /// Agent type, e.g. `explore`.
    pub agent_type: String,
    /// The system prompt the agent is given.
    pub system_prompt: String,
}

/// One subagent of a session, summed from its transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct SubagentSummary {
    /// Agent path, e.g. `root/explore-1`.
    pub path: String,
    /// Agent type, e.g. `explore`.
    pub agent_type: String,
    /// The parent's tool call that started it.
    pub parent_call_id: String,
    /// Model requests made (usage entries recorded).
    pub requests: usize,
    /// Input tokens, cached ones included.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// Sum of the recorded request costs, if any cost was recorded.
    pub cost_usd: Option<f64>,
    /// Names of the tools it called, in order.
    pub tool_calls: Vec<String>,
    /// Its transcript file.
    pub file: PathBuf,
}

/// The directory of a session file's subagent transcripts: `<id>.agents`.
pub(crate) fn agents_dir_of(session_file: &Path) -> PathBuf {
    session_file.with_extension("agents")
}

/// A file stem for an agent path: `root/explore-1` → `explore-1`. Only
/// ASCII letters, digits, `-`, `_` and `.` survive (`/` of a nested path
/// becomes `.`, anything else `_`), never a leading `.`, so the name
/// stays one harmless component of the agents directory.
pub(crate) fn file_stem_for(agent: &str) -> String {
    let rel = agent.strip_prefix("root/").unwrap_or(agent);
    let mut stem: String = rel
        .chars()
        .map(|c| match c {
            '/' => '.',
            c if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') => c,
            _ => '_',
        })
        .collect();
    if stem.starts_with('.') {
        stem.replace_range(..1, "_");
    }
    stem.truncate(NAME_MAX);
    if stem.is_empty() {
        stem.push_str("agent");
    }
    stem
}

/// `root/explore-1` for `explore-1` (a path with a `/` is taken as is).
fn full_path(agent: &str) -> String {
    if agent.contains('/') || agent == "root" {
        agent.to_owned()
    } else {
        format!("root/{agent}")
    }
}

/// Orders strings with their digit runs compared as numbers, so
/// `explore-2` sorts before `explore-10`.
pub(crate) fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a, b);
    loop {
        match (a.chars().next(), b.chars().next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.len() - a.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let db = b.len() - b.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let (na, nb) = (&a[..da], &b[..db]);
                let (ta, tb) = (na.trim_start_matches('0'), nb.trim_start_matches('0'));
                let by_value = ta.len().cmp(&tb.len()).then_with(|| ta.cmp(tb));
                // Equal values: fewer leading zeros first, for a total order.
                let order = by_value.then_with(|| na.len().cmp(&nb.len()));
                if order != Ordering::Equal {
                    return order;
                }
                a = &a[da..];
                b = &b[db..];
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(&y);
                }
                a = &a[x.len_utf8()..];
                b = &b[y.len_utf8()..];
            }
        }
    }
}

/// A child transcript found on disk, parsed.
struct ChildFile {
    file: PathBuf,
    header: Header,
    entries: Vec<crate::entry::Entry>,
    /// Its agent path (from the header; from the file name in a file
    /// without an `agent` header).
    path: String,
}

impl SessionStore {
    /// The agents directory of session `session_id`, by its file.
    fn agents_dir(&self, session_id: &str) -> Result<PathBuf> {
        let file = self
            .locate(session_id)
            .ok_or_else(|| StoreError::NotFound {
                prefix: session_id.to_string(),
                candidates: Vec::new(),
            })?;
        Ok(agents_dir_of(&file))
    }

    /// Starts the transcript of a subagent of `parent.session_id`, in
    /// `<parent-id>.agents/` beside the parent's file. The writer is like
    /// any session writer (messages, usage, blobs, its own lock); nothing
    /// is written until its first entry.
    pub fn create_subagent(
        &self,
        parent: &SubagentParent,
        meta: &SessionMeta,
    ) -> Result<SessionWriter> {
        let parent_file = match self.locate(&parent.session_id) {
            Some(file) => file,
            // The parent writes its header with its first entry; a child
            // started before that still belongs in the parent's project.
            None => self
                .project_dir(&parent.cwd)
                .join(format!("{}.jsonl", parent.session_id)),
        };
        let dir = agents_dir_of(&parent_file);
        // Sessions root, project directory and agents directory are all
        // wright's own: made (or tightened to) 0700.
        for private in [Some(self.root()), parent_file.parent(), Some(dir.as_path())]
            .into_iter()
            .flatten()
        {
            crate::private::ensure_dir(private)
                .map_err(|e| StoreError::io("creating", private, e))?;
        }
        let header = Header {
            kind: "session".to_string(),
            version: FORMAT_VERSION,
            id: new_uuid().hyphenated().to_string(),
            cwd: normalize_cwd(&meta.cwd),
            created: now_ts(),
            model: meta.model.clone(),
            provider: meta.provider.clone(),
            parent: Some(ForkRef {
                session: parent.session_id.clone(),
                entry: None,
            }),
            agent: Some(AgentHeader {
                path: parent.agent.clone(),
                parent_call_id: parent.parent_call_id.clone(),
                agent_type: parent.agent_type.clone(),
                system_prompt: parent.system_prompt.clone(),
            }),
        };
        let stem = file_stem_for(&parent.agent);
        let mut last = None;
        for n in 1..=MAX_SUFFIX {
            let name = if n == 1 {
                stem.clone()
            } else {
                format!("{stem}-{n}")
            };
            let path = dir.join(format!("{name}.jsonl"));
            // A name is taken by an earlier transcript (the same agent path
            // run again) or by a live writer that has not written yet.
            if path.exists() || lock::is_locked(&path.with_extension("lock")) {
                continue;
            }
            match self.writer_at(header.clone(), path, None) {
                Err(e @ StoreError::Locked { .. }) => last = Some(e),
                other => return other,
            }
        }
        Err(last.unwrap_or_else(|| {
            StoreError::io(
                "creating",
                dir.join(format!("{stem}.jsonl")),
                std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "every name for this agent is taken",
                ),
            )
        }))
    }

    /// The transcripts in a session's agents directory, sorted by agent path.
    fn child_files(&self, session_id: &str) -> Result<Vec<ChildFile>> {
        let dir = self.agents_dir(session_id)?;
        let rd = match std::fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(StoreError::io("reading", dir, e)),
        };
        let mut children: Vec<ChildFile> = rd
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            // Never open a FIFO or device: reading one could block forever.
            .filter(|p| crate::regular::is_regular(p))
            .filter_map(|file| {
                let (header, entries, _) = parse_file(&file).ok()?;
                let path = match &header.agent {
                    Some(agent) => agent.path.clone(),
                    None => full_path(&file.file_stem()?.to_string_lossy()),
                };
                Some(ChildFile {
                    file,
                    header,
                    entries,
                    path,
                })
            })
            .collect();
        children.sort_by(|a, b| natural_cmp(&a.path, &b.path).then_with(|| a.file.cmp(&b.file)));
        Ok(children)
    }

    /// The subagents of session `session_id` (full id), sorted by agent
    /// path in natural order (`explore-2` before `explore-10`), each with
    /// its requests, tokens, cost and tool calls summed from its file.
    pub fn subagents(&self, session_id: &str) -> Result<Vec<SubagentSummary>> {
        let mut out = Vec::new();
        for child in self.child_files(session_id)? {
            let agent = child.header.agent.unwrap_or_else(|| AgentHeader {
                path: child.path.clone(),
                parent_call_id: String::new(),
                agent_type: String::new(),
                system_prompt: String::new(),
            });
            let mut summary = SubagentSummary {
                path: child.path,
                agent_type: agent.agent_type,
                parent_call_id: agent.parent_call_id,
                requests: 0,
                input_tokens: 0,
                output_tokens: 0,
                cost_usd: None,
                tool_calls: Vec::new(),
                file: child.file,
            };
            for entry in &child.entries {
                match &entry.body {
                    EntryBody::Usage {
                        usage, cost_usd, ..
                    } => {
                        summary.requests += 1;
                        summary.input_tokens =
                            summary.input_tokens.saturating_add(usage.total_input());
                        summary.output_tokens =
                            summary.output_tokens.saturating_add(usage.output_tokens);
                        if let Some(c) = cost_usd {
                            *summary.cost_usd.get_or_insert(0.0) += c;
                        }
                    }
                    EntryBody::Message { message } => {
                        summary
                            .tool_calls
                            .extend(message.content.iter().filter_map(|b| match b {
                                ContentBlock::ToolCall { name, .. } => Some(name.clone()),
                                _ => None,
                            }));
                    }
                    _ => {}
                }
            }
            out.push(summary);
        }
        Ok(out)
    }

    /// Loads the transcript of one subagent of session `session_id` (full
    /// id). `agent` is its path (`root/explore-1`) or the path without
    /// `root/` (`explore-1`); an unknown agent is an error listing the
    /// session's subagents.
    pub fn load_subagent(&self, session_id: &str, agent: &str) -> Result<LoadedSession> {
        let children = self.child_files(session_id)?;
        let wanted = full_path(agent.trim());
        let found = children.iter().find(|c| c.path == wanted).or_else(|| {
            // A file name (`explore-1-2`) picks one of two runs of an agent path.
            children.iter().find(|c| {
                c.file
                    .file_stem()
                    .is_some_and(|s| s.to_string_lossy() == agent.trim())
            })
        });
        match found {
            Some(child) => self.load_path(&child.file),
            None => Err(StoreError::UnknownAgent {
                session: session_id.to_string(),
                agent: agent.to_string(),
                known: children.into_iter().map(|c| c.path).collect(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_paths_become_plain_file_names() {
        assert_eq!(file_stem_for("root/explore-1"), "explore-1");
        assert_eq!(file_stem_for("root/a/b"), "a.b");
        assert_eq!(file_stem_for("root/../../etc"), "_.....etc");
        assert_eq!(file_stem_for("root/x y\u{1b}"), "x_y_");
        assert_eq!(file_stem_for("root/"), "agent");
        assert_eq!(file_stem_for(&"z".repeat(500)).len(), NAME_MAX);
    }

    #[test]
    fn natural_order_compares_numbers_by_value() {
        let mut v = vec!["explore-10", "explore-2", "explore-1", "a", "explore-02"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            ["a", "explore-1", "explore-2", "explore-02", "explore-10"]
        );
    }
}
