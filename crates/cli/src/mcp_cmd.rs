//! `wright mcp list` and `wright mcp get`: every configured server with
//! where it was defined, how it is reached, and what starting it gives
//! (each approved server is started, in parallel, within the start-up
//! timeout, then shut down). Unapproved project servers are listed but
//! never started: that would run the project's command. Also the
//! `wright doctor` lines, which come from the same report.

use std::path::Path;

use serde_json::{Value, json};
use wright_config::Resolved;
use wright_mcp::{McpManager, McpTool, ServerReport, ServerStatus};

use crate::exit;
use crate::exit::SetupError;
use crate::mcp_servers::{Approval, Candidate, McpFlags, collect};
use crate::mcp_start::start_options;
use crate::render::escape_controls;
use crate::stream_json::lines::status_word;

/// One server's line in the report.
pub struct Line {
    /// The configured server.
    pub candidate: Candidate,
    /// Whether it may start.
    pub approval: Approval,
    /// What starting it gave; `None` when it was not started.
    pub report: Option<ServerReport>,
    /// Its tools, when it connected.
    pub tools: Vec<McpTool>,
}

impl Line {
    /// `connected`, `failed`, `pending`, `not_approved` or `invalid`.
    pub fn status(&self) -> &'static str {
        match (&self.candidate.server, &self.report) {
            (Err(_), _) => "invalid",
            (Ok(_), Some(r)) => status_word(&r.status),
            (Ok(_), None) => "not_approved",
        }
    }

    /// Why it failed, was not valid or was not started.
    pub fn reason(&self) -> Option<String> {
        match (&self.candidate.server, &self.report, &self.approval) {
            (Err(why), _, _) => Some(why.clone()),
            (Ok(_), Some(r), _) => match &r.status {
                ServerStatus::Failed { reason } => Some(reason.clone()),
                ServerStatus::Starting => Some("did not start within the timeout".to_owned()),
                ServerStatus::Connected { .. } => None,
                ServerStatus::Disabled => Some("turned off".to_owned()),
            },
            (Ok(_), None, Approval::NotApproved { changed: true }) => Some(format!(
                "its definition changed since you approved it; pass --allow 'mcp__{}' or \
                 approve it again in interactive wright",
                self.candidate.name
            )),
            (Ok(_), None, _) => Some(format!(
                "a project's servers start only once approved; pass --allow 'mcp__{}' or answer \
                 \"always\" when interactive wright asks",
                self.candidate.name
            )),
        }
    }

    fn json(&self, descriptions: bool) -> Value {
        let c = &self.candidate;
        let tools: Vec<Value> = self
            .tools
            .iter()
            .map(|t| {
                if descriptions {
                    json!({"name": t.name, "tool": t.tool, "description": t.description})
                } else {
                    json!(t.name)
                }
            })
            .collect();
        json!({
            "name": c.name,
            "scope": c.scope.as_str(),
            "source": c.source,
            "transport": c.transport,
            "target": c.target,
            "status": self.status(),
            "reason": self.reason(),
            "tools": tools,
        })
    }

    fn text(&self) -> String {
        let c = &self.candidate;
        let status = match (self.status(), self.reason()) {
            ("connected", _) => match self.tools.len() {
                1 => "connected · 1 tool".to_owned(),
                n => format!("connected · {n} tools"),
            },
            ("not_approved", Some(why)) => format!("not approved: {why}"),
            (word, Some(why)) => format!("{word}: {why}"),
            (word, None) => word.to_owned(),
        };
        format!(
            "{}  ({}, {})  {}: {}  {}",
            c.name,
            c.scope.as_str(),
            c.source,
            c.transport,
            escape_controls(&c.target),
            escape_controls(&status)
        )
    }
}

/// Collects every server and starts the approved ones (all at once,
/// within the start-up timeout), then shuts them down.
pub async fn probe(
    resolved: &Resolved,
    project_root: &Path,
    flags: &McpFlags,
) -> Result<(Vec<Line>, Vec<String>), SetupError> {
    let collected = collect(resolved, project_root, flags, None)?;
    let servers = collected
        .servers
        .iter()
        .filter(|(_, a)| matches!(a, Approval::Approved(_)))
        .filter_map(|(c, _)| c.server.as_ref().ok().cloned())
        .collect();
    let project: Vec<String> = collected
        .servers
        .iter()
        .filter(|(c, _)| c.scope.is_project())
        .map(|(c, _)| c.name.clone())
        .collect();
    let options = start_options(&resolved.settings, project_root, &project);
    // The servers get the environment a session's would (the user's
    // `[shell_environment]` included), so their status here is theirs there.
    let policy_warning = crate::env_policy::install(resolved);
    let manager = McpManager::start(servers, options).await;
    let reports = manager.statuses();
    let tools = manager.tools();
    manager.shutdown().await;
    let lines = collected
        .servers
        .into_iter()
        .map(|(candidate, approval)| {
            let report = matches!(approval, Approval::Approved(_))
                .then(|| reports.iter().find(|r| r.name == candidate.name).cloned())
                .flatten();
            let tools = tools
                .iter()
                .filter(|t| report.is_some() && t.server == candidate.name)
                .cloned()
                .collect();
            Line {
                candidate,
                approval,
                report,
                tools,
            }
        })
        .collect();
    let mut warnings = collected.warnings;
    warnings.extend(policy_warning);
    Ok((lines, warnings))
}

/// The tools of every approved server that connects, with the size of
/// the spec each sends, for `wright context`.
pub async fn tool_sizes(
    resolved: &Resolved,
    project_root: &Path,
    flags: &McpFlags,
) -> Result<Vec<(String, usize)>, SetupError> {
    let (lines, warnings) = probe(resolved, project_root, flags).await?;
    for w in &warnings {
        eprintln!("{w}");
    }
    Ok(lines
        .iter()
        .flat_map(|l| l.tools.iter())
        .map(|t| {
            let spec = wright_core::mcp_tool_spec(t);
            (
                t.name.clone(),
                serde_json::to_string(&spec).map_or(0, |s| s.len()),
            )
        })
        .collect())
}

/// `wright mcp list [--json]`.
pub async fn list(
    resolved: &Resolved,
    project_root: &Path,
    flags: &McpFlags,
    as_json: bool,
) -> Result<u8, SetupError> {
    let (lines, warnings) = probe(resolved, project_root, flags).await?;
    for w in &warnings {
        eprintln!("{w}");
    }
    let mut out = String::new();
    if as_json {
        let servers: Vec<Value> = lines.iter().map(|l| l.json(false)).collect();
        out = format!("{}\n", json!({ "servers": servers }));
    } else if lines.is_empty() {
        out.push_str(
            "No MCP servers configured. Add one with `wright mcp add NAME -- COMMAND ARGS…`.\n",
        );
    } else {
        for line in &lines {
            out.push_str(&line.text());
            out.push('\n');
        }
    }
    emit(&out);
    Ok(exit::SUCCESS)
}

/// `wright mcp get NAME [--json]`.
pub async fn get(
    resolved: &Resolved,
    project_root: &Path,
    flags: &McpFlags,
    name: &str,
    as_json: bool,
) -> Result<u8, SetupError> {
    let (lines, warnings) = probe(resolved, project_root, flags).await?;
    for w in &warnings {
        eprintln!("{w}");
    }
    let Some(line) = lines.iter().find(|l| l.candidate.name == name) else {
        let known: Vec<&str> = lines.iter().map(|l| l.candidate.name.as_str()).collect();
        return Err(SetupError(format!(
            "no MCP server named {name:?}{}",
            if known.is_empty() {
                String::new()
            } else {
                format!(" (configured: {})", known.join(", "))
            }
        )));
    };
    if as_json {
        emit(&format!("{}\n", line.json(true)));
        return Ok(exit::SUCCESS);
    }
    let mut out = format!("{}\n", line.text());
    out.push_str(&crate::mcp_start::extra_lines(&line.candidate));
    for t in &line.tools {
        // A server's description can be any length: one line of it, capped.
        let description: String = t
            .description
            .as_deref()
            .unwrap_or("")
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(200)
            .collect();
        out.push_str(&format!(
            "  {}  {}\n",
            t.name,
            escape_controls(&description)
        ));
    }
    emit(&out);
    Ok(exit::SUCCESS)
}

/// Writes a command's output to stdout; a reader that went away (`| head`)
/// is not an error, and must not panic as `println!` would.
fn emit(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// The `wright doctor` lines: one per server, failing when an approved
/// server does not connect.
pub async fn doctor_lines(
    resolved: &Resolved,
    project_root: &Path,
    flags: &McpFlags,
) -> Vec<(bool, String)> {
    match probe(resolved, project_root, flags).await {
        Err(e) => vec![(false, e.to_string())],
        Ok((lines, _)) if lines.is_empty() => {
            vec![(true, "no MCP servers configured".to_owned())]
        }
        Ok((lines, _)) => lines
            .iter()
            .map(|l| {
                let ok = matches!(l.status(), "connected" | "not_approved");
                (ok, l.text())
            })
            .collect(),
    }
}
