//! [`Assign`], one already-validated value set by one layer, and the
//! checks every layer shares ([`Range`], [`check_text`], [`check_price`]).
//! Merging is applying each layer's assignments in order, lowest layer
//! first: scalars are last-writer-wins, the permission and root lists,
//! hook groups and verify checks are appended (duplicates dropped, first
//! kept), model tables merge field by field, and MCP servers replace a
//! lower layer's server of the same name.

use std::path::PathBuf;

use crate::agent_settings::MAX_AGENT_CONCURRENT;
use crate::hook_settings::{HookGroupSetting, MAX_VERIFY_TIMEOUT_SECS, VerifyCheckSetting};
use crate::kinds::{
    AgentIsolation, McpToolSearch, PermissionMode, Provider, ReasoningEffort, SandboxMode,
};
use crate::mcp_settings::{McpServerSetting, merge_servers};
use crate::settings::{MAX_BASH_TIMEOUT_SECS, ModelOverride, Settings};

/// One already-validated value set by one layer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Assign {
    Provider(Provider),
    Model(String),
    BaseUrl(String),
    MaxTokens(u32),
    MaxTurns(u32),
    PermissionMode(PermissionMode),
    SystemPrompt(String),
    SystemPromptFile(PathBuf),
    AppendSystemPrompt(String),
    ReasoningEffort(ReasoningEffort),
    ThinkingBudget(u32),
    FallbackModel(String),
    BashTimeoutSecs(u64),
    StreamIdleTimeoutMs(u64),
    StreamFirstByteTimeoutMs(u64),
    InstructionFiles(Vec<String>),
    InstructionBudget(usize),
    UserInstructionFiles(Vec<PathBuf>),
    SkillDirs(Vec<PathBuf>),
    UserMemory(bool),
    AutoCompact(bool),
    KeepRecentTokens(u64),
    CompactMarginPercent(u8),
    Allow(Vec<String>),
    Ask(Vec<String>),
    Deny(Vec<String>),
    AdditionalRoots(Vec<PathBuf>),
    SandboxMode(SandboxMode),
    SandboxNetwork(bool),
    WritableRoots(Vec<PathBuf>),
    AllowSockets(Vec<PathBuf>),
    ImportClaudeSettings(bool),
    HookGroups(Vec<HookGroupSetting>),
    VerifyEnabled(bool),
    VerifyTimeoutSecs(u64),
    VerifyChecks(Vec<VerifyCheckSetting>),
    ModelOverride(ModelOverride),
    McpTrustProjectServers(bool),
    McpToolSearch(McpToolSearch),
    TuiNotify(crate::kinds::TuiNotify),
    McpStartupTimeoutMs(u64),
    McpToolTimeoutMs(u64),
    McpTrustReadOnlyHints(bool),
    McpServers(Vec<McpServerSetting>),
    AgentMaxTurns(u32),
    AgentMaxConcurrent(u32),
    AgentIsolation(AgentIsolation),
    ImportClaudeAgents(bool),
    UserAgents(bool),
}

impl Assign {
    /// The key (one of [`crate::KEYS`]) this assignment sets.
    pub(crate) fn key(&self) -> &'static str {
        match self {
            Assign::Provider(_) => "provider",
            Assign::Model(_) => "model",
            Assign::BaseUrl(_) => "base_url",
            Assign::MaxTokens(_) => "max_tokens",
            Assign::MaxTurns(_) => "max_turns",
            Assign::PermissionMode(_) => "permission_mode",
            Assign::SystemPrompt(_) => "system_prompt",
            Assign::SystemPromptFile(_) => "system_prompt_file",
            Assign::AppendSystemPrompt(_) => "append_system_prompt",
            Assign::ReasoningEffort(_) => "reasoning_effort",
            Assign::ThinkingBudget(_) => "thinking_budget",
            Assign::FallbackModel(_) => "fallback_model",
            Assign::BashTimeoutSecs(_) => "tools.bash_timeout_secs",
            Assign::StreamIdleTimeoutMs(_) => "stream.idle_timeout_secs",
            Assign::StreamFirstByteTimeoutMs(_) => "stream.first_byte_timeout_secs",
            Assign::InstructionFiles(_) => "context.instruction_files",
            Assign::InstructionBudget(_) => "context.instruction_budget",
            Assign::UserInstructionFiles(_) => "context.user_instruction_files",
            Assign::SkillDirs(_) => "context.skill_dirs",
            Assign::UserMemory(_) => "context.user_memory",
            Assign::AutoCompact(_) => "context.auto_compact",
            Assign::KeepRecentTokens(_) => "context.keep_recent_tokens",
            Assign::CompactMarginPercent(_) => "context.compact_margin_percent",
            Assign::Allow(_) => "permissions.allow",
            Assign::Ask(_) => "permissions.ask",
            Assign::Deny(_) => "permissions.deny",
            Assign::AdditionalRoots(_) => "permissions.additional_roots",
            Assign::SandboxMode(_) => "sandbox.mode",
            Assign::SandboxNetwork(_) => "sandbox.network",
            Assign::WritableRoots(_) => "sandbox.writable_roots",
            Assign::AllowSockets(_) => "sandbox.allow_sockets",
            Assign::ImportClaudeSettings(_) => "hooks.import_claude_settings",
            Assign::HookGroups(_) => "hooks",
            Assign::VerifyEnabled(_) => "verify.enabled",
            Assign::VerifyTimeoutSecs(_) => "verify.timeout_secs",
            Assign::VerifyChecks(_) => "verify.checks",
            Assign::ModelOverride(_) => "models",
            Assign::McpTrustProjectServers(_) => "mcp.trust_project_servers",
            Assign::McpToolSearch(_) => "mcp.tool_search",
            Assign::TuiNotify(_) => "tui.notify",
            Assign::McpStartupTimeoutMs(_) => "mcp.startup_timeout_secs",
            Assign::McpToolTimeoutMs(_) => "mcp.tool_timeout_secs",
            Assign::McpTrustReadOnlyHints(_) => "mcp.trust_read_only_hints",
            Assign::McpServers(_) => "mcp_servers",
            Assign::AgentMaxTurns(_) => "agents.max_turns",
            Assign::AgentMaxConcurrent(_) => "agents.max_concurrent",
            Assign::AgentIsolation(_) => "agents.isolation",
            Assign::ImportClaudeAgents(_) => "agents.import_claude_agents",
            Assign::UserAgents(_) => "agents.user_agents",
        }
    }

    /// Whether applying this changes anything a source should be credited
    /// for: appending an empty list does not, so `allow = []` in a higher
    /// layer does not take the credit for rules written below it.
    pub(crate) fn contributes(&self) -> bool {
        match self {
            Assign::Allow(v) | Assign::Ask(v) | Assign::Deny(v) => !v.is_empty(),
            Assign::AdditionalRoots(v) | Assign::WritableRoots(v) | Assign::AllowSockets(v) => {
                !v.is_empty()
            }
            Assign::HookGroups(v) => !v.is_empty(),
            Assign::VerifyChecks(v) => !v.is_empty(),
            Assign::McpServers(v) => !v.is_empty(),
            _ => true,
        }
    }

    /// Writes the value into `settings`. Returns the key of a setting this
    /// one displaces: a prompt and a prompt file exclude each other, so a
    /// higher layer setting one clears the other from lower layers.
    pub(crate) fn apply(self, settings: &mut Settings) -> Option<&'static str> {
        let c = &mut settings.context;
        let p = &mut settings.permissions;
        match self {
            Assign::Provider(v) => settings.provider = Some(v),
            Assign::Model(v) => settings.model = Some(v),
            Assign::BaseUrl(v) => settings.base_url = Some(v),
            Assign::MaxTokens(v) => settings.max_tokens = Some(v),
            Assign::MaxTurns(v) => settings.max_turns = v,
            Assign::PermissionMode(v) => settings.permission_mode = v,
            Assign::SystemPrompt(v) => {
                settings.system_prompt = Some(v);
                if settings.system_prompt_file.take().is_some() {
                    return Some("system_prompt_file");
                }
            }
            Assign::SystemPromptFile(v) => {
                settings.system_prompt_file = Some(v);
                if settings.system_prompt.take().is_some() {
                    return Some("system_prompt");
                }
            }
            Assign::AppendSystemPrompt(v) => settings.append_system_prompt = Some(v),
            Assign::ReasoningEffort(v) => settings.reasoning_effort = Some(v),
            Assign::ThinkingBudget(v) => settings.thinking_budget = Some(v),
            Assign::FallbackModel(v) => settings.fallback_model = Some(v),
            Assign::BashTimeoutSecs(v) => settings.bash_timeout_secs = v,
            Assign::StreamIdleTimeoutMs(v) => settings.stream_idle_timeout_ms = v,
            Assign::StreamFirstByteTimeoutMs(v) => settings.stream_first_byte_timeout_ms = v,
            Assign::InstructionFiles(v) => settings.instruction_files = v,
            Assign::InstructionBudget(v) => c.instruction_budget = v,
            Assign::UserInstructionFiles(v) => c.user_instruction_files = v,
            Assign::SkillDirs(v) => c.skill_dirs = v,
            Assign::UserMemory(v) => c.user_memory = v,
            Assign::AutoCompact(v) => c.auto_compact = v,
            Assign::KeepRecentTokens(v) => c.keep_recent_tokens = Some(v),
            Assign::CompactMarginPercent(v) => c.compact_margin_percent = v,
            Assign::Allow(v) => append(&mut p.allow, v),
            Assign::Ask(v) => append(&mut p.ask, v),
            Assign::Deny(v) => append(&mut p.deny, v),
            Assign::AdditionalRoots(v) => append(&mut p.additional_roots, v),
            Assign::SandboxMode(v) => settings.sandbox.mode = v,
            Assign::SandboxNetwork(v) => settings.sandbox.network = v,
            Assign::WritableRoots(v) => append(&mut settings.sandbox.writable_roots, v),
            Assign::AllowSockets(v) => append(&mut settings.sandbox.allow_sockets, v),
            Assign::ImportClaudeSettings(v) => settings.hooks.import_claude_settings = v,
            Assign::HookGroups(v) => {
                append_by(&mut settings.hooks.groups, v, HookGroupSetting::same_as);
            }
            Assign::VerifyEnabled(v) => settings.verify.enabled = v,
            Assign::VerifyTimeoutSecs(v) => settings.verify.timeout_secs = v,
            Assign::VerifyChecks(v) => {
                append_by(&mut settings.verify.checks, v, VerifyCheckSetting::same_as);
            }
            Assign::ModelOverride(v) => {
                let models = &mut settings.models;
                match models.binary_search_by(|m| m.name.cmp(&v.name)) {
                    Ok(i) => models[i].merge(v),
                    Err(i) => models.insert(i, v),
                }
            }
            Assign::McpTrustProjectServers(v) => settings.mcp.trust_project_servers = v,
            Assign::McpToolSearch(v) => settings.mcp.tool_search = v,
            Assign::TuiNotify(v) => settings.tui_notify = v,
            Assign::McpStartupTimeoutMs(v) => settings.mcp.startup_timeout_ms = v,
            Assign::McpToolTimeoutMs(v) => settings.mcp.tool_timeout_ms = v,
            Assign::McpTrustReadOnlyHints(v) => settings.mcp.trust_read_only_hints = v,
            Assign::McpServers(v) => merge_servers(&mut settings.mcp_servers, v),
            Assign::AgentMaxTurns(v) => settings.agents.max_turns = v,
            Assign::AgentMaxConcurrent(v) => settings.agents.max_concurrent = v,
            Assign::AgentIsolation(v) => settings.agents.isolation = v,
            Assign::ImportClaudeAgents(v) => settings.agents.import_claude_agents = v,
            Assign::UserAgents(v) => settings.agents.user_agents = v,
        }
        None
    }
}

/// Appends the items not already present, in order.
fn append<T: PartialEq>(list: &mut Vec<T>, items: Vec<T>) {
    for item in items {
        if !list.contains(&item) {
            list.push(item);
        }
    }
}

/// Appends the items `same` finds no match for, in order. Hook groups and
/// checks also carry their file, which must not make two copies of one
/// command look different.
fn append_by<T>(list: &mut Vec<T>, items: Vec<T>, same: fn(&T, &T) -> bool) {
    for item in items {
        if !list.iter().any(|have| same(have, &item)) {
            list.push(item);
        }
    }
}

/// What an integer setting accepts, for validation and messages.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Range {
    pub(crate) min: i64,
    pub(crate) max: i64,
}

impl Range {
    pub(crate) const POSITIVE_U32: Range = Range::new(1, u32::MAX as i64);
    pub(crate) const BASH_TIMEOUT: Range = Range::new(1, MAX_BASH_TIMEOUT_SECS as i64);
    pub(crate) const THINKING_BUDGET: Range = Range::new(1024, u32::MAX as i64);
    pub(crate) const INSTRUCTION_BUDGET: Range = Range::new(1000, i64::MAX);
    pub(crate) const KEEP_RECENT_TOKENS: Range = Range::new(1000, i64::MAX);
    pub(crate) const COMPACT_MARGIN: Range = Range::new(0, 50);
    pub(crate) const CONTEXT_WINDOW: Range = Range::new(1024, i64::MAX);
    pub(crate) const VERIFY_TIMEOUT: Range = Range::new(1, MAX_VERIFY_TIMEOUT_SECS as i64);
    pub(crate) const MCP_STARTUP_TIMEOUT: Range = Range::new(1, 3600);
    pub(crate) const STREAM_TIMEOUT: Range = Range::new(1, 3600);
    pub(crate) const MCP_TOOL_TIMEOUT: Range = Range::new(1, 86_400);
    pub(crate) const AGENT_MAX_CONCURRENT: Range = Range::new(1, MAX_AGENT_CONCURRENT as i64);

    const fn new(min: i64, max: i64) -> Range {
        Range { min, max }
    }

    pub(crate) fn describe(&self) -> String {
        if self.min == 1 && self.max == u32::MAX as i64 {
            "expected a positive integer".to_owned()
        } else if self.max == i64::MAX {
            format!("expected an integer >= {}", self.min)
        } else {
            format!("expected an integer from {} to {}", self.min, self.max)
        }
    }

    pub(crate) fn check(&self, n: i64) -> Result<i64, String> {
        if (self.min..=self.max).contains(&n) {
            Ok(n)
        } else {
            Err(self.describe())
        }
    }
}

/// Checks a string setting's value; `Err` is the "expected …" message.
pub(crate) fn check_text(key: &str, value: &str) -> Result<(), String> {
    if value.trim().is_empty() {
        return Err("expected a non-empty string".to_owned());
    }
    if key == "base_url" && !(value.starts_with("http://") || value.starts_with("https://")) {
        return Err("expected an http:// or https:// URL".to_owned());
    }
    Ok(())
}

/// "expected …" for a price, in USD per million tokens.
pub(crate) const PRICE_EXPECTED: &str = "expected a non-negative number";

/// Checks a price: finite and not negative.
pub(crate) fn check_price(value: f64) -> Result<f64, String> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(PRICE_EXPECTED.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hook_settings::HookCommandSetting;
    use crate::keys::KEYS;
    use crate::kinds::{CheckFormat, HookEvent};
    use crate::source::Source;

    fn group(command: &str) -> HookGroupSetting {
        HookGroupSetting {
            event: HookEvent::Stop,
            matcher: None,
            hooks: vec![HookCommandSetting {
                command: command.into(),
                timeout_secs: None,
            }],
            source: Source::File("/u/config.toml".into()),
        }
    }

    fn check(command: &str) -> VerifyCheckSetting {
        VerifyCheckSetting {
            glob: "*.rs".into(),
            command: command.into(),
            format: CheckFormat::CargoJson,
            timeout_secs: None,
            source: Source::File("/u/config.toml".into()),
        }
    }

    fn every_assign() -> Vec<Assign> {
        vec![
            Assign::Provider(Provider::Anthropic),
            Assign::Model("m".into()),
            Assign::BaseUrl("http://x".into()),
            Assign::MaxTokens(1),
            Assign::MaxTurns(1),
            Assign::PermissionMode(PermissionMode::Plan),
            Assign::SystemPrompt("p".into()),
            Assign::SystemPromptFile("f".into()),
            Assign::AppendSystemPrompt("a".into()),
            Assign::ReasoningEffort(ReasoningEffort::Low),
            Assign::ThinkingBudget(2048),
            Assign::FallbackModel("f".into()),
            Assign::BashTimeoutSecs(1),
            Assign::StreamIdleTimeoutMs(1000),
            Assign::StreamFirstByteTimeoutMs(1000),
            Assign::InstructionFiles(vec![]),
            Assign::InstructionBudget(1000),
            Assign::UserInstructionFiles(vec!["/u".into()]),
            Assign::SkillDirs(vec!["/s".into()]),
            Assign::UserMemory(true),
            Assign::AutoCompact(false),
            Assign::KeepRecentTokens(1000),
            Assign::CompactMarginPercent(0),
            Assign::Allow(vec!["Read".into()]),
            Assign::Ask(vec!["Bash".into()]),
            Assign::Deny(vec!["Write".into()]),
            Assign::AdditionalRoots(vec!["/r".into()]),
            Assign::SandboxMode(SandboxMode::Full),
            Assign::SandboxNetwork(true),
            Assign::WritableRoots(vec!["/w".into()]),
            Assign::AllowSockets(vec!["/run/user/1000/podman/podman.sock".into()]),
            Assign::ImportClaudeSettings(true),
            Assign::HookGroups(vec![group("a")]),
            Assign::VerifyEnabled(false),
            Assign::VerifyTimeoutSecs(5),
            Assign::VerifyChecks(vec![check("f")]),
            Assign::ModelOverride(ModelOverride {
                name: "x".into(),
                ..ModelOverride::default()
            }),
            Assign::McpTrustProjectServers(true),
            Assign::McpToolSearch(McpToolSearch::On),
            Assign::TuiNotify(crate::kinds::TuiNotify::Osc9),
            Assign::McpStartupTimeoutMs(1000),
            Assign::McpToolTimeoutMs(1000),
            Assign::McpTrustReadOnlyHints(true),
            Assign::McpServers(vec![McpServerSetting {
                name: "s".into(),
                transport: crate::mcp_settings::McpTransport::Http {
                    url: "http://127.0.0.1:1/mcp".into(),
                    headers: std::collections::BTreeMap::new(),
                },
                source: Source::File("/u/config.toml".into()),
            }]),
            Assign::AgentMaxTurns(3),
            Assign::AgentMaxConcurrent(2),
            Assign::AgentIsolation(AgentIsolation::Worktree),
            Assign::ImportClaudeAgents(true),
            Assign::UserAgents(true),
        ]
    }

    #[test]
    fn every_key_is_assignable_and_readable() {
        let mut s = Settings::default();
        let all = every_assign();
        let mut keys: Vec<&str> = all.iter().map(Assign::key).collect();
        for a in all {
            let key = a.key();
            assert!(KEYS.contains(&key), "{key}");
            a.apply(&mut s);
            assert!(s.get(key).is_some(), "{key}");
        }
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), KEYS.len(), "one Assign per key");
    }

    #[test]
    fn prompt_and_prompt_file_displace_each_other() {
        let mut s = Settings::default();
        assert_eq!(Assign::SystemPrompt("p".into()).apply(&mut s), None);
        assert_eq!(
            Assign::SystemPromptFile("f".into()).apply(&mut s),
            Some("system_prompt")
        );
        assert_eq!(s.system_prompt, None);
        assert_eq!(
            Assign::SystemPrompt("q".into()).apply(&mut s),
            Some("system_prompt_file")
        );
        assert_eq!(s.system_prompt_file, None);
    }

    #[test]
    fn lists_append_without_duplicates_and_models_stay_sorted() {
        let mut s = Settings::default();
        Assign::Allow(vec!["a".into(), "b".into(), "a".into()]).apply(&mut s);
        Assign::Allow(vec!["c".into(), "b".into()]).apply(&mut s);
        assert_eq!(s.permissions.allow, vec!["a", "b", "c"]);
        assert!(!Assign::Deny(vec![]).contributes());
        assert!(Assign::Deny(vec!["x".into()]).contributes());
        for name in ["zeta", "alpha", "mid"] {
            Assign::ModelOverride(ModelOverride {
                name: name.into(),
                max_output: Some(1),
                ..ModelOverride::default()
            })
            .apply(&mut s);
        }
        Assign::ModelOverride(ModelOverride {
            name: "mid".into(),
            max_output: Some(9),
            ..ModelOverride::default()
        })
        .apply(&mut s);
        let names: Vec<&str> = s.models.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, vec!["alpha", "mid", "zeta"]);
        assert_eq!(s.models[1].max_output, Some(9));
    }

    #[test]
    fn hook_groups_and_checks_append_once_whatever_their_file() {
        let mut s = Settings::default();
        let elsewhere = |mut g: HookGroupSetting| {
            g.source = Source::File("/p/.wright/config.toml".into());
            g
        };
        Assign::HookGroups(vec![group("a"), group("b")]).apply(&mut s);
        Assign::HookGroups(vec![elsewhere(group("b")), elsewhere(group("c"))]).apply(&mut s);
        let got: Vec<(&str, &Source)> = s
            .hooks
            .groups
            .iter()
            .map(|g| (g.hooks[0].command.as_str(), &g.source))
            .collect();
        let user = Source::File("/u/config.toml".into());
        let project = Source::File("/p/.wright/config.toml".into());
        assert_eq!(got, vec![("a", &user), ("b", &user), ("c", &project)]);
        let mut other = check("x");
        other.source = project.clone();
        Assign::VerifyChecks(vec![check("x")]).apply(&mut s);
        Assign::VerifyChecks(vec![other.clone()]).apply(&mut s);
        other.format = CheckFormat::Lines;
        Assign::VerifyChecks(vec![other]).apply(&mut s);
        assert_eq!(s.verify.checks.len(), 2);
        assert_eq!(s.verify.checks[1].source, project);
        assert!(!Assign::HookGroups(vec![]).contributes());
        assert!(!Assign::VerifyChecks(vec![]).contributes());
    }

    #[test]
    fn ranges_and_text_checks() {
        assert!(Range::POSITIVE_U32.check(0).is_err());
        assert_eq!(Range::POSITIVE_U32.check(1), Ok(1));
        assert_eq!(
            Range::BASH_TIMEOUT.check(601),
            Err("expected an integer from 1 to 600".into())
        );
        assert_eq!(
            Range::INSTRUCTION_BUDGET.check(999),
            Err("expected an integer >= 1000".into())
        );
        assert_eq!(
            Range::COMPACT_MARGIN.check(51),
            Err("expected an integer from 0 to 50".into())
        );
        assert!(Range::COMPACT_MARGIN.check(0).is_ok());
        assert_eq!(
            Range::VERIFY_TIMEOUT.check(1801),
            Err("expected an integer from 1 to 1800".into())
        );
        assert!(check_text("model", " ").is_err());
        assert!(check_text("base_url", "localhost:1").is_err());
        assert!(check_text("base_url", "http://127.0.0.1:1/v1").is_ok());
        assert_eq!(check_price(0.0), Ok(0.0));
        assert!(check_price(-0.5).is_err());
        assert!(check_price(f64::NAN).is_err());
        assert!(check_price(f64::INFINITY).is_err());
    }
}
