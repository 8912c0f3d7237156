//! The interim permission policy: what each mode lets run without asking.
//!
//! Until rules and interactive approvals exist, anything that would need an
//! approval is refused with a message the model can act on. Hard guards
//! (destructive commands) live in the tools and apply in every mode.

use wright_config::PermissionMode;
use wright_protocol::ToolKind;

/// The answer for one tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Run it.
    Allow,
    /// Do not run it; the reason goes to the model.
    Deny(String),
}

/// Decides whether a tool of `kind` may run under `mode` without asking.
pub fn check(mode: PermissionMode, tool: &str, kind: ToolKind) -> Decision {
    let allowed = match mode {
        PermissionMode::Bypass | PermissionMode::Auto => true,
        PermissionMode::AcceptEdits => matches!(kind, ToolKind::ReadOnly | ToolKind::Edit),
        PermissionMode::Default | PermissionMode::Plan => kind == ToolKind::ReadOnly,
    };
    if allowed {
        return Decision::Allow;
    }
    let what = match kind {
        ToolKind::Edit => "file edits",
        ToolKind::Exec => "commands",
        ToolKind::Network => "network access",
        ToolKind::ReadOnly => "reads",
    };
    let hint = match mode {
        PermissionMode::Plan => {
            "plan mode is read-only; describe the change instead of making it".to_owned()
        }
        _ => format!(
            "{what} need approval and this run cannot ask; the user can re-run with \
             --permission-mode bypass{}",
            if kind == ToolKind::Edit {
                " (or accept-edits)"
            } else {
                ""
            }
        ),
    };
    Decision::Deny(format!(
        "`{tool}` was not run (permission mode `{}`): {hint}.",
        mode.as_str()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_always_run() {
        for mode in [
            PermissionMode::Default,
            PermissionMode::AcceptEdits,
            PermissionMode::Plan,
            PermissionMode::Auto,
            PermissionMode::Bypass,
        ] {
            assert_eq!(check(mode, "read", ToolKind::ReadOnly), Decision::Allow);
        }
    }

    #[test]
    fn default_mode_denies_edits_and_commands_with_a_hint() {
        let Decision::Deny(why) = check(PermissionMode::Default, "bash", ToolKind::Exec) else {
            panic!("expected deny");
        };
        assert!(why.contains("--permission-mode bypass"), "{why}");
        assert!(matches!(
            check(PermissionMode::Default, "edit", ToolKind::Edit),
            Decision::Deny(_)
        ));
    }

    #[test]
    fn accept_edits_allows_edits_not_commands() {
        assert_eq!(
            check(PermissionMode::AcceptEdits, "edit", ToolKind::Edit),
            Decision::Allow
        );
        assert!(matches!(
            check(PermissionMode::AcceptEdits, "bash", ToolKind::Exec),
            Decision::Deny(_)
        ));
    }

    #[test]
    fn plan_denies_edits_and_bypass_allows_all() {
        let Decision::Deny(why) = check(PermissionMode::Plan, "write", ToolKind::Edit) else {
            panic!("expected deny");
        };
        assert!(why.contains("plan mode"));
        assert_eq!(
            check(PermissionMode::Bypass, "bash", ToolKind::Exec),
            Decision::Allow
        );
    }
}
