//! Claude Code's flags that need more than clap: `--settings` and
//! `--setting-sources` (read before anything else, their `env` put in the
//! process environment while it has one thread), `--json-schema` (checked
//! before a session starts), and the unknown-flag message that names Claude
//! Code's flags wright does not implement.

use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};

use crate::args::Args;
use crate::exit;
use crate::exit::UsageError;

/// Claude Code flags the Agent SDK may pass that wright does not implement:
/// each is refused by name rather than ignored.
const UNSUPPORTED_CLAUDE_FLAGS: &[&str] = &[
    "--betas",
    "--plugin-dir",
    "--resume-session-at",
    "--resume-drops-turn",
    "--session-mirror",
    "--task-budget",
    "--thinking-display",
];

/// A command line clap refused: an unknown flag is named, with whether it
/// is one of Claude Code's that wright lacks; anything else (including
/// `--help` and `--version`) is clap's own output and exit code.
pub(crate) fn parse_error(e: clap::Error) -> ExitCode {
    if e.kind() == ErrorKind::UnknownArgument
        && let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg)
    {
        let flag = arg.split_once('=').map_or(arg.as_str(), |(f, _)| f);
        if UNSUPPORTED_CLAUDE_FLAGS.contains(&flag) {
            eprintln!(
                "error: {flag} is a Claude Code flag that wright does not support; remove it \
                 (see `wright --help` for the flags wright takes)"
            );
        } else {
            eprintln!(
                "error: unknown flag {flag}: wright does not support it (see `wright --help`)"
            );
        }
        return ExitCode::from(exit::USAGE);
    }
    e.exit()
}

/// Reads `--settings` and `--setting-sources` before anything else, and
/// puts the settings' `env` into the process environment so every command
/// wright starts (tools, hooks, MCP servers, checks) sees it, as in Claude
/// Code. Runs while the process has one thread. `Err` is a usage error.
pub(crate) fn read_settings_flags(args: &mut Args) -> Result<(), String> {
    if let Some(list) = &args.setting_sources {
        args.parsed_sources =
            Some(wright_config::SettingSources::parse(list).map_err(|e| e.to_string())?);
    }
    let Some(value) = &args.settings else {
        return Ok(());
    };
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let settings = wright_config::FlagSettings::load(value, &cwd).map_err(|e| e.to_string())?;
    set_settings_env(&settings.env);
    args.parsed_settings = Some(settings);
    Ok(())
}

/// Whether `--settings` may set the variable `name`: never a provider key,
/// nor a variable wright itself reads (its config, base URLs, the
/// sandbox's own markers), so the settings' `env` reaches commands only
/// and cannot redirect keys or change wright's safety settings.
pub(crate) fn settings_env_allowed(name: &str) -> bool {
    !(name.starts_with("WRIGHT_")
        || wright_sandbox::is_provider_key_var(name)
        || wright_config::ENV_VARS.contains(&name)
        || name.ends_with("_API_KEY"))
}

#[allow(unsafe_code)]
fn set_settings_env(vars: &[(String, String)]) {
    let mut refused = Vec::new();
    for (name, value) in vars {
        if !settings_env_allowed(name) {
            refused.push(name.as_str());
            continue;
        }
        // SAFETY: called from `main` before the runtime (or any other
        // thread) starts, so nothing reads the environment concurrently;
        // the name and value were checked to hold no `=` or NUL.
        unsafe { std::env::set_var(name, value) };
    }
    if !refused.is_empty() {
        crate::notices::say(&format!(
            "warning: --settings env: not setting {} (provider keys and variables wright reads \
             itself cannot be set this way)",
            refused.join(", ")
        ));
    }
}

/// `--json-schema`: parsed and checked, so a bad schema is a usage error
/// before anything starts.
pub(crate) fn json_schema_flag(args: &Args) -> Result<Option<serde_json::Value>, UsageError> {
    let Some(text) = &args.json_schema else {
        return Ok(None);
    };
    let schema: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| UsageError(format!("--json-schema: invalid JSON: {e}")))?;
    wright_core::check_json_schema(&schema)
        .map_err(|e| UsageError(format!("--json-schema: not a usable JSON schema: {e}")))?;
    Ok(Some(schema))
}
