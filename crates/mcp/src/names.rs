//! Exposed tool names: `mcp__<server>__<tool>` sanitized to the characters
//! and length every provider accepts (`[A-Za-z0-9_-]`, at most 64), with
//! collisions resolved deterministically, and the map back to the server and
//! the tool's original name (needed to call it).

use std::collections::{BTreeMap, BTreeSet};

/// The longest tool name the providers accept.
pub const MAX_TOOL_NAME_LEN: usize = 64;

/// The prefix of every MCP tool name (and of permission rules on them).
pub const PREFIX: &str = "mcp__";

/// The server and original tool name behind an exposed name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ToolRef {
    /// The server's configured name.
    pub server: String,
    /// The tool's name as the server spells it.
    pub tool: String,
}

/// Exposed names ↔ (server, tool), built from all servers' tools at once so
/// collisions are settled the same way every time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolNames {
    by_exposed: BTreeMap<String, ToolRef>,
    by_ref: BTreeMap<ToolRef, String>,
}

impl ToolNames {
    /// Assigns names. Pairs are taken in sorted (server, tool) order: the
    /// first one to want a name gets it, later ones get `_2`, `_3`, … (kept
    /// within the length limit and clear of every unsuffixed name).
    pub fn build(tools: impl IntoIterator<Item = ToolRef>) -> Self {
        let sorted: BTreeSet<ToolRef> = tools.into_iter().collect();
        let wanted: Vec<(ToolRef, String)> = sorted
            .into_iter()
            .map(|r| {
                let base = base_name(&r.server, &r.tool);
                (r, base)
            })
            .collect();
        let all_bases: BTreeSet<&str> = wanted.iter().map(|(_, b)| b.as_str()).collect();
        let mut names = Self::default();
        for (r, base) in &wanted {
            let name = if names.by_exposed.contains_key(base) {
                (2u32..)
                    .map(|n| with_suffix(base, n))
                    .find(|c| !names.by_exposed.contains_key(c) && !all_bases.contains(c.as_str()))
                    .unwrap_or_else(|| base.clone())
            } else {
                base.clone()
            };
            names.by_ref.insert(r.clone(), name.clone());
            names.by_exposed.insert(name, r.clone());
        }
        names
    }

    /// The server and tool behind an exposed name.
    pub fn resolve(&self, exposed: &str) -> Option<&ToolRef> {
        self.by_exposed.get(exposed)
    }

    /// The exposed name of a server's tool.
    pub fn exposed(&self, server: &str, tool: &str) -> Option<&str> {
        self.by_ref
            .get(&ToolRef {
                server: server.to_owned(),
                tool: tool.to_owned(),
            })
            .map(String::as_str)
    }

    /// All exposed names, sorted.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ToolRef)> {
        self.by_exposed.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// How many tools are named.
    pub fn len(&self) -> usize {
        self.by_exposed.len()
    }

    /// Whether no tool is named.
    pub fn is_empty(&self) -> bool {
        self.by_exposed.is_empty()
    }
}

/// `mcp__<server>__<tool>` with every other character replaced by `_`,
/// cut to [`MAX_TOOL_NAME_LEN`].
pub fn base_name(server: &str, tool: &str) -> String {
    let mut name: String = format!("{PREFIX}{server}__{tool}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    // Every character is ASCII now, so byte length = character count.
    name.truncate(MAX_TOOL_NAME_LEN);
    name
}

fn with_suffix(base: &str, n: u32) -> String {
    let suffix = format!("_{n}");
    let keep = MAX_TOOL_NAME_LEN
        .saturating_sub(suffix.len())
        .min(base.len());
    format!("{}{suffix}", &base[..keep])
}

#[cfg(test)]
#[path = "names_tests.rs"]
mod tests;
