//! The on-disk shapes: the header line and the entries that follow it.
//!
//! Every line is one JSON object. The header is
//! `{"type":"session","version":1,"id","cwd","created","model","provider","parent"}`
//! (plus `"agent"` in a subagent's transcript only);
//! entries are `{"id","parent_id","ts","type",…}`. Entry types this version
//! does not know are kept as raw JSON (so a newer wright's file still loads)
//! and contribute nothing to the conversation.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use wright_protocol::{Message, Usage};

/// Format version written into new headers.
pub const FORMAT_VERSION: u32 = 1;

/// Id of one entry, unique across a session tree (forks included).
pub type EntryId = String;

/// The first line of a session file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always `"session"`; marks the line as a header.
    #[serde(rename = "type")]
    pub kind: String,
    /// Format version.
    pub version: u32,
    /// Session id (a UUIDv7); also the file name.
    pub id: String,
    /// Working directory the session ran in.
    pub cwd: PathBuf,
    /// Creation time, RFC 3339 UTC.
    pub created: String,
    /// Model at creation.
    #[serde(default)]
    pub model: String,
    /// Provider at creation.
    #[serde(default)]
    pub provider: String,
    /// The session and entry this one was forked from; for a subagent's
    /// transcript, the session that started it (with no entry: a subagent
    /// starts from an empty conversation and inherits nothing).
    #[serde(default)]
    pub parent: Option<ForkRef>,
    /// Set only in a subagent's transcript: which agent it records. Absent
    /// from ordinary sessions, so their headers read as before, and
    /// ignored by older readers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<AgentHeader>,
}

/// What a subagent's transcript records about the agent in its header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentHeader {
    /// Agent path, e.g. `root/explore-1`.
    pub path: String,
    /// The parent's tool call (`Task`) that started this agent.
    pub parent_call_id: String,
    /// Agent type, e.g. `explore`.
    pub agent_type: String,
    /// The system prompt the agent was given, whole.
    pub system_prompt: String,
}

/// Where a forked session branches off its parent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForkRef {
    /// Parent session id.
    pub session: String,
    /// Parent entry the fork continues from (`None`: the parent was empty).
    pub entry: Option<EntryId>,
}

/// One entry of the session tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Entry id.
    pub id: EntryId,
    /// The entry this one follows; `None` for a root.
    pub parent_id: Option<EntryId>,
    /// When it was written, RFC 3339 UTC.
    pub ts: String,
    /// What it records.
    pub body: EntryBody,
}

/// What an entry records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EntryBody {
    /// A conversation message, exactly as sent to or received from the model.
    Message {
        /// The message.
        message: Message,
    },
    /// Token usage of one model request.
    Usage {
        /// Tokens.
        usage: Usage,
        /// Model that served the request.
        model: String,
        /// Cost in US dollars, when the price is known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cost_usd: Option<f64>,
    },
    /// The model (or provider) changed from here on.
    ModelChange {
        /// New model.
        model: String,
        /// New provider.
        provider: String,
    },
    /// Older history was summarized: the conversation is the summary, then
    /// the messages from `first_kept` on.
    Compaction {
        /// Summary text, sent as a user message in place of the dropped history.
        summary: String,
        /// First entry kept verbatim after the summary (`None`: keep nothing before this entry).
        first_kept: Option<EntryId>,
        /// Context size before compaction, for display.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tokens_before: Option<u64>,
        /// The whole compacted conversation (summary included) is appended
        /// right after this entry, so history restarts there and the summary
        /// here is for display only. Lets a writer record exactly what the
        /// model will see, however it merged the summary into the kept turns.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        messages_follow: bool,
    },
    /// A user-visible bookmark.
    Label {
        /// Label text.
        label: String,
        /// Entry it names (`None`: its parent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<EntryId>,
    },
    /// A file's content just before wright changed it.
    Checkpoint {
        /// Absolute path of the file.
        path: PathBuf,
        /// Its previous content.
        before: Snapshot,
        /// The workspace root the file lay under when it was snapshotted.
        /// A hint only: a rewind restores beneath it only when it lies in
        /// the session's cwd or a root the run configured
        /// ([`crate::SessionWriter::set_roots`]), since anyone who can
        /// write the session file can change it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        root: Option<PathBuf>,
    },
    /// The conversation returns to `parent_id` and continues as a new branch.
    Rewind {
        /// Files restored by this rewind.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        restored: Vec<PathBuf>,
    },
    /// One run of a user hook: what ran, at which point, and how it ended.
    Hook {
        /// The hook event (`PreToolUse`, `Stop`, …).
        event: String,
        /// The hook's command.
        command: String,
        /// `ok`, `blocked`, `failed`, `timeout`, `cancelled` or `error`.
        outcome: String,
        /// Wall time in milliseconds.
        duration_ms: u64,
        /// What the hook said that wright acted on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// The uuid a program gave the user prompt this entry follows (its
    /// parent): the Claude Agent SDK names user messages by it, so a later
    /// process can rewind files to before a prompt of an earlier one.
    /// Older readers keep it as an unknown entry and skip it.
    MessageUuid {
        /// The program's id of the prompt.
        uuid: String,
    },
    /// The prompt this entry follows as the user typed it, when the model
    /// got something else (a custom command's expansion): what titles and
    /// turn lists show. Older readers skip it.
    PromptTyped {
        /// The prompt as typed (`/review src`).
        text: String,
    },
    /// An entry type from a newer version, kept verbatim and ignored.
    #[serde(skip)]
    Unknown {
        /// Its `type` field.
        kind: String,
        /// The whole line.
        raw: serde_json::Value,
    },
}

/// A file's content at a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Snapshot {
    /// Stored out of line in the session's blob directory.
    Blob {
        /// Blob name.
        blob: String,
        /// Size in bytes.
        size: u64,
    },
    /// The file did not exist.
    Absent(AbsentTag),
}

impl Snapshot {
    /// The "file did not exist" snapshot.
    pub const ABSENT: Snapshot = Snapshot::Absent(AbsentTag::Absent);
}

/// The literal `"absent"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbsentTag {
    /// `"absent"`.
    Absent,
}

/// A message field moved out of line: `{"block":i,"field":"content","blob":"…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct BlobRef {
    pub block: usize,
    pub field: BlobField,
    pub blob: String,
    pub size: u64,
}

/// Which string of a content block a blob replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum BlobField {
    Text,
    Data,
    Thinking,
    Arguments,
    Content,
}

/// The serialized form of an entry line.
#[derive(Serialize, Deserialize)]
pub(crate) struct Line {
    pub id: EntryId,
    #[serde(default)]
    pub parent_id: Option<EntryId>,
    #[serde(default)]
    pub ts: String,
    #[serde(flatten)]
    pub body: EntryBody,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blobs: Vec<BlobRef>,
}

/// Just enough of a line to keep an entry whose type we do not know.
#[derive(Deserialize)]
pub(crate) struct Probe {
    pub id: EntryId,
    #[serde(default)]
    pub parent_id: Option<EntryId>,
    #[serde(default)]
    pub ts: String,
    #[serde(rename = "type")]
    pub kind: String,
}

/// Entry types this version understands; a line of another type is `Unknown`.
pub(crate) const KNOWN_TYPES: &[&str] = &[
    "message",
    "usage",
    "model_change",
    "compaction",
    "label",
    "checkpoint",
    "rewind",
    "hook",
    "message_uuid",
];

/// A fresh entry id: 16 hex digits of a UUIDv7's random half.
pub(crate) fn new_entry_id() -> EntryId {
    let uuid = uuid::Uuid::now_v7();
    uuid.as_bytes()[8..]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A fresh session or blob id (UUIDv7, so names sort by creation time).
pub(crate) fn new_uuid() -> uuid::Uuid {
    uuid::Uuid::now_v7()
}

/// Now, RFC 3339 UTC with milliseconds.
pub(crate) fn now_ts() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_serializes_as_designed() {
        let absent = serde_json::to_string(&Snapshot::ABSENT).unwrap();
        assert_eq!(absent, "\"absent\"");
        let blob = Snapshot::Blob {
            blob: "b1".into(),
            size: 3,
        };
        let json = serde_json::to_string(&blob).unwrap();
        assert_eq!(json, r#"{"blob":"b1","size":3}"#);
        assert_eq!(serde_json::from_str::<Snapshot>(&json).unwrap(), blob);
        assert_eq!(
            serde_json::from_str::<Snapshot>("\"absent\"").unwrap(),
            Snapshot::ABSENT
        );
    }

    #[test]
    fn entry_line_has_the_documented_field_order() {
        let line = Line {
            id: "e1".into(),
            parent_id: None,
            ts: "t".into(),
            body: EntryBody::Message {
                message: Message::user_text("hi"),
            },
            blobs: vec![],
        };
        let json = serde_json::to_string(&line).unwrap();
        assert!(
            json.starts_with(
                r#"{"id":"e1","parent_id":null,"ts":"t","type":"message","message":{"role":"user","content":[{"type":"text""#
            ),
            "{json}"
        );
    }

    #[test]
    fn entry_ids_are_distinct() {
        let a = new_entry_id();
        let b = new_entry_id();
        assert_eq!(a.len(), 16);
        assert_ne!(a, b);
    }
}
