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
    /// Notes the redirect files missing from each root's `.git` directory.
    pub fn before(roots: &[PathBuf]) -> Self {
        let absent = roots
            .iter()
            .map(|r| r.join(".git"))
            .filter(|g| g.symlink_metadata().is_ok_and(|m| m.is_dir()))
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
