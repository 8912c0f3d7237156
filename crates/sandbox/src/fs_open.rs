//! Opening paths resolved by [`crate::fs_resolve`] so that the kernel, not
//! string checks, refuses escapes.
//!
//! A path inside a workspace root is opened relative to that root's
//! directory fd; any other path is opened relative to `/`. On Linux 5.6+
//! that is `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS |
//! RESOLVE_NO_SYMLINKS`: the path is already fully resolved, so any symlink
//! found now was swapped in after the check, and the open fails instead of
//! following it. Where `openat2` is missing (ENOSYS) or filtered by seccomp
//! (EPERM), the same guarantee comes from walking one component at a time
//! with `openat(O_NOFOLLOW | O_DIRECTORY)`. Writes create missing parent
//! directories with `mkdirat` during that walk and replace the file
//! atomically (a temp file created `O_EXCL | O_NOFOLLOW` in the same
//! directory fd, then `renameat`), which also means a hard link to a file
//! elsewhere is replaced, never written through.
//!
//! Off Linux a portable fallback checks each component with `lstat` before
//! a plain open; it has a race window the Linux code does not.

use std::fs::File;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::fs_resolve;

/// Why a resolved path could not be opened or written.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The path was not resolved first (relative, or `.`/`..` in it).
    #[error("{0} is not a resolved absolute path; resolve it before opening")]
    NotResolved(PathBuf),
    /// A symlink appeared in the path after it was resolved.
    #[error(
        "{0} changed while it was being opened (a symbolic link appeared in it); nothing was \
         read or written. Check the path and try again"
    )]
    Symlink(PathBuf),
    /// The kernel refused a path leading out of its root.
    #[error("{0} leads outside the directory it was opened from; nothing was opened")]
    Escape(PathBuf),
    /// The path is a directory where a file was needed.
    #[error("{0} is a directory")]
    IsDirectory(PathBuf),
    /// Any other failure of the OS.
    #[error("{path}: {source}")]
    Io {
        /// The path being opened.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
}

impl OpenError {
    /// Whether the file (or a parent directory) does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(self, OpenError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }

    fn from_io(path: &Path, e: io::Error) -> Self {
        #[cfg(target_os = "linux")]
        match e.raw_os_error() {
            Some(libc::ELOOP) => return OpenError::Symlink(path.to_path_buf()),
            Some(libc::EXDEV) => return OpenError::Escape(path.to_path_buf()),
            Some(libc::EISDIR) => return OpenError::IsDirectory(path.to_path_buf()),
            _ => {}
        }
        OpenError::Io {
            path: path.to_path_buf(),
            source: e,
        }
    }
}

/// The directories paths are opened beneath: the workspace roots, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Beneath {
    roots: Vec<PathBuf>,
}

impl Beneath {
    /// Roots are resolved once here (a root given through a symlink is
    /// replaced by its target); a root that cannot be resolved is dropped,
    /// so paths under it are opened beneath `/` with symlinks still refused.
    pub fn new(roots: impl IntoIterator<Item = PathBuf>) -> Self {
        let roots = roots
            .into_iter()
            .filter_map(|r| fs_resolve::resolve_path(&r).ok())
            .collect();
        Self { roots }
    }

    /// The resolved roots.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Whether `path` (resolved) lies inside one of the roots.
    pub fn contains(&self, path: &Path) -> bool {
        fs_resolve::inside(path, &self.roots)
    }

    /// The directory `path` is opened from (the deepest root holding it,
    /// else `/`) and the rest of the path below it.
    pub fn anchor<'a>(
        &'a self,
        path: &'a Path,
    ) -> Result<(&'a Path, Vec<&'a std::ffi::OsStr>), OpenError> {
        let mut names = Vec::new();
        let mut absolute = false;
        for c in path.components() {
            match c {
                Component::RootDir => absolute = true,
                Component::Normal(n) => names.push(n),
                Component::CurDir | Component::ParentDir | Component::Prefix(_) => {
                    return Err(OpenError::NotResolved(path.to_path_buf()));
                }
            }
        }
        if !absolute {
            return Err(OpenError::NotResolved(path.to_path_buf()));
        }
        let root = self
            .roots
            .iter()
            .filter(|r| path.starts_with(r))
            .max_by_key(|r| r.components().count())
            .map_or(Path::new("/"), PathBuf::as_path);
        let skip = root
            .components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .count();
        Ok((root, names.split_off(skip)))
    }

    /// Opens a resolved path for reading (a directory opens too; the caller
    /// checks the metadata). FIFOs open without blocking.
    pub fn open_read(&self, path: &Path) -> Result<File, OpenError> {
        let (root, rel) = self.anchor(path)?;
        imp::open_read(root, &rel).map_err(|e| OpenError::from_io(path, e))
    }

    /// Replaces (or creates) the file at a resolved path with `bytes`,
    /// creating missing parent directories, keeping an existing file's
    /// permission bits. Never follows a symlink and never writes through a
    /// hard link.
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), OpenError> {
        let (root, rel) = self.anchor(path)?;
        let Some((name, parents)) = rel.split_last() else {
            return Err(OpenError::IsDirectory(path.to_path_buf()));
        };
        match imp::write(root, parents, name, bytes) {
            Ok(imp::Written::Done) => Ok(()),
            Ok(imp::Written::IsDirectory) => Err(OpenError::IsDirectory(path.to_path_buf())),
            Ok(imp::Written::Symlink) => Err(OpenError::Symlink(path.to_path_buf())),
            Err(e) => Err(OpenError::from_io(path, e)),
        }
    }

    /// Removes the directory entry at a resolved path (`unlinkat` beneath
    /// the root). A symlink in a parent directory is refused; a symlink as
    /// the last component is removed itself, never its target. A directory
    /// is not removed ([`OpenError::IsDirectory`]).
    pub fn remove(&self, path: &Path) -> Result<(), OpenError> {
        let (root, rel) = self.anchor(path)?;
        let Some((name, parents)) = rel.split_last() else {
            return Err(OpenError::IsDirectory(path.to_path_buf()));
        };
        match imp::remove(root, parents, name) {
            Ok(imp::Written::Done) => Ok(()),
            Ok(imp::Written::IsDirectory) => Err(OpenError::IsDirectory(path.to_path_buf())),
            Ok(imp::Written::Symlink) => Err(OpenError::Symlink(path.to_path_buf())),
            Err(e) => Err(OpenError::from_io(path, e)),
        }
    }
}

#[cfg(target_os = "linux")]
#[path = "fs_open_linux.rs"]
mod imp;

#[cfg(not(target_os = "linux"))]
#[path = "fs_open_portable.rs"]
mod imp;

// Compiled in Linux tests too, so the fallback is built and exercised here.
#[cfg(all(test, target_os = "linux"))]
#[path = "fs_open_portable.rs"]
mod portable;
// Elsewhere the fallback is the implementation itself.
#[cfg(all(test, unix, not(target_os = "linux")))]
use imp as portable;

#[cfg(test)]
#[cfg(unix)]
#[path = "fs_open_tests.rs"]
mod tests;
