//! [`McpManager`]: starts every configured server in parallel, keeps their
//! tools under exposed names, routes calls (timeout, cancel, one restart of
//! a server that died), refreshes tool lists after `list_changed`, and shuts
//! the servers down.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use rmcp::model::Tool;
use tokio_util::sync::CancellationToken;

use crate::client::{CallFailure, ConnectSettings, Connection};
use crate::config::{ConfigSource, McpServer, validate_server_name};
use crate::error::McpError;
use crate::names::{ToolNames, ToolRef};
use crate::result::McpToolResult;
use crate::stdio::kill_group_now;

/// How servers are started and stopped.
#[derive(Debug, Clone)]
pub struct StartOptions {
    /// Longest wait for a server's initialize + first `tools/list`.
    pub startup_timeout: Duration,
    /// Each shutdown stage's wait (after closing stdin, after SIGTERM).
    pub shutdown_grace: Duration,
    /// Variables removed from a stdio server's inherited environment in
    /// addition to [`crate::config::PROVIDER_KEY_VARS`] (the core adds the
    /// key variables of its configured providers).
    pub withheld_env: Vec<String>,
    /// Working directory of stdio servers (the project root); `None` keeps
    /// wright's.
    pub cwd: Option<PathBuf>,
}

impl Default for StartOptions {
    fn default() -> Self {
        Self {
            startup_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(2),
            withheld_env: Vec::new(),
            cwd: None,
        }
    }
}

/// A server's state for `wright mcp list`, doctor and the init line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerStatus {
    /// Connected; its tools' exposed names.
    Connected {
        /// Exposed names, sorted.
        tools: Vec<String>,
    },
    /// Not usable: why (command, exit code and stderr tail for a process).
    Failed {
        /// A sentence for the user.
        reason: String,
    },
}

/// One server's line in a status report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerReport {
    /// The configured name.
    pub name: String,
    /// `stdio`, `http` or `sse`.
    pub transport: &'static str,
    /// The command line or URL.
    pub target: String,
    /// Where it was configured.
    pub source: ConfigSource,
    /// Connected or failed.
    pub status: ServerStatus,
}

/// The behaviour hints a server gives for a tool (MCP `annotations`);
/// hints, not guarantees: the permission layer decides whether to trust them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolHints {
    /// `readOnlyHint`.
    pub read_only: Option<bool>,
    /// `destructiveHint`.
    pub destructive: Option<bool>,
    /// `idempotentHint`.
    pub idempotent: Option<bool>,
    /// `openWorldHint`.
    pub open_world: Option<bool>,
}

/// A server tool as the model will see it.
#[derive(Debug, Clone, PartialEq)]
pub struct McpTool {
    /// The exposed name, `mcp__<server>__<tool>` (sanitized).
    pub name: String,
    /// The server.
    pub server: String,
    /// The tool's own name on the server.
    pub tool: String,
    /// Its display title, if any.
    pub title: Option<String>,
    /// Its description, if any.
    pub description: Option<String>,
    /// Its JSON schema for the arguments, as the server sent it.
    pub input_schema: serde_json::Value,
    /// Its annotations.
    pub hints: ToolHints,
}

enum State {
    Connected(Arc<Connection>),
    Failed(String),
}

struct Slot {
    server: McpServer,
    state: tokio::sync::Mutex<State>,
    /// The one automatic restart has been used.
    restarted: AtomicBool,
    /// Mirrors of the state for synchronous readers.
    failure: Mutex<Option<String>>,
    tools: Mutex<Vec<Tool>>,
}

#[derive(Default)]
struct Index {
    names: ToolNames,
    tools: Vec<McpTool>,
}

/// The MCP servers of a session.
pub struct McpManager {
    slots: BTreeMap<String, Slot>,
    options: StartOptions,
    index: RwLock<Index>,
    /// Process groups still running, killed on drop if `shutdown` was not
    /// awaited.
    live_groups: Mutex<BTreeMap<String, u32>>,
}

impl McpManager {
    /// Starts every server in parallel; each gets `startup_timeout`. Never
    /// fails: a server that cannot start is reported in [`Self::statuses`].
    /// A later server with the same name as an earlier one replaces it.
    pub async fn start(servers: Vec<McpServer>, options: StartOptions) -> Self {
        let mut by_name = BTreeMap::new();
        for server in servers {
            by_name.insert(server.name.clone(), server);
        }
        let manager = Self {
            slots: BTreeMap::new(),
            options,
            index: RwLock::new(Index::default()),
            live_groups: Mutex::new(BTreeMap::new()),
        };
        let attempts = by_name.into_values().map(|server| {
            let manager = &manager;
            async move {
                let outcome = match validate_server_name(&server.name) {
                    Ok(()) => manager.connect(&server).await,
                    Err(e) => Err(e),
                };
                (server, outcome)
            }
        });
        let results = futures::future::join_all(attempts).await;
        let mut manager = manager;
        for (server, outcome) in results {
            let (state, failure, tools) = match outcome {
                Ok((conn, tools)) => (State::Connected(Arc::new(conn)), None, tools),
                Err(reason) => (State::Failed(reason.clone()), Some(reason), Vec::new()),
            };
            manager.slots.insert(
                server.name.clone(),
                Slot {
                    server,
                    state: tokio::sync::Mutex::new(state),
                    restarted: AtomicBool::new(false),
                    failure: Mutex::new(failure),
                    tools: Mutex::new(tools),
                },
            );
        }
        manager.rebuild_index();
        manager
    }

    async fn connect(&self, server: &McpServer) -> Result<(Connection, Vec<Tool>), String> {
        let settings = ConnectSettings {
            startup_timeout: self.options.startup_timeout,
            withheld_env: &self.options.withheld_env,
            cwd: self.options.cwd.as_ref(),
        };
        let (conn, tools) = Connection::connect(&server.config, &settings).await?;
        if let Some(pgid) = conn.child.as_ref().and_then(|c| c.pgid)
            && let Ok(mut live) = self.live_groups.lock()
        {
            live.insert(server.name.clone(), pgid);
        }
        Ok((conn, tools))
    }

    /// Every server with its status, sorted by name.
    pub fn statuses(&self) -> Vec<ServerReport> {
        let index = self.index.read().ok();
        self.slots
            .values()
            .map(|slot| {
                let failure = slot.failure.lock().ok().and_then(|f| f.clone());
                let status = match failure {
                    Some(reason) => ServerStatus::Failed { reason },
                    None => ServerStatus::Connected {
                        tools: index
                            .as_ref()
                            .map(|i| {
                                i.tools
                                    .iter()
                                    .filter(|t| t.server == slot.server.name)
                                    .map(|t| t.name.clone())
                                    .collect()
                            })
                            .unwrap_or_default(),
                    },
                };
                ServerReport {
                    name: slot.server.name.clone(),
                    transport: slot.server.config.transport(),
                    target: slot.server.config.describe(),
                    source: slot.server.source.clone(),
                    status,
                }
            })
            .collect()
    }

    /// The tools of all connected servers, sorted by exposed name.
    pub fn tools(&self) -> Vec<McpTool> {
        self.index
            .read()
            .map(|i| i.tools.clone())
            .unwrap_or_default()
    }

    /// The server and original name behind an exposed name.
    pub fn resolve(&self, exposed: &str) -> Option<ToolRef> {
        self.index.read().ok()?.names.resolve(exposed).cloned()
    }

    /// Calls a tool by its exposed name. `arguments` must be a JSON object
    /// (or null for none). A timeout or `cancel` drops the request, and rmcp
    /// then sends `notifications/cancelled` to the server. A server found
    /// dead is restarted once (here, on the next call); a call in flight
    /// when it died fails with [`McpError::ServerDied`].
    pub async fn call(
        &self,
        exposed: &str,
        arguments: serde_json::Value,
        timeout: Duration,
        cancel: &CancellationToken,
    ) -> Result<McpToolResult, McpError> {
        let tool = || exposed.to_owned();
        let arguments = match arguments {
            serde_json::Value::Object(map) => Some(map),
            serde_json::Value::Null => None,
            _ => return Err(McpError::BadArguments { tool: tool() }),
        };
        let target = self
            .resolve(exposed)
            .ok_or_else(|| McpError::UnknownTool(tool()))?;
        let slot = self
            .slots
            .get(&target.server)
            .ok_or_else(|| McpError::UnknownTool(tool()))?;
        let conn = self.connection_for_call(slot).await?;
        let server = || target.server.clone();
        let outcome = tokio::select! {
            biased;
            () = cancel.cancelled() => return Err(McpError::Cancelled { tool: tool() }),
            outcome = tokio::time::timeout(timeout, conn.call(&target.tool, arguments)) => outcome,
        };
        match outcome {
            Err(_) => Err(McpError::Timeout {
                server: server(),
                tool: tool(),
                after: timeout,
            }),
            Ok(Ok(result)) => Ok(McpToolResult::from(result)),
            Ok(Err(CallFailure::Closed(detail))) => Err(McpError::ServerDied {
                server: server(),
                tool: tool(),
                detail,
            }),
            Ok(Err(CallFailure::Other(message))) => Err(McpError::Protocol {
                server: server(),
                tool: tool(),
                message,
            }),
        }
    }

    /// The live connection, restarting a dead server once.
    async fn connection_for_call(&self, slot: &Slot) -> Result<Arc<Connection>, McpError> {
        let name = &slot.server.name;
        let unavailable = |reason: String| McpError::Unavailable {
            server: name.clone(),
            reason,
        };
        let mut state = slot.state.lock().await;
        let old = match &*state {
            State::Failed(reason) => return Err(unavailable(reason.clone())),
            State::Connected(conn) if !conn.is_closed() => return Ok(Arc::clone(conn)),
            State::Connected(conn) => Arc::clone(conn),
        };
        // Reap what is left of the dead server (its group, the session).
        old.close(self.options.shutdown_grace).await;
        self.forget_group(name);
        let outcome = if slot.restarted.swap(true, Ordering::SeqCst) {
            Err(format!(
                "it stopped again after its one restart ({})",
                old.child
                    .as_ref()
                    .map_or_else(|| "connection closed".to_owned(), |c| c.describe_end())
            ))
        } else {
            self.connect(&slot.server)
                .await
                .map_err(|e| format!("restart failed: {e}"))
        };
        match outcome {
            Ok((conn, tools)) => {
                let conn = Arc::new(conn);
                *state = State::Connected(Arc::clone(&conn));
                drop(state);
                if let Ok(mut t) = slot.tools.lock() {
                    *t = tools;
                }
                self.rebuild_index();
                Ok(conn)
            }
            Err(reason) => {
                *state = State::Failed(reason.clone());
                drop(state);
                self.mark_failed(slot, &reason);
                Err(unavailable(reason))
            }
        }
    }

    fn mark_failed(&self, slot: &Slot, reason: &str) {
        if let Ok(mut f) = slot.failure.lock() {
            *f = Some(reason.to_owned());
        }
        if let Ok(mut t) = slot.tools.lock() {
            t.clear();
        }
        self.rebuild_index();
    }

    fn forget_group(&self, name: &str) {
        if let Ok(mut live) = self.live_groups.lock() {
            live.remove(name);
        }
    }

    /// Lists the tools again of every server that sent
    /// `notifications/tools/list_changed` since the last look; the core
    /// calls this before each model request. Returns whether any list was
    /// refreshed.
    pub async fn refresh_if_stale(&self) -> bool {
        let mut changed = false;
        for slot in self.slots.values() {
            let conn = match &*slot.state.lock().await {
                State::Connected(conn) if !conn.is_closed() => Arc::clone(conn),
                _ => continue,
            };
            if !conn.take_stale() {
                continue;
            }
            // A failed refresh keeps the old list; the next call or
            // notification tries again.
            if let Ok(tools) = conn.list_tools().await
                && let Ok(mut t) = slot.tools.lock()
            {
                *t = tools;
                changed = true;
            }
        }
        if changed {
            self.rebuild_index();
        }
        changed
    }

    /// Closes every server: the session first (stdin EOF for a process),
    /// then, for processes, SIGTERM and SIGKILL to the group after grace
    /// periods. Servers are closed in parallel.
    pub async fn shutdown(&self) {
        let closing = self.slots.values().map(|slot| async move {
            let old = std::mem::replace(
                &mut *slot.state.lock().await,
                State::Failed("shut down".to_owned()),
            );
            if let State::Connected(conn) = old {
                conn.close(self.options.shutdown_grace).await;
            }
            self.forget_group(&slot.server.name);
            self.mark_failed(slot, "shut down");
        });
        futures::future::join_all(closing).await;
    }

    fn rebuild_index(&self) {
        let mut refs = Vec::new();
        let mut raw: BTreeMap<ToolRef, Tool> = BTreeMap::new();
        for slot in self.slots.values() {
            let Ok(tools) = slot.tools.lock() else {
                continue;
            };
            for tool in tools.iter() {
                let r = ToolRef {
                    server: slot.server.name.clone(),
                    tool: tool.name.to_string(),
                };
                refs.push(r.clone());
                raw.insert(r, tool.clone());
            }
        }
        let names = ToolNames::build(refs);
        let tools = names
            .iter()
            .filter_map(|(exposed, r)| {
                raw.get(r).map(|t| McpTool {
                    name: exposed.to_owned(),
                    server: r.server.clone(),
                    tool: r.tool.clone(),
                    title: t.title.clone(),
                    description: t.description.as_ref().map(|d| d.to_string()),
                    input_schema: serde_json::Value::Object((*t.input_schema).clone()),
                    hints: t
                        .annotations
                        .as_ref()
                        .map(|a| ToolHints {
                            read_only: a.read_only_hint,
                            destructive: a.destructive_hint,
                            idempotent: a.idempotent_hint,
                            open_world: a.open_world_hint,
                        })
                        .unwrap_or_default(),
                })
            })
            .collect();
        if let Ok(mut index) = self.index.write() {
            *index = Index { names, tools };
        }
    }
}

impl Drop for McpManager {
    /// The last resort when `shutdown` was not awaited: kill every group
    /// still known to run (this blocks briefly on bash's `kill`).
    fn drop(&mut self) {
        if let Ok(live) = self.live_groups.lock() {
            for pgid in live.values() {
                kill_group_now(*pgid);
            }
        }
    }
}
