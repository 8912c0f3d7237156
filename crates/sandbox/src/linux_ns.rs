//! Namespaces for a confined command, where the kernel lets an unprivileged
//! process create them: a user namespace (so the rest needs no privilege), a
//! mount namespace in which the whole file tree is read-only except the
//! writable roots, with the policy files of wright, git and other agents
//! (`.wright/`, `.git/hooks`, `.git/config`, `.mcp.json`, `.claude/`) bound
//! read-only and secret files hidden, and a PID namespace with a fresh
//! `/proc`, so no ancestor's environment is visible and every descendant —
//! daemonized or not — dies with the sandbox.
//!
//! Process shape: the helper (in wright's process group) unshares, forks an
//! init (pid 1 of the new namespace, in a session of its own with no
//! controlling terminal) and mirrors its exit; init sets up the mounts, forks
//! the process that is confined further and `exec`s the command, reaps
//! orphans, and exits with the command's status, which ends the namespace.
//! Both the helper and init die with their parent (`PR_SET_PDEATHSIG`).

use std::io;

use crate::linux_mounts::NamespaceReport;
use crate::{SandboxError, SandboxPolicy};

/// Set in a command's environment by the helper that confined it, so a
/// wright run inside it knows not to create namespaces again (an unset
/// variable only makes that nested helper refuse, it loosens nothing).
pub const NESTED_ENV: &str = "WRIGHT_SANDBOXED";

/// Why the kernel will refuse unprivileged user namespaces, if its settings
/// say so (read from sysctls, so it costs no process); `None` when nothing
/// says it will refuse. The helper still falls back safely either way.
pub fn namespaces_refused() -> Option<String> {
    if std::env::var_os(NESTED_ENV).is_some() {
        return Some(format!(
            "{NESTED_ENV} is set: running inside a wright sandbox"
        ));
    }
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
    // Inside a wright sandbox (NESTED_ENV) Landlock forbids writing the id
    // maps, and the outer namespaces already bound this command.
    // Once this process has unshared it cannot go back (its next child would
    // be pid 1 of a half-made namespace), so where the kernel may let
    // `unshare` succeed and then refuse the id maps (AppArmor on Ubuntu
    // 24.04, no /proc), find out in a throwaway child first.
    if namespaces_refused().is_some() || !userns_usable() {
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

    // A pipe whose write end only the helper keeps: init sees it close if
    // the helper died before init could arrange to die with it.
    let mut fds = [0; 2];
    // SAFETY: fds is a valid two-element array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(SandboxError::Namespace(errno("pipe")));
    }
    let [alive_read, alive_write] = fds;
    // SAFETY: the helper is single-threaded, so the child may run any code.
    match unsafe { libc::fork() } {
        -1 => Err(SandboxError::Namespace(errno("fork"))),
        0 => {
            // SAFETY: closing our copy of the write end, then probing the
            // read end without blocking; both fds are ours.
            unsafe { libc::close(alive_write) };
            die_with_parent(helper_pid);
            let mut poll = libc::pollfd {
                fd: alive_read,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: poll on one valid pollfd with no timeout.
            let gone =
                unsafe { libc::poll(&mut poll, 1, 0) } > 0 && poll.revents & libc::POLLHUP != 0;
            // SAFETY: the fd is ours; _exit runs no destructors.
            unsafe {
                libc::close(alive_read);
                if gone {
                    libc::_exit(crate::HELPER_REFUSED_EXIT);
                }
            }
            Ok(Entered::Inside(run_init(policy)))
        }
        child => {
            // SAFETY: the read end is init's; the write end stays open until
            // this process ends (exec never happens here).
            unsafe { libc::close(alive_read) };
            mirror(child)
        }
    }
}

/// Kills every other process of the namespace and reaps them, so nothing
/// the command left behind can act after init's last checks.
fn end_namespace() {
    // SAFETY: from pid 1 of a PID namespace, kill(-1) reaches exactly the
    // namespace's other processes; waitpid only reaps them.
    unsafe {
        libc::kill(-1, libc::SIGKILL);
        let mut status = 0;
        loop {
            let r = libc::waitpid(-1, &mut status, 0);
            if r < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                break;
            }
        }
    }
}

/// Whether a child can create a user namespace and map its ids in it.
fn userns_usable() -> bool {
    // SAFETY: the helper is single-threaded; the child only makes syscalls
    // and file writes, then `_exit`s.
    match unsafe { libc::fork() } {
        -1 => false,
        0 => {
            // SAFETY: getuid/getgid/unshare/_exit have no memory effects.
            let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
            let ok = unsafe { libc::unshare(libc::CLONE_NEWUSER) } == 0
                && std::fs::write("/proc/self/setgroups", "deny").is_ok()
                && std::fs::write("/proc/self/uid_map", format!("{uid} {uid} 1")).is_ok()
                && std::fs::write("/proc/self/gid_map", format!("{gid} {gid} 1")).is_ok();
            // SAFETY: leaves the child without running any destructor.
            unsafe { libc::_exit(i32::from(!ok)) }
        }
        child => wait_for(child).is_some_and(|s| libc::WIFEXITED(s) && libc::WEXITSTATUS(s) == 0),
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
/// pid 1 of a new PID namespace the parent lies outside and shows as 0; init
/// checks a pipe from the helper instead (see [`enter`]).
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
fn run_init(policy: &SandboxPolicy) -> NamespaceReport {
    // A session of its own: no controlling terminal to read or inject into.
    // SAFETY: setsid has no memory effects.
    unsafe { libc::setsid() };
    let report = crate::linux_mounts::setup_mounts(policy);

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
            end_namespace();
            exit_like(Some(status));
        }
        if r < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            exit_like(None);
        }
    }
}
