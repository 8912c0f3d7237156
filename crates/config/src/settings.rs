//! [`Settings`], the merged result, and [`Assign`], one value set by one
//! layer. Merging is applying each layer's assignments in order, lowest
//! layer first, so the last writer wins.

use std::path::PathBuf;

use crate::kinds::{PermissionMode, Provider};

/// Default for [`Settings::max_turns`].
pub const DEFAULT_MAX_TURNS: u32 = 50;
/// Default for [`Settings::bash_timeout_secs`].
pub const DEFAULT_BASH_TIMEOUT_SECS: u64 = 120;
/// Largest allowed [`Settings::bash_timeout_secs`].
pub const MAX_BASH_TIMEOUT_SECS: u64 = 600;
/// Default for [`Settings::instruction_files`].
pub const DEFAULT_INSTRUCTION_FILE: &str = "AGENTS.md";

/// Every setting's key as written in TOML (dotted for tables), in display order.
pub const KEYS: [&str; 11] = [
    "provider",
    "model",
    "base_url",
    "max_tokens",
    "max_turns",
    "permission_mode",
    "system_prompt",
    "system_prompt_file",
    "append_system_prompt",
    "tools.bash_timeout_secs",
    "context.instruction_files",
];

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
        }
    }
}

impl Settings {
    /// The value of `key` (one of [`KEYS`]) as TOML, `None` when unset or unknown.
    pub fn get(&self, key: &str) -> Option<toml::Value> {
        fn s(v: &Option<String>) -> Option<toml::Value> {
            v.clone().map(toml::Value::String)
        }
        match key {
            "provider" => self
                .provider
                .map(|p| toml::Value::String(p.as_str().into())),
            "model" => s(&self.model),
            "base_url" => s(&self.base_url),
            "max_tokens" => self.max_tokens.map(|n| toml::Value::Integer(n.into())),
            "max_turns" => Some(toml::Value::Integer(self.max_turns.into())),
            "permission_mode" => Some(toml::Value::String(self.permission_mode.as_str().into())),
            "system_prompt" => s(&self.system_prompt),
            "system_prompt_file" => self
                .system_prompt_file
                .as_ref()
                .map(|p| toml::Value::String(p.to_string_lossy().into_owned())),
            "append_system_prompt" => s(&self.append_system_prompt),
            "tools.bash_timeout_secs" => Some(toml::Value::Integer(
                i64::try_from(self.bash_timeout_secs).unwrap_or(i64::MAX),
            )),
            "context.instruction_files" => Some(toml::Value::Array(
                self.instruction_files
                    .iter()
                    .map(|f| toml::Value::String(f.clone()))
                    .collect(),
            )),
            _ => None,
        }
    }
}

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
    BashTimeoutSecs(u64),
    InstructionFiles(Vec<String>),
}

impl Assign {
    /// The TOML key this assignment sets.
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
            Assign::BashTimeoutSecs(_) => "tools.bash_timeout_secs",
            Assign::InstructionFiles(_) => "context.instruction_files",
        }
    }

    /// Writes the value into `settings`. Returns the key of a setting this
    /// one displaces: a prompt and a prompt file exclude each other, so a
    /// higher layer setting one clears the other from lower layers.
    pub(crate) fn apply(self, settings: &mut Settings) -> Option<&'static str> {
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
            Assign::BashTimeoutSecs(v) => settings.bash_timeout_secs = v,
            Assign::InstructionFiles(v) => settings.instruction_files = v,
        }
        None
    }
}

/// What a numeric setting accepts, for validation and messages.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Range {
    pub(crate) min: i64,
    pub(crate) max: i64,
}

impl Range {
    pub(crate) const POSITIVE_U32: Range = Range {
        min: 1,
        max: u32::MAX as i64,
    };
    pub(crate) const BASH_TIMEOUT: Range = Range {
        min: 1,
        max: MAX_BASH_TIMEOUT_SECS as i64,
    };

    pub(crate) fn describe(&self) -> String {
        if self.max == u32::MAX as i64 {
            "expected a positive integer".to_owned()
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
    }

    #[test]
    fn every_key_is_readable_and_assign_keys_are_known() {
        let s = Settings::default();
        assert!(s.get("max_turns").is_some());
        assert!(s.get("nope").is_none());
        let all = [
            Assign::Provider(Provider::Anthropic),
            Assign::Model("m".into()),
            Assign::BaseUrl("http://x".into()),
            Assign::MaxTokens(1),
            Assign::MaxTurns(1),
            Assign::PermissionMode(PermissionMode::Plan),
            Assign::SystemPrompt("p".into()),
            Assign::SystemPromptFile("f".into()),
            Assign::AppendSystemPrompt("a".into()),
            Assign::BashTimeoutSecs(1),
            Assign::InstructionFiles(vec![]),
        ];
        let mut s = Settings::default();
        for a in all {
            let key = a.key();
            assert!(KEYS.contains(&key), "{key}");
            a.apply(&mut s);
            assert!(s.get(key).is_some(), "{key}");
        }
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
    fn ranges_and_text_checks() {
        assert!(Range::POSITIVE_U32.check(0).is_err());
        assert_eq!(Range::POSITIVE_U32.check(1), Ok(1));
        assert_eq!(
            Range::BASH_TIMEOUT.check(601),
            Err("expected an integer from 1 to 600".into())
        );
        assert!(check_text("model", " ").is_err());
        assert!(check_text("base_url", "localhost:1").is_err());
        assert!(check_text("base_url", "http://127.0.0.1:1/v1").is_ok());
    }
}
