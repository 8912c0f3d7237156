//! Runs a checker script for wright itself (the verifier's `cargo check`
//! and friends) exactly as the `Bash` tool runs a command: the same
//! sandbox, secret hiding, git-plant cleanup, process group, timeout and
//! cancel, with stdout and stderr merged. Nothing is streamed or spilled.

use std::path::Path;
use std::time::Duration;

use crate::bash::{session_secrets, shell_command};
use crate::bash_proc::{self, Ended};
use crate::{ToolContext, ToolError};

/// How a script run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScriptEnd {
    /// It exited with this code (128 + signal when killed by one).
    Exited(i32),
    /// It ran past its timeout and was killed with its group.
    TimedOut,
    /// The turn was interrupted and it was killed with its group.
    Cancelled,
}

/// What a script printed and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptRun {
    /// Merged stdout and stderr (capped in memory like `Bash`'s).
    pub output: String,
    /// How it ended.
    pub end: ScriptEnd,
}

/// Runs `script` with `bash -c` in `cwd` under `ctx`'s sandbox.
pub async fn run_script(
    ctx: &ToolContext,
    script: &str,
    cwd: &Path,
    timeout: Duration,
) -> Result<ScriptRun, ToolError> {
    let repo_guard = match &ctx.sandbox {
        Some(sb) if sb.policy.mode != wright_sandbox::SandboxMode::Full => {
            wright_sandbox::repo_guard::RepoGuard::before(&ctx.roots)
        }
        _ => wright_sandbox::repo_guard::RepoGuard::default(),
    };
    let secrets = session_secrets(ctx).await;
    let command = shell_command(ctx, script, secrets)?;
    let done = bash_proc::run(command, cwd, timeout, &ctx.cancel, None).await;
    let _ = repo_guard.after();
    let done = done?;
    Ok(ScriptRun {
        output: done.output,
        end: match done.ended {
            Ended::Exited(code) => ScriptEnd::Exited(code),
            Ended::TimedOut => ScriptEnd::TimedOut,
            Ended::Cancelled => ScriptEnd::Cancelled,
        },
    })
}
