//! The `[mcp]` and `[mcp_servers.NAME]` tables of a config file: their
//! typed shape (a server in the shape of a Claude Code `.mcp.json` entry),
//! the keys allowed at each level and the messages for wrong types (used
//! by `file.rs`), and their validation into [`Assign`]s. Every server is
//! stamped with the file it came from.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::assign::{Assign, Range};
use crate::builder::Builder;
use crate::doc::{S, key_segment};
use crate::error::ConfigError;
use crate::kinds::McpToolSearch;
use crate::mcp_settings::{McpServerSetting, McpTransport};

/// Keys allowed in `[mcp]`.
const MCP_KEYS: [&str; 5] = [
    "trust_project_servers",
    "tool_search",
    "startup_timeout_secs",
    "tool_timeout_secs",
    "trust_read_only_hints",
];
/// Keys allowed in each `[mcp_servers.NAME]`.
const SERVER_KEYS: [&str; 6] = ["type", "command", "args", "env", "url", "headers"];

/// The keys allowed in the table at `path`; `None` for paths outside
/// `[mcp]` and `[mcp_servers]` or where any key is allowed (server names,
/// `env`, `headers`).
pub(crate) fn allowed_keys(path: &[&str]) -> Option<&'static [&'static str]> {
    match path {
        ["mcp"] => Some(&MCP_KEYS),
        ["mcp_servers", _] => Some(&SERVER_KEYS),
        _ => None,
    }
}

/// "expected …" for a key under `[mcp]` or `[mcp_servers]` whose value
/// has the wrong type; `None` for other keys.
pub(crate) fn expected_for(path: &[&str]) -> Option<String> {
    let message = match path {
        ["mcp" | "mcp_servers"] | ["mcp_servers", _] => "expected a table".to_owned(),
        ["mcp", "trust_project_servers" | "trust_read_only_hints"] => {
            "expected true or false".to_owned()
        }
        ["mcp", "tool_search"] => McpToolSearch::expected(),
        ["mcp", "startup_timeout_secs"] => Range::MCP_STARTUP_TIMEOUT.describe(),
        ["mcp", "tool_timeout_secs"] => Range::MCP_TOOL_TIMEOUT.describe(),
        ["mcp_servers", _, "args"] => "expected an array of strings".to_owned(),
        ["mcp_servers", _, "env" | "headers"] => "expected a table of strings".to_owned(),
        ["mcp_servers", _, "type"] => type_expected(),
        ["mcp" | "mcp_servers", ..] => "expected a string".to_owned(),
        _ => return None,
    };
    Some(message)
}

fn type_expected() -> String {
    "expected one of: stdio, http, sse".to_owned()
}

/// `[mcp]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct McpDoc {
    trust_project_servers: S<bool>,
    tool_search: S<String>,
    startup_timeout_secs: S<i64>,
    tool_timeout_secs: S<i64>,
    trust_read_only_hints: S<bool>,
}

/// `[mcp_servers.NAME]`. Everything is optional here so a missing or
/// misplaced key is reported by name, at its table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ServerDoc {
    #[serde(rename = "type")]
    kind: S<String>,
    command: S<String>,
    args: S<Vec<String>>,
    env: S<BTreeMap<String, String>>,
    url: S<String>,
    headers: S<BTreeMap<String, String>>,
}

/// `[mcp]`: one assignment per key set.
pub(crate) fn mcp(b: &mut Builder<'_>, m: McpDoc) -> Result<(), ConfigError> {
    if let Some(v) = m.trust_project_servers {
        b.push(Assign::McpTrustProjectServers(v.into_inner()));
    }
    if let Some(v) = m.tool_search {
        let t = b.word(
            "mcp.tool_search",
            v,
            McpToolSearch::parse,
            McpToolSearch::expected,
        )?;
        b.push(Assign::McpToolSearch(t));
    }
    if let Some(v) = m.startup_timeout_secs {
        let n: u64 = b.num("mcp.startup_timeout_secs", v, Range::MCP_STARTUP_TIMEOUT)?;
        b.push(Assign::McpStartupTimeoutMs(n * 1000));
    }
    if let Some(v) = m.tool_timeout_secs {
        let n: u64 = b.num("mcp.tool_timeout_secs", v, Range::MCP_TOOL_TIMEOUT)?;
        b.push(Assign::McpToolTimeoutMs(n * 1000));
    }
    if let Some(v) = m.trust_read_only_hints {
        b.push(Assign::McpTrustReadOnlyHints(v.into_inner()));
    }
    Ok(())
}

/// `[mcp_servers]`: the file's servers as one [`Assign::McpServers`].
pub(crate) fn servers(
    b: &mut Builder<'_>,
    servers: BTreeMap<Spanned<String>, Spanned<ServerDoc>>,
) -> Result<(), ConfigError> {
    let list = servers
        .into_iter()
        .map(|(name, doc)| server(b, name, doc))
        .collect::<Result<Vec<_>, _>>()?;
    if !list.is_empty() {
        b.push(Assign::McpServers(list));
    }
    Ok(())
}

fn server(
    b: &Builder<'_>,
    name: Spanned<String>,
    doc: Spanned<ServerDoc>,
) -> Result<McpServerSetting, ConfigError> {
    let name_span = name.span();
    let name = name.into_inner();
    let key = format!("mcp_servers.{}", key_segment(&name));
    if let Err(message) = check_name(&name) {
        return Err(b.invalid(&key, name_span, &name, message));
    }
    let start = doc.span().start;
    let d = doc.into_inner();
    let field = |f: &str| format!("{key}.{f}");
    let kind = match &d.kind {
        None => "stdio".to_owned(),
        Some(k) if matches!(k.get_ref().as_str(), "stdio" | "http" | "sse") => k.get_ref().clone(),
        Some(k) => {
            return Err(b.invalid(&field("type"), k.span(), k.get_ref(), type_expected()));
        }
    };
    // A key of the other transport is a mistake worth naming, not
    // something to drop silently.
    let misplaced = |f: &str, span: std::ops::Range<usize>, hint: &str| {
        b.invalid(&field(f), span, f, hint.to_owned())
    };
    let transport = if kind == "stdio" {
        if let Some(u) = &d.url {
            let hint = if d.kind.is_none() {
                "`url` needs type = \"http\" (or \"sse\")"
            } else {
                "`url` is for type = \"http\" or \"sse\""
            };
            return Err(misplaced("url", u.span(), hint));
        }
        if let Some(h) = &d.headers {
            return Err(misplaced(
                "headers",
                h.span(),
                "`headers` is for type = \"http\" or \"sse\"",
            ));
        }
        let Some(command) = d.command else {
            return Err(ConfigError::Missing {
                origin: (b.at)(start),
                key: field("command"),
                message: "expected the program to run (or type = \"http\" and a `url`)".to_owned(),
            });
        };
        let command = b.text(&field("command"), command)?;
        let args = d.args.map(Spanned::into_inner).unwrap_or_default();
        let env = d
            .env
            .map(|e| checked_env(b, &field("env"), e))
            .transpose()?;
        McpTransport::Stdio {
            command,
            args,
            env: env.unwrap_or_default(),
        }
    } else {
        for (f, span) in [
            ("command", d.command.as_ref().map(Spanned::span)),
            ("args", d.args.as_ref().map(Spanned::span)),
            ("env", d.env.as_ref().map(Spanned::span)),
        ] {
            if let Some(span) = span {
                return Err(misplaced(f, span, "only a stdio server runs a command"));
            }
        }
        let Some(url) = d.url else {
            return Err(ConfigError::Missing {
                origin: (b.at)(start),
                key: field("url"),
                message: "expected an http:// or https:// URL".to_owned(),
            });
        };
        let span = url.span();
        let url = url.into_inner();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(b.invalid(
                &field("url"),
                span,
                &url,
                "expected an http:// or https:// URL".to_owned(),
            ));
        }
        let headers = d.headers.map(Spanned::into_inner).unwrap_or_default();
        if kind == "http" {
            McpTransport::Http { url, headers }
        } else {
            McpTransport::Sse { url, headers }
        }
    };
    Ok(McpServerSetting {
        name,
        transport,
        source: b.source.clone(),
    })
}

fn checked_env(
    b: &Builder<'_>,
    key: &str,
    env: Spanned<BTreeMap<String, String>>,
) -> Result<BTreeMap<String, String>, ConfigError> {
    let span = env.span();
    let env = env.into_inner();
    if let Some(bad) = env
        .keys()
        .find(|k| k.is_empty() || k.contains('=') || k.contains('\0'))
    {
        return Err(b.invalid(
            key,
            span,
            bad,
            "expected variable names without `=`".to_owned(),
        ));
    }
    Ok(env)
}

/// A server name: ASCII letters, digits, `_` and `-`, as tool names
/// (`mcp__<server>__<tool>`) need.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err("expected a server name of letters, digits, `_` and `-`".to_owned());
    }
    Ok(())
}

#[cfg(test)]
#[path = "doc_mcp_tests.rs"]
mod tests;
