//! The append side of a session: one writer per session, holding its lock.
//!
//! Each entry is one `write_all` of a complete line plus newline on an
//! `O_APPEND` file, so a crash loses at most the line in flight. The header
//! is written together with the first entry, so a run that never gets a
//! prompt leaves no empty session behind.

use std::collections::HashSet;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use wright_protocol::{ContentBlock, Message};
use wright_sandbox::Beneath;

use crate::blob;
use crate::entry::{BlobRef, EntryBody, EntryId, Header, Snapshot, new_entry_id, now_ts};
use crate::error::{Result, StoreError};
use crate::files::{self, Before};
use crate::lines::MAX_LINE;
use crate::load::{LoadedSession, UserTurn, load_tree, load_unwritten};
use crate::lock::SessionLock;
use crate::store::SessionStore;

/// Shown with every rewind: only wright's own edits are checkpointed.
pub const UNTRACKED_NOTE: &str =
    "Changes made by shell commands are not tracked and were not restored.";

/// Where a rewind returns to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RewindPoint {
    /// To just before this user-message entry (as a picker of user turns offers).
    BeforeTurn(EntryId),
    /// To just after this entry.
    AfterEntry(EntryId),
}

/// What a rewind restores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RewindScope {
    /// Files and conversation.
    FilesAndConversation,
    /// Only the conversation; files stay as they are.
    ConversationOnly,
    /// Only files; the conversation continues from the current leaf.
    FilesOnly,
}

pub use crate::files::RestoreAction;

/// One file a rewind touched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoredFile {
    /// The file.
    pub path: PathBuf,
    /// What was done.
    pub action: RestoreAction,
}

/// The result of a rewind.
#[derive(Debug, Clone)]
pub struct RewindOutcome {
    /// The `rewind` entry appended (the new leaf), if the conversation moved.
    pub entry: Option<EntryId>,
    /// Files restored or deleted.
    pub files: Vec<RestoredFile>,
    /// The conversation from here on.
    pub history: Vec<Message>,
}

/// Files a rewind puts back: path, content at the rewind point, root.
type RestorePlan = Vec<(PathBuf, Snapshot, Option<PathBuf>)>;

/// The writer of one session. Holds the session lock until dropped.
#[derive(Debug)]
pub struct SessionWriter {
    store: SessionStore,
    header: Header,
    path: PathBuf,
    file: Option<File>,
    pending_header: bool,
    len: u64,
    leaf: Option<EntryId>,
    unsynced_blobs: Vec<File>,
    /// The workspace roots of this run beyond the header's cwd (its
    /// additional directories): what a rewind may restore beneath. Never
    /// read from the session file, which anyone who can write it can
    /// change.
    roots: Vec<PathBuf>,
    lock_path: PathBuf,
    _lock: SessionLock,
}

#[derive(Serialize)]
struct LineRef<'a> {
    id: &'a str,
    parent_id: Option<&'a str>,
    ts: &'a str,
    #[serde(flatten)]
    body: BodyRef<'a>,
    #[serde(skip_serializing_if = "<[BlobRef]>::is_empty")]
    blobs: &'a [BlobRef],
}

/// A body to serialize; messages are borrowed as they are, not cloned into an `EntryBody`.
#[derive(Serialize)]
#[serde(untagged)]
enum BodyRef<'a> {
    Entry(&'a EntryBody),
    Message(MessageRef<'a>),
}

#[derive(Serialize)]
#[serde(tag = "type", rename = "message")]
struct MessageRef<'a> {
    message: &'a Message,
}

/// What is recorded instead of a message whose entry would be above the
/// line cap: its tool calls and results by id (arguments and contents
/// dropped) after a note saying what happened.
fn too_large_stand_in(message: &Message, size: u64) -> Message {
    let note = format!(
        "[wright: this message was not recorded: its entry would be {}, above the {} MiB limit of a session line]",
        crate::lines::describe_size(size),
        MAX_LINE >> 20
    );
    let mut content: Vec<ContentBlock> = message
        .content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::ToolCall { id, name, .. } => Some(ContentBlock::ToolCall {
                id: id.clone(),
                name: name.clone(),
                arguments: "{}".to_string(),
            }),
            ContentBlock::ToolResult {
                call_id, is_error, ..
            } => Some(ContentBlock::ToolResult {
                call_id: call_id.clone(),
                content: note.clone(),
                is_error: *is_error,
            }),
            _ => None,
        })
        .collect();
    // Results carry the note themselves (and must stay first in their
    // message for some providers).
    if !content
        .iter()
        .any(|b| matches!(b, ContentBlock::ToolResult { .. }))
    {
        content.insert(0, ContentBlock::Text { text: note });
    }
    Message {
        role: message.role,
        content,
    }
}

/// How a writer starts.
pub(crate) struct WriterParts {
    pub store: SessionStore,
    pub header: Header,
    pub path: PathBuf,
    pub file: Option<File>,
    pub len: u64,
    pub leaf: Option<EntryId>,
    pub lock_path: PathBuf,
    pub lock: SessionLock,
}

impl SessionWriter {
    pub(crate) fn from_parts(parts: WriterParts) -> Self {
        Self {
            store: parts.store,
            pending_header: parts.file.is_none(),
            header: parts.header,
            path: parts.path,
            file: parts.file,
            len: parts.len,
            leaf: parts.leaf,
            unsynced_blobs: Vec::new(),
            roots: Vec::new(),
            lock_path: parts.lock_path,
            _lock: parts.lock,
        }
    }

    /// The session id.
    pub fn id(&self) -> &str {
        &self.header.id
    }

    /// The header (written with the first entry).
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The session file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Sets the workspace roots configured for this run beyond the
    /// session's cwd (additional directories). A rewind restores a file
    /// only beneath the header's cwd and these (and the roots given to
    /// [`Self::record_file_before_edit_within`] in this process), whatever
    /// root a checkpoint entry names.
    pub fn set_roots(&mut self, roots: impl IntoIterator<Item = PathBuf>) {
        self.roots.clear();
        self.add_roots(roots);
    }

    fn add_roots(&mut self, roots: impl IntoIterator<Item = PathBuf>) {
        for root in roots {
            if !self.roots.contains(&root) {
                self.roots.push(root);
            }
        }
    }

    /// The current leaf: new entries attach here.
    pub fn leaf(&self) -> Option<&EntryId> {
        self.leaf.as_ref()
    }

    fn blob_dir(&self) -> PathBuf {
        crate::load::blob_dir_of(&self.path)
    }

    /// Appends an entry after the current leaf and makes it the leaf.
    pub fn append(&mut self, body: &EntryBody) -> Result<EntryId> {
        let parent = self.leaf.clone();
        let id = self.append_with_parent(parent.as_deref(), body)?;
        self.leaf = Some(id.clone());
        Ok(id)
    }

    /// Appends a conversation message (same as `append` of
    /// [`EntryBody::Message`], without cloning the message).
    pub fn append_message(&mut self, message: &Message) -> Result<EntryId> {
        let parent = self.leaf.clone();
        let id = self.append_message_with_parent(parent.as_deref(), message)?;
        self.leaf = Some(id.clone());
        Ok(id)
    }

    fn append_message_with_parent(
        &mut self,
        parent: Option<&str>,
        message: &Message,
    ) -> Result<EntryId> {
        let out = blob::externalize(message, &self.blob_dir())?;
        self.unsynced_blobs.extend(out.files);
        let stored = out.message.as_ref().unwrap_or(message);
        match self.write_line(
            parent,
            BodyRef::Message(MessageRef { message: stored }),
            &out.refs,
        ) {
            // Recorded in its place: the conversation keeps its shape (and
            // its tool call ids) and the file stays loadable.
            Err(StoreError::TooLarge { size }) => self.write_line(
                parent,
                BodyRef::Message(MessageRef {
                    message: &too_large_stand_in(message, size),
                }),
                &[],
            ),
            written => written,
        }
    }

    fn append_with_parent(&mut self, parent: Option<&str>, body: &EntryBody) -> Result<EntryId> {
        match body {
            EntryBody::Unknown { kind, .. } => Err(StoreError::Encode(format!(
                "entries of unknown type '{kind}' are read-only"
            ))),
            EntryBody::Message { message } => self.append_message_with_parent(parent, message),
            _ => self.write_line(parent, BodyRef::Entry(body), &[]),
        }
    }

    fn write_line(
        &mut self,
        parent: Option<&str>,
        body: BodyRef<'_>,
        blobs: &[BlobRef],
    ) -> Result<EntryId> {
        let id = new_entry_id();
        let ts = now_ts();
        let line = LineRef {
            id: &id,
            parent_id: parent,
            ts: &ts,
            body,
            blobs,
        };
        let mut buf = Vec::with_capacity(256);
        if self.pending_header {
            serde_json::to_writer(&mut buf, &self.header)
                .map_err(|e| StoreError::Encode(e.to_string()))?;
            buf.push(b'\n');
        }
        let line_start = buf.len();
        serde_json::to_writer(&mut buf, &line).map_err(|e| StoreError::Encode(e.to_string()))?;
        let size = buf.len() - line_start;
        if size > MAX_LINE {
            return Err(StoreError::TooLarge { size: size as u64 });
        }
        buf.push(b'\n');
        let file = match &mut self.file {
            Some(file) => file,
            None => {
                let file = crate::private::file_options()
                    .append(true)
                    .create_new(true)
                    .open(&self.path)
                    .map_err(|e| StoreError::io("creating", &self.path, e))?;
                self.file.insert(file)
            }
        };
        if let Err(e) = file.write_all(&buf).and_then(|()| file.flush()) {
            // Cut a partial line off so later appends do not glue onto it.
            let _ = file.set_len(self.len);
            return Err(StoreError::io("writing", &self.path, e));
        }
        self.len += buf.len() as u64;
        self.pending_header = false;
        Ok(id)
    }

    /// Makes everything appended so far durable (blobs first, then the
    /// file). Call before running a tool with side effects.
    pub fn sync(&mut self) -> Result<()> {
        for blob in self.unsynced_blobs.drain(..) {
            blob.sync_data()
                .map_err(|e| StoreError::io("syncing", crate::load::blob_dir_of(&self.path), e))?;
        }
        if let Some(file) = &self.file {
            file.sync_data()
                .map_err(|e| StoreError::io("syncing", &self.path, e))?;
        }
        Ok(())
    }

    /// Reads this session back from disk (fork ancestry included).
    pub fn load(&self) -> Result<LoadedSession> {
        let locate = |id: &str| self.store.locate(id);
        if self.file.is_none() {
            return Ok(load_unwritten(self.header.clone(), &self.path, &locate));
        }
        load_tree(&self.path, &locate)
    }

    /// The user prompts on the current branch, for a rewind picker.
    pub fn user_turns(&self) -> Result<Vec<UserTurn>> {
        Ok(self.load()?.user_turns())
    }

    /// Records a file's current content (or its absence) before wright
    /// changes it, so a rewind can put it back; the session's cwd is the
    /// only workspace root. See [`SessionWriter::record_file_before_edit_within`].
    pub fn record_file_before_edit(&mut self, path: &Path) -> Result<Option<EntryId>> {
        self.record_file_before_edit_within(path, &[])
    }

    /// Records a file's current content (or its absence) before wright
    /// changes it. `path` is resolved by the shared resolver and read
    /// beneath its workspace root (`roots` plus the session's cwd) with every
    /// symlink refused and without blocking; a FIFO, device, directory or a
    /// path that changed while being opened is not snapshotted (`Ok(None)`),
    /// so the edit goes on but a rewind will not restore it.
    pub fn record_file_before_edit_within(
        &mut self,
        path: &Path,
        roots: &[PathBuf],
    ) -> Result<Option<EntryId>> {
        // The caller's roots are this run's configuration, not the file's.
        self.add_roots(roots.iter().cloned());
        let Some(real) = files::resolve(path) else {
            return Ok(None);
        };
        let beneath = self.beneath(roots.iter().cloned());
        let root = files::root_of(&beneath, &real);
        self.record_snapshot(&beneath, &real, root)
    }

    /// Snapshots the resolved path `real` and appends its checkpoint.
    fn record_snapshot(
        &mut self,
        beneath: &Beneath,
        real: &Path,
        root: Option<PathBuf>,
    ) -> Result<Option<EntryId>> {
        let before = match files::snapshot(beneath, real) {
            Before::Content(bytes) => {
                let (blob, file) = blob::write_blob(&self.blob_dir(), &bytes)?;
                self.unsynced_blobs.push(file);
                Snapshot::Blob {
                    blob,
                    size: bytes.len() as u64,
                }
            }
            Before::Absent => Snapshot::ABSENT,
            Before::NotTaken => return Ok(None),
        };
        self.append(&EntryBody::Checkpoint {
            path: real.to_path_buf(),
            before,
            root,
        })
        .map(Some)
    }

    /// The session's cwd plus `extra` as the roots files are opened beneath.
    fn beneath(&self, extra: impl IntoIterator<Item = PathBuf>) -> Beneath {
        Beneath::new(std::iter::once(self.header.cwd.clone()).chain(extra))
    }

    /// The roots a checkpoint is restored beneath: the session's cwd and
    /// the root its entry names, when that root lies inside the cwd or a
    /// configured root ([`Self::set_roots`]). A root outside them means
    /// the session file was changed by hand or by a program: nothing of
    /// that entry is restored.
    fn restore_beneath(&self, root: Option<&PathBuf>) -> std::result::Result<Beneath, String> {
        let Some(root) = root else {
            return Ok(self.beneath(None));
        };
        let allowed = self.beneath(self.roots.iter().cloned());
        let lex = wright_sandbox::fs_resolve::lexical(root);
        if root.is_absolute() && allowed.contains(&lex) {
            return Ok(self.beneath(Some(lex)));
        }
        Err(format!(
            "its checkpoint names the root {}, which is neither the session's directory \
             nor a configured root ({}); nothing was written or deleted. If the directory \
             is yours, add it to the workspace (`--add-dir` or \
             `permissions.additional_roots`); otherwise the session file was changed \
             outside wright",
            root.display(),
            files::roots_text(&allowed)
        ))
    }

    /// Restores every file wright changed after `to_entry` and moves the
    /// conversation back to it, as a new branch (nothing is deleted).
    pub fn rewind_files(&mut self, to_entry: &str) -> Result<Vec<RestoredFile>> {
        let outcome = self.rewind(
            &RewindPoint::AfterEntry(to_entry.to_string()),
            RewindScope::FilesAndConversation,
        )?;
        Ok(outcome.files)
    }

    /// What [`Self::rewind`] to `point` would do to files, without doing
    /// it or writing anything: each file it would overwrite
    /// ([`RestoreAction::Restored`]), delete ([`RestoreAction::Deleted`])
    /// or refuse to touch ([`RestoreAction::Failed`], with why). A front
    /// end shows this and asks before rewinding.
    pub fn rewind_preview(
        &self,
        point: &RewindPoint,
        scope: RewindScope,
    ) -> Result<Vec<RestoredFile>> {
        let loaded = self.load()?;
        let (_, plan) = self.rewind_plan(&loaded, point)?;
        if scope == RewindScope::ConversationOnly {
            return Ok(Vec::new());
        }
        Ok(plan
            .into_iter()
            .map(|(path, before, root)| {
                let checked = self
                    .restore_beneath(root.as_ref())
                    .and_then(|beneath| files::restorable(&beneath, &path));
                let action = match (checked, before) {
                    (Err(why), _) => RestoreAction::Failed(why),
                    (Ok(_), Snapshot::Absent(_)) => RestoreAction::Deleted,
                    (Ok(_), _) => RestoreAction::Restored,
                };
                RestoredFile { path, action }
            })
            .collect())
    }

    /// Where a rewind to `point` returns (the entry the new branch follows)
    /// and the files to put back: each file changed after it, once, with
    /// its content at that point and its root.
    fn rewind_plan(
        &self,
        loaded: &LoadedSession,
        point: &RewindPoint,
    ) -> Result<(Option<EntryId>, RestorePlan)> {
        let target: Option<EntryId> = match point {
            RewindPoint::BeforeTurn(id) => loaded.get(id).map(|e| e.parent_id.clone()),
            RewindPoint::AfterEntry(id) => loaded.get(id).map(|e| Some(e.id.clone())),
        }
        .ok_or_else(|| StoreError::UnknownEntry {
            session: self.id().to_string(),
            entry: match point {
                RewindPoint::BeforeTurn(id) | RewindPoint::AfterEntry(id) => id.clone(),
            },
        })?;
        let path = loaded.current_path();
        let start = match &target {
            None => 0,
            Some(t) => match path.iter().position(|e| &e.id == t) {
                Some(i) => i + 1,
                None => {
                    return Err(StoreError::UnknownEntry {
                        session: self.id().to_string(),
                        entry: format!("{t} (not on the current branch)"),
                    });
                }
            },
        };
        let mut seen = HashSet::new();
        let mut plan = Vec::new();
        for e in &path[start..] {
            if let EntryBody::Checkpoint { path, before, root } = &e.body
                && seen.insert(path.clone())
            {
                plan.push((path.clone(), before.clone(), root.clone()));
            }
        }
        Ok((target, plan))
    }

    /// Rewinds files and/or the conversation to `point`. Files changed
    /// after it are snapshotted first (on the abandoned branch), then
    /// restored; the conversation continues from `point` as a new branch.
    /// Changes made by shell commands are not tracked ([`UNTRACKED_NOTE`]).
    pub fn rewind(&mut self, point: &RewindPoint, scope: RewindScope) -> Result<RewindOutcome> {
        let loaded = self.load()?;
        let (target, plan) = self.rewind_plan(&loaded, point)?;
        let mut files = Vec::new();
        if scope != RewindScope::ConversationOnly {
            for (path, before, root) in plan {
                let checked = self.restore_beneath(root.as_ref()).and_then(|beneath| {
                    files::restorable(&beneath, &path).map(|target| (beneath, target))
                });
                let action = match checked {
                    Err(why) => RestoreAction::Failed(why),
                    Ok((beneath, target)) => {
                        // Keep the abandoned branch's version too: nothing is lost.
                        self.record_snapshot(&beneath, &target, root)?;
                        files::restore(&beneath, &target, &before, &loaded)
                    }
                };
                files.push(RestoredFile { path, action });
            }
        }
        if scope == RewindScope::FilesOnly {
            return Ok(RewindOutcome {
                entry: None,
                files,
                history: loaded.history(),
            });
        }
        let body = EntryBody::Rewind {
            restored: files
                .iter()
                .filter(|f| !matches!(f.action, RestoreAction::Failed(_)))
                .map(|f| f.path.clone())
                .collect(),
        };
        let id = self.append_with_parent(target.as_deref(), &body)?;
        self.leaf = Some(id.clone());
        let history = match &target {
            Some(t) => loaded.history_at(t),
            None => Vec::new(),
        };
        Ok(RewindOutcome {
            entry: Some(id),
            files,
            history,
        })
    }
}

impl Drop for SessionWriter {
    fn drop(&mut self) {
        if self.pending_header {
            // Nothing was ever written: leave no trace of this session.
            let _ = std::fs::remove_file(&self.lock_path);
        }
    }
}
