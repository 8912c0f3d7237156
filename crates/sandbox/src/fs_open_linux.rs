//! Linux side of [`crate::fs_open`]: `openat2` beneath a directory fd with
//! every symlink refused, and the `openat(O_NOFOLLOW)` walk where the kernel
//! lacks `openat2` or seccomp filters it.

#![allow(unsafe_code)]

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// What a write came to, short of an OS error.
pub(super) enum Written {
    Done,
    IsDirectory,
    Symlink,
}

/// `struct open_how` of `linux/openat2.h` (libc's is non-exhaustive).
#[repr(C)]
struct OpenHow {
    flags: u64,
    mode: u64,
    resolve: u64,
}

const RESOLVE: u64 =
    libc::RESOLVE_BENEATH | libc::RESOLVE_NO_MAGICLINKS | libc::RESOLVE_NO_SYMLINKS;
const DIR_FLAGS: libc::c_int = libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC;
const READ_FLAGS: libc::c_int =
    libc::O_RDONLY | libc::O_CLOEXEC | libc::O_NOCTTY | libc::O_NONBLOCK;

fn cstr(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a path with a NUL byte"))
}

/// Takes ownership of a descriptor a syscall returned, or its error.
fn owned(ret: libc::c_int) -> io::Result<OwnedFd> {
    if ret < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `ret` is a descriptor the kernel just returned to us and no
    // one else holds; OwnedFd closes it exactly once.
    Ok(unsafe { OwnedFd::from_raw_fd(ret) })
}

fn openat(
    dir: RawFd,
    name: &CString,
    flags: libc::c_int,
    mode: libc::mode_t,
) -> io::Result<OwnedFd> {
    // SAFETY: `name` is a valid NUL-terminated string that outlives the
    // call; `dir` is a descriptor owned by the caller for its duration.
    owned(unsafe { libc::openat(dir, name.as_ptr(), flags, libc::c_uint::from(mode)) })
}

/// `openat2` beneath `dir` with symlinks refused; `None` when the kernel
/// lacks it or a seccomp filter refuses it, so the caller walks instead.
fn openat2(dir: RawFd, rel: &CString, flags: libc::c_int) -> Option<io::Result<OwnedFd>> {
    let how = OpenHow {
        flags: u64::from(flags.cast_unsigned()),
        mode: 0,
        resolve: RESOLVE,
    };
    // SAFETY: `rel` is NUL-terminated and `how` a correctly laid out
    // `open_how` whose size we pass; both outlive the call. The syscall only
    // reads them and returns a new descriptor or -1.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            dir,
            rel.as_ptr(),
            &raw const how,
            std::mem::size_of::<OpenHow>(),
        )
    };
    if ret < 0 {
        let e = io::Error::last_os_error();
        return match e.raw_os_error() {
            Some(libc::ENOSYS | libc::EPERM | libc::E2BIG) => None,
            _ => Some(Err(e)),
        };
    }
    let Ok(fd) = libc::c_int::try_from(ret) else {
        return Some(Err(io::Error::other(
            "openat2 returned an impossible descriptor",
        )));
    };
    Some(owned(fd))
}

fn join(names: &[&OsStr]) -> io::Result<CString> {
    let mut bytes = Vec::new();
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            bytes.push(b'/');
        }
        bytes.extend_from_slice(n.as_bytes());
    }
    cstr(OsStr::from_bytes(&bytes))
}

fn slash() -> io::Result<OwnedFd> {
    let root = cstr(OsStr::new("/"))?;
    // SAFETY: `root` is NUL-terminated and outlives the call.
    owned(unsafe { libc::open(root.as_ptr(), DIR_FLAGS) })
}

/// Whether missing directories on the way are created.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Parents {
    Create,
    MustExist,
}

/// Opens the directory `names` below `dir` (an `O_PATH` fd).
fn open_dir(dir: &OwnedFd, names: &[&OsStr], parents: Parents) -> io::Result<OwnedFd> {
    if names.is_empty() {
        return dir.try_clone();
    }
    match openat2(dir.as_raw_fd(), &join(names)?, DIR_FLAGS) {
        Some(Ok(fd)) => Ok(fd),
        Some(Err(e)) if e.kind() == io::ErrorKind::NotFound && parents == Parents::Create => {
            walk(dir, names, parents)
        }
        Some(Err(e)) => Err(e),
        None => walk(dir, names, parents),
    }
}

/// One component at a time, never following a symlink; creates missing
/// directories when asked.
fn walk(dir: &OwnedFd, names: &[&OsStr], parents: Parents) -> io::Result<OwnedFd> {
    let mut cur = dir.try_clone()?;
    for name in names {
        let c = cstr(name)?;
        let flags = DIR_FLAGS | libc::O_NOFOLLOW;
        let next = match openat(cur.as_raw_fd(), &c, flags, 0) {
            Err(e) if e.kind() == io::ErrorKind::NotFound && parents == Parents::Create => {
                // SAFETY: `c` is NUL-terminated and `cur` an open directory
                // fd; mkdirat only creates the one entry.
                let r = unsafe { libc::mkdirat(cur.as_raw_fd(), c.as_ptr(), 0o777) };
                if r < 0 {
                    let e = io::Error::last_os_error();
                    if e.kind() != io::ErrorKind::AlreadyExists {
                        return Err(e);
                    }
                }
                openat(cur.as_raw_fd(), &c, flags, 0)?
            }
            // O_PATH|O_NOFOLLOW|O_DIRECTORY on a symlink gives ENOTDIR:
            // report it as the symlink it is.
            Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) && is_symlink(&cur, &c) => {
                return Err(io::Error::from_raw_os_error(libc::ELOOP));
            }
            other => other?,
        };
        cur = next;
    }
    Ok(cur)
}

fn is_symlink(dir: &OwnedFd, name: &CString) -> bool {
    let flags = libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    openat(dir.as_raw_fd(), name, flags, 0)
        .ok()
        .and_then(|fd| File::from(fd).metadata().ok())
        .is_some_and(|m| m.file_type().is_symlink())
}

fn open_root(root: &Path) -> io::Result<OwnedFd> {
    let names: Vec<&OsStr> = root
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(n) => Some(n),
            _ => None,
        })
        .collect();
    open_dir(&slash()?, &names, Parents::MustExist)
}

pub(super) fn open_read(root: &Path, rel: &[&OsStr]) -> io::Result<File> {
    let root_fd = open_root(root)?;
    let Some((name, parents)) = rel.split_last() else {
        let dot = cstr(OsStr::new("."))?;
        return openat(root_fd.as_raw_fd(), &dot, READ_FLAGS, 0).map(File::from);
    };
    if let Some(r) = openat2(root_fd.as_raw_fd(), &join(rel)?, READ_FLAGS) {
        return r.map(File::from);
    }
    let dir = walk(&root_fd, parents, Parents::MustExist)?;
    openat(
        dir.as_raw_fd(),
        &cstr(name)?,
        READ_FLAGS | libc::O_NOFOLLOW,
        0,
    )
    .map(File::from)
}

pub(super) fn write(
    root: &Path,
    parents: &[&OsStr],
    name: &OsStr,
    bytes: &[u8],
) -> io::Result<Written> {
    let root_fd = open_root(root)?;
    let dir = open_dir(&root_fd, parents, Parents::Create)?;
    let c_name = cstr(name)?;
    let flags = libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    let mode = match openat(dir.as_raw_fd(), &c_name, flags, 0) {
        Ok(fd) => {
            let meta = File::from(fd).metadata()?;
            if meta.file_type().is_symlink() {
                return Ok(Written::Symlink);
            }
            if meta.is_dir() {
                return Ok(Written::IsDirectory);
            }
            Some(meta.permissions().mode() & 0o777)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let (tmp_name, file) = create_temp(&dir)?;
    let result = fill(file, bytes, mode).and_then(|()| {
        // SAFETY: both names are NUL-terminated and `dir` is an open
        // directory fd; renameat replaces the entry without following it.
        let r = unsafe {
            libc::renameat(
                dir.as_raw_fd(),
                tmp_name.as_ptr(),
                dir.as_raw_fd(),
                c_name.as_ptr(),
            )
        };
        if r < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(())
        }
    });
    if let Err(e) = result {
        // SAFETY: `tmp_name` is NUL-terminated and names the temp file we
        // created in `dir`; removing it undoes our own partial work.
        unsafe { libc::unlinkat(dir.as_raw_fd(), tmp_name.as_ptr(), 0) };
        return Err(e);
    }
    Ok(Written::Done)
}

pub(super) fn remove(root: &Path, parents: &[&OsStr], name: &OsStr) -> io::Result<Written> {
    let root_fd = open_root(root)?;
    let dir = open_dir(&root_fd, parents, Parents::MustExist)?;
    let c_name = cstr(name)?;
    // SAFETY: `c_name` is NUL-terminated and outlives the call; `dir` is an
    // open directory fd. unlinkat removes the one entry and never follows a
    // symlink in `c_name` (there is no path walk beyond `dir`).
    let r = unsafe { libc::unlinkat(dir.as_raw_fd(), c_name.as_ptr(), 0) };
    if r < 0 {
        let e = io::Error::last_os_error();
        return match e.raw_os_error() {
            Some(libc::EISDIR | libc::EPERM) if is_dir(&dir, &c_name) => Ok(Written::IsDirectory),
            _ => Err(e),
        };
    }
    Ok(Written::Done)
}

fn is_dir(dir: &OwnedFd, name: &CString) -> bool {
    let flags = libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    openat(dir.as_raw_fd(), name, flags, 0)
        .ok()
        .and_then(|fd| File::from(fd).metadata().ok())
        .is_some_and(|m| m.is_dir())
}

fn fill(mut file: File, bytes: &[u8], mode: Option<u32>) -> io::Result<()> {
    file.write_all(bytes)?;
    if let Some(mode) = mode {
        file.set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    file.sync_data()
}

/// A new, exclusive temp file in `dir`.
fn create_temp(dir: &OwnedFd) -> io::Result<(CString, File)> {
    let pid = std::process::id();
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    let mut last = io::Error::other("no temp name was free");
    for attempt in 0..64u32 {
        let name = cstr(OsStr::new(&format!(
            ".wright-write-{pid}-{}.tmp",
            seed.wrapping_add(attempt)
        )))?;
        match openat(dir.as_raw_fd(), &name, flags, 0o666) {
            Ok(fd) => return Ok((name, File::from(fd))),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = e,
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// The open-beneath entry points with `openat2` turned off, so tests cover
/// the walk on kernels that have `openat2`.
#[cfg(test)]
pub(super) fn open_read_walk(root: &Path, rel: &[&OsStr]) -> io::Result<File> {
    let root_fd = open_root(root)?;
    let Some((name, parents)) = rel.split_last() else {
        return Err(io::Error::from(io::ErrorKind::InvalidInput));
    };
    let dir = walk(&root_fd, parents, Parents::MustExist)?;
    openat(
        dir.as_raw_fd(),
        &cstr(name)?,
        READ_FLAGS | libc::O_NOFOLLOW,
        0,
    )
    .map(File::from)
}
