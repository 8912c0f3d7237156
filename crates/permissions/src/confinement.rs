//! Which OS sandbox a command runs under, given the permission mode: the
//! mode decides, the sandbox enforces. Plan mode is read-only whatever was
//! configured, so no command can change a file however the classifier
//! judged it.

use wright_sandbox::{SandboxContext, SandboxMode};

use crate::{Engine, Mode};

impl Engine {
    /// The sandbox a command runs under now: `base`, made read-only and
    /// offline in plan mode. `None` (no OS sandbox) stays `None`.
    pub fn command_sandbox(&self, base: Option<&SandboxContext>) -> Option<SandboxContext> {
        command_sandbox(self.mode(), base)
    }
}

/// [`Engine::command_sandbox`] for `mode`, for a caller whose engine state
/// is unavailable (it passes plan mode, the strictest reading).
pub fn command_sandbox(mode: Mode, base: Option<&SandboxContext>) -> Option<SandboxContext> {
    base.map(|sb| {
        let mut sb = sb.clone();
        if mode == Mode::Plan {
            sb.policy.mode = SandboxMode::ReadOnly;
            sb.policy.network = false;
        }
        sb
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn base() -> SandboxContext {
        let mut policy = wright_sandbox::SandboxPolicy::workspace_write(vec![PathBuf::from("/w")]);
        policy.network = true;
        SandboxContext::new(policy, PathBuf::from("/bin/true"))
    }

    #[test]
    fn plan_mode_is_read_only_and_offline() {
        let sb = command_sandbox(Mode::Plan, Some(&base())).unwrap();
        assert_eq!(sb.policy.mode, SandboxMode::ReadOnly);
        assert!(!sb.policy.network);
    }

    #[test]
    fn other_modes_keep_what_was_configured() {
        for mode in [Mode::Default, Mode::AcceptEdits, Mode::Auto, Mode::Bypass] {
            let sb = command_sandbox(mode, Some(&base())).unwrap();
            assert_eq!(sb.policy.mode, SandboxMode::WorkspaceWrite, "{mode}");
            assert!(sb.policy.network);
        }
        assert!(command_sandbox(Mode::Plan, None).is_none());
    }
}
