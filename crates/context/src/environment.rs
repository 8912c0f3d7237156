//! The environment part of the prompt: cwd, platform, shell, date and a git
//! snapshot.
//!
//! Git is read in two costs. The branch comes from `.git/HEAD` (a file read,
//! no process), cheap enough for every turn. The short status needs
//! `git status`, which can take seconds in a huge repository, so it runs with
//! a hard timeout and is meant to be taken once per session: a status that
//! changes every turn would change the system prompt every turn and throw
//! away the provider's prompt cache for the whole conversation.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

/// Most status lines listed in the prompt; the rest are counted.
const STATUS_LINES: usize = 20;

/// Facts about the machine and project shown to the model.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Environment {
    /// Today's date, `YYYY-MM-DD`.
    pub date: String,
    /// Operating system and architecture, e.g. `linux (x86_64)`.
    pub platform: String,
    /// Basename of `$SHELL`, when set.
    pub shell: Option<String>,
    /// Git branch and status, when the project is a git repository.
    pub git: Option<GitSnapshot>,
}

impl Environment {
    /// The platform and shell of this process, with the given date and git
    /// snapshot.
    pub fn detect(date: impl Into<String>, git: Option<GitSnapshot>) -> Self {
        Self {
            date: date.into(),
            platform: format!("{} ({})", std::env::consts::OS, std::env::consts::ARCH),
            shell: std::env::var_os("SHELL").and_then(|s| {
                Path::new(&s)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
            }),
            git,
        }
    }

    /// The prompt text for this environment.
    pub(crate) fn render(&self, cwd: &Path, project_root: &Path) -> String {
        let mut out = format!("Environment:\n- Working directory: {}", cwd.display());
        if cwd != project_root {
            out.push_str(&format!("\n- Project root: {}", project_root.display()));
        }
        out.push_str(&format!("\n- Platform: {}", self.platform));
        if let Some(shell) = &self.shell {
            out.push_str(&format!("\n- Shell: {shell}"));
        }
        out.push_str(&format!("\n- Date: {}", self.date));
        if let Some(git) = &self.git {
            out.push_str(&format!("\n- Git branch: {}", git.branch));
            if let Some(status) = &git.status {
                out.push_str(&format!(
                    "\n- Git status (snapshot when the session started; it may have changed since):\n{status}"
                ));
            }
        }
        out
    }
}

/// The git state of the project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GitSnapshot {
    /// Branch name, or `detached at <short sha>`.
    pub branch: String,
    /// Short status (`clean`, or porcelain lines capped with a count), when
    /// it was probed and git answered in time.
    pub status: Option<String>,
}

/// How much of git to probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitProbe {
    /// Only the branch, read from `.git/HEAD`; no process.
    BranchOnly,
    /// The branch and `git status`, abandoned after the timeout.
    WithStatus {
        /// How long `git status` may take before it is killed.
        timeout: Duration,
        /// The wright binary, to run `git status` in a read-only sandbox:
        /// a repository's git config (fsmonitor, filters, a redirected
        /// `commondir`) can run programs, and this runs before any prompt.
        /// `None` runs git directly (tests, platforms without the helper).
        sandbox_helper: Option<PathBuf>,
    },
}

impl GitSnapshot {
    /// Probes the repository at `root`; `None` when it is not a git
    /// repository (no `.git` in `root`).
    pub fn probe(root: &Path, probe: GitProbe) -> Option<Self> {
        let branch = read_branch(root)?;
        let status = match probe {
            GitProbe::BranchOnly => None,
            GitProbe::WithStatus {
                timeout,
                sandbox_helper,
            } => git_status(root, timeout, sandbox_helper.as_deref()),
        };
        Some(Self { branch, status })
    }
}

/// The git directory of `root`: `.git` itself, or where a worktree's `.git`
/// file points.
fn git_dir(root: &Path) -> Option<PathBuf> {
    let dot_git = root.join(".git");
    if dot_git.is_dir() {
        return Some(dot_git);
    }
    let text = std::fs::read_to_string(&dot_git).ok()?;
    let target = text.trim().strip_prefix("gitdir:")?.trim();
    Some(root.join(target))
}

fn read_branch(root: &Path) -> Option<String> {
    let head = std::fs::read_to_string(git_dir(root)?.join("HEAD")).ok()?;
    let head = head.trim();
    Some(match head.strip_prefix("ref:") {
        Some(reference) => {
            let reference = reference.trim();
            reference
                .strip_prefix("refs/heads/")
                .unwrap_or(reference)
                .to_owned()
        }
        None => format!("detached at {}", head.get(..7).unwrap_or(head)),
    })
}

/// Runs `git status --porcelain` with a deadline. `None` when git is missing,
/// fails, or is too slow: the status is a nicety, never a reason to wait.
fn git_status(root: &Path, timeout: Duration, sandbox_helper: Option<&Path>) -> Option<String> {
    let mut argv: Vec<std::ffi::OsString> = [
        "git",
        // No hook or daemon for a probe, and no submodule's own config.
        "-c",
        "core.fsmonitor=false",
        "-c",
        "core.hooksPath=/dev/null",
        "-C",
    ]
    .iter()
    .map(Into::into)
    .collect();
    argv.push(root.as_os_str().to_owned());
    argv.extend(
        [
            "--no-optional-locks",
            "status",
            "--porcelain=v1",
            "--ignore-submodules=all",
        ]
        .iter()
        .map(Into::into),
    );
    let mut command = match sandbox_helper {
        Some(helper) => {
            wright_sandbox::command_argv(&wright_sandbox::SandboxPolicy::read_only(), &argv, helper)
                .ok()?
        }
        None => {
            let mut c = Command::new(&argv[0]);
            c.args(&argv[1..]);
            c
        }
    };
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    // Read on another thread so a large status cannot fill the pipe and
    // stall git while we wait for it to exit.
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        stdout.read_to_string(&mut out).map(|_| out)
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(5));
            }
            _ => {
                // Killing closes the pipe, so the reader thread ends too.
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    };
    let out = reader.join().ok()?.ok()?;
    status.success().then(|| summarize_status(&out))
}

/// `clean`, or the porcelain lines (capped) with a count of the rest.
pub(crate) fn summarize_status(porcelain: &str) -> String {
    let lines: Vec<&str> = porcelain.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return "clean".to_owned();
    }
    let mut out: Vec<String> = lines
        .iter()
        .take(STATUS_LINES)
        .map(|l| format!("  {l}"))
        .collect();
    if lines.len() > STATUS_LINES {
        out.push(format!("  … and {} more", lines.len() - STATUS_LINES));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branch_from_head_file_and_worktree_link() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/feature/x\n").unwrap();
        let snap = GitSnapshot::probe(root, GitProbe::BranchOnly).unwrap();
        assert_eq!(snap.branch, "feature/x");
        assert_eq!(snap.status, None);

        let wt = root.join("wt");
        std::fs::create_dir_all(root.join("gitdirs/wt")).unwrap();
        std::fs::create_dir_all(&wt).unwrap();
        std::fs::write(wt.join(".git"), "gitdir: ../gitdirs/wt\n").unwrap();
        std::fs::write(root.join("gitdirs/wt/HEAD"), "0123456789abcdef\n").unwrap();
        let snap = GitSnapshot::probe(&wt, GitProbe::BranchOnly).unwrap();
        assert_eq!(snap.branch, "detached at 0123456");
    }

    #[test]
    fn status_from_a_real_repository_when_git_exists() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let init = Command::new("git")
            .args(["init", "-q", "-b", "trunk"])
            .current_dir(root)
            .status();
        if !init.is_ok_and(|s| s.success()) {
            return; // no git on this machine: the branch-only tests cover the rest
        }
        std::fs::write(root.join("new.txt"), "x").unwrap();
        let probe = GitProbe::WithStatus {
            timeout: Duration::from_secs(30),
            sandbox_helper: None,
        };
        let snap = GitSnapshot::probe(root, probe).unwrap();
        assert_eq!(snap.branch, "trunk");
        assert_eq!(snap.status.as_deref(), Some("  ?? new.txt"));
    }

    #[test]
    fn not_a_repository() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(GitSnapshot::probe(dir.path(), GitProbe::BranchOnly), None);
    }

    #[test]
    fn status_summary_caps_lines() {
        assert_eq!(summarize_status(""), "clean");
        assert_eq!(
            summarize_status(" M a.rs\n?? b.rs\n"),
            "   M a.rs\n  ?? b.rs"
        );
        let many: String = (0..25).map(|i| format!(" M f{i}\n")).collect();
        let s = summarize_status(&many);
        assert!(s.ends_with("… and 5 more"), "{s}");
        assert_eq!(s.lines().count(), 21);
    }

    #[test]
    fn render_lists_what_is_known() {
        let env = Environment {
            date: "2026-11-22".to_owned(),
            platform: "linux (x86_64)".to_owned(),
            shell: Some("zsh".to_owned()),
            git: Some(GitSnapshot {
                branch: "main".to_owned(),
                status: Some("clean".to_owned()),
            }),
        };
        let text = env.render(Path::new("/p/sub"), Path::new("/p"));
        assert_eq!(
            text,
            "Environment:\n- Working directory: /p/sub\n- Project root: /p\n- Platform: linux (x86_64)\n\
             - Shell: zsh\n- Date: 2026-11-22\n- Git branch: main\n\
             - Git status (snapshot when the session started; it may have changed since):\nclean"
        );
    }
}
