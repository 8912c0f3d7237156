//! Who answers approvals when no person can: Claude Code's
//! `--permission-prompt-tool`. With `stdio` the program driving wright over
//! stream-json is asked (`can_use_tool`); with an MCP tool name the tool is
//! called with `{tool_name, input, tool_use_id}` and answers with JSON text
//! `{"behavior": "allow"|"deny", "updatedInput": …, "message": …}`. Either
//! answer becomes the core's approval decision; an approver that fails or
//! answers garbage denies.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use wright_protocol::{Event, EventKind, Op};

use crate::sdk::control;
use crate::sdk::peer::Peer;

/// Longest wait for an MCP permission tool's answer.
const TOOL_TIMEOUT: Duration = Duration::from_secs(300);

/// Where approval questions go, and the questions still open.
pub struct Approver {
    target: Target,
    /// The tasks waiting for answers; a turn's end abandons them (the
    /// program gets a `control_cancel_request`, an MCP call is cancelled).
    waiting: std::sync::Mutex<Vec<tokio::task::AbortHandle>>,
}

/// Who answers.
enum Target {
    /// The program on the other end of stream-json.
    Program(Arc<Peer>),
    /// An MCP tool (its exposed name, `mcp__server__tool`).
    McpTool {
        /// The session's servers.
        manager: Arc<wright_mcp::McpManager>,
        /// The tool to call.
        tool: String,
    },
}

impl Approver {
    /// The program on the other end of stream-json answers.
    pub fn program(peer: Arc<Peer>) -> Approver {
        Approver {
            target: Target::Program(peer),
            waiting: std::sync::Mutex::default(),
        }
    }

    /// The approver `--permission-prompt-tool NAME` names, once the
    /// session's MCP servers are known; an unknown tool is a usage error.
    pub fn for_tool(name: &str, mcp: Option<&wright_core::McpSetup>) -> Result<Approver, String> {
        let Some(mcp) = mcp else {
            return Err(format!(
                "--permission-prompt-tool {name}: no MCP server is configured (add the server with --mcp-config)"
            ));
        };
        if mcp.manager.tool(name).is_none() {
            let known: Vec<String> = mcp.manager.tools().into_iter().map(|t| t.name).collect();
            return Err(format!(
                "--permission-prompt-tool {name}: no connected MCP server has that tool (tools: {})",
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            ));
        }
        Ok(Approver {
            target: Target::McpTool {
                manager: Arc::clone(&mcp.manager),
                tool: name.to_owned(),
            },
            waiting: std::sync::Mutex::default(),
        })
    }

    /// If `event` asks for approval: asks in the background and sends the
    /// decision (and an interrupt, when the answer asks for one) to `ops`.
    /// At the end of a turn, questions still open are withdrawn.
    pub fn handle(&self, event: &Event, ops: &mpsc::Sender<Op>) {
        if event.agent.is_root() && matches!(event.kind, EventKind::TurnCompleted { .. }) {
            if let Ok(mut waiting) = self.waiting.lock() {
                for task in waiting.drain(..) {
                    task.abort();
                }
            }
            return;
        }
        let EventKind::ApprovalRequested {
            id,
            tool,
            arguments,
            reason,
            suggested_rules,
            call_id,
            ..
        } = &event.kind
        else {
            return;
        };
        let answer = match &self.target {
            Target::Program(peer) => {
                let mut question = control::can_use_tool(
                    tool,
                    arguments,
                    reason,
                    suggested_rules,
                    call_id.as_deref(),
                );
                // A subagent's question names it and the `Task` call that
                // started it, as its stream messages do.
                if !event.agent.is_root()
                    && let Some(q) = question.as_object_mut()
                {
                    q.insert("agent_id".to_owned(), json!(event.agent.0));
                    q.insert(
                        "parent_tool_use_id".to_owned(),
                        json!(event.parent_tool_use_id),
                    );
                }
                peer.request(question)
            }
            Target::McpTool {
                manager,
                tool: prompt_tool,
            } => ask_tool(
                Arc::clone(manager),
                prompt_tool.clone(),
                json!({
                    "tool_name": tool,
                    "input": serde_json::from_str::<Value>(arguments).unwrap_or_else(|_| json!({})),
                    "tool_use_id": call_id,
                }),
            ),
        };
        let ops = ops.clone();
        let id = id.clone();
        let original: Value = serde_json::from_str(arguments).unwrap_or(Value::Null);
        let task = tokio::spawn(async move {
            let answer = answer.await;
            let (decision, interrupt) = control::decision(&answer, &original);
            // The mode first: approving a plan for accept-edits leaves plan
            // mode for that mode, not for the default.
            if let Some(mode) = control::mode_change(&answer) {
                let _ = ops
                    .send(Op::SetPermissionMode {
                        mode: mode.to_owned(),
                    })
                    .await;
            }
            let _ = ops.send(Op::ResolveApproval { id, decision }).await;
            if interrupt {
                let _ = ops.send(Op::Interrupt).await;
            }
        });
        if let Ok(mut waiting) = self.waiting.lock() {
            waiting.retain(|t| !t.is_finished());
            waiting.push(task.abort_handle());
        }
    }
}

/// Calls the MCP permission tool; its text is the JSON answer.
fn ask_tool(
    manager: Arc<wright_mcp::McpManager>,
    tool: String,
    arguments: Value,
) -> BoxFuture<'static, Result<Value, String>> {
    Box::pin(async move {
        let result = manager
            .call(
                &tool,
                arguments,
                TOOL_TIMEOUT,
                &CancellationToken::new(),
                None,
            )
            .await
            .map_err(|e| format!("the permission tool {tool} failed: {e}"))?;
        if result.is_error {
            return Err(format!(
                "the permission tool {tool} failed: {}",
                result.text
            ));
        }
        serde_json::from_str(result.text.trim()).map_err(|e| {
            format!(
                "the permission tool {tool} did not answer with JSON ({e}): {}",
                result.text
            )
        })
    })
}
