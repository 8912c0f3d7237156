//! Command-line arguments (the contract in CLI.md): the flags of a run
//! and their value types here, the subcommands in [`commands`].

mod commands;

pub use commands::*;

use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use wright_config::{Overrides, PermissionMode, Provider, ReasoningEffort, SandboxMode};

/// wright: a coding agent for the terminal.
#[derive(Debug, Parser)]
#[command(name = "wright", version = env!("WRIGHT_LONG_VERSION"), about, long_about = None)]
pub struct Args {
    /// Run one task and exit. The prompt may also come from stdin; with both,
    /// stdin is appended to the prompt as context.
    #[arg(short = 'p', long = "print", value_name = "PROMPT", num_args = 0..=1, default_missing_value = "")]
    pub print: Option<String>,

    /// Wire protocol of the model server.
    #[arg(long, value_enum, global = true)]
    pub provider: Option<ProviderArg>,

    /// Server base URL (Anthropic: without /v1; OpenAI: including /v1).
    #[arg(long, value_name = "URL", global = true)]
    pub base_url: Option<String>,

    /// Model name.
    #[arg(long, global = true)]
    pub model: Option<String>,

    /// Output token cap per model request.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), global = true)]
    pub max_tokens: Option<u32>,

    /// Model requests allowed per task.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), global = true)]
    pub max_turns: Option<u32>,

    /// What may run without asking.
    #[arg(long, value_enum, value_name = "MODE", global = true)]
    pub permission_mode: Option<ModeArg>,

    /// Claude Code's spelling of `--permission-mode bypass`: everything runs
    /// without asking (the guards and the OS sandbox still apply).
    #[arg(
        long = "dangerously-skip-permissions",
        alias = "dangerously_skip_permissions",
        conflicts_with = "permission_mode",
        global = true
    )]
    pub dangerously_skip_permissions: bool,

    /// Replace the built-in system prompt.
    #[arg(
        long,
        value_name = "TEXT",
        conflicts_with = "system_prompt_file",
        global = true
    )]
    pub system_prompt: Option<String>,

    /// Replace the built-in system prompt with a file's contents.
    #[arg(long, value_name = "PATH", global = true)]
    pub system_prompt_file: Option<PathBuf>,

    /// Text appended to the system prompt.
    #[arg(long, value_name = "TEXT", global = true)]
    pub append_system_prompt: Option<String>,

    /// Let matching tool calls run without asking (repeatable), e.g. 'Bash(npm run test:*)'.
    #[arg(long, value_name = "RULE", global = true)]
    pub allow: Vec<String>,

    /// Never run matching tool calls (repeatable), e.g. 'Read(.env*)'.
    #[arg(long, value_name = "RULE", global = true)]
    pub deny: Vec<String>,

    /// Another directory the tools may work in, as a workspace root of its
    /// own (repeatable; Claude Code's flag).
    #[arg(long = "add-dir", value_name = "DIR", global = true)]
    pub add_dir: Vec<std::path::PathBuf>,

    /// Claude Code's spelling of --allow: rules separated by commas or
    /// spaces, e.g. "Read,Grep Bash(git diff:*)" (repeatable).
    #[arg(
        long = "allowedTools",
        visible_alias = "allowed-tools",
        value_name = "RULES",
        global = true
    )]
    pub allowed_tools: Vec<String>,

    /// Claude Code's spelling of --deny: rules separated by commas or
    /// spaces (repeatable).
    #[arg(
        long = "disallowedTools",
        visible_alias = "disallowed-tools",
        value_name = "RULES",
        global = true
    )]
    pub disallowed_tools: Vec<String>,

    /// OS sandbox for shell commands.
    #[arg(long, value_enum, value_name = "MODE", global = true)]
    pub sandbox: Option<SandboxArg>,

    /// Reasoning effort for models that take one.
    #[arg(long, value_enum, value_name = "LEVEL", global = true)]
    pub reasoning_effort: Option<EffortArg>,

    /// Claude Code's spelling of --reasoning-effort; xhigh and max mean high.
    #[arg(
        long,
        value_enum,
        value_name = "LEVEL",
        conflicts_with = "reasoning_effort",
        global = true
    )]
    pub effort: Option<ClaudeEffortArg>,

    /// Extended thinking (Anthropic): a budget in tokens (at least 1024),
    /// `adaptive` (on, with the configured budget or 8000) or `disabled`.
    #[arg(long, value_name = "TOKENS|adaptive|disabled", value_parser = parse_thinking, global = true)]
    pub thinking: Option<ThinkingArg>,

    /// Claude Code's thinking budget in tokens: 0 turns thinking off;
    /// 1 to 1023 are raised to 1024, the smallest budget providers take.
    #[arg(long, value_name = "N", conflicts_with = "thinking", global = true)]
    pub max_thinking_tokens: Option<u32>,

    /// Claude Code's settings as a file or a JSON string: permissions
    /// (allow, deny, ask, defaultMode, additionalDirectories), hooks, env
    /// and model; applied just below the other flags.
    #[arg(long, value_name = "FILE|JSON", global = true)]
    pub settings: Option<String>,

    /// Which config files load: a comma list of user, project and local
    /// ("" loads none; default all).
    #[arg(long, value_name = "LIST", global = true)]
    pub setting_sources: Option<String>,

    /// The built-in tools offered to the model: "" for none, `default`
    /// for all, or a comma list of names (Claude Code's flag).
    #[arg(long, value_name = "LIST", global = true)]
    pub tools: Option<String>,

    /// Make the final answer JSON valid against this JSON schema (given as
    /// a JSON string); it is returned as `structured_output`.
    #[arg(long, value_name = "SCHEMA")]
    pub json_schema: Option<String>,

    /// More subagent types for this run, as JSON in Claude Code's shape:
    /// {"name": {"description": …, "prompt": …, "tools": […], "model": …}}.
    #[arg(long, value_name = "JSON", global = true)]
    pub agents: Option<String>,

    /// Model to switch to (with a notice) after repeated overload errors.
    #[arg(long, value_name = "NAME", global = true)]
    pub fallback_model: Option<String>,

    /// Show more detail about tool calls on stderr.
    #[arg(long)]
    pub verbose: bool,

    /// Print-mode output: text, one JSON result, or NDJSON events.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text")]
    pub output_format: OutputFormat,

    /// Print-mode input: the prompt as text, or NDJSON user messages on stdin.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text")]
    pub input_format: InputFormat,

    /// With stream-json output, also emit streaming deltas.
    #[arg(long)]
    pub include_partial_messages: bool,

    /// Ask this MCP tool, or the SDK over stdio (`stdio`), instead of a person.
    #[arg(long, value_name = "NAME")]
    pub permission_prompt_tool: Option<String>,

    /// With stream-json input, echo each user message back on stdout.
    #[arg(long)]
    pub replay_user_messages: bool,

    /// Claude Code's switch for hook lines in stream-json; wright always
    /// writes them (`system`/`hook_response`), so it changes nothing.
    #[arg(long, hide = true)]
    pub include_hook_events: bool,

    /// Continue the latest session of this directory.
    #[arg(short = 'c', long = "continue")]
    pub continue_latest: bool,

    /// Continue the session with this id (a unique prefix is enough);
    /// without one, pick one of this project's sessions in the terminal UI.
    #[arg(
        short = 'r',
        long,
        value_name = "ID",
        num_args = 0..=1,
        default_missing_value = "",
        conflicts_with = "continue_latest"
    )]
    pub resume: Option<String>,

    /// With --continue or --resume: continue in a new session that starts as a copy.
    #[arg(long)]
    pub fork_session: bool,

    /// The id of the new session (a UUID no session has yet; Claude Code's flag).
    #[arg(long, value_name = "UUID")]
    pub session_id: Option<String>,

    /// Stop when the session's cost passes this many US dollars.
    #[arg(long, value_name = "USD")]
    pub max_budget_usd: Option<f64>,

    /// Apply this project's own config in full for this run, including the
    /// settings that loosen safety (nothing is remembered; see `wright trust`).
    #[arg(long, global = true)]
    pub trust_project: bool,

    /// Do not run the verifier (the checker for edited files) after edits.
    #[arg(long)]
    pub no_verify: bool,

    /// MCP servers from a file or a JSON string in `.mcp.json`'s shape
    /// ({"mcpServers": {…}}); repeatable, later ones win by name.
    #[arg(long, value_name = "FILE|JSON", global = true)]
    pub mcp_config: Vec<String>,

    /// Use only the MCP servers of --mcp-config, none from config files or .mcp.json.
    #[arg(long, global = true)]
    pub strict_mcp_config: bool,

    /// `--settings`, read and checked at start-up (see `main`).
    #[arg(skip)]
    pub parsed_settings: Option<wright_config::FlagSettings>,

    /// `--setting-sources`, checked at start-up (see `main`).
    #[arg(skip)]
    pub parsed_sources: Option<wright_config::SettingSources>,

    /// A subcommand instead of a task.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// `--output-format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// The answer as text on stdout; activity on stderr.
    Text,
    /// One JSON result object.
    Json,
    /// NDJSON events, result last.
    StreamJson,
}

/// `--input-format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// A prompt.
    Text,
    /// NDJSON user messages.
    StreamJson,
}

/// `--sandbox` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SandboxArg {
    /// Commands may not write anywhere.
    ReadOnly,
    /// Commands may write in the workspace and temp dirs; no network.
    WorkspaceWrite,
    /// No OS sandbox.
    Full,
}

/// `--reasoning-effort` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum EffortArg {
    /// Least reasoning.
    Low,
    /// The usual.
    Medium,
    /// Most reasoning.
    High,
}

/// `--effort` values (Claude Code's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClaudeEffortArg {
    /// Least reasoning.
    Low,
    /// The usual.
    Medium,
    /// More reasoning.
    High,
    /// Claude Code's extra-high level; wright's highest is `high`.
    Xhigh,
    /// Claude Code's maximum; wright's highest is `high`.
    Max,
}

/// `--thinking` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThinkingArg {
    /// A budget in tokens.
    Budget(u32),
    /// Thinking on: the configured budget, or [`ADAPTIVE_THINKING_BUDGET`].
    Adaptive,
    /// Thinking off, whatever config says.
    Disabled,
}

/// The budget `--thinking adaptive` uses when config sets none. wright's
/// providers take a fixed budget, not Anthropic's adaptive mode, so this is
/// the nearest: enough for real reasoning, well under the usual output cap.
pub const ADAPTIVE_THINKING_BUDGET: u32 = 8000;

/// The smallest thinking budget providers accept.
pub const MIN_THINKING_BUDGET: u32 = 1024;

fn parse_thinking(value: &str) -> Result<ThinkingArg, String> {
    match value.trim() {
        "adaptive" | "enabled" => Ok(ThinkingArg::Adaptive),
        "disabled" | "off" => Ok(ThinkingArg::Disabled),
        n => n.parse().map(ThinkingArg::Budget).map_err(|_| {
            format!("expected a number of tokens, `adaptive` or `disabled`, got `{value}`")
        }),
    }
}

/// What the thinking flags ask for, after config is loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThinkingChoice {
    /// Nothing said: config decides.
    Config,
    /// This budget (already in the overrides).
    Budget,
    /// On: config's budget or the adaptive default.
    Adaptive,
    /// Off.
    Off,
}

/// `--provider` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ProviderArg {
    /// Anthropic Messages API.
    Anthropic,
    /// OpenAI Chat Completions (and compatible servers).
    OpenaiChat,
    /// OpenAI Responses API.
    OpenaiResponses,
}

/// `--permission-mode` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ModeArg {
    /// Reads run; edits and commands need approval.
    Default,
    /// Claude Code's `dontAsk`: as `default`, but nothing is asked: what
    /// the rules do not allow is refused, even with a person at the terminal.
    #[value(name = "dontAsk", alias = "dont-ask")]
    DontAsk,
    /// Reads and edits run; commands need approval.
    #[value(alias = "acceptEdits")]
    AcceptEdits,
    /// Read-only.
    Plan,
    /// Everything runs except what is dangerous.
    Auto,
    /// Everything runs; guards still apply.
    #[value(alias = "bypassPermissions")]
    Bypass,
}

/// The `--mcp-config` and `--strict-mcp-config` flags.
#[derive(Debug, Clone, Default)]
pub struct McpFlags {
    /// Each `--mcp-config FILE|JSON`, in order.
    pub configs: Vec<String>,
    /// `--strict-mcp-config`: only the flags' servers.
    pub strict: bool,
    /// `--allow` rules; `mcp__NAME`, `mcp__NAME__*` and `mcp__NAME__TOOL`
    /// approve a server.
    pub allow: Vec<String>,
}

/// Rules from one `--allowedTools` value: split at commas and spaces
/// outside parentheses, so `Bash(git diff:*)` stays one rule.
pub fn split_rules(value: &str) -> Vec<String> {
    let mut rules = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in value.chars() {
        match c {
            '(' => {
                depth += 1;
                current.push(c);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                current.push(c);
            }
            ',' | ' ' | '\t' | '\n' if depth == 0 => {
                if !current.trim().is_empty() {
                    rules.push(current.trim().to_owned());
                }
                current.clear();
            }
            _ => current.push(c),
        }
    }
    if !current.trim().is_empty() {
        rules.push(current.trim().to_owned());
    }
    rules
}

impl Args {
    /// Every allow rule of the command line: `--allow` and Claude Code's
    /// `--allowedTools`.
    pub fn allow_rules(&self) -> Vec<String> {
        let mut rules = self.allow.clone();
        rules.extend(self.allowed_tools.iter().flat_map(|v| split_rules(v)));
        rules
    }

    /// Every deny rule of the command line: `--deny` and `--disallowedTools`.
    pub fn deny_rules(&self) -> Vec<String> {
        let mut rules = self.deny.clone();
        rules.extend(self.disallowed_tools.iter().flat_map(|v| split_rules(v)));
        rules
    }

    /// The allow rules that may approve MCP servers by name: the command
    /// line's and those of `--settings` (both the user's own input).
    pub fn approving_rules(&self) -> Vec<String> {
        let mut rules = self.allow_rules();
        if let Some(settings) = &self.parsed_settings {
            rules.extend(settings.allow.iter().cloned());
        }
        rules
    }

    /// The MCP flags (`--mcp-config`, `--strict-mcp-config`, `--allow`).
    pub fn mcp_flags(&self) -> McpFlags {
        McpFlags {
            configs: self.mcp_config.clone(),
            strict: self.strict_mcp_config,
            allow: self.approving_rules(),
        }
    }

    /// The flag layer of the configuration.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            provider: self.provider.map(|p| match p {
                ProviderArg::Anthropic => Provider::Anthropic,
                ProviderArg::OpenaiChat => Provider::OpenaiChat,
                ProviderArg::OpenaiResponses => Provider::OpenaiResponses,
            }),
            model: self.model.clone(),
            base_url: self.base_url.clone(),
            max_tokens: self.max_tokens,
            max_turns: self.max_turns,
            permission_mode: self
                .permission_mode
                .map(|m| match m {
                    ModeArg::Default | ModeArg::DontAsk => PermissionMode::Default,
                    ModeArg::AcceptEdits => PermissionMode::AcceptEdits,
                    ModeArg::Plan => PermissionMode::Plan,
                    ModeArg::Auto => PermissionMode::Auto,
                    ModeArg::Bypass => PermissionMode::Bypass,
                })
                .or(self
                    .dangerously_skip_permissions
                    .then_some(PermissionMode::Bypass)),
            system_prompt: self.system_prompt.clone(),
            system_prompt_file: self.system_prompt_file.clone(),
            append_system_prompt: self.append_system_prompt.clone(),
            allow: self.allow_rules(),
            deny: self.deny_rules(),
            add_dirs: self
                .add_dir
                .iter()
                .map(|d| std::path::absolute(d).unwrap_or_else(|_| d.clone()))
                .collect(),
            sandbox: self.sandbox.map(|s| match s {
                SandboxArg::ReadOnly => SandboxMode::ReadOnly,
                SandboxArg::WorkspaceWrite => SandboxMode::WorkspaceWrite,
                SandboxArg::Full => SandboxMode::Full,
            }),
            reasoning_effort: self
                .reasoning_effort
                .map(|e| match e {
                    EffortArg::Low => ReasoningEffort::Low,
                    EffortArg::Medium => ReasoningEffort::Medium,
                    EffortArg::High => ReasoningEffort::High,
                })
                .or(self.effort.map(|e| match e {
                    ClaudeEffortArg::Low => ReasoningEffort::Low,
                    ClaudeEffortArg::Medium => ReasoningEffort::Medium,
                    // The nearest level wright's models have.
                    ClaudeEffortArg::High | ClaudeEffortArg::Xhigh | ClaudeEffortArg::Max => {
                        ReasoningEffort::High
                    }
                })),
            thinking_budget: match (self.thinking, self.max_thinking_tokens) {
                (Some(ThinkingArg::Budget(n)), _) => Some(n),
                (_, Some(n)) if n > 0 => Some(n.max(MIN_THINKING_BUDGET)),
                _ => None,
            },
            fallback_model: self.fallback_model.clone(),
            trust_project: self.trust_project,
            no_verify: self.no_verify,
            settings: self.parsed_settings.clone(),
            setting_sources: self.parsed_sources,
        }
    }

    /// What `--thinking` and `--max-thinking-tokens` ask for.
    pub fn thinking_choice(&self) -> ThinkingChoice {
        match (self.thinking, self.max_thinking_tokens) {
            (Some(ThinkingArg::Budget(_)), _) => ThinkingChoice::Budget,
            (Some(ThinkingArg::Adaptive), _) => ThinkingChoice::Adaptive,
            (Some(ThinkingArg::Disabled), _) | (_, Some(0)) => ThinkingChoice::Off,
            (None, Some(_)) => ThinkingChoice::Budget,
            (None, None) => ThinkingChoice::Config,
        }
    }

    /// The built-in tool names `--tools` keeps; `None` keeps them all.
    pub fn tool_names(&self) -> Option<Vec<String>> {
        let list = self.tools.as_deref()?;
        if list.trim() == "default" {
            return None;
        }
        Some(split_rules(list))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_lists_split_outside_parentheses() {
        assert_eq!(
            split_rules("Read,Grep Bash(git diff:*)  Edit(src/**, docs/**)"),
            ["Read", "Grep", "Bash(git diff:*)", "Edit(src/**, docs/**)"]
        );
        assert!(split_rules(" , ").is_empty());
    }

    fn parse(args: &[&str]) -> Args {
        Args::try_parse_from([&["wright"], args].concat()).unwrap()
    }

    #[test]
    fn dangerously_skip_permissions_is_bypass() {
        let a = parse(&["--dangerously-skip-permissions"]);
        assert_eq!(a.overrides().permission_mode, Some(PermissionMode::Bypass));
        assert_eq!(parse(&[]).overrides().permission_mode, None);
        let both = [
            "wright",
            "--dangerously-skip-permissions",
            "--permission-mode",
            "plan",
        ];
        assert!(Args::try_parse_from(both).is_err());
    }

    #[test]
    fn thinking_takes_a_budget_or_a_word() {
        let a = parse(&["--thinking", "2048"]);
        assert_eq!(a.overrides().thinking_budget, Some(2048));
        assert_eq!(a.thinking_choice(), ThinkingChoice::Budget);
        let a = parse(&["--thinking", "adaptive"]);
        assert_eq!(a.overrides().thinking_budget, None);
        assert_eq!(a.thinking_choice(), ThinkingChoice::Adaptive);
        let a = parse(&["--thinking", "disabled"]);
        assert_eq!(a.thinking_choice(), ThinkingChoice::Off);
        let err = Args::try_parse_from(["wright", "--thinking", "lots"]).unwrap_err();
        assert!(
            err.to_string().contains("`adaptive` or `disabled`"),
            "{err}"
        );
    }

    #[test]
    fn max_thinking_tokens_zero_is_off_and_small_budgets_are_raised() {
        let a = parse(&["--max-thinking-tokens", "0"]);
        assert_eq!(a.thinking_choice(), ThinkingChoice::Off);
        assert_eq!(a.overrides().thinking_budget, None);
        let a = parse(&["--max-thinking-tokens", "500"]);
        assert_eq!(a.overrides().thinking_budget, Some(1024));
        let a = parse(&["--max-thinking-tokens", "6000"]);
        assert_eq!(a.overrides().thinking_budget, Some(6000));
        assert!(
            Args::try_parse_from(["wright", "--thinking", "2000", "--max-thinking-tokens", "9"])
                .is_err()
        );
    }

    #[test]
    fn effort_maps_to_the_nearest_level() {
        for (word, want) in [
            ("low", ReasoningEffort::Low),
            ("medium", ReasoningEffort::Medium),
            ("high", ReasoningEffort::High),
            ("xhigh", ReasoningEffort::High),
            ("max", ReasoningEffort::High),
        ] {
            assert_eq!(
                parse(&["--effort", word]).overrides().reasoning_effort,
                Some(want)
            );
        }
        assert!(
            Args::try_parse_from(["wright", "--effort", "low", "--reasoning-effort", "high"])
                .is_err()
        );
    }

    #[test]
    fn tools_lists_names_or_default() {
        assert_eq!(parse(&[]).tool_names(), None);
        assert_eq!(parse(&["--tools", "default"]).tool_names(), None);
        assert_eq!(parse(&["--tools", ""]).tool_names(), Some(vec![]));
        assert_eq!(
            parse(&["--tools", "Read,Grep"]).tool_names(),
            Some(vec!["Read".to_owned(), "Grep".to_owned()])
        );
    }
}
