//! Private files and directories: sessions, spilled command output, job
//! logs and memory notes can hold anything the model saw, secrets
//! included, so on Unix they are created 0600 in directories that are
//! 0700, whatever the umask, and wright's own directories are tightened
//! when they exist with looser modes. Windows has no modes: files there
//! inherit the ACL of the user's profile directory they are created in.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io;
use std::path::Path;

/// Mode of every private file (Unix).
pub const FILE_MODE: u32 = 0o600;
/// Mode of every private directory (Unix).
pub const DIR_MODE: u32 = 0o700;

/// Which private directories an existing looser mode is tightened for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tighten {
    /// Set the directory to 0700 if it is not (best effort: a directory
    /// we do not own is left as it is).
    Yes,
    /// Leave an existing directory's mode alone (it belongs to the user).
    No,
}

/// Creates `dir` and any missing parents with mode 0700, then, with
/// [`Tighten::Yes`], makes sure `dir` itself is 0700 (it may predate this
/// wright, or have been made by hand). Only `dir` is tightened: parents
/// above wright's own tree belong to the user.
pub fn private_dir(dir: &Path, tighten: Tighten) -> io::Result<()> {
    let mut builder = DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, DIR_MODE);
    builder.create(dir)?;
    match tighten {
        Tighten::Yes => tighten_dir(dir),
        Tighten::No => Ok(()),
    }
}

/// Sets an existing directory to 0700 unless it already is. A directory
/// we do not own cannot be changed; that is not worth failing a session.
pub fn tighten_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(dir)?;
        if meta.permissions().mode() & 0o777 == DIR_MODE {
            return Ok(());
        }
        match std::fs::set_permissions(dir, std::fs::Permissions::from_mode(DIR_MODE)) {
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => Ok(()),
            other => other,
        }
    }
    #[cfg(not(unix))]
    {
        std::fs::metadata(dir).map(|_| ())
    }
}

/// Sets an existing file of ours to 0600 unless it already is (a file
/// written by an older wright, or under a loose umask). Best effort, like
/// [`tighten_dir`].
pub fn tighten_file(file: &File) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = file.metadata()?;
        if meta.permissions().mode() & 0o777 == FILE_MODE {
            return Ok(());
        }
        match file.set_permissions(std::fs::Permissions::from_mode(FILE_MODE)) {
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => Ok(()),
            other => other,
        }
    }
    #[cfg(not(unix))]
    {
        file.metadata().map(|_| ())
    }
}

/// Options that create a file with mode 0600 (the mode applies only when
/// the file is created).
pub fn private_file_options() -> OpenOptions {
    #[cfg(unix)]
    {
        let mut options = OpenOptions::new();
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, FILE_MODE);
        options
    }
    #[cfg(not(unix))]
    {
        OpenOptions::new()
    }
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn new_dirs_and_files_are_private() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("a/b");
        private_dir(&dir, Tighten::Yes).unwrap();
        assert_eq!(mode(&root.path().join("a")), DIR_MODE);
        assert_eq!(mode(&dir), DIR_MODE);
        let file = dir.join("f");
        private_file_options()
            .write(true)
            .create_new(true)
            .open(&file)
            .unwrap();
        assert_eq!(mode(&file), FILE_MODE);
    }

    #[test]
    fn an_existing_loose_dir_is_tightened_only_when_asked() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("loose");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        private_dir(&dir, Tighten::No).unwrap();
        assert_eq!(mode(&dir), 0o755);
        private_dir(&dir, Tighten::Yes).unwrap();
        assert_eq!(mode(&dir), DIR_MODE);
    }
}
