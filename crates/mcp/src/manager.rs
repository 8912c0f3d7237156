//! [`McpManager`]: starts every configured server in parallel, keeps their
//! tools under exposed names, routes calls and other requests (timeout,
//! cancel, one restart of a server that died), refreshes tool and prompt
//! lists after `list_changed`, and shuts the servers down. Resources and
//! prompts have their own submodules.

mod info;
mod prompts;
mod refresh;
mod resources;

pub use info::MAX_INSTRUCTIONS_CHARS;

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use rmcp::model::{Prompt, ServerPeerInfo, Tool};
use tokio_util::sync::CancellationToken;

use crate::client::{CallFailure, ConnectSettings, Connection, Listing};
use crate::config::{McpServer, validate_server_name};
use crate::error::McpError;
use crate::names::{ToolNames, ToolRef};
use crate::result::McpToolResult;
use crate::schema::normalize_schema;
use crate::stdio::kill_group_now;
use crate::types::{McpPrompt, McpTool, ProgressSink, StartOptions, ToolHints};

enum State {
    Starting,
    Connected(Arc<Connection>),
    Failed(String),
    Disabled,
}

/// [`State`] for synchronous readers.
#[derive(Clone)]
enum Phase {
    Starting,
    Ready,
    Failed(String),
    Disabled,
}

fn set_phase(slot: &Slot, phase: Phase) {
    if let Ok(mut p) = slot.phase.lock() {
        *p = phase;
    }
}

fn is_starting(slot: &Slot) -> bool {
    slot.phase
        .lock()
        .map(|p| matches!(*p, Phase::Starting))
        .unwrap_or(false)
}

struct Slot {
    server: McpServer,
    state: tokio::sync::Mutex<State>,
    /// The one automatic restart has been used.
    restarted: AtomicBool,
    /// Mirrors of the state for synchronous readers.
    phase: Mutex<Phase>,
    tools: Mutex<Vec<Tool>>,
    prompts: Mutex<Vec<Prompt>>,
    /// The `initialize` result of the current connection; `None` while not
    /// connected.
    info: Mutex<Option<Arc<ServerPeerInfo>>>,
}

impl Slot {
    /// Stores what a (re)connected server offers.
    fn store(&self, listing: Listing) {
        if let Ok(mut t) = self.tools.lock() {
            *t = listing.tools;
        }
        if let Ok(mut p) = self.prompts.lock() {
            *p = listing.prompts;
        }
        if let Ok(mut i) = self.info.lock() {
            *i = listing.info;
        }
    }

    /// What the server said in `initialize`, while connected.
    fn info(&self) -> Option<Arc<ServerPeerInfo>> {
        self.info.lock().ok().and_then(|i| i.clone())
    }
}

#[derive(Default)]
struct Index {
    names: ToolNames,
    tools: Vec<McpTool>,
    prompts: Vec<McpPrompt>,
}

/// The MCP servers of a session.
pub struct McpManager {
    slots: BTreeMap<String, Slot>,
    options: StartOptions,
    index: RwLock<Index>,
    /// Process groups still running, killed on drop if `shutdown` was not
    /// awaited.
    live_groups: Mutex<BTreeMap<String, u32>>,
    /// Bumped whenever a server leaves [`ServerStatus::Starting`], so
    /// [`Self::wait_started`] wakes without polling.
    settled: tokio::sync::watch::Sender<u64>,
    /// Woken by every connection when a server's tools or prompts change.
    list_changed: Arc<tokio::sync::Notify>,
}

impl McpManager {
    /// Starts every server in parallel and returns when each has connected,
    /// failed or timed out ([`Self::new`] then [`Self::connect_all`]).
    pub async fn start(servers: Vec<McpServer>, options: StartOptions) -> Self {
        let manager = Self::new(servers, options);
        manager.connect_all().await;
        manager
    }

    /// The manager with every server still to start ([`ServerStatus::Starting`];
    /// invalid names already failed), without I/O. With
    /// [`Self::connect_all`] run in a task, a session need not wait for slow
    /// servers: their tools join the list as each connects. A later server
    /// with the same name as an earlier one replaces it.
    pub fn new(servers: Vec<McpServer>, options: StartOptions) -> Self {
        let mut slots = BTreeMap::new();
        for server in servers {
            let (state, phase) = match validate_server_name(&server.name) {
                Ok(()) => (State::Starting, Phase::Starting),
                Err(e) => (State::Failed(e.clone()), Phase::Failed(e)),
            };
            slots.insert(
                server.name.clone(),
                Slot {
                    server,
                    state: tokio::sync::Mutex::new(state),
                    restarted: AtomicBool::new(false),
                    phase: Mutex::new(phase),
                    tools: Mutex::new(Vec::new()),
                    prompts: Mutex::new(Vec::new()),
                    info: Mutex::new(None),
                },
            );
        }
        Self {
            slots,
            options,
            index: RwLock::new(Index::default()),
            live_groups: Mutex::new(BTreeMap::new()),
            settled: tokio::sync::watch::Sender::new(0),
            list_changed: Arc::default(),
        }
    }

    /// Connects every server still starting, in parallel, each within
    /// `startup_timeout`. Never fails: a server that cannot start is
    /// reported in [`Self::statuses`]. Calling it again does nothing.
    pub async fn connect_all(&self) {
        let attempts = self.slots.values().map(|slot| async move {
            // Held while connecting, so a shutdown meanwhile waits for it.
            let mut state = slot.state.lock().await;
            if !matches!(*state, State::Starting) {
                return;
            }
            match self.connect(&slot.server).await {
                Ok((conn, listing)) => {
                    *state = State::Connected(Arc::new(conn));
                    drop(state);
                    slot.store(listing);
                    // Names first, so a status never shows a connected
                    // server without its tools.
                    self.rebuild_index();
                    set_phase(slot, Phase::Ready);
                }
                Err(reason) => {
                    *state = State::Failed(reason.clone());
                    drop(state);
                    set_phase(slot, Phase::Failed(reason));
                }
            }
            self.settled.send_modify(|n| *n += 1);
        });
        futures::future::join_all(attempts).await;
    }

    /// Whether any server is still starting.
    pub fn any_starting(&self) -> bool {
        self.slots.values().any(is_starting)
    }

    /// Waits until no server is starting any more (each connected or
    /// failed), at most `limit`. Returns whether they all settled in time.
    /// Used before a model request, so the first one sees every tool that
    /// could be had, while [`Self::connect_all`] runs elsewhere.
    pub async fn wait_started(&self, limit: Duration) -> bool {
        let mut rx = self.settled.subscribe();
        let settled = async {
            loop {
                if !self.any_starting() {
                    return;
                }
                if rx.changed().await.is_err() {
                    return;
                }
            }
        };
        tokio::time::timeout(limit, settled).await.is_ok()
    }

    async fn connect(&self, server: &McpServer) -> Result<(Connection, Listing), String> {
        let settings = ConnectSettings {
            startup_timeout: self.options.startup_timeout,
            withheld_env: &self.options.withheld_env,
            cwd: self
                .options
                .server_cwd
                .get(&server.name)
                .or(self.options.cwd.as_ref()),
            server_name: &server.name,
            auth_store: self.options.auth_store.as_ref(),
            list_changed: &self.list_changed,
            sdk_relay: self.options.sdk_relay.as_ref(),
        };
        let (conn, listing) = Connection::connect(&server.config, &settings).await?;
        if let Some(pgid) = conn.child.as_ref().and_then(|c| c.pgid)
            && let Ok(mut live) = self.live_groups.lock()
        {
            live.insert(server.name.clone(), pgid);
        }
        Ok((conn, listing))
    }

    /// The tools of all connected servers, sorted by exposed name.
    pub fn tools(&self) -> Vec<McpTool> {
        self.index
            .read()
            .map(|i| i.tools.clone())
            .unwrap_or_default()
    }

    /// The connected tool exposed as `exposed` (one lookup, without
    /// copying the whole list: dispatch asks for every call).
    pub fn tool(&self, exposed: &str) -> Option<McpTool> {
        let index = self.index.read().ok()?;
        index.tools.iter().find(|t| t.name == exposed).cloned()
    }

    /// The server and original name behind an exposed name.
    pub fn resolve(&self, exposed: &str) -> Option<ToolRef> {
        self.index.read().ok()?.names.resolve(exposed).cloned()
    }

    /// Calls a tool by its exposed name. `arguments` must be a JSON object
    /// (or null for none). A timeout or `cancel` drops the request, and rmcp
    /// then sends `notifications/cancelled` to the server. A server found
    /// dead is restarted once (here, on the next call); a call in flight
    /// when it died fails with [`McpError::ServerDied`]. With `progress`,
    /// the server's `notifications/progress` for this call reach the sink
    /// (in order, all before this returns).
    pub async fn call(
        &self,
        exposed: &str,
        arguments: serde_json::Value,
        timeout: Duration,
        cancel: &CancellationToken,
        progress: Option<ProgressSink>,
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
        let result = self
            .request(slot, exposed, timeout, cancel, |conn| async move {
                conn.call(&target.tool, arguments, progress).await
            })
            .await?;
        Ok(McpToolResult::from(result))
    }

    /// Runs one request on the slot's connection (restarting a dead server
    /// once) within `timeout` and until `cancel`; `what` names it in errors.
    async fn request<T, F, Fut>(
        &self,
        slot: &Slot,
        what: &str,
        timeout: Duration,
        cancel: &CancellationToken,
        run: F,
    ) -> Result<T, McpError>
    where
        F: FnOnce(Arc<Connection>) -> Fut,
        Fut: Future<Output = Result<T, CallFailure>>,
    {
        let conn = self.connection_for_call(slot).await?;
        let server = || slot.server.name.clone();
        let tool = || what.to_owned();
        let outcome = tokio::select! {
            biased;
            () = cancel.cancelled() => return Err(McpError::Cancelled { tool: tool() }),
            outcome = tokio::time::timeout(timeout, run(conn)) => outcome,
        };
        match outcome {
            Err(_) => Err(McpError::Timeout {
                server: server(),
                tool: tool(),
                after: timeout,
            }),
            Ok(Ok(result)) => Ok(result),
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
            State::Starting => return Err(unavailable("it is still starting".to_owned())),
            State::Failed(reason) => return Err(unavailable(reason.clone())),
            State::Disabled => {
                return Err(unavailable("it was turned off for this session".to_owned()));
            }
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
            Ok((conn, listing)) => {
                let conn = Arc::new(conn);
                *state = State::Connected(Arc::clone(&conn));
                drop(state);
                slot.store(listing);
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

    /// Closes a server and connects it again (a user who fixed what made it
    /// fail, or wants a fresh one); it gets a new restart-once allowance.
    /// A turned-off server is turned on.
    pub async fn reconnect(&self, name: &str) -> Result<(), String> {
        let slot = self
            .slots
            .get(name)
            .ok_or_else(|| format!("no MCP server named {name}"))?;
        let mut state = slot.state.lock().await;
        let old = std::mem::replace(&mut *state, State::Starting);
        if let State::Connected(conn) = old {
            conn.close(self.options.shutdown_grace).await;
        }
        self.forget_group(name);
        set_phase(slot, Phase::Starting);
        slot.restarted.store(false, Ordering::SeqCst);
        match self.connect(&slot.server).await {
            Ok((conn, listing)) => {
                *state = State::Connected(Arc::new(conn));
                drop(state);
                slot.store(listing);
                self.rebuild_index();
                set_phase(slot, Phase::Ready);
                self.settled.send_modify(|n| *n += 1);
                Ok(())
            }
            Err(reason) => {
                *state = State::Failed(reason.clone());
                drop(state);
                self.mark_failed(slot, &reason);
                Err(reason)
            }
        }
    }

    /// Turns a server off for the rest of the session (closed, its tools
    /// withdrawn) or back on (connected again).
    pub async fn set_enabled(&self, name: &str, enabled: bool) -> Result<(), String> {
        if enabled {
            let slot = self
                .slots
                .get(name)
                .ok_or_else(|| format!("no MCP server named {name}"))?;
            let off = matches!(*slot.state.lock().await, State::Disabled);
            return if off {
                self.reconnect(name).await
            } else {
                Ok(())
            };
        }
        let slot = self
            .slots
            .get(name)
            .ok_or_else(|| format!("no MCP server named {name}"))?;
        let old = std::mem::replace(&mut *slot.state.lock().await, State::Disabled);
        if let State::Connected(conn) = old {
            conn.close(self.options.shutdown_grace).await;
        }
        self.forget_group(name);
        self.mark_failed(slot, "");
        set_phase(slot, Phase::Disabled);
        Ok(())
    }

    fn mark_failed(&self, slot: &Slot, reason: &str) {
        set_phase(slot, Phase::Failed(reason.to_owned()));
        self.settled.send_modify(|n| *n += 1);
        if let Ok(mut t) = slot.tools.lock() {
            t.clear();
        }
        if let Ok(mut p) = slot.prompts.lock() {
            p.clear();
        }
        if let Ok(mut i) = slot.info.lock() {
            *i = None;
        }
        self.rebuild_index();
    }

    fn forget_group(&self, name: &str) {
        if let Ok(mut live) = self.live_groups.lock() {
            live.remove(name);
        }
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
                    input_schema: normalize_schema(serde_json::Value::Object(
                        (*t.input_schema).clone(),
                    )),
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
        let prompts = self.prompt_index();
        if let Ok(mut index) = self.index.write() {
            *index = Index {
                names,
                tools,
                prompts,
            };
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
