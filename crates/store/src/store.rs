//! The session directory: creating, finding, opening, forking and removing
//! sessions under `<data_dir>/wright/sessions/<project-slug>/<id>.jsonl`.
//!
//! Sessions are found by file name (the id), never by file content, so a
//! session whose first lines are odd still resumes; and a lookup that finds
//! nothing in the current project falls back to every project.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::entry::{EntryBody, FORMAT_VERSION, ForkRef, Header, new_uuid, now_ts};
use crate::error::{Result, StoreError};
use crate::lines::MAX_LINE;
use crate::load::{LoadedSession, load_tree};
use crate::lock;
use crate::slug::{normalize_cwd, project_slug};
use crate::writer::{SessionWriter, WriterParts};

/// How many ids an error message suggests.
const SUGGESTIONS: usize = 8;

/// The session store rooted in a data directory.
#[derive(Debug, Clone)]
pub struct SessionStore {
    root: PathBuf,
}

/// What a new session records in its header.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionMeta {
    /// Working directory (decides the project directory).
    pub cwd: PathBuf,
    /// Model in use.
    pub model: String,
    /// Provider in use.
    pub provider: String,
}

/// A session found by id or prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedSession {
    /// Full session id.
    pub id: String,
    /// Its file.
    pub path: PathBuf,
}

fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-')
}

fn id_of(path: &Path) -> Option<String> {
    path.file_stem().map(|s| s.to_string_lossy().into_owned())
}

fn modified(path: &Path) -> std::time::SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or(std::time::UNIX_EPOCH)
}

impl SessionStore {
    /// A store under `<data_dir>/wright/sessions` (`data_dir` is e.g.
    /// `dirs::data_dir()`, or a temp dir in tests).
    pub fn new(data_dir: impl Into<PathBuf>) -> Self {
        Self {
            root: data_dir.into().join("wright").join("sessions"),
        }
    }

    /// `<data_dir>/wright/sessions`.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The directory holding the sessions of `cwd`.
    pub fn project_dir(&self, cwd: &Path) -> PathBuf {
        self.root.join(project_slug(&normalize_cwd(cwd)))
    }

    /// Session files of one project, or of all projects. Only regular
    /// files count: see [`Self::unreadable_session_files`].
    pub(crate) fn session_files(&self, project: Option<&Path>) -> Vec<PathBuf> {
        let (files, _) = self.session_candidates(project);
        files
    }

    /// Paths named like session files (`*.jsonl`) of one project, or of all
    /// projects, that are not regular files (a FIFO, a device, a
    /// directory): they are skipped, since reading one could block
    /// forever; callers warn about them.
    pub fn unreadable_session_files(&self, project: Option<&Path>) -> Vec<PathBuf> {
        let (_, skipped) = self.session_candidates(project);
        skipped
    }

    /// `*.jsonl` paths split into regular files and the rest.
    fn session_candidates(&self, project: Option<&Path>) -> (Vec<PathBuf>, Vec<PathBuf>) {
        let dirs: Vec<PathBuf> = match project {
            Some(cwd) => vec![self.project_dir(cwd)],
            None => std::fs::read_dir(&self.root)
                .map(|rd| {
                    rd.filter_map(|e| e.ok())
                        .map(|e| e.path())
                        .filter(|p| p.is_dir())
                        .collect()
                })
                .unwrap_or_default(),
        };
        let mut files = Vec::new();
        for dir in dirs {
            let Ok(rd) = std::fs::read_dir(&dir) else {
                continue;
            };
            files.extend(
                rd.filter_map(|e| e.ok())
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "jsonl")),
            );
        }
        files
            .into_iter()
            .partition(|p| crate::regular::is_regular(p))
    }

    /// The file of the session with exactly this id, in any project.
    pub fn locate(&self, id: &str) -> Option<PathBuf> {
        if !valid_id(id) {
            return None;
        }
        let name = format!("{id}.jsonl");
        let rd = std::fs::read_dir(&self.root).ok()?;
        rd.filter_map(|e| e.ok())
            .map(|e| e.path().join(&name))
            .find(|p| p.is_file())
    }

    fn recent_ids(&self, project: Option<&Path>) -> Vec<String> {
        let mut files: Vec<(std::time::SystemTime, PathBuf)> = self
            .session_files(project)
            .into_iter()
            .map(|p| (modified(&p), p))
            .collect();
        files.sort_by_key(|f| std::cmp::Reverse(f.0));
        files
            .iter()
            .take(SUGGESTIONS)
            .filter_map(|(_, p)| id_of(p))
            .collect()
    }

    /// Finds the session whose id starts with `prefix`: in `project` first
    /// (when given), then in every project. Errors list the candidates.
    pub fn resolve_id(&self, prefix: &str, project: Option<&Path>) -> Result<ResolvedSession> {
        let prefix = prefix.trim();
        // A whole id names its file: no need to list (and stat) every
        // session of the project, which grows with every run.
        if let Some(cwd) = project
            && valid_id(prefix)
        {
            let path = self.project_dir(cwd).join(format!("{prefix}.jsonl"));
            if crate::regular::is_regular(&path) {
                return Ok(ResolvedSession {
                    id: prefix.to_owned(),
                    path,
                });
            }
        }
        let matching = |scope: Option<&Path>| -> Vec<ResolvedSession> {
            self.session_files(scope)
                .into_iter()
                .filter_map(|path| {
                    let id = id_of(&path)?;
                    id.starts_with(prefix)
                        .then_some(ResolvedSession { id, path })
                })
                .collect()
        };
        let mut found = if prefix.is_empty() {
            Vec::new()
        } else {
            project.map(|p| matching(Some(p))).unwrap_or_default()
        };
        if found.is_empty() && !prefix.is_empty() {
            found = matching(None);
        }
        if let Some(exact) = found.iter().find(|s| s.id == prefix) {
            return Ok(exact.clone());
        }
        match found.len() {
            0 => Err(StoreError::NotFound {
                prefix: prefix.to_string(),
                candidates: self.recent_ids(project),
            }),
            1 => Ok(found.remove(0)),
            _ => {
                let mut candidates: Vec<String> = found.into_iter().map(|s| s.id).collect();
                candidates.sort();
                candidates.dedup();
                Err(StoreError::Ambiguous {
                    prefix: prefix.to_string(),
                    candidates,
                })
            }
        }
    }

    /// The most recently written session of `cwd`'s project (`--continue`).
    pub fn latest_for_project(&self, cwd: &Path) -> Option<String> {
        self.session_files(Some(cwd))
            .into_iter()
            .map(|p| (modified(&p), p))
            .max_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)))
            .and_then(|(_, p)| id_of(&p))
    }

    fn path_of(&self, id: &str) -> Result<PathBuf> {
        self.locate(id).ok_or_else(|| StoreError::NotFound {
            prefix: id.to_string(),
            candidates: Vec::new(),
        })
    }

    /// Loads a session by full id (see [`Self::resolve_id`] for prefixes).
    pub fn load(&self, id: &str) -> Result<LoadedSession> {
        let path = self.path_of(id)?;
        self.load_path(&path)
    }

    /// Loads a session file.
    pub fn load_path(&self, path: &Path) -> Result<LoadedSession> {
        load_tree(path, &|id| self.locate(id))
    }

    /// Starts a new session. Nothing is written until the first entry.
    pub fn create(&self, meta: &SessionMeta) -> Result<SessionWriter> {
        self.create_as(meta, new_uuid().hyphenated().to_string())
    }

    /// Starts a new session under a caller-chosen id (Claude Code's
    /// `--session-id`): it must be a UUID no session has yet.
    pub fn create_with_id(&self, meta: &SessionMeta, id: &str) -> Result<SessionWriter> {
        let uuid = uuid::Uuid::parse_str(id.trim())
            .map_err(|_| StoreError::BadId(format!("session id `{id}` is not a UUID")))?;
        let id = uuid.hyphenated().to_string();
        if self.locate(&id).is_some() {
            return Err(StoreError::BadId(format!(
                "a session with id {id} exists already (resume it with --resume {id})"
            )));
        }
        self.create_as(meta, id)
    }

    fn create_as(&self, meta: &SessionMeta, id: String) -> Result<SessionWriter> {
        let cwd = normalize_cwd(&meta.cwd);
        let header = Header {
            kind: "session".to_string(),
            version: FORMAT_VERSION,
            id,
            cwd,
            created: now_ts(),
            model: meta.model.clone(),
            provider: meta.provider.clone(),
            parent: None,
            agent: None,
        };
        let dir = self.root.join(project_slug(&header.cwd));
        self.new_writer(header, &dir, None)
    }

    fn new_writer(
        &self,
        header: Header,
        dir: &Path,
        leaf: Option<String>,
    ) -> Result<SessionWriter> {
        // The sessions root and the project directory are wright's own:
        // both are made (or tightened to) 0700.
        for private in [self.root.as_path(), dir] {
            if dir.starts_with(private) {
                crate::private::ensure_dir(private)
                    .map_err(|e| StoreError::io("creating", private, e))?;
            }
        }
        let path = dir.join(format!("{}.jsonl", header.id));
        self.writer_at(header, path, leaf)
    }

    /// A writer of a new session file at `path` (whose directory exists),
    /// holding its lock.
    pub(crate) fn writer_at(
        &self,
        header: Header,
        path: PathBuf,
        leaf: Option<String>,
    ) -> Result<SessionWriter> {
        let lock_path = path.with_extension("lock");
        let lock = lock::acquire(&lock_path, &header.id)?;
        Ok(SessionWriter::from_parts(WriterParts {
            store: self.clone(),
            header,
            path,
            file: None,
            len: 0,
            leaf,
            lock_path,
            lock,
        }))
    }

    /// Opens an existing session for appending: takes its lock (failing with
    /// [`StoreError::Locked`] before touching anything), mends a torn last
    /// line, and positions the writer at the current leaf.
    pub fn open_for_append(&self, id: &str) -> Result<SessionWriter> {
        Ok(self.resume(id)?.0)
    }

    /// [`Self::open_for_append`] plus the loaded session, read once.
    pub fn resume(&self, id: &str) -> Result<(SessionWriter, LoadedSession)> {
        let path = self.path_of(id)?;
        let lock_path = path.with_extension("lock");
        let lock = lock::acquire(&lock_path, id)?;
        let mut file = File::options()
            .read(true)
            .append(true)
            .open(&path)
            .map_err(|e| StoreError::io("opening", &path, e))?;
        crate::private::tighten_file(&file).map_err(|e| StoreError::io("protecting", &path, e))?;
        if let Some(dir) = path.parent() {
            crate::private::tighten_dir(dir).map_err(|e| StoreError::io("protecting", dir, e))?;
        }
        let mended = mend_tail(&mut file, &path)?;
        let len = file
            .metadata()
            .map_err(|e| StoreError::io("reading", &path, e))?
            .len();
        let mut loaded = self.load_path(&path)?;
        loaded.warnings.extend(mended);
        let writer = SessionWriter::from_parts(WriterParts {
            store: self.clone(),
            header: loaded.header.clone(),
            path,
            file: Some(file),
            len,
            leaf: loaded.leaf().cloned(),
            lock_path,
            lock,
        });
        Ok((writer, loaded))
    }

    /// Starts a new session continuing `id` from `at_entry` (default: its
    /// current leaf). The new file's header points at the parent session
    /// and entry; its history is read from the parent by reference, so the
    /// parent file is never changed.
    pub fn fork(&self, id: &str, at_entry: Option<&str>) -> Result<SessionWriter> {
        let source = self.load(id)?;
        let at = match at_entry {
            Some(entry) => Some(source.get(entry).map(|e| e.id.clone()).ok_or_else(|| {
                StoreError::UnknownEntry {
                    session: id.to_string(),
                    entry: entry.to_string(),
                }
            })?),
            None => source.leaf().cloned(),
        };
        let (mut model, mut provider) =
            (source.header.model.clone(), source.header.provider.clone());
        for e in source.path_to(at.as_deref()) {
            if let EntryBody::ModelChange {
                model: m,
                provider: p,
            } = &e.body
            {
                model.clone_from(m);
                provider.clone_from(p);
            }
        }
        let header = Header {
            kind: "session".to_string(),
            version: FORMAT_VERSION,
            id: new_uuid().hyphenated().to_string(),
            cwd: source.header.cwd.clone(),
            created: now_ts(),
            model,
            provider,
            parent: Some(ForkRef {
                session: source.header.id.clone(),
                entry: at.clone(),
            }),
            agent: None,
        };
        let dir = source
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| self.root.clone());
        self.new_writer(header, &dir, at)
    }

    /// Whether a live process is writing session `id` right now.
    pub fn is_in_use(&self, id: &str) -> bool {
        self.locate(id)
            .is_some_and(|p| lock::is_locked(&p.with_extension("lock")))
    }

    /// Deletes a session, its blobs, its subagents' transcripts and its
    /// lock file. Refuses while a live process holds it. Forks of it lose
    /// the history before their fork point.
    pub fn remove(&self, id: &str) -> Result<()> {
        let path = self.path_of(id)?;
        let lock_path = path.with_extension("lock");
        let _lock = lock::acquire(&lock_path, id)?;
        std::fs::remove_file(&path).map_err(|e| StoreError::io("removing", &path, e))?;
        let blobs = crate::load::blob_dir_of(&path);
        match std::fs::remove_dir_all(&blobs) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(StoreError::io("removing", blobs, e)),
        }
        // Its subagents' transcripts go with it: they mean nothing alone.
        let agents = crate::subagent::agents_dir_of(&path);
        match std::fs::remove_dir_all(&agents) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(StoreError::io("removing", agents, e)),
        }
        let _ = std::fs::remove_file(&lock_path);
        Ok(())
    }
}

/// Ends the file with a complete line: a complete last line that only lacks
/// its newline gets one; a torn fragment (never acknowledged) is cut off,
/// and the warning saying so is returned. A fragment above the line cap is
/// only ended (loading skips it with its own warning), so finding where it
/// starts never holds more than one chunk of it.
fn mend_tail(file: &mut File, path: &Path) -> Result<Option<String>> {
    const CHUNK: u64 = 64 * 1024;
    let len = file
        .metadata()
        .map_err(|e| StoreError::io("reading", path, e))?
        .len();
    if len == 0 {
        return Ok(None);
    }
    let read_at = |file: &mut File, start: u64, size: u64| -> Result<Vec<u8>> {
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(start))
            .and_then(|_| file.take(size).read_to_end(&mut bytes))
            .map_err(|e| StoreError::io("reading", path, e))?;
        Ok(bytes)
    };
    // Where the last line starts: just after the last newline.
    let mut end = len;
    let cut = loop {
        let start = end.saturating_sub(CHUNK);
        let chunk = read_at(file, start, end - start)?;
        if end == len && chunk.last() == Some(&b'\n') {
            return Ok(None);
        }
        if let Some(nl) = chunk.iter().rposition(|b| *b == b'\n') {
            break start + nl as u64 + 1;
        }
        if start == 0 {
            break 0;
        }
        if len - start > MAX_LINE as u64 {
            file.write_all(b"\n")
                .map_err(|e| StoreError::io("writing", path, e))?;
            return Ok(None);
        }
        end = start;
    };
    let fragment = read_at(file, cut, len - cut)?;
    if fragment.len() > MAX_LINE {
        file.write_all(b"\n")
            .map_err(|e| StoreError::io("writing", path, e))?;
        return Ok(None);
    }
    finish_tail(file, path, &fragment, cut)
}

fn finish_tail(file: &mut File, path: &Path, fragment: &[u8], cut: u64) -> Result<Option<String>> {
    if serde_json::from_slice::<serde_json::Value>(fragment).is_ok() {
        file.write_all(b"\n")
            .map_err(|e| StoreError::io("writing", path, e))?;
        return Ok(None);
    }
    file.set_len(cut)
        .map_err(|e| StoreError::io("truncating", path, e))?;
    Ok(Some(format!(
        "removed an incomplete last line of {} bytes (the session was interrupted while writing)",
        fragment.len()
    )))
}
