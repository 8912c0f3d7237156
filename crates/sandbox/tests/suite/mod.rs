//! Shared fixtures: the helper binary, a workspace with a sibling outside
//! every writable root, and a runner.

mod basics;
mod caches;
mod credentials;
mod escapes;
mod fallback;
mod ipc;

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use wright_sandbox::{SandboxPolicy, Support, command, probe};

pub(crate) const HELPER: &str = env!("CARGO_BIN_EXE_wright-sandbox-test-helper");

pub(crate) fn supported(test: &str) -> bool {
    match probe() {
        Support::Available => true,
        Support::Unavailable(why) => {
            eprintln!("SKIPPED {test}: OS sandbox unavailable: {why}");
            false
        }
    }
}

/// A workspace and a sibling directory beside it, both outside the temp dir
/// (which the sandbox leaves writable) so a write to the sibling must fail.
pub(crate) struct Dirs {
    _base: tempfile::TempDir,
    pub(crate) ws: PathBuf,
    pub(crate) sibling: PathBuf,
}

/// A writable directory outside every temp dir: the target dir when the
/// checkout is not under /tmp (as CI's may be), else /var/tmp or HOME.
pub(crate) fn outside_temp() -> Option<PathBuf> {
    let tmp = std::env::temp_dir().canonicalize().ok()?;
    let candidates = [
        Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR"))),
        Some(PathBuf::from("/var/tmp")),
        std::env::var_os("HOME").map(PathBuf::from),
    ];
    candidates.into_iter().flatten().find_map(|dir| {
        std::fs::create_dir_all(&dir).ok()?;
        let dir = dir.canonicalize().ok()?;
        let inside =
            dir.starts_with(&tmp) || dir.starts_with("/tmp") || dir.starts_with("/dev/shm");
        let writable = tempfile::tempdir_in(&dir).is_ok();
        (!inside && writable).then_some(dir)
    })
}

pub(crate) fn dirs() -> Option<Dirs> {
    let Some(parent) = outside_temp() else {
        eprintln!("SKIPPED: no writable directory outside the temp dir for a sibling");
        return None;
    };
    let base = tempfile::Builder::new()
        .prefix("sbx-")
        .tempdir_in(&parent)
        .unwrap();
    let ws = base.path().join("ws");
    let sibling = base.path().join("sibling");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::create_dir_all(&sibling).unwrap();
    Some(Dirs {
        _base: base,
        ws,
        sibling,
    })
}

pub(crate) fn run(policy: &SandboxPolicy, script: &str, cwd: &Path) -> (Option<i32>, String) {
    let mut cmd = command(policy, script, Path::new(HELPER)).unwrap();
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.current_dir(cwd).stdin(Stdio::null()).output().unwrap();
    let text = String::from_utf8_lossy(&stdout).into_owned() + &String::from_utf8_lossy(&stderr);
    (status.code(), text)
}
