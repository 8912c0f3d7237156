//! Maps core events to `stream-json` lines in Claude Code's shape, as the
//! Claude Agent SDK parses them: a `system`/`init` line, one `assistant`
//! line per model response (text, thinking and `tool_use` blocks), one
//! `user` line per tool result, `stream_event` lines with
//! `--include-partial-messages`, and a `system`/`compact_boundary` line per
//! compaction. wright's own facts travel as `system` lines with subtypes of
//! their own (`error`, `warning`, `notice`, `api_retry`, `stream_superseded`,
//! `approval_requested`, `diagnostics`, `hook_response`) and `tool_progress`
//! lines, because the SDK treats a top-level `error` type as a fatal
//! transport error. Every line carries `uuid` and `session_id`. The
//! `result` line is written by the caller.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Value, json};
use wright_protocol::{Event, EventKind, ItemDelta, ItemKind, ToolCallStatus};

use crate::summary::parse_input;

pub mod lines;

use lines::{stamp, status_word, system};

/// Turns events into NDJSON values.
pub struct StreamJson {
    partial: bool,
    model: String,
    /// Content blocks of the response being assembled.
    pending: Vec<Value>,
    /// Index of the next content block, for partial `stream_event`s.
    block_index: usize,
    /// A `message_start` went out for the response being streamed.
    message_open: bool,
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
    /// What the init line lists besides the session's own facts.
    init: InitExtras,
}

/// The init line's fields that the core's events do not carry.
#[derive(Debug, Clone, Default)]
pub struct InitExtras {
    /// Slash commands a client may send as prompts, without the `/`.
    pub slash_commands: Vec<String>,
    /// Names of the agent types the `Task` tool starts.
    pub agents: Vec<String>,
    /// Where the API key came from (`none` for keyless local servers).
    pub api_key_source: String,
}

/// The Claude Code version whose stream-json contract these lines follow;
/// the Agent SDK warns about a CLI that reports none.
pub const CLAUDE_CODE_COMPAT_VERSION: &str = "2.1.0";

impl StreamJson {
    /// A mapper; `partial` adds streaming deltas.
    pub fn new(partial: bool) -> Self {
        Self {
            partial,
            model: String::new(),
            pending: Vec::new(),
            block_index: 0,
            message_open: false,
            responses: 0,
            calls: HashMap::new(),
            mcp: None,
            children: HashMap::new(),
            label: None,
            init: InitExtras::default(),
        }
    }

    /// Adds `extras` to the init line.
    pub fn with_init(mut self, extras: InitExtras) -> Self {
        self.init = extras;
        self
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
            .map(|s| json!({"name": s.name, "status": status_word(&s.status)}))
            .collect();
        for t in manager.tools() {
            if !tools.contains(&t.name) {
                tools.push(t.name);
            }
        }
        (servers, tools)
    }

    /// The lines this event produces, in order, each with a `uuid` and the
    /// `session_id`.
    pub fn lines(&mut self, event: &Event) -> Vec<Value> {
        let mut lines = self.lines_of(event);
        for line in &mut lines {
            stamp(line, &event.session_id);
        }
        lines
    }

    fn lines_of(&mut self, event: &Event) -> Vec<Value> {
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
                ..
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
                    "permissionMode": claude_mode_name(permission_mode),
                    "slash_commands": self.init.slash_commands,
                    "agents": self.init.agents,
                    "apiKeySource": if self.init.api_key_source.is_empty() { "none" } else { self.init.api_key_source.as_str() },
                    "output_style": "default",
                    "claude_code_version": CLAUDE_CODE_COMPAT_VERSION,
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
                    if self.partial {
                        // The core reports a call once its input is whole:
                        // its block starts, streams and stops at once.
                        self.open_message(sid, &mut out);
                        let index = self.block_index;
                        out.push(self.stream_event(
                            sid,
                            json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": call_id, "name": name, "input": {}}}),
                        ));
                        out.push(self.stream_event(
                            sid,
                            json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": arguments}}),
                        ));
                    }
                    self.close_block(sid, &mut out);
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
                    self.open_message(sid, &mut out);
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
                ItemKind::Reasoning { text, signature } => {
                    if self.partial
                        && let Some(signature) = signature
                    {
                        // Claude Code's order: the signature is the block's
                        // last delta, right before its stop.
                        out.push(self.stream_event(
                            sid,
                            json!({"type": "content_block_delta", "index": self.block_index, "delta": {"type": "signature_delta", "signature": signature}}),
                        ));
                    }
                    self.close_block(sid, &mut out);
                    // The SDK requires the key. Only Anthropic signs
                    // reasoning; other providers' blocks carry "" (a
                    // Responses reasoning item's wright-internal encoding is
                    // not a signature any client could check or send back).
                    self.pending.push(json!({
                        "type": "thinking",
                        "thinking": text,
                        "signature": signature.as_deref().unwrap_or_default(),
                    }));
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
                ItemKind::Error { message } => out.push(system(sid, "error", message)),
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
                    "type": "system",
                    "subtype": "diagnostics",
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
                self.close_message(sid, Some(request), &mut out);
                if let Some(line) = self.flush_assistant(sid, Some(request)) {
                    out.push(line);
                }
            }
            EventKind::ApprovalRequested {
                id,
                tool,
                arguments,
                touches: _,
                reason,
                suggested_rule,
                suggested_rules,
                still_asks,
                call_id,
            } => out.push(json!({
                "type": "system",
                "subtype": "approval_requested",
                "session_id": sid,
                "id": id,
                "tool_name": tool,
                "tool_input": parse_input(arguments),
                "reason": reason,
                "suggested_rule": suggested_rule,
                "suggested_rules": suggested_rules,
                "still_asks": still_asks,
                "tool_use_id": call_id,
            })),
            EventKind::Retrying {
                attempt,
                delay_ms,
                reason,
                superseded,
            } => {
                // What streamed before the failure is not part of the answer.
                // Complete `assistant` lines never held it; partial events
                // did, so a client that shows them is told to drop them
                // before the retry's events reuse the message id.
                if self.partial && (self.message_open || !superseded.is_empty()) {
                    out.push(json!({
                        "type": "system",
                        "subtype": "stream_superseded",
                        "session_id": sid,
                        "attempt": attempt,
                        "message_id": self.message_id(sid, self.responses + 1),
                        "superseded": superseded,
                    }));
                }
                self.pending.clear();
                self.block_index = 0;
                self.message_open = false;
                // Claude Code's name and fields, with wright's kept too.
                out.push(json!({
                    "type": "system",
                    "subtype": "api_retry",
                    "session_id": sid,
                    "attempt": attempt,
                    "retry_delay_ms": delay_ms,
                    "delay_ms": delay_ms,
                    "error": reason,
                    "reason": reason,
                }));
            }
            EventKind::Warning { message } => out.push(system(sid, "warning", message)),
            // Where the program's message sent during a turn reached the model.
            EventKind::Steered { text } => out.push(json!({
                "type": "system",
                "subtype": "user_message_delivered",
                "session_id": sid,
                "text": text,
            })),
            EventKind::Notice { message } => out.push(system(sid, "notice", message)),
            EventKind::Error { message } => out.push(system(sid, "error", message)),
            EventKind::TurnCompleted { .. } => {
                // A response cut off by an error still shows what streamed.
                self.close_message(sid, None, &mut out);
                if let Some(line) = self.flush_assistant(sid, None) {
                    out.push(line);
                }
            }
            // A preview answers a front end's dry-run rewind, never sent here.
            // Withdrawn messages are sent again as turns of their own.
            EventKind::ItemDelta { .. }
            | EventKind::TurnStarted
            | EventKind::SteeringWithdrawn { .. }
            // The notice line beside it says so.
            | EventKind::ModeChanged { .. }
            | EventKind::RewindPreview { .. } => {}
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

    /// The id of the assistant message numbered `n` in this mapper.
    fn message_id(&self, sid: &str, n: u64) -> String {
        match &self.label {
            Some(label) => format!("msg_{sid}_{label}_{n}"),
            None => format!("msg_{sid}_{n}"),
        }
    }

    /// Starts the streamed message (Anthropic's `message_start`) before its
    /// first block.
    fn open_message(&mut self, sid: &str, out: &mut Vec<Value>) {
        if !self.partial || self.message_open {
            return;
        }
        self.message_open = true;
        let id = self.message_id(sid, self.responses + 1);
        out.push(self.stream_event(
            sid,
            json!({"type": "message_start", "message": {
                "id": id, "type": "message", "role": "assistant", "model": self.model,
                "content": [], "stop_reason": null, "stop_sequence": null,
                "usage": {"input_tokens": 0, "output_tokens": 0},
            }}),
        ));
    }

    /// Ends the streamed message: `message_delta` with the stop reason and
    /// usage, then `message_stop`.
    fn close_message(
        &mut self,
        sid: &str,
        usage: Option<&wright_protocol::Usage>,
        out: &mut Vec<Value>,
    ) {
        if !self.message_open {
            return;
        }
        self.message_open = false;
        let stop_reason = if self.pending.iter().any(|b| b["type"] == "tool_use") {
            "tool_use"
        } else {
            "end_turn"
        };
        out.push(self.stream_event(
            sid,
            json!({"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": null}, "usage": usage}),
        ));
        out.push(self.stream_event(sid, json!({"type": "message_stop"})));
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
                "id": self.message_id(sid, self.responses),
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

/// Claude Code's name for one of wright's permission modes, which is what
/// the SDK's `PermissionMode` type holds.
pub fn claude_mode_name(mode: &str) -> &str {
    match mode {
        "accept-edits" => "acceptEdits",
        "bypass" => "bypassPermissions",
        "dont-ask" => "dontAsk",
        other => other,
    }
}

#[cfg(test)]
#[path = "stream_json_tests.rs"]
mod tests;
