//! Replacing a file of the user's config directory without following a
//! symlink at the file's own name and without a predictable temp name.
//!
//! The new contents go to a temp file with a random name in the same
//! directory, created `O_CREAT | O_EXCL | O_NOFOLLOW` (so nothing planted
//! there can be written through), given the old file's permission bits or
//! 0600 for a new file (set on the descriptor, so the umask does not
//! matter), then renamed over the target. Files inside a project are
//! written with `wright_sandbox::Beneath` instead, which also refuses
//! symlinked parent directories.

use std::fs::{File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Mode of a file this module creates: only the user may read it, since
/// config files may carry project paths and settings the user keeps private.
pub const NEW_FILE_MODE: u32 = 0o600;

/// Atomically replaces (or creates) `path` with `bytes`. An existing file
/// keeps its permission bits; a new one is created [`NEW_FILE_MODE`]. A
/// symlink or a directory at `path` is refused, not followed.
pub fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mode = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} is a symbolic link; refusing to write through it",
                    path.display()
                ),
            ));
        }
        Ok(meta) if meta.is_dir() => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is a directory", path.display()),
            ));
        }
        Ok(meta) => Some(permission_bits(&meta)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let (tmp, file) = create_temp(dir)?;
    let result =
        fill(file, bytes, mode.unwrap_or(NEW_FILE_MODE)).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        // Undo our own partial work; the original is untouched.
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(unix)]
fn permission_bits(meta: &std::fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o7777
}

#[cfg(not(unix))]
fn permission_bits(_meta: &std::fs::Metadata) -> u32 {
    NEW_FILE_MODE
}

fn fill(mut file: File, bytes: &[u8], mode: u32) -> io::Result<()> {
    file.write_all(bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // fchmod on the descriptor: independent of the umask and of the path.
        file.set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    file.sync_all()
}

/// A new temp file in `dir` with an unpredictable name, created exclusively
/// and never through a symlink.
fn create_temp(dir: &Path) -> io::Result<(PathBuf, File)> {
    let mut last = io::Error::other("no temp name was free");
    for _ in 0..32 {
        let name = format!(".wright-{:016x}.tmp", random());
        let tmp = dir.join(name);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options
                .mode(NEW_FILE_MODE)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
        }
        match options.open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = e,
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// 64 random-enough bits: std's hasher keys are seeded from the OS RNG.
fn random() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish()
}

#[cfg(test)]
#[cfg(unix)]
#[path = "write_tests.rs"]
mod tests;
