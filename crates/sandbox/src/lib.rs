//! wright-sandbox: the OS sandbox for shell commands.
//!
//! The agent never confines itself. Each sandboxed command is started as
//! `<wright> __sandbox-exec <policy-json> -- bash -c <script>`; that fresh,
//! single-threaded helper process applies Landlock (writes only inside the
//! writable roots) and, with network off, a seccomp filter (no IP sockets),
//! then `exec`s the shell, so the shell keeps the helper's pid and process
//! group. If the policy cannot be applied the helper exits 126 and never
//! runs the command unconfined.
//!
//! Modules: [`policy`] (what is allowed), `helper` (the re-executed entry
//! point), `linux` (Landlock + seccomp), [`denial`] (telling the model a
//! failure came from the sandbox).

pub mod denial;
mod helper;
#[cfg(target_os = "linux")]
mod linux;
pub mod policy;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

pub use denial::{Denial, classify_denial, denial_hint, looks_like_sandbox_denial};
pub use helper::{exec_helper, maybe_exec_helper, run_helper};
pub use policy::{SandboxMode, SandboxPolicy};

/// The first argument that turns the `wright` binary into the sandbox helper.
pub const HELPER_ARG: &str = "__sandbox-exec";

/// Exit status of the helper when it refuses to run the command (the shell's
/// "cannot execute" code, so callers treat it as "did not run").
pub const HELPER_REFUSED_EXIT: i32 = 126;

/// Prefix of every message the helper prints before refusing.
pub const HELPER_ERROR_PREFIX: &str = "wright sandbox:";

/// Why the sandbox could not be set up or used.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The helper's command line is not `__sandbox-exec <json> -- <cmd…>`.
    #[error("bad helper arguments: {0}")]
    BadArgs(String),
    /// The policy could not be encoded or decoded.
    #[error("bad policy: {0}")]
    Policy(String),
    /// The kernel lacks what the policy needs.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// Landlock refused the ruleset.
    #[error("cannot apply Landlock: {0}")]
    Landlock(String),
    /// The seccomp filter could not be built or loaded.
    #[error("cannot apply seccomp filter: {0}")]
    Seccomp(String),
    /// `execvp` of the command failed.
    #[error("cannot run {program}: {source}")]
    Exec {
        /// The program that failed to start.
        program: String,
        /// The OS error.
        source: std::io::Error,
    },
}

/// Whether this machine can enforce a sandbox policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Support {
    /// Landlock and seccomp are usable.
    Available,
    /// They are not; the text says why, for a one-time warning.
    Unavailable(String),
}

/// What `bash` needs to run a command under a policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxContext {
    /// What the command may do.
    pub policy: SandboxPolicy,
    /// The binary that dispatches [`HELPER_ARG`] (normally `current_exe()`).
    pub helper_exe: PathBuf,
}

/// Checks once whether the kernel supports the sandbox. Safe to call from the
/// multi-threaded agent: it only creates (and drops) a Landlock ruleset.
pub fn probe() -> Support {
    #[cfg(target_os = "linux")]
    {
        linux::probe()
    }
    #[cfg(not(target_os = "linux"))]
    {
        Support::Unavailable("the OS sandbox is only implemented on Linux".to_owned())
    }
}

/// Builds the command that runs `bash -c <script>` under `policy`: through
/// `helper_exe __sandbox-exec <policy-json> -- bash -c <script>`, or plain
/// `bash -c <script>` when the mode is [`SandboxMode::Full`]. The caller sets
/// cwd, stdio, environment and process group.
pub fn command(
    policy: &SandboxPolicy,
    script: &str,
    helper_exe: &Path,
) -> Result<Command, SandboxError> {
    if policy.mode == SandboxMode::Full {
        let mut cmd = Command::new("bash");
        cmd.arg("-c").arg(script);
        return Ok(cmd);
    }
    let json = policy.to_json()?;
    let mut cmd = Command::new(helper_exe);
    cmd.arg(HELPER_ARG)
        .arg(json)
        .arg("--")
        .arg("bash")
        .arg("-c")
        .arg(OsStr::new(script));
    Ok(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(cmd: &Command) -> Vec<String> {
        cmd.get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn full_mode_runs_bash_directly() {
        let p = SandboxPolicy::full();
        let cmd = command(&p, "echo hi", Path::new("/bin/wright")).unwrap();
        assert_eq!(cmd.get_program(), "bash");
        assert_eq!(args(&cmd), ["-c", "echo hi"]);
    }

    #[test]
    fn other_modes_go_through_the_helper() {
        let p = SandboxPolicy::workspace_write(vec![PathBuf::from("/ws")]);
        let cmd = command(&p, "echo hi", Path::new("/bin/wright")).unwrap();
        assert_eq!(cmd.get_program(), "/bin/wright");
        let a = args(&cmd);
        assert_eq!(a[0], HELPER_ARG);
        assert_eq!(SandboxPolicy::from_json(&a[1]).unwrap(), p);
        assert_eq!(&a[2..], ["--", "bash", "-c", "echo hi"]);
    }
}
