//! wright-context: everything the model sees besides the conversation, and
//! how a long conversation is shrunk to fit.
//!
//! - [`assemble`] builds the system prompt as labelled [`Part`]s in a fixed
//!   order (base prompt → environment → instructions → skills → memory →
//!   appended text), so `wright context` can show every byte with its source.
//! - [`instructions`] gathers `AGENTS.md` files, rules and `@path` imports
//!   under a character budget.
//! - [`agents`] holds the subagent definitions a `Task` call can start:
//!   the built-in `general` and `explore`, and Markdown files in Claude
//!   Code's format.
//! - [`commands`] loads custom slash commands (`.wright/commands/*.md`,
//!   Claude Code's format) and expands their arguments.
//! - [`skills`] and [`memory`] discover `SKILL.md` files and memory notes
//!   (markdown with YAML frontmatter); only their index enters the prompt.
//! - [`compaction`] holds the pure functions of conversation compaction; the
//!   caller makes the model call for the summary.
//! - [`report`] renders what `wright context` prints.
//!
//! Everything here is synchronous, small I/O and no model calls.

pub mod agents;
mod assemble;
mod base;
pub mod commands;
mod comments;
pub mod compaction;
pub mod environment;
mod frontmatter;
mod imports;
pub mod instructions;
pub mod memory;
pub mod report;
pub mod skills;
mod summary;
mod warning;

pub use agents::{
    AgentDef, AgentSource, agents_from_json, builtin_agents, discover_agents, parse_agent,
};
pub use assemble::{BaseOverride, Context, ContextInputs, Part, PartKind, assemble};
pub use base::BASE_PROMPT;
pub use environment::{Environment, GitProbe, GitSnapshot};
pub use instructions::{DEFAULT_INSTRUCTION_BUDGET, InstructionOptions};
pub use memory::{
    MemoryDir, MemoryError, MemoryNote, MemoryScope, MemoryStore, MemoryType, NewNote,
};
pub use report::{ContextReport, render_report, report, thousands};
pub use skills::{Skill, discover_skills, parse_skill};
pub use warning::Warning;

/// Token estimate used everywhere a provider count is not available:
/// characters divided by four, rounded up.
pub fn estimate_tokens_for_chars(chars: usize) -> usize {
    chars.div_ceil(4)
}
