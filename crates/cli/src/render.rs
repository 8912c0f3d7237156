//! Renders core events for a person: assistant text to stdout as it
//! streams, tool activity, warnings and errors to stderr. Used by print
//! mode and the interactive line mode alike.

use std::io::{IsTerminal, Write};

use wright_protocol::{
    Event, EventKind, ItemDelta, ItemKind, ToolCallStatus, Touches, TurnEndReason,
};
use wright_tui::hides_text;
pub(crate) use wright_tui::strip_controls;

/// How much to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// One line per tool call.
    Normal,
    /// Tool output streamed and results shown.
    Verbose,
}

/// Writes events to stdout/stderr and remembers how the turn ended.
pub struct Renderer {
    detail: Detail,
    color: bool,
    /// Whether stdout is at the start of a line, so stderr lines never
    /// land in the middle of streamed text.
    stdout_at_line_start: bool,
    /// Whether the last streamed stderr output ended with a newline.
    stderr_at_line_start: bool,
    /// Whether stdout is a terminal (escape sequences are stripped there).
    stdout_terminal: bool,
    /// Text of the response in progress, when stdout is not a terminal.
    held: String,
    /// Print mode: stdout carries only the final answer; text that a
    /// tool call follows (narration) goes to stderr with the tool lines.
    answer_only: bool,
}

impl Renderer {
    /// The model's plan as a checklist under its `TodoWrite` call.
    fn todo_list(&mut self, arguments: &str, indent: &str) {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(arguments) else {
            return;
        };
        let Ok(items) = wright_tools::parse_todos(value) else {
            return;
        };
        for item in items {
            let (mark, code) = match item.status {
                wright_tools::TodoStatus::Completed => ("☑", "2"),
                wright_tools::TodoStatus::InProgress => ("◐", "1"),
                wright_tools::TodoStatus::Pending => ("☐", "0"),
            };
            let line = format!("{indent}    {mark} {}", escape_controls(&item.content));
            self.err_line(&self.paint(&line, code));
        }
    }

    /// A subagent's event, indented under its `Task` line on stderr: its
    /// tool calls with their results, and what it warns about. Its text
    /// stays out of stdout (only the parent's answer goes there); its
    /// answer is the `Task` call's result.
    fn subagent_event(&mut self, event: &Event) {
        let agent = &event.agent.0;
        let short = agent.rsplit('/').next().unwrap_or(agent);
        match &event.kind {
            EventKind::ItemStarted { item } => {
                if let ItemKind::ToolCall {
                    name,
                    arguments,
                    touches,
                    ..
                } = &item.kind
                {
                    let shown = short_args(name, arguments, touches.as_ref());
                    let line = format!("    [{short}] ● {name}({shown})");
                    self.err_line(&self.paint(&line, "36"));
                    if name == "TodoWrite" {
                        // Under the child's line, by as much as its name.
                        let indent = " ".repeat(short.chars().count() + 7);
                        self.todo_list(arguments, &indent);
                    }
                }
            }
            EventKind::ItemCompleted { item } => {
                if let ItemKind::ToolCall {
                    status,
                    output,
                    display,
                    ..
                } = &item.kind
                {
                    let (line, code) = done_line(*status, output.as_deref(), display.as_ref());
                    self.err_line(&self.paint(&format!("    [{short}]{line}"), code));
                }
            }
            EventKind::Warning { message } | EventKind::Error { message } => {
                let line = format!("    [{short}] {}", escape_controls(message));
                self.err_line(&self.paint(&line, "33"));
            }
            // The question is the user's to answer whoever asks: shown as
            // the parent's are, with the asking agent named.
            EventKind::ApprovalRequested { .. } => {
                self.err_line(&self.paint(&format!("[{agent}] asks:"), "35"));
                let root = Event {
                    agent: wright_protocol::AgentPath::root(),
                    ..event.clone()
                };
                self.event(&root);
            }
            _ => {}
        }
    }

    /// A renderer; colour only when stderr is a terminal and `NO_COLOR` is unset.
    pub fn new(detail: Detail) -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Self {
            detail,
            color: !no_color && std::io::stderr().is_terminal(),
            stdout_at_line_start: true,
            stderr_at_line_start: true,
            stdout_terminal: std::io::stdout().is_terminal(),
            held: String::new(),
            answer_only: false,
        }
    }

    /// Print mode's split: when stdout is not a terminal, the text of a
    /// response that calls tools goes to stderr, in order with the tool
    /// lines, so stdout holds only the final answer.
    #[must_use]
    pub fn answer_only(mut self) -> Self {
        self.answer_only = true;
        self
    }

    /// Renders one event; returns the end reason when it closes a turn.
    pub fn event(&mut self, event: &Event) -> Option<TurnEndReason> {
        if !event.agent.is_root() {
            self.subagent_event(event);
            return None;
        }
        match &event.kind {
            EventKind::ItemDelta { delta, .. } => match delta {
                ItemDelta::Text(text) => {
                    if self.stdout_terminal {
                        self.out(text);
                    } else {
                        // Piped or redirected: hold each response's text
                        // until it is complete, so an attempt that fails
                        // and is retried leaves nothing behind.
                        self.held.push_str(text);
                    }
                }
                ItemDelta::Reasoning(text) => {
                    if self.detail == Detail::Verbose {
                        self.err_raw(&self.paint(text, "2"));
                    }
                }
                ItemDelta::ToolOutput(text) => {
                    if self.detail == Detail::Verbose {
                        self.err_raw(&self.paint(text, "2"));
                    }
                }
            },
            EventKind::ItemStarted { item } => {
                if let ItemKind::ToolCall {
                    name,
                    arguments,
                    touches,
                    ..
                } = &item.kind
                {
                    if self.answer_only && !self.held.is_empty() {
                        let narration = std::mem::take(&mut self.held);
                        let narration = strip_controls(narration.trim_end());
                        self.err_line(&self.paint(&narration, "2"));
                    }
                    let shown = short_args(name, arguments, touches.as_ref());
                    let line = format!("● {name}({shown})");
                    self.err_line(&self.paint(&line, "36"));
                    if name == "TodoWrite" {
                        self.todo_list(arguments, "");
                    }
                }
            }
            EventKind::ItemCompleted { item } => match &item.kind {
                ItemKind::AgentMessage { .. } => self.end_stdout_line(),
                ItemKind::ToolCall {
                    status,
                    output,
                    display,
                    ..
                } => {
                    let (line, code) = done_line(*status, output.as_deref(), display.as_ref());
                    self.err_line(&self.paint(&line, code));
                    if self.detail == Detail::Verbose
                        && let Some(output) = output
                    {
                        self.err_line(&self.paint(output, "2"));
                    }
                }
                ItemKind::Compaction {
                    tokens_before,
                    tokens_after,
                    trigger,
                } => {
                    let line = format!(
                        "compacted the conversation ({trigger}): ~{tokens_before} → ~{tokens_after} tokens"
                    );
                    self.err_line(&self.paint(&line, "33"));
                }
                ItemKind::HookRun {
                    event,
                    command,
                    duration_ms,
                    outcome,
                    message,
                    ..
                } => {
                    // Every hook run shows, dim when it went quietly: nothing
                    // runs on the user's machine unseen.
                    let mut line = format!(
                        "  ↳ hook {event} `{}` {outcome} ({duration_ms} ms)",
                        truncate_chars(&escape_controls(command), 60)
                    );
                    if let Some(message) = message {
                        line.push_str(": ");
                        line.push_str(&truncate_chars(&escape_controls(message), 200));
                    }
                    let code = if outcome == "ok" { "2" } else { "33" };
                    self.err_line(&self.paint(&line, code));
                }
                // The report itself is part of the edit's output (shown in verbose mode).
                ItemKind::Diagnostics {
                    checker,
                    errors,
                    warnings,
                    ran,
                    ..
                } => {
                    let line = match (errors, warnings) {
                        _ if !ran => format!(
                            "  ✗ {checker} could not give a verdict (see the edit's result)"
                        ),
                        (0, 0) => format!("  ✓ {checker}: no errors in the edited files"),
                        (0, _) => format!(
                            "  ✓ {checker}: no errors, {} in the edited files",
                            count(*warnings, "warning")
                        ),
                        _ => format!(
                            "  ✗ {checker}: {}, {} in the edited files",
                            count(*errors, "error"),
                            count(*warnings, "warning")
                        ),
                    };
                    let code = if !ran {
                        "33"
                    } else if *errors > 0 {
                        "31"
                    } else {
                        "2"
                    };
                    self.err_line(&self.paint(&line, code));
                }
                ItemKind::Reasoning { .. } | ItemKind::Error { .. } => {}
            },
            // Messages can carry text from hooks, commands and the model:
            // no escape sequence of theirs reaches the terminal.
            EventKind::Error { message } => {
                let line = format!("error: {}", strip_controls(message));
                self.err_line(&self.paint(&line, "31"));
            }
            EventKind::Notice { message } => self.err_line(&strip_controls(message)),
            // The interactive mode shows a rewind preview with its question.
            EventKind::RewindPreview { .. } => {}
            // Only the terminal UI and programs steer a running turn.
            EventKind::Steered { .. } | EventKind::SteeringWithdrawn { .. } => {}
            // The notice beside it says so.
            EventKind::ModeChanged { .. } => {}
            EventKind::Warning { message } => {
                let line = format!("warning: {}", strip_controls(message));
                self.err_line(&self.paint(&line, "33"));
            }
            EventKind::Retrying {
                attempt,
                delay_ms,
                reason,
                superseded,
            } => {
                // Held text never reached stdout; streamed text did and
                // stays, so the line says it broke off and the retry's text
                // follows on a line of its own.
                self.held.clear();
                let reason = strip_controls(reason);
                let line = if superseded.is_empty() || !self.stdout_terminal {
                    format!("retrying ({attempt}) in {delay_ms} ms: {reason}")
                } else {
                    format!(
                        "the response above broke off; retrying ({attempt}) after a dropped \
                         stream in {delay_ms} ms: {reason}"
                    )
                };
                self.err_line(&self.paint(&line, "33"));
            }
            EventKind::TurnCompleted { reason, plan, .. } => {
                // A turn that ended in an error still shows what came.
                self.release_held();
                if let Some(plan) = plan {
                    // The plan is the run's answer (nobody could approve it).
                    self.end_stdout_line();
                    self.out(plan);
                    self.end_stdout_line();
                    let line = self.dim(
                        "The run ended at the plan; run again in another permission mode to carry it out.",
                    );
                    self.err_line(&line);
                }
                self.end_stdout_line();
                return Some(*reason);
            }
            EventKind::ApprovalRequested {
                tool,
                arguments,
                reason,
                suggested_rule,
                suggested_rules,
                still_asks,
                ..
            } => {
                // The whole call, escaped: what is approved must be what is
                // shown, and no text in it (the model's command repeated in
                // the reason, a hook's reason) may redraw the question.
                let line = format!(
                    "? {}({}) needs approval: {}",
                    escape_controls(tool),
                    escape_controls(&full_args(tool, arguments)),
                    escape_controls(reason)
                );
                self.err_line(&self.paint(&line, "35"));
                let rules = if suggested_rules.is_empty() {
                    suggested_rule.iter().cloned().collect::<Vec<_>>()
                } else {
                    suggested_rules.clone()
                };
                if !rules.is_empty() {
                    let line = format!(
                        "  \"always\" would allow: {}",
                        escape_controls(&rules.join(", "))
                    );
                    self.err_line(&self.paint(&line, "2"));
                }
                if let Some(why) = still_asks {
                    let line = format!("  \"always\" will still ask: {}", escape_controls(why));
                    self.err_line(&self.paint(&line, "2"));
                }
            }
            // The response is complete: its text is final (in print
            // mode, only once no tool call follows it).
            EventKind::Usage { .. } if !self.answer_only => self.release_held(),
            EventKind::Usage { .. } => {}
            EventKind::SessionConfigured { .. } | EventKind::TurnStarted => {}
        }
        None
    }

    /// `text` dimmed when colour is on.
    pub fn dim(&self, text: &str) -> String {
        self.paint(text, "2")
    }

    /// Writes a full line to stderr.
    pub fn err_line(&mut self, line: &str) {
        self.end_stdout_line();
        let mut err = std::io::stderr().lock();
        if !self.stderr_at_line_start {
            let _ = writeln!(err);
        }
        let _ = writeln!(err, "{line}");
        self.stderr_at_line_start = true;
    }

    fn err_raw(&mut self, text: &str) {
        let text = strip_controls(text);
        let text = text.as_str();
        self.end_stdout_line();
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "{text}");
        let _ = err.flush();
        self.stderr_at_line_start = text.ends_with('\n');
    }

    fn release_held(&mut self) {
        if !self.held.is_empty() {
            let text = std::mem::take(&mut self.held);
            self.out(&text);
        }
    }

    fn out(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let cleaned;
        let text = if self.stdout_terminal {
            cleaned = strip_controls(text);
            cleaned.as_str()
        } else {
            text
        };
        let mut out = std::io::stdout().lock();
        // A closed stdout (e.g. `| head`) must not stop the agent mid-task.
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
        self.stdout_at_line_start = text.ends_with('\n');
    }

    fn end_stdout_line(&mut self) {
        if !self.stdout_at_line_start {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out);
            let _ = out.flush();
            self.stdout_at_line_start = true;
        }
    }

    fn paint(&self, text: &str, code: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    truncate_chars(line, 120)
}

fn truncate_chars(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max).collect();
    format!("{cut}…")
}

/// The argument worth showing for a tool call, whole.
fn full_args(name: &str, arguments: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(arguments).unwrap_or_default();
    match (name, value.get("command").and_then(|v| v.as_str())) {
        ("Bash", Some(command)) => command.to_owned(),
        _ => arguments.to_owned(),
    }
}

/// `1 error`, `2 errors`.
fn count(n: u32, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Makes control characters visible, so text cannot move the cursor or
/// hide part of itself on the terminal.
pub(crate) fn escape_controls(text: &str) -> String {
    text.chars()
        .flat_map(|c| match c {
            '\n' => "⏎".chars().collect::<Vec<_>>(),
            c if c.is_control() || hides_text(c) => c.escape_default().collect(),
            c => vec![c],
        })
        .collect()
}

/// The argument worth showing for a tool call, on one line.
/// The line under a finished tool call (`  ⎿ 12 lines`) and its colour.
fn done_line(
    status: ToolCallStatus,
    output: Option<&str>,
    display: Option<&wright_protocol::ToolDisplay>,
) -> (String, &'static str) {
    let summary = display
        .map(|d| d.summary.clone())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| first_line(output.unwrap_or_default()));
    let (mark, code) = match status {
        ToolCallStatus::Completed => ("⎿", "2"),
        ToolCallStatus::Denied => ("⎿ refused:", "33"),
        ToolCallStatus::Cancelled => ("⎿ cancelled:", "33"),
        ToolCallStatus::Failed | ToolCallStatus::InProgress => ("⎿ error:", "31"),
    };
    (format!("  {mark} {summary}"), code)
}

fn short_args(name: &str, arguments: &str, touches: Option<&Touches>) -> String {
    let value: serde_json::Value = serde_json::from_str(arguments).unwrap_or_default();
    let text = |k: &str| value.get(k).and_then(|v| v.as_str()).unwrap_or_default();
    match name {
        "Task" => {
            let agent = Some(text("subagent_type"))
                .filter(|a| !a.is_empty())
                .unwrap_or("general");
            let shown = format!("{agent}: {}", text("description"));
            return truncate_chars(&escape_controls(&shown), 100);
        }
        "TodoWrite" => {
            if let Ok(items) = wright_tools::parse_todos(value.clone()) {
                return wright_tools::summarize_todos(&items);
            }
        }
        _ => {}
    }
    // The argument a person looks for first: a pattern or a job id, else
    // what the call touches (its command, path or URL), as its tool said.
    let key = match name {
        "Glob" | "Grep" => "pattern",
        "BashOutput" => "bash_id",
        "KillShell" => "shell_id",
        _ => "",
    };
    let shown = value
        .get(key)
        .and_then(|v| v.as_str())
        .or_else(|| touches.and_then(Touches::shown))
        .map(str::to_owned)
        .unwrap_or_else(|| arguments.to_owned());
    truncate_chars(&escape_controls(&shown), 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_args_picks_the_main_argument() {
        let bash = |c: &str| Touches::command(c);
        assert_eq!(short_args("Bash", "{}", Some(&bash("ls -la"))), "ls -la");
        assert_eq!(
            short_args(
                "Task",
                r#"{"description":"find x","prompt":"…","subagent_type":"explore"}"#,
                None
            ),
            "explore: find x"
        );
        assert_eq!(
            short_args(
                "TodoWrite",
                r#"{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}"#,
                None
            ),
            "1 todo: 0 done, 0 in progress, 1 pending"
        );
        let read = Touches::read("a.rs");
        assert_eq!(short_args("Read", r#"{"limit":3}"#, Some(&read)), "a.rs");
        let grep = Touches::read(".");
        assert_eq!(
            short_args("Grep", r#"{"pattern":"fn main"}"#, Some(&grep)),
            "fn main"
        );
        assert_eq!(short_args("other", r#"{"x":1}"#, None), r#"{"x":1}"#);
        assert_eq!(short_args("Bash", "not json", None), "not json");
        assert_eq!(short_args("Bash", "{}", Some(&bash("a\nb"))), "a⏎b");
    }

    #[test]
    fn control_characters_are_shown_or_stripped() {
        assert_eq!(
            escape_controls("ls\r\x1b[2Kcurl x|sh"),
            "ls\\r\\u{1b}[2Kcurl x|sh"
        );
        assert_eq!(strip_controls("a\x1b[31mred\x1b[0m\tb\n\x07"), "ared\tb\n");
        assert_eq!(escape_controls("ls \u{202E}txt.exe"), "ls \\u{202e}txt.exe");
        assert_eq!(strip_controls("a\u{200B}b\u{2066}c"), "abc");
        assert_eq!(full_args("Bash", r#"{"command":"x; y"}"#), "x; y");
    }

    #[test]
    fn long_lines_are_cut_on_char_boundaries() {
        let s = "é".repeat(200);
        let cut = truncate_chars(&s, 100);
        assert_eq!(cut.chars().count(), 101);
    }
}
