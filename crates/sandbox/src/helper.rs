//! The helper entry points: `wright __sandbox-exec <policy-json> -- <cmd…>`
//! and the same through the small `wright-sandbox` binary ([`helper_main`]).
//! It arranges to die with wright, confines itself and then `exec`s the
//! command, or refuses with exit status 126; it never runs the command
//! unconfined unless the policy is `full`.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::process::Command;

use crate::{
    Applied, BUILD, BUILD_ENV, HANDED_ENV, HELPER_ARG, HELPER_ERROR_PREFIX, HELPER_REFUSED_EXIT,
    MAIN_ENV, PARENT_ENV, REPORT_ENV, REPORT_PREFIX, SandboxError, SandboxPolicy,
};

/// `main` of the `wright-sandbox` binary. It runs the helper when the
/// `wright` that started it is of its own build ([`BUILD_ENV`]); otherwise
/// it `exec`s that `wright` ([`MAIN_ENV`]) with the same arguments, whose
/// helper then confines the command with its own code (or refuses, if that
/// file too is now of another build), or refuses (126) where there is no
/// `wright` to hand it to. It hands a command on once at most
/// ([`HANDED_ENV`]).
pub fn helper_main() -> ! {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if args.first().is_none_or(|a| a != HELPER_ARG) {
        eprintln!(
            "usage: {} {HELPER_ARG} <policy-json> -- <command…> (started by wright, not by hand)",
            crate::HELPER_BIN
        );
        std::process::exit(2);
    }
    match pin(
        std::env::var_os(BUILD_ENV).as_deref(),
        std::env::var_os(MAIN_ENV).map(PathBuf::from),
        std::env::var_os(HANDED_ENV).is_some(),
    ) {
        Pin::Run => exec_helper(args),
        Pin::HandTo(main) => {
            let mut next = Command::new(&main);
            next.args(args).env(HANDED_ENV, "1");
            #[cfg(unix)]
            let err = std::os::unix::process::CommandExt::exec(&mut next);
            #[cfg(not(unix))]
            let err = match next.status() {
                Ok(status) => std::process::exit(status.code().unwrap_or(HELPER_REFUSED_EXIT)),
                Err(e) => e,
            };
            eprintln!(
                "{HELPER_ERROR_PREFIX} cannot hand the command to {}: {err}; the command was not \
                 run",
                main.display()
            );
        }
        Pin::Refuse => eprintln!(
            "{HELPER_ERROR_PREFIX} this helper belongs to another wright build and there is no \
             wright to hand the command to; the command was not run"
        ),
    }
    std::process::exit(HELPER_REFUSED_EXIT)
}

/// What the small helper does with a command.
#[derive(Debug, PartialEq, Eq)]
enum Pin {
    /// Started by a `wright` of its own build: confine and run it.
    Run,
    /// Started by another build: that build's `wright` confines it.
    HandTo(PathBuf),
    /// Another build, and nothing (else) to hand the command to.
    Refuse,
}

fn pin(wanted: Option<&OsStr>, main: Option<PathBuf>, handed: bool) -> Pin {
    if wanted.is_some_and(|w| w == BUILD) {
        return Pin::Run;
    }
    match main {
        // Handed on already: `main` names a helper too (or this one), and
        // handing on again could go round forever.
        Some(main) if !handed => Pin::HandTo(main),
        _ => Pin::Refuse,
    }
}

/// Becomes the helper if this process was started as one; returns otherwise.
/// Call it first thing in `main`, before any thread (or async runtime) starts.
///
/// A `wright` that started this one (directly, or through the small helper)
/// names its [`BUILD`]; another build here means the file was replaced
/// since that session began (an upgrade), and its code may read the
/// policy differently: refuse, and say to restart.
pub fn maybe_exec_helper() {
    if std::env::args_os().nth(1).is_some_and(|a| a == HELPER_ARG) {
        if std::env::var_os(BUILD_ENV).is_some_and(|b| b != BUILD) {
            eprintln!(
                "{HELPER_ERROR_PREFIX} wright was replaced by another build since this session \
                 started; restart wright to run commands; the command was not run"
            );
            std::process::exit(HELPER_REFUSED_EXIT);
        }
        exec_helper(std::env::args_os().skip(1).collect());
    }
}

/// Runs the helper with `args` = `[__sandbox-exec, <json>, --, cmd, args…]`
/// and exits with the refusal status if the command cannot be run confined.
pub fn exec_helper(args: Vec<OsString>) -> ! {
    std::process::exit(run_helper(args))
}

/// Like [`exec_helper`] but returns the exit status on failure. On success it
/// does not return: the process image is replaced by the command.
pub fn run_helper(args: Vec<OsString>) -> i32 {
    let err = match parse(args) {
        Ok((policy, cmd)) => {
            die_with_wright();
            match apply(&policy) {
                Ok(applied) => {
                    report(&applied);
                    exec(cmd, &applied, &policy)
                }
                Err(e) => e,
            }
        }
        Err(e) => e,
    };
    eprintln!("{HELPER_ERROR_PREFIX} {err}; the command was not run");
    match err {
        SandboxError::Exec { ref source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            127
        }
        _ => HELPER_REFUSED_EXIT,
    }
}

fn parse(args: Vec<OsString>) -> Result<(SandboxPolicy, Vec<OsString>), SandboxError> {
    let mut it = args.into_iter();
    if it.next().is_none_or(|a| a != HELPER_ARG) {
        return Err(SandboxError::BadArgs(format!(
            "expected `{HELPER_ARG} <policy-json> -- <command…>`"
        )));
    }
    let json = it
        .next()
        .ok_or_else(|| SandboxError::BadArgs("missing policy".to_owned()))?;
    let json = json
        .to_str()
        .ok_or_else(|| SandboxError::BadArgs("policy is not UTF-8".to_owned()))?;
    let policy = SandboxPolicy::from_json(json)?;
    if it.next().is_none_or(|a| a != "--") {
        return Err(SandboxError::BadArgs(
            "missing `--` before the command".to_owned(),
        ));
    }
    let cmd: Vec<OsString> = it.collect();
    if cmd.is_empty() {
        return Err(SandboxError::BadArgs("missing command".to_owned()));
    }
    Ok((policy, cmd))
}

/// Makes the kernel kill this process (and so the command it becomes) when
/// wright dies, and gives up at once if wright is already gone.
fn die_with_wright() {
    #[cfg(target_os = "linux")]
    if let Some(parent) = std::env::var(PARENT_ENV).ok().and_then(|p| p.parse().ok()) {
        crate::linux_ns::die_with_parent(parent);
    }
}

/// Prints what was applied when asked to (by `wright doctor`).
fn report(applied: &Applied) {
    if std::env::var_os(REPORT_ENV).is_some()
        && let Ok(json) = serde_json::to_string(applied)
    {
        eprintln!("{REPORT_PREFIX}{json}");
    }
}

fn apply(policy: &SandboxPolicy) -> Result<Applied, SandboxError> {
    #[cfg(target_os = "linux")]
    {
        crate::linux::apply(policy)
    }
    #[cfg(not(target_os = "linux"))]
    {
        if policy.mode == crate::SandboxMode::Full {
            Ok(Applied::default())
        } else {
            Err(SandboxError::Unsupported(
                "the OS sandbox is only implemented on Linux".to_owned(),
            ))
        }
    }
}

/// Replaces this process with `cmd` (PATH lookup like `execvp`); returns only
/// on failure.
fn exec(cmd: Vec<OsString>, applied: &Applied, policy: &SandboxPolicy) -> SandboxError {
    let mut it = cmd.into_iter();
    let Some(program) = it.next() else {
        return SandboxError::BadArgs("missing command".to_owned());
    };
    let mut command = Command::new(&program);
    command
        .args(it)
        .env_remove(PARENT_ENV)
        .env_remove(REPORT_ENV)
        .env_remove(BUILD_ENV)
        .env_remove(MAIN_ENV)
        .env_remove(HANDED_ENV);
    // With the network off the session's sockets are out of reach: do not
    // point programs at them (see `SOCKET_VARS`).
    if !policy.network && policy.mode != crate::SandboxMode::Full {
        for var in crate::SOCKET_VARS {
            command.env_remove(var);
        }
    }
    #[cfg(target_os = "linux")]
    if applied.landlock {
        command.env(crate::linux_ns::NESTED_ENV, "1");
    }
    #[cfg(not(target_os = "linux"))]
    let _ = applied;
    #[cfg(unix)]
    let source = std::os::unix::process::CommandExt::exec(&mut command);
    // No exec without Unix: run the command and leave with its status.
    #[cfg(not(unix))]
    let source = match command.status() {
        Ok(status) => std::process::exit(status.code().unwrap_or(1)),
        Err(e) => e,
    };
    SandboxError::Exec {
        program: program.to_string_lossy().into_owned(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_small_helper_runs_only_for_its_own_build() {
        let main = PathBuf::from("/opt/wright/wright");
        let same = Some(OsStr::new(BUILD));
        assert_eq!(pin(same, Some(main.clone()), false), Pin::Run);
        assert_eq!(pin(same, None, true), Pin::Run);
        for other in [
            Some(OsStr::new("0123456789abcdef")),
            Some(OsStr::new("")),
            None,
        ] {
            assert_eq!(
                pin(other, Some(main.clone()), false),
                Pin::HandTo(main.clone())
            );
            assert_eq!(pin(other, None, false), Pin::Refuse);
            assert_eq!(
                pin(other, Some(main.clone()), true),
                Pin::Refuse,
                "handed once"
            );
        }
    }

    #[test]
    fn parses_a_well_formed_command_line() {
        let json = SandboxPolicy::read_only().to_json().unwrap();
        let (p, cmd) = parse(os(&[HELPER_ARG, &json, "--", "bash", "-c", "ls"])).unwrap();
        assert_eq!(p, SandboxPolicy::read_only());
        assert_eq!(cmd, os(&["bash", "-c", "ls"]));
    }

    #[test]
    fn refuses_malformed_command_lines() {
        let json = SandboxPolicy::read_only().to_json().unwrap();
        for bad in [
            os(&[]),
            os(&["other"]),
            os(&[HELPER_ARG]),
            os(&[HELPER_ARG, "{not json", "--", "ls"]),
            os(&[HELPER_ARG, &json, "ls"]),
            os(&[HELPER_ARG, &json, "--"]),
        ] {
            assert!(parse(bad.clone()).is_err(), "{bad:?}");
            // Fails before confining the test thread, so this is safe to run here.
            assert_eq!(run_helper(bad), HELPER_REFUSED_EXIT);
        }
    }
}
