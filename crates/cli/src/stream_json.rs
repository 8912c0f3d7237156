//! Maps core events to `stream-json` lines in Claude Code's shape: a
//! `system`/`init` line, one `assistant` line per model response (text,
//! thinking and `tool_use` blocks), one `user` line per tool result, and
//! a `system`/`compact_boundary` line per compaction, and wright's own
//! line types (`warning`, `error`, `retry`,
//! `approval_requested`, `tool_progress`, `stream_event` with
//! `--include-partial-messages`). The `result` line is written by the caller.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Value, json};
use wright_protocol::{Event, EventKind, ItemDelta, ItemKind, ToolCallStatus};

use crate::summary::parse_input;

/// Turns events into NDJSON values.
pub struct StreamJson {
    partial: bool,
    model: String,
    /// Content blocks of the response being assembled.
    pending: Vec<Value>,
    /// Index of the next content block, for partial `stream_event`s.
    block_index: usize,
    responses: u64,
    /// Item id → tool call id, to label tool progress.
    calls: HashMap<String, String>,
    /// The session's MCP servers, for the init line.
    mcp: Option<Arc<wright_mcp::McpManager>>,
    /// One mapper per running subagent (by agent path): their messages
    /// are assembled apart, then labelled with the parent's call id.
    children: HashMap<String, StreamJson>,
    /// A subagent mapper's part of its message ids (`explore-1`), so they
    /// never collide with the parent's.
    label: Option<String>,
}

impl StreamJson {
    /// A mapper; `partial` adds streaming deltas.
    pub fn new(partial: bool) -> Self {
        Self {
            partial,
            model: String::new(),
            pending: Vec::new(),
            block_index: 0,
            responses: 0,
            calls: HashMap::new(),
            mcp: None,
            children: HashMap::new(),
            label: None,
        }
    }

    /// Lists `mcp`'s servers (name and status) and connected tools in the
    /// init line.
    pub fn with_mcp(mut self, mcp: Option<Arc<wright_mcp::McpManager>>) -> Self {
        self.mcp = mcp;
        self
    }

    /// The init line's `mcp_servers` (Claude Code's `{name, status}`) and
    /// its tools with the connected MCP tools' names added.
    fn mcp_init(&self, tools: &[String]) -> (Vec<Value>, Vec<String>) {
        let mut tools = tools.to_vec();
        let Some(manager) = &self.mcp else {
            return (Vec::new(), tools);
        };
        let servers = manager
            .statuses()
            .iter()
            .map(|s| json!({"name": s.name, "status": crate::mcp_start::status_word(&s.status)}))
            .collect();
        for t in manager.tools() {
            if !tools.contains(&t.name) {
                tools.push(t.name);
            }
        }
        (servers, tools)
    }

    /// The lines this event produces, in order.
    pub fn lines(&mut self, event: &Event) -> Vec<Value> {
        if !event.agent.is_root() {
            // Claude Code's shape: a subagent's messages carry the id of
            // the `Task` call that started it.
            let child = self
                .children
                .entry(event.agent.0.clone())
                .or_insert_with(|| {
                    let mut child = StreamJson::new(self.partial);
                    child.label = Some(event.agent.0.replace('/', "_"));
                    child
                });
            let mut lines = child.lines(&Event {
                agent: wright_protocol::AgentPath::root(),
                ..event.clone()
            });
            for line in &mut lines {
                if let Some(obj) = line.as_object_mut() {
                    obj.insert(
                        "parent_tool_use_id".to_owned(),
                        json!(event.parent_tool_use_id),
                    );
                }
            }
            return lines;
        }
        let mut out = Vec::new();
        let sid = event.session_id.as_str();
        match &event.kind {
            EventKind::SessionConfigured {
                model,
                provider,
                cwd,
                tools,
                permission_mode,
            } => {
                self.model.clone_from(model);
                let (mcp_servers, tools) = self.mcp_init(tools);
                out.push(json!({
                    "type": "system",
                    "subtype": "init",
                    "session_id": sid,
                    "cwd": cwd,
                    "model": model,
                    "provider": provider,
                    "tools": tools,
                    "mcp_servers": mcp_servers,
                    "permissionMode": permission_mode,
                    "version": env!("CARGO_PKG_VERSION"),
                }));
            }
            EventKind::ItemStarted { item } => match &item.kind {
                ItemKind::ToolCall {
                    call_id,
                    name,
                    arguments,
                    ..
                } => {
                    self.calls.insert(item.id.clone(), call_id.clone());
                    self.pending.push(json!({
                        "type": "tool_use",
                        "id": call_id,
                        "name": name,
                        "input": parse_input(arguments),
                    }));
                }
                ItemKind::AgentMessage { .. } | ItemKind::Reasoning { .. } if self.partial => {
                    let block = match item.kind {
                        ItemKind::AgentMessage { .. } => json!({"type": "text", "text": ""}),
                        _ => json!({"type": "thinking", "thinking": ""}),
                    };
                    out.push(self.stream_event(
                        sid,
                        json!({"type": "content_block_start", "index": self.block_index, "content_block": block}),
                    ));
                }
                _ => {}
            },
            EventKind::ItemDelta { item_id, delta } if self.partial => {
                let (kind, key, text) = match delta {
                    ItemDelta::Text(t) => ("text_delta", "text", t),
                    ItemDelta::Reasoning(t) => ("thinking_delta", "thinking", t),
                    ItemDelta::ToolOutput(t) => {
                        out.push(json!({
                            "type": "tool_progress",
                            "session_id": sid,
                            "tool_use_id": self.calls.get(item_id),
                            "output": t,
                        }));
                        return out;
                    }
                };
                let mut delta = json!({"type": kind});
                delta[key] = json!(text);
                out.push(self.stream_event(
                    sid,
                    json!({"type": "content_block_delta", "index": self.block_index, "delta": delta}),
                ));
            }
            EventKind::ItemCompleted { item } => match &item.kind {
                ItemKind::AgentMessage { text, .. } => {
                    self.close_block(sid, &mut out);
                    self.pending.push(json!({"type": "text", "text": text}));
                }
                ItemKind::Reasoning { text } => {
                    self.close_block(sid, &mut out);
                    self.pending
                        .push(json!({"type": "thinking", "thinking": text}));
                }
                ItemKind::ToolCall {
                    call_id,
                    status,
                    output,
                    display,
                    ..
                } => out.push(json!({
                    "type": "user",
                    "message": {
                        "role": "user",
                        "content": [{
                            "type": "tool_result",
                            "tool_use_id": call_id,
                            "content": output.clone().unwrap_or_default(),
                            "is_error": *status != ToolCallStatus::Completed,
                        }],
                    },
                    "parent_tool_use_id": null,
                    "session_id": sid,
                    "status": status,
                    "display": display,
                })),
                ItemKind::Error { message } => {
                    out.push(json!({"type": "error", "session_id": sid, "message": message}));
                }
                ItemKind::HookRun {
                    event,
                    command,
                    source,
                    duration_ms,
                    outcome,
                    message,
                } => out.push(json!({
                    "type": "system",
                    "subtype": "hook_response",
                    "session_id": sid,
                    "hook_event": event,
                    "command": command,
                    "source": source,
                    "duration_ms": duration_ms,
                    "outcome": outcome,
                    "message": message,
                })),
                ItemKind::Diagnostics {
                    checker,
                    files,
                    errors,
                    warnings,
                    text,
                    ran,
                } => out.push(json!({
                    "type": "diagnostics",
                    "session_id": sid,
                    "checker": checker,
                    "files": files,
                    "errors": errors,
                    "warnings": warnings,
                    "ran": ran,
                    "text": text,
                })),
                ItemKind::Compaction {
                    tokens_before,
                    tokens_after,
                    trigger,
                } => out.push(json!({
                    "type": "system",
                    "subtype": "compact_boundary",
                    "session_id": sid,
                    "compact_metadata": {
                        "trigger": trigger,
                        "pre_tokens": tokens_before,
                        "post_tokens": tokens_after,
                    },
                })),
            },
            EventKind::Usage { request, model, .. } => {
                self.model.clone_from(model);
                if let Some(line) = self.flush_assistant(sid, Some(request)) {
                    out.push(line);
                }
            }
            EventKind::ApprovalRequested {
                id,
                tool,
                arguments,
                reason,
                suggested_rule,
            } => out.push(json!({
                "type": "approval_requested",
                "session_id": sid,
                "id": id,
                "tool_name": tool,
                "tool_input": parse_input(arguments),
                "reason": reason,
                "suggested_rule": suggested_rule,
            })),
            EventKind::Retrying {
                attempt,
                delay_ms,
                reason,
            } => {
                // What streamed before the failure is not part of the answer.
                self.pending.clear();
                self.block_index = 0;
                out.push(json!({
                "type": "retry",
                "session_id": sid,
                "attempt": attempt,
                "delay_ms": delay_ms,
                "reason": reason,
                }));
            }
            EventKind::Warning { message } => {
                out.push(json!({"type": "warning", "session_id": sid, "message": message}));
            }
            EventKind::Notice { message } => {
                out.push(json!({"type": "notice", "session_id": sid, "message": message}));
            }
            EventKind::Error { message } => {
                out.push(json!({"type": "error", "session_id": sid, "message": message}));
            }
            EventKind::TurnCompleted { .. } => {
                // A response cut off by an error still shows what streamed.
                if let Some(line) = self.flush_assistant(sid, None) {
                    out.push(line);
                }
            }
            EventKind::ItemDelta { .. } | EventKind::TurnStarted => {}
        }
        out
    }

    fn close_block(&mut self, sid: &str, out: &mut Vec<Value>) {
        if self.partial {
            out.push(self.stream_event(
                sid,
                json!({"type": "content_block_stop", "index": self.block_index}),
            ));
        }
        self.block_index += 1;
    }

    fn stream_event(&self, sid: &str, event: Value) -> Value {
        json!({"type": "stream_event", "event": event, "session_id": sid, "parent_tool_use_id": null})
    }

    fn flush_assistant(
        &mut self,
        sid: &str,
        usage: Option<&wright_protocol::Usage>,
    ) -> Option<Value> {
        self.block_index = 0;
        if self.pending.is_empty() {
            return None;
        }
        self.responses += 1;
        let content = std::mem::take(&mut self.pending);
        let stop_reason = if content.iter().any(|b| b["type"] == "tool_use") {
            "tool_use"
        } else {
            "end_turn"
        };
        Some(json!({
            "type": "assistant",
            "message": {
                "id": match &self.label {
                    Some(label) => format!("msg_{sid}_{label}_{}", self.responses),
                    None => format!("msg_{sid}_{}", self.responses),
                },
                "type": "message",
                "role": "assistant",
                "model": self.model,
                "content": content,
                "stop_reason": stop_reason,
                "usage": usage,
            },
            "parent_tool_use_id": null,
            "session_id": sid,
        }))
    }
}
