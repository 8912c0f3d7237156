//! What a session is started with: the public settings front ends fill in
//! (model, limits, policy, compaction, hooks, system prompt). They live apart
//! from the actor and the turn loop so every part of the loop can read them
//! without importing the code that runs it.

use std::path::PathBuf;
use std::sync::Arc;

use wright_context::ContextInputs;
use wright_hooks::hook::{HookEnv, Hooks, SessionStartSource};
use wright_hooks::verify::Verifier;
use wright_llm::{Catalog, ReasoningEffort, RetryPolicy};
use wright_permissions::PolicyInput;
use wright_sandbox::SandboxContext;
use wright_tools::{BackgroundJobs, OutputLimits};

/// Everything a session needs besides its services.
#[derive(Debug, Clone)]
pub struct SessionOptions {
    /// Session id (a UUIDv7 string).
    pub session_id: String,
    /// Model name sent with each request.
    pub model: String,
    /// Working directory; tools resolve relative paths against it.
    pub cwd: PathBuf,
    /// The system prompt, fixed or re-assembled each turn.
    pub system_prompt: SystemPrompt,
    /// Model prices and windows, for cost.
    pub catalog: Arc<Catalog>,
    /// When to retry a failed request.
    pub retry: RetryPolicy,
    /// Model to switch to after repeated overload errors.
    pub fallback_model: Option<String>,
    /// Reasoning effort for models that take one.
    pub reasoning_effort: Option<ReasoningEffort>,
    /// Extended-thinking budget (Anthropic).
    pub thinking_budget: Option<u32>,
    /// When and how to compact.
    pub compaction: CompactionOptions,
    /// Output token cap per request.
    pub max_tokens: u32,
    /// The user chose `max_tokens` (`--max-tokens`, `max_tokens` in a
    /// config): an answer cut there is kept as it is, not continued past it.
    pub max_tokens_chosen: bool,
    /// Model requests allowed per user turn.
    pub max_turns: u32,
    /// Stop before the next request once the session has cost this much (USD).
    pub max_budget_usd: Option<f64>,
    /// Permission mode, rules, workspace roots and whether approvals can be asked.
    pub policy: PolicyInput,
    /// Where "always allow for this project" rules are written.
    pub local_config: PathBuf,
    /// The OS sandbox for shell commands, when one applies.
    pub sandbox: Option<SandboxContext>,
    /// Output limits and timeouts for tools.
    pub limits: OutputLimits,
    /// Where tools spill outputs too large for the model.
    pub spill_dir: PathBuf,
    /// The session's background commands: shared with the front end (for
    /// `/context`), stopped when the session ends.
    pub jobs: Arc<BackgroundJobs>,
    /// User hooks and the verifier.
    pub extensions: Extensions,
    /// A JSON schema the final answer of each user turn must satisfy
    /// (`--json-schema`): the model is told it, its answer is parsed and
    /// validated, and an invalid answer is sent back once with the reasons.
    /// Check it first with [`crate::check_json_schema`]. Subagents never get it.
    pub json_schema: Option<serde_json::Value>,
    /// The attached editor's unsaved buffers (ACP): `read` shows them and
    /// `write`/`edit` refuse to overwrite them.
    pub editor: Option<Arc<dyn wright_tools::EditorBuffers>>,
}

/// User hooks (Claude Code's contract) and the same-turn verifier.
#[derive(Debug, Clone)]
pub struct Extensions {
    /// The merged hooks; empty runs none.
    pub hooks: Arc<Hooks>,
    /// Where hooks run (the project root) and what they must not see.
    pub hook_env: HookEnv,
    /// How the session started, for `SessionStart` hooks.
    pub start: SessionStartSource,
    /// The checker run after edits; `None` when the verifier is off.
    pub verifier: Option<Arc<Verifier>>,
    /// The session's MCP servers; `None` when none are configured.
    pub mcp: Option<McpSetup>,
    /// The agent types the `Task` tool starts; `None` offers no `Task`.
    pub agents: Option<Arc<crate::task::Agents>>,
    /// Opens each subagent's transcript file; `None` keeps them unrecorded.
    pub transcripts: Option<Transcripts>,
}

/// A subagent about to start, for its transcript's header.
#[derive(Debug, Clone)]
pub struct SubagentStart {
    /// Its agent path: `root/explore-1`.
    pub agent: String,
    /// The parent's `Task` call that started it.
    pub parent_call_id: String,
    /// Its agent type: `explore`.
    pub agent_type: String,
    /// The system prompt it is given.
    pub system_prompt: String,
    /// The model it uses.
    pub model: String,
}

/// Opens the transcript file of the subagent described, if it can.
pub type OpenTranscript =
    dyn Fn(&SubagentStart) -> Option<wright_store::SessionWriter> + Send + Sync;

/// Opens a subagent's transcript (the front end owns the session store).
#[derive(Clone)]
pub struct Transcripts(pub Arc<OpenTranscript>);

impl std::fmt::Debug for Transcripts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Transcripts")
    }
}

/// The MCP servers a session uses and how their tools are offered.
#[derive(Clone)]
pub struct McpSetup {
    /// The servers. The front end starts [`wright_mcp::McpManager::connect_all`]
    /// in a task of its own; the core waits (at most `startup_timeout`)
    /// for servers still starting before a model request, and shuts them
    /// down when the session ends.
    pub manager: Arc<wright_mcp::McpManager>,
    /// Longest wait for servers still starting before a model request.
    pub startup_timeout: std::time::Duration,
    /// Longest run of one MCP tool call.
    pub tool_timeout: std::time::Duration,
    /// When tool schemas are deferred behind the `MCPSearch` tool.
    pub tool_search: ToolSearch,
    /// Whether a server's `readOnlyHint` makes a tool read-only for the
    /// permission check (it then runs without asking in `default` mode).
    pub read_only_hints: HintTrust,
}

impl std::fmt::Debug for McpSetup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpSetup")
            .field("servers", &self.manager.statuses().len())
            .field("startup_timeout", &self.startup_timeout)
            .field("tool_timeout", &self.tool_timeout)
            .field("tool_search", &self.tool_search)
            .field("read_only_hints", &self.read_only_hints)
            .finish()
    }
}

impl McpSetup {
    /// Defaults: 30 s start-up, 10 min per call, tool search `auto`, hints ignored.
    pub fn new(manager: Arc<wright_mcp::McpManager>) -> Self {
        Self {
            manager,
            startup_timeout: std::time::Duration::from_secs(30),
            tool_timeout: std::time::Duration::from_secs(600),
            tool_search: ToolSearch::Auto,
            read_only_hints: HintTrust::Ignore,
        }
    }
}

/// When MCP tool schemas are sent in full or deferred behind `MCPSearch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolSearch {
    /// Deferred when their schemas would take more than 10% of the context window.
    #[default]
    Auto,
    /// Always deferred.
    On,
    /// Never deferred.
    Off,
}

/// Whether MCP `readOnlyHint` annotations are believed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HintTrust {
    /// Every MCP tool counts as one that acts (asks in `default` mode).
    #[default]
    Ignore,
    /// A tool marked `readOnlyHint: true` (and not destructive) counts as read-only.
    Trust,
}

impl Extensions {
    /// No hooks and no verifier, for a session in `project_dir`.
    pub fn none(project_dir: impl Into<PathBuf>) -> Self {
        Self {
            hooks: Arc::default(),
            hook_env: HookEnv::new(project_dir),
            start: SessionStartSource::Startup,
            verifier: None,
            mcp: None,
            agents: None,
            transcripts: None,
        }
    }
}

/// Where the system prompt comes from.
#[derive(Debug, Clone)]
pub enum SystemPrompt {
    /// This text, every turn.
    Fixed(String),
    /// Assembled from these inputs at the start of every turn, so edits to
    /// instruction files take effect.
    Assembled(Box<ContextInputs>),
}

/// How and when to compact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompactionOptions {
    /// Compact automatically when the threshold is passed.
    pub auto: bool,
    /// The model's context window in tokens.
    pub context_window: u64,
    /// Recent conversation kept verbatim, in tokens.
    pub keep_recent_tokens: u64,
    /// Head room below the window, in percent.
    pub margin_percent: u8,
}

impl Default for CompactionOptions {
    fn default() -> Self {
        Self {
            auto: true,
            context_window: 128_000,
            keep_recent_tokens: wright_context::compaction::DEFAULT_KEEP_RECENT_TOKENS,
            margin_percent: 10,
        }
    }
}
