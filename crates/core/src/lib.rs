//! The agent core: the session actor and its turn loop (model stream → tool
//! calls → permission check → tool run → results back → repeat), tool
//! dispatch, the interim permission policy and the system prompt.
//!
//! The core never prints and never reads the terminal: front ends send
//! [`wright_protocol::Op`]s through a [`SessionHandle`] and consume the
//! [`wright_protocol::Event`]s it emits.

mod approval;
mod compaction;
mod context;
mod dispatch;
mod emitter;
mod file_mentions;
mod hook_points;
mod interaction;
mod manual;
mod mcp_call;
mod mcp_resources;
mod options;
mod output_limit;
mod recorder;
mod remember;
mod session;
mod spent;
mod steering;
mod structured;
mod task;
mod task_worktree;
mod text;
mod tool_hooks;
mod tool_search;
mod toolbox;
mod turn;
mod user_shell;
mod verify_step;

pub use mcp_call::spec_of as mcp_tool_spec;
pub use options::{
    CompactionOptions, Extensions, HintTrust, McpSetup, SessionOptions, SubagentStart,
    SystemPrompt, ToolSearch, Transcripts,
};
pub use remember::RememberTool;

/// The tools a session's requests carry besides its MCP servers': the
/// built-ins (without the edit tools in plan mode), `Task` when there are
/// agent types, `ExitPlanMode` in plan mode and `AskUserQuestion` when
/// someone can answer. What `/context` and `wright context` count.
pub fn offered_tools(
    builtin: std::sync::Arc<wright_tools::ToolRegistry>,
    agents: Option<std::sync::Arc<Agents>>,
    mode: wright_permissions::Mode,
    can_ask: bool,
) -> Vec<wright_protocol::ToolSpec> {
    toolbox::ToolBox::new(builtin, None, agents).own_specs(toolbox::Asking { mode, can_ask })
}
pub use session::{Persistence, SessionHandle, spawn_session};
pub use structured::check_json_schema;
pub use task::{
    Agents, resolve_model as subagent_model, subagent_prompt, subagent_prompt_parts,
    tool_list_warning,
};
