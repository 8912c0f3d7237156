//! Namespaces for a confined command, where the kernel lets an unprivileged
//! process create them: a user namespace (so the rest needs no privilege), a
//! mount namespace in which the whole file tree is read-only except the
//! writable roots, with the policy files of wright, git and other agents
//! (`.wright/`, `.git/hooks`, `.git/config`, `.mcp.json`, `.claude/`) bound
//! read-only and secret files hidden, and a PID namespace with a fresh
//! `/proc`, so no ancestor's environment is visible and every descendant —
//! daemonized or not — dies with the sandbox; an IPC namespace (no SysV IPC
//! object of another process) and, with the network off, a network
//! namespace (no abstract Unix socket of the host).
//!
//! Process shape: the helper (in wright's process group) clones an init into
//! the new namespaces (pid 1 of the new PID namespace, in a session of its
//! own with no controlling terminal) and mirrors its exit; init maps its ids
//! (or gives up, and the helper goes on without namespaces), sets up the
//! mounts, forks
//! the process that is confined further and `exec`s the command, reaps
//! orphans, and exits with the command's status, which ends the namespace.
//! Both the helper and init die with their parent (`PR_SET_PDEATHSIG`).

use std::io;

use crate::linux_mounts::NamespaceReport;
use crate::{SandboxError, SandboxPolicy};

/// Set in a command's environment by the helper that confined it, so a
/// wright run inside it knows not to create namespaces again (unset, the
/// nested helper tries, is refused the id maps by Landlock and goes on
/// without them: it loosens nothing, the outer sandbox still binds it).
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
    // Inside a wright sandbox (NESTED_ENV) the outer namespaces already bound
    // this command (and Landlock forbids writing the id maps: without the
    // variable, init says so and the helper goes on without namespaces).
    if namespaces_refused().is_some() {
        return Ok(Entered::Unavailable);
    }
    // Taken before the clone: in the new user namespace, until its maps are
    // written, the child's own ids read as the overflow id.
    // SAFETY: getuid/getgid/getpid cannot fail and touch no memory.
    let (uid, gid, helper_pid) = unsafe { (libc::getuid(), libc::getgid(), libc::getpid()) };
    // Two pipes. `alive`: only the helper keeps its write end, so init sees
    // it close if the helper died before init could arrange to die with it.
    // `mapped`: init says whether it could map its ids; where the kernel
    // lets the namespaces be created and then refuses the maps (AppArmor on
    // Ubuntu 24.04, no /proc), init gives up and the helper, which changed
    // nothing, confines the command without namespaces.
    let [alive_read, alive_write] = pipe()?;
    let [mapped_read, mapped_write] = match pipe() {
        Ok(fds) => fds,
        Err(e) => {
            close_all(&[alive_read, alive_write]);
            return Err(e);
        }
    };
    // Init is created in the new namespaces by one `clone` (pid 1 of the new
    // PID namespace), so the helper itself stays outside them and nothing
    // has to be tried first in a throwaway process.
    // SAFETY: a fork-like clone (no CLONE_VM, no new stack) of this
    // single-threaded process: the child has its own copy of everything and
    // may run any code, as after `fork`.
    match unsafe { clone_into_namespaces(policy.network) } {
        Err(err) => {
            close_all(&[alive_read, alive_write, mapped_read, mapped_write]);
            // Out of processes, memory or namespaces is a state a command
            // can bring about (a background job creating namespaces), not
            // the kernel's policy: refuse rather than run the next command
            // with less confinement.
            match err.raw_os_error() {
                Some(libc::EAGAIN | libc::ENOMEM | libc::ENOSPC) => Err(SandboxError::Namespace(
                    format!("cannot create namespaces now: {err}"),
                )),
                _ => Ok(Entered::Unavailable),
            }
        }
        Ok(0) => {
            close_all(&[alive_write, mapped_read]);
            die_with_parent(helper_pid);
            let ok = map_own_ids(uid, gid);
            // SAFETY: writing one byte from a valid buffer to our pipe end.
            let told = unsafe { libc::write(mapped_write, [u8::from(ok)].as_ptr().cast(), 1) } == 1;
            close_all(&[mapped_write]);
            let mut poll = libc::pollfd {
                fd: alive_read,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: poll on one valid pollfd with no timeout.
            let gone =
                unsafe { libc::poll(&mut poll, 1, 0) } > 0 && poll.revents & libc::POLLHUP != 0;
            close_all(&[alive_read]);
            if !ok || !told || gone {
                // SAFETY: _exit runs no destructors.
                unsafe { libc::_exit(crate::HELPER_REFUSED_EXIT) };
            }
            Ok(Entered::Inside(run_init(policy)))
        }
        Ok(child) => {
            close_all(&[alive_read, mapped_write]);
            let answer = read_byte(mapped_read);
            close_all(&[mapped_read]);
            match answer {
                // The write end of `alive` stays open until this process
                // ends (exec never happens here).
                Some(1) => mirror(child),
                // Init gave up before anything ran; this process is as it
                // was. The write end of `alive` closes with it, unused.
                Some(0) => {
                    let _ = wait_for(child);
                    close_all(&[alive_write]);
                    Ok(Entered::Unavailable)
                }
                // Init ended (or was killed) without saying: nothing says
                // the kernel refused, so do not go on with less.
                _ => {
                    // SAFETY: signalling and reaping our own child.
                    unsafe { libc::kill(child, libc::SIGKILL) };
                    let _ = wait_for(child);
                    close_all(&[alive_write]);
                    Err(SandboxError::Namespace(
                        "the sandbox's init ended before it set up the namespaces".to_owned(),
                    ))
                }
            }
        }
    }
}

/// `clone` with new user, mount, PID and IPC namespaces (and, with the
/// network off, a network namespace) and no new stack: like `fork`, it
/// returns 0 in the child and the child's pid in the parent, or why the
/// kernel refused (nothing was created).
///
/// The IPC namespace gives the command SysV message queues, semaphores
/// and shared memory (and POSIX message queues) of its own: those of the
/// user's other processes cannot be read, written or removed. The network
/// namespace, with the network off, takes away the host's abstract Unix
/// sockets (they live in the network namespace; Landlock's scoping does
/// the same from Linux 6.12) and its loopback, which seccomp refuses
/// anyway.
///
/// The child's C library still believes it has the helper's thread id (a
/// raw `clone` does not update it, unlike `fork`); init uses nothing that
/// reads it (no pthread calls, `raise` or fork handlers; `getpid` and
/// `fork` ask the kernel).
///
/// # Safety
/// As `fork`: only in a single-threaded process.
unsafe fn clone_into_namespaces(network: bool) -> io::Result<libc::pid_t> {
    // Where the raw call's arguments and return are known to be the plain
    // `fork` ones (the seccomp filter supports no other architecture).
    #[cfg(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    ))]
    {
        let net = if network { 0 } else { libc::CLONE_NEWNET };
        let flags = (libc::CLONE_NEWUSER
            | libc::CLONE_NEWNS
            | libc::CLONE_NEWPID
            | libc::CLONE_NEWIPC
            | net
            | libc::SIGCHLD) as libc::c_ulong;
        let none: libc::c_ulong = 0;
        // The raw system call: glibc's `clone` wrapper wants a function and
        // a stack.
        // SAFETY: no CLONE_VM and a null stack make this a fork; the pointer
        // arguments are null and unused without their flags.
        let r = unsafe { libc::syscall(libc::SYS_clone, flags, none, none, none, none) };
        if r < 0 {
            return Err(io::Error::last_os_error());
        }
        libc::pid_t::try_from(r).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )))]
    {
        let _ = network;
        Err(io::Error::from_raw_os_error(libc::ENOSYS))
    }
}

/// In a new user namespace: maps the ids `uid` and `gid` this process had
/// outside it to themselves (nothing gains a privilege outside it). False
/// where the kernel refuses.
fn map_own_ids(uid: libc::uid_t, gid: libc::gid_t) -> bool {
    std::fs::write("/proc/self/setgroups", "deny").is_ok()
        && std::fs::write("/proc/self/uid_map", format!("{uid} {uid} 1")).is_ok()
        && std::fs::write("/proc/self/gid_map", format!("{gid} {gid} 1")).is_ok()
}

fn pipe() -> Result<[libc::c_int; 2], SandboxError> {
    let mut fds = [0; 2];
    // SAFETY: fds is a valid two-element array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(SandboxError::Namespace(errno("pipe")));
    }
    Ok(fds)
}

fn close_all(fds: &[libc::c_int]) {
    for &fd in fds {
        // SAFETY: each fd is one of ours, closed once.
        unsafe { libc::close(fd) };
    }
}

/// One byte from `fd`, or `None` at its end (the writer gone) or on error.
fn read_byte(fd: libc::c_int) -> Option<u8> {
    let mut byte = 0u8;
    loop {
        // SAFETY: reading one byte into a valid buffer.
        let r = unsafe { libc::read(fd, (&raw mut byte).cast(), 1) };
        if r == 1 {
            return Some(byte);
        }
        if r < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
            continue;
        }
        return None;
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
