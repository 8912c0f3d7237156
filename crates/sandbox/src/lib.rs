//! wright-sandbox: the OS sandbox for shell commands, and the protection of
//! wright's own process (its environment and memory) from them.
//!
//! The agent never confines itself. Every command is started as
//! `<helper> __sandbox-exec <policy-json> -- bash -c <script>`, where the
//! helper is the small `wright-sandbox` binary installed beside `wright`
//! (or `wright` itself, re-executed, where there is none; see
//! [`helper_beside`]); that fresh, single-threaded helper process dies
//! with wright (`PR_SET_PDEATHSIG`), and, unless the policy is `full`,
//! enters user, mount and PID namespaces where the kernel allows (read-only
//! file tree outside the writable roots, read-only policy files, hidden
//! secrets, a fresh `/proc`, no controlling terminal, every descendant
//! killed with it), then applies Landlock (writes only inside the writable
//! roots) and a seccomp filter (no terminal injection, no device nodes, no
//! io_uring, and with network off no socket but Unix ones), then `exec`s
//! the shell. If the policy cannot be applied the helper exits 126 and
//! never runs the command unconfined.
//!
//! Modules: [`policy`] (what is allowed), `helper` (the entry points: the
//! small helper binary's and the re-executed `wright`'s), `linux`
//! (Landlock, and the order of it all), `linux_ns` (namespaces and mounts),
//! `linux_seccomp` (the filter), [`secrets`] (which files hold secrets),
//! `protect` (wright's own environment and memory), `env_policy` (which
//! environment variables children get), [`denial`] (telling the
//! model a failure came from the sandbox), `group_signal` (a command's
//! process group: starting, stopping, its exit status), [`private_fs`]
//! (files only the user can read).

pub mod denial;
mod env_policy;
pub mod fs_open;
pub mod fs_protected;
pub mod fs_resolve;
pub mod git_dirs;
#[allow(unsafe_code)]
mod group_signal;
mod helper;
#[cfg(target_os = "linux")]
mod linux;
// The two modules that call the kernel directly; every block says why it
// is sound.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
mod linux_mounts;
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
mod linux_ns;
#[cfg(target_os = "linux")]
mod linux_seccomp;
#[cfg(target_os = "linux")]
mod linux_sockets;
pub mod policy;
pub mod private_fs;
#[allow(unsafe_code)]
mod protect;
pub mod repo_guard;
pub mod secrets;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

pub use denial::{Denial, classify_denial, denial_hint, looks_like_sandbox_denial};
pub use env_policy::{
    ANTHROPIC_API_KEY, ChildEnv, DEFAULT_EXCLUDES, EnvPolicy, KeyKind, KeyVar, OPENAI_API_KEY,
    OWN_KEYS, PROVIDER_KEY_VARS, PatternError, SOCKET_VARS, check_pattern, child_env, env_policy,
    install_env_policy, is_model_api_key, is_provider_key_var, scrub_env, withheld_names,
};
pub use fs_open::{Beneath, OpenError};
pub use fs_protected::{protected_write, user_config_dirs};
pub use fs_resolve::{ResolveError, ResolvedPath};
pub use group_signal::{
    GroupSignal, end_on_closed_stdout, exit_code, exit_signal, own_process_group, signal_group,
};
pub use helper::{exec_helper, helper_main, maybe_exec_helper, run_helper};
#[cfg(target_os = "linux")]
pub use linux_mounts::{NamespaceReport, PROTECTED_IN_ROOT};
#[cfg(target_os = "linux")]
pub use linux_ns::{NESTED_ENV, namespaces_refused};
pub use policy::{SandboxMode, SandboxPolicy};
pub use protect::{protect_process, take_secret_env};

/// The first argument that turns the `wright` binary into the sandbox helper.
pub const HELPER_ARG: &str = "__sandbox-exec";

/// The file name of the small helper binary installed beside `wright`.
pub const HELPER_BIN: &str = "wright-sandbox";

/// Hash of the sources the helper is built from (see `build.rs`): the
/// helper binary runs a command only for a `wright` of the same build.
pub const BUILD: &str = env!("WRIGHT_SANDBOX_STAMP");

/// Set on the helper to the [`BUILD`] of the `wright` that started it.
pub const BUILD_ENV: &str = "WRIGHT_SANDBOX_BUILD";

/// Set on the helper to the `wright` binary that started it: a helper of
/// another build hands the command to it (which confines it with its own,
/// matching code) instead of applying a policy it may read differently.
pub const MAIN_ENV: &str = "WRIGHT_SANDBOX_MAIN";

/// Set by a helper that hands its command on, so that the next one does not
/// hand it on again.
pub const HANDED_ENV: &str = "WRIGHT_SANDBOX_HANDED";

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
    /// A namespace was entered but could not be set up.
    #[error("cannot set up namespaces: {0}")]
    Namespace(String),
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

/// Set on the helper to wright's pid: the helper gives up if its parent is
/// already gone by the time it arranges to die with it.
pub const PARENT_ENV: &str = "WRIGHT_SANDBOX_PARENT";

/// Set on the helper to make it print what it applied (one line on stderr,
/// after [`REPORT_PREFIX`]) before running the command; `wright doctor`
/// uses it so the report is what the kernel really did.
pub const REPORT_ENV: &str = "WRIGHT_SANDBOX_REPORT";

/// Prefix of the helper's report line.
pub const REPORT_PREFIX: &str = "wright sandbox report: ";

/// What the helper applied before running a command.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Applied {
    /// Namespaces and what the mounts in them achieved; `None` where the
    /// kernel allows no unprivileged user namespace.
    #[cfg(target_os = "linux")]
    pub namespaces: Option<NamespaceReport>,
    /// Landlock is enforced.
    pub landlock: bool,
    /// The seccomp filter is loaded.
    pub seccomp: bool,
}

/// Runs `true` through the helper with `policy` and returns what the helper
/// reported it applied, or why it refused.
pub fn applied_by_helper(helper_exe: &Path, policy: &SandboxPolicy) -> Result<Applied, String> {
    let mut cmd = command(policy, "true", helper_exe).map_err(|e| e.to_string())?;
    let out = cmd
        .env(REPORT_ENV, "1")
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run the sandbox helper: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    stderr
        .lines()
        .find_map(|l| l.strip_prefix(REPORT_PREFIX))
        .and_then(|json| serde_json::from_str(json).ok())
        .ok_or_else(|| stderr.trim().to_owned())
}

/// What `bash` needs to run a command under a policy.
#[derive(Debug, Clone)]
pub struct SandboxContext {
    /// What the command may do.
    pub policy: SandboxPolicy,
    /// The binary that dispatches [`HELPER_ARG`] ([`helper_beside`] the
    /// running `wright`).
    pub helper_exe: PathBuf,
    /// The session's secret files, searched once and shared by every clone.
    pub known_secrets: std::sync::Arc<secrets::KnownSecrets>,
}

impl SandboxContext {
    /// A context for `policy`, with the session's secret search not yet run.
    pub fn new(policy: SandboxPolicy, helper_exe: PathBuf) -> Self {
        Self {
            policy,
            helper_exe,
            known_secrets: std::sync::Arc::default(),
        }
    }
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

/// The helper for the `wright` binary at `main_exe`: the `wright-sandbox`
/// binary beside it when there is an executable one (it starts in a
/// fraction of the time, with a fiftieth of the code to load and relocate),
/// otherwise `main_exe` itself. One `stat`, once per session.
pub fn helper_beside(main_exe: &Path) -> PathBuf {
    let small = main_exe.with_file_name(format!("{HELPER_BIN}{}", std::env::consts::EXE_SUFFIX));
    if is_executable_file(&small) {
        small
    } else {
        main_exe.to_path_buf()
    }
}

fn is_executable_file(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// Builds the command that runs `bash -c <script>` under `policy`, always
/// through `helper_exe __sandbox-exec <policy-json> -- bash -c <script>`:
/// even with [`SandboxMode::Full`] the helper makes the command die with
/// wright. The caller sets cwd, stdio, environment and process group.
pub fn command(
    policy: &SandboxPolicy,
    script: &str,
    helper_exe: &Path,
) -> Result<Command, SandboxError> {
    let argv = [OsStr::new("bash"), OsStr::new("-c"), OsStr::new(script)];
    command_argv(policy, &argv, helper_exe)
}

/// Like [`command`], for a program and its arguments without a shell
/// (wright's own probes, such as its `git status`).
pub fn command_argv<S: AsRef<OsStr>>(
    policy: &SandboxPolicy,
    argv: &[S],
    helper_exe: &Path,
) -> Result<Command, SandboxError> {
    let json = policy.to_json()?;
    let mut cmd = Command::new(helper_exe);
    cmd.arg(HELPER_ARG)
        .arg(json)
        .arg("--")
        .args(argv)
        .env(PARENT_ENV, std::process::id().to_string())
        .env(BUILD_ENV, BUILD);
    match main_exe() {
        Some(main) => cmd.env(MAIN_ENV, main),
        // Never one inherited from wright's own environment.
        None => cmd.env_remove(MAIN_ENV),
    };
    cmd.env_remove(HANDED_ENV);
    Ok(cmd)
}

/// This process's binary, looked up once: where a helper of another build
/// hands its command.
fn main_exe() -> Option<&'static Path> {
    own_exe().as_deref().ok()
}

fn own_exe() -> &'static Result<PathBuf, String> {
    static MAIN: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    MAIN.get_or_init(|| std::env::current_exe().map_err(|e| e.to_string()))
}

/// The helper for this process's own binary ([`helper_beside`] it), looked
/// up once per process however many parts of wright ask; the error says why
/// the binary could not be located.
pub fn own_helper() -> Result<&'static Path, &'static str> {
    static HELPER: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    HELPER
        .get_or_init(|| {
            own_exe()
                .as_deref()
                .map(helper_beside)
                .map_err(Clone::clone)
        })
        .as_deref()
        .map_err(String::as_str)
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
    fn every_mode_goes_through_the_helper() {
        for p in [
            SandboxPolicy::full(),
            SandboxPolicy::read_only(),
            SandboxPolicy::workspace_write(vec![PathBuf::from("/ws")]),
        ] {
            let cmd = command(&p, "echo hi", Path::new("/bin/wright")).unwrap();
            assert_eq!(cmd.get_program(), "/bin/wright");
            let a = args(&cmd);
            assert_eq!(a[0], HELPER_ARG);
            assert_eq!(SandboxPolicy::from_json(&a[1]).unwrap(), p);
            assert_eq!(&a[2..], ["--", "bash", "-c", "echo hi"]);
            let parent = std::process::id().to_string();
            let env = |name: &str| {
                cmd.get_envs()
                    .find(|(k, _)| *k == name)
                    .and_then(|(_, v)| v)
                    .map(|v| v.to_owned())
            };
            assert_eq!(env(PARENT_ENV), Some(parent.into()));
            assert_eq!(env(BUILD_ENV), Some(BUILD.into()));
            assert_eq!(env(MAIN_ENV), Some(std::env::current_exe().unwrap().into()));
        }
    }

    #[test]
    fn the_build_stamp_is_a_hash() {
        assert_eq!(BUILD.len(), 16);
        assert!(BUILD.bytes().all(|b| b.is_ascii_hexdigit()));
    }

    #[test]
    fn the_small_helper_is_used_only_where_it_is_an_executable_file() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("wright");
        std::fs::write(&main, "").unwrap();
        assert_eq!(helper_beside(&main), main, "no helper beside");
        let small = dir
            .path()
            .join(format!("{HELPER_BIN}{}", std::env::consts::EXE_SUFFIX));
        std::fs::create_dir(&small).unwrap();
        assert_eq!(helper_beside(&main), main, "a directory is no helper");
        std::fs::remove_dir(&small).unwrap();
        std::fs::write(&small, "").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(helper_beside(&main), main, "not executable");
            std::fs::set_permissions(&small, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        assert_eq!(helper_beside(&main), small);
    }
}
