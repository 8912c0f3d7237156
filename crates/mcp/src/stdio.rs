//! The child process of a stdio server: spawned in its own process group
//! with a sanitized environment, its stderr kept (last lines) for failure
//! reports, its exit status watched, and the group shut down (close stdin,
//! grace period, SIGTERM, grace period, SIGKILL).
//!
//! wright owns the child instead of using rmcp's `TokioChildProcess`: that
//! type kills only the leader (an `npx` wrapper leaves node behind) and hides
//! the exit status the failure report needs. rmcp still does all the
//! JSON-RPC, over the child's pipes. Groups are signalled through bash's
//! `kill` builtin, as `wright-tools` and `wright-hooks` do, because this
//! crate has no `unsafe` and no libc binding.

use std::collections::{BTreeMap, VecDeque};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{ChildStdin, ChildStdout, Command};
use tokio::sync::watch;
use wright_sandbox::GroupSignal;

use crate::config::{is_provider_key, is_refused_env};

/// Lines of stderr kept for a failure report.
const STDERR_LINES: usize = 20;
/// Longest stderr line kept (a server may print a minified stack).
const STDERR_LINE_CHARS: usize = 400;

/// What to spawn (already expanded).
pub(crate) struct SpawnSpec<'a> {
    pub command: &'a str,
    pub args: &'a [String],
    pub env: &'a BTreeMap<String, String>,
    /// Extra variables to withhold besides the credentials every child is
    /// denied ([`wright_sandbox::scrub_env`]).
    pub withheld_env: &'a [String],
    pub cwd: Option<&'a std::path::Path>,
}

/// A running (or exited) server process.
pub(crate) struct StdioChild {
    /// Its process group (= its pid); `None` if the OS gave no pid.
    pub pgid: Option<u32>,
    exit: watch::Receiver<Option<ExitStatus>>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

/// Spawns the server; the error is a sentence for the status line.
pub(crate) fn spawn(spec: &SpawnSpec<'_>) -> Result<(StdioChild, ChildStdout, ChildStdin), String> {
    // Configs built elsewhere (TOML, `wright mcp add`) reach here without
    // the `.mcp.json` parser, so the env rules are checked again.
    for key in spec.env.keys() {
        if is_refused_env(key) {
            return Err(format!(
                "env may not set {key}: it changes which code the server runs"
            ));
        }
        if is_provider_key(key) {
            return Err(format!(
                "env may not set {key}: provider API keys are never passed to MCP servers"
            ));
        }
    }
    let mut cmd = Command::new(spec.command);
    // The user's credentials are not inherited; the server's own `env`,
    // which the user wrote (or approved), is set after and kept.
    wright_sandbox::scrub_env(cmd.as_std_mut());
    cmd.args(spec.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    wright_sandbox::own_process_group(cmd.as_std_mut());
    for key in spec.withheld_env {
        cmd.env_remove(key);
    }
    cmd.envs(spec.env);
    if let Some(cwd) = spec.cwd {
        cmd.current_dir(cwd);
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", spec.command))?;
    let (Some(stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(format!("cannot start {}: no stdio pipes", spec.command));
    };
    let pgid = child.id();
    let tail = Arc::new(Mutex::new(VecDeque::new()));
    tokio::spawn(collect_stderr(stderr, Arc::clone(&tail)));
    let (tx, rx) = watch::channel(None);
    tokio::spawn(async move {
        // The task owns the child so its status is reaped; when the runtime
        // drops the task, kill_on_drop still kills the leader.
        if let Ok(status) = child.wait().await {
            let _ = tx.send(Some(status));
        }
    });
    Ok((
        StdioChild {
            pgid,
            exit: rx,
            stderr: tail,
        },
        stdout,
        stdin,
    ))
}

async fn collect_stderr(stderr: tokio::process::ChildStderr, tail: Arc<Mutex<VecDeque<String>>>) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line: String = String::from_utf8_lossy(&buf)
                    .trim_end()
                    .chars()
                    .take(STDERR_LINE_CHARS)
                    .collect();
                if line.is_empty() {
                    continue;
                }
                if let Ok(mut tail) = tail.lock() {
                    if tail.len() == STDERR_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(line);
                }
            }
        }
    }
}

impl StdioChild {
    /// The exit status, if the process has exited.
    pub(crate) fn exit_status(&self) -> Option<ExitStatus> {
        *self.exit.borrow()
    }

    /// Waits up to `limit` for the process to exit.
    pub(crate) async fn wait_exit(&self, limit: Duration) -> Option<ExitStatus> {
        let mut rx = self.exit.clone();
        let waited = tokio::time::timeout(limit, rx.wait_for(Option::is_some)).await;
        match waited {
            Ok(Ok(status)) => *status,
            _ => self.exit_status(),
        }
    }

    /// The last lines the server wrote to stderr.
    pub(crate) fn stderr_tail(&self) -> Vec<String> {
        self.stderr
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// "exit code N" / "killed by signal N" / "still running", plus the
    /// stderr tail, for failure reports. One line (the tail's lines joined
    /// with " ⏎ "): reports end up in warnings, tool results and status
    /// columns that show only a first line.
    pub(crate) fn describe_end(&self) -> String {
        let mut out = match self.exit_status() {
            Some(status) => match (status.code(), wright_sandbox::exit_signal(status)) {
                (Some(code), _) => format!("exit code {code}"),
                (None, Some(sig)) => format!("killed by signal {sig}"),
                (None, None) => "exited".to_owned(),
            },
            None => "still running".to_owned(),
        };
        let tail = self.stderr_tail();
        if !tail.is_empty() {
            out.push_str("; stderr: ");
            out.push_str(&tail.join(" ⏎ "));
        }
        out
    }

    /// Shuts the group down once stdin is closed: waits `grace` for a clean
    /// exit, then SIGTERM, `grace` again, then SIGKILL; members the leader
    /// left behind are killed in any case.
    pub(crate) async fn terminate(&self, grace: Duration) {
        if self.wait_exit(grace).await.is_none() {
            signal_group(self.pgid, GroupSignal::Term);
            if self.wait_exit(grace).await.is_none() {
                signal_group(self.pgid, GroupSignal::Kill);
                let _ = self.wait_exit(grace).await;
            }
        }
        signal_group(self.pgid, GroupSignal::Kill);
    }

    /// Kills the group at once (a server that failed to start).
    pub(crate) async fn kill(&self) {
        signal_group(self.pgid, GroupSignal::Kill);
        let _ = self.wait_exit(Duration::from_secs(2)).await;
    }
}

/// Sends `signal` to process group `pgid` (nothing without one).
fn signal_group(pgid: Option<u32>, signal: GroupSignal) {
    if let Some(pgid) = pgid {
        wright_sandbox::signal_group(pgid, signal);
    }
}

/// Kills the group `pgid` at once (for a `Drop`).
pub(crate) fn kill_group_now(pgid: u32) {
    wright_sandbox::signal_group(pgid, GroupSignal::Kill);
}
