//! The SDK's control requests about the running session rather than the
//! turn: `mcp_reconnect` and `mcp_toggle` (a server of the session closed
//! and started again, or turned off and on), `stop_task` (a background
//! command stopped) and `get_context_usage` (what `/context` shows, in the
//! shape of Claude Code's answer).

use serde_json::{Value, json};
use wright_core::McpSetup;
use wright_protocol::Usage;
use wright_tools::{BackgroundJobs, JobStatus};

use crate::setup::ContextView;

/// `mcp_reconnect {serverName}`.
pub async fn mcp_reconnect(request: &Value, mcp: Option<&McpSetup>) -> Result<Value, String> {
    let (name, manager) = server(request, mcp)?;
    manager
        .reconnect(name)
        .await
        .map_err(|why| format!("MCP server {name} did not reconnect: {why}"))?;
    Ok(json!({}))
}

/// `mcp_toggle {serverName, enabled}`.
pub async fn mcp_toggle(request: &Value, mcp: Option<&McpSetup>) -> Result<Value, String> {
    let (name, manager) = server(request, mcp)?;
    let enabled = request["enabled"]
        .as_bool()
        .ok_or("mcp_toggle needs \"enabled\": true or false")?;
    manager
        .set_enabled(name, enabled)
        .await
        .map_err(|why| format!("MCP server {name} could not be turned on: {why}"))?;
    Ok(json!({}))
}

fn server<'a>(
    request: &'a Value,
    mcp: Option<&'a McpSetup>,
) -> Result<(&'a str, &'a wright_mcp::McpManager), String> {
    let name = request["serverName"]
        .as_str()
        .filter(|n| !n.is_empty())
        .ok_or("the request needs \"serverName\"")?;
    let manager = mcp
        .map(|m| m.manager.as_ref())
        .ok_or_else(|| format!("no MCP server named {name}: the session has none"))?;
    Ok((name, manager))
}

/// `stop_task {task_id}`: wright's tasks that outlive a tool call are the
/// background commands (`Bash` with `run_in_background`).
pub async fn stop_task(request: &Value, jobs: &BackgroundJobs) -> Result<Value, String> {
    let id = request["task_id"]
        .as_str()
        .filter(|n| !n.is_empty())
        .ok_or("stop_task needs \"task_id\"")?;
    let status = jobs.stop(id).await?;
    let word = match status {
        JobStatus::Running => "running",
        JobStatus::Killed => "killed",
        JobStatus::Exited(_) => "completed",
    };
    Ok(json!({"task_id": id, "status": word}))
}

/// What the session knows of its context use, for `get_context_usage`.
pub struct ContextUse<'a> {
    /// The system prompt's inputs, tools and window.
    pub view: Option<&'a ContextView>,
    /// The last model request's usage: its input is the context in use.
    pub last: Option<&'a Usage>,
    /// The model in use.
    pub model: &'a str,
    /// Whether the conversation is compacted when it nears the window.
    pub auto_compact: bool,
}

/// `get_context_usage`: the categories of Claude Code's answer that wright
/// has (system prompt, tools, messages, free space), estimated at four
/// characters a token where no request has measured them yet.
pub fn context_usage(usage: &ContextUse<'_>) -> Value {
    let window = usage.view.map_or(0, |v| v.window);
    let (system, memory_files) = usage.view.map_or((0, Vec::new()), |view| {
        let context = wright_context::assemble(&view.inputs);
        let files: Vec<Value> = context
            .parts
            .iter()
            .filter(|p| p.kind == wright_context::PartKind::Instructions)
            .map(|p| json!({"path": p.source, "type": "Project", "tokens": p.tokens_estimate}))
            .collect();
        let tokens: usize = context.parts.iter().map(|p| p.tokens_estimate).sum();
        (tokens as u64, files)
    });
    let (tools, mcp_tools) = usage.view.map_or((0, Vec::new()), |view| {
        let tokens: usize = view.tools.iter().map(|(_, chars)| chars.div_ceil(4)).sum();
        let mcp: Vec<Value> = view
            .tools
            .iter()
            .filter_map(|(name, chars)| {
                let server = name.strip_prefix("mcp__")?.split("__").next()?;
                Some(json!({"name": name, "serverName": server, "tokens": chars.div_ceil(4), "isLoaded": true}))
            })
            .collect();
        (tokens as u64, mcp)
    });
    let total = usage
        .last
        .map_or(system + tools, |u| u.total_input() + u.output_tokens);
    let messages = total.saturating_sub(system + tools);
    let free = window.saturating_sub(total);
    let percentage = if window == 0 {
        0.0
    } else {
        (total as f64 * 100.0 / window as f64).min(100.0)
    };
    let category = |name: &str, tokens: u64, color: &str| json!({"name": name, "tokens": tokens, "color": color});
    json!({
        "categories": [
            category("System prompt", system, "promptBorder"),
            category("System tools", tools, "inactive"),
            category("Messages", messages, "purple"),
            category("Free space", free, "promptBorder"),
        ],
        "totalTokens": total,
        "maxTokens": window,
        "rawMaxTokens": window,
        "percentage": percentage,
        "model": usage.model,
        "isAutoCompactEnabled": usage.auto_compact,
        "memoryFiles": memory_files,
        "mcpTools": mcp_tools,
        "agents": [],
        "gridRows": [],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_without_a_view_or_request_is_all_zero_and_well_formed() {
        let answer = context_usage(&ContextUse {
            view: None,
            last: None,
            model: "m",
            auto_compact: true,
        });
        assert_eq!(answer["totalTokens"], 0);
        assert_eq!(answer["percentage"], 0.0);
        assert_eq!(answer["categories"].as_array().map(Vec::len), Some(4));
        assert_eq!(answer["model"], "m");
    }

    #[test]
    fn the_last_request_measures_the_context() {
        let last = Usage {
            input_tokens: 900,
            output_tokens: 100,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 1000,
        };
        let answer = context_usage(&ContextUse {
            view: None,
            last: Some(&last),
            model: "m",
            auto_compact: false,
        });
        assert_eq!(answer["totalTokens"], 2000);
        assert_eq!(answer["categories"][2]["tokens"], 2000);
    }

    #[tokio::test]
    async fn bad_requests_name_what_is_missing() {
        let none = mcp_reconnect(&json!({}), None).await.unwrap_err();
        assert!(none.contains("serverName"), "{none}");
        let no_servers = mcp_toggle(&json!({"serverName": "s", "enabled": false}), None)
            .await
            .unwrap_err();
        assert!(no_servers.contains("has none"), "{no_servers}");
        let jobs = BackgroundJobs::new();
        let unknown = stop_task(&json!({"task_id": "bg-9"}), &jobs)
            .await
            .unwrap_err();
        assert!(unknown.contains("bg-9"), "{unknown}");
        let missing = stop_task(&json!({}), &jobs).await.unwrap_err();
        assert!(missing.contains("task_id"), "{missing}");
    }
}
