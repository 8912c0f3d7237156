//! Private files and directories: sessions, blobs and locks hold whole
//! conversations (file contents, command output, sometimes secrets the
//! model saw), so they are created 0600 in directories that are 0700,
//! whatever the umask, and wright's own directories are tightened when
//! they exist with looser modes (the mechanics, and what Windows does
//! instead, are in [`wright_sandbox::private_fs`]).

use std::fs::File;
use std::io;
use std::path::Path;

use wright_sandbox::private_fs::{self, Tighten};

pub(crate) use wright_sandbox::private_fs::{private_file_options as file_options, tighten_dir};

/// Creates `dir` and any missing parents private, then makes sure `dir`
/// itself is (it may predate this wright, or have been made by hand).
/// Only `dir` is tightened: parents above wright's own tree belong to the
/// user.
pub(crate) fn ensure_dir(dir: &Path) -> io::Result<()> {
    private_fs::private_dir(dir, Tighten::Yes)
}

/// Sets an existing file of ours to 0600 unless it already is (a session
/// written by an older wright, or under a loose umask); best effort.
pub(crate) fn tighten_file(file: &File) -> io::Result<()> {
    private_fs::tighten_file(file)
}

/// Creates a new private file, failing if it exists.
pub(crate) fn create_new(path: &Path) -> io::Result<File> {
    file_options().write(true).create_new(true).open(path)
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use std::fs::Permissions;
    use std::os::unix::fs::PermissionsExt;
    use wright_sandbox::private_fs::{DIR_MODE, FILE_MODE};

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
