//! Portable side of [`crate::fs_open`] (macOS and others): each component
//! is checked with `lstat` before a plain open. There is a window between
//! the check and the open that the Linux code closes; the resolver still
//! guarantees the path itself has no symlink in it.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What a write came to, short of an OS error.
pub(super) enum Written {
    Done,
    IsDirectory,
    Symlink,
}

fn symlink_error() -> io::Error {
    io::Error::other("a symbolic link appeared in the path after it was checked")
}

/// Walks `names` below `root`, refusing symlinks and creating directories
/// when `create` says so.
fn walk(root: &Path, names: &[&OsStr], create: bool) -> io::Result<PathBuf> {
    let mut cur = root.to_path_buf();
    for name in names {
        cur.push(name);
        match std::fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => return Err(symlink_error()),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound && create => {
                std::fs::create_dir(&cur)?;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(cur)
}

pub(super) fn open_read(root: &Path, rel: &[&OsStr]) -> io::Result<File> {
    File::open(walk(root, rel, false)?)
}

pub(super) fn write(
    root: &Path,
    parents: &[&OsStr],
    name: &OsStr,
    bytes: &[u8],
) -> io::Result<Written> {
    let dir = walk(root, parents, true)?;
    let target = dir.join(name);
    let mode = match std::fs::symlink_metadata(&target) {
        Ok(m) if m.file_type().is_symlink() => return Ok(Written::Symlink),
        Ok(m) if m.is_dir() => return Ok(Written::IsDirectory),
        Ok(m) => Some(m.permissions()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let tmp = dir.join(format!(".wright-write-{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        if let Some(p) = mode {
            f.set_permissions(p)?;
        }
        f.sync_data()?;
        std::fs::rename(&tmp, &target)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(Written::Done)
}

pub(super) fn remove(root: &Path, parents: &[&OsStr], name: &OsStr) -> io::Result<Written> {
    let target = walk(root, parents, false)?.join(name);
    if std::fs::symlink_metadata(&target)?.is_dir() {
        return Ok(Written::IsDirectory);
    }
    // `remove_file` removes a symlink itself, never its target.
    std::fs::remove_file(&target)?;
    Ok(Written::Done)
}
