//! File checkpoints and their restore, through the same resolver and
//! kernel-checked opens the file tools use ([`wright_sandbox::fs_resolve`],
//! [`wright_sandbox::Beneath`]).
//!
//! A checkpoint snapshots the file the kernel reaches (symlinks resolved
//! once), opened with every symlink refused and without blocking: a FIFO,
//! a device, a directory or a path that changed under us is simply not
//! snapshotted. A restore writes (temp file + rename) or deletes
//! (`unlinkat`) only beneath the session's workspace roots, and only at the
//! recorded path itself: a path that now leads through a symbolic link, or
//! lies outside the roots, is reported as not restored and never touched.

use std::io::Read;
use std::path::{Path, PathBuf};

use wright_sandbox::{Beneath, fs_resolve};

use crate::blob;
use crate::entry::Snapshot;
use crate::load::LoadedSession;
use crate::regular;

/// What happened to one file during a rewind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RestoreAction {
    /// Its earlier content was written back.
    Restored,
    /// It did not exist at that point and was deleted.
    Deleted,
    /// It could not be restored; the reason says why.
    Failed(String),
}

/// A file's content before an edit, as far as it could be taken.
pub(crate) enum Before {
    /// A regular file with these bytes.
    Content(Vec<u8>),
    /// Nothing there.
    Absent,
    /// Not snapshotted (not a regular file, or not safely readable).
    NotTaken,
}

/// Where a checkpoint of `path` is taken: the path resolved once by the
/// shared resolver; `None` when it cannot be resolved.
pub(crate) fn resolve(path: &Path) -> Option<PathBuf> {
    if !path.is_absolute() {
        return None;
    }
    fs_resolve::resolve_path(&fs_resolve::lexical(path)).ok()
}

/// The deepest root of `beneath` holding `path`.
pub(crate) fn root_of(beneath: &Beneath, path: &Path) -> Option<PathBuf> {
    beneath
        .roots()
        .iter()
        .filter(|r| path.starts_with(r))
        .max_by_key(|r| r.components().count())
        .cloned()
}

/// Reads the resolved path `real` beneath its root, never following a
/// symlink and never blocking (the open is non-blocking; anything but a
/// regular file is left alone).
pub(crate) fn snapshot(beneath: &Beneath, real: &Path) -> Before {
    let mut file = match beneath.open_read(real) {
        Ok(f) => f,
        Err(e) if e.is_not_found() => return Before::Absent,
        Err(_) => return Before::NotTaken,
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Before::NotTaken;
    }
    let mut bytes = Vec::new();
    match file.read_to_end(&mut bytes) {
        Ok(_) => Before::Content(bytes),
        Err(_) => Before::NotTaken,
    }
}

/// Checks that the recorded `path` may be restored beneath `beneath`: it
/// lies inside the roots and still resolves to itself (no symlink in it).
/// Returns the path to restore, or why it is not restored.
pub(crate) fn restorable(beneath: &Beneath, path: &Path) -> Result<PathBuf, String> {
    if !path.is_absolute() {
        return Err("its recorded path is not absolute; nothing was written".to_owned());
    }
    let lex = fs_resolve::lexical(path);
    if !beneath.contains(&lex) {
        return Err(format!(
            "it is outside the workspace ({}); rewind only changes files inside it, so \
             nothing was written or deleted",
            roots_text(beneath)
        ));
    }
    match fs_resolve::resolve_path(&lex) {
        Ok(real) if real == lex => Ok(lex),
        Ok(real) => Err(format!(
            "it now leads through a symbolic link (to {}); nothing was written or deleted. \
             Remove the link and rewind again if the file should come back",
            real.display()
        )),
        Err(e) => Err(format!("{e}; nothing was written or deleted")),
    }
}

pub(crate) fn roots_text(beneath: &Beneath) -> String {
    let roots: Vec<String> = beneath
        .roots()
        .iter()
        .map(|r| r.display().to_string())
        .collect();
    if roots.is_empty() {
        "no workspace root could be resolved".to_owned()
    } else {
        roots.join(", ")
    }
}

/// Puts `before` back at `path` (checked by [`restorable`]) beneath the roots.
pub(crate) fn restore(
    beneath: &Beneath,
    path: &Path,
    before: &Snapshot,
    loaded: &LoadedSession,
) -> RestoreAction {
    match before {
        Snapshot::Absent(_) => match beneath.remove(path) {
            Ok(()) => RestoreAction::Deleted,
            Err(e) if e.is_not_found() => RestoreAction::Deleted,
            Err(e) => RestoreAction::Failed(format!("could not delete it: {e}")),
        },
        Snapshot::Blob { blob, .. } => match blob::find_blob(blob, &loaded.blob_dirs) {
            None => RestoreAction::Failed(format!("its snapshot {blob} is missing")),
            Some(source) => match regular::read_regular(&source) {
                Err(e) => RestoreAction::Failed(format!("could not read its snapshot: {e}")),
                Ok(bytes) => match beneath.write(path, &bytes) {
                    Ok(()) => RestoreAction::Restored,
                    Err(e) => RestoreAction::Failed(format!("could not write it: {e}")),
                },
            },
        },
    }
}
