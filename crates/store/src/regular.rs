//! Opening session files only when they are regular files: a FIFO (or a
//! device) named `*.jsonl` in the sessions directory would otherwise block
//! `open`/`read` forever and hang listing, searching and `--continue`.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// `O_NONBLOCK` where its value is known without a libc dependency; it
/// makes opening a FIFO return at once (reads of regular files ignore it).
#[cfg(all(
    any(target_os = "linux", target_os = "android"),
    any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        target_arch = "arm",
        target_arch = "riscv64"
    )
))]
const O_NONBLOCK: i32 = 0o4000;
#[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
const O_NONBLOCK: i32 = 0x0004;
/// Unknown platform: rely on the metadata check before opening (Windows
/// has no FIFOs to fear, and no such flag).
#[cfg(all(
    unix,
    not(any(
        all(
            any(target_os = "linux", target_os = "android"),
            any(
                target_arch = "x86_64",
                target_arch = "x86",
                target_arch = "aarch64",
                target_arch = "arm",
                target_arch = "riscv64"
            )
        ),
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd"
    ))
))]
const O_NONBLOCK: i32 = 0;

/// Whether `path` is (or links to) a regular file.
pub(crate) fn is_regular(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// Opens `path` for reading if it is a regular file. Checked before
/// opening and again on the open handle, which is opened non-blocking so a
/// file swapped for a FIFO in between cannot hang the open either.
pub(crate) fn open_regular(path: &Path) -> io::Result<File> {
    if !is_regular(path) {
        return Err(not_regular());
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, O_NONBLOCK);
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(file)
}

/// Reads all of `path` if it is a regular file.
pub(crate) fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut open_regular(path)?, &mut bytes)?;
    Ok(bytes)
}

fn not_regular() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "not a regular file")
}
