//! [`Settings`], the merged result, its table-shaped parts
//! ([`PermissionSettings`], [`SandboxSettings`], [`ContextSettings`],
//! [`ModelOverride`]; hooks and verify are in `hook_settings.rs`, MCP in
//! `mcp_settings.rs`, agents in `agent_settings.rs`) and their defaults.
//! How each key reads its value ([`Settings::get`]) is the key table's,
//! in `keys.rs`.

use std::path::PathBuf;

use crate::agent_settings::AgentSettings;
use crate::hook_settings::{HookSettings, VerifySettings};
use crate::kinds::{PermissionMode, Provider, ReasoningEffort, SandboxMode};
use crate::mcp_settings::{McpServerSetting, McpSettings};
use crate::projects::Trust;

/// Default for [`Settings::max_turns`].
pub const DEFAULT_MAX_TURNS: u32 = 50;
/// Default for [`Settings::bash_timeout_secs`].
pub const DEFAULT_BASH_TIMEOUT_SECS: u64 = 120;
/// Largest allowed [`Settings::bash_timeout_secs`].
pub const MAX_BASH_TIMEOUT_SECS: u64 = 600;
/// Default for [`Settings::stream_idle_timeout_ms`]: 60 seconds.
pub const DEFAULT_STREAM_IDLE_TIMEOUT_MS: u64 = 60_000;
/// Default for [`Settings::stream_first_byte_timeout_ms`]: 60 seconds.
pub const DEFAULT_STREAM_FIRST_BYTE_TIMEOUT_MS: u64 = 60_000;
/// Default for [`Settings::instruction_files`].
pub const DEFAULT_INSTRUCTION_FILE: &str = "AGENTS.md";
/// Default for [`ContextSettings::instruction_budget`], in characters.
pub const DEFAULT_INSTRUCTION_BUDGET: usize = 40_000;
/// Default for [`ContextSettings::compact_margin_percent`].
pub const DEFAULT_COMPACT_MARGIN_PERCENT: u8 = 10;

/// The fully resolved settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Wire protocol; `None` lets the CLI pick (e.g. from the model or keys).
    pub provider: Option<Provider>,
    /// Model name.
    pub model: Option<String>,
    /// Server base URL (see CLI.md for the per-provider shape).
    pub base_url: Option<String>,
    /// Output token limit per request.
    pub max_tokens: Option<u32>,
    /// Model requests per task before stopping.
    pub max_turns: u32,
    /// How tool calls are approved.
    pub permission_mode: PermissionMode,
    /// Replaces the base system prompt. Excludes `system_prompt_file`.
    pub system_prompt: Option<String>,
    /// File whose text replaces the base system prompt. Excludes `system_prompt`.
    pub system_prompt_file: Option<PathBuf>,
    /// Text appended to the system prompt.
    pub append_system_prompt: Option<String>,
    /// Default timeout of the bash tool, 1..=600 seconds.
    pub bash_timeout_secs: u64,
    /// Names of instruction files gathered from the repository root down to cwd.
    pub instruction_files: Vec<String>,
    /// Reasoning effort requested from models that support it.
    pub reasoning_effort: Option<ReasoningEffort>,
    /// Extended-thinking budget in tokens (>= 1024); `None` leaves thinking off
    /// unless `reasoning_effort` implies it.
    pub thinking_budget: Option<u32>,
    /// Model used after repeated overload errors (announced, never silent).
    pub fallback_model: Option<String>,
    /// How long a model response's body may send nothing before the
    /// stream counts as stalled (`stream.idle_timeout_secs`, or
    /// `WRIGHT_STREAM_IDLE_TIMEOUT_MS`), in milliseconds.
    pub stream_idle_timeout_ms: u64,
    /// How long a model request may wait for its response to begin
    /// (`stream.first_byte_timeout_secs`, or
    /// `WRIGHT_STREAM_FIRST_BYTE_TIMEOUT_MS`), in milliseconds.
    pub stream_first_byte_timeout_ms: u64,
    /// How the terminal UI rings when it waits for the person (`tui.notify`).
    pub tui_notify: crate::kinds::TuiNotify,
    /// `[permissions]`: rules and extra workspace roots.
    pub permissions: PermissionSettings,
    /// `[sandbox]`: OS confinement of shell commands.
    pub sandbox: SandboxSettings,
    /// `[context]` beyond `instruction_files`: budgets, opt-in files, compaction.
    pub context: ContextSettings,
    /// `[hooks]`: commands run at points of the session.
    pub hooks: HookSettings,
    /// `[verify]`: the checks run after edits, in the same turn.
    pub verify: VerifySettings,
    /// `[mcp]`: how MCP servers are started and trusted.
    pub mcp: McpSettings,
    /// `[mcp_servers.NAME]` tables, ordered by name; a higher layer's
    /// server replaces a lower one's of the same name.
    pub mcp_servers: Vec<McpServerSetting>,
    /// `[agents]`: limits of `Task` subagents and where their definitions are.
    pub agents: AgentSettings,
    /// `[models."name"]` overrides of the model catalog, ordered by name.
    pub models: Vec<ModelOverride>,
    /// Whether the project's own files may loosen safety (see
    /// [`crate::Trust`]). Not a config key: the loader decides it from the
    /// user's `[projects]` table and `--trust-project`.
    pub trust: Trust,
}

/// `[permissions]`. Every list is appended across layers (user, project,
/// local, then flags) with duplicates removed, keeping the first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PermissionSettings {
    /// Rules that allow a tool call without asking (`Bash(npm run test:*)`).
    pub allow: Vec<String>,
    /// Rules that always ask.
    pub ask: Vec<String>,
    /// Rules that always deny; deny beats ask beats allow.
    pub deny: Vec<String>,
    /// Workspace roots besides the project root, absolute once resolved.
    pub additional_roots: Vec<PathBuf>,
}

/// `[sandbox]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxSettings {
    /// How shell commands are confined.
    pub mode: SandboxMode,
    /// Whether sandboxed commands may use the network.
    pub network: bool,
    /// Extra writable directories; appended across layers.
    pub writable_roots: Vec<PathBuf>,
    /// Unix sockets outside the workspace that commands may still reach
    /// with the network off (a rootless Podman socket, say); every other
    /// socket of the host is hidden then. Appended across layers; a
    /// project's entries count only once it is trusted.
    pub allow_sockets: Vec<PathBuf>,
}

/// The `[context]` keys other than `instruction_files`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextSettings {
    /// Total characters of project instructions before truncation (>= 1000).
    pub instruction_budget: usize,
    /// User-level instruction files, loaded only because config lists them.
    pub user_instruction_files: Vec<PathBuf>,
    /// User skill directories opted into, besides `.wright/skills/`.
    pub skill_dirs: Vec<PathBuf>,
    /// Whether the user-level memory is loaded.
    pub user_memory: bool,
    /// Whether the conversation is compacted automatically near the window.
    pub auto_compact: bool,
    /// Tokens of recent turns kept verbatim by compaction; `None` derives it
    /// from the model's window.
    pub keep_recent_tokens: Option<u64>,
    /// Safety margin below the window, in percent (0..=50), at which
    /// automatic compaction starts.
    pub compact_margin_percent: u8,
}

impl Default for ContextSettings {
    fn default() -> Self {
        ContextSettings {
            instruction_budget: DEFAULT_INSTRUCTION_BUDGET,
            user_instruction_files: Vec::new(),
            skill_dirs: Vec::new(),
            user_memory: false,
            auto_compact: true,
            keep_recent_tokens: None,
            compact_margin_percent: DEFAULT_COMPACT_MARGIN_PERCENT,
        }
    }
}

/// One `[models."name"]` table: catalog values the user overrides or adds.
/// Unset fields fall back to the catalog (or a lower config layer).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelOverride {
    /// The model name, as sent to the provider.
    pub name: String,
    /// Context window in tokens (>= 1024).
    pub context_window: Option<u64>,
    /// Largest output per request in tokens (>= 1).
    pub max_output: Option<u32>,
    /// USD per million input tokens.
    pub input_price: Option<f64>,
    /// USD per million output tokens.
    pub output_price: Option<f64>,
    /// USD per million cache-read tokens.
    pub cache_read_price: Option<f64>,
    /// USD per million cache-write tokens.
    pub cache_write_price: Option<f64>,
    /// Chat Completions: send the system prompt with the `developer` role.
    pub developer_role: Option<bool>,
    /// Chat Completions: send `max_completion_tokens` instead of `max_tokens`.
    pub max_completion_tokens: Option<bool>,
    /// Chat Completions: ask for usage in the stream (`stream_options`).
    pub stream_usage: Option<bool>,
}

impl ModelOverride {
    /// Overwrites the fields `higher` sets, keeping the others.
    pub(crate) fn merge(&mut self, higher: ModelOverride) {
        fn take<T>(mine: &mut Option<T>, theirs: Option<T>) {
            if theirs.is_some() {
                *mine = theirs;
            }
        }
        take(&mut self.context_window, higher.context_window);
        take(&mut self.max_output, higher.max_output);
        take(&mut self.input_price, higher.input_price);
        take(&mut self.output_price, higher.output_price);
        take(&mut self.cache_read_price, higher.cache_read_price);
        take(&mut self.cache_write_price, higher.cache_write_price);
        take(&mut self.developer_role, higher.developer_role);
        take(
            &mut self.max_completion_tokens,
            higher.max_completion_tokens,
        );
        take(&mut self.stream_usage, higher.stream_usage);
    }

    /// The set fields as a TOML table, in declaration order.
    pub(crate) fn to_table(&self) -> toml::Table {
        let mut t = toml::Table::new();
        let mut int = |k: &str, v: Option<u64>| {
            if let Some(v) = v {
                t.insert(k.into(), toml::Value::Integer(int_value(v)));
            }
        };
        int("context_window", self.context_window);
        int("max_output", self.max_output.map(u64::from));
        for (k, v) in [
            ("input_price", self.input_price),
            ("output_price", self.output_price),
            ("cache_read_price", self.cache_read_price),
            ("cache_write_price", self.cache_write_price),
        ] {
            if let Some(v) = v {
                t.insert(k.into(), toml::Value::Float(v));
            }
        }
        for (k, v) in [
            ("developer_role", self.developer_role),
            ("max_completion_tokens", self.max_completion_tokens),
            ("stream_usage", self.stream_usage),
        ] {
            if let Some(v) = v {
                t.insert(k.into(), toml::Value::Boolean(v));
            }
        }
        t
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            provider: None,
            model: None,
            base_url: None,
            max_tokens: None,
            max_turns: DEFAULT_MAX_TURNS,
            permission_mode: PermissionMode::Default,
            system_prompt: None,
            system_prompt_file: None,
            append_system_prompt: None,
            bash_timeout_secs: DEFAULT_BASH_TIMEOUT_SECS,
            instruction_files: vec![DEFAULT_INSTRUCTION_FILE.to_owned()],
            reasoning_effort: None,
            thinking_budget: None,
            fallback_model: None,
            stream_idle_timeout_ms: DEFAULT_STREAM_IDLE_TIMEOUT_MS,
            stream_first_byte_timeout_ms: DEFAULT_STREAM_FIRST_BYTE_TIMEOUT_MS,
            tui_notify: crate::kinds::TuiNotify::Bell,
            permissions: PermissionSettings::default(),
            sandbox: SandboxSettings::default(),
            context: ContextSettings::default(),
            hooks: HookSettings::default(),
            verify: VerifySettings::default(),
            mcp: McpSettings::default(),
            mcp_servers: Vec::new(),
            agents: AgentSettings::default(),
            models: Vec::new(),
            trust: Trust::Untrusted,
        }
    }
}

impl Settings {
    /// Whether the project is trusted: the one question every feature that
    /// reads project files able to loosen safety (`.mcp.json`, hooks,
    /// agents, commands, approvals saved in `config.local.toml`) asks
    /// before honouring them.
    pub fn project_trusted(&self) -> bool {
        self.trust.is_trusted()
    }

    /// The override for `name`, if config has one.
    pub fn model_override(&self, name: &str) -> Option<&ModelOverride> {
        self.models.iter().find(|m| m.name == name)
    }
}

/// TOML integers are i64; values beyond that only come from huge u64
/// settings, which are capped rather than wrapped negative.
fn int_value(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_contract() {
        let s = Settings::default();
        assert_eq!(s.max_turns, 50);
        assert_eq!(s.bash_timeout_secs, 120);
        assert_eq!(s.permission_mode, PermissionMode::Default);
        assert_eq!(s.instruction_files, vec!["AGENTS.md".to_owned()]);
        assert_eq!(s.provider, None);
        assert_eq!(s.reasoning_effort, None);
        assert_eq!(s.thinking_budget, None);
        assert_eq!(s.fallback_model, None);
        assert_eq!(s.permissions, PermissionSettings::default());
        assert_eq!(s.sandbox.mode, SandboxMode::WorkspaceWrite);
        assert!(!s.sandbox.network);
        assert!(s.sandbox.writable_roots.is_empty());
        assert_eq!(s.context.instruction_budget, 40_000);
        assert!(s.context.user_instruction_files.is_empty());
        assert!(s.context.skill_dirs.is_empty());
        assert!(!s.context.user_memory);
        assert!(s.context.auto_compact);
        assert_eq!(s.context.keep_recent_tokens, None);
        assert_eq!(s.context.compact_margin_percent, 10);
        assert!(!s.hooks.import_claude_settings);
        assert!(s.hooks.groups.is_empty());
        assert!(s.verify.enabled);
        assert_eq!(s.verify.timeout_secs, 120);
        assert!(s.verify.checks.is_empty());
        assert!(!s.mcp.trust_project_servers);
        assert_eq!(s.mcp.tool_search, crate::kinds::McpToolSearch::Auto);
        assert_eq!(s.mcp.startup_timeout_ms, 30_000);
        assert_eq!(s.mcp.tool_timeout_ms, 600_000);
        assert!(!s.mcp.trust_read_only_hints);
        assert!(s.mcp_servers.is_empty());
        assert_eq!(s.agents.max_turns, 30);
        assert_eq!(s.agents.max_concurrent, 4);
        assert_eq!(s.agents.isolation, crate::kinds::AgentIsolation::None);
        assert!(!s.agents.import_claude_agents);
        assert!(!s.agents.user_agents);
        assert!(s.models.is_empty());
    }

    #[test]
    fn model_merge_is_field_wise_and_table_lists_set_fields() {
        let mut m = ModelOverride {
            name: "m".into(),
            context_window: Some(1024),
            input_price: Some(1.0),
            ..ModelOverride::default()
        };
        m.merge(ModelOverride {
            name: "m".into(),
            input_price: Some(2.5),
            max_output: Some(7),
            ..ModelOverride::default()
        });
        assert_eq!(m.context_window, Some(1024));
        assert_eq!(m.input_price, Some(2.5));
        assert_eq!(m.max_output, Some(7));
        let t = m.to_table();
        assert_eq!(t.len(), 3);
        assert_eq!(t["context_window"].as_integer(), Some(1024));
        assert_eq!(t["input_price"].as_float(), Some(2.5));
    }
}
