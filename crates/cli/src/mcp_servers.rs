//! Which MCP servers a run starts. Servers come from the user config,
//! the project root's `.mcp.json`, the project and local config files and
//! every `--mcp-config` (later ones override earlier ones by name, in that
//! order; `--strict-mcp-config` keeps only the flags'). The user's own
//! servers (user config, flags) always start; a project's servers start
//! only when approved: trusted project with `mcp.trust_project_servers`,
//! `--allow 'mcp__NAME'`, or an approval remembered in the user config
//! with the fingerprint of the definition approved, so a repository that
//! changes the command must be approved again.
//!
//! An SDK server (`"type": "sdk"`, in-process in the program driving
//! wright) needs no approval, since that program defined it, but only its
//! `--mcp-config` may: from any file a project or the user keeps, it is
//! refused with a warning. Without a relay (no program drives wright over
//! stream-json) it is started anyway, to fail with that reason in the
//! statuses, and warned about.
//!
//! Asking (interactive) and starting live in `mcp_start.rs`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};
use wright_config::{McpServerSetting, McpTransport, Resolved, Source};
use wright_mcp::config::{self as mcp_config, process_env};
use wright_mcp::{ConfigSource, McpServer, McpServerConfig, SDK_NEEDS_RELAY, SdkRelay};

use crate::exit::SetupError;

/// The file Claude Code keeps a project's servers in, at the project root.
pub const MCP_JSON: &str = ".mcp.json";

pub use crate::args::McpFlags;

/// Where a server was defined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    /// The user's config file.
    User,
    /// The project root's `.mcp.json`.
    ProjectJson,
    /// `.wright/config.toml`.
    Project,
    /// `.wright/config.local.toml`.
    Local,
    /// `--mcp-config`.
    Flag,
}

impl Scope {
    /// The word `wright mcp list` shows (and `--scope` takes).
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::ProjectJson | Scope::Project => "project",
            Scope::Local => "local",
            Scope::Flag => "flag",
        }
    }

    /// Whether the project wrote it, so it needs approval.
    pub fn is_project(self) -> bool {
        matches!(self, Scope::ProjectJson | Scope::Project | Scope::Local)
    }
}

/// One configured server, usable or not.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Its name.
    pub name: String,
    /// Where it was defined.
    pub scope: Scope,
    /// The file (or "command line") that defined it.
    pub source: String,
    /// `stdio`, `http` or `sse`.
    pub transport: &'static str,
    /// The command line or URL, as configured (`${VAR}` not expanded:
    /// expanded values may be secrets, and this is shown and logged).
    pub target: String,
    /// The server ready to start, or why it cannot be (a refused env
    /// variable, an unset `${VAR}`).
    pub server: Result<McpServer, String>,
    /// The definition as written (`${VAR}` kept), for showing it and for
    /// its approval fingerprint; `None` when it did not parse.
    pub raw: Option<McpServerConfig>,
}

/// Whether a candidate may start, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Approval {
    /// The user's own server, or a project's the user approved.
    Approved(&'static str),
    /// A project server nobody approved; `changed` when an approval exists
    /// for an earlier definition.
    NotApproved {
        /// The definition changed since the user approved it.
        changed: bool,
    },
}

/// Every configured server with whether it may start, plus warnings
/// (a broken `.mcp.json`, refused definitions).
#[derive(Debug, Clone, Default)]
pub struct Collected {
    /// By name, each with its approval.
    pub servers: Vec<(Candidate, Approval)>,
    /// To show once before a run.
    pub warnings: Vec<String>,
    /// The way to SDK servers, when a program drives wright (handed on to
    /// the manager by `mcp_start`).
    pub sdk_relay: Option<Arc<dyn SdkRelay>>,
}

/// Gathers the servers of every source. A broken `--mcp-config` is the
/// user's own mistake and stops the run; a broken `.mcp.json` is a
/// warning and is left out. `sdk_relay` is the front end's way to the
/// in-process servers of the program driving wright (stream-json input
/// with the control protocol); `None` everywhere else.
pub fn collect(
    resolved: &Resolved,
    project_root: &Path,
    flags: &McpFlags,
    sdk_relay: Option<Arc<dyn SdkRelay>>,
) -> Result<Collected, SetupError> {
    let mut warnings = Vec::new();
    let mut all: Vec<Candidate> = Vec::new();
    if !flags.strict {
        let settings = &resolved.settings;
        let scope_of = |s: &McpServerSetting| match &s.source {
            Source::File(path) => match resolved.project_files.iter().position(|p| p == path) {
                Some(0) => Scope::Project,
                Some(_) => Scope::Local,
                None => Scope::User,
            },
            _ => Scope::User,
        };
        for s in settings
            .mcp_servers
            .iter()
            .filter(|s| scope_of(s) == Scope::User)
        {
            put(&mut all, from_setting(s, Scope::User));
        }
        let json = project_root.join(MCP_JSON);
        // Claude Code's `.mcp.json` is a project setting: `--setting-sources`
        // without `project` leaves it out.
        if resolved.setting_sources.project && json.exists() {
            match read_mcp_json(&json) {
                Ok(candidates) => {
                    for c in candidates {
                        // A repository may not take over a name the user
                        // configured: their approval and rules mean theirs.
                        if all.iter().any(|have| have.name == c.name) {
                            warnings.push(shadow_warning(&c));
                            continue;
                        }
                        put(&mut all, c);
                    }
                }
                Err(e) => warnings.push(format!("warning: ignoring {}: {e}", json.display())),
            }
        }
        let mut project: Vec<(Scope, &McpServerSetting)> = settings
            .mcp_servers
            .iter()
            .chain(&resolved.held_mcp_servers)
            .map(|s| (scope_of(s), s))
            .filter(|(scope, _)| scope.is_project())
            .collect();
        // Project file before local file, whichever list each came from.
        project.sort_by_key(|(scope, _)| *scope);
        for (scope, s) in project {
            let c = from_setting(s, scope);
            if all
                .iter()
                .any(|have| have.name == c.name && !have.scope.is_project())
            {
                warnings.push(shadow_warning(&c));
                continue;
            }
            put(&mut all, c);
        }
    }
    for value in &flags.configs {
        let (text, source) = if value.trim_start().starts_with('{') {
            (value.clone(), ConfigSource::CommandLine)
        } else {
            let path = PathBuf::from(value);
            let text = wright_config::read_text_file(&path)
                .map_err(|e| SetupError(format!("--mcp-config: {e}")))?;
            (text, ConfigSource::File(path))
        };
        // The user's own flag: a bad entry is an error, not a warning.
        let candidates = candidates_of(&text, &source, Scope::Flag)
            .map_err(|e| SetupError(format!("--mcp-config: {e}")))?;
        for c in candidates {
            if let Err(why) = &c.server {
                return Err(SetupError(format!("--mcp-config: {why}")));
            }
            put(&mut all, c);
        }
    }
    all.sort_by(|a, b| a.name.cmp(&b.name));
    for c in &mut all {
        let sdk = matches!(&c.server, Ok(s) if s.config == McpServerConfig::Sdk);
        if sdk && c.scope != Scope::Flag {
            // It would need no approval: only the driving program may
            // define one, never a file a repository or the user keeps.
            c.server = Err(format!(
                "an SDK server (\"type\": \"sdk\") can only be defined by the program \
                 driving wright, in its --mcp-config (found in {})",
                c.source
            ));
        } else if sdk && sdk_relay.is_none() {
            // Still started: it fails with this reason, so the statuses
            // name it.
            warnings.push(format!("warning: MCP server {}: {SDK_NEEDS_RELAY}", c.name));
        }
    }
    for c in all.iter_mut().filter(|c| c.scope.is_project()) {
        warnings.extend(drop_project_env(c));
    }
    for c in &all {
        if let Err(why) = &c.server {
            warnings.push(format!(
                "warning: not starting MCP server {}: {why}",
                c.name
            ));
        }
    }
    let servers = all
        .into_iter()
        .map(|c| {
            let approval = approval(&c, resolved, &flags.allow);
            (c, approval)
        })
        .collect();
    Ok(Collected {
        servers,
        warnings,
        sdk_relay,
    })
}

/// Adds `c`, replacing a server of the same name from an earlier source.
fn put(all: &mut Vec<Candidate>, c: Candidate) {
    match all.iter_mut().find(|have| have.name == c.name) {
        Some(have) => *have = c,
        None => all.push(c),
    }
}

/// Reads `.mcp.json` (bounded, as any config file) and parses each entry
/// on its own, so one bad entry does not take the others with it.
fn read_mcp_json(path: &Path) -> Result<Vec<Candidate>, String> {
    let text = wright_config::read_text_file(path).map_err(|e| match e {
        wright_config::ConfigError::Io { message, .. } => message,
        other => other.to_string(),
    })?;
    candidates_of(
        &text,
        &ConfigSource::File(path.to_path_buf()),
        Scope::ProjectJson,
    )
    .map_err(|e| {
        // The parser names the file first; the caller does too.
        let text = e.to_string();
        let prefix = format!("{}: ", path.display());
        text.strip_prefix(&prefix)
            .map(str::to_owned)
            .unwrap_or(text)
    })
}

/// The servers of `.mcp.json`-shaped text, each expanded (to run) and as
/// written (to show and fingerprint).
fn candidates_of(
    text: &str,
    source: &ConfigSource,
    scope: Scope,
) -> Result<Vec<Candidate>, mcp_config::ConfigError> {
    let expanded = mcp_config::parse_each(text, source.clone(), &process_env)?;
    let written = mcp_config::parse_each(text, source.clone(), &mcp_config::unexpanded)?;
    Ok(expanded
        .into_iter()
        .zip(written)
        .map(|(server, raw)| {
            let raw = raw.ok().map(|r| r.config);
            match server {
                Ok(server) => Candidate {
                    name: server.name.clone(),
                    scope,
                    source: server.source.to_string(),
                    transport: server.config.transport(),
                    target: raw
                        .as_ref()
                        .map_or_else(|| server.config.describe(), McpServerConfig::describe),
                    raw,
                    server: Ok(server),
                },
                Err(e) => {
                    let name = match &e {
                        mcp_config::ConfigError::Server { server, .. } => server.clone(),
                        _ => String::new(),
                    };
                    Candidate {
                        name,
                        scope,
                        source: source.to_string(),
                        transport: raw.as_ref().map_or("?", McpServerConfig::transport),
                        target: raw
                            .as_ref()
                            .map(McpServerConfig::describe)
                            .unwrap_or_default(),
                        raw,
                        server: Err(e.to_string()),
                    }
                }
            }
        })
        .collect())
}

/// Drops from a project server's `env` each variable that is not a plain
/// application setting ([`wright_mcp::project_env`]), returning one warning
/// per variable (its name, never its value). The definition as written
/// (`raw`) keeps them: the approval is of what the file says.
fn drop_project_env(c: &mut Candidate) -> Vec<String> {
    let Ok(McpServer {
        config: McpServerConfig::Stdio { env, .. },
        ..
    }) = &mut c.server
    else {
        return Vec::new();
    };
    let mut warnings = Vec::new();
    env.retain(|key, _| match wright_mcp::project_env::refusal(key) {
        None => true,
        Some(why) => {
            warnings.push(format!(
                "warning: MCP server {} (from {}): not passing {} from its \"env\": {why}; \
                 a project's server may set only plain application settings \
                 (set it in your own config to pass it)",
                c.name,
                c.source,
                crate::render::escape_controls(key)
            ));
            false
        }
    });
    warnings
}

/// The warning for a project server that would replace the user's own.
fn shadow_warning(c: &Candidate) -> String {
    format!(
        "warning: ignoring MCP server {} from {}: your own configuration defines a server of \
         that name, and a project may not replace it",
        c.name, c.source
    )
}

/// A config file's server, expanded and checked exactly as a `.mcp.json`
/// entry would be (so the env rules and their messages are the same).
fn from_setting(s: &McpServerSetting, scope: Scope) -> Candidate {
    let path = match &s.source {
        Source::File(p) => p.clone(),
        other => PathBuf::from(other.to_string()),
    };
    let mut servers = serde_json::Map::new();
    servers.insert(s.name.clone(), entry_json(&s.transport));
    let text = serde_json::json!({ "mcpServers": servers }).to_string();
    let server = mcp_config::parse(&text, ConfigSource::File(path.clone()), &process_env)
        .map_err(|e| match e {
            mcp_config::ConfigError::Server { message, .. } => {
                format!("{} (in {})", message, path.display())
            }
            other => other.to_string(),
        })
        .and_then(|mut list| list.pop().ok_or_else(|| "no server".to_owned()));
    Candidate {
        name: s.name.clone(),
        scope,
        source: path.display().to_string(),
        transport: s.transport.transport(),
        target: s.transport.describe(),
        server,
        raw: Some(s.transport.clone()),
    }
}

/// A server as a `.mcp.json` entry (`{"command": …}` or
/// `{"type": "http", "url": …}`).
pub fn entry_json(t: &McpTransport) -> serde_json::Value {
    use serde_json::json;
    match t {
        McpTransport::Stdio { command, args, env } => {
            let mut o = json!({ "command": command, "args": args });
            if !env.is_empty() {
                o["env"] = json!(env);
            }
            o
        }
        McpTransport::Http { url, headers } | McpTransport::Sse { url, headers } => {
            let mut o = json!({ "type": t.transport(), "url": url });
            if !headers.is_empty() {
                o["headers"] = json!(headers);
            }
            o
        }
        McpTransport::Sdk => json!({ "type": "sdk" }),
    }
}

/// Whether `c` may start.
fn approval(c: &Candidate, resolved: &Resolved, allow: &[String]) -> Approval {
    if !c.scope.is_project() {
        return Approval::Approved("your own configuration");
    }
    let settings = &resolved.settings;
    if settings.project_trusted() && settings.mcp.trust_project_servers {
        return Approval::Approved("trusted project with mcp.trust_project_servers");
    }
    if allowed_by_flag(&c.name, allow) {
        return Approval::Approved("--allow");
    }
    let (Ok(_), Some(raw)) = (&c.server, &c.raw) else {
        return Approval::NotApproved { changed: false };
    };
    match resolved.mcp_approvals.get(&c.name) {
        Some(f) if *f == fingerprint(raw) => Approval::Approved("approved before"),
        Some(_) => Approval::NotApproved { changed: true },
        None => Approval::NotApproved { changed: false },
    }
}

/// An `--allow` rule naming the server or one of its tools: `mcp__NAME`,
/// `mcp__NAME__*` or `mcp__NAME__TOOL` (case-insensitive, as permission
/// rules are). Server names never hold `__`, so the rule names exactly one
/// server.
pub fn allowed_by_flag(name: &str, allow: &[String]) -> bool {
    let server = format!("mcp__{}", name.to_ascii_lowercase());
    let tools = format!("{server}__");
    allow.iter().any(|rule| {
        let rule = rule.trim().to_ascii_lowercase();
        rule == server || rule.strip_prefix(&tools).is_some_and(|t| !t.is_empty())
    })
}

/// The approval key of a definition as written (`${VAR}` not expanded):
/// SHA-256 over everything in it, header values included. A token kept
/// in the environment can rotate without a new approval; a repository that
/// starts sending `${GITHUB_TOKEN}` in a header cannot.
pub fn fingerprint(config: &McpServerConfig) -> String {
    // Keys written in sorted order: the text (and so every recorded
    // approval) stays the same whether or not the build's serde_json keeps
    // insertion order (`preserve_order`, which the ACP crates turn on).
    let canonical = match config {
        McpServerConfig::Stdio { command, args, env } => {
            serde_json::json!({"args": args, "command": command, "env": env, "type": "stdio"})
        }
        McpServerConfig::Http { url, headers } | McpServerConfig::Sse { url, headers } => {
            serde_json::json!({"headers": headers, "type": config.transport(), "url": url})
        }
        McpServerConfig::Sdk => serde_json::json!({"type": "sdk"}),
    };
    let digest = Sha256::digest(canonical.to_string().as_bytes());
    let mut out = String::from("sha256:");
    for byte in digest {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

/// Releases the held-back servers of an untrusted project that the user
/// approved by name (`--allow` or a remembered approval), so the trust
/// warning does not call them ignored.
pub fn release_approved(resolved: &mut Resolved, allow: &[String]) {
    let approved: Vec<String> = resolved
        .held_mcp_servers
        .iter()
        .filter(|s| {
            let c = from_setting(s, Scope::Project);
            matches!(approval(&c, resolved, allow), Approval::Approved(_))
        })
        .map(|s| s.name.clone())
        .collect();
    for name in approved {
        resolved.release_mcp_server(&name);
    }
}

/// The one warning for a project server a headless run leaves out.
pub fn skipped_warning(c: &Candidate, changed: bool) -> String {
    let why = if changed {
        "its definition changed since you approved it"
    } else {
        "a project's servers start only once you approve them"
    };
    format!(
        "warning: not starting MCP server {} from {} ({}: {}): {why}; pass --allow 'mcp__{}' \
         to start it, or answer \"always\" when interactive wright asks",
        c.name,
        c.source,
        c.transport,
        crate::render::escape_controls(&c.target),
        c.name
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allow_rules_that_name_a_server_approve_it() {
        let allow = |rules: &[&str]| rules.iter().map(|r| (*r).to_owned()).collect::<Vec<_>>();
        assert!(allowed_by_flag("test", &allow(&["mcp__test"])));
        assert!(allowed_by_flag("test", &allow(&["mcp__Test__*"])));
        assert!(allowed_by_flag("test", &allow(&["mcp__test__echo"])));
        assert!(!allowed_by_flag("test", &allow(&["mcp__test__"])));
        assert!(!allowed_by_flag("test", &allow(&["mcp__testing", "Bash"])));
    }

    #[test]
    fn fingerprints_follow_what_runs() {
        let stdio = |command: &str, env: &[(&str, &str)]| McpServerConfig::Stdio {
            command: command.into(),
            args: vec!["a".into()],
            env: env
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        };
        let a = fingerprint(&stdio("server", &[]));
        assert!(a.starts_with("sha256:") && a.len() == 7 + 64, "{a}");
        assert_eq!(a, fingerprint(&stdio("server", &[])));
        assert_ne!(a, fingerprint(&stdio("evil", &[])));
        assert_ne!(a, fingerprint(&stdio("server", &[("X", "1")])));
        let http = |token: &str| McpServerConfig::Http {
            url: "https://x/mcp".into(),
            headers: [("Authorization".to_owned(), token.to_owned())].into(),
        };
        assert_ne!(
            fingerprint(&http("a")),
            fingerprint(&http("${GITHUB_TOKEN}"))
        );
    }
}
