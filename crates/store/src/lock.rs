//! The per-session writer lock: an OS file lock on `<id>.lock`.
//!
//! The OS drops the lock when its holder dies, so a lock left behind by a
//! crashed or killed process is recovered without any staleness heuristics.
//! The pid written into the file serves only the error message. The file is
//! never deleted while sessions live: unlinking a lock file lets two
//! processes lock two different inodes of the same name.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::Duration;

use crate::error::{Result, StoreError};

/// Longest wait for this process's own just-released lock (see [`acquire`]).
const OWN_LOCK_GRACE: Duration = Duration::from_millis(200);
/// Step of that wait.
const OWN_LOCK_STEP: Duration = Duration::from_millis(5);

/// A held session lock; released on drop.
#[derive(Debug)]
pub(crate) struct SessionLock {
    _file: File,
}

/// Takes the lock or fails with [`StoreError::Locked`]; it waits (briefly)
/// only for a lock this process itself has just released.
pub(crate) fn acquire(path: &Path, id: &str) -> Result<SessionLock> {
    let mut file = crate::private::file_options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| StoreError::io("opening", path, e))?;
    crate::private::tighten_file(&file).map_err(|e| StoreError::io("protecting", path, e))?;
    let mut waited = Duration::ZERO;
    loop {
        match file.try_lock() {
            Ok(()) => break,
            Err(TryLockError::WouldBlock) => {
                let mut text = String::new();
                let pid: Option<u32> = file
                    .seek(SeekFrom::Start(0))
                    .and_then(|_| file.read_to_string(&mut text))
                    .ok()
                    .and_then(|_| text.trim().parse().ok());
                // This process's own lock, just released, can outlive its
                // close for a moment: a child forked meanwhile (a command,
                // a hook) holds a copy of the descriptor until it execs.
                if pid == Some(std::process::id()) && waited < OWN_LOCK_GRACE {
                    std::thread::sleep(OWN_LOCK_STEP);
                    waited += OWN_LOCK_STEP;
                    continue;
                }
                return Err(StoreError::Locked {
                    id: id.to_string(),
                    pid,
                });
            }
            Err(TryLockError::Error(e)) => return Err(StoreError::io("locking", path, e)),
        }
    }
    // Best effort: the pid is only shown to a second process.
    let _ = file
        .set_len(0)
        .and_then(|()| file.seek(SeekFrom::Start(0)))
        .and_then(|_| file.write_all(std::process::id().to_string().as_bytes()));
    Ok(SessionLock { _file: file })
}

/// Whether a live process holds the lock at `path` right now.
pub(crate) fn is_locked(path: &Path) -> bool {
    let Ok(file) = OpenOptions::new().read(true).write(true).open(path) else {
        return false;
    };
    matches!(file.try_lock(), Err(TryLockError::WouldBlock))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_is_refused_until_the_first_drops() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.lock");
        let first = acquire(&path, "s").unwrap();
        assert!(is_locked(&path));
        match acquire(&path, "s") {
            Err(StoreError::Locked { id, pid }) => {
                assert_eq!(id, "s");
                assert_eq!(pid, Some(std::process::id()));
            }
            other => panic!("expected Locked, got {other:?}"),
        }
        drop(first);
        assert!(!is_locked(&path));
        let _again = acquire(&path, "s").unwrap();
    }
}
