//! The store's error type. Messages are written for the person at the
//! terminal: they name the session and say what to do next.

use std::path::PathBuf;

/// Everything that can go wrong in the session store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A file operation failed.
    #[error("{action} {}: {source}", path.display())]
    Io {
        /// What the store was doing ("reading", "creating", …).
        action: &'static str,
        /// The file or directory involved.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// Another live process holds the session's lock.
    #[error("session {id} is in use by another wright process{}", pid.map(|p| format!(" (pid {p})")).unwrap_or_default())]
    Locked {
        /// The session id.
        id: String,
        /// The holder's pid, when it recorded one.
        pid: Option<u32>,
    },
    /// No session matches the id or prefix.
    #[error(
        "no session matches '{prefix}'{}",
        list_candidates("recent sessions here", candidates)
    )]
    NotFound {
        /// What the user typed.
        prefix: String,
        /// A few recent session ids, to help the user pick.
        candidates: Vec<String>,
    },
    /// The prefix matches more than one session.
    #[error("'{prefix}' matches {} sessions; type more of the id{}", candidates.len(), list_candidates("candidates", candidates))]
    Ambiguous {
        /// What the user typed.
        prefix: String,
        /// The matching session ids.
        candidates: Vec<String>,
    },
    /// An entry id does not exist on this session's tree.
    #[error("session {session} has no entry '{entry}'")]
    UnknownEntry {
        /// The session id.
        session: String,
        /// The entry id asked for.
        entry: String,
    },
    /// A session has no subagent of that name.
    #[error(
        "session {session} has no subagent '{agent}'{}",
        if known.is_empty() { "; it has no subagents".to_string() } else { format!("; its subagents: {}", known.join(", ")) }
    )]
    UnknownAgent {
        /// The session id.
        session: String,
        /// The agent asked for.
        agent: String,
        /// The session's agent paths.
        known: Vec<String>,
    },
    /// An entry could not be serialized (an `Unknown` entry cannot be written back).
    #[error("cannot write entry: {0}")]
    Encode(String),
    /// An entry would serialize above the cap of a session line, which
    /// readers skip: it is not written.
    #[error("cannot write entry: its {size} bytes are above the {} MiB limit of a session line", crate::lines::MAX_LINE >> 20)]
    TooLarge {
        /// The serialized size in bytes.
        size: u64,
    },
    /// A session id asked for is not a UUID, or is taken.
    #[error("{0}")]
    BadId(String),
}

fn list_candidates(label: &str, ids: &[String]) -> String {
    if ids.is_empty() {
        " (see `wright sessions list --all`)".to_string()
    } else {
        format!("; {label}: {}", ids.join(", "))
    }
}

impl StoreError {
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
        source: std::io::Error,
    ) -> Self {
        Self::Io {
            action,
            path: path.into(),
            source,
        }
    }
}

/// Result alias of the store.
pub type Result<T> = std::result::Result<T, StoreError>;
