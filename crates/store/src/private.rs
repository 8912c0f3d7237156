//! Private files and directories: sessions, blobs and locks hold whole
//! conversations (file contents, command output, sometimes secrets the
//! model saw), so they are created 0600 in directories that are 0700,
//! whatever the umask, and wright's own directories are tightened when
//! they exist with looser modes.

use std::fs::{DirBuilder, File, OpenOptions, Permissions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// Mode of every file the store creates.
pub(crate) const FILE_MODE: u32 = 0o600;
/// Mode of every directory the store creates.
pub(crate) const DIR_MODE: u32 = 0o700;

/// Creates `dir` and any missing parents with mode 0700, then makes sure
/// `dir` itself is 0700 (it may predate this wright, or have been made by
/// hand). Only `dir` is tightened: parents above wright's own tree belong
/// to the user.
pub(crate) fn ensure_dir(dir: &Path) -> io::Result<()> {
    DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)?;
    tighten_dir(dir)
}

/// Sets an existing directory to 0700 unless it already is. A directory
/// we do not own cannot be changed; that is not worth failing a session.
pub(crate) fn tighten_dir(dir: &Path) -> io::Result<()> {
    let meta = std::fs::metadata(dir)?;
    if meta.permissions().mode() & 0o777 == DIR_MODE {
        return Ok(());
    }
    match std::fs::set_permissions(dir, Permissions::from_mode(DIR_MODE)) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => Ok(()),
        other => other,
    }
}

/// Sets an existing file of ours to 0600 unless it already is (a session
/// written by an older wright, or under a loose umask). Best effort, like
/// [`tighten_dir`].
pub(crate) fn tighten_file(file: &File) -> io::Result<()> {
    let meta = file.metadata()?;
    if meta.permissions().mode() & 0o777 == FILE_MODE {
        return Ok(());
    }
    match file.set_permissions(Permissions::from_mode(FILE_MODE)) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => Ok(()),
        other => other,
    }
}

/// Options that create a file with mode 0600 (the mode applies only when
/// the file is created).
pub(crate) fn file_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.mode(FILE_MODE);
    options
}

/// Creates a new file, failing if it exists, with mode 0600.
pub(crate) fn create_new(path: &Path) -> io::Result<File> {
    file_options().write(true).create_new(true).open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn new_dirs_and_files_are_private() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("a/b");
        ensure_dir(&dir).unwrap();
        assert_eq!(mode(&root.path().join("a")), DIR_MODE);
        assert_eq!(mode(&dir), DIR_MODE);
        let file = dir.join("f");
        create_new(&file).unwrap();
        assert_eq!(mode(&file), FILE_MODE);
        assert!(create_new(&file).is_err());
    }

    #[test]
    fn an_existing_loose_file_is_tightened() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("old.jsonl");
        std::fs::write(&path, "x").unwrap();
        std::fs::set_permissions(&path, Permissions::from_mode(0o644)).unwrap();
        let file = File::open(&path).unwrap();
        tighten_file(&file).unwrap();
        assert_eq!(mode(&path), FILE_MODE);
    }

    #[test]
    fn an_existing_loose_dir_is_tightened() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("loose");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, Permissions::from_mode(0o755)).unwrap();
        ensure_dir(&dir).unwrap();
        assert_eq!(mode(&dir), DIR_MODE);
    }
}
