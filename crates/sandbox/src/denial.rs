//! Telling the model that a command failed because of the sandbox, so it asks
//! for a wider permission instead of guessing at workarounds. Heuristic: it
//! reads the error messages tools print for `EACCES`/`EROFS` on a write and
//! `EPERM` on a socket, and ignores denials on paths the policy allows.

use std::path::Path;

use crate::{HELPER_ERROR_PREFIX, HELPER_REFUSED_EXIT, SandboxMode, SandboxPolicy};

/// Why a command looks blocked by the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Denial {
    /// A write was refused (Landlock answers `EACCES`).
    Write,
    /// A network socket was refused (the seccomp filter answers `EPERM`).
    Network,
    /// The helper could not apply the policy and did not run the command.
    Refused,
}

const WRITE_MARKERS: &[&str] = &[
    "permission denied",
    "read-only file system",
    "eacces",
    "erofs",
    "[errno 13]",
    "[errno 30]",
];
const NETWORK_MARKERS: &[&str] = &[
    "could not resolve host",
    "temporary failure in name resolution",
    "failed to establish a new connection",
    "network is unreachable",
    "couldn't connect to server",
];
/// How many earlier lines may hold the socket word for an `EPERM` line
/// (Python prints the call in the traceback, the error below it).
const CONTEXT_LINES: usize = 4;
const SOCKET_WORDS: &[&str] = &["socket", "connect", "network", "resolve", "http", "host"];
/// Permission errors that are not about files (ssh auth, `sudo`).
const NOT_OURS: &[&str] = &["permission denied (publickey", "sudo:"];

/// Every kind of sandbox denial the output of a failed command suggests,
/// without knowing the policy. A successful command (`Some(0)`) has none.
pub fn classify_denial(exit_code: Option<i32>, output: &str) -> Vec<Denial> {
    scan(exit_code, output, None)
}

/// Whether a failed command's output suggests the sandbox blocked it.
pub fn looks_like_sandbox_denial(exit_code: Option<i32>, output: &str) -> bool {
    !classify_denial(exit_code, output).is_empty()
}

/// The lines to append to the model's result when `policy` explains the
/// failure; `None` when it does not (or the policy is `full`).
pub fn denial_hint(policy: &SandboxPolicy, exit_code: Option<i32>, output: &str) -> Option<String> {
    if policy.mode == SandboxMode::Full {
        return None;
    }
    let kinds = scan(exit_code, output, Some(policy));
    if kinds.is_empty() {
        return None;
    }
    let lines: Vec<&str> = kinds
        .iter()
        .map(|k| match (k, policy.mode) {
            (Denial::Refused, _) => {
                "Blocked by sandbox: the sandbox could not be applied, so the command did not \
                 run — tell the user instead of working around it."
            }
            (Denial::Network, _) => {
                "Blocked by sandbox: the command tried to open a network connection or a Unix \
                 socket and network access is off — ask the user for wider permission \
                 (`[sandbox] network = true`, `[sandbox] allow_sockets` for a Unix socket, or \
                 `--sandbox full`) instead of working around it."
            }
            (Denial::Write, SandboxMode::ReadOnly) => {
                "Blocked by sandbox: the sandbox is read-only, so the command cannot write files \
                 — ask the user for wider permission (`--sandbox workspace-write` or `--sandbox \
                 full`) instead of working around it."
            }
            (Denial::Write, _) => {
                "Blocked by sandbox: the command tried to write outside the workspace — ask the \
                 user for wider permission (`--sandbox full` or an extra writable root) instead \
                 of working around it."
            }
        })
        .collect();
    Some(lines.join("\n"))
}

fn scan(exit_code: Option<i32>, output: &str, policy: Option<&SandboxPolicy>) -> Vec<Denial> {
    if exit_code == Some(0) {
        return Vec::new();
    }
    let network_off = policy.is_none_or(|p| !p.network);
    let mut found = Vec::new();
    let mut add = |d: Denial| {
        if !found.contains(&d) {
            found.push(d);
        }
    };
    let mut recent: Vec<String> = Vec::with_capacity(CONTEXT_LINES + 1);
    for line in output.lines() {
        if line.starts_with(HELPER_ERROR_PREFIX)
            && exit_code.is_none_or(|c| c == HELPER_REFUSED_EXIT || c == 127)
        {
            add(Denial::Refused);
            continue;
        }
        let lower = line.to_lowercase();
        if recent.len() > CONTEXT_LINES {
            recent.remove(0);
        }
        recent.push(lower.clone());
        if NOT_OURS.iter().any(|m| lower.contains(m)) {
            continue;
        }
        let socket_word = recent
            .iter()
            .any(|l| SOCKET_WORDS.iter().any(|w| l.contains(w)));
        let eperm = lower.contains("operation not permitted") || lower.contains("[errno 1]");
        if network_off
            && ((eperm && socket_word) || NETWORK_MARKERS.iter().any(|m| lower.contains(m)))
        {
            add(Denial::Network);
            continue;
        }
        if WRITE_MARKERS.iter().any(|m| lower.contains(m))
            && !policy.is_some_and(|p| names_only_allowed_paths(p, line))
        {
            add(Denial::Write);
        }
    }
    found
}

/// True when the line names absolute paths and the policy may write them
/// all: the refusal then came from file permissions, not the sandbox.
fn names_only_allowed_paths(policy: &SandboxPolicy, line: &str) -> bool {
    if policy.mode == SandboxMode::ReadOnly {
        return false;
    }
    let mut paths = line
        .split(|c: char| c.is_whitespace() || "'\"`:(),‘’“”".contains(c))
        .filter(|t| t.starts_with('/'))
        .peekable();
    paths.peek().is_some() && paths.all(|p| policy.allows_write(Path::new(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws() -> SandboxPolicy {
        SandboxPolicy::workspace_write(vec!["/work/ws".into()])
    }

    #[test]
    fn success_is_never_a_denial() {
        assert!(!looks_like_sandbox_denial(Some(0), "Permission denied"));
    }

    #[test]
    fn recognises_write_denials() {
        for out in [
            "touch: cannot touch '/srv/x': Permission denied",
            "bash: /srv/x: Read-only file system",
            "PermissionError: [Errno 13] Permission denied: '/srv/x'",
            "Error: EACCES: permission denied, open '/srv/x'",
        ] {
            assert_eq!(classify_denial(Some(1), out), [Denial::Write], "{out}");
            assert!(denial_hint(&ws(), Some(1), out).is_some(), "{out}");
        }
    }

    #[test]
    fn recognises_network_denials() {
        for out in [
            "bash: socket: Operation not permitted",
            "PermissionError: [Errno 1] Operation not permitted (connect)",
            "curl: (6) Could not resolve host: example.com",
            "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server",
            "  File \"/usr/lib/python3.11/socket.py\", line 232, in __init__\n    \
             _socket.socket.__init__(self, family, type, proto, fileno)\n\
             PermissionError: [Errno 1] Operation not permitted",
        ] {
            assert_eq!(classify_denial(Some(1), out), [Denial::Network], "{out}");
            let hint = denial_hint(&ws(), Some(1), out).unwrap();
            assert!(hint.contains("network = true"), "{hint}");
        }
        let mut net = ws();
        net.network = true;
        assert_eq!(
            denial_hint(&net, Some(1), "bash: socket: Operation not permitted"),
            None
        );
    }

    #[test]
    fn ignores_denials_the_policy_does_not_explain() {
        let p = ws();
        assert_eq!(
            denial_hint(&p, Some(1), "bash: /work/ws/locked: Permission denied"),
            None
        );
        assert_eq!(
            denial_hint(&p, Some(255), "git@host: Permission denied (publickey)."),
            None
        );
        assert_eq!(denial_hint(&p, Some(2), "ls: no such file"), None);
        assert_eq!(
            denial_hint(
                &SandboxPolicy::full(),
                Some(1),
                "touch: cannot touch '/srv/x': Permission denied"
            ),
            None
        );
    }

    #[test]
    fn read_only_mode_blames_every_write() {
        let hint = denial_hint(
            &SandboxPolicy::read_only(),
            Some(1),
            "touch: cannot touch '/work/ws/a': Permission denied",
        )
        .unwrap();
        assert!(hint.contains("read-only"), "{hint}");
    }

    #[test]
    fn reports_a_refused_helper() {
        let out =
            format!("{HELPER_ERROR_PREFIX} unsupported: no landlock; the command was not run");
        assert_eq!(classify_denial(Some(126), &out), [Denial::Refused]);
        assert!(
            denial_hint(&ws(), Some(126), &out)
                .unwrap()
                .contains("did not run")
        );
    }
}
