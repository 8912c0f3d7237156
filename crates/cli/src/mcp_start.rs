//! Starting a run's MCP servers: settling each unapproved project server
//! (interactive mode asks once per server before the session starts;
//! headless runs skip it with one warning), then building the
//! [`McpManager`] and connecting every server in a task of its own, so
//! they start in parallel with the rest of start-up.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use wright_config::Settings;
use wright_core::{HintTrust, McpSetup, ToolSearch};
use wright_mcp::{McpManager, McpServer, SdkRelay, ServerStatus, StartOptions};

use crate::mcp_servers::{Approval, Candidate, Collected, fingerprint, skipped_warning};
use crate::render::escape_controls;

/// Whether a person can be asked about unapproved project servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asking {
    /// Interactive mode, before the session starts.
    Ask,
    /// Headless: skip them with a warning.
    Skip,
}

/// A run's MCP servers after approval.
#[derive(Debug, Clone, Default)]
pub struct Decided {
    /// The servers to start.
    pub servers: Vec<McpServer>,
    /// Which of them the project defined (they run in the project root;
    /// the user's own run there only in a trusted project).
    pub project_servers: Vec<String>,
    /// Project servers left out, one line each, for `/mcp`.
    pub not_started: Vec<String>,
    /// Warnings to show before the session.
    pub warnings: Vec<String>,
    /// The way to SDK servers, from [`Collected::sdk_relay`].
    pub sdk_relay: Option<Arc<dyn SdkRelay>>,
}

/// Settles every candidate: approved ones start; an unapproved project
/// server is asked about (and an "always" answer remembered in the user
/// config under the project) or skipped with a warning.
pub fn decide(
    collected: Collected,
    asking: Asking,
    user_config_dir: Option<&Path>,
    project_root: &Path,
) -> Decided {
    let mut out = Decided {
        warnings: collected.warnings,
        sdk_relay: collected.sdk_relay,
        ..Decided::default()
    };
    for (c, approval) in collected.servers {
        if c.scope.is_project() {
            out.project_servers.push(c.name.clone());
        }
        let Ok(server) = &c.server else {
            // Already warned about by `collect`.
            out.not_started.push(format!("{}: not valid", c.name));
            continue;
        };
        let changed = match approval {
            Approval::Approved(_) => {
                out.servers.push(server.clone());
                continue;
            }
            Approval::NotApproved { changed } => changed,
        };
        let answer = match asking {
            Asking::Ask => ask(&c, changed, user_config_dir.is_some()),
            Asking::Skip => Answer::No,
        };
        match answer {
            Answer::Once => out.servers.push(server.clone()),
            Answer::Always => {
                if let (Some(dir), Some(raw)) = (user_config_dir, &c.raw) {
                    let f = fingerprint(raw);
                    match wright_config::record_mcp_approval(dir, project_root, &c.name, Some(&f)) {
                        Ok(file) => out.warnings.push(format!(
                            "note: MCP server {} approved for this project (recorded in {})",
                            c.name,
                            file.display()
                        )),
                        Err(e) => out.warnings.push(format!(
                            "warning: could not record the approval of MCP server {}: {e}",
                            c.name
                        )),
                    }
                }
                out.servers.push(server.clone());
            }
            Answer::No => {
                if asking == Asking::Skip {
                    out.warnings.push(skipped_warning(&c, changed));
                }
                out.not_started
                    .push(format!("{}: not approved ({})", c.name, c.source));
            }
        }
    }
    out
}

/// The answer to "start this project server?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    /// For this session only.
    Once,
    /// And remember it for this project.
    Always,
    /// Do not start it (also the answer to end of input).
    No,
}

/// What else the definition sets, as written, so nothing that changes
/// what runs or what is sent is hidden from the question: every env
/// variable and header. A value is shown unless its name looks like a
/// secret's and it holds a literal (`${GITHUB_TOKEN}` is shown: which of
/// the user's secrets goes where is exactly what they must see).
pub fn extra_lines(c: &Candidate) -> String {
    let Some(raw) = &c.raw else {
        return String::new();
    };
    let shown = |k: &str, v: &str| {
        let secret = [
            "KEY",
            "TOKEN",
            "SECRET",
            "PASSWORD",
            "AUTH",
            "CREDENTIAL",
            "COOKIE",
        ]
        .iter()
        .any(|w| k.to_ascii_uppercase().contains(w));
        if secret && !v.contains("${") {
            "(hidden)".to_owned()
        } else {
            v.to_owned()
        }
    };
    match raw {
        wright_mcp::McpServerConfig::Stdio { env, .. } if !env.is_empty() => {
            let vars: Vec<String> = env
                .iter()
                .map(|(k, v)| escape_controls(&format!("{k}={}", shown(k, v))))
                .collect();
            format!("  env: {}\n", vars.join(" "))
        }
        wright_mcp::McpServerConfig::Http { headers, .. }
        | wright_mcp::McpServerConfig::Sse { headers, .. }
            if !headers.is_empty() =>
        {
            let lines: Vec<String> = headers
                .iter()
                .map(|(k, v)| escape_controls(&format!("{k}: {}", shown(k, v))))
                .collect();
            format!("  headers: {}\n", lines.join(" · "))
        }
        _ => String::new(),
    }
}

/// Asks about one server on stderr, in the trust question's style, and
/// reads the answer from stdin (before the line reader exists).
fn ask(c: &Candidate, changed: bool, can_remember: bool) -> Answer {
    let intro = if changed {
        "changed since you approved it"
    } else {
        "wants to start"
    };
    let always = if can_remember {
        " · [a] always for this project"
    } else {
        ""
    };
    let question = format!(
        "MCP server \"{}\" from {} {intro}:\n  {}: {}\n{}Start it? [y] yes, this time{always} · [N] no ",
        c.name,
        c.source,
        c.transport,
        escape_controls(&c.target),
        extra_lines(c),
    );
    {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "{question}");
        let _ = err.flush();
    }
    let mut line = String::new();
    let read = std::io::stdin().lock().read_line(&mut line);
    match (read, line.trim().to_ascii_lowercase().as_str()) {
        (Ok(_), "y" | "yes") => Answer::Once,
        (Ok(_), "a" | "always") if can_remember => Answer::Always,
        _ => Answer::No,
    }
}

/// How servers are started: the configured start-up timeout, the
/// provider key variables withheld, and where each runs. The project's
/// servers (named in `project_servers`) run in the project root. The
/// user's own run there only once the project is trusted: in an untrusted
/// checkout, `npx pkg` would prefer the repository's `node_modules/.bin`
/// and `python -m pkg` its `pkg.py`, so they start in the home directory.
pub fn start_options(
    settings: &Settings,
    project_root: &Path,
    project_servers: &[String],
) -> StartOptions {
    let root = PathBuf::from(project_root);
    let (cwd, server_cwd) = if settings.project_trusted() {
        (Some(root), Default::default())
    } else {
        let own = dirs::home_dir().unwrap_or_else(std::env::temp_dir);
        let project = project_servers
            .iter()
            .map(|name| (name.clone(), root.clone()))
            .collect();
        (Some(own), project)
    };
    StartOptions {
        startup_timeout: Duration::from_millis(settings.mcp.startup_timeout_ms),
        cwd,
        server_cwd,
        auth_store: crate::mcp_auth::token_store(),
        ..StartOptions::default()
    }
}

/// The manager for `servers` with `connect_all` already running in a task
/// of its own; `None` when there are none.
pub fn spawn(decided: &Decided, settings: &Settings, project_root: &Path) -> Option<McpSetup> {
    if decided.servers.is_empty() {
        return None;
    }
    let options = StartOptions {
        sdk_relay: decided.sdk_relay.clone(),
        ..start_options(settings, project_root, &decided.project_servers)
    };
    let manager = Arc::new(McpManager::new(decided.servers.clone(), options));
    let connecting = Arc::clone(&manager);
    tokio::spawn(async move { connecting.connect_all().await });
    let mcp = &settings.mcp;
    Some(McpSetup {
        startup_timeout: Duration::from_millis(mcp.startup_timeout_ms),
        tool_timeout: Duration::from_millis(mcp.tool_timeout_ms),
        tool_search: match mcp.tool_search {
            wright_config::McpToolSearch::Auto => ToolSearch::Auto,
            wright_config::McpToolSearch::On => ToolSearch::On,
            wright_config::McpToolSearch::Off => ToolSearch::Off,
        },
        read_only_hints: if mcp.trust_read_only_hints {
            HintTrust::Trust
        } else {
            HintTrust::Ignore
        },
        manager,
    })
}

/// A run without a person waits for servers still starting (at most the
/// start-up timeout, as Claude Code's `-p` does): nobody would see their
/// tools join later. After a quiet second it says who it waits for.
pub async fn wait_for_servers(setup: &McpSetup, mut announce: impl FnMut(&str)) {
    let manager = &setup.manager;
    let quiet = setup.startup_timeout.min(Duration::from_secs(1));
    if manager.wait_started(quiet).await {
        return;
    }
    let starting: Vec<String> = manager
        .statuses()
        .into_iter()
        .filter(|s| s.status == ServerStatus::Starting)
        .map(|s| s.name)
        .collect();
    announce(&format!(
        "Waiting up to {} s for MCP server(s) still starting: {}",
        setup.startup_timeout.as_secs(),
        starting.join(", ")
    ));
    manager
        .wait_started(setup.startup_timeout.saturating_sub(quiet))
        .await;
}

/// `/mcp`: each server with its status and tool names, then the project
/// servers that were not started.
pub fn report(manager: Option<&McpManager>, not_started: &[String]) -> String {
    let mut lines = Vec::new();
    for s in manager.map(McpManager::statuses).unwrap_or_default() {
        let status = match &s.status {
            ServerStatus::Starting => "starting".to_owned(),
            ServerStatus::Connected { tools } => {
                format!("connected, {} tools: {}", tools.len(), tools.join(", "))
            }
            ServerStatus::Failed { reason } => format!("failed: {reason}"),
            ServerStatus::Disabled => "turned off for this session".to_owned(),
        };
        lines.push(format!(
            "  {}  ({} {}, from {})  {}",
            s.name,
            s.transport,
            escape_controls(&s.target),
            s.source,
            escape_controls(&status)
        ));
    }
    for line in not_started {
        lines.push(format!("  {line}"));
    }
    if lines.is_empty() {
        return "MCP servers: none configured".to_owned();
    }
    format!("MCP servers:\n{}", lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use wright_mcp::{ConfigSource, McpServerConfig};

    fn candidate(config: McpServerConfig) -> Candidate {
        Candidate {
            name: "x".into(),
            scope: crate::mcp_servers::Scope::ProjectJson,
            source: ".mcp.json".into(),
            transport: config.transport(),
            target: config.describe(),
            raw: Some(config.clone()),
            server: Ok(McpServer {
                name: "x".into(),
                config,
                source: ConfigSource::CommandLine,
            }),
        }
    }

    #[test]
    fn the_question_shows_env_and_header_names_but_no_secrets() {
        let stdio = candidate(McpServerConfig::Stdio {
            command: "npx".into(),
            args: vec!["-y".into(), "pkg".into()],
            env: BTreeMap::from([
                ("NODE_OPTIONS".into(), "--require /tmp/x.js".into()),
                ("GITHUB_TOKEN".into(), "ghp_secret".into()),
                ("API_KEY".into(), "${MY_KEY}".into()),
                ("ESC".into(), "\u{1b}[2J".into()),
            ]),
        });
        let lines = extra_lines(&stdio);
        assert!(
            lines.contains("NODE_OPTIONS=--require /tmp/x.js"),
            "{lines}"
        );
        assert!(lines.contains("GITHUB_TOKEN=(hidden)"), "{lines}");
        assert!(lines.contains("API_KEY=${MY_KEY}"), "{lines}");
        assert!(
            !lines.contains("ghp_secret") && !lines.contains('\u{1b}'),
            "{lines}"
        );
        let http = candidate(McpServerConfig::Http {
            url: "https://x.test/mcp".into(),
            headers: BTreeMap::from([
                ("Authorization".into(), "Bearer t0k".into()),
                ("X-Client".into(), "${GITHUB_TOKEN}".into()),
            ]),
        });
        let lines = extra_lines(&http);
        assert_eq!(
            lines,
            "  headers: Authorization: (hidden) · X-Client: ${GITHUB_TOKEN}\n"
        );
        let bare = candidate(McpServerConfig::Http {
            url: "https://x.test/mcp".into(),
            headers: BTreeMap::new(),
        });
        assert_eq!(extra_lines(&bare), "");
    }
}
