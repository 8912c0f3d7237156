//! Worktree isolation for subagents: a child whose definition says
//! `isolation: worktree` works in a fresh `git worktree` on a branch of
//! its own, so its edits never touch the user's working tree. Afterwards
//! its changes are committed on that branch and reported with a diff stat;
//! a worktree with no changes is removed with its branch.
//!
//! The worktrees live in wright's data directory, not in the project:
//! `.wright/` is protected from commands and the edit tools, so a child
//! could not write a worktree there. Every git run here is wright's own
//! (not the model's), and the child may have planted anything in its
//! worktree, so none of them trusts it: the worktree's git dir is recorded
//! when it is made and passed with `--git-dir`/`--work-tree` (a rewritten
//! `.git` file is never followed), the repository's programs are switched
//! off (see [`NEUTRAL`]), and where the OS sandbox works they run in it,
//! writing only the repository's git dir.

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
    /// How wright's gits reach the repository, fixed before the child ran.
    git: Git,
}

/// Git settings for every git wright runs on a child's worktree, outranking
/// any config: no hooks, no fsmonitor, no signing program, no attributes
/// from the user's global file or the checkout (`attr.tree` names the empty
/// tree, git ≥ 2.42; `GIT_ATTR_SOURCE` below does the same from 2.40), and
/// no descent into submodules, whose config is their own.
const NEUTRAL: &[&str] = &[
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "commit.gpgsign=false",
    "core.attributesFile=/dev/null",
    "attr.tree=4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    "diff.ignoreSubmodules=all",
    "submodule.recurse=false",
];

/// The empty tree: attributes are read from it, so none apply.
const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// Variables that would point git at another repository than the one
/// named on its command line.
const LOCATION_VARS: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
];

/// Where wright's gits run: the repository's shared git dir, the
/// worktree's own git dir, and the sandbox helper when the OS sandbox
/// works.
#[derive(Debug, Clone)]
struct Git {
    /// The shared git dir (`<repo>/.git`).
    common: PathBuf,
    /// The worktree's git dir (`<common>/worktrees/<name>`), empty until
    /// the worktree exists.
    own: PathBuf,
    /// The helper that runs each git in the sandbox, writing only `common`.
    helper: Option<PathBuf>,
    /// Each filter driver the repository's config defines, switched off by
    /// name (`info/attributes` of the shared dir can still name one).
    filters: Vec<String>,
}

/// Which git dir a run uses.
#[derive(Clone, Copy)]
enum In<'a> {
    /// The repository's shared git dir, no work tree.
    Repo,
    /// The worktree's git dir, with the worktree as work tree.
    Worktree(&'a Path),
}

impl Git {
    /// Runs git with the repository's own programs switched off; returns
    /// stdout, or stderr as the error.
    async fn run(&self, at: In<'_>, args: &[&str]) -> Result<String, String> {
        let mut argv: Vec<std::ffi::OsString> = vec!["git".into()];
        let (git_dir, work_tree) = match at {
            In::Repo => (&self.common, None),
            In::Worktree(tree) => (&self.own, Some(tree)),
        };
        argv.push(format!("--git-dir={}", git_dir.display()).into());
        if let Some(t) = work_tree {
            argv.push(format!("--work-tree={}", t.display()).into());
        }
        for c in NEUTRAL {
            argv.push("-c".into());
            argv.push((*c).into());
        }
        for f in &self.filters {
            for key in ["clean", "smudge", "process"] {
                argv.push("-c".into());
                argv.push(format!("filter.{f}.{key}=").into());
            }
            argv.push("-c".into());
            argv.push(format!("filter.{f}.required=false").into());
        }
        argv.extend(args.iter().map(Into::into));
        let mut cmd = match &self.helper {
            Some(helper) => {
                let policy = wright_sandbox::SandboxPolicy {
                    mode: wright_sandbox::SandboxMode::WorkspaceWrite,
                    writable_roots: vec![self.common.clone()],
                    network: false,
                    workspace_roots: vec![self.common.clone()],
                    hidden: Vec::new(),
                    allow_sockets: Vec::new(),
                };
                wright_sandbox::command_argv(&policy, &argv, helper)
                    .map_err(|e| format!("git: {e}"))?
            }
            None => {
                let mut c = std::process::Command::new(&argv[0]);
                c.args(&argv[1..]);
                c
            }
        };
        for v in LOCATION_VARS {
            cmd.env_remove(v);
        }
        // Not the child's directory: nothing there is discovered or hidden.
        cmd.current_dir(&self.common)
            .stdin(Stdio::null())
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_ATTR_NOSYSTEM", "1")
            .env("GIT_ATTR_SOURCE", EMPTY_TREE);
        let out = tokio::process::Command::from(cmd)
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

    /// The filter drivers the repository's config (its own, the user's,
    /// but not the system's) defines, by name.
    async fn read_filters(&mut self) {
        let listed = self
            .run(
                In::Repo,
                &["config", "--name-only", "--get-regexp", r"^filter\."],
            )
            .await
            .unwrap_or_default();
        let mut names: Vec<String> = listed
            .lines()
            .filter_map(|l| l.strip_prefix("filter."))
            .filter_map(|l| l.rsplit_once('.').map(|(name, _)| name.to_owned()))
            .collect();
        names.sort();
        names.dedup();
        self.filters = names;
    }
}

/// Runs git in `dir` (found by git's own discovery) for the two questions
/// asked before the worktree exists: where the repository is.
async fn discover(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = tokio::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "core.fsmonitor=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .args(args)
        .stdin(Stdio::null())
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .await
        .map_err(|e| format!("git: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(format!(
            "git {}: {}",
            args.first().copied().unwrap_or_default(),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The sandbox helper for wright's own gits, when the OS sandbox works
/// here: the session's helper, probed once.
pub(crate) fn sandbox_helper(session: Option<&wright_sandbox::SandboxContext>) -> Option<PathBuf> {
    static WORKS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let works = *WORKS
        .get_or_init(|| matches!(wright_sandbox::probe(), wright_sandbox::Support::Available));
    session.filter(|_| works).map(|s| s.helper_exe.clone())
}

/// Makes a worktree for the child `name` (e.g. `reviewer-2`) of the
/// repository containing `cwd`, under `base_dir`; its later gits run
/// through `helper` (the sandbox) when given.
pub(crate) async fn create(
    cwd: &Path,
    base_dir: &Path,
    name: &str,
    helper: Option<PathBuf>,
) -> Result<Worktree, String> {
    let repo = PathBuf::from(
        discover(cwd, &["rev-parse", "--show-toplevel"])
            .await
            .map_err(|e| format!("worktree isolation needs a git repository ({e})"))?,
    );
    let common = discover(
        &repo,
        &["rev-parse", "--path-format=absolute", "--git-common-dir"],
    )
    .await
    .map_err(|e| format!("worktree isolation needs a git repository ({e})"))?;
    let mut git = Git {
        common: PathBuf::from(common),
        own: PathBuf::new(),
        helper,
        filters: Vec::new(),
    };
    git.read_filters().await;
    let base = git
        .run(In::Repo, &["rev-parse", "HEAD"])
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
    // Made outside the sandbox: it writes the worktree, outside the git
    // dir. Nothing of the child's exists yet, and checkout runs no filter
    // or hook here.
    let unconfined = Git {
        helper: None,
        ..git.clone()
    };
    unconfined
        .run(
            In::Repo,
            &["worktree", "add", "-q", "-b", &branch, &target, &base],
        )
        .await?;
    // Recorded now, before the child can touch the worktree's `.git` file.
    git.own = PathBuf::from(discover(&path, &["rev-parse", "--absolute-git-dir"]).await?);
    if !git.own.starts_with(&git.common) {
        return Err(format!(
            "the new worktree's git dir {} is outside the repository's {}",
            git.own.display(),
            git.common.display()
        ));
    }
    Ok(Worktree {
        repo,
        path,
        branch,
        base,
        git,
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
    let git = &wt.git;
    let here = In::Worktree(&wt.path);
    let changed = git
        .run(here, &["status", "--porcelain", "--ignore-submodules=all"])
        .await
        .map(|s| !s.trim().is_empty())
        .unwrap_or(false);
    if !changed {
        let path = wt.path.to_string_lossy().into_owned();
        // Outside the sandbox: it deletes the worktree, outside the git dir.
        let unconfined = Git {
            helper: None,
            ..git.clone()
        };
        let removed = unconfined
            .run(In::Repo, &["worktree", "remove", "--force", &path])
            .await;
        let _ = git.run(In::Repo, &["branch", "-D", &wt.branch]).await;
        return match removed {
            Ok(_) => "It changed no files; its worktree was removed.".to_owned(),
            Err(e) => format!("It changed no files; removing its worktree failed: {e}"),
        };
    }
    let committed = async {
        git.run(here, &["add", "-A"]).await?;
        git.run(
            here,
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
    let stat = git
        .run(
            In::Repo,
            &["diff", "--no-ext-diff", "--no-textconv", "--stat", &range],
        )
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
        let wt = create(repo.path(), base.path(), "coder-1", None)
            .await
            .unwrap();
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
        let shown = discover(repo.path(), &["show", &format!("{}:a.txt", wt.branch)])
            .await
            .unwrap();
        assert_eq!(shown, "two");
        assert!(wt.path.exists());

        let clean = create(repo.path(), base.path(), "reader-1", None)
            .await
            .unwrap();
        let done = finish(&clean, "wright: reader-1").await;
        assert_eq!(done.kept, None);
        assert!(done.report.contains("removed"), "{}", done.report);
        assert!(!clean.path.exists());
        let branches = discover(repo.path(), &["branch", "--list", &clean.branch])
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
        let wt = create(repo.path(), base.path(), "coder-1", None)
            .await
            .unwrap();
        std::fs::write(wt.path.join("a.txt"), "two\n").unwrap();
        let report = finish(&wt, "wright: coder-1").await.report;
        assert!(report.contains(&wt.branch), "{report}");
        for mark in ["smudge", "clean", "hook"] {
            assert!(!marks.path().join(mark).exists(), "{mark} ran");
        }
    }

    /// A git dir planted in the worktree, whose config defines a clean
    /// filter that `info/attributes` applies to every file; the filter
    /// and a hook would each leave a mark.
    fn plant(at: &Path, marks: &Path) {
        let m = marks.display();
        sh(
            at.parent().unwrap(),
            &format!(
                "git init -q --bare {p} && \
                 git -C {p} config filter.evil.clean 'touch {m}/clean; cat' && \
                 git -C {p} config filter.evil.process 'touch {m}/process' && \
                 git -C {p} config core.fsmonitor 'touch {m}/fsmonitor; false' && \
                 mkdir -p {p}/info {p}/hooks && echo '* filter=evil diff=evil' > {p}/info/attributes && \
                 git -C {p} config diff.evil.command 'touch {m}/diff' && \
                 printf '#!/bin/sh\\ntouch {m}/hook\\n' > {p}/hooks/pre-commit && \
                 chmod +x {p}/hooks/pre-commit",
                p = at.display()
            ),
        );
    }

    #[tokio::test]
    async fn a_repointed_dot_git_file_is_never_followed() {
        let repo = repo();
        let marks = tempfile::tempdir().unwrap();
        let base = tempfile::tempdir().unwrap();
        let wt = create(repo.path(), base.path(), "coder-1", None)
            .await
            .unwrap();
        // The child plants a git dir in its worktree and points `.git` at it.
        let planted = wt.path.join("planted");
        plant(&planted, marks.path());
        std::fs::write(
            wt.path.join(".git"),
            format!("gitdir: {}\n", planted.display()),
        )
        .unwrap();
        std::fs::write(wt.path.join("a.txt"), "two\n").unwrap();
        let report = finish(&wt, "wright: coder-1").await.report;
        for mark in ["clean", "process", "fsmonitor", "diff", "hook"] {
            assert!(!marks.path().join(mark).exists(), "{mark} ran: {report}");
        }
        // The commit went where wright recorded, not into the plant.
        let shown = discover(repo.path(), &["show", &format!("{}:a.txt", wt.branch)])
            .await
            .unwrap();
        assert_eq!(shown, "two", "{report}");
    }

    #[tokio::test]
    async fn the_repositorys_own_filters_named_by_info_attributes_do_not_run() {
        let repo = repo();
        let marks = tempfile::tempdir().unwrap();
        let m = marks.path().display();
        sh(
            repo.path(),
            &format!(
                "git config filter.lfsish.clean 'touch {m}/clean; cat' && \
                 git config filter.lfsish.required true && \
                 mkdir -p .git/info && echo '* filter=lfsish' > .git/info/attributes"
            ),
        );
        let base = tempfile::tempdir().unwrap();
        let wt = create(repo.path(), base.path(), "coder-1", None)
            .await
            .unwrap();
        std::fs::write(wt.path.join("a.txt"), "two\n").unwrap();
        let report = finish(&wt, "wright: coder-1").await.report;
        assert!(report.contains("committed"), "{report}");
        assert!(!marks.path().join("clean").exists(), "the filter ran");
    }

    #[tokio::test]
    async fn outside_a_repository_it_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let err = create(dir.path(), dir.path(), "x-1", None)
            .await
            .unwrap_err();
        assert!(err.contains("git repository"), "{err}");
    }
}
