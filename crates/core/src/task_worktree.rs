//! Worktree isolation for subagents: a child whose definition says
//! `isolation: worktree` works in a fresh `git worktree` on a branch of
//! its own, so its edits never touch the user's working tree. Afterwards
//! its changes are committed on that branch and reported with a diff stat;
//! a worktree with no changes is removed with its branch.
//!
//! The worktrees live in wright's data directory, not in the project:
//! `.wright/` is protected from commands and the edit tools, so a child
//! could not write a worktree there. Every git run here is wright's own
//! (not the model's), so it runs with the repository's hooks and fsmonitor
//! switched off: a repository's code must not run because a child ended.

use std::path::{Path, PathBuf};
use std::process::Stdio;

/// A child's worktree.
#[derive(Debug, Clone)]
pub(crate) struct Worktree {
    /// The repository's top directory.
    pub(crate) repo: PathBuf,
    /// Where the child works.
    pub(crate) path: PathBuf,
    /// Its branch: `wright/<agent>-<n>`.
    pub(crate) branch: String,
    /// The commit it started from.
    pub(crate) base: String,
}

/// Runs git with the repository's own programs switched off; returns
/// stdout, or stderr as the error.
async fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = tokio::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "core.fsmonitor=false",
            "-c",
            "commit.gpgsign=false",
            // Attributes from the empty tree, not the checkout: no filter
            // or diff driver of the repository's runs on add or checkout.
            "-c",
            "attr.tree=4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        ])
        .args(args)
        .stdin(Stdio::null())
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .await
        .map_err(|e| format!("git: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "git {}: {}",
            args.first().copied().unwrap_or_default(),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Makes a worktree for the child `name` (e.g. `reviewer-2`) of the
/// repository containing `cwd`, under `base_dir`.
pub(crate) async fn create(cwd: &Path, base_dir: &Path, name: &str) -> Result<Worktree, String> {
    let repo = PathBuf::from(
        git(cwd, &["rev-parse", "--show-toplevel"])
            .await
            .map_err(|e| format!("worktree isolation needs a git repository ({e})"))?
            .trim(),
    );
    let base = git(&repo, &["rev-parse", "HEAD"])
        .await
        .map_err(|e| format!("worktree isolation needs a commit to start from ({e})"))?
        .trim()
        .to_owned();
    let stamp = uuid::Uuid::now_v7().simple().to_string();
    let unique = format!("{name}-{}", &stamp[stamp.len() - 8..]);
    let branch = format!("wright/{unique}");
    let path = base_dir.join(&unique);
    std::fs::create_dir_all(base_dir).map_err(|e| format!("{}: {e}", base_dir.display()))?;
    let target = path.to_string_lossy().into_owned();
    git(
        &repo,
        &["worktree", "add", "-q", "-b", &branch, &target, &base],
    )
    .await?;
    Ok(Worktree {
        repo,
        path,
        branch,
        base,
    })
}

/// What became of a child's worktree.
#[derive(Debug)]
pub(crate) struct Finished {
    /// What happened, for the `Task` result.
    pub(crate) report: String,
    /// The branch kept with the child's changes, for the user's display.
    pub(crate) kept: Option<String>,
}

/// Commits what the child changed on its branch and says what happened;
/// removes the worktree and branch when nothing changed.
pub(crate) async fn finish(wt: &Worktree, message: &str) -> Finished {
    let report = report(wt, message).await;
    // Kept whenever the worktree still exists: with the child's changes,
    // or because removing it failed.
    let kept = wt.path.exists().then(|| wt.branch.clone());
    Finished { report, kept }
}

async fn report(wt: &Worktree, message: &str) -> String {
    let changed = git(&wt.path, &["status", "--porcelain"])
        .await
        .map(|s| !s.trim().is_empty())
        .unwrap_or(false);
    if !changed {
        let path = wt.path.to_string_lossy().into_owned();
        let removed = git(&wt.repo, &["worktree", "remove", "--force", &path]).await;
        let _ = git(&wt.repo, &["branch", "-D", &wt.branch]).await;
        return match removed {
            Ok(_) => "It changed no files; its worktree was removed.".to_owned(),
            Err(e) => format!("It changed no files; removing its worktree failed: {e}"),
        };
    }
    let committed = async {
        git(&wt.path, &["add", "-A"]).await?;
        git(
            &wt.path,
            &[
                "-c",
                "user.name=wright",
                "-c",
                "user.email=wright@localhost",
                "commit",
                "-q",
                "--no-verify",
                "-m",
                message,
            ],
        )
        .await
    }
    .await;
    let range = format!("{}..{}", wt.base, wt.branch);
    let stat = git(&wt.repo, &["diff", "--stat", &range])
        .await
        .unwrap_or_default();
    match committed {
        Ok(_) => format!(
            "Its changes are committed on branch `{}` (worktree {}), not in your working tree:\n{}",
            wt.branch,
            wt.path.display(),
            stat.trim_end()
        ),
        Err(e) => format!(
            "Its changes are in the worktree {} (branch `{}`), but committing them failed: {e}",
            wt.path.display(),
            wt.branch
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(dir: &Path, script: &str) {
        let ok = std::process::Command::new("bash")
            .args(["-c", script])
            .current_dir(dir)
            .status()
            .unwrap()
            .success();
        assert!(ok, "{script}");
    }

    fn repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        sh(
            dir.path(),
            "git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init \
             && echo one > a.txt && git add a.txt && git -c user.name=t -c user.email=t@t commit -q -m a",
        );
        dir
    }

    #[tokio::test]
    async fn changes_land_on_the_branch_and_clean_worktrees_go() {
        let repo = repo();
        let base = tempfile::tempdir().unwrap();
        let wt = create(repo.path(), base.path(), "coder-1").await.unwrap();
        assert!(wt.branch.starts_with("wright/coder-1-"));
        std::fs::write(wt.path.join("a.txt"), "two\n").unwrap();
        std::fs::write(wt.path.join("new.txt"), "new\n").unwrap();
        let done = finish(&wt, "wright: coder-1").await;
        assert_eq!(done.kept.as_deref(), Some(wt.branch.as_str()));
        let report = done.report;
        assert!(report.contains(&wt.branch), "{report}");
        assert!(
            report.contains("a.txt") && report.contains("new.txt"),
            "{report}"
        );
        // The user's tree is untouched; the branch has the change.
        assert_eq!(
            std::fs::read_to_string(repo.path().join("a.txt")).unwrap(),
            "one\n"
        );
        let shown = git(repo.path(), &["show", &format!("{}:a.txt", wt.branch)])
            .await
            .unwrap();
        assert_eq!(shown, "two\n");
        assert!(wt.path.exists());

        let clean = create(repo.path(), base.path(), "reader-1").await.unwrap();
        let done = finish(&clean, "wright: reader-1").await;
        assert_eq!(done.kept, None);
        assert!(done.report.contains("removed"), "{}", done.report);
        assert!(!clean.path.exists());
        let branches = git(repo.path(), &["branch", "--list", &clean.branch])
            .await
            .unwrap();
        assert!(branches.trim().is_empty(), "{branches}");
    }

    #[tokio::test]
    async fn the_repositorys_filters_and_hooks_do_not_run() {
        let repo = repo();
        let marks = tempfile::tempdir().unwrap();
        let m = marks.path().display();
        sh(
            repo.path(),
            &format!(
                "echo '*.txt filter=evil' > .gitattributes && git add .gitattributes && \
                 git -c user.name=t -c user.email=t@t commit -q -m attrs && \
                 git config filter.evil.smudge 'touch {m}/smudge; cat' && \
                 git config filter.evil.clean 'touch {m}/clean; cat' && \
                 mkdir -p .git/hooks && printf '#!/bin/sh\\ntouch {m}/hook\\n' > .git/hooks/pre-commit && \
                 chmod +x .git/hooks/pre-commit"
            ),
        );
        let base = tempfile::tempdir().unwrap();
        let wt = create(repo.path(), base.path(), "coder-1").await.unwrap();
        std::fs::write(wt.path.join("a.txt"), "two\n").unwrap();
        let report = finish(&wt, "wright: coder-1").await.report;
        assert!(report.contains(&wt.branch), "{report}");
        for mark in ["smudge", "clean", "hook"] {
            assert!(!marks.path().join(mark).exists(), "{mark} ran");
        }
    }

    #[tokio::test]
    async fn outside_a_repository_it_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let err = create(dir.path(), dir.path(), "x-1").await.unwrap_err();
        assert!(err.contains("git repository"), "{err}");
    }
}
