//! `mcp-probe CONFIG [TOOL ARGS_JSON]...`: starts the servers of a
//! `.mcp.json`-shaped file or JSON string, prints their status, tools,
//! prompts, resources and instructions, calls the given tools (printing
//! their progress), and shuts down. For trying real servers by hand:
//!
//! ```text
//! cargo run -p wright-mcp --example mcp-probe -- \
//!   '{"mcpServers":{"everything":{"command":"npx","args":["-y","@modelcontextprotocol/server-everything"]}}}' \
//!   mcp__everything__echo '{"message":"hi"}'
//! ```

use std::process::ExitCode;
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use wright_mcp::{McpManager, ServerStatus, StartOptions, config};

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(source) = args.first() else {
        eprintln!("usage: mcp-probe CONFIG [TOOL ARGS_JSON]...");
        return ExitCode::from(2);
    };
    let servers = match config::load_flag(source, &config::process_env) {
        Ok(servers) => servers,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mcp = McpManager::start(servers, StartOptions::default()).await;
    for report in mcp.statuses() {
        match &report.status {
            ServerStatus::Connected { tools } => println!(
                "{} [{}] {} ({}): connected, {} tools",
                report.name,
                report.transport,
                report.target,
                report.source,
                tools.len()
            ),
            ServerStatus::Starting => println!("{}: still starting", report.name),
            ServerStatus::Disabled => println!("{}: turned off", report.name),
            ServerStatus::Failed { reason } => {
                println!("{} [{}]: failed: {reason}", report.name, report.transport);
            }
        }
    }
    for tool in mcp.tools() {
        let read_only = if tool.hints.read_only == Some(true) {
            " (read-only)"
        } else {
            ""
        };
        println!(
            "  {}{read_only}: {}",
            tool.name,
            tool.description
                .as_deref()
                .unwrap_or("")
                .lines()
                .next()
                .unwrap_or("")
        );
    }
    for prompt in mcp.prompts() {
        let args: Vec<String> = prompt
            .arguments
            .iter()
            .map(|a| {
                if a.required {
                    a.name.clone()
                } else {
                    format!("[{}]", a.name)
                }
            })
            .collect();
        println!("  prompt {} {}", prompt.exposed, args.join(" "));
    }
    match mcp
        .resources(None, Duration::from_secs(30), &CancellationToken::new())
        .await
    {
        Ok(resources) => {
            for r in resources {
                println!("  resource @{}:{} ({})", r.server, r.uri, r.name);
            }
        }
        Err(e) => println!("  resources: {e}"),
    }
    for (server, text) in mcp.instructions() {
        println!("  instructions of {server}: {} chars", text.chars().count());
    }
    for pair in args[1..].chunks(2) {
        let name = &pair[0];
        let arguments = pair
            .get(1)
            .and_then(|a| serde_json::from_str(a).ok())
            .unwrap_or(serde_json::Value::Null);
        let result = mcp
            .call(
                name,
                arguments,
                Duration::from_secs(60),
                &CancellationToken::new(),
                Some(progress_printer(name)),
            )
            .await;
        match result {
            Ok(r) => {
                println!("{name} -> is_error={} text={:?}", r.is_error, r.text);
                for image in &r.images {
                    println!(
                        "  image {} ({} base64 chars)",
                        image.mime_type,
                        image.data.len()
                    );
                }
            }
            Err(e) => println!("{name} -> error: {e}"),
        }
    }
    mcp.shutdown().await;
    ExitCode::SUCCESS
}

/// Prints a call's progress notifications as they arrive.
fn progress_printer(tool: &str) -> wright_mcp::ProgressSink {
    let tool = tool.to_owned();
    std::sync::Arc::new(move |p: wright_mcp::McpProgress| {
        let total = p.total.map(|t| format!("/{t}")).unwrap_or_default();
        let message = p.message.unwrap_or_default();
        println!("  {tool} progress {}{total} {message}", p.progress);
    })
}
