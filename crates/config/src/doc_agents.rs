//! The `[agents]` table of a config file: its typed shape and its
//! validation into [`Assign`]s (its keys, their ranges and the messages
//! for wrong types are the key table's, in `keys.rs`).

use serde::Deserialize;

use crate::assign::Assign;
use crate::builder::{Builder, S};
use crate::error::ConfigError;
use crate::keys::range_of;
use crate::kinds::AgentIsolation;

/// `[agents]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AgentsDoc {
    max_turns: S<i64>,
    max_concurrent: S<i64>,
    isolation: S<String>,
    import_claude_agents: S<bool>,
    user_agents: S<bool>,
}

/// `[agents]`: one assignment per key set.
pub(crate) fn agents(b: &mut Builder<'_>, a: AgentsDoc) -> Result<(), ConfigError> {
    if let Some(v) = a.max_turns {
        let n = b.num(
            "agents.max_turns",
            v,
            const { range_of("agents.max_turns") },
        )?;
        b.push(Assign::AgentMaxTurns(n));
    }
    if let Some(v) = a.max_concurrent {
        let n = b.num(
            "agents.max_concurrent",
            v,
            const { range_of("agents.max_concurrent") },
        )?;
        b.push(Assign::AgentMaxConcurrent(n));
    }
    if let Some(v) = a.isolation {
        let i = b.word(
            "agents.isolation",
            v,
            AgentIsolation::parse,
            AgentIsolation::expected,
        )?;
        b.push(Assign::AgentIsolation(i));
    }
    if let Some(v) = a.import_claude_agents {
        b.push(Assign::ImportClaudeAgents(v.into_inner()));
    }
    if let Some(v) = a.user_agents {
        b.push(Assign::UserAgents(v.into_inner()));
    }
    Ok(())
}

#[cfg(test)]
#[path = "doc_agents_tests.rs"]
mod tests;
