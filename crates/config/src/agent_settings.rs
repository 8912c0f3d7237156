//! The resolved `[agents]` table ([`AgentSettings`]): limits and placement
//! of `Task` subagents, and which directories hold agent definitions
//! ([`agent_dirs`]).
//!
//! None of these keys needs the project's trust: a definition only narrows
//! what a child may do (it runs with the parent's permissions, never
//! looser), so reading more of them loosens nothing.

use std::path::{Path, PathBuf};

use crate::kinds::AgentIsolation;
use crate::loader::PROJECT_DIR;
use crate::settings::Settings;

/// Default for [`AgentSettings::max_turns`].
pub const DEFAULT_AGENT_MAX_TURNS: u32 = 30;
/// Default for [`AgentSettings::max_concurrent`].
pub const DEFAULT_AGENT_MAX_CONCURRENT: u32 = 4;
/// Largest allowed [`AgentSettings::max_concurrent`].
pub const MAX_AGENT_CONCURRENT: u32 = 16;
/// The directory of agent definitions, under the project's `.wright/`,
/// the user config dir and `.claude/`.
pub const AGENTS_DIR: &str = "agents";

/// `[agents]`: how `Task` subagents run and where their definitions are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSettings {
    /// Turn limit of a child whose definition sets none (>= 1).
    pub max_turns: u32,
    /// Children of one model response that run at the same time (1..=16).
    pub max_concurrent: u32,
    /// Where a child whose definition says nothing runs.
    pub isolation: AgentIsolation,
    /// Whether `<project>/.claude/agents/` (Claude Code's) is read too.
    pub import_claude_agents: bool,
    /// Whether the user's `<config dir>/agents/` is read too.
    pub user_agents: bool,
}

impl Default for AgentSettings {
    fn default() -> Self {
        AgentSettings {
            max_turns: DEFAULT_AGENT_MAX_TURNS,
            max_concurrent: DEFAULT_AGENT_MAX_CONCURRENT,
            isolation: AgentIsolation::None,
            import_claude_agents: false,
            user_agents: false,
        }
    }
}

/// The directories agent definitions are read from, lowest precedence
/// first (a later definition of a name replaces an earlier one): the
/// user's `<user_config_dir>/agents` (only with `agents.user_agents` and a
/// user config dir), `<project>/.claude/agents` (only with
/// `agents.import_claude_agents`), then `<project>/.wright/agents`. The
/// project's own wright definitions come last so they win.
pub fn agent_dirs(
    settings: &Settings,
    project_root: &Path,
    user_config_dir: Option<&Path>,
) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if settings.agents.user_agents
        && let Some(user) = user_config_dir
    {
        dirs.push(user.join(AGENTS_DIR));
    }
    if settings.agents.import_claude_agents {
        dirs.push(project_root.join(".claude").join(AGENTS_DIR));
    }
    dirs.push(project_root.join(PROJECT_DIR).join(AGENTS_DIR));
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dirs_follow_the_switches_in_precedence_order() {
        let mut s = Settings::default();
        let root = Path::new("/p");
        let user = Some(Path::new("/u/wright"));
        assert_eq!(
            agent_dirs(&s, root, user),
            [PathBuf::from("/p/.wright/agents")]
        );
        s.agents.user_agents = true;
        s.agents.import_claude_agents = true;
        assert_eq!(
            agent_dirs(&s, root, user),
            [
                PathBuf::from("/u/wright/agents"),
                PathBuf::from("/p/.claude/agents"),
                PathBuf::from("/p/.wright/agents"),
            ]
        );
        assert_eq!(
            agent_dirs(&s, root, None),
            [
                PathBuf::from("/p/.claude/agents"),
                PathBuf::from("/p/.wright/agents"),
            ]
        );
    }
}
