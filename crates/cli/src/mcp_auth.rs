//! `wright mcp login NAME` and `wright mcp logout NAME`: the browser OAuth
//! login of an HTTP server (the flow itself is `wright_mcp::auth`), with
//! tokens kept in the user's data dir, never in the project.

use std::path::Path;
use std::time::Duration;

use wright_config::Resolved;
use wright_mcp::auth::{LoginOptions, TokenStore};

use crate::exit;
use crate::exit::SetupError;
use crate::mcp_servers::{McpFlags, collect};
use crate::render::escape_controls;

/// Where tokens live: `$XDG_DATA_HOME/wright/mcp-auth` (0700; files 0600).
pub fn token_store() -> Option<TokenStore> {
    dirs::data_dir().map(|d| TokenStore::new(d.join("wright").join("mcp-auth")))
}

/// Opens `url` in the desktop's browser; the URL is printed either way,
/// for a machine without one (ssh, a container), and so is what happens
/// next.
fn open_browser(url: &str) -> Result<(), String> {
    eprintln!("Open this URL to authorize wright:\n  {url}");
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let opened = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
        .map_err(|e| format!("{opener}: {e}"));
    if let Err(why) = &opened {
        eprintln!("(no browser could be opened here: {why}; open the URL yourself)");
    }
    eprintln!(
        "Waiting for the browser to come back (at most 5 minutes; Ctrl-C gives up). Over ssh, \
         forward the redirect port (pick it with --redirect-port)."
    );
    opened
}

/// `wright mcp login NAME`.
pub async fn login(
    resolved: &Resolved,
    project_root: &Path,
    flags: &McpFlags,
    name: &str,
    redirect_port: u16,
) -> Result<u8, SetupError> {
    let collected = collect(resolved, project_root, flags, None)?;
    let Some((candidate, _)) = collected.servers.iter().find(|(c, _)| c.name == name) else {
        let known: Vec<&str> = collected
            .servers
            .iter()
            .map(|(c, _)| c.name.as_str())
            .collect();
        return Err(SetupError(format!(
            "no MCP server named {name:?} (configured: {})",
            if known.is_empty() {
                "none".to_owned()
            } else {
                known.join(", ")
            }
        )));
    };
    let server = candidate
        .server
        .as_ref()
        .map_err(|why| SetupError(format!("MCP server {name:?} cannot be used: {why}")))?;
    let store = token_store()
        .ok_or_else(|| SetupError("no user data directory to keep the tokens in".to_owned()))?;
    let options = LoginOptions {
        open_browser: Box::new(open_browser),
        timeout: Duration::from_secs(300),
        redirect_port,
    };
    eprintln!(
        "Logging in to MCP server {name} ({})…",
        escape_controls(&candidate.target)
    );
    let outcome = wright_mcp::auth::login(server, &store, options)
        .await
        .map_err(|e| SetupError(e.to_string()))?;
    println!(
        "Logged in to {} at {}; the token is kept in {}{}.",
        outcome.server,
        escape_controls(&outcome.url),
        outcome.token_file.display(),
        if outcome.refreshable {
            " and refreshed when it expires"
        } else {
            ""
        }
    );
    Ok(exit::SUCCESS)
}

/// `wright mcp logout NAME`.
pub fn logout(name: &str) -> Result<u8, SetupError> {
    let store = token_store()
        .ok_or_else(|| SetupError("no user data directory to look for tokens in".to_owned()))?;
    let existed = wright_mcp::auth::logout(name, &store).map_err(|e| SetupError(e.to_string()))?;
    if existed {
        println!("Forgot the tokens of MCP server {name}.");
    } else {
        println!("No tokens were stored for MCP server {name}.");
    }
    Ok(exit::SUCCESS)
}
