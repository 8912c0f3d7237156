//! The resolved `[agents]` table ([`AgentSettings`]): limits and placement
//! of `Task` subagents (which directories hold their definitions is
//! `agent_dirs.rs`, which needs the whole settings).
//!
//! None of these keys needs the project's trust: a definition only narrows
//! what a child may do (it runs with the parent's permissions, never
//! looser), so reading more of them loosens nothing.

use crate::kinds::AgentIsolation;

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
