//! The `bash` tool: run a command after the destructive-command guard,
//! stream its output, and give the model the head and tail of it with the
//! exit code; the full output is spilled to a file when cut. With a sandbox
//! in the context the command runs through `wright_sandbox`'s helper, and a
//! failure the sandbox explains gets a "Blocked by sandbox" line for the model.
//! With `run_in_background` the same checked, wrapped command becomes a job
//! of [`crate::jobs`] instead, and the call returns at once.

use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Deserialize;
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};

use crate::bash_proc::{self, Ended};
use crate::truncate::Keep;
use wright_shell::guard;

use crate::{Tool, ToolContext, ToolError, ToolOutput, args, jobs, output};

/// Arguments of `bash`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct BashArgs {
    /// The command to run.
    command: String,
    /// Timeout in milliseconds (default 120000, max 600000).
    #[serde(default)]
    timeout: Option<u64>,
    /// A few words on what the command does.
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    /// Start the command in the background and return at once (no
    /// timeout); read its output with BashOutput, stop it with KillShell.
    #[serde(default)]
    run_in_background: bool,
}

/// Runs a shell command.
#[derive(Debug, Default, Clone, Copy)]
pub struct BashTool;

impl Tool for BashTool {
    fn name(&self) -> &str {
        "Bash"
    }

    fn spec(&self) -> ToolSpec {
        args::spec::<BashArgs>(
            self.name(),
            "Run a command with `bash -c` in the working directory; stdout and stderr are \
             merged. No stdin, no interactive programs. Use Read/Glob/Grep/LS instead of \
             cat/find/grep/ls. Long output keeps head and tail. For servers and other \
             long-running commands set run_in_background, then read the job's new output \
             with BashOutput and stop it with KillShell.",
        )
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Exec
    }

    fn touches(&self, args: &serde_json::Value) -> Touches {
        Touches::command(args::text_arg(args, "command").unwrap_or_default())
    }

    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(run(args, ctx))
    }
}

/// Parses the arguments and applies the checks that need no process: an
/// empty command and the destructive-command guard.
pub(crate) fn checked_args(args: serde_json::Value) -> Result<BashArgs, ToolError> {
    let a: BashArgs = args::parse(args)?;
    if a.command.trim().is_empty() {
        return Err(ToolError::InvalidArgs("command is empty".into()));
    }
    guard::check_command(&a.command).map_err(ToolError::Blocked)?;
    Ok(a)
}

async fn run(args: serde_json::Value, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
    let a = checked_args(args)?;
    // Again with the place, just before the spawn: a link the previous
    // command made may have turned a workspace path into `/`.
    let place = guard::Place {
        cwd: ctx.cwd.clone(),
        roots: ctx.roots.clone(),
        home: ctx.home.clone(),
    };
    guard::check_command_at(&a.command, &place).map_err(ToolError::Blocked)?;
    if !ctx.cwd.is_dir() {
        return Err(ToolError::Failed(format!(
            "Working directory {} does not exist",
            ctx.cwd.display()
        )));
    }
    if ctx.cancel.is_cancelled() {
        return Err(ToolError::Cancelled);
    }
    // No editor write may run while this command starts or runs (a
    // background job is tracked by its status once started).
    let _running = ctx.jobs.command_gate().await;
    let timeout = a
        .timeout
        .map_or(ctx.limits.bash_default_timeout, Duration::from_millis)
        .min(ctx.limits.bash_max_timeout)
        .max(Duration::from_secs(1));
    // `commondir`/`gitdir` plants cannot be bound read-only before they
    // exist; they are removed here, however the command ended (a killed
    // command never reaches the sandbox's own end).
    let repo_guard = match &ctx.sandbox {
        Some(sb) if sb.policy.mode != wright_sandbox::SandboxMode::Full => {
            wright_sandbox::repo_guard::RepoGuard::before(&ctx.roots)
        }
        _ => wright_sandbox::repo_guard::RepoGuard::default(),
    };
    let known_secrets = session_secrets(ctx).await;
    let command = shell_command(ctx, &a.command, known_secrets)?;
    if a.run_in_background {
        // The job's own task runs the repo guard's cleanup when it ends.
        return jobs::start_background(ctx, command, &a.command, repo_guard).await;
    }
    let started = Instant::now();
    let done = bash_proc::run(command, &ctx.cwd, timeout, &ctx.cancel, ctx.output.as_ref()).await;
    let removed = repo_guard.after();
    let done = done?;
    let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let (status_line, summary, exit_code) = match done.ended {
        Ended::Cancelled => return Err(ToolError::Cancelled),
        Ended::Exited(code) => (
            format!("exit code {code}"),
            format!("exit {code}"),
            Some(code),
        ),
        Ended::TimedOut => (
            format!(
                "Command timed out after {} s and was killed (with its child processes)",
                timeout.as_secs()
            ),
            "timed out".to_owned(),
            None,
        ),
    };
    let text = if done.output.is_empty() {
        "(no output)\n".to_owned()
    } else {
        done.output
    };
    let finished = output::finish(
        &text,
        &ctx.limits,
        Keep::HeadTail,
        Some((&ctx.spill_dir, "bash")),
    );
    let mut content = finished.content;
    if !content.ends_with('\n') {
        content.push('\n');
    }
    if done.dropped_bytes > 0 {
        content.push_str(&format!(
            "[{} more bytes of output were discarded]\n",
            done.dropped_bytes
        ));
    }
    for line in &removed {
        content.push_str(line);
        content.push('\n');
    }
    content.push_str(&status_line);
    if let Some(sb) = &ctx.sandbox
        && exit_code.is_some()
        && let Some(hint) = wright_sandbox::denial_hint(&sb.policy, exit_code, &content)
    {
        content.push('\n');
        content.push_str(&hint);
    }
    Ok(ToolOutput {
        images: Vec::new(),
        content,
        display: ToolDisplay {
            summary,
            exit_code,
            full_output_path: finished.spill_path.map(|p| p.display().to_string()),
            duration_ms,
            ..ToolDisplay::default()
        },
    })
}

/// Most secret paths passed to the helper: its one JSON argument must stay
/// far below the kernel's 128 KiB limit for a single argument.
const MAX_PASSED_SECRETS: usize = 500;

/// The session's secret files (searched once, on first use, off the async
/// runtime), for a confined command's sandbox to hide.
pub(crate) async fn session_secrets(ctx: &ToolContext) -> Vec<std::path::PathBuf> {
    let Some(sb) = ctx.sandbox.clone() else {
        return Vec::new();
    };
    if sb.policy.mode == wright_sandbox::SandboxMode::Full {
        return Vec::new();
    }
    let home = ctx.home.clone();
    tokio::task::spawn_blocking(move || {
        let roots = sb.policy.project_roots().to_vec();
        let found = sb.known_secrets.get_or_scan(home.as_deref(), &roots);
        found.iter().take(MAX_PASSED_SECRETS).cloned().collect()
    })
    .await
    .unwrap_or_default()
}

/// `bash -c <command>`, through the sandbox helper when the context has one.
pub(crate) fn shell_command(
    ctx: &ToolContext,
    command: &str,
    known_secrets: Vec<std::path::PathBuf>,
) -> Result<std::process::Command, ToolError> {
    match &ctx.sandbox {
        Some(sb) => {
            let mut policy = sb.policy.clone();
            // On top of what the policy already hides (Read deny rules).
            policy.hidden.extend(known_secrets);
            wright_sandbox::command(&policy, command, &sb.helper_exe)
                .map_err(|e| ToolError::Failed(format!("Cannot start the sandbox: {e}")))
        }
        None => {
            let mut cmd = std::process::Command::new("bash");
            cmd.arg("-c").arg(command);
            Ok(cmd)
        }
    }
}

#[cfg(test)]
#[path = "bash_tests.rs"]
mod tests;
