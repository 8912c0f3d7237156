//! Running hook commands: `bash -c` in the project directory with the input
//! JSON on stdin, in a process group of their own, stdout and stderr captured
//! apart (capped), under a timeout and a cancel token. Every way a hook can
//! go wrong ends as a [`HookResult`]; nothing here panics or returns early.
//!
//! Killing: the crate forbids `unsafe` and may not add `nix`/`libc`, so a
//! whole group is signalled through bash's `kill` builtin (`kill -s SIG --
//! -PGID`), the same way wright's bash tool does it, with the child's own
//! kill as the fallback when even that cannot run. The group is killed on
//! timeout and cancel only: background jobs a hook starts on purpose and
//! detaches from our pipes survive a normal exit.

use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use futures::future::join_all;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, Command};
use tokio_util::sync::CancellationToken;
use wright_sandbox::GroupSignal;

use super::aggregate::{HookRun, aggregate};
use super::callback::{CallbackChannel, run_callback};
use super::input::input_bytes;
use super::outcome::{HookOutcome, HookResult};
use super::{HookCommon, HookDef, HookPayload, Hooks};

/// How long a hook may run when its definition says nothing (Claude Code's
/// default).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// Most bytes kept of each of stdout and stderr; the start is kept because
/// that is where a JSON reply or the first error line is.
pub const OUTPUT_CAP: usize = 1024 * 1024;
/// Time between SIGTERM and SIGKILL for a timed-out or cancelled hook.
const TERM_GRACE: Duration = Duration::from_millis(500);
/// After the shell exits, how long to keep reading output that processes it
/// left behind may still hold open.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// Where and how hooks run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookEnv {
    /// The project root: the hooks' working directory, and the value of
    /// `WRIGHT_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`.
    pub project_dir: PathBuf,
    /// Environment variables hooks must not see besides the credentials
    /// every child is denied ([`wright_sandbox::scrub_env`]).
    pub remove_vars: Vec<String>,
    /// Variables set for every hook (after the removals).
    pub set_vars: Vec<(String, String)>,
    /// Where callback hooks ([`HookDef::callback`]) are sent.
    pub callbacks: Option<CallbackChannel>,
}

impl HookEnv {
    /// Hooks run in `project_dir` with the environment every child gets.
    pub fn new(project_dir: impl Into<PathBuf>) -> Self {
        HookEnv {
            project_dir: project_dir.into(),
            remove_vars: Vec::new(),
            set_vars: Vec::new(),
            callbacks: None,
        }
    }
}

impl Hooks {
    /// Runs every hook matching `payload`'s event and matcher target, all at
    /// once, and folds their replies into one [`HookRun`] (in config order,
    /// whatever order they finished in). Never fails: broken hooks become
    /// warnings. The event and target come from `payload`, so they cannot
    /// disagree with the input the hooks read.
    pub async fn run(
        &self,
        common: &HookCommon,
        payload: &HookPayload,
        env: &HookEnv,
        cancel: &CancellationToken,
    ) -> HookRun {
        let event = payload.event();
        let defs = self.matching(event, payload.matcher_target());
        if defs.is_empty() {
            return HookRun::empty(event);
        }
        let outcomes = match input_bytes(common, payload) {
            Ok(input) => join_all(defs.iter().map(|d| run_one(d, &input, env, cancel))).await,
            Err(e) => defs
                .iter()
                .map(|d| HookOutcome {
                    event,
                    command: d.command.clone(),
                    source: d.source.clone(),
                    duration: Duration::ZERO,
                    result: HookResult::SpawnError(format!("cannot encode the hook input: {e}")),
                })
                .collect(),
        };
        aggregate(event, outcomes)
    }
}

/// Runs one hook to its end.
async fn run_one(
    def: &HookDef,
    input: &[u8],
    env: &HookEnv,
    cancel: &CancellationToken,
) -> HookOutcome {
    let started = Instant::now();
    let result = if cancel.is_cancelled() {
        HookResult::Cancelled
    } else if let Some(id) = &def.callback {
        run_callback(def, id, input, env.callbacks.as_ref(), cancel).await
    } else {
        run_process(def, input, env, cancel).await
    };
    HookOutcome {
        event: def.event,
        command: def.command.clone(),
        source: def.source.clone(),
        duration: started.elapsed(),
        result,
    }
}

/// How the wait for a hook ended.
enum Ended {
    Exited(ExitStatus),
    WaitFailed(std::io::Error),
    TimedOut,
    Cancelled,
}

async fn run_process(
    def: &HookDef,
    input: &[u8],
    env: &HookEnv,
    cancel: &CancellationToken,
) -> HookResult {
    let mut cmd = Command::new("bash");
    // The user's credentials stay with wright (a hook's output can reach
    // the model); scrubbed first, so the variables set below are kept.
    wright_sandbox::scrub_env(cmd.as_std_mut());
    cmd.arg("-c")
        .arg(&def.command)
        .current_dir(&env.project_dir)
        .env("WRIGHT_PROJECT_DIR", &env.project_dir)
        .env("CLAUDE_PROJECT_DIR", &env.project_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    wright_sandbox::own_process_group(cmd.as_std_mut());
    for (name, value) in &env.set_vars {
        cmd.env(name, value);
    }
    for var in &env.remove_vars {
        cmd.env_remove(var);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return HookResult::SpawnError(format!(
                "cannot run bash in {}: {e}",
                env.project_dir.display()
            ));
        }
    };
    let pgid = child.id();
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();

    let mut out = Vec::new();
    let mut err = Vec::new();
    let ended = {
        let io = async {
            tokio::join!(
                write_stdin(stdin, input),
                read_capped(stdout, &mut out),
                read_capped(stderr, &mut err),
            )
        };
        tokio::pin!(io);
        let deadline = tokio::time::sleep(def.effective_timeout());
        tokio::pin!(deadline);
        let mut status: Option<ExitStatus> = None;
        let mut io_done = false;
        let mut drain_until: Option<tokio::time::Instant> = None;
        loop {
            if io_done && let Some(s) = status {
                break Ended::Exited(s);
            }
            let drain = tokio::time::sleep_until(
                drain_until.unwrap_or_else(|| tokio::time::Instant::now() + DRAIN_GRACE),
            );
            tokio::select! {
                _ = &mut io, if !io_done => io_done = true,
                s = child.wait(), if status.is_none() => match s {
                    Ok(s) => {
                        status = Some(s);
                        drain_until = Some(tokio::time::Instant::now() + DRAIN_GRACE);
                    }
                    Err(e) => break Ended::WaitFailed(e),
                },
                // The shell is gone but something it started still holds
                // the pipes: what was printed so far is the answer.
                () = drain, if drain_until.is_some() => {
                    if let Some(s) = status {
                        break Ended::Exited(s);
                    }
                }
                () = &mut deadline => break match status {
                    Some(s) => Ended::Exited(s),
                    None => Ended::TimedOut,
                },
                () = cancel.cancelled() => break Ended::Cancelled,
            }
        }
    };

    match ended {
        Ended::Exited(status) => finished(status, out, err),
        Ended::WaitFailed(e) => {
            kill_group(&mut child, pgid).await;
            HookResult::SpawnError(format!("lost track of the hook process: {e}"))
        }
        Ended::TimedOut => {
            kill_group(&mut child, pgid).await;
            HookResult::TimedOut
        }
        Ended::Cancelled => {
            kill_group(&mut child, pgid).await;
            HookResult::Cancelled
        }
    }
}

fn finished(status: ExitStatus, out: Vec<u8>, err: Vec<u8>) -> HookResult {
    let stderr = String::from_utf8_lossy(&err).into_owned();
    match status.code() {
        Some(0) => HookResult::Success {
            stdout: String::from_utf8_lossy(&out).into_owned(),
        },
        Some(2) => HookResult::Blocked { stderr },
        code => HookResult::Failed {
            code,
            stderr: match (code, wright_sandbox::exit_signal(status)) {
                (None, Some(sig)) if stderr.trim().is_empty() => format!("killed by signal {sig}"),
                _ => stderr,
            },
        },
    }
}

/// Writes the input and closes stdin so the hook sees EOF. A hook that
/// exits without reading makes the write fail; that is its business.
async fn write_stdin(stdin: Option<ChildStdin>, input: &[u8]) {
    if let Some(mut stdin) = stdin {
        let _ = stdin.write_all(input).await;
        let _ = stdin.shutdown().await;
    }
}

/// Reads `pipe` to its end, keeping the first [`OUTPUT_CAP`] bytes in
/// `buf`. The rest is read and dropped so a chatty hook never blocks on a
/// full pipe.
async fn read_capped<R: AsyncRead + Unpin>(pipe: Option<R>, buf: &mut Vec<u8>) {
    let Some(mut pipe) = pipe else { return };
    let mut chunk = [0u8; 8192];
    loop {
        match pipe.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                let room = OUTPUT_CAP.saturating_sub(buf.len());
                buf.extend_from_slice(&chunk[..n.min(room)]);
            }
        }
    }
}

/// SIGTERM to the group, a short grace, then SIGKILL to the group, and the
/// shell reaped. Without a pgid (the child already reaped) only the child
/// itself can be killed.
async fn kill_group(child: &mut Child, pgid: Option<u32>) {
    if !signal_group(pgid, GroupSignal::Term) {
        let _ = child.start_kill();
    }
    if tokio::time::timeout(TERM_GRACE, child.wait())
        .await
        .is_err()
    {
        let _ = child.start_kill();
    }
    // Whatever the shell left behind in its group (a `sleep` it forked,
    // a pipeline) goes too, even when the shell itself died on SIGTERM.
    signal_group(pgid, GroupSignal::Kill);
    let _ = child.wait().await;
}

/// Sends `signal` to process group `pgid`; whether it was delivered.
fn signal_group(pgid: Option<u32>, signal: GroupSignal) -> bool {
    pgid.is_some_and(|pgid| wright_sandbox::signal_group(pgid, signal))
}

#[cfg(test)]
#[path = "run_tests.rs"]
mod tests;
