//! The `[agents]` table of a config file: its typed shape, the keys
//! allowed in it and the messages for wrong types (used by `file.rs`), and
//! its validation into [`Assign`]s.

use serde::Deserialize;

use crate::assign::{Assign, Range};
use crate::builder::Builder;
use crate::builder::S;
use crate::error::ConfigError;
use crate::kinds::AgentIsolation;

/// Keys allowed in `[agents]`.
const AGENTS_KEYS: [&str; 5] = [
    "max_turns",
    "max_concurrent",
    "isolation",
    "import_claude_agents",
    "user_agents",
];

/// The keys allowed in the table at `path`; `None` outside `[agents]`.
pub(crate) fn allowed_keys(path: &[&str]) -> Option<&'static [&'static str]> {
    match path {
        ["agents"] => Some(&AGENTS_KEYS),
        _ => None,
    }
}

/// "expected …" for a key under `[agents]` whose value has the wrong
/// type; `None` for other keys.
pub(crate) fn expected_for(path: &[&str]) -> Option<String> {
    let message = match path {
        ["agents"] => "expected a table".to_owned(),
        ["agents", "max_turns"] => Range::POSITIVE_U32.describe(),
        ["agents", "max_concurrent"] => Range::AGENT_MAX_CONCURRENT.describe(),
        ["agents", "isolation"] => AgentIsolation::expected(),
        ["agents", "import_claude_agents" | "user_agents"] => "expected true or false".to_owned(),
        ["agents", ..] => "expected a string".to_owned(),
        _ => return None,
    };
    Some(message)
}

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
        let n = b.num("agents.max_turns", v, Range::POSITIVE_U32)?;
        b.push(Assign::AgentMaxTurns(n));
    }
    if let Some(v) = a.max_concurrent {
        let n = b.num("agents.max_concurrent", v, Range::AGENT_MAX_CONCURRENT)?;
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
