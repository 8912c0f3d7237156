//! wright's session store: one append-only JSONL file per session, whose
//! entries form a tree (forks and rewinds are new branches; nothing is
//! rewritten), with large blobs beside the file, an OS lock against two
//! live writers, and loading that survives `kill -9`.
//!
//! Layout: `<data_dir>/wright/sessions/<project-slug>/<id>.jsonl`, blobs in
//! `<id>.blobs/`, the lock in `<id>.lock`; every file 0600, every
//! directory 0700.
//!
//! A subagent's transcript lives beside its parent session, in
//! `<parent-id>.agents/<agent-name>.jsonl` (with its own `.blobs/` and
//! `.lock`): a sub-directory, so listing, `--continue`, search and id
//! lookup, which only read `*.jsonl` files of project directories, never
//! take it for a session of its own.
//!
//! Forks are copy-by-reference: the new file's header names the parent
//! session and entry, and loading reads the parent's path up to that entry
//! before the fork's own entries. The parent file is never changed; if it
//! is removed, the fork still loads (with a warning) from its own entries.

mod blob;
mod entry;
mod error;
mod export;
mod files;
mod legacy;
mod lines;
mod list;
mod load;
mod lock;
mod private;
mod regular;
mod repair;
mod short_id;
mod slug;
mod store;
mod subagent;
mod writer;

pub use blob::INLINE_MAX;
pub use entry::{
    AbsentTag, AgentHeader, Entry, EntryBody, EntryId, FORMAT_VERSION, ForkRef, Header, Snapshot,
};
pub use error::{Result, StoreError};
pub use export::{EXPORT_TRUNCATE, ExportFormat, export_loaded};
pub use lines::MAX_LINE;
pub use list::{SearchHit, SearchOptions, SessionSummary};
pub use load::{LoadedSession, UserTurn};
pub use repair::MISSING_RESULT;
pub use short_id::{MIN_SHORT_ID, short_ids};
pub use slug::project_slug;
pub use store::{ResolvedSession, SessionMeta, SessionStore};
pub use subagent::{SubagentParent, SubagentSummary};
pub use writer::{
    RestoreAction, RestoredFile, RewindOutcome, RewindPoint, RewindScope, SessionWriter,
    UNTRACKED_NOTE,
};
