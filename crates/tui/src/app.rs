//! The UI's state: what is finished (rows waiting to go to the scrollback),
//! what is live (the streaming answer, running tools, subagents, queued
//! prompts, an open menu) and the status line's facts. It is driven by
//! core events ([`App::input`]) and keys (`keys.rs`), and drawn by `view.rs`;
//! it never touches the terminal, so tests feed it events and draw it into
//! a test backend.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use wright_protocol::{Event, EventKind, ItemDelta, ItemKind, Op, ToolCallStatus, TurnEndReason};

use crate::approval::{AlwaysOffer, ApprovalMenu};
use crate::cells::{self, MessageKind};
use crate::composer::Composer;
use crate::host::{Action, HostReply, Input, Notify, SessionEntry, Startup};
use crate::stream::MarkdownStream;

/// Output rows kept in a running tool's live box.
pub const TOOL_BOX_ROWS: usize = 5;

/// A tool call still running.
#[derive(Debug)]
pub(crate) struct RunningTool {
    pub(crate) item_id: String,
    pub(crate) call_id: String,
    pub(crate) title: String,
    pub(crate) started: Instant,
    /// The last rows of its output.
    pub(crate) output: VecDeque<String>,
    /// Output after the last newline.
    pub(crate) partial: String,
}

/// A subagent seen in the events.
#[derive(Debug, Clone)]
pub(crate) struct AgentView {
    /// The `Task` call that started it.
    pub(crate) parent_call: Option<String>,
    /// What it is running now.
    pub(crate) current: Option<String>,
    /// Tokens of its requests so far.
    pub(crate) tokens: u64,
}

/// The status line's facts.
#[derive(Debug, Clone, Default)]
pub(crate) struct Status {
    pub(crate) model: String,
    pub(crate) mode: String,
    pub(crate) window: u64,
    pub(crate) context_tokens: u64,
    pub(crate) cost: f64,
    pub(crate) branch: Option<String>,
}

/// The `/resume` picker.
#[derive(Debug, Clone)]
pub(crate) struct Picker {
    pub(crate) sessions: Vec<SessionEntry>,
    pub(crate) selected: usize,
}

/// The whole UI state.
pub struct App {
    pub(crate) composer: Composer,
    pub(crate) width: u16,
    /// Finished rows not yet written to the scrollback.
    pub(crate) history: Vec<Line<'static>>,
    pub(crate) answer: Option<(String, MarkdownStream)>,
    /// Whether the answer's first rows went out (a blank row went before them).
    pub(crate) answer_streamed: bool,
    /// Whether any text of the answer arrived as deltas.
    pub(crate) answer_started: bool,
    pub(crate) thinking: Option<Instant>,
    pub(crate) tools: Vec<RunningTool>,
    pub(crate) agents: BTreeMap<String, AgentView>,
    pub(crate) approval: Option<ApprovalMenu>,
    pub(crate) picker: Option<Picker>,
    /// A rewind previewed and waiting for y/n: its turn.
    pub(crate) rewind_confirm: Option<u32>,
    pub(crate) queued: VecDeque<String>,
    /// Messages sent into the running turn, not yet delivered.
    pub(crate) steering: Vec<String>,
    /// When the running turn started (`None`: idle).
    pub(crate) turn: Option<Instant>,
    pub(crate) status: Status,
    /// When Ctrl-C was pressed on an empty, idle composer (a second one exits).
    pub(crate) ctrl_c_at: Option<Instant>,
    pub(crate) now: Instant,
    pub(crate) actions: Vec<Action>,
    pub(crate) exit: Option<u8>,
    /// NO_COLOR: rows and frames leave without colour.
    pub(crate) no_color: bool,
    /// The running work is a `!cmd`: its output stays in the transcript.
    pub(crate) shell: bool,
    /// Said on every approval's project choice ([`Startup::always_caveat`]).
    pub(crate) always_caveat: Option<String>,
    /// How to ring ([`Startup::notify`]).
    pub(crate) notify: Notify,
    /// Why the UI is to ring at the next chance (it waits for the person).
    pub(crate) ring: Option<String>,
    /// The composer's text, to be edited in the person's editor (Ctrl-G).
    pub(crate) editor_request: Option<String>,
    /// The last finished command's title and whole output (Ctrl-O).
    pub(crate) last_output: Option<(String, String)>,
    /// The model's todo list as its last `TodoWrite` left it: each item's
    /// status (`pending`, `in_progress`, `completed`) and text.
    pub(crate) todos: Vec<(String, String)>,
}

/// A turn that ran this long rings when it ends (the person may have
/// turned to something else).
const LONG_TURN: Duration = Duration::from_secs(30);

impl App {
    /// A fresh UI at `width` columns.
    pub fn new(startup: Startup, width: u16) -> Self {
        let now = Instant::now();
        let mut app = Self {
            composer: Composer::new(),
            width: width.max(1),
            history: Vec::new(),
            answer: None,
            answer_streamed: false,
            answer_started: false,
            thinking: None,
            tools: Vec::new(),
            agents: BTreeMap::new(),
            approval: None,
            picker: None,
            rewind_confirm: None,
            queued: VecDeque::new(),
            steering: Vec::new(),
            turn: None,
            status: Status {
                model: startup.model,
                mode: startup.mode,
                window: startup.window,
                branch: startup.branch,
                ..Status::default()
            },
            ctrl_c_at: None,
            now,
            actions: Vec::new(),
            exit: None,
            no_color: false,
            shell: false,
            always_caveat: startup.always_caveat,
            notify: startup.notify,
            ring: None,
            editor_request: None,
            last_output: None,
            todos: Vec::new(),
        };
        for notice in &startup.notices {
            app.message(MessageKind::Dim, notice);
        }
        app
    }

    /// The composer (for the host to install commands once it can).
    pub fn composer_mut(&mut self) -> &mut Composer {
        &mut self.composer
    }

    /// Sets the width new rows are wrapped to.
    pub fn set_width(&mut self, width: u16) {
        self.width = width.max(1);
    }

    /// Sets the clock (spinner, elapsed time, double Ctrl-C).
    pub fn set_now(&mut self, now: Instant) {
        self.now = now;
    }

    /// A frame was drawn at `at`: an approval menu on it is on screen from
    /// then, and takes keys only after its guard (half a second) has passed
    /// with no typing (the terminal loop calls this after every draw).
    pub fn frame_drawn(&mut self, at: Instant) {
        if let Some(menu) = self.approval.as_mut() {
            menu.shown(at);
        }
    }

    /// Draws without colour from now on (NO_COLOR).
    pub fn set_no_color(&mut self, on: bool) {
        self.no_color = on;
    }

    /// Takes the rows ready for the scrollback.
    pub fn take_history(&mut self) -> Vec<Line<'static>> {
        let rows = std::mem::take(&mut self.history);
        if self.no_color {
            rows.into_iter().map(crate::no_color::strip_line).collect()
        } else {
            rows
        }
    }

    /// What to write to the terminal to ring, once, when the UI started
    /// waiting for the person: BEL, or an OSC 9 notification with why.
    pub fn take_ring(&mut self) -> Option<String> {
        let why = self.ring.take()?;
        match self.notify {
            Notify::Bell => Some("\x07".to_owned()),
            Notify::Osc9 => Some(format!(
                "\x1b]9;{}\x07",
                cells::clean(&why).replace(['\x1b', '\x07'], "")
            )),
            Notify::Off => None,
        }
    }

    /// Opens the picker of this project's sessions (`--resume` without an ID).
    pub fn pick_session(&mut self) {
        self.actions
            .push(Action::Host(crate::host::HostRequest::Sessions));
    }

    /// The text Ctrl-G asked to edit, once.
    pub fn take_editor_request(&mut self) -> Option<String> {
        self.editor_request.take()
    }

    /// What the editor saved becomes the composer's text; a failure is said.
    pub fn editor_done(&mut self, result: Result<String, String>) {
        match result {
            Ok(text) => self.composer.load(&text),
            Err(why) => self.message(MessageKind::Error, &why),
        }
    }

    /// The UI waits for the person: ring (see [`App::take_ring`]).
    pub(crate) fn ring_for(&mut self, why: &str) {
        self.ring = Some(why.to_owned());
    }

    /// Takes what the host is asked to do.
    pub fn take_actions(&mut self) -> Vec<Action> {
        std::mem::take(&mut self.actions)
    }

    /// The exit code once the user asked to leave.
    pub fn exit_code(&self) -> Option<u8> {
        self.exit
    }

    /// Whether a turn is running.
    pub fn busy(&self) -> bool {
        self.turn.is_some()
    }

    /// A plan to approve goes to the transcript, rendered, so it stays
    /// there whatever is answered; the menu below only asks.
    fn show_plan(&mut self, arguments: &str) {
        self.end_thinking();
        self.finish_answer();
        let value: serde_json::Value = serde_json::from_str(arguments).unwrap_or_default();
        let plan = value
            .get("plan")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default();
        self.history.push(Line::default());
        self.history.push(Line::from(Span::styled(
            "Plan",
            Style::default()
                .fg(Color::Magenta)
                .add_modifier(Modifier::BOLD),
        )));
        let rows = crate::markdown::render_from(
            &cells::clean(plan),
            self.width,
            0,
            &mut crate::code::CodeCache::default(),
        );
        self.history.extend(rows);
    }

    pub(crate) fn message(&mut self, kind: MessageKind, text: &str) {
        let rows = cells::message(kind, text, self.width);
        self.history.extend(rows);
    }

    /// Sends `text` as a user turn now (the prompt goes to the scrollback).
    pub(crate) fn start_turn(&mut self, text: String) {
        self.history.extend(cells::user_prompt(&text, self.width));
        self.turn = Some(self.now);
        self.actions.push(Action::Op(Op::UserTurn { text }));
    }

    /// Sends `text` into the running turn: the model gets it with the
    /// results of the step running now; it shows in the transcript there.
    pub(crate) fn steer(&mut self, text: String) {
        self.steering.push(text.clone());
        self.actions.push(Action::Op(Op::Steer {
            text,
            images: Vec::new(),
            uuid: None,
        }));
    }

    /// Runs `command` (typed as `!command`) through the session: the
    /// core checks it as the model's `Bash` call and shows it as one.
    pub(crate) fn start_shell(&mut self, command: String) {
        self.history
            .extend(cells::user_prompt(&format!("!{command}"), self.width));
        self.turn = Some(self.now);
        self.shell = true;
        self.actions.push(Action::Op(Op::UserShell { command }));
    }

    /// Handles one input.
    pub fn input(&mut self, input: Input) {
        match input {
            Input::Core(event) => self.event(*event),
            Input::Reply(reply) => self.reply(reply),
            Input::Closed => {
                self.finish_turn(None);
                self.exit.get_or_insert(1);
            }
        }
    }

    fn reply(&mut self, reply: HostReply) {
        match reply {
            HostReply::Text(text) => self.message(MessageKind::Notice, &text),
            HostReply::Error(text) => self.message(MessageKind::Error, &text),
            HostReply::TurnStarted => {
                self.turn.get_or_insert(self.now);
            }
            HostReply::Sessions(sessions) if sessions.is_empty() => {
                self.message(MessageKind::Notice, "no other sessions in this project");
            }
            HostReply::Sessions(sessions) => {
                self.picker = Some(Picker {
                    sessions,
                    selected: 0,
                });
            }
            HostReply::Leave => {
                self.finish_turn(None);
                self.exit = Some(0);
            }
            HostReply::SessionSwitched { notice } => {
                self.finish_turn(None);
                self.status.context_tokens = 0;
                self.status.cost = 0.0;
                self.message(MessageKind::Dim, &notice);
            }
        }
    }

    fn event(&mut self, event: Event) {
        if !event.agent.is_root() {
            self.agent_event(&event);
            return;
        }
        match event.kind {
            EventKind::SessionConfigured {
                model,
                permission_mode,
                ..
            } => {
                self.status.model = model;
                self.status.mode = permission_mode;
            }
            EventKind::TurnStarted => {
                self.turn.get_or_insert(self.now);
            }
            EventKind::Steered { text } => {
                if let Some(i) = self.steering.iter().position(|s| *s == text) {
                    self.steering.remove(i);
                }
                self.end_thinking();
                self.finish_answer();
                self.history.extend(cells::user_prompt(&text, self.width));
                self.turn.get_or_insert(self.now);
            }
            EventKind::SteeringWithdrawn { texts } => {
                // Not sent: back into the composer, before what is there.
                self.steering.retain(|s| !texts.contains(s));
                let mut text = texts.join("\n\n");
                if !self.composer.is_empty() {
                    text.push_str("\n\n");
                    text.push_str(self.composer.text());
                }
                self.composer.set_text(&text);
            }
            EventKind::ItemStarted { item } => match item.kind {
                ItemKind::AgentMessage { .. } => {
                    self.end_thinking();
                    self.finish_answer();
                    self.answer = Some((item.id, MarkdownStream::new()));
                    self.answer_streamed = false;
                    self.answer_started = false;
                }
                ItemKind::Reasoning { .. } => {
                    self.thinking.get_or_insert(self.now);
                }
                ItemKind::ToolCall {
                    call_id,
                    name,
                    arguments,
                    touches,
                    ..
                } => {
                    self.end_thinking();
                    self.finish_answer();
                    let title = cells::call_title(&name, &arguments, touches.as_ref(), 200);
                    self.tools.push(RunningTool {
                        item_id: item.id,
                        call_id,
                        title,
                        started: self.now,
                        output: VecDeque::new(),
                        partial: String::new(),
                    });
                }
                _ => {}
            },
            EventKind::ItemDelta { item_id, delta } => match delta {
                ItemDelta::Text(text) => {
                    let width = self.width;
                    if let Some((id, stream)) = self.answer.as_mut()
                        && *id == item_id
                    {
                        let rows = stream.push(&cells::clean(&text), width);
                        if !self.answer_streamed && !rows.is_empty() {
                            self.history.push(Line::default());
                        }
                        if !rows.is_empty() {
                            self.answer_streamed = true;
                        }
                        self.history.extend(rows);
                        self.answer_started = true;
                    }
                }
                ItemDelta::Reasoning(_) => {
                    self.thinking.get_or_insert(self.now);
                }
                ItemDelta::ToolOutput(text) => {
                    if let Some(tool) = self.tools.iter_mut().find(|t| t.item_id == item_id) {
                        tool_output(tool, &text);
                    }
                }
            },
            EventKind::ItemCompleted { item } => self.item_completed(item),
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
                let edit = touches
                    .as_ref()
                    .is_some_and(|t| t.kind == wright_protocol::ToolKind::Edit);
                let always = AlwaysOffer::from_event(
                    suggested_rule.as_ref(),
                    &suggested_rules,
                    still_asks.as_ref(),
                )
                .with_caveat(self.always_caveat.clone())
                .for_all_edits(edit && self.status.mode == "default");
                if tool == "ExitPlanMode" {
                    self.show_plan(&arguments);
                }
                self.ring_for(match tool.as_str() {
                    "ExitPlanMode" => "wright: a plan waits for your approval",
                    "AskUserQuestion" => "wright has a question for you",
                    _ => "wright needs your approval",
                });
                let call = (tool, arguments, touches);
                self.approval = Some(ApprovalMenu::new(id, None, call, reason, always));
            }
            EventKind::Usage {
                request,
                total_cost_usd,
                model,
                ..
            } => {
                self.status.context_tokens = request.total_input() + request.output_tokens;
                self.status.cost = total_cost_usd;
                if !model.is_empty() {
                    self.status.model = model;
                }
            }
            EventKind::Retrying {
                attempt,
                delay_ms,
                reason,
                superseded,
            } => {
                // The broken cell's live part is dropped: the retry's answer
                // replaces it. Rows already in the terminal's scrollback
                // cannot be taken back; when some went there, they stay,
                // marked, and the retry's answer follows.
                let line = if superseded.is_empty() {
                    format!("retrying ({attempt}) in {delay_ms} ms: {reason}")
                } else {
                    self.end_thinking();
                    let shown = self.answer.is_some() && self.answer_streamed;
                    self.answer = None;
                    self.answer_streamed = false;
                    self.answer_started = false;
                    if shown {
                        format!(
                            "the response above broke off; retrying ({attempt}) after a dropped \
                             stream in {delay_ms} ms: {reason}"
                        )
                    } else {
                        format!(
                            "retrying ({attempt}) after a dropped stream in {delay_ms} ms: {reason}"
                        )
                    }
                };
                self.message(MessageKind::Warning, &line);
            }
            EventKind::Error { message } => self.message(MessageKind::Error, &message),
            EventKind::Warning { message } => self.message(MessageKind::Warning, &message),
            EventKind::ModeChanged { mode } => self.status.mode = mode,
            EventKind::Notice { message } => {
                if let Some(model) = message
                    .strip_prefix("Model is now `")
                    .and_then(|m| m.split('`').next())
                {
                    self.status.model = model.to_owned();
                }
                self.message(MessageKind::Notice, &message);
            }
            EventKind::TurnCompleted { reason, .. } => self.finish_turn(Some(reason)),
            EventKind::RewindPreview {
                turn,
                prompt,
                files,
            } => self.rewind_preview(turn, &prompt, &files),
        }
    }

    /// Asks before a rewind that changes files; one that changes none
    /// goes ahead.
    fn rewind_preview(
        &mut self,
        turn: u32,
        prompt: &str,
        files: &[wright_protocol::RewindFilePreview],
    ) {
        use wright_protocol::RewindFileAction;
        let mut lines = Vec::new();
        for f in files {
            let path = f.path.display();
            lines.push(match &f.action {
                RewindFileAction::Overwrite => format!("  overwrite {path}"),
                RewindFileAction::Delete => format!("  delete    {path}"),
                RewindFileAction::Skip { reason } => format!("  leave     {path} ({reason})"),
            });
        }
        let changes = files
            .iter()
            .any(|f| !matches!(f.action, RewindFileAction::Skip { .. }));
        if !changes {
            self.actions.push(Action::Op(Op::Rewind {
                turn: Some(turn),
                dry_run: false,
            }));
            return;
        }
        let text = format!(
            "Rewind to before turn {turn} ({prompt})?\n{}\ny rewinds, n keeps the files",
            lines.join("\n")
        );
        self.message(MessageKind::Warning, &text);
        self.rewind_confirm = Some(turn);
    }

    pub(crate) fn end_thinking(&mut self) {
        if let Some(started) = self.thinking.take() {
            let secs = self.now.saturating_duration_since(started).as_secs();
            let line = format!("✻ Thought for {secs}s");
            self.history
                .extend(cells::message(MessageKind::Dim, &line, self.width));
        }
    }

    pub(crate) fn finish_answer(&mut self) {
        if let Some((_, mut stream)) = self.answer.take() {
            let rows = stream.finish(self.width);
            if !rows.is_empty() && !self.answer_streamed {
                self.history.push(Line::default());
            }
            self.history.extend(rows);
        }
    }

    /// The turn is over (or the session went away): everything live is folded.
    pub(crate) fn finish_turn(&mut self, reason: Option<TurnEndReason>) {
        self.end_thinking();
        self.finish_answer();
        for tool in std::mem::take(&mut self.tools) {
            let rows = vec![
                cells::call_head(&tool.title, Some(ToolCallStatus::Cancelled)),
                Line::styled("  ⎿ cancelled", style_of(MessageKind::Warning)),
            ];
            self.history.extend(rows);
        }
        self.agents.clear();
        self.approval = None;
        self.shell = false;
        let started = self.turn.take();
        let was_running = started.is_some();
        if started.is_some_and(|t| self.now.saturating_duration_since(t) >= LONG_TURN) {
            self.ring_for("wright finished its turn");
        }
        match reason {
            Some(TurnEndReason::Interrupted) => self.message(MessageKind::Warning, "interrupted"),
            Some(TurnEndReason::MaxTurns) => {
                self.message(MessageKind::Warning, "stopped: turn limit reached")
            }
            Some(TurnEndReason::MaxBudget) => {
                self.message(MessageKind::Warning, "stopped: budget spent")
            }
            _ => {}
        }
        if reason == Some(TurnEndReason::Interrupted) && !self.queued.is_empty() {
            // Stopped: what was queued is not sent, it goes back to be
            // edited or sent again.
            let mut text = self.queued.drain(..).collect::<Vec<_>>().join("\n\n");
            if !self.composer.is_empty() {
                text.push_str("\n\n");
                text.push_str(self.composer.text());
            }
            self.composer.set_text(&text);
            return;
        }
        // Messages the turn did not take start turns of their own first.
        if was_running
            && self.steering.is_empty()
            && let Some(next) = self.queued.pop_front()
        {
            self.submit(next);
        }
    }

    /// The spinner's elapsed time.
    pub(crate) fn elapsed(&self) -> Option<Duration> {
        self.turn.map(|t| self.now.saturating_duration_since(t))
    }
}

/// The first rows of a tool's output box.
fn tool_output(tool: &mut RunningTool, text: &str) {
    tool.partial.push_str(&cells::clean(text));
    while let Some(i) = tool.partial.find('\n') {
        let line: String = tool.partial.drain(..=i).collect();
        tool.output.push_back(line.trim_end().to_owned());
        if tool.output.len() > TOOL_BOX_ROWS {
            tool.output.pop_front();
        }
    }
    // A runaway line without newlines must not grow without bound.
    if tool.partial.len() > 4096 {
        let cut: String = tool
            .partial
            .chars()
            .rev()
            .take(1024)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        tool.partial = cut;
    }
}

pub(crate) fn style_of(kind: MessageKind) -> Style {
    match kind {
        MessageKind::Notice => Style::default(),
        MessageKind::Dim => Style::default().fg(Color::DarkGray),
        MessageKind::Warning => Style::default().fg(Color::Yellow),
        MessageKind::Error => Style::default().fg(Color::Red),
    }
}

#[cfg(test)]
#[path = "app_tests.rs"]
mod tests;
