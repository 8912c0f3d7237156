//! Namespaces for a confined command, where the kernel lets an unprivileged
//! process create them: a user namespace (so the rest needs no privilege), a
//! mount namespace in which the whole file tree is read-only except the
//! writable roots, with wright's policy files (`.wright/`, `.git/hooks`,
//! `.git/config`) bound read-only and secret files hidden, and a PID
//! namespace with a fresh `/proc`, so no ancestor's environment is visible
//! and every descendant — daemonized or not — dies with the sandbox.
//!
//! Process shape: the helper (in wright's process group) unshares, forks an
//! init (pid 1 of the new namespace, in a session of its own with no
//! controlling terminal) and mirrors its exit; init sets up the mounts, forks
//! the process that is confined further and `exec`s the command, reaps
//! orphans, and exits with the command's status, which ends the namespace.
//! Both the helper and init die with their parent (`PR_SET_PDEATHSIG`).

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::{SandboxError, SandboxMode, SandboxPolicy, secrets};

/// What the namespace setup achieved, for `wright doctor`.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NamespaceReport {
    /// The file tree outside the writable roots is mounted read-only.
    pub read_only_root: bool,
    /// A `/proc` of the new PID namespace replaced the host's.
    pub fresh_proc: bool,
    /// Policy paths bound read-only inside the writable roots.
    pub protected: Vec<PathBuf>,
    /// Secret paths hidden (how many; the names stay private).
    pub hidden: usize,
    /// Steps that failed and were skipped, with the reason.
    pub skipped: Vec<String>,
}

/// Set in a command's environment by the helper that confined it, so a
/// wright run inside it knows not to create namespaces again (an unset
/// variable only makes that nested helper refuse, it loosens nothing).
pub const NESTED_ENV: &str = "WRIGHT_SANDBOXED";

/// Paths inside each workspace root that a command must not change: they
/// decide what wright, git, MCP clients or other agents run or allow next
/// (the file tools refuse the same files, see [`crate::fs_protected`]).
pub const PROTECTED_IN_ROOT: &[&str] = &[
    ".wright",
    ".git/hooks",
    ".git/config",
    ".mcp.json",
    ".claude",
];

/// Why the kernel will refuse unprivileged user namespaces, if its settings
/// say so (read from sysctls, so it costs no process); `None` when nothing
/// says it will refuse. The helper still falls back safely either way.
pub fn namespaces_refused() -> Option<String> {
    let read = |p: &str| std::fs::read_to_string(p).ok().map(|s| s.trim().to_owned());
    if read("/proc/sys/kernel/unprivileged_userns_clone").as_deref() == Some("0") {
        return Some("kernel.unprivileged_userns_clone = 0".to_owned());
    }
    if read("/proc/sys/user/max_user_namespaces").as_deref() == Some("0") {
        return Some("user.max_user_namespaces = 0".to_owned());
    }
    if read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns").as_deref() == Some("1") {
        return Some("AppArmor restricts unprivileged user namespaces".to_owned());
    }
    None
}

fn errno(what: &str) -> String {
    format!("{what}: {}", io::Error::last_os_error())
}

fn cstr(path: &Path) -> Result<CString, String> {
    CString::new(path.as_os_str().as_bytes()).map_err(|_| format!("{} has a NUL", path.display()))
}

fn write_proc(file: &str, text: &str) -> Result<(), SandboxError> {
    std::fs::write(file, text)
        .map_err(|e| SandboxError::Namespace(format!("cannot write {file}: {e}")))
}

/// How [`enter`] came back.
pub(crate) enum Entered {
    /// The kernel refused before anything changed: confine without namespaces.
    Unavailable,
    /// This is the process that confines itself further and `exec`s the
    /// command, inside the namespaces.
    Inside(NamespaceReport),
}

/// Tries to enter new user, mount and PID namespaces. Returns only in the
/// process that goes on to `exec` the command; the helper and init stay
/// here until the command ends.
pub(crate) fn enter(policy: &SandboxPolicy) -> Result<Entered, SandboxError> {
    if std::env::var_os(NESTED_ENV).is_some() {
        // Inside a wright sandbox Landlock forbids writing the id maps; the
        // outer namespaces already bound this command.
        return Ok(Entered::Unavailable);
    }
    // SAFETY: getuid/getgid/getpid cannot fail and touch no memory.
    let (uid, gid, helper_pid) = unsafe { (libc::getuid(), libc::getgid(), libc::getpid()) };
    // SAFETY: unshare only changes this (single-threaded) process's namespaces.
    let rc = unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS | libc::CLONE_NEWPID) };
    if rc != 0 {
        return Ok(Entered::Unavailable);
    }
    // Map our own ids only: nothing gains a privilege outside the namespace.
    write_proc("/proc/self/setgroups", "deny")?;
    write_proc("/proc/self/uid_map", &format!("{uid} {uid} 1"))?;
    write_proc("/proc/self/gid_map", &format!("{gid} {gid} 1"))?;

    // SAFETY: the helper is single-threaded, so the child may run any code.
    match unsafe { libc::fork() } {
        -1 => Err(SandboxError::Namespace(errno("fork"))),
        0 => Ok(Entered::Inside(run_init(policy, helper_pid))),
        child => mirror(child),
    }
}

/// Waits for `child` and ends this process the same way.
fn mirror(child: libc::pid_t) -> ! {
    let status = wait_for(child);
    exit_like(status)
}

fn wait_for(pid: libc::pid_t) -> Option<libc::c_int> {
    let mut status = 0;
    loop {
        // SAFETY: status is a valid out pointer.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        if r == pid {
            return Some(status);
        }
        if r < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return None;
        }
    }
}

/// Exits with `status`'s code, or dies of its signal.
fn exit_like(status: Option<libc::c_int>) -> ! {
    let Some(status) = status else {
        std::process::exit(crate::HELPER_REFUSED_EXIT)
    };
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        // SAFETY: restoring the default action and signalling ourselves.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::kill(libc::getpid(), sig);
        }
        std::process::exit(128 + sig);
    }
    std::process::exit(libc::WEXITSTATUS(status))
}

/// Dies when the parent `parent` does; gives up at once if it already has
/// (then this process was re-parented and its parent pid changed). From
/// pid 1 of a new PID namespace the parent lies outside and shows as 0: no
/// check is possible there, and none is needed for long, since the command
/// ends init when it ends.
pub(crate) fn die_with_parent(parent: libc::pid_t) {
    // SAFETY: prctl with integer arguments; getppid cannot fail.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        let ppid = libc::getppid();
        if ppid != 0 && ppid != parent {
            libc::_exit(crate::HELPER_REFUSED_EXIT);
        }
    }
}

/// pid 1 of the new namespace: sets up the mounts, then forks the command
/// process (which returns from here) and reaps until it ends.
fn run_init(policy: &SandboxPolicy, helper_pid: libc::pid_t) -> NamespaceReport {
    die_with_parent(helper_pid);
    // A session of its own: no controlling terminal to read or inject into.
    // SAFETY: setsid has no memory effects.
    unsafe { libc::setsid() };
    let report = setup_mounts(policy);
    // SAFETY: getpid cannot fail.
    let init_pid = unsafe { libc::getpid() };
    // SAFETY: still single-threaded.
    let command = match unsafe { libc::fork() } {
        -1 => {
            eprintln!("{} {}", crate::HELPER_ERROR_PREFIX, errno("fork"));
            std::process::exit(crate::HELPER_REFUSED_EXIT);
        }
        0 => {
            die_with_parent(init_pid);
            return report;
        }
        pid => pid,
    };
    loop {
        let mut status = 0;
        // SAFETY: status is a valid out pointer; reaps orphans too.
        let r = unsafe { libc::waitpid(-1, &mut status, 0) };
        if r == command {
            exit_like(Some(status));
        }
        if r < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            exit_like(None);
        }
    }
}

// ---- mounts -------------------------------------------------------------

const OPEN_TREE_CLONE: libc::c_uint = 1;
const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;
const MOUNT_ATTR_RDONLY: u64 = 0x1;

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// A detached copy of the mount tree at `path`, unaffected by later changes
/// to the attached tree.
fn clone_tree(path: &Path) -> Result<libc::c_int, String> {
    let c = cstr(path)?;
    // SAFETY: c is a valid NUL-terminated path.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_open_tree,
            libc::AT_FDCWD,
            c.as_ptr(),
            OPEN_TREE_CLONE | libc::O_CLOEXEC as libc::c_uint | libc::AT_RECURSIVE as libc::c_uint,
        )
    };
    if fd < 0 {
        return Err(errno(&format!("open_tree {}", path.display())));
    }
    libc::c_int::try_from(fd).map_err(|_| "open_tree returned a bad fd".to_owned())
}

fn set_read_only(dirfd: libc::c_int, path: &Path, flags: libc::c_int) -> Result<(), String> {
    let c = cstr(path)?;
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: c and attr are valid for the call; the size is attr's.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            dirfd,
            c.as_ptr(),
            flags | libc::AT_RECURSIVE,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if rc != 0 {
        return Err(errno(&format!("mount_setattr {}", path.display())));
    }
    Ok(())
}

fn attach(fd: libc::c_int, target: &Path) -> Result<(), String> {
    let t = cstr(target)?;
    let empty = c"";
    // SAFETY: fd is a detached tree from open_tree; both strings are valid.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_move_mount,
            fd,
            empty.as_ptr(),
            libc::AT_FDCWD,
            t.as_ptr(),
            MOVE_MOUNT_F_EMPTY_PATH,
        )
    };
    // SAFETY: fd is ours and no longer needed.
    unsafe { libc::close(fd) };
    if rc != 0 {
        return Err(errno(&format!("move_mount {}", target.display())));
    }
    Ok(())
}

/// Binds `path` over itself read-only.
fn bind_read_only(path: &Path) -> Result<(), String> {
    let fd = clone_tree(path)?;
    if let Err(e) = set_read_only(fd, Path::new(""), libc::AT_EMPTY_PATH) {
        // SAFETY: fd is ours.
        unsafe { libc::close(fd) };
        return Err(e);
    }
    attach(fd, path)
}

fn mount(
    source: &str,
    target: &Path,
    fstype: &str,
    flags: libc::c_ulong,
    data: &str,
) -> Result<(), String> {
    let (s, t, f, d) = (
        CString::new(source).map_err(|e| e.to_string())?,
        cstr(target)?,
        CString::new(fstype).map_err(|e| e.to_string())?,
        CString::new(data).map_err(|e| e.to_string())?,
    );
    // SAFETY: all strings are valid NUL-terminated C strings.
    let rc = unsafe {
        libc::mount(
            s.as_ptr(),
            t.as_ptr(),
            f.as_ptr(),
            flags,
            d.as_ptr().cast::<libc::c_void>(),
        )
    };
    if rc != 0 {
        return Err(errno(&format!("mount {fstype} on {}", target.display())));
    }
    Ok(())
}

/// The writable roots that exist (directories, or files such as cargo's
/// package-cache lock), resolved, without those inside another.
fn distinct_roots(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut real: Vec<PathBuf> = roots.iter().filter_map(|r| r.canonicalize().ok()).collect();
    real.sort();
    real.dedup();
    let mut out: Vec<PathBuf> = Vec::new();
    for r in real {
        if !out.iter().any(|o| r.starts_with(o)) {
            out.push(r);
        }
    }
    out
}

/// Policy paths to bind read-only inside `roots`: those that exist, plus
/// `.git/hooks`, created empty where a repository lacks it so no hook can
/// be planted there.
pub(crate) fn protected_paths(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for root in roots {
        if root.join(".git").is_dir() {
            let _ = std::fs::create_dir(root.join(".git/hooks"));
        }
        for rel in PROTECTED_IN_ROOT {
            let p = root.join(rel);
            if p.symlink_metadata().is_ok() {
                out.push(p);
            }
        }
    }
    out
}

fn setup_mounts(policy: &SandboxPolicy) -> NamespaceReport {
    let mut report = NamespaceReport::default();
    let skip = |r: &mut NamespaceReport, e: String| r.skipped.push(e);
    if let Err(e) = mount(
        "none",
        Path::new("/"),
        "",
        libc::MS_REC | libc::MS_PRIVATE,
        "",
    ) {
        skip(&mut report, e);
        return report;
    }
    let writable = distinct_roots(&policy.effective_writable_roots());
    if !writable.iter().any(|r| r == Path::new("/")) {
        let clones: Vec<(PathBuf, Result<libc::c_int, String>)> = writable
            .iter()
            .map(|r| (r.clone(), clone_tree(r)))
            .collect();
        match set_read_only(libc::AT_FDCWD, Path::new("/"), 0) {
            Ok(()) => report.read_only_root = true,
            Err(e) => skip(&mut report, e),
        }
        for (root, fd) in clones {
            if let Err(e) = fd.and_then(|fd| attach(fd, &root)) {
                skip(&mut report, e);
            }
        }
    }
    match mount(
        "proc",
        Path::new("/proc"),
        "proc",
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        "",
    ) {
        Ok(()) => report.fresh_proc = true,
        Err(e) => skip(&mut report, e),
    }
    let workspace = distinct_roots(&policy.writable_roots);
    if policy.mode == SandboxMode::WorkspaceWrite {
        for p in protected_paths(&workspace) {
            match bind_read_only(&p) {
                Ok(()) => report.protected.push(p),
                Err(e) => skip(&mut report, e),
            }
        }
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    // The cwd too: a read-only policy may carry no roots at all.
    let mut scanned = workspace.clone();
    if let Ok(cwd) = std::env::current_dir()
        && !scanned.iter().any(|r| cwd.starts_with(r))
    {
        scanned.push(cwd);
    }
    for p in secrets::paths_to_hide(home.as_deref(), &scanned) {
        let hidden = if p.is_dir() {
            mount(
                "tmpfs",
                &p,
                "tmpfs",
                libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                "size=4k,mode=0500",
            )
        } else {
            mount("/dev/null", &p, "", libc::MS_BIND, "")
        };
        match hidden {
            Ok(()) => report.hidden += 1,
            Err(e) => skip(&mut report, e),
        }
    }
    // The old cwd still points into the mounts that were just covered.
    if let Ok(cwd) = std::env::current_dir() {
        let _ = std::env::set_current_dir(cwd);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_roots_drops_nested_and_missing() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        std::fs::create_dir_all(a.join("b")).unwrap();
        let roots = distinct_roots(&[a.join("b"), a.clone(), dir.path().join("missing")]);
        assert_eq!(roots, vec![a.canonicalize().unwrap()]);
    }

    #[test]
    fn protected_paths_exist_and_hooks_are_created() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".git/config"), "").unwrap();
        let p = protected_paths(std::slice::from_ref(&root));
        assert!(p.contains(&root.join(".git/hooks")));
        assert!(p.contains(&root.join(".git/config")));
        assert!(!p.contains(&root.join(".wright")));
        assert!(root.join(".git/hooks").is_dir());
    }
}
