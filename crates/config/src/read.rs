//! Reading one config file safely: only a regular file (after following
//! symlinks), at most [`MAX_CONFIG_BYTES`], opened so that a FIFO or a
//! device swapped in cannot make wright hang or read without end. A
//! checked-in `.wright/config.toml` is attacker-controlled input.

use std::fs::{File, Metadata};
use std::io::{ErrorKind, Read};
use std::path::Path;

use crate::error::ConfigError;

/// Largest config file wright reads, in bytes (1 MiB). Real configs are a
/// few hundred bytes; anything near this is a mistake or an attack.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// The file's text, `None` if it does not exist. Anything that is not a
/// regular file, is larger than [`MAX_CONFIG_BYTES`], or is not UTF-8 is
/// an error naming the file.
pub(crate) fn read_optional(path: &Path) -> Result<Option<String>, ConfigError> {
    let io = |message: String| ConfigError::Io {
        path: path.to_path_buf(),
        message,
    };
    // Checked before opening: opening a FIFO for reading blocks until a
    // writer appears, and a device may never end.
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e.to_string())),
    };
    check_shape(&meta).map_err(io)?;
    let file = open_nonblocking(path).map_err(|e| io(e.to_string()))?;
    // Checked again on the open handle, in case the path was swapped
    // between the two calls.
    let meta = file.metadata().map_err(|e| io(e.to_string()))?;
    check_shape(&meta).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(e.to_string()))?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(io(too_large()));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| io("stream did not contain valid UTF-8".to_owned()))
}

/// A text file the configuration names (`system_prompt_file`, from any
/// layer), read with the same limits as a config file: a regular file of
/// at most [`MAX_CONFIG_BYTES`], UTF-8, opened without blocking so a FIFO
/// or `/dev/zero` cannot hang wright or fill its memory. A missing file is
/// an error naming it.
pub fn read_text_file(path: &Path) -> Result<String, ConfigError> {
    read_optional(path)?.ok_or_else(|| ConfigError::Io {
        path: path.to_path_buf(),
        message: "no such file".to_owned(),
    })
}

/// `Err` (the message) unless `meta` is a regular file within the size cap.
fn check_shape(meta: &Metadata) -> Result<(), String> {
    if !meta.is_file() {
        return Err(format!("not a regular file ({})", kind_of(meta)));
    }
    if meta.len() > MAX_CONFIG_BYTES {
        return Err(too_large());
    }
    Ok(())
}

fn too_large() -> String {
    format!("larger than {MAX_CONFIG_BYTES} bytes (1 MB); refusing to read it")
}

/// A word for what the path is, for the error message.
fn kind_of(meta: &Metadata) -> &'static str {
    let ft = meta.file_type();
    if ft.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_socket() {
            return "a socket";
        }
        if ft.is_block_device() || ft.is_char_device() {
            return "a device";
        }
    }
    "not a file"
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK makes opening a FIFO return at once; reads of a regular
    // file are unaffected by it.
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_is_none_and_small_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_optional(&dir.path().join("nope")).unwrap(), None);
        let f = dir.path().join("c.toml");
        std::fs::write(&f, "model = \"m\"\n").unwrap();
        assert_eq!(
            read_optional(&f).unwrap().as_deref(),
            Some("model = \"m\"\n")
        );
    }

    #[test]
    fn text_files_named_by_config_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("prompt.md");
        assert!(
            read_text_file(&f)
                .unwrap_err()
                .to_string()
                .contains("no such file")
        );
        std::fs::write(&f, "be brief").unwrap();
        assert_eq!(read_text_file(&f).unwrap(), "be brief");
        std::fs::write(&f, vec![b'a'; 3 * 1024 * 1024]).unwrap();
        assert!(read_text_file(&f).is_err());
        #[cfg(unix)]
        assert!(read_text_file(Path::new("/dev/zero")).is_err());
    }

    #[test]
    fn directory_and_large_file_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let err = read_optional(dir.path()).unwrap_err().to_string();
        assert!(err.contains("not a regular file (a directory)"), "{err}");
        assert!(err.contains(&dir.path().display().to_string()), "{err}");
        let big = dir.path().join("big.toml");
        let exact = "#".repeat(MAX_CONFIG_BYTES as usize);
        std::fs::write(&big, &exact).unwrap();
        assert!(read_optional(&big).is_ok(), "exactly 1 MiB is accepted");
        std::fs::write(&big, format!("{exact}\n")).unwrap();
        let err = read_optional(&big).unwrap_err().to_string();
        assert!(err.contains("larger than 1048576 bytes"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn fifo_and_device_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("config.toml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if made {
            let err = read_optional(&fifo).unwrap_err().to_string();
            assert!(err.contains("a FIFO"), "{err}");
        }
        let err = read_optional(Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("a device"), "{err}");
        let link = dir.path().join("link.toml");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let err = read_optional(&link).unwrap_err().to_string();
        assert!(err.contains("a device"), "{err}");
    }
}
