//! Turns the permission and sandbox settings into the core's policy: the
//! permission engine's input (mode, rules, roots, whether it may ask) and
//! the OS sandbox for shell commands, probed once with a loud warning where
//! the kernel cannot enforce it.

use std::path::{Path, PathBuf};

use wright_config::Settings;
use wright_permissions::{CanAsk, CommandConfinement, PolicyInput, RuleSet};
use wright_sandbox::{SandboxContext, SandboxMode, SandboxPolicy, Support};

use crate::exit::SetupError;

/// Everything safety-related the session needs.
pub struct Safety {
    /// Permission engine input.
    pub policy: PolicyInput,
    /// The sandbox, when one applies.
    pub sandbox: Option<SandboxContext>,
    /// A warning to show once (sandbox unavailable).
    pub warning: Option<String>,
}

/// Builds the policy for a run rooted at `project_root`.
pub fn build(
    settings: &Settings,
    project_root: &Path,
    can_ask: CanAsk,
) -> Result<Safety, SetupError> {
    let p = &settings.permissions;
    let rules = RuleSet::parse(&p.allow, &p.ask, &p.deny).map_err(|e| {
        SetupError(format!(
            "invalid permission rule in [permissions] or --allow/--deny: {e}"
        ))
    })?;
    let mut roots = vec![project_root.to_path_buf()];
    roots.extend(p.additional_roots.iter().cloned());
    let policy = PolicyInput {
        mode: settings.permission_mode,
        rules,
        workspace_roots: roots.clone(),
        can_ask,
        home: dirs::home_dir(),
        temp_roots: vec![std::env::temp_dir()],
        commands: CommandConfinement::AsConfigured,
    };
    let mode = settings.sandbox.mode;
    let helper_exe = wright_sandbox::own_helper()
        .map(Path::to_path_buf)
        .map_err(|e| {
            SetupError(format!(
                "cannot locate the wright binary for the sandbox helper: {e}"
            ))
        })?;
    // Even unconfined, commands go through the helper so they die with wright.
    let unconfined = |warning: Option<String>| Safety {
        policy: policy.clone(),
        sandbox: Some(SandboxContext::new(
            SandboxPolicy::full(),
            helper_exe.clone(),
        )),
        warning,
    };
    if mode == SandboxMode::Full {
        return Ok(unconfined(None));
    }
    match wright_sandbox::probe() {
        Support::Available => {
            let workspace_roots = roots.clone();
            roots.extend(wright_sandbox::repo_guard::worktree_common_dir(
                project_root,
            ));
            roots.extend(settings.sandbox.writable_roots.iter().cloned());
            roots.extend(tool_caches());
            Ok(Safety {
                policy: policy.clone(),
                sandbox: Some(SandboxContext::new(
                    SandboxPolicy {
                        mode,
                        writable_roots: roots,
                        // Network for commands: `[sandbox] network = true`,
                        // or an allow rule granting network access.
                        network: settings.sandbox.network || allows_network(&p.allow),
                        // Read deny rules' literal directories are hidden
                        // from commands like secret files (issue 36).
                        hidden: policy
                            .rules
                            .hidden_paths(&workspace_roots, policy.home.as_deref()),
                        workspace_roots,
                        // Reopened by the user's `[sandbox] allow_sockets`
                        // (a project's entries only once it is trusted).
                        allow_sockets: settings.sandbox.allow_sockets.clone(),
                    },
                    helper_exe,
                )),
                warning: namespaces_warning(),
            })
        }
        Support::Unavailable(why) => match unavailable(&why) {
            (CommandConfinement::AsConfigured, warning) => Ok(unconfined(Some(warning))),
            (commands, warning) => Ok(Safety {
                policy: PolicyInput {
                    commands,
                    ..policy.clone()
                },
                ..unconfined(Some(warning))
            }),
        },
    }
}

/// `wright doctor`'s line for an unavailable sandbox: what happens to
/// commands instead.
pub fn unavailable_detail(why: &str) -> String {
    if cfg!(target_os = "linux") {
        format!(
            "unavailable ({why}): commands are limited by the permission mode only, and refused \
             in plan mode"
        )
    } else {
        format!(
            "unavailable ({why}): unless the sandbox is `full`, every command asks for approval \
             and runs that cannot ask refuse them"
        )
    }
}

/// What happens to commands when the configured sandbox is unavailable,
/// and the warning that says so. On Linux (a kernel without Landlock) they
/// are limited by the permission mode; on a platform with no OS sandbox
/// at all nothing would ever confine them, so each one asks, and headless
/// runs refuse them, until the user chooses `--sandbox full`.
fn unavailable(why: &str) -> (CommandConfinement, String) {
    if cfg!(target_os = "linux") {
        (
            CommandConfinement::AsConfigured,
            format!(
                "OS sandbox unavailable ({why}): shell commands are limited by the permission \
                 mode only, and in plan mode they are refused."
            ),
        )
    } else {
        (
            CommandConfinement::Unenforced(why.to_owned()),
            format!(
                "OS sandbox unavailable ({why}): every shell command asks for approval, and runs \
                 that cannot ask refuse them; `--sandbox full` runs them unconfined."
            ),
        )
    }
}

/// Said once at start where the kernel will refuse the namespaces that
/// protect policy files and end detached processes (Landlock still applies).
fn namespaces_warning() -> Option<String> {
    #[cfg(target_os = "linux")]
    {
        wright_sandbox::namespaces_refused().map(|why| {
            format!(
                "sandbox without namespaces ({why}): commands can change .wright/, .git/hooks and \
                 .git/config, and detached processes can outlive wright; `wright doctor` shows what \
                 is active."
            )
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Whether an allow rule grants network access (`WebFetch` or `WebFetch(domain:…)`).
/// The sandbox cannot filter by domain, so any such rule opens the network
/// for commands; the permission layer still checks each call.
fn allows_network(allow: &[String]) -> bool {
    allow.iter().any(|rule| {
        let tool = rule.split('(').next().unwrap_or_default().trim();
        tool.eq_ignore_ascii_case("WebFetch")
    })
}

/// Build-tool lock files and the content-addressed caches commands in the
/// workspace routinely write to (leaving them read-only breaks `cargo
/// build` and `npm install`); see [`wright_sandbox::policy::writable_caches`]
/// for what stays read-only because it runs later unsandboxed.
fn tool_caches() -> Vec<PathBuf> {
    let Some(home) = dirs::home_dir() else {
        return Vec::new();
    };
    let cargo_home =
        std::env::var_os("CARGO_HOME").map_or_else(|| home.join(".cargo"), PathBuf::from);
    let cache_home = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| home.join(".cache"));
    wright_sandbox::policy::writable_caches(&home, &cargo_home, &cache_home)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unavailable_sandbox_never_leaves_commands_silently_unconfined() {
        let (commands, warning) = unavailable("no Landlock");
        assert!(warning.starts_with("OS sandbox unavailable (no Landlock):"));
        if cfg!(target_os = "linux") {
            assert_eq!(commands, CommandConfinement::AsConfigured);
        } else {
            assert_eq!(
                commands,
                CommandConfinement::Unenforced("no Landlock".to_owned())
            );
            assert!(warning.contains("`--sandbox full`"));
        }
    }
}
