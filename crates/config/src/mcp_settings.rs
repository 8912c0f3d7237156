//! The resolved `[mcp]` table ([`McpSettings`]) and `[mcp_servers.NAME]`
//! tables ([`McpServerSetting`]), and how `wright config show` prints the
//! servers. A server starts a program (or talks to a URL) on the user's
//! behalf, so each one keeps the file it came from.
//!
//! Servers are kept as written: `${VAR}` references are expanded, and the
//! environment rules (no `PATH`, `LD_PRELOAD`, provider keys, …) applied,
//! by whoever starts them, exactly as for a `.mcp.json` entry.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use toml::Value;

use crate::kinds::McpToolSearch;
use crate::source::Source;
use crate::toml_text::key_segment;
use crate::toml_text::quote;

/// Default for [`McpSettings::startup_timeout_ms`]: 30 seconds.
pub const DEFAULT_MCP_STARTUP_TIMEOUT_MS: u64 = 30_000;
/// Default for [`McpSettings::tool_timeout_ms`]: 10 minutes.
pub const DEFAULT_MCP_TOOL_TIMEOUT_MS: u64 = 600_000;

/// What `config show` prints instead of an env or header value: they
/// usually hold tokens, and its output gets pasted into bug reports.
const HIDDEN: &str = "(hidden)";

/// `[mcp]`: how MCP servers are started and trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpSettings {
    /// Whether a trusted project's own servers (its `.mcp.json` and the
    /// `[mcp_servers]` of its config files) start without asking.
    pub trust_project_servers: bool,
    /// When tool schemas are deferred behind a search tool.
    pub tool_search: McpToolSearch,
    /// Longest wait for a server to start, in milliseconds
    /// (`startup_timeout_secs`, or `MCP_TIMEOUT` in milliseconds).
    pub startup_timeout_ms: u64,
    /// Longest run of one tool call, in milliseconds (`tool_timeout_secs`,
    /// or `MCP_TOOL_TIMEOUT` in milliseconds).
    pub tool_timeout_ms: u64,
    /// Whether a server's `readOnlyHint` lets a tool run without asking
    /// where reads do.
    pub trust_read_only_hints: bool,
}

impl Default for McpSettings {
    fn default() -> Self {
        McpSettings {
            trust_project_servers: false,
            tool_search: McpToolSearch::Auto,
            startup_timeout_ms: DEFAULT_MCP_STARTUP_TIMEOUT_MS,
            tool_timeout_ms: DEFAULT_MCP_TOOL_TIMEOUT_MS,
            trust_read_only_hints: false,
        }
    }
}

/// One `[mcp_servers.NAME]` table, in the shape of a `.mcp.json` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpServerSetting {
    /// The server's name (`[A-Za-z0-9_-]+`), the `<server>` of
    /// `mcp__<server>__<tool>`.
    pub name: String,
    /// How to reach it, as written (no `${VAR}` expanded; wright-mcp
    /// expands them in the same type).
    pub transport: McpTransport,
    /// The config file that defined it (always [`Source::File`]).
    pub source: Source,
}

/// How to reach a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpTransport {
    /// A child process speaking MCP on stdin and stdout.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables added to its environment.
        env: BTreeMap<String, String>,
    },
    /// Streamable HTTP (`type = "http"`).
    Http {
        /// The endpoint.
        url: String,
        /// Headers sent with every request.
        headers: BTreeMap<String, String>,
    },
    /// The legacy HTTP + SSE transport (`type = "sse"`).
    Sse {
        /// The endpoint.
        url: String,
        /// Headers sent with every request.
        headers: BTreeMap<String, String>,
    },
    /// An in-process server of the program driving wright (the Claude
    /// Agent SDK's `create_sdk_mcp_server`, `"type": "sdk"`), reached
    /// through the front end's relay. Only that program's `--mcp-config`
    /// may define one: a config file never parses to it.
    Sdk,
}

impl McpTransport {
    /// `stdio`, `http`, `sse` or `sdk`, as `.mcp.json` spells it.
    pub fn transport(&self) -> &'static str {
        match self {
            McpTransport::Stdio { .. } => "stdio",
            McpTransport::Http { .. } => "http",
            McpTransport::Sse { .. } => "sse",
            McpTransport::Sdk => "sdk",
        }
    }

    /// The command line or URL (for an SDK server, where it runs), for
    /// one-line messages.
    pub fn describe(&self) -> String {
        match self {
            McpTransport::Stdio { command, args, .. } => {
                let mut line = command.clone();
                for arg in args {
                    line.push(' ');
                    line.push_str(arg);
                }
                line
            }
            McpTransport::Http { url, .. } | McpTransport::Sse { url, .. } => url.clone(),
            McpTransport::Sdk => "in the program driving wright".to_owned(),
        }
    }

    /// The table `config show` prints: env and header values hidden.
    pub(crate) fn to_table(&self) -> toml::Table {
        let hidden = |m: &BTreeMap<String, String>| {
            Value::Table(
                m.keys()
                    .map(|k| (k.clone(), Value::String(HIDDEN.into())))
                    .collect(),
            )
        };
        let mut t = toml::Table::new();
        match self {
            McpTransport::Stdio { command, args, env } => {
                t.insert("command".into(), Value::String(command.clone()));
                t.insert(
                    "args".into(),
                    Value::Array(args.iter().cloned().map(Value::String).collect()),
                );
                if !env.is_empty() {
                    t.insert("env".into(), hidden(env));
                }
            }
            McpTransport::Http { url, headers } | McpTransport::Sse { url, headers } => {
                t.insert("type".into(), Value::String(self.transport().into()));
                t.insert("url".into(), Value::String(url.clone()));
                if !headers.is_empty() {
                    t.insert("headers".into(), hidden(headers));
                }
            }
            McpTransport::Sdk => {
                t.insert("type".into(), Value::String(self.transport().into()));
            }
        }
        t
    }

    /// The table as one line of TOML, keys in `.mcp.json`'s order.
    fn inline(&self) -> String {
        let hidden = |m: &BTreeMap<String, String>| {
            let items: Vec<String> = m
                .keys()
                .map(|k| format!("{} = {}", key_segment(k), quote(HIDDEN)))
                .collect();
            format!("{{ {} }}", items.join(", "))
        };
        match self {
            McpTransport::Stdio { command, args, env } => {
                let args: Vec<String> = args.iter().map(|a| quote(a)).collect();
                let env = if env.is_empty() {
                    String::new()
                } else {
                    format!(", env = {}", hidden(env))
                };
                format!(
                    "{{ command = {}, args = [{}]{env} }}",
                    quote(command),
                    args.join(", ")
                )
            }
            McpTransport::Http { url, headers } | McpTransport::Sse { url, headers } => {
                let headers = if headers.is_empty() {
                    String::new()
                } else {
                    format!(", headers = {}", hidden(headers))
                };
                format!(
                    "{{ type = {}, url = {}{headers} }}",
                    quote(self.transport()),
                    quote(url)
                )
            }
            McpTransport::Sdk => format!("{{ type = {} }}", quote(self.transport())),
        }
    }
}

/// `mcp_servers` as TOML: a table of name → server table.
pub(crate) fn servers_value(servers: &[McpServerSetting]) -> Value {
    Value::Table(
        servers
            .iter()
            .map(|s| (s.name.clone(), Value::Table(s.transport.to_table())))
            .collect(),
    )
}

/// The `config show` lines for the servers: one
/// `mcp_servers.NAME = { … }  # file` line each, or `mcp_servers = {}`.
pub(crate) fn render_servers(out: &mut String, servers: &[McpServerSetting], source: &Source) {
    if servers.is_empty() {
        // Writing to a String cannot fail.
        let _ = writeln!(out, "mcp_servers = {{}}  # {source}");
        return;
    }
    for s in servers {
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "mcp_servers.{} = {}  # {}",
            key_segment(&s.name),
            s.transport.inline(),
            s.source
        );
    }
}

/// Adds `items` to `servers`: a server replaces the one of the same name
/// (a higher layer wins), and the list stays sorted by name.
pub(crate) fn merge_servers(servers: &mut Vec<McpServerSetting>, items: Vec<McpServerSetting>) {
    for item in items {
        match servers.binary_search_by(|s| s.name.cmp(&item.name)) {
            Ok(i) => servers[i] = item,
            Err(i) => servers.insert(i, item),
        }
    }
}

/// Milliseconds as `config show` prints a `*_secs` key: an integer when
/// whole, else a float (an `MCP_TIMEOUT` of 1500 is 1.5 seconds).
pub(crate) fn secs_value(ms: u64) -> Value {
    if ms.is_multiple_of(1000) {
        Value::Integer(i64::try_from(ms / 1000).unwrap_or(i64::MAX))
    } else {
        // Timeouts are far below 2^53 ms, so the float is exact enough.
        #[allow(clippy::cast_precision_loss)]
        Value::Float(ms as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stdio(name: &str, command: &str) -> McpServerSetting {
        McpServerSetting {
            name: name.into(),
            transport: McpTransport::Stdio {
                command: command.into(),
                args: vec!["a b".into()],
                env: BTreeMap::from([("TOKEN".into(), "secret".into())]),
            },
            source: Source::File("/u/config.toml".into()),
        }
    }

    #[test]
    fn a_higher_layer_replaces_a_server_by_name_and_the_list_stays_sorted() {
        let mut all = Vec::new();
        merge_servers(&mut all, vec![stdio("zeta", "z"), stdio("alpha", "a")]);
        merge_servers(&mut all, vec![stdio("zeta", "z2")]);
        let names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["alpha", "zeta"]);
        assert_eq!(all[1].transport.describe(), "z2 a b");
    }

    #[test]
    fn show_hides_env_values_and_parses_back() {
        let mut out = String::new();
        render_servers(&mut out, &[stdio("gh", "npx")], &Source::Default);
        assert!(!out.contains("secret"), "{out}");
        let parsed: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(parsed["mcp_servers"]["gh"]["command"].as_str(), Some("npx"));
        assert_eq!(
            parsed["mcp_servers"]["gh"]["env"]["TOKEN"].as_str(),
            Some(HIDDEN)
        );
        let mut out = String::new();
        render_servers(&mut out, &[], &Source::Default);
        assert_eq!(out, "mcp_servers = {}  # default\n");
    }

    #[test]
    fn timeouts_show_as_seconds() {
        assert_eq!(secs_value(1500), Value::Float(1.5));
        assert_eq!(secs_value(30_000), Value::Integer(30));
    }
}
