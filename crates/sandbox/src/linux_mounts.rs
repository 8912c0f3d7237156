//! The mounts of a confined command's namespace: the whole tree read-only
//! except the writable roots, `.git` pinned as a mount point (so it cannot
//! be renamed away from its read-only `hooks`, `config`, `modules` and
//! `worktrees`), a `.git` file and the `.git` of each submodule and linked
//! worktree under a root read-only (each says which git dir, with which
//! config, git enters), the config, hooks and redirects of every repository
//! nested in a root read-only (its `.git` pinned like the root's), wright's
//! and other agents' policy paths read-only where they exist (one a command
//! creates is set aside after it, see [`crate::repo_guard`]: nothing is
//! written into the repository to serve as a mount point), secret files
//! hidden, a fresh `/proc`. Every step that fails is skipped and reported;
//! Landlock still confines writes.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::{SandboxMode, SandboxPolicy, secrets};

/// Paths inside each workspace root that a command must not change: they
/// decide what wright, git, MCP clients or other agents run or allow next
/// (the file tools refuse the same files, see `fs_protected`).
pub const PROTECTED_IN_ROOT: &[&str] = &[
    ".wright",
    ".git/hooks",
    ".git/config",
    ".git/config.worktree",
    // Submodules' and linked worktrees' git dirs: their config and hooks
    // run on the user's next `git status` in them, and a new one there is
    // what a repointed `.git` file would name.
    ".git/modules",
    ".git/worktrees",
    ".mcp.json",
    ".claude",
];

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
    /// Host Unix sockets hidden with the network off (how many).
    #[serde(default)]
    pub sockets: usize,
    /// Steps that failed and were skipped, with the reason.
    pub skipped: Vec<String>,
}

fn errno(what: &str) -> String {
    format!("{what}: {}", io::Error::last_os_error())
}

fn cstr(path: &Path) -> Result<CString, String> {
    CString::new(path.as_os_str().as_bytes()).map_err(|_| format!("{} has a NUL", path.display()))
}

const OPEN_TREE_CLONE: libc::c_uint = 1;
const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;
const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NODEV: u64 = 0x4;

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
    set_attrs(dirfd, path, flags, MOUNT_ATTR_RDONLY)
}

fn set_attrs(
    dirfd: libc::c_int,
    path: &Path,
    flags: libc::c_int,
    attrs: u64,
) -> Result<(), String> {
    let c = cstr(path)?;
    let attr = MountAttr {
        attr_set: attrs,
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

/// Binds `path` over itself, writable: a mount point cannot be renamed or
/// removed.
fn bind_in_place(path: &Path) -> Result<(), String> {
    attach(clone_tree(path)?, path)
}

/// Covers the file at `path` with `/dev/null` on a read-only, no-device
/// mount: opening it fails ("Permission denied") for reading and writing
/// alike, so nothing reads the secret, nothing written to it vanishes
/// silently, and git cannot commit it emptied.
pub(crate) fn hide_file(path: &Path) -> Result<(), String> {
    let fd = clone_tree(Path::new("/dev/null"))?;
    if let Err(e) = set_attrs(
        fd,
        Path::new(""),
        libc::AT_EMPTY_PATH,
        MOUNT_ATTR_RDONLY | MOUNT_ATTR_NODEV,
    ) {
        // SAFETY: fd is ours.
        unsafe { libc::close(fd) };
        return Err(e);
    }
    attach(fd, path)
}

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
/// `.git/hooks`, created where missing (inside `.git`, out of the work
/// tree). A missing `.wright`, `.claude` or `.mcp.json` is not created
/// (the user's repository stays as it was); the bash tool sets one a
/// command makes aside ([`crate::repo_guard::RepoGuard`]).
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
        // A linked worktree's or submodule's `.git` file names the git dir
        // whose config git runs: rewritten, it names a planted one.
        let dot_git = root.join(".git");
        if dot_git.symlink_metadata().is_ok_and(|m| m.is_file()) {
            out.push(dot_git.clone());
        }
        out.extend(submodule_policy_files(&dot_git));
        out.extend(crate::git_dirs::submodule_dot_gits(root));
        out.extend(
            worktree_dot_gits(&dot_git)
                .into_iter()
                .filter(|g| roots.iter().any(|r| g.starts_with(r))),
        );
    }
    out.sort();
    out.dedup();
    out
}

/// The `.git` files of a git dir's linked worktrees, as their
/// `worktrees/<name>/gitdir` records them.
fn worktree_dot_gits(git_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(git_dir.join("worktrees")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("gitdir")).ok())
        .map(|t| PathBuf::from(t.trim()))
        .filter(|p| p.is_absolute() && p.symlink_metadata().is_ok_and(|m| m.is_file()))
        .collect()
}

/// The repositories nested in `roots` (one walk of each, see
/// [`crate::git_dirs::scan_nested`]): `.git` entries and bare git dirs.
fn nested_repos(roots: &[PathBuf]) -> Vec<PathBuf> {
    roots
        .iter()
        .flat_map(|r| crate::git_dirs::scan_nested(r).found)
        .map(|(p, _, _)| p)
        .collect()
}

/// What of each nested repository decides which programs git runs there:
/// a `.git` file itself (it names the git dir), and in a git dir its
/// config, hooks and redirects and the git dirs of its submodules and
/// worktrees. Links are skipped: binding one would cover its target, and
/// one replaced is found by the repo guard after the command.
fn nested_policy_paths(nested: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in nested {
        let Ok(meta) = p.symlink_metadata() else {
            continue;
        };
        if meta.is_file() {
            out.push(p.clone());
        } else if meta.is_dir() {
            out.extend(existing(
                p,
                &[
                    "config",
                    "config.worktree",
                    "hooks",
                    "commondir",
                    "modules",
                    "worktrees",
                ],
            ));
        }
    }
    out
}

/// `config` and `hooks` of a git dir's submodules (`modules/<name>`,
/// nested for nested submodules): git runs in them on the user's next
/// `git status`, with their own config and hooks.
fn submodule_policy_files(git_dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![git_dir.join("modules")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for module in entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
            out.extend(existing(&module, &["config", "hooks"]));
            stack.push(module.join("modules"));
        }
    }
    out
}

/// `names` under `dir` that exist.
fn existing(dir: &Path, names: &[&str]) -> Vec<PathBuf> {
    names
        .iter()
        .map(|n| dir.join(n))
        .filter(|p| p.symlink_metadata().is_ok())
        .collect()
}

/// Policy files of writable roots that are themselves git dirs (a linked
/// worktree's shared `.git`, added so `git commit` works there): its
/// `config`, `hooks`, `commondir` and `modules`, and in each linked
/// worktree's own dir (left writable, since its `HEAD` and index live
/// there) what redirects git or holds config.
fn git_dir_root_policy_files(roots: &[PathBuf]) -> Vec<PathBuf> {
    roots
        .iter()
        .filter(|r| r.join("HEAD").is_file() && r.join("objects").is_dir())
        .flat_map(|r| {
            let mut files = existing(r, &["config", "hooks", "commondir", "modules"]);
            if let Ok(entries) = std::fs::read_dir(r.join("worktrees")) {
                for wt in entries.flatten().map(|e| e.path()) {
                    files.extend(existing(
                        &wt,
                        &["commondir", "gitdir", "config.worktree", "hooks"],
                    ));
                }
            }
            files.extend(worktree_dot_gits(r));
            files
        })
        .collect()
}

/// Sets up the namespace's mounts for `policy` and says what took.
pub(crate) fn setup_mounts(policy: &SandboxPolicy) -> NamespaceReport {
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
    let workspace = distinct_roots(policy.project_roots());
    if policy.mode == SandboxMode::WorkspaceWrite {
        // `.git` becomes a mount point first: it can then be neither renamed
        // nor replaced, so its read-only `hooks` and `config` stay its own.
        // The same for repositories nested in the workspace, whose config
        // git runs when it enters them (through a gitlink).
        let nested = nested_repos(&workspace);
        let nested_dirs = nested
            .iter()
            .filter(|p| p.symlink_metadata().is_ok_and(|m| m.is_dir()))
            .cloned();
        for git in workspace
            .iter()
            .map(|r| r.join(".git"))
            .filter(|g| g.is_dir())
            .chain(nested_dirs)
        {
            if let Err(e) = bind_in_place(&git) {
                skip(&mut report, e);
            }
        }
        let mut protected = protected_paths(&workspace);
        protected.extend(nested_policy_paths(&nested));
        protected.extend(git_dir_root_policy_files(&writable));
        protected.sort();
        protected.dedup();
        for p in protected {
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
    let mut to_hide = secrets::paths_to_hide(home.as_deref(), &scanned);
    to_hide.extend(
        policy
            .hidden
            .iter()
            .filter(|p| p.symlink_metadata().is_ok())
            .cloned(),
    );
    to_hide.sort();
    to_hide.dedup();
    for p in to_hide {
        let hidden = if p.is_dir() {
            mount(
                "tmpfs",
                &p,
                "tmpfs",
                libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                "size=4k,mode=0500",
            )
        } else {
            hide_file(&p)
        };
        match hidden {
            Ok(()) => report.hidden += 1,
            Err(e) => skip(&mut report, e),
        }
    }
    if !policy.network {
        hide_host_ipc(policy, &workspace, home.as_deref(), &mut report);
    }
    // The old cwd still points into the mounts that were just covered.
    if let Ok(cwd) = std::env::current_dir() {
        let _ = std::env::set_current_dir(cwd);
    }
    report
}

/// With the network off: the host's Unix sockets outside the workspace
/// covered (see [`crate::linux_sockets`]), POSIX shared memory and message
/// queues of the sandbox's own.
fn hide_host_ipc(
    policy: &SandboxPolicy,
    workspace: &[PathBuf],
    home: Option<&Path>,
    report: &mut NamespaceReport,
) {
    let mut keep = workspace.to_vec();
    if let Ok(cwd) = std::env::current_dir() {
        keep.push(cwd);
    }
    let named: Vec<PathBuf> = crate::SOCKET_VARS
        .iter()
        .filter_map(std::env::var_os)
        .flat_map(|v| crate::linux_sockets::paths_in_value(&v.to_string_lossy()))
        .collect();
    let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from);
    let sockets = crate::linux_sockets::outside_sockets(
        &keep,
        home,
        runtime.as_deref(),
        &named,
        &policy.allow_sockets,
    );
    for s in sockets {
        match hide_file(&s) {
            Ok(()) => report.sockets += 1,
            Err(e) => report.skipped.push(e),
        }
    }
    // `/dev/shm` is shared with every process of the host (Chrome's and
    // PulseAudio's segments, `sem.*` of Python's multiprocessing): a fresh
    // tmpfs keeps it writable for the command and its own children only.
    let shm = Path::new("/dev/shm");
    let shm_holds_root = keep
        .iter()
        .chain(&policy.writable_roots)
        .any(|r| r.starts_with(shm) || r.canonicalize().is_ok_and(|c| c.starts_with(shm)));
    if shm.is_dir() && !shm_holds_root {
        let flags = libc::MS_NOSUID | libc::MS_NODEV;
        if let Err(e) = mount("tmpfs", shm, "tmpfs", flags, "mode=1777") {
            report.skipped.push(e);
        }
    }
    let mq = Path::new("/dev/mqueue");
    if mq.is_dir()
        && let Err(e) = mount("mqueue", mq, "mqueue", libc::MS_NOSUID | libc::MS_NODEV, "")
    {
        report.skipped.push(e);
    }
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
        assert!(!p.contains(&root.join(".git/modules")), "absent, not made");
        assert!(p.contains(&root.join(".git/config")));
        assert!(root.join(".git/hooks").is_dir());
        // Nothing is made in the work tree to mount over.
        assert!(!root.join(".wright").exists() && !root.join(".claude").exists());
        std::fs::create_dir(root.join(".wright")).unwrap();
        let p = protected_paths(std::slice::from_ref(&root));
        assert!(
            p.contains(&root.join(".wright")),
            "an existing one is bound"
        );
    }

    #[test]
    fn every_dot_git_that_names_a_git_dir_is_protected() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join(".git/modules/s")).unwrap();
        std::fs::create_dir_all(root.join(".git/worktrees/w")).unwrap();
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::create_dir_all(root.join("wt")).unwrap();
        std::fs::write(
            root.join(".gitmodules"),
            "[submodule \"s\"]\n\tpath = sub\n",
        )
        .unwrap();
        std::fs::write(root.join("sub/.git"), "gitdir: ../.git/modules/s\n").unwrap();
        std::fs::write(root.join("wt/.git"), "gitdir: ../.git/worktrees/w\n").unwrap();
        std::fs::write(
            root.join(".git/worktrees/w/gitdir"),
            format!("{}\n", root.join("wt/.git").display()),
        )
        .unwrap();
        let p = protected_paths(std::slice::from_ref(&root));
        for want in [".git/modules", ".git/worktrees", "sub/.git", "wt/.git"] {
            assert!(p.contains(&root.join(want)), "{want}: {p:?}");
        }
        // A root that is itself a linked worktree: its `.git` file.
        let wt = root.join("wt");
        assert!(protected_paths(std::slice::from_ref(&wt)).contains(&wt.join(".git")));
        // Its shared git dir as a writable root: the redirects of each
        // worktree's own dir, not the dir (its index is written there).
        let shared = git_dir_root_policy_files(&[root.join(".git")]);
        assert!(shared.is_empty(), "not a git dir yet: {shared:?}");
        std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::create_dir_all(root.join(".git/objects")).unwrap();
        let shared = git_dir_root_policy_files(&[root.join(".git")]);
        for want in [".git/modules", ".git/worktrees/w/gitdir", "wt/.git"] {
            assert!(shared.contains(&root.join(want)), "{want}: {shared:?}");
        }
        assert!(!shared.contains(&root.join(".git/worktrees")));
    }

    #[test]
    fn nested_repositories_keep_what_decides_what_git_runs() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
        std::fs::create_dir_all(root.join("vendor/lib/.git/hooks")).unwrap();
        std::fs::write(root.join("vendor/lib/.git/HEAD"), "ref: x\n").unwrap();
        std::fs::write(root.join("vendor/lib/.git/config"), "").unwrap();
        std::fs::create_dir_all(root.join("other")).unwrap();
        std::fs::write(root.join("other/.git"), "gitdir: /x\n").unwrap();
        let nested = nested_repos(std::slice::from_ref(&root));
        let p = nested_policy_paths(&nested);
        for want in [
            "vendor/lib/.git/config",
            "vendor/lib/.git/hooks",
            "other/.git",
        ] {
            assert!(p.contains(&root.join(want)), "{want}: {p:?}");
        }
        assert!(!p.iter().any(|x| x.starts_with(root.join(".git"))), "{p:?}");
    }

    #[test]
    fn nothing_is_created_outside_a_repository() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        let p = protected_paths(std::slice::from_ref(&root));
        assert!(p.is_empty(), "{p:?}");
        assert!(!root.join(".wright").exists());
        assert!(!root.join(".claude").exists());
    }
}
