//! The tools of a session as each model request offers them: the built-in
//! registry, then (when MCP servers are configured) the servers' tools,
//! in full or deferred behind [`tool_search`](crate::tool_search), and the
//! MCP resource tools. Dispatch looks tools up here by name, so a server
//! tool that joined mid-session is callable at once.
//!
//! Before a request the MCP side waits for servers still starting (only
//! before the first request, and at most the start-up timeout), re-lists
//! the tools of servers that said their list changed, and reports each
//! server that failed once.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use wright_mcp::{McpTool, ServerStatus};
use wright_protocol::ToolSpec;
use wright_tools::{Tool, ToolRegistry};

use wright_permissions::Mode;
use wright_protocol::ToolKind;

use crate::emitter::Emitter;
use crate::interaction;
use crate::mcp_call::{McpCallTool, spec_of};
use crate::mcp_resources::{self, ListResourcesTool, ReadResourceTool};
use crate::options::{McpSetup, ToolSearch};
use crate::tool_search::{self, Loaded, ToolSearchTool};

/// Longest wait of the first request for servers still starting.
const FIRST_REQUEST_WAIT: std::time::Duration = std::time::Duration::from_secs(5);
/// How long that wait stays silent.
const QUIET_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// Share of the context window MCP schemas may take before they are deferred.
const SEARCH_THRESHOLD_PERCENT: u64 = 10;

/// What decides which asking tools a request carries.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Asking {
    /// The permission mode now.
    pub(crate) mode: Mode,
    /// Whether a person (or a program's callback) can answer.
    pub(crate) can_ask: bool,
}

/// The session's tools.
pub(crate) struct ToolBox {
    builtin: Arc<ToolRegistry>,
    builtin_specs: Vec<ToolSpec>,
    mcp: Option<McpSide>,
    /// The `Task` tool (the top agent's only: subagents start none).
    task: Option<(Arc<crate::task::Agents>, ToolSpec)>,
    /// A subagent's list of the MCP tools it may use (`mcp__s__t`,
    /// `mcp__s__*`, `mcp__s`); `None` for all.
    mcp_allow: Option<Vec<String>>,
    /// Whether this toolbox has the tools that ask the person
    /// (`ExitPlanMode`, `AskUserQuestion`): the top agent's only.
    interactive: bool,
    /// Size of the specs sent with the latest request (the compaction
    /// estimate counts them).
    sent_chars: AtomicUsize,
}

struct McpSide {
    setup: McpSetup,
    /// The first request already waited for servers still starting.
    waited: AtomicBool,
    /// Servers whose failure the user was told about.
    reported: Mutex<BTreeSet<String>>,
    /// Deferred tools the model loaded through tool search.
    loaded: Loaded,
}

fn spec_chars(spec: &ToolSpec) -> usize {
    spec.input_schema.json().get().len() + spec.description.len() + spec.name.len()
}

impl ToolBox {
    pub(crate) fn new(
        builtin: Arc<ToolRegistry>,
        mcp: Option<McpSetup>,
        agents: Option<Arc<crate::task::Agents>>,
    ) -> Self {
        let mut builtin_specs = builtin.specs().to_vec();
        let task = agents.map(|a| {
            let spec = crate::task::spec(&a);
            (a, spec)
        });
        if let Some((_, spec)) = &task {
            builtin_specs.push(spec.clone());
        }
        let builtin_chars = builtin_specs.iter().map(spec_chars).sum();
        Self {
            builtin,
            builtin_specs,
            task,
            mcp_allow: None,
            interactive: true,
            mcp: mcp.map(|setup| McpSide {
                setup,
                waited: AtomicBool::new(false),
                reported: Mutex::default(),
                loaded: Loaded::default(),
            }),
            sent_chars: AtomicUsize::new(builtin_chars),
        }
    }

    /// The session's MCP servers, when it has any.
    pub(crate) fn mcp(&self) -> Option<&McpSetup> {
        self.mcp.as_ref().map(|m| &m.setup)
    }

    /// The agent types of the `Task` tool, when this toolbox has it.
    pub(crate) fn agents(&self) -> Option<&crate::task::Agents> {
        self.task.as_ref().map(|(a, _)| a.as_ref())
    }

    /// A subagent's tools: the built-ins its definition lists (all when it
    /// lists none), the MCP servers' when it may use them, never `Task`.
    pub(crate) fn for_subagent(&self, allowed: Option<&[String]>) -> ToolBox {
        let builtin = match allowed {
            None => Arc::clone(&self.builtin),
            Some(names) => Arc::new(self.builtin.only(|n| names.iter().any(|a| a == n))),
        };
        let mcp_names: Option<Vec<String>> = allowed.map(|names| {
            names
                .iter()
                .filter(|n| {
                    n.starts_with("mcp__")
                        || matches!(
                            n.as_str(),
                            mcp_resources::LIST | mcp_resources::READ | tool_search::NAME
                        )
                })
                .cloned()
                .collect()
        });
        let mcp = self
            .mcp
            .as_ref()
            .map(|m| m.setup.clone())
            .filter(|_| mcp_names.as_ref().is_none_or(|n| !n.is_empty()));
        let mut toolbox = ToolBox::new(builtin, mcp, None);
        toolbox.mcp_allow = mcp_names;
        toolbox.interactive = false;
        toolbox
    }

    /// Whether this toolbox may offer the MCP-side tool `name`.
    fn mcp_allowed(&self, name: &str) -> bool {
        let Some(list) = &self.mcp_allow else {
            return true;
        };
        list.iter().any(|rule| {
            rule == name
                || rule
                    .strip_suffix('*')
                    .is_some_and(|prefix| prefix.ends_with("__") && name.starts_with(prefix))
                || (rule.matches("__").count() == 1 && name.starts_with(&format!("{rule}__")))
        })
    }

    /// Whether this toolbox has the tools that ask the person.
    pub(crate) fn interactive(&self) -> bool {
        self.interactive
    }

    /// The tool the model calls `name`.
    pub(crate) fn lookup(&self, name: &str) -> Option<Arc<dyn Tool>> {
        if let Some(tool) = self.builtin.get(name) {
            return Some(tool);
        }
        if self.interactive {
            let spec = match name {
                interaction::EXIT_PLAN => Some(interaction::exit_plan_spec()),
                interaction::ASK => Some(interaction::ask_spec()),
                _ => None,
            };
            if let Some(spec) = spec {
                return Some(Arc::new(interaction::InteractionTool { spec }));
            }
        }
        if let Some((_, spec)) = &self.task
            && name == crate::task::NAME
        {
            return Some(Arc::new(crate::task::TaskTool { spec: spec.clone() }));
        }
        let side = self.mcp.as_ref()?;
        if !self.mcp_allowed(name) {
            return None;
        }
        let manager = Arc::clone(&side.setup.manager);
        match name {
            tool_search::NAME | tool_search::ALIAS => Some(Arc::new(ToolSearchTool {
                manager,
                loaded: Arc::clone(&side.loaded),
            })),
            mcp_resources::LIST | mcp_resources::LIST_ALIAS => Some(Arc::new(
                ListResourcesTool::new(manager, side.setup.tool_timeout),
            )),
            mcp_resources::READ | mcp_resources::READ_ALIAS => Some(Arc::new(
                ReadResourceTool::new(manager, side.setup.tool_timeout),
            )),
            _ => {
                let tool = manager.tool(name)?;
                Some(Arc::new(McpCallTool::new(
                    manager,
                    tool,
                    side.setup.read_only_hints,
                    side.setup.tool_timeout,
                )))
            }
        }
    }

    /// Every tool name the model can call now, for an unknown-tool error.
    pub(crate) fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.builtin.names().iter().map(|n| n.to_string()).collect();
        if self.task.is_some() {
            names.push(crate::task::NAME.to_owned());
        }
        if let Some(side) = &self.mcp {
            names.extend(
                side.setup
                    .manager
                    .tools()
                    .into_iter()
                    .map(|t| t.name)
                    .filter(|n| self.mcp_allowed(n)),
            );
        }
        names
    }

    /// The specs of every tool but the MCP servers': the built-ins (no edit
    /// tools in plan mode), `Task`, and the tools that ask the person.
    pub(crate) fn own_specs(&self, asking: Asking) -> Vec<ToolSpec> {
        let mut specs = self.builtin_specs.clone();
        if asking.mode == Mode::Plan {
            specs.retain(|s| {
                self.builtin
                    .get(&s.name)
                    .is_none_or(|t| t.kind() != ToolKind::Edit)
            });
        }
        if self.interactive {
            if asking.mode == Mode::Plan {
                specs.push(interaction::exit_plan_spec());
            }
            if asking.can_ask {
                specs.push(interaction::ask_spec());
            }
        }
        specs
    }

    /// Size of the specs the latest request carried.
    pub(crate) fn chars(&self) -> usize {
        self.sent_chars.load(Ordering::Relaxed)
    }

    /// The specs for the next model request. `window` is the model's
    /// context window in tokens (0 when unknown), for tool search `auto`.
    /// In plan mode the edit tools are left out and `ExitPlanMode` is
    /// offered; `AskUserQuestion` only when someone can answer.
    pub(crate) async fn specs_for_request(
        &self,
        emitter: &Emitter,
        window: u64,
        asking: Asking,
    ) -> Vec<ToolSpec> {
        let mut specs = self.own_specs(asking);
        let Some(side) = &self.mcp else {
            let chars = specs.iter().map(spec_chars).sum();
            self.sent_chars.store(chars, Ordering::Relaxed);
            return specs;
        };
        side.prepare(emitter).await;
        let tools: Vec<McpTool> = side
            .setup
            .manager
            .tools()
            .into_iter()
            .filter(|t| self.mcp_allowed(&t.name))
            .collect();
        let full: Vec<ToolSpec> = tools.iter().map(spec_of).collect();
        let mcp_chars: usize = full.iter().map(spec_chars).sum();
        let defer = match side.setup.tool_search {
            ToolSearch::Off => false,
            ToolSearch::On => !tools.is_empty(),
            // Four characters a token, as the compaction estimate counts.
            ToolSearch::Auto => {
                window > 0 && (mcp_chars as u64 / 4) * 100 > window * SEARCH_THRESHOLD_PERCENT
            }
        };
        if defer {
            let loaded = side.loaded.lock().map(|l| l.clone()).unwrap_or_default();
            let (now, later): (Vec<McpTool>, Vec<McpTool>) =
                tools.into_iter().partition(|t| loaded.contains(&t.name));
            specs.extend(now.iter().map(spec_of));
            if !later.is_empty() {
                specs.push(tool_search::spec(&later));
            }
        } else {
            specs.extend(full);
        }
        let connected = side
            .setup
            .manager
            .statuses()
            .iter()
            .any(|s| matches!(s.status, ServerStatus::Connected { .. }));
        if connected {
            specs.extend(
                mcp_resources::specs()
                    .into_iter()
                    .filter(|s| self.mcp_allowed(&s.name)),
            );
        }
        let chars = specs.iter().map(spec_chars).sum();
        self.sent_chars.store(chars, Ordering::Relaxed);
        specs
    }
}

impl McpSide {
    async fn prepare(&self, emitter: &Emitter) {
        let manager = &self.setup.manager;
        if manager.any_starting() && !self.waited.swap(true, Ordering::SeqCst) {
            // Most servers are up within a second: wait that long quietly,
            // then say who is slow, and give them at most a few seconds
            // more; one hung server must not hold the first answer for the
            // whole start-up timeout. Late servers' tools join when ready.
            let limit = self.setup.startup_timeout.min(FIRST_REQUEST_WAIT);
            let quiet = limit.min(QUIET_WAIT);
            if !manager.wait_started(quiet).await {
                let starting: Vec<String> = manager
                    .statuses()
                    .into_iter()
                    .filter(|s| s.status == ServerStatus::Starting)
                    .map(|s| s.name)
                    .collect();
                emitter.notice(format!(
                    "Waiting for MCP server(s) still starting: {}.",
                    starting.join(", ")
                ));
                if !manager.wait_started(limit.saturating_sub(quiet)).await {
                    emitter.warning(
                        "Some MCP servers are still starting; their tools join when they are ready."
                            .to_owned(),
                    );
                }
            }
        }
        self.waited.store(true, Ordering::SeqCst);
        manager.refresh_if_stale().await;
        self.report_failures(emitter);
    }

    fn report_failures(&self, emitter: &Emitter) {
        let Ok(mut reported) = self.reported.lock() else {
            return;
        };
        for status in self.setup.manager.statuses() {
            if let ServerStatus::Failed { reason } = &status.status
                && reported.insert(status.name.clone())
            {
                emitter.warning(format!(
                    "MCP server `{}` ({}) is not available: {reason}",
                    status.name, status.target
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subagent_gets_only_the_mcp_tools_it_lists() {
        let manager = Arc::new(wright_mcp::McpManager::new(
            Vec::new(),
            wright_mcp::StartOptions::default(),
        ));
        let parent = ToolBox::new(
            Arc::new(ToolRegistry::builtin()),
            Some(McpSetup::new(manager)),
            None,
        );
        let list = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>();
        let child = parent.for_subagent(Some(&list(&["Read", "mcp__srv__safe_read"])));
        assert!(child.mcp_allowed("mcp__srv__safe_read"));
        assert!(!child.mcp_allowed("mcp__srv__dangerous_delete"));
        assert!(!child.mcp_allowed(mcp_resources::LIST));
        let child = parent.for_subagent(Some(&list(&["mcp__srv"])));
        assert!(child.mcp_allowed("mcp__srv__anything"));
        assert!(!child.mcp_allowed("mcp__srvx__anything"));
        let child = parent.for_subagent(Some(&list(&["mcp__srv__*"])));
        assert!(child.mcp_allowed("mcp__srv__anything"));
        assert!(!child.mcp_allowed("mcp__other__x"));
        let child = parent.for_subagent(Some(&list(&["Read"])));
        assert!(child.mcp().is_none());
        assert!(parent.for_subagent(None).mcp_allowed("mcp__x__y"));
    }
}
