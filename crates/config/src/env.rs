//! The environment layer: `WRIGHT_*` variables, Claude Code's MCP timeouts
//! (`MCP_TIMEOUT`, `MCP_TOOL_TIMEOUT`, in milliseconds), the stream
//! timeouts (`WRIGHT_STREAM_*_TIMEOUT_MS`, in milliseconds) and the
//! provider-specific base URL variables. Only the variables named in [`ENV_VARS`] are ever
//! looked at; credentials such as `ANTHROPIC_API_KEY` are not config and
//! are never read here. An empty value counts as unset. Most variables
//! set one plain key each and are read through its row of the key table.

use std::collections::HashMap;

use crate::assign::Assign;
use crate::error::{ConfigError, Origin, shorten};
use crate::keys::{TABLE, index_of};
use crate::kinds::Provider;
use crate::rows;
use crate::source::Source;

/// Every environment variable config reads.
pub const ENV_VARS: [&str; 16] = [
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
    "WRIGHT_STREAM_IDLE_TIMEOUT_MS",
    "WRIGHT_STREAM_FIRST_BYTE_TIMEOUT_MS",
    ANTHROPIC_BASE_URL,
    OPENAI_BASE_URL,
];

const ANTHROPIC_BASE_URL: &str = "ANTHROPIC_BASE_URL";
const OPENAI_BASE_URL: &str = "OPENAI_BASE_URL";

/// The variables that each set one plain key, with its row in the key
/// table (which reads and checks the value), in the order they apply.
const ROW_VARS: [(&str, usize); 8] = [
    ("WRIGHT_PROVIDER", index_of("provider")),
    ("WRIGHT_MODEL", index_of("model")),
    ("WRIGHT_MAX_TURNS", index_of("max_turns")),
    ("WRIGHT_MAX_TOKENS", index_of("max_tokens")),
    ("WRIGHT_PERMISSION_MODE", index_of("permission_mode")),
    ("WRIGHT_REASONING_EFFORT", index_of("reasoning_effort")),
    ("WRIGHT_FALLBACK_MODEL", index_of("fallback_model")),
    ("WRIGHT_SANDBOX", index_of("sandbox.mode")),
];

/// Reads the `WRIGHT_*` variables (not the base URLs: see [`env_base_url`]).
pub(crate) fn env_layer(
    env: &HashMap<String, String>,
) -> Result<Vec<(Assign, Source)>, ConfigError> {
    let get = |name: &str| env.get(name).filter(|v| !v.is_empty());
    let mut out = Vec::new();
    let mut push = |name: &str, assign: Assign| out.push((assign, Source::Env(name.to_owned())));

    for (var, row) in ROW_VARS {
        if let Some(v) = get(var) {
            push(var, through_row(var, row, v)?);
        }
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
    // The prompt is taken as written, not through its row: the row's text
    // check would refuse a prompt of only spaces, which this variable has
    // always passed on.
    if let Some(v) = prompt {
        push("WRIGHT_SYSTEM_PROMPT", Assign::SystemPrompt(v.clone()));
    }
    if let Some(v) = prompt_file {
        let file = const { index_of("system_prompt_file") };
        push(
            "WRIGHT_SYSTEM_PROMPT_FILE",
            through_row("WRIGHT_SYSTEM_PROMPT_FILE", file, v)?,
        );
    }
    // Claude Code's variables are in milliseconds, the keys in seconds, so
    // these two are read here rather than through the rows.
    if let Some(v) = get("MCP_TIMEOUT") {
        let ms = millis("MCP_TIMEOUT", "mcp.startup_timeout_secs", v, 3_600_000)?;
        push("MCP_TIMEOUT", Assign::McpStartupTimeoutMs(ms));
    }
    if let Some(v) = get("MCP_TOOL_TIMEOUT") {
        let ms = millis("MCP_TOOL_TIMEOUT", "mcp.tool_timeout_secs", v, 86_400_000)?;
        push("MCP_TOOL_TIMEOUT", Assign::McpToolTimeoutMs(ms));
    }
    // Milliseconds too, so tests and scripts can set sub-second stalls.
    if let Some(v) = get("WRIGHT_STREAM_IDLE_TIMEOUT_MS") {
        let var = "WRIGHT_STREAM_IDLE_TIMEOUT_MS";
        let ms = millis(var, "stream.idle_timeout_secs", v, 3_600_000)?;
        push(var, Assign::StreamIdleTimeoutMs(ms));
    }
    if let Some(v) = get("WRIGHT_STREAM_FIRST_BYTE_TIMEOUT_MS") {
        let var = "WRIGHT_STREAM_FIRST_BYTE_TIMEOUT_MS";
        let ms = millis(var, "stream.first_byte_timeout_secs", v, 3_600_000)?;
        push(var, Assign::StreamFirstByteTimeoutMs(ms));
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
            let url = through_row(name, const { index_of("base_url") }, v)?;
            Ok(Some((url, Source::Env(name.to_owned()))))
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

/// The assignment `var`'s value makes for the key at `row` of the key
/// table, read and checked as the row says; an error shows the value as
/// the variable holds it.
fn through_row(var: &str, row: usize, value: &str) -> Result<Assign, ConfigError> {
    let key = &TABLE[row];
    rows::assign_text(key, value).map_err(|r| invalid(var, key.name, value, r.message))
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
    use crate::kinds::{PermissionMode, ReasoningEffort, SandboxMode};

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
    fn values_read_through_their_rows_are_checked_as_before() {
        let e = env(&[("WRIGHT_MAX_TOKENS", "0")]);
        assert_eq!(
            env_layer(&e).unwrap_err().to_string(),
            "env WRIGHT_MAX_TOKENS: invalid value `0` for `max_tokens`: expected a positive integer"
        );
        let e = env(&[("WRIGHT_MAX_TURNS", "99999999999")]);
        assert!(
            env_layer(&e)
                .unwrap_err()
                .to_string()
                .ends_with("expected a positive integer")
        );
        let e = env(&[("WRIGHT_PERMISSION_MODE", " acceptEdits ")]);
        let got: Vec<Assign> = env_layer(&e).unwrap().into_iter().map(|(a, _)| a).collect();
        assert_eq!(
            got,
            vec![Assign::PermissionMode(PermissionMode::AcceptEdits)]
        );
        let e = env(&[("WRIGHT_SYSTEM_PROMPT_FILE", "rel/p.md")]);
        let got: Vec<Assign> = env_layer(&e).unwrap().into_iter().map(|(a, _)| a).collect();
        assert_eq!(got, vec![Assign::SystemPromptFile("rel/p.md".into())]);
        let e = env(&[("OPENAI_BASE_URL", "localhost:1")]);
        assert_eq!(
            env_base_url(&e, Some(Provider::OpenaiChat))
                .unwrap_err()
                .to_string(),
            "env OPENAI_BASE_URL: invalid value `localhost:1` for `base_url`: \
             expected an http:// or https:// URL"
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
        let e = env(&[
            ("WRIGHT_STREAM_IDLE_TIMEOUT_MS", "250"),
            ("WRIGHT_STREAM_FIRST_BYTE_TIMEOUT_MS", "90000"),
        ]);
        let got: Vec<Assign> = env_layer(&e).unwrap().into_iter().map(|(a, _)| a).collect();
        assert_eq!(
            got,
            vec![
                Assign::StreamIdleTimeoutMs(250),
                Assign::StreamFirstByteTimeoutMs(90_000)
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
