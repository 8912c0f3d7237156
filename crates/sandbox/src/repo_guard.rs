//! Files a command must not create in a repository's `.git` directory,
//! because they make every later git command (the user's, outside the
//! sandbox) read another repository's config, where `core.fsmonitor`,
//! hooks or filters run programs: `commondir` and `gitdir` redirects, a
//! `config.worktree`, and a new `modules` or `worktrees` dir (an existing
//! one is bound read-only). They cannot be bound read-only before they
//! exist, so the bash tool notes which are absent before a command and
//! removes any it created once its process group (and with namespaces,
//! everything it started) is gone, however it ended.
//!
//! The same for repositories nested in a root ([`crate::git_dirs`]): a new
//! `.git` file or link is removed, and a new `.git` dir or bare git dir
//! loses its `HEAD` (kept beside it as `HEAD.wright-removed`), which is
//! what makes git take it for a repository; the rest of it stays. Git
//! enters a nested repository on the user's next `git status` once it is a
//! gitlink, and then runs that repository's config.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The shared git dir of a linked worktree at `root` (whose `.git` is a file
/// naming `gitdir: <main>/.git/worktrees/<name>`), when it lies outside
/// `root`: commits there need it writable, with its policy files bound
/// read-only like a workspace's own.
pub fn worktree_common_dir(root: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(root.join(".git")).ok()?;
    let gitdir = root.join(text.strip_prefix("gitdir:")?.trim());
    let common = match std::fs::read_to_string(gitdir.join("commondir")) {
        Ok(rel) => gitdir.join(rel.trim()),
        Err(_) => gitdir,
    };
    let common = common.canonicalize().ok()?;
    let root = root.canonicalize().ok()?;
    (!common.starts_with(&root)).then_some(common)
}

/// Names inside `.git` that redirect git elsewhere (`commondir`, `gitdir`)
/// or add config to it (`config.worktree`, read once the repository's
/// config turns `extensions.worktreeConfig` on).
pub const REDIRECTS: &[&str] = &["commondir", "gitdir", "config.worktree"];

/// Names inside a root's `.git` that would hold planted git dirs.
pub const NESTING: &[&str] = &["modules", "worktrees"];

/// A project's own policy paths in its root: the config wright reads
/// (`.wright`), Claude Code's settings with their hooks (`.claude`) and the
/// project's MCP servers (`.mcp.json`). One that exists is bound read-only;
/// one a command creates is set aside after it, as `<name>.wright-removed`
/// (it would apply to the next run once the project is trusted).
pub const PROJECT_POLICY: &[&str] = &[".wright", ".claude", ".mcp.json"];

/// The redirect files absent before a command, and the repositories nested
/// in the roots then, to check afterwards.
#[derive(Debug, Default)]
pub struct RepoGuard {
    absent: Vec<PathBuf>,
    nested: Vec<NestedBefore>,
}

/// A root's nested repositories before the command, by what identifies
/// each (see [`identity`]).
#[derive(Debug)]
struct NestedBefore {
    root: PathBuf,
    found: BTreeSet<(PathBuf, String)>,
}

impl RepoGuard {
    /// Notes the redirect files missing from each root's git directory
    /// (followed when `.git` is a symlink to one) and from the git dirs of
    /// its submodules (`modules/**`) and linked worktrees (`worktrees/*`):
    /// git runs in those too when the user runs it in the project.
    ///
    /// Also notes `modules` and `worktrees` missing from each root's git
    /// dir, and the repositories nested in each root (one walk of it, see
    /// [`crate::git_dirs::scan_nested`]).
    pub fn before(roots: &[PathBuf]) -> Self {
        let root_git_dirs: Vec<PathBuf> = roots
            .iter()
            .filter_map(|r| {
                let git = r.join(".git");
                // A `.git` symlink to a directory is a git dir where the
                // link points; a `.git` file is a linked worktree, whose
                // own redirects are legitimate, but whose shared git dir
                // (writable for its commits) is the main repository's.
                if git.is_dir() {
                    Some(git.canonicalize().unwrap_or(git))
                } else {
                    worktree_common_dir(r)
                }
            })
            .collect();
        let mut absent: Vec<PathBuf> = root_git_dirs
            .iter()
            .flat_map(|g| git_dirs(g))
            .flat_map(|g| REDIRECTS.iter().map(move |n| g.join(n)))
            .collect();
        absent.extend(
            root_git_dirs
                .iter()
                .flat_map(|g| NESTING.iter().map(move |n| g.join(n))),
        );
        // Project roots only: elsewhere a new `.wright` is how a project
        // begins, and no later run reads it before the user trusts it.
        absent.extend(
            roots
                .iter()
                .filter(|r| r.join(".git").symlink_metadata().is_ok() || r.join(".wright").is_dir())
                .flat_map(|r| PROJECT_POLICY.iter().map(move |n| r.join(n))),
        );
        absent.retain(|p| p.symlink_metadata().is_err());
        let nested = roots
            .iter()
            .map(|r| NestedBefore {
                root: r.clone(),
                found: nested_identities(r),
            })
            .collect();
        Self { absent, nested }
    }

    /// Removes what the command created among them and says what it
    /// removed, one line each, for the command's output; then the same for
    /// new nested repositories (a walk of each root).
    pub fn after(&self) -> Vec<String> {
        let mut said = self.after_quick();
        for before in &self.nested {
            for (path, _) in nested_identities(&before.root).difference(&before.found) {
                if let Some(line) = neutralize(path) {
                    said.push(line);
                }
            }
        }
        said
    }

    /// Only the redirects, `modules` and `worktrees` (a few stats, no
    /// walk): for the frequent sweeps while a background job runs; its end
    /// runs [`Self::after`].
    pub fn after_quick(&self) -> Vec<String> {
        self.absent
            .iter()
            .filter_map(|p| {
                if is_project_policy(p) {
                    set_aside(p)
                } else {
                    remove(p).then(|| notice(p))
                }
            })
            .collect()
    }
}

/// Each repository nested in `root` with what it is now: a `.git` file's
/// text, a link's target, or a directory with a `HEAD` (by its inode, so a
/// replaced one counts as new). A directory without `HEAD` is no
/// repository to git and has no entry, so one whose `HEAD` is moved back
/// in counts as new too.
fn nested_identities(root: &Path) -> BTreeSet<(PathBuf, String)> {
    crate::git_dirs::scan_nested(root)
        .found
        .into_iter()
        .filter_map(|(p, _, _)| identity(&p).map(|id| (p, id)))
        .collect()
}

fn identity(p: &Path) -> Option<String> {
    let meta = p.symlink_metadata().ok()?;
    if meta.file_type().is_symlink() {
        return Some(format!("link {}", std::fs::read_link(p).ok()?.display()));
    }
    if meta.is_file() {
        let mut text = std::fs::read(p).ok()?;
        text.truncate(4096);
        return Some(format!("file {}", String::from_utf8_lossy(&text)));
    }
    // The directory itself, not its `HEAD`: git rewrites `HEAD` (a new
    // file) on every checkout in the repository, which is no plant.
    head_of(p)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some(format!("dir {} {}", meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        Some("dir".to_owned())
    }
}

/// The `HEAD` of the git dir `dir` (or of `dir/.git`'s form: `dir` itself
/// is the git dir), in whatever case it was written.
fn head_of(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .find(|e| e.file_name().eq_ignore_ascii_case("head"))
        .map(|e| e.path())
}

/// Makes the new nested repository at `p` none: a `.git` file or link is
/// removed; a directory's `HEAD` is moved aside. Says what it did.
fn neutralize(p: &Path) -> Option<String> {
    let meta = p.symlink_metadata().ok()?;
    let what = if meta.is_dir() {
        let head = head_of(p)?;
        let aside = p.join("HEAD.wright-removed");
        let _ = std::fs::remove_file(&aside);
        std::fs::rename(&head, &aside).ok()?;
        format!(
            "moved {} to {}",
            head.display(),
            aside
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        )
    } else {
        std::fs::remove_file(p).ok()?;
        format!("removed {}", p.display())
    };
    Some(format!(
        "{} {what}: the command made a git repository inside the workspace, and git would run \
         that repository's config (hooks, fsmonitor, filters) on the user's next `git status`. \
         Make repositories outside the workspace, or ask the user to",
        crate::HELPER_ERROR_PREFIX
    ))
}

/// `git_dir` and the git dirs nested in it: submodules' (`modules/<name>`,
/// recursively) and linked worktrees' (`worktrees/<name>`).
fn git_dirs(git_dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![git_dir.to_path_buf()];
    let mut stack = vec![git_dir.join("modules")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for module in entries.flatten().map(|e| e.path()) {
            if module.symlink_metadata().is_ok_and(|m| m.is_dir()) {
                stack.push(module.join("modules"));
                out.push(module);
            }
        }
    }
    if let Ok(entries) = std::fs::read_dir(git_dir.join("worktrees")) {
        out.extend(
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.symlink_metadata().is_ok_and(|m| m.is_dir())),
        );
    }
    out
}

/// Removes `p` without following it; whether something was there.
fn remove(p: &Path) -> bool {
    let Ok(meta) = p.symlink_metadata() else {
        return false;
    };
    let _ = if meta.is_dir() {
        std::fs::remove_dir_all(p)
    } else {
        std::fs::remove_file(p)
    };
    true
}

fn is_project_policy(p: &Path) -> bool {
    p.file_name()
        .is_some_and(|n| PROJECT_POLICY.iter().any(|x| n == *x))
}

/// Moves a project policy path the command created aside, beside itself
/// (`.claude` → `.claude.wright-removed`): nothing reads it there, and
/// nothing is lost when the command meant it (a checkout or pull that
/// brought the project's own `.claude/` in). Says what it did.
fn set_aside(p: &Path) -> Option<String> {
    p.symlink_metadata().ok()?;
    let mut aside = p.as_os_str().to_owned();
    aside.push(".wright-removed");
    let aside = PathBuf::from(aside);
    remove(&aside);
    if std::fs::rename(p, &aside).is_err() {
        remove(p);
        return Some(format!(
            "{} removed {}, which the command created: a project's own config, settings or MCP \
             servers there would apply to the next run; ask the user to create it",
            crate::HELPER_ERROR_PREFIX,
            p.display()
        ));
    }
    Some(format!(
        "{} moved {} to {}, which the command created: a project's own config, settings or MCP \
         servers there would apply to the next run; the user can move it back if it is theirs",
        crate::HELPER_ERROR_PREFIX,
        p.display(),
        aside.display()
    ))
}

fn notice(p: &Path) -> String {
    format!(
        "{} removed {}, which the command created: it would make git read another repository's \
         config, or config the command wrote, where hooks and fsmonitor run programs",
        crate::HELPER_ERROR_PREFIX,
        p.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_policy_paths_a_command_creates_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        let guard = RepoGuard::before(std::slice::from_ref(&root));
        std::fs::create_dir_all(root.join(".wright")).unwrap();
        std::fs::write(
            root.join(".wright/config.toml"),
            "permission_mode = \"bypass\"\n",
        )
        .unwrap();
        std::fs::write(root.join(".mcp.json"), "{}").unwrap();
        let said = guard.after_quick();
        assert!(!root.join(".wright").exists() && !root.join(".mcp.json").exists());
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said[0].contains("a project's own config"), "{said:?}");
        // Set aside, not lost (a checkout may have brought them in).
        let kept =
            std::fs::read_to_string(root.join(".wright.wright-removed/config.toml")).unwrap();
        assert!(kept.contains("bypass"));
        assert!(root.join(".mcp.json.wright-removed").exists());
        // Outside a project nothing is noted: a new `.wright` starts one.
        let plain = tempfile::tempdir().unwrap();
        let guard = RepoGuard::before(&[plain.path().to_path_buf()]);
        std::fs::create_dir(plain.path().join(".wright")).unwrap();
        assert!(guard.after_quick().is_empty());
        assert!(plain.path().join(".wright").exists());
    }

    #[test]
    fn removes_only_what_appeared() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".git/gitdir"), "kept").unwrap();
        let guard = RepoGuard::before(std::slice::from_ref(&root));
        std::fs::write(root.join(".git/commondir"), "../evil").unwrap();
        std::fs::write(root.join(".git/config.worktree"), "[core]\nfsmonitor=x\n").unwrap();
        std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        let said = guard.after();
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(!root.join(".git/config.worktree").exists());
        assert!(!root.join(".git/commondir").exists());
        assert!(root.join(".git/gitdir").exists());
        assert!(root.join(".git/HEAD").exists());
    }

    #[cfg(unix)]
    #[test]
    fn submodules_worktrees_and_a_symlinked_git_dir_are_guarded_too() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let root = base.join("proj");
        let real = base.join("real.git");
        std::fs::create_dir_all(real.join("modules/sub/modules/inner")).unwrap();
        std::fs::create_dir_all(real.join("worktrees/wt")).unwrap();
        std::fs::write(real.join("worktrees/wt/commondir"), "../..").unwrap();
        std::fs::write(real.join("worktrees/wt/gitdir"), "/elsewhere/.git").unwrap();
        std::fs::create_dir_all(&root).unwrap();
        std::os::unix::fs::symlink(&real, root.join(".git")).unwrap();
        let guard = RepoGuard::before(std::slice::from_ref(&root));
        let plants = [
            real.join("commondir"),
            real.join("modules/sub/commondir"),
            real.join("modules/sub/modules/inner/gitdir"),
        ];
        for p in &plants {
            std::fs::write(p, "/tmp/evil").unwrap();
        }
        let said = guard.after();
        assert_eq!(said.len(), plants.len(), "{said:?}");
        for p in &plants {
            assert!(!p.exists(), "{}", p.display());
        }
        // A linked worktree's own redirects were there before: kept.
        assert!(real.join("worktrees/wt/commondir").exists());
        assert!(real.join("worktrees/wt/gitdir").exists());
    }

    #[test]
    fn new_modules_and_worktrees_dirs_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        let guard = RepoGuard::before(std::slice::from_ref(&root));
        std::fs::create_dir_all(root.join(".git/modules/x")).unwrap();
        std::fs::write(root.join(".git/modules/x/config"), "[core]\nfsmonitor=x\n").unwrap();
        std::fs::create_dir_all(root.join(".git/worktrees/y")).unwrap();
        assert_eq!(guard.after().len(), 2);
        assert!(!root.join(".git/modules").exists());
        assert!(!root.join(".git/worktrees").exists());
    }

    #[test]
    fn new_nested_repositories_are_undone_and_old_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join(".git/objects")).unwrap();
        std::fs::create_dir_all(root.join("old/.git")).unwrap();
        std::fs::write(root.join("old/.git/HEAD"), "ref: x\n").unwrap();
        std::fs::create_dir_all(root.join("linked")).unwrap();
        std::fs::write(root.join("linked/.git"), "gitdir: /a\n").unwrap();
        let guard = RepoGuard::before(std::slice::from_ref(&root));
        // Plants: a new repository, a bare one, a repointed `.git` file, a
        // `.git` link, and a change to the root's own git dir (kept).
        std::fs::create_dir_all(root.join("a/b/.git/objects")).unwrap();
        std::fs::write(root.join("a/b/.git/HEAD"), "ref: x\n").unwrap();
        std::fs::write(root.join("a/b/.git/config"), "[core]\nfsmonitor=x\n").unwrap();
        std::fs::create_dir_all(root.join("bare/refs")).unwrap();
        std::fs::write(root.join("bare/HEAD"), "ref: x\n").unwrap();
        std::fs::write(root.join("linked/.git"), "gitdir: /tmp/evil\n").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("/tmp/evil", root.join("a/.git")).unwrap();
        std::fs::write(root.join(".git/HEAD"), "ref: y\n").unwrap();
        let said = guard.after();
        assert_eq!(said.len(), if cfg!(unix) { 4 } else { 3 }, "{said:?}");
        assert!(!root.join("a/b/.git/HEAD").exists());
        assert!(root.join("a/b/.git/HEAD.wright-removed").exists());
        assert!(root.join("a/b/.git/config").exists(), "the rest stays");
        assert!(!root.join("bare/HEAD").exists());
        assert!(!root.join("linked/.git").exists());
        assert!(root.join("a/.git").symlink_metadata().is_err());
        assert!(root.join("old/.git/HEAD").exists());
        assert!(root.join(".git/HEAD").exists());
        // A checkout in an old one rewrites its HEAD: no plant.
        let guard = RepoGuard::before(std::slice::from_ref(&root));
        std::fs::write(root.join("old/.git/HEAD.lock"), "ref: y\n").unwrap();
        std::fs::rename(root.join("old/.git/HEAD.lock"), root.join("old/.git/HEAD")).unwrap();
        assert!(guard.after().is_empty());
        assert!(root.join("old/.git/HEAD").exists());
        // Moving HEAD back in a later command is a new repository again.
        let guard = RepoGuard::before(std::slice::from_ref(&root));
        std::fs::rename(
            root.join("a/b/.git/HEAD.wright-removed"),
            root.join("a/b/.git/HEAD"),
        )
        .unwrap();
        assert_eq!(guard.after().len(), 1);
        assert!(!root.join("a/b/.git/HEAD").exists());
    }

    #[test]
    fn a_worktree_names_its_shared_git_dir() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("main");
        let wt = dir.path().join("wt");
        std::fs::create_dir_all(main.join(".git/worktrees/wt")).unwrap();
        std::fs::create_dir_all(&wt).unwrap();
        std::fs::write(main.join(".git/worktrees/wt/commondir"), "../..\n").unwrap();
        std::fs::write(wt.join(".git"), "gitdir: ../main/.git/worktrees/wt\n").unwrap();
        assert_eq!(
            worktree_common_dir(&wt),
            Some(main.join(".git").canonicalize().unwrap())
        );
        assert_eq!(worktree_common_dir(&main), None);
    }

    #[test]
    fn a_linked_worktree_roots_shared_git_dir_is_guarded() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("main");
        let wt = dir.path().join("wt");
        std::fs::create_dir_all(main.join(".git/worktrees/wt")).unwrap();
        std::fs::create_dir_all(&wt).unwrap();
        std::fs::write(main.join(".git/worktrees/wt/commondir"), "../..\n").unwrap();
        std::fs::write(wt.join(".git"), "gitdir: ../main/.git/worktrees/wt\n").unwrap();
        let guard = RepoGuard::before(std::slice::from_ref(&wt));
        std::fs::write(main.join(".git/commondir"), "/tmp/evil").unwrap();
        std::fs::create_dir_all(main.join(".git/modules/x")).unwrap();
        assert_eq!(guard.after().len(), 2);
        assert!(!main.join(".git/commondir").exists());
        assert!(!main.join(".git/modules").exists());
        assert!(main.join(".git/worktrees/wt/commondir").exists());
    }

    #[cfg(unix)]
    #[test]
    fn symlinked_redirects_are_removed_without_following() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("ws");
        std::fs::create_dir_all(root.join(".git")).unwrap();
        let outside = dir.path().join("outside");
        std::fs::write(&outside, "keep").unwrap();
        let guard = RepoGuard::before(std::slice::from_ref(&root));
        std::os::unix::fs::symlink(&outside, root.join(".git/commondir")).unwrap();
        assert_eq!(guard.after().len(), 1);
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
    }
}
