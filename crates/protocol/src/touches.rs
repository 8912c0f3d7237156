//! What one tool call touches: the paths it reads and writes, the command it
//! runs, the URL it fetches, and the effect class of the call.
//!
//! A tool reads its own arguments once ([`Touches`] is what it says of
//! them); everyone after it (the permission gate, checkpoints, file locks,
//! hooks, the verifier, the `ToolCall` item and every front end) reads the
//! touches instead of parsing arguments, so a new tool is known to all of
//! them by its effects and not by its name.

use serde::{Deserialize, Serialize};

use crate::tool::ToolKind;

/// What one call reads, writes, runs and fetches.
///
/// Paths are as the model gave them (relative to the session's cwd, or
/// absolute, or under `~/`): the consumers that decide on them resolve them
/// with the one resolver of `wright-sandbox`; the front ends show them as
/// written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Touches {
    /// The call's effect class (may differ from the tool's: a `Bash` call
    /// that only lists files is still a command).
    pub kind: ToolKind,
    /// Files and directories the call reads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<String>,
    /// Files the call writes (creates, changes or removes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<String>,
    /// The shell command the call runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The URL the call fetches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Whether the call only manages what this session itself started
    /// (stopping its own background job): it changes nothing the user has
    /// not already allowed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub own_job: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Touches {
    /// A call of `kind` that names nothing the policy can look at.
    pub fn of(kind: ToolKind) -> Self {
        Self {
            kind,
            reads: Vec::new(),
            writes: Vec::new(),
            command: None,
            url: None,
            own_job: false,
        }
    }

    /// A read-only call of one path.
    pub fn read(path: impl Into<String>) -> Self {
        Self {
            reads: vec![path.into()],
            ..Self::of(ToolKind::ReadOnly)
        }
    }

    /// An edit of one file.
    pub fn write(path: impl Into<String>) -> Self {
        Self {
            writes: vec![path.into()],
            ..Self::of(ToolKind::Edit)
        }
    }

    /// A shell command.
    pub fn command(text: impl Into<String>) -> Self {
        Self {
            command: Some(text.into()),
            ..Self::of(ToolKind::Exec)
        }
    }

    /// A fetch of one URL.
    pub fn fetch(url: impl Into<String>) -> Self {
        Self {
            url: Some(url.into()),
            ..Self::of(ToolKind::Network)
        }
    }

    /// What a front end shows as the call's subject: the command, else the
    /// first path (written before read), else the URL.
    pub fn shown(&self) -> Option<&str> {
        self.command
            .as_deref()
            .or_else(|| self.subject_path())
            .or(self.url.as_deref())
    }

    /// The first path the call names (written before read).
    pub fn subject_path(&self) -> Option<&str> {
        self.writes
            .first()
            .or_else(|| self.reads.first())
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_set_kind_and_one_effect() {
        let r = Touches::read("src/a.rs");
        assert_eq!(
            (r.kind, r.reads.len(), r.writes.len()),
            (ToolKind::ReadOnly, 1, 0)
        );
        let w = Touches::write("a.rs");
        assert_eq!((w.kind, w.subject_path()), (ToolKind::Edit, Some("a.rs")));
        let c = Touches::command("ls");
        assert_eq!((c.kind, c.command.as_deref()), (ToolKind::Exec, Some("ls")));
        let f = Touches::fetch("https://example.com/");
        assert_eq!(f.kind, ToolKind::Network);
        assert_eq!(Touches::of(ToolKind::Other).subject_path(), None);
        assert_eq!(c.shown(), Some("ls"));
        assert_eq!(f.shown(), Some("https://example.com/"));
        assert_eq!(Touches::of(ToolKind::Other).shown(), None);
    }

    #[test]
    fn serializes_only_what_is_set() {
        let json = serde_json::to_string(&Touches::read("a")).unwrap_or_default();
        assert_eq!(json, r#"{"kind":"read_only","reads":["a"]}"#);
        let back: Touches =
            serde_json::from_str(&json).unwrap_or_else(|_| Touches::of(ToolKind::Other));
        assert_eq!(back, Touches::read("a"));
    }
}
