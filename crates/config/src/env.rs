//! The environment layer: `WRIGHT_*` variables, Claude Code's MCP timeouts
//! (`MCP_TIMEOUT`, `MCP_TOOL_TIMEOUT`, in milliseconds) and the
//! provider-specific base URL variables. Only the variables named in [`ENV_VARS`] are ever
//! looked at; credentials such as `ANTHROPIC_API_KEY` are not config and
//! are never read here. An empty value counts as unset.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::assign::{Assign, Range, check_text};
use crate::error::{ConfigError, Origin, shorten};
use crate::keys::range_of;
use crate::kinds::SharedWords as _;
use crate::kinds::{PermissionMode, Provider, ReasoningEffort, SandboxMode};
use crate::source::Source;

/// Every environment variable config reads.
pub const ENV_VARS: [&str; 14] = [
    "WRIGHT_PROVIDER",
    "WRIGHT_MODEL",
    "WRIGHT_MAX_TURNS",
    "WRIGHT_MAX_TOKENS",
    "WRIGHT_PERMISSION_MODE",
    "WRIGHT_SYSTEM_PROMPT",
    "WRIGHT_SYSTEM_PROMPT_FILE",
    "WRIGHT_REASONING_EFFORT",
    "WRIGHT_FALLBACK_MODEL",
    "WRIGHT_SANDBOX",
    "MCP_TIMEOUT",
    "MCP_TOOL_TIMEOUT",
    ANTHROPIC_BASE_URL,
    OPENAI_BASE_URL,
];

const ANTHROPIC_BASE_URL: &str = "ANTHROPIC_BASE_URL";
const OPENAI_BASE_URL: &str = "OPENAI_BASE_URL";

/// Reads the `WRIGHT_*` variables (not the base URLs: see [`env_base_url`]).
pub(crate) fn env_layer(
    env: &HashMap<String, String>,
) -> Result<Vec<(Assign, Source)>, ConfigError> {
    let get = |name: &str| env.get(name).filter(|v| !v.is_empty());
    let mut out = Vec::new();
    let mut push = |name: &str, assign: Assign| out.push((assign, Source::Env(name.to_owned())));

    if let Some(v) = get("WRIGHT_PROVIDER") {
        let p = Provider::parse(v.trim())
            .map_err(|_| invalid("WRIGHT_PROVIDER", "provider", v, Provider::expected()))?;
        push("WRIGHT_PROVIDER", Assign::Provider(p));
    }
    if let Some(v) = get("WRIGHT_MODEL") {
        push(
            "WRIGHT_MODEL",
            Assign::Model(text("WRIGHT_MODEL", "model", v)?),
        );
    }
    if let Some(v) = get("WRIGHT_MAX_TURNS") {
        let n = bounded(
            "WRIGHT_MAX_TURNS",
            "max_turns",
            v,
            const { range_of("max_turns") },
        )?;
        push("WRIGHT_MAX_TURNS", Assign::MaxTurns(n));
    }
    if let Some(v) = get("WRIGHT_MAX_TOKENS") {
        let n = bounded(
            "WRIGHT_MAX_TOKENS",
            "max_tokens",
            v,
            const { range_of("max_tokens") },
        )?;
        push("WRIGHT_MAX_TOKENS", Assign::MaxTokens(n));
    }
    if let Some(v) = get("WRIGHT_PERMISSION_MODE") {
        let m = PermissionMode::parse(v.trim()).map_err(|_| {
            invalid(
                "WRIGHT_PERMISSION_MODE",
                "permission_mode",
                v,
                PermissionMode::expected(),
            )
        })?;
        push("WRIGHT_PERMISSION_MODE", Assign::PermissionMode(m));
    }
    let prompt = get("WRIGHT_SYSTEM_PROMPT");
    let prompt_file = get("WRIGHT_SYSTEM_PROMPT_FILE");
    if prompt.is_some() && prompt_file.is_some() {
        return Err(ConfigError::Conflict {
            origin: Origin::Env("WRIGHT_SYSTEM_PROMPT_FILE".to_owned()),
            first: "WRIGHT_SYSTEM_PROMPT".to_owned(),
            second: "WRIGHT_SYSTEM_PROMPT_FILE".to_owned(),
        });
    }
    if let Some(v) = prompt {
        push("WRIGHT_SYSTEM_PROMPT", Assign::SystemPrompt(v.clone()));
    }
    if let Some(v) = prompt_file {
        push(
            "WRIGHT_SYSTEM_PROMPT_FILE",
            Assign::SystemPromptFile(PathBuf::from(v)),
        );
    }
    if let Some(v) = get("WRIGHT_REASONING_EFFORT") {
        let e = ReasoningEffort::parse(v.trim()).map_err(|_| {
            invalid(
                "WRIGHT_REASONING_EFFORT",
                "reasoning_effort",
                v,
                ReasoningEffort::expected(),
            )
        })?;
        push("WRIGHT_REASONING_EFFORT", Assign::ReasoningEffort(e));
    }
    if let Some(v) = get("WRIGHT_FALLBACK_MODEL") {
        let m = text("WRIGHT_FALLBACK_MODEL", "fallback_model", v)?;
        push("WRIGHT_FALLBACK_MODEL", Assign::FallbackModel(m));
    }
    if let Some(v) = get("WRIGHT_SANDBOX") {
        let m = SandboxMode::parse(v.trim())
            .map_err(|_| invalid("WRIGHT_SANDBOX", "sandbox.mode", v, SandboxMode::expected()))?;
        push("WRIGHT_SANDBOX", Assign::SandboxMode(m));
    }
    if let Some(v) = get("MCP_TIMEOUT") {
        let ms = millis("MCP_TIMEOUT", "mcp.startup_timeout_secs", v, 3_600_000)?;
        push("MCP_TIMEOUT", Assign::McpStartupTimeoutMs(ms));
    }
    if let Some(v) = get("MCP_TOOL_TIMEOUT") {
        let ms = millis("MCP_TOOL_TIMEOUT", "mcp.tool_timeout_secs", v, 86_400_000)?;
        push("MCP_TOOL_TIMEOUT", Assign::McpToolTimeoutMs(ms));
    }
    Ok(out)
}

/// The base URL from the environment for the provider in force after
/// flags: `ANTHROPIC_BASE_URL` only for Anthropic, `OPENAI_BASE_URL` only
/// for the two OpenAI protocols, nothing when no provider is chosen.
pub(crate) fn env_base_url(
    env: &HashMap<String, String>,
    provider: Option<Provider>,
) -> Result<Option<(Assign, Source)>, ConfigError> {
    let name = match provider {
        Some(Provider::Anthropic) => ANTHROPIC_BASE_URL,
        Some(Provider::OpenaiChat | Provider::OpenaiResponses) => OPENAI_BASE_URL,
        None => return Ok(None),
    };
    match env.get(name).filter(|v| !v.is_empty()) {
        Some(v) => {
            let url = text(name, "base_url", v)?;
            Ok(Some((Assign::BaseUrl(url), Source::Env(name.to_owned()))))
        }
        None => Ok(None),
    }
}

fn invalid(var: &str, key: &str, value: &str, message: String) -> ConfigError {
    ConfigError::Invalid {
        origin: Origin::Env(var.to_owned()),
        key: key.to_owned(),
        value: shorten(value),
        message,
    }
}

fn text(var: &str, key: &str, value: &str) -> Result<String, ConfigError> {
    check_text(key, value)
        .map(|()| value.to_owned())
        .map_err(|m| invalid(var, key, value, m))
}

/// A whole number in `range` (the key table's for `key`).
fn bounded(var: &str, key: &str, value: &str, range: Range) -> Result<u32, ConfigError> {
    value
        .trim()
        .parse::<i64>()
        .map_err(|_| range.describe())
        .and_then(|n| range.check(n))
        .and_then(|n| u32::try_from(n).map_err(|_| range.describe()))
        .map_err(|m| invalid(var, key, value, m))
}

/// A timeout in milliseconds, as Claude Code reads these variables.
fn millis(var: &str, key: &str, value: &str, max: u64) -> Result<u64, ConfigError> {
    value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| {
            invalid(
                var,
                key,
                value,
                format!("expected milliseconds from 1 to {max}"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn reads_each_wright_variable() {
        let e = env(&[
            ("WRIGHT_PROVIDER", "openai-chat"),
            ("WRIGHT_MODEL", "qwen"),
            ("WRIGHT_MAX_TURNS", " 9 "),
            ("WRIGHT_MAX_TOKENS", "100"),
            ("WRIGHT_PERMISSION_MODE", "plan"),
            ("WRIGHT_SYSTEM_PROMPT", "hi"),
        ]);
        let got: Vec<Assign> = env_layer(&e).unwrap().into_iter().map(|(a, _)| a).collect();
        assert_eq!(
            got,
            vec![
                Assign::Provider(Provider::OpenaiChat),
                Assign::Model("qwen".into()),
                Assign::MaxTurns(9),
                Assign::MaxTokens(100),
                Assign::PermissionMode(PermissionMode::Plan),
                Assign::SystemPrompt("hi".into()),
            ]
        );
    }

    #[test]
    fn empty_values_are_unset_and_keys_are_ignored() {
        let e = env(&[
            ("WRIGHT_MODEL", ""),
            ("WRIGHT_MAX_TURNS", ""),
            ("ANTHROPIC_API_KEY", "sk-secret"),
        ]);
        assert!(env_layer(&e).unwrap().is_empty());
        assert_eq!(env_base_url(&e, Some(Provider::Anthropic)).unwrap(), None);
    }

    #[test]
    fn bad_numbers_and_words_name_the_variable() {
        let e = env(&[("WRIGHT_MAX_TURNS", "abc")]);
        assert_eq!(
            env_layer(&e).unwrap_err().to_string(),
            "env WRIGHT_MAX_TURNS: invalid value `abc` for `max_turns`: expected a positive integer"
        );
        let e = env(&[("WRIGHT_MAX_TOKENS", "0")]);
        assert!(env_layer(&e).is_err());
        let e = env(&[("WRIGHT_PROVIDER", "gemini")]);
        assert_eq!(
            env_layer(&e).unwrap_err().to_string(),
            "env WRIGHT_PROVIDER: invalid value `gemini` for `provider`: \
             expected one of: anthropic, openai-chat, openai-responses"
        );
    }

    #[test]
    fn reads_effort_fallback_and_sandbox() {
        let e = env(&[
            ("WRIGHT_REASONING_EFFORT", "high"),
            ("WRIGHT_FALLBACK_MODEL", "claude-haiku-4-5"),
            ("WRIGHT_SANDBOX", " read-only "),
        ]);
        let got: Vec<(Assign, String)> = env_layer(&e)
            .unwrap()
            .into_iter()
            .map(|(a, s)| (a, s.to_string()))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    Assign::ReasoningEffort(ReasoningEffort::High),
                    "env WRIGHT_REASONING_EFFORT".into()
                ),
                (
                    Assign::FallbackModel("claude-haiku-4-5".into()),
                    "env WRIGHT_FALLBACK_MODEL".into()
                ),
                (
                    Assign::SandboxMode(SandboxMode::ReadOnly),
                    "env WRIGHT_SANDBOX".into()
                ),
            ]
        );
        let e = env(&[("WRIGHT_SANDBOX", "off")]);
        assert_eq!(
            env_layer(&e).unwrap_err().to_string(),
            "env WRIGHT_SANDBOX: invalid value `off` for `sandbox.mode`: \
             expected one of: read-only, workspace-write, full"
        );
        let e = env(&[("WRIGHT_REASONING_EFFORT", "max")]);
        assert!(env_layer(&e).is_err());
        let e = env(&[("WRIGHT_FALLBACK_MODEL", "  ")]);
        assert!(env_layer(&e).is_err());
    }

    #[test]
    fn mcp_timeouts_are_milliseconds() {
        let e = env(&[("MCP_TIMEOUT", "1500"), ("MCP_TOOL_TIMEOUT", " 60000 ")]);
        let got: Vec<Assign> = env_layer(&e).unwrap().into_iter().map(|(a, _)| a).collect();
        assert_eq!(
            got,
            vec![
                Assign::McpStartupTimeoutMs(1500),
                Assign::McpToolTimeoutMs(60_000)
            ]
        );
        let e = env(&[("MCP_TIMEOUT", "0")]);
        assert_eq!(
            env_layer(&e).unwrap_err().to_string(),
            "env MCP_TIMEOUT: invalid value `0` for `mcp.startup_timeout_secs`: \
             expected milliseconds from 1 to 3600000"
        );
    }

    #[test]
    fn prompt_and_prompt_file_conflict() {
        let e = env(&[
            ("WRIGHT_SYSTEM_PROMPT", "a"),
            ("WRIGHT_SYSTEM_PROMPT_FILE", "b"),
        ]);
        assert_eq!(
            env_layer(&e).unwrap_err().to_string(),
            "env WRIGHT_SYSTEM_PROMPT_FILE: WRIGHT_SYSTEM_PROMPT and WRIGHT_SYSTEM_PROMPT_FILE \
             cannot both be set"
        );
    }

    #[test]
    fn base_url_follows_the_provider() {
        let e = env(&[
            ("ANTHROPIC_BASE_URL", "http://127.0.0.1:1"),
            ("OPENAI_BASE_URL", "http://127.0.0.1:2/v1"),
        ]);
        let url = |p| {
            env_base_url(&e, p)
                .unwrap()
                .map(|(a, s)| (a, s.to_string()))
        };
        assert_eq!(
            url(Some(Provider::Anthropic)),
            Some((
                Assign::BaseUrl("http://127.0.0.1:1".into()),
                "env ANTHROPIC_BASE_URL".into()
            ))
        );
        for p in [Provider::OpenaiChat, Provider::OpenaiResponses] {
            assert_eq!(
                url(Some(p)),
                Some((
                    Assign::BaseUrl("http://127.0.0.1:2/v1".into()),
                    "env OPENAI_BASE_URL".into()
                ))
            );
        }
        assert_eq!(url(None), None);
    }
}
