//! The core's events as ACP session updates, per session: message and
//! thought chunks, tool calls (pending, then updates to completed or
//! failed, with diffs and output), plans from `TodoWrite`, approval
//! requests paired with the tool call they are about, subagent activity
//! folded into its parent `Task` call, and the end of the turn.

use std::collections::HashMap;
use std::path::PathBuf;

use agent_client_protocol::v1::schema::{
    ContentBlock, ContentChunk, Cost, Plan, SessionUpdate, StopReason, TextContent, ToolCall,
    ToolCallContent, ToolCallStatus, ToolCallUpdate, ToolCallUpdateFields, UsageUpdate,
};
use wright_protocol::{
    Event, EventKind, ItemDelta, ItemKind, StopReason as ModelStop, ToolCallStatus as WrightStatus,
    TurnEndReason,
};

use crate::tool_map::{self, Presentation};

/// How much of a running command's output the editor sees live (the
/// complete result replaces it at the end).
const LIVE_OUTPUT_BYTES: usize = 16_000;

/// New output that triggers a live update (the first chunk always does).
const LIVE_UPDATE_BYTES: usize = 2_000;

/// What the server does for one event.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Send `session/update`.
    Update(SessionUpdate),
    /// Send `session/request_permission` and answer the core.
    AskPermission {
        /// The id for `Op::ResolveApproval`.
        approval_id: String,
        /// The call the question is about.
        tool_call: ToolCallUpdate,
        /// Whether the editor was told about the call before (a subagent's
        /// call is described only in the question).
        announced: bool,
        /// The "allow always" option's label naming the rules it stores;
        /// `None` offers no such option (no rule can be stored).
        always: Option<String>,
        /// A plan or the model's questions, with the call's arguments (the
        /// answers go back with them); `None` for a call's approval.
        form: Option<(crate::ask::Form, String)>,
    },
    /// The user turn is over: answer `session/prompt`.
    TurnEnded(TurnOutcome),
}

/// The label of the "allow always" option: the rules it stores and, when
/// the same call would ask anyway, that it will; `None` when no rule can
/// be stored, so the editor is not promised what "always" cannot keep.
pub fn always_label(rules: &[String], still_asks: Option<&str>) -> Option<String> {
    if rules.is_empty() {
        return None;
    }
    let mut label = format!("Allow for this session: {}", rules.join(", "));
    if let Some(why) = still_asks {
        label.push_str(&format!(" (will still ask: {why})"));
    }
    Some(label)
}

/// How a turn ended, for the `session/prompt` response.
#[derive(Debug, Clone, PartialEq)]
pub enum TurnOutcome {
    /// A normal end with ACP's reason.
    Stopped(StopReason),
    /// An error ended it; the message goes back as a JSON-RPC error.
    Failed(String),
}

/// A tool call the editor knows about.
#[derive(Debug, Clone)]
struct OpenCall {
    call_id: String,
    name: String,
    arguments: String,
    agent: String,
    presentation: Presentation,
    /// The tail of the streamed output (what the editor shows live).
    output: String,
    /// Bytes streamed in since the editor was last updated.
    unsent: usize,
    asked: bool,
}

/// Turns one session's events into actions; holds what pairing needs.
#[derive(Debug)]
pub struct EventMapper {
    cwd: PathBuf,
    /// Item id of a tool call → its call id.
    items: HashMap<String, String>,
    /// Calls by call id, until they complete.
    calls: HashMap<String, OpenCall>,
    /// In announce order, for pairing approvals.
    order: Vec<String>,
    /// Message and reasoning items that streamed (their completion then
    /// adds nothing).
    streamed: HashMap<String, ()>,
    /// A parent `Task` call id → what its subagent did so far.
    subagent_log: HashMap<String, Vec<String>>,
    last_stop: Option<ModelStop>,
    last_error: Option<String>,
    /// The model's context window, when known: usage updates need it.
    context_window: Option<u64>,
}

impl EventMapper {
    /// A mapper for a session in `cwd` (relative tool paths resolve there).
    pub fn new(cwd: PathBuf) -> Self {
        Self {
            cwd,
            items: HashMap::new(),
            calls: HashMap::new(),
            order: Vec::new(),
            streamed: HashMap::new(),
            subagent_log: HashMap::new(),
            last_stop: None,
            last_error: None,
            context_window: None,
        }
    }

    /// Reports context use against `window` tokens after each model request.
    pub fn with_context_window(mut self, window: Option<u64>) -> Self {
        self.context_window = window;
        self
    }

    /// The actions for one event, in order.
    pub fn map(&mut self, event: &Event) -> Vec<Action> {
        let root = event.agent.is_root();
        if !root && let Some(parent) = event.parent_tool_use_id.clone() {
            return self.subagent(&parent, event);
        }
        match &event.kind {
            EventKind::ItemStarted { item } => match &item.kind {
                ItemKind::ToolCall {
                    call_id,
                    name,
                    tool_kind,
                    arguments,
                    touches,
                    ..
                } => {
                    self.items.insert(item.id.clone(), call_id.clone());
                    if name == "TodoWrite"
                        && let Some(entries) = tool_map::plan_entries(arguments)
                    {
                        return vec![Action::Update(SessionUpdate::Plan(Plan::new(entries)))];
                    }
                    let presentation =
                        tool_map::present(name, *tool_kind, arguments, touches.as_ref(), &self.cwd);
                    let call = ToolCall::new(call_id.clone(), presentation.title.clone())
                        .kind(presentation.kind)
                        .status(ToolCallStatus::Pending)
                        .locations(presentation.locations.clone())
                        .content(presentation.content.clone())
                        .raw_input(serde_json::from_str::<serde_json::Value>(arguments).ok());
                    self.calls.insert(
                        call_id.clone(),
                        OpenCall {
                            call_id: call_id.clone(),
                            name: name.clone(),
                            arguments: arguments.clone(),
                            agent: event.agent.0.clone(),
                            presentation,
                            output: String::new(),
                            unsent: 0,
                            asked: false,
                        },
                    );
                    self.order.push(call_id.clone());
                    vec![Action::Update(SessionUpdate::ToolCall(call))]
                }
                _ => Vec::new(),
            },
            EventKind::ItemDelta { item_id, delta } => match delta {
                ItemDelta::Text(text) => {
                    self.streamed.insert(item_id.clone(), ());
                    vec![Action::Update(SessionUpdate::AgentMessageChunk(chunk(
                        text,
                    )))]
                }
                ItemDelta::Reasoning(text) => {
                    self.streamed.insert(item_id.clone(), ());
                    vec![Action::Update(SessionUpdate::AgentThoughtChunk(chunk(
                        text,
                    )))]
                }
                ItemDelta::ToolOutput(text) => {
                    let Some(call) = self
                        .items
                        .get(item_id)
                        .and_then(|id| self.calls.get_mut(id))
                    else {
                        return Vec::new();
                    };
                    let first = call.output.is_empty();
                    call.output.push_str(text);
                    call.unsent += text.len();
                    keep_tail(&mut call.output, LIVE_OUTPUT_BYTES);
                    // A chatty command must not become thousands of
                    // updates, each carrying the whole tail: batch them.
                    if !first && call.unsent < LIVE_UPDATE_BYTES {
                        return Vec::new();
                    }
                    call.unsent = 0;
                    let fields = ToolCallUpdateFields::new()
                        .status(ToolCallStatus::InProgress)
                        .content(tool_map::output_content(&call.name, &call.output));
                    vec![Action::Update(SessionUpdate::ToolCallUpdate(
                        ToolCallUpdate::new(call.call_id.clone(), fields),
                    ))]
                }
            },
            EventKind::ItemCompleted { item } => self.completed(&item.id, &item.kind),
            EventKind::ApprovalRequested { .. } => self.approval(event),
            EventKind::Error { message } => {
                self.last_error = Some(message.clone());
                vec![Action::Update(SessionUpdate::AgentMessageChunk(chunk(
                    &format!("\n\nError: {message}\n"),
                )))]
            }
            EventKind::Notice { message } => vec![Action::Update(
                SessionUpdate::AgentMessageChunk(chunk(&format!("{message}\n"))),
            )],
            // Chunks already sent cannot be taken back: the client is told
            // where the broken part ends and the retry's answer begins.
            EventKind::Retrying {
                attempt,
                superseded,
                ..
            } if root && !superseded.is_empty() => {
                vec![Action::Update(SessionUpdate::AgentMessageChunk(chunk(
                    &format!(
                        "\n\n[the response above broke off; retrying ({attempt}) after a dropped stream]\n\n"
                    ),
                )))]
            }
            EventKind::TurnCompleted { reason, .. } if root => {
                let outcome = self.outcome(*reason);
                self.reset_turn();
                vec![Action::TurnEnded(outcome)]
            }
            EventKind::TurnStarted => {
                self.reset_turn();
                Vec::new()
            }
            // Only a front end that asked for a preview gets one.
            EventKind::RewindPreview { .. } => Vec::new(),
            EventKind::Usage {
                request,
                total_cost_usd,
                ..
            } if root => match self.context_window {
                // What the last request sent plus what it added is what
                // the next one starts from.
                Some(size) => {
                    let used = request.total_input().saturating_add(request.output_tokens);
                    let update =
                        UsageUpdate::new(used, size).cost(Cost::new(*total_cost_usd, "USD"));
                    vec![Action::Update(SessionUpdate::UsageUpdate(update))]
                }
                None => Vec::new(),
            },
            // Shown where the model got it (prompts the editor sent itself
            // are its own to show).
            EventKind::Steered { text } if root => {
                vec![Action::Update(SessionUpdate::UserMessageChunk(chunk(text)))]
            }
            EventKind::SessionConfigured { .. }
            | EventKind::Steered { .. }
            | EventKind::SteeringWithdrawn { .. }
            // The session pump sends the mode update.
            | EventKind::ModeChanged { .. }
            | EventKind::TurnCompleted { .. }
            | EventKind::Usage { .. }
            | EventKind::Retrying { .. }
            | EventKind::Warning { .. } => Vec::new(),
        }
    }

    fn completed(&mut self, item_id: &str, kind: &ItemKind) -> Vec<Action> {
        match kind {
            ItemKind::AgentMessage { text, stop_reason } => {
                self.last_stop = *stop_reason;
                if self.streamed.remove(item_id).is_some() || text.is_empty() {
                    return Vec::new();
                }
                vec![Action::Update(SessionUpdate::AgentMessageChunk(chunk(
                    text,
                )))]
            }
            ItemKind::Reasoning { text, .. } => {
                if self.streamed.remove(item_id).is_some() || text.is_empty() {
                    return Vec::new();
                }
                vec![Action::Update(SessionUpdate::AgentThoughtChunk(chunk(
                    text,
                )))]
            }
            ItemKind::ToolCall {
                call_id,
                status,
                output,
                ..
            } => {
                self.items.remove(item_id);
                self.order.retain(|c| c != call_id);
                let Some(call) = self.calls.remove(call_id) else {
                    // A TodoWrite shown as a plan: nothing more to say.
                    return Vec::new();
                };
                let mut content = call.presentation.content.clone();
                let failed = !matches!(status, WrightStatus::Completed);
                // A subagent's progress first, then its answer, which the
                // log's last line often already is.
                if let Some(mut log) = self.subagent_log.remove(call_id) {
                    if let (Some(last), Some(output)) = (log.last(), output)
                        && last.trim() == output.trim()
                    {
                        log.pop();
                    }
                    content.extend(log.into_iter().map(tool_map::text_content));
                }
                if let Some(output) = output
                    && (failed || tool_map::shows_output(&call.name))
                {
                    content.extend(tool_map::output_content(&call.name, output));
                }
                let fields = ToolCallUpdateFields::new()
                    .status(acp_status(*status))
                    .content(content)
                    .raw_output(output.clone().map(serde_json::Value::String));
                vec![Action::Update(SessionUpdate::ToolCallUpdate(
                    ToolCallUpdate::new(call_id.clone(), fields),
                ))]
            }
            ItemKind::Error { message } => vec![Action::Update(SessionUpdate::AgentMessageChunk(
                chunk(&format!("\n\nError: {message}\n")),
            ))],
            ItemKind::HookRun { .. }
            | ItemKind::Diagnostics { .. }
            | ItemKind::Compaction { .. } => Vec::new(),
        }
    }

    /// Pairs an approval with the announced call it is about: same agent,
    /// tool and arguments, first not yet asked about.
    fn approval(&mut self, event: &Event) -> Vec<Action> {
        let EventKind::ApprovalRequested {
            id,
            tool,
            arguments,
            reason,
            call_id,
            suggested_rules,
            still_asks,
            touches,
            ..
        } = &event.kind
        else {
            return Vec::new();
        };
        let (id, tool, arguments, reason) = (
            id.as_str(),
            tool.as_str(),
            arguments.as_str(),
            reason.as_str(),
        );
        let (call_id, agent) = (call_id.as_deref(), event.agent.0.as_str());
        let always = always_label(suggested_rules, still_asks.as_deref());
        // The core names the call; matching by tool and input is for
        // events that do not.
        let named = call_id
            .and_then(|id| self.calls.get(id))
            .filter(|c| !c.asked && c.agent == agent);
        let found = named
            .or_else(|| {
                self.order
                    .iter()
                    .filter_map(|c| self.calls.get(c))
                    .find(|c| {
                        !c.asked && c.agent == agent && c.name == tool && c.arguments == arguments
                    })
            })
            .or_else(|| {
                self.order
                    .iter()
                    .filter_map(|c| self.calls.get(c))
                    .find(|c| !c.asked && c.agent == agent && c.name == tool)
            })
            .map(|c| c.call_id.clone());
        let announced = found.is_some();
        let tool_call = match found.and_then(|c| self.calls.get_mut(&c)) {
            Some(call) => {
                call.asked = true;
                ToolCallUpdate::new(call.call_id.clone(), fields_for(&call.presentation, reason))
            }
            None => {
                // A subagent's call (or one announced out of our sight):
                // the whole description, so the editor can show it alone.
                let p = tool_map::present(tool, None, arguments, touches.as_ref(), &self.cwd);
                let fields = fields_for(&p, reason)
                    .raw_input(serde_json::from_str::<serde_json::Value>(arguments).ok());
                ToolCallUpdate::new(id.to_owned(), fields)
            }
        };
        let form = crate::ask::form(tool, arguments).map(|f| (f, arguments.to_owned()));
        vec![Action::AskPermission {
            approval_id: id.to_owned(),
            tool_call,
            announced,
            always,
            form,
        }]
    }

    /// A subagent's event, shown inside its parent `Task` call.
    fn subagent(&mut self, parent: &str, event: &Event) -> Vec<Action> {
        let line = match &event.kind {
            EventKind::ApprovalRequested { .. } => {
                return self.approval(event);
            }
            EventKind::ItemStarted { item } => match &item.kind {
                ItemKind::ToolCall {
                    name,
                    tool_kind,
                    arguments,
                    touches,
                    ..
                } => {
                    let p =
                        tool_map::present(name, *tool_kind, arguments, touches.as_ref(), &self.cwd);
                    format!("• {}", p.title)
                }
                _ => return Vec::new(),
            },
            EventKind::ItemCompleted { item } => match &item.kind {
                ItemKind::AgentMessage { text, .. } if !text.trim().is_empty() => text.clone(),
                ItemKind::ToolCall {
                    name,
                    status: WrightStatus::Failed | WrightStatus::Denied,
                    ..
                } => format!("  {name} did not succeed"),
                _ => return Vec::new(),
            },
            EventKind::Error { message } => format!("Error: {message}"),
            _ => return Vec::new(),
        };
        let log = self.subagent_log.entry(parent.to_owned()).or_default();
        log.push(line);
        let mut content: Vec<ToolCallContent> = self
            .calls
            .get(parent)
            .map(|c| c.presentation.content.clone())
            .unwrap_or_default();
        content.extend(log.iter().cloned().map(tool_map::text_content));
        let fields = ToolCallUpdateFields::new()
            .status(ToolCallStatus::InProgress)
            .content(content);
        vec![Action::Update(SessionUpdate::ToolCallUpdate(
            ToolCallUpdate::new(parent.to_owned(), fields),
        ))]
    }

    fn outcome(&self, reason: TurnEndReason) -> TurnOutcome {
        match reason {
            TurnEndReason::Completed => TurnOutcome::Stopped(match self.last_stop {
                Some(ModelStop::MaxTokens) => StopReason::MaxTokens,
                Some(ModelStop::Refusal) => StopReason::Refusal,
                _ => StopReason::EndTurn,
            }),
            TurnEndReason::MaxTurns | TurnEndReason::MaxBudget => {
                TurnOutcome::Stopped(StopReason::MaxTurnRequests)
            }
            TurnEndReason::Interrupted => TurnOutcome::Stopped(StopReason::Cancelled),
            TurnEndReason::Failed => TurnOutcome::Failed(
                self.last_error
                    .clone()
                    .unwrap_or_else(|| "the turn failed".to_owned()),
            ),
        }
    }

    fn reset_turn(&mut self) {
        self.last_stop = None;
        self.last_error = None;
        self.streamed.clear();
    }
}

/// The fields of a permission question: what the call is and why it asks.
fn fields_for(p: &Presentation, reason: &str) -> ToolCallUpdateFields {
    let mut content = p.content.clone();
    if !reason.is_empty() {
        content.push(tool_map::text_content(reason.to_owned()));
    }
    ToolCallUpdateFields::new()
        .title(p.title.clone())
        .kind(p.kind)
        .status(ToolCallStatus::Pending)
        .locations(p.locations.clone())
        .content(content)
}

/// Drops the front of `text` so at most about `max` bytes remain.
fn keep_tail(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let mut cut = text.len() - max;
    while !text.is_char_boundary(cut) {
        cut += 1;
    }
    text.drain(..cut);
}

/// A text chunk.
pub fn chunk(text: &str) -> ContentChunk {
    ContentChunk::new(ContentBlock::Text(TextContent::new(text)))
}

fn acp_status(status: WrightStatus) -> ToolCallStatus {
    match status {
        WrightStatus::InProgress => ToolCallStatus::InProgress,
        WrightStatus::Completed => ToolCallStatus::Completed,
        WrightStatus::Failed | WrightStatus::Denied | WrightStatus::Cancelled => {
            ToolCallStatus::Failed
        }
    }
}

#[cfg(test)]
#[path = "updates_tests.rs"]
mod tests;
