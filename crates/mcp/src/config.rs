//! MCP server configuration: the servers of Claude Code's `.mcp.json`
//! (`mcpServers`) and of `--mcp-config FILE|JSON`, with `${VAR}` /
//! `${VAR:-default}` expansion, server-name validation and the env rules a
//! server must follow (see [`REFUSED_ENV`] and [`is_provider_key`]).
//!
//! Merging several sources (user/project/local TOML, trust of a project's
//! `.mcp.json`) belongs to the caller; this module parses one source.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// Looks a variable up for `${VAR}` expansion; injected so tests do not
/// depend on the process environment.
pub type EnvLookup<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Reads the process environment (the lookup the binary uses).
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Variables a server's `env` may not set. The rule: whatever changes *which
/// code runs* must be visible in `command`/`args` (what the user approves),
/// never hidden in `env`. A user who needs one can say so in the command
/// (`env NODE_OPTIONS=… node server.js`).
/// - `PATH`: decides which `command` binary (and every tool the server
///   spawns) is executed.
/// - `LD_PRELOAD`, `LD_LIBRARY_PATH`, `LD_AUDIT`: load arbitrary shared
///   objects into the server and its children (Linux and most Unixes).
/// - `DYLD_*` (checked as a prefix): the same on macOS.
/// - `BASH_ENV`, `ENV`: files sourced by every non-interactive bash / POSIX
///   sh the server starts (so `sh -c` in a server runs them).
/// - `NODE_OPTIONS`: `--require` / `--import` preload code into any Node
///   server (most MCP servers are `npx …`).
/// - `PYTHONPATH`, `PYTHONHOME`: shadow modules or the whole stdlib of a
///   Python server (`uvx …`).
/// - `PERL5OPT`, `PERL5LIB`, `RUBYOPT`, `RUBYLIB`: the same for Perl and Ruby.
/// - `NODE_PATH`, `PYTHONSTARTUP`, `PYTHONWARNINGS` (it imports a module
///   named in it), `PYTHONUSERBASE`, `JAVA_TOOL_OPTIONS`, `_JAVA_OPTIONS`,
///   `JDK_JAVA_OPTIONS`, `GCONV_PATH`: other loaders' ways to run code.
/// - `BROWSER`, `GIT_SSH`, `GIT_SSH_COMMAND`, `GIT_ASKPASS`, `SSH_ASKPASS`,
///   `GIT_EXEC_PATH`: commands a server (or its git) runs by name.
/// - Prefixes `LD_`, `DYLD_`, `GIT_CONFIG` (`GIT_CONFIG_COUNT/KEY/VALUE`
///   set any git option, hooks and fsmonitor included), and the package
///   managers' `NPM_CONFIG_`, `YARN_`, `PIP_`, `UV_` (a registry or index
///   of the project's choosing turns `npx -y pkg` / `uvx pkg` into its code).
pub const REFUSED_ENV: &[&str] = &[
    "PATH",
    "BASH_ENV",
    "ENV",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONSTARTUP",
    "PYTHONWARNINGS",
    "PYTHONUSERBASE",
    "PERL5OPT",
    "PERL5LIB",
    "RUBYOPT",
    "RUBYLIB",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "GCONV_PATH",
    "BROWSER",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_EXEC_PATH",
];

/// Prefixes of refused variables (see [`REFUSED_ENV`]).
pub const REFUSED_ENV_PREFIXES: &[&str] = &[
    "LD_",
    "DYLD_",
    "GIT_CONFIG",
    "NPM_CONFIG_",
    "YARN_",
    "PIP_",
    "UV_",
];

/// Whether `key` is refused in a server's `env` (case-insensitive, so a
/// spelling such as `Path` does not slip through on a case-insensitive OS).
pub fn is_refused_env(key: &str) -> bool {
    let upper = key.to_ascii_uppercase();
    REFUSED_ENV.contains(&upper.as_str())
        || REFUSED_ENV_PREFIXES.iter().any(|p| upper.starts_with(p))
}

/// Whether `key` names a model provider's API key (the model keys of
/// [`wright_sandbox::PROVIDER_KEY_VARS`], case-insensitive): refused as an
/// explicit `env` key and never expanded into a config, so a project's
/// `.mcp.json` cannot forward the user's key anywhere. (Every server's
/// inherited environment loses all the credentials every child loses, see
/// [`wright_sandbox::scrub_env`]; a cloud credential the user's own config
/// sets explicitly still reaches the server.)
pub fn is_provider_key(key: &str) -> bool {
    wright_sandbox::is_model_api_key(key)
}

/// Where a server's definition came from (shown by `wright mcp list`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigSource {
    /// A file: `.mcp.json` or a `--mcp-config FILE`.
    File(PathBuf),
    /// A JSON string given to `--mcp-config`.
    CommandLine,
}

impl fmt::Display for ConfigSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::File(path) => write!(f, "{}", path.display()),
            Self::CommandLine => f.write_str("command line"),
        }
    }
}

/// How to reach one server: the config crate's type, here with every
/// `${…}` already expanded. One type for both, so a `[mcp_servers]` table
/// and a `.mcp.json` entry cannot drift apart.
pub use wright_config::McpTransport as McpServerConfig;

/// One named server and where it was defined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpServer {
    /// The validated name (`[A-Za-z0-9_-]+`), the `<server>` of
    /// `mcp__<server>__<tool>`.
    pub name: String,
    /// How to reach it.
    pub config: McpServerConfig,
    /// The file or flag that defined it.
    pub source: ConfigSource,
}

/// A configuration that cannot be used; the message names the source and,
/// when it applies, the server.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: cannot read: {message}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The OS error.
        message: String,
    },
    /// Not JSON, or not the `{"mcpServers": {…}}` shape.
    #[error("{origin}: {message}")]
    Invalid {
        /// The file or "command line".
        origin: ConfigSource,
        /// What is wrong.
        message: String,
    },
    /// One server's definition is wrong.
    #[error("{origin}: MCP server \"{server}\": {message}")]
    Server {
        /// The file or "command line".
        origin: ConfigSource,
        /// The server's name as written.
        server: String,
        /// What is wrong.
        message: String,
    },
}

/// Reads and parses a `.mcp.json`-shaped file.
pub fn load_file(path: &Path, env: EnvLookup<'_>) -> Result<Vec<McpServer>, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Read {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    parse(&text, ConfigSource::File(path.to_path_buf()), env)
}

/// Parses the value of `--mcp-config`: inline JSON when it starts with `{`,
/// otherwise a file path (as Claude Code does).
pub fn load_flag(value: &str, env: EnvLookup<'_>) -> Result<Vec<McpServer>, ConfigError> {
    if value.trim_start().starts_with('{') {
        parse(value, ConfigSource::CommandLine, env)
    } else {
        load_file(Path::new(value), env)
    }
}

/// Parses `{"mcpServers": {"name": {…}}}` text; servers come back sorted by
/// name. Unknown keys are ignored, as Claude Code does. One bad server
/// fails the whole text ([`parse_each`] keeps the others).
pub fn parse(
    text: &str,
    source: ConfigSource,
    env: EnvLookup<'_>,
) -> Result<Vec<McpServer>, ConfigError> {
    parse_each(text, source, env)?.into_iter().collect()
}

/// Like [`parse`], with each server's own result, so one bad entry of a
/// shared `.mcp.json` does not take the good ones with it. Only text that
/// is not a `.mcp.json` at all is an error.
pub fn parse_each(
    text: &str,
    source: ConfigSource,
    env: EnvLookup<'_>,
) -> Result<Vec<Result<McpServer, ConfigError>>, ConfigError> {
    let invalid = |message: String| ConfigError::Invalid {
        origin: source.clone(),
        message,
    };
    let root: Value =
        serde_json::from_str(text).map_err(|e| invalid(format!("not valid JSON: {e}")))?;
    let servers = root
        .get("mcpServers")
        .ok_or_else(|| invalid("no \"mcpServers\" object".to_owned()))?
        .as_object()
        .ok_or_else(|| invalid("\"mcpServers\" is not an object".to_owned()))?;
    // Sorted here, not by the map: serde_json keeps insertion order when
    // any crate of the build enables `preserve_order`.
    let mut servers: Vec<(&String, &Value)> = servers.iter().collect();
    servers.sort_by(|a, b| a.0.cmp(b.0));
    Ok(servers
        .into_iter()
        .map(|(name, def)| {
            parse_server(name, def, &source, env).map_err(|message| ConfigError::Server {
                origin: source.clone(),
                server: name.clone(),
                message,
            })
        })
        .collect())
}

/// An [`EnvLookup`] that expands nothing: `${VAR}` stays as written. For
/// showing and fingerprinting a definition as its file has it (expanded
/// values may be secrets, and may change without the file changing).
pub fn unexpanded(name: &str) -> Option<String> {
    Some(format!("${{{name}}}"))
}

/// Checks a server name: non-empty, ASCII letters, digits, `_`, `-` and
/// `.` (not first: `context7.com` is a name users give, `..` is not). The
/// dot becomes `_` in tool names.
pub fn validate_server_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("the server name is empty".to_owned());
    }
    if name.starts_with('.') {
        return Err("the server name may not start with '.'".to_owned());
    }
    // `__` separates server and tool in `mcp__<server>__<tool>`: a name
    // with one (or an `_` at either end, which makes one) would let a rule
    // or approval for one server's tool name a different server.
    if name.contains("__") || name.starts_with('_') || name.ends_with('_') {
        return Err(
            "the server name may not contain \"__\" or start or end with '_' \
             (it separates server and tool in mcp__<server>__<tool>)"
                .to_owned(),
        );
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return Err(format!(
            "the server name may only use letters, digits, '_', '-' and '.' (found {bad:?})"
        ));
    }
    Ok(())
}

fn parse_server(
    name: &str,
    def: &Value,
    source: &ConfigSource,
    env: EnvLookup<'_>,
) -> Result<McpServer, String> {
    validate_server_name(name)?;
    let obj = def
        .as_object()
        .ok_or_else(|| "the definition is not an object".to_owned())?;
    let kind = match obj.get("type") {
        None => "stdio",
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err("\"type\" is not a string".to_owned()),
    };
    let config = match kind {
        "stdio" => {
            let command = match obj.get("command") {
                Some(Value::String(c)) if !c.trim().is_empty() => expand(c, env)?,
                Some(Value::String(_)) => return Err("\"command\" is empty".to_owned()),
                Some(_) => return Err("\"command\" is not a string".to_owned()),
                None if obj.contains_key("url") => {
                    return Err(
                        "no \"command\" (for an HTTP server add \"type\": \"http\")".to_owned()
                    );
                }
                None => return Err("no \"command\"".to_owned()),
            };
            let args = match obj.get("args") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|a| match a {
                        Value::String(s) => expand(s, env),
                        _ => Err("\"args\" holds a value that is not a string".to_owned()),
                    })
                    .collect::<Result<_, _>>()?,
                Some(_) => return Err("\"args\" is not an array".to_owned()),
            };
            let env_vars = string_map(obj, "env", env)?;
            for key in env_vars.keys() {
                if is_refused_env(key) {
                    return Err(format!(
                        "\"env\" may not set {key}: it changes which code the server runs; \
                         put it in \"command\"/\"args\" instead (e.g. `env {key}=… cmd`)"
                    ));
                }
                if is_provider_key(key) {
                    return Err(format!(
                        "\"env\" may not set {key}: provider API keys are never passed to MCP servers"
                    ));
                }
                if key.is_empty() || key.contains('=') || key.contains('\0') {
                    return Err(format!("\"env\" has an invalid variable name {key:?}"));
                }
            }
            McpServerConfig::Stdio {
                command,
                args,
                env: env_vars,
            }
        }
        "http" | "sse" => {
            let url = match obj.get("url") {
                Some(Value::String(u)) if !u.trim().is_empty() => expand(u, env)?,
                Some(_) => return Err("\"url\" is not a non-empty string".to_owned()),
                None => return Err("no \"url\"".to_owned()),
            };
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err("\"url\" must start with http:// or https://".to_owned());
            }
            let headers = string_map(obj, "headers", env)?;
            if kind == "http" {
                McpServerConfig::Http { url, headers }
            } else {
                McpServerConfig::Sse { url, headers }
            }
        }
        // The Agent SDK also writes "name" (the same as the key) and wright
        // needs nothing else: the relay addresses the server by its key.
        // Whether this source may define one is the caller's decision
        // (only the driving program's `--mcp-config` may).
        "sdk" => McpServerConfig::Sdk,
        other => {
            return Err(format!(
                "unknown \"type\" {other:?} (expected \"stdio\", \"http\", \"sse\" or \"sdk\")"
            ));
        }
    };
    Ok(McpServer {
        name: name.to_owned(),
        config,
        source: source.clone(),
    })
}

/// An optional `{"K": "V"}` member, values expanded.
fn string_map(
    obj: &Map<String, Value>,
    key: &str,
    env: EnvLookup<'_>,
) -> Result<BTreeMap<String, String>, String> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), expand(s, env)?)),
                _ => Err(format!("\"{key}\".{k} is not a string")),
            })
            .collect(),
        Some(_) => Err(format!("\"{key}\" is not an object")),
    }
}

/// Expands `${VAR}` and `${VAR:-default}`; `$` not followed by `{` stays as
/// is. An unset variable without a default is an error naming it; provider
/// keys are never expanded (see [`is_provider_key`]).
pub fn expand(input: &str, env: EnvLookup<'_>) -> Result<String, String> {
    let mut out = String::with_capacity(input.len());
    let mut rest = input;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find('}')
            .ok_or_else(|| format!("unterminated \"${{\" in {input:?}"))?;
        let inner = &after[..end];
        let (name, default) = match inner.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (inner, None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!("invalid variable reference \"${{{inner}}}\""));
        }
        if is_provider_key(name) {
            return Err(format!(
                "refuses to expand ${{{name}}}: provider API keys are never passed to MCP servers"
            ));
        }
        // As in sh, `:-` also replaces a set but empty value.
        match (env(name), default) {
            (Some(value), Some(default)) if value.is_empty() => out.push_str(default),
            (Some(value), _) => out.push_str(&value),
            (None, Some(default)) => out.push_str(default),
            (None, None) => {
                return Err(format!(
                    "environment variable {name} is not set (write ${{{name}:-default}} for a fallback)"
                ));
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
