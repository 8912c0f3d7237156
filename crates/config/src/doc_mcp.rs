//! The `[mcp_servers.NAME]` tables of a config file: their typed shape (a
//! server in the shape of a Claude Code `.mcp.json` entry), the keys
//! allowed in a server and the messages for its values of a wrong type
//! (used by `file.rs`; `[mcp]`'s own keys are the key table's, read by
//! `rows.rs`), and their validation into [`Assign`]s. Every server is
//! stamped with the file it came from.
//!
//! OpenAI's Codex CLI uses the same `[mcp_servers.NAME]` table in its
//! `config.toml`, so a pasted Codex block is accepted too: a `url` without
//! `type` is streamable HTTP, `http_headers` is `headers`,
//! `bearer_token_env_var` becomes an `Authorization` header, `env_vars`
//! are checked and need nothing more (servers inherit wright's environment,
//! less provider keys), `enabled = false` leaves the server out,
//! and the per-server settings wright has no equivalent for
//! ([`CODEX_IGNORED_KEYS`]) are accepted and reported as not applied.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::assign::Assign;
use crate::builder::{Builder, S};
use crate::error::ConfigError;
use crate::mcp_settings::{McpServerSetting, McpTransport};
use crate::toml_text::key_segment;

type Span = std::ops::Range<usize>;

/// Keys allowed in each `[mcp_servers.NAME]`: wright's (`.mcp.json`'s),
/// then Codex's.
const SERVER_KEYS: [&str; 16] = [
    "type",
    "command",
    "args",
    "env",
    "url",
    "headers",
    "http_headers",
    "bearer_token_env_var",
    "env_vars",
    "enabled",
    "startup_timeout_sec",
    "startup_timeout_ms",
    "tool_timeout_sec",
    "cwd",
    "enabled_tools",
    "disabled_tools",
];

/// Codex's per-server keys that wright accepts but does not apply; each
/// one set is reported ([`crate::IgnoreReason::CodexSetting`]).
pub(crate) const CODEX_IGNORED_KEYS: [&str; 6] = [
    "startup_timeout_sec",
    "startup_timeout_ms",
    "tool_timeout_sec",
    "cwd",
    "enabled_tools",
    "disabled_tools",
];

/// Why the Codex key `key` of server `name` does nothing in wright, and
/// what to use instead.
fn codex_detail(name: &str, key: &str) -> String {
    match key {
        "startup_timeout_sec" | "startup_timeout_ms" => {
            "per-server startup timeout; wright waits mcp.startup_timeout_secs for every server"
                .to_owned()
        }
        "tool_timeout_sec" => {
            "per-server tool timeout; wright uses mcp.tool_timeout_secs for every server".to_owned()
        }
        "cwd" => "per-server working directory; wright starts stdio servers in the project root"
            .to_owned(),
        "enabled_tools" => format!(
            "per-server tool allow list; deny the other tools with permissions.deny rules such as \"mcp__{name}__TOOL\""
        ),
        "disabled_tools" => format!(
            "per-server tool deny list; use permissions.deny rules such as \"mcp__{name}__TOOL\" instead"
        ),
        _ => "per-server setting".to_owned(),
    }
}

/// The warning for one not-applied Codex key, from its dotted key
/// (`mcp_servers.NAME.KEY`, as stored in [`crate::Ignored::value`]).
pub(crate) fn codex_warning(dotted: &str) -> String {
    let (server, key) = dotted.rsplit_once('.').unwrap_or(("", dotted));
    let name = server.strip_prefix("mcp_servers.").unwrap_or(server);
    format!(
        "{dotted} is a Codex setting wright does not apply ({}); it is ignored",
        codex_detail(name, key)
    )
}

/// The keys allowed in the table at `path`; `None` for paths outside
/// `[mcp]` and `[mcp_servers]` or where any key is allowed (server names,
/// `env`, `headers`).
pub(crate) fn allowed_keys(path: &[&str]) -> Option<&'static [&'static str]> {
    match path {
        ["mcp"] => crate::keys::members("mcp"),
        ["mcp_servers", _] => Some(&SERVER_KEYS),
        _ => None,
    }
}

/// "expected …" for a key under `[mcp]` or `[mcp_servers]` whose value
/// has the wrong type; `None` for other keys.
pub(crate) fn expected_for(path: &[&str]) -> Option<String> {
    let message = match path {
        ["mcp" | "mcp_servers"] | ["mcp_servers", _] => "expected a table".to_owned(),
        ["mcp_servers", _, "enabled"] => "expected true or false".to_owned(),
        [
            "mcp_servers",
            _,
            "args" | "env_vars" | "enabled_tools" | "disabled_tools",
        ] => "expected an array of strings".to_owned(),
        ["mcp_servers", _, "env" | "headers" | "http_headers"] => {
            "expected a table of strings".to_owned()
        }
        ["mcp_servers", _, "startup_timeout_ms"] => {
            "expected a whole number of milliseconds".to_owned()
        }
        ["mcp_servers", _, "type"] => type_expected(),
        ["mcp" | "mcp_servers", ..] => "expected a string".to_owned(),
        _ => return None,
    };
    Some(message)
}

fn type_expected() -> String {
    "expected one of: stdio, http, sse".to_owned()
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
    // Codex's keys.
    http_headers: S<BTreeMap<String, String>>,
    bearer_token_env_var: S<String>,
    env_vars: S<Vec<String>>,
    enabled: S<bool>,
    startup_timeout_sec: S<toml::Value>,
    startup_timeout_ms: S<i64>,
    tool_timeout_sec: S<toml::Value>,
    cwd: S<String>,
    enabled_tools: S<Vec<String>>,
    disabled_tools: S<Vec<String>>,
}

impl ServerDoc {
    /// The [`CODEX_IGNORED_KEYS`] keys set, in that order.
    fn codex_ignored(&self) -> Vec<&'static str> {
        let set = [
            self.startup_timeout_sec.is_some(),
            self.startup_timeout_ms.is_some(),
            self.tool_timeout_sec.is_some(),
            self.cwd.is_some(),
            self.enabled_tools.is_some(),
            self.disabled_tools.is_some(),
        ];
        CODEX_IGNORED_KEYS
            .into_iter()
            .zip(set)
            .filter_map(|(k, set)| set.then_some(k))
            .collect()
    }
}

/// `[mcp_servers]`: the file's servers as one [`Assign::McpServers`],
/// without those with `enabled = false`. The Codex keys wright does not
/// apply are noted in the builder's `not_applied`.
pub(crate) fn servers(
    b: &mut Builder<'_>,
    servers: BTreeMap<Spanned<String>, Spanned<ServerDoc>>,
) -> Result<(), ConfigError> {
    let mut list = Vec::new();
    let mut not_applied = Vec::new();
    for (name, doc) in servers {
        if let Some(s) = server(b, name, doc, &mut not_applied)? {
            list.push(s);
        }
    }
    b.not_applied.extend(not_applied);
    if !list.is_empty() {
        b.push(Assign::McpServers(list));
    }
    Ok(())
}

/// One server; `None` when it is switched off (`enabled = false`). The
/// dotted keys of its Codex settings wright does not apply are added to
/// `not_applied`.
fn server(
    b: &Builder<'_>,
    name: Spanned<String>,
    doc: Spanned<ServerDoc>,
    not_applied: &mut Vec<String>,
) -> Result<Option<McpServerSetting>, ConfigError> {
    let name_span = name.span();
    let name = name.into_inner();
    let key = format!("mcp_servers.{}", key_segment(&name));
    if let Err(message) = check_name(&name) {
        return Err(b.invalid(&key, name_span, &name, message));
    }
    let start = doc.span().start;
    let d = doc.into_inner();
    let field = |f: &str| format!("{key}.{f}");
    check_codex_ignored(b, &field, &d)?;
    let ignored = d.codex_ignored();
    // `enabled = true` changes nothing; a switched-off server is still
    // checked, then left out.
    let enabled = d.enabled.as_ref().is_none_or(|e| *e.get_ref());
    // Two keys that say the same thing: name both, at the later one.
    let conflict = |(f1, s1): (&str, Span), (f2, s2): (&str, Span)| {
        let ((first, _), (second, later)) = if s1.start < s2.start {
            ((f1, s1), (f2, s2))
        } else {
            ((f2, s2), (f1, s1))
        };
        ConfigError::Conflict {
            origin: (b.at)(later.start),
            first: format!("`{}`", field(first)),
            second: format!("`{}`", field(second)),
        }
    };
    let kind = match &d.kind {
        // Codex has no `type`: a `url` alone is streamable HTTP.
        None => match (&d.command, &d.url) {
            (Some(c), Some(u)) => {
                return Err(conflict(("command", c.span()), ("url", u.span())));
            }
            (None, Some(_)) => "http".to_owned(),
            _ => "stdio".to_owned(),
        },
        Some(k) if matches!(k.get_ref().as_str(), "stdio" | "http" | "sse") => k.get_ref().clone(),
        // In-process servers of the program driving wright need no
        // approval, so no file may define one: only that program's
        // `--mcp-config`.
        Some(k) if k.get_ref() == "sdk" => {
            return Err(b.invalid(
                &field("type"),
                k.span(),
                k.get_ref(),
                "an SDK server can only be defined by the program driving wright, in its \
                 --mcp-config"
                    .to_owned(),
            ));
        }
        Some(k) => {
            return Err(b.invalid(&field("type"), k.span(), k.get_ref(), type_expected()));
        }
    };
    let headers = match (d.headers, d.http_headers) {
        (Some(h), Some(hh)) => {
            return Err(conflict(("headers", h.span()), ("http_headers", hh.span())));
        }
        (Some(h), None) => Some(("headers", h)),
        (None, Some(hh)) => Some(("http_headers", hh)),
        (None, None) => None,
    };
    // A key of the other transport is a mistake worth naming, not
    // something to drop silently.
    let misplaced =
        |f: &str, span: Span, hint: &str| b.invalid(&field(f), span, f, hint.to_owned());
    let transport = if kind == "stdio" {
        if let Some(u) = &d.url {
            return Err(misplaced(
                "url",
                u.span(),
                "`url` is for type = \"http\" or \"sse\"",
            ));
        }
        if let Some((f, h)) = &headers {
            return Err(misplaced(
                f,
                h.span(),
                &format!("`{f}` is for type = \"http\" or \"sse\""),
            ));
        }
        if let Some(v) = &d.bearer_token_env_var {
            return Err(misplaced(
                "bearer_token_env_var",
                v.span(),
                "`bearer_token_env_var` is for type = \"http\" or \"sse\"",
            ));
        }
        let Some(command) = d.command else {
            return Err(ConfigError::Missing {
                origin: (b.at)(start),
                key: field("command"),
                message: "expected the program to run (or a `url`)".to_owned(),
            });
        };
        let command = b.text(&field("command"), command)?;
        let args = d.args.map(Spanned::into_inner).unwrap_or_default();
        let env = d
            .env
            .map(|e| checked_env(b, &field("env"), e))
            .transpose()?
            .unwrap_or_default();
        if let Some(vars) = d.env_vars {
            let span = vars.span();
            for var in vars.into_inner() {
                if !is_var_name(&var) {
                    return Err(b.invalid(
                        &field("env_vars"),
                        span,
                        &var,
                        "expected variable names of letters, digits and `_`".to_owned(),
                    ));
                }
                // Nothing to add: a stdio server inherits wright's
                // environment (less provider keys), so the variable reaches
                // it when set, and an unset one stays unset, as in Codex.
            }
        }
        McpTransport::Stdio { command, args, env }
    } else {
        for (f, span) in [
            ("command", d.command.as_ref().map(Spanned::span)),
            ("args", d.args.as_ref().map(Spanned::span)),
            ("env", d.env.as_ref().map(Spanned::span)),
            ("env_vars", d.env_vars.as_ref().map(Spanned::span)),
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
        let (headers_key, mut headers) = match headers {
            Some((f, h)) => (f, h.into_inner()),
            None => ("headers", BTreeMap::new()),
        };
        if let Some(var) = d.bearer_token_env_var {
            let span = var.span();
            let var = var.into_inner();
            if !is_var_name(&var) {
                return Err(b.invalid(
                    &field("bearer_token_env_var"),
                    span,
                    &var,
                    "expected a variable name of letters, digits and `_`".to_owned(),
                ));
            }
            if let Some(existing) = headers
                .keys()
                .find(|h| h.eq_ignore_ascii_case("authorization"))
            {
                return Err(ConfigError::Conflict {
                    origin: (b.at)(span.start),
                    first: format!("`{}.{}`", field(headers_key), key_segment(existing)),
                    second: format!("`{}`", field("bearer_token_env_var")),
                });
            }
            // `${VAR}` is expanded when the server starts, like any header.
            headers.insert("Authorization".to_owned(), format!("Bearer ${{{var}}}"));
        }
        if kind == "http" {
            McpTransport::Http { url, headers }
        } else {
            McpTransport::Sse { url, headers }
        }
    };
    if !enabled {
        return Ok(None);
    }
    not_applied.extend(ignored.into_iter().map(field));
    Ok(Some(McpServerSetting {
        name,
        transport,
        source: b.source.clone(),
    }))
}

/// The types serde cannot check for the ignored Codex keys: a timeout in
/// seconds is an integer or a float.
fn check_codex_ignored(
    b: &Builder<'_>,
    field: &dyn Fn(&str) -> String,
    d: &ServerDoc,
) -> Result<(), ConfigError> {
    for (f, v) in [
        ("startup_timeout_sec", &d.startup_timeout_sec),
        ("tool_timeout_sec", &d.tool_timeout_sec),
    ] {
        if let Some(v) = v
            && !matches!(v.get_ref(), toml::Value::Integer(_) | toml::Value::Float(_))
        {
            return Err(b.invalid(
                &field(f),
                v.span(),
                &v.get_ref().to_string(),
                "expected a number of seconds".to_owned(),
            ));
        }
    }
    Ok(())
}

/// A variable name `${…}` can expand: ASCII letters, digits and `_`.
fn is_var_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
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
/// The same rule as `.mcp.json` names (wright-mcp): no `__` and no `_` at
/// either end, because `__` separates server and tool in
/// `mcp__<server>__<tool>` and a rule for one server's tool must not name
/// another server.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        || name.contains("__")
        || name.starts_with('_')
        || name.ends_with('_')
    {
        return Err(
            "expected a server name of letters, digits, `_` and `-`, without `__` or an `_` at \
             either end"
                .to_owned(),
        );
    }
    Ok(())
}

#[cfg(test)]
#[path = "doc_mcp_tests.rs"]
mod tests;
