//! Files a command must not create in a repository's `.git` directory,
//! because they make every later git command (the user's, outside the
//! sandbox) read another repository's config, where `core.fsmonitor`,
//! hooks or filters run programs: `commondir` and `gitdir` redirects. They
//! cannot be bound read-only before they exist, so the bash tool notes which
//! are absent before a command and removes any it created once its process
//! group (and with namespaces, everything it started) is gone, however it
//! ended.

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

/// Names inside `.git` that redirect git elsewhere.
pub const REDIRECTS: &[&str] = &["commondir", "gitdir"];

/// The redirect files absent before a command, to check afterwards.
#[derive(Debug, Default)]
pub struct RepoGuard {
    absent: Vec<PathBuf>,
}

impl RepoGuard {
    /// Notes the redirect files missing from each root's git directory
    /// (followed when `.git` is a symlink to one) and from the git dirs of
    /// its submodules (`modules/**`) and linked worktrees (`worktrees/*`):
    /// git runs in those too when the user runs it in the project.
    pub fn before(roots: &[PathBuf]) -> Self {
        let absent = roots
            .iter()
            .filter_map(|r| {
                let git = r.join(".git");
                // A `.git` symlink to a directory is a git dir where the
                // link points; a `.git` file is a linked worktree, whose
                // own redirects are legitimate.
                git.is_dir().then(|| git.canonicalize().unwrap_or(git))
            })
            .flat_map(|g| git_dirs(&g))
            .flat_map(|g| REDIRECTS.iter().map(move |n| g.join(n)))
            .filter(|p| p.symlink_metadata().is_err())
            .collect();
        Self { absent }
    }

    /// Removes what the command created among them and says what it
    /// removed, one line each, for the command's output.
    pub fn after(&self) -> Vec<String> {
        self.absent
            .iter()
            .filter(|p| remove(p))
            .map(|p| notice(p))
            .collect()
    }
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

fn notice(p: &Path) -> String {
    format!(
        "{} removed {}, which the command created: it would make git read another repository's \
         config, where hooks and fsmonitor run programs",
        crate::HELPER_ERROR_PREFIX,
        p.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_only_what_appeared() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".git/gitdir"), "kept").unwrap();
        let guard = RepoGuard::before(std::slice::from_ref(&root));
        std::fs::write(root.join(".git/commondir"), "../evil").unwrap();
        std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        let said = guard.after();
        assert_eq!(said.len(), 1, "{said:?}");
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
