//! What finished items leave in the transcript (answers, tool calls with
//! their results, hooks, diagnostics, compactions) and how subagents'
//! events update the live tree.

use ratatui::text::Line;
use wright_protocol::{Event, EventKind, ItemKind};

use crate::app::{AgentView, App, style_of};
use crate::approval::{AlwaysOffer, ApprovalMenu};
use crate::cells::{self, MessageKind};

impl App {
    pub(crate) fn item_completed(&mut self, item: wright_protocol::Item) {
        let width = self.width;
        match item.kind {
            ItemKind::AgentMessage { text, .. } => {
                if self.answer.as_ref().is_some_and(|(id, _)| *id == item.id) {
                    if !self.answer_started && !text.is_empty() {
                        // A provider that did not stream: the whole text at once.
                        if let Some((_, stream)) = self.answer.as_mut() {
                            let rows = stream.push(&cells::clean(&text), width);
                            if !rows.is_empty() {
                                self.history.push(Line::default());
                                self.answer_streamed = true;
                            }
                            self.history.extend(rows);
                        }
                    }
                    self.finish_answer();
                }
            }
            ItemKind::Reasoning { .. } => self.end_thinking(),
            ItemKind::ToolCall {
                name,
                arguments,
                touches,
                status,
                output,
                display,
                call_id,
                ..
            } => {
                self.tools.retain(|t| t.item_id != item.id);
                if name == "TodoWrite" && status == wright_protocol::ToolCallStatus::Completed {
                    self.todos = todo_items(&arguments);
                }
                self.agents.retain(|_, a| a.parent_call.as_deref() != Some(call_id.as_str()));
                if self.shell
                    && status == wright_protocol::ToolCallStatus::Completed
                    && let Some(output) = &output
                {
                    // The user ran it to see this: all of it, not folded.
                    let rows = cells::finished_call(
                        &name,
                        &arguments,
                        touches.as_ref(),
                        status,
                        None,
                        display.as_ref(),
                        width,
                    );
                    self.history.extend(rows);
                    self.history.extend(cells::shell_output(output, width));
                    return;
                }
                let rows = cells::finished_call(
                    &name,
                    &arguments,
                    touches.as_ref(),
                    status,
                    output.as_deref(),
                    display.as_ref(),
                    width,
                );
                self.history.extend(rows);
                if touches.as_ref().is_some_and(|t| t.command.is_some())
                    && let Some(output) = output
                {
                    let title = cells::call_title(&name, &arguments, touches.as_ref(), 60);
                    self.last_output = Some((title, output));
                }
            }
            ItemKind::Compaction {
                tokens_before,
                tokens_after,
                trigger,
            } => self.message(
                MessageKind::Dim,
                &format!("compacted the conversation ({trigger}): ~{tokens_before} → ~{tokens_after} tokens"),
            ),
            ItemKind::HookRun {
                event,
                command,
                duration_ms,
                outcome,
                message,
                ..
            } => {
                let mut line = format!(
                    "  ↳ hook {event} `{}` {outcome} ({duration_ms} ms)",
                    crate::wrap::truncate(&command, 60)
                );
                if let Some(message) = message {
                    line.push_str(&format!(": {}", crate::wrap::truncate(&message, 200)));
                }
                let kind = if outcome == "ok" { MessageKind::Dim } else { MessageKind::Warning };
                self.history.extend(cells::text_rows(&line, style_of(kind), width, ""));
            }
            ItemKind::Diagnostics {
                checker,
                errors,
                warnings,
                ran,
                ..
            } => {
                let (line, kind) = if !ran {
                    (format!("  ✗ {checker} could not give a verdict"), MessageKind::Warning)
                } else if errors > 0 {
                    (format!("  ✗ {checker}: {errors} errors, {warnings} warnings in the edited files"), MessageKind::Error)
                } else {
                    (format!("  ✓ {checker}: no errors ({warnings} warnings) in the edited files"), MessageKind::Dim)
                };
                self.history.extend(cells::text_rows(&line, style_of(kind), width, ""));
            }
            ItemKind::Error { message } => self.message(MessageKind::Error, &message),
        }
    }

    /// A subagent's event: its place in the live tree.
    pub(crate) fn agent_event(&mut self, event: &Event) {
        let path = event.agent.0.clone();
        let view = self
            .agents
            .entry(path.clone())
            .or_insert_with(|| AgentView {
                parent_call: event.parent_tool_use_id.clone(),
                current: None,
                tokens: 0,
            });
        if view.parent_call.is_none() {
            view.parent_call = event.parent_tool_use_id.clone();
        }
        match &event.kind {
            EventKind::ItemStarted { item } => {
                if let ItemKind::ToolCall {
                    name,
                    arguments,
                    touches,
                    ..
                } = &item.kind
                {
                    view.current = Some(cells::call_title(name, arguments, touches.as_ref(), 60));
                }
            }
            EventKind::ItemCompleted { item } => {
                if matches!(item.kind, ItemKind::ToolCall { .. }) {
                    view.current = None;
                }
            }
            // `total` is the whole session's: the child's own is the sum
            // of its requests.
            EventKind::Usage { request, .. } => {
                view.tokens = view
                    .tokens
                    .saturating_add(request.total_input() + request.output_tokens);
            }
            EventKind::ApprovalRequested {
                id,
                tool,
                arguments,
                touches,
                reason,
                suggested_rule,
                suggested_rules,
                still_asks,
                ..
            } => {
                let always = AlwaysOffer::from_event(
                    suggested_rule.as_ref(),
                    suggested_rules,
                    still_asks.as_ref(),
                )
                .with_caveat(self.always_caveat.clone());
                self.ring_for("wright needs your approval");
                self.approval = Some(ApprovalMenu::new(
                    id.clone(),
                    Some(path),
                    (tool.clone(), arguments.clone(), touches.clone()),
                    reason.clone(),
                    always,
                ));
            }
            EventKind::Warning { message } | EventKind::Error { message } => {
                let short = path.rsplit('/').next().unwrap_or(&path).to_owned();
                self.message(MessageKind::Warning, &format!("[{short}] {message}"));
            }
            _ => {}
        }
    }
}

/// The items of a `TodoWrite` call: each one's status and text (its
/// `activeForm` while in progress, as Claude Code shows it).
fn todo_items(arguments: &str) -> Vec<(String, String)> {
    let value: serde_json::Value = serde_json::from_str(arguments).unwrap_or_default();
    value
        .get("todos")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .map(|t| {
            let text = |k: &str| {
                t.get(k)
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or_default()
            };
            let status = text("status").to_owned();
            let shown = match (status.as_str(), text("activeForm")) {
                ("in_progress", active) if !active.is_empty() => active,
                _ => text("content"),
            };
            (status, shown.to_owned())
        })
        .collect()
}
