//! Keys, pastes and submitted prompts: what the user's input does to the
//! app (open menus first, then the composer), and the `/commands`.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind};
use wright_protocol::{ApprovalDecision, Op};

use crate::app::App;
use crate::approval::MenuOutcome;
use crate::cells::MessageKind;
use crate::composer::{CommandEntry, ComposerOutcome};
use crate::host::{Action, HostRequest};

/// A second Ctrl-C within this long of the first leaves.
const DOUBLE_CTRL_C: Duration = Duration::from_secs(2);

/// What Shift-Tab cycles through.
const MODES: [&str; 3] = ["default", "accept-edits", "plan"];

/// The built-in commands with their help text.
pub const COMMANDS: [(&str, &str); 12] = [
    ("/help", "the commands and keys"),
    (
        "/mode",
        "[name] show or change what runs without asking (default, accept-edits, plan, auto, bypass)",
    ),
    (
        "/model",
        "[name] show or change the model (from the next request)",
    ),
    (
        "/context",
        "what the model sees, with sources and sizes, and the window used",
    ),
    ("/compact", "[focus] summarize older turns now"),
    (
        "/rewind",
        "[N] list the turns, or go back to before turn N (files and conversation)",
    ),
    ("/resume", "pick one of this project's sessions to continue"),
    ("/clear", "start a new session"),
    ("/cost", "what this session has cost so far"),
    ("/mcp", "MCP servers with their status and tools"),
    ("/exit", "leave (also Ctrl-D on an empty prompt)"),
    ("/quit", "leave"),
];

const KEYS_HELP: &str = "keys: Enter send · Esc interrupt · Ctrl-C clear / interrupt / twice to leave · \
Ctrl-D leave · Shift-Tab cycle permission mode\n\
while the agent works: Enter sends the message with its next step (after the running tools) · \
Ctrl-Q keeps it for after the turn · Ctrl-G edits the prompt in $VISUAL or $EDITOR · \
Ctrl-O shows the last command's whole output\n\
approvals: 1–4 or ↑/↓ picks, Enter confirms, Esc refuses; letters (and anything typed as a menu \
opens) go to the prompt\n\
!cmd runs cmd through the permission check and sandbox the model's Bash gets; \
the model sees it and its output with your next prompt";

/// The built-in commands for the composer's completion.
pub fn command_entries() -> Vec<CommandEntry> {
    COMMANDS
        .iter()
        .map(|(name, description)| CommandEntry {
            name: (*name).to_owned(),
            description: (*description).to_owned(),
        })
        .collect()
}

impl App {
    /// Handles a key press.
    pub fn key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if let Some(menu) = self.approval.as_mut() {
            let id = menu.id.clone();
            match menu.key(key, self.now) {
                MenuOutcome::Open => {}
                MenuOutcome::Decided(decision) => {
                    self.approval = None;
                    self.actions
                        .push(Action::Op(Op::ResolveApproval { id, decision }));
                }
                MenuOutcome::DecidedInMode(mode, decision) => {
                    // The mode first: the core leaves plan mode for it.
                    self.approval = None;
                    self.actions
                        .push(Action::Op(Op::SetPermissionMode { mode }));
                    self.actions
                        .push(Action::Op(Op::ResolveApproval { id, decision }));
                }
                MenuOutcome::Cancelled => {
                    // The interrupt first: the turn stops at the question,
                    // so a message sent into it is not delivered with the
                    // refusal but comes back.
                    self.approval = None;
                    self.actions.push(Action::Op(Op::Interrupt));
                    self.actions.push(Action::Op(Op::ResolveApproval {
                        id,
                        decision: ApprovalDecision::Deny { note: None },
                    }));
                }
                // Typed for the prompt, not for the menu: it stays there.
                MenuOutcome::Composer => self.composer_key(key),
            }
            return;
        }
        if self.picker.is_some() {
            self.picker_key(key);
            return;
        }
        if let Some(turn) = self.rewind_confirm {
            self.rewind_key(turn, key);
            return;
        }
        if key.code == KeyCode::Char('o')
            && key
                .modifiers
                .contains(crossterm::event::KeyModifiers::CONTROL)
        {
            self.show_last_output();
            return;
        }
        self.composer_key(key);
    }

    /// Ctrl-O: the last finished command's whole output, into the transcript.
    fn show_last_output(&mut self) {
        match &self.last_output {
            Some((title, output)) => {
                let rows = crate::cells::command_output(title, output, self.width);
                self.history.extend(rows);
            }
            None => self.message(MessageKind::Dim, "no command has finished yet"),
        }
    }

    fn composer_key(&mut self, key: KeyEvent) {
        match self.composer.handle_key(key) {
            ComposerOutcome::None => {}
            ComposerOutcome::Submit(text) => self.submit(text),
            // After the turn, not into it (a prompt when nothing runs).
            ComposerOutcome::Queue(text) if self.busy() => self.queued.push_back(text),
            ComposerOutcome::Queue(text) => self.submit(text),
            ComposerOutcome::Editor => self.editor_request = Some(self.composer.full_text()),
            ComposerOutcome::CtrlC => self.ctrl_c(),
            ComposerOutcome::Exit => self.exit = Some(0),
            ComposerOutcome::Escape => {
                if self.busy() {
                    self.actions.push(Action::Op(Op::Interrupt));
                }
            }
            ComposerOutcome::CycleMode => {
                let next = MODES
                    .iter()
                    .position(|m| *m == self.status.mode)
                    .map_or(MODES[0], |i| MODES[(i + 1) % MODES.len()]);
                self.actions.push(Action::Op(Op::SetPermissionMode {
                    mode: next.to_owned(),
                }));
            }
        }
    }

    /// Handles a bracketed paste (one piece of the prompt, however many
    /// lines). With an approval open it still goes to the composer, and the
    /// menu stays deaf for a moment after it, as after a typed key.
    pub fn paste(&mut self, text: &str) {
        if let Some(menu) = self.approval.as_mut() {
            menu.typed(self.now);
        } else if self.picker.is_some() {
            return;
        }
        self.composer.handle_paste(text);
    }

    #[cfg(test)]
    pub(crate) fn ctrl_c_for_test(&mut self) {
        self.ctrl_c();
    }

    fn ctrl_c(&mut self) {
        if self.busy() {
            self.actions.push(Action::Op(Op::Interrupt));
            return;
        }
        match self.ctrl_c_at {
            Some(at) if self.now.saturating_duration_since(at) <= DOUBLE_CTRL_C => {
                self.exit = Some(130);
            }
            _ => self.ctrl_c_at = Some(self.now),
        }
    }

    /// Whether the "Ctrl-C again to leave" hint shows.
    pub(crate) fn ctrl_c_armed(&self) -> bool {
        self.ctrl_c_at
            .is_some_and(|at| self.now.saturating_duration_since(at) <= DOUBLE_CTRL_C)
    }

    /// y or Enter rewinds; n, Esc or Ctrl-C keeps the files.
    fn rewind_key(&mut self, turn: u32, key: KeyEvent) {
        let ctrl_c = key.code == KeyCode::Char('c')
            && key
                .modifiers
                .contains(crossterm::event::KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('y' | 'Y') | KeyCode::Enter if !ctrl_c => {
                self.rewind_confirm = None;
                self.actions.push(Action::Op(Op::Rewind {
                    turn: Some(turn),
                    dry_run: false,
                }));
            }
            KeyCode::Char('n' | 'N') | KeyCode::Esc => {
                self.rewind_confirm = None;
                self.message(MessageKind::Notice, "rewind cancelled; nothing changed");
            }
            _ if ctrl_c => {
                self.rewind_confirm = None;
                self.message(MessageKind::Notice, "rewind cancelled; nothing changed");
            }
            _ => {}
        }
    }

    fn picker_key(&mut self, key: KeyEvent) {
        let Some(picker) = self.picker.as_mut() else {
            return;
        };
        let n = picker.sessions.len().max(1);
        match key.code {
            KeyCode::Up => picker.selected = (picker.selected + n - 1) % n,
            KeyCode::Down => picker.selected = (picker.selected + 1) % n,
            KeyCode::Enter => {
                if let Some(s) = picker.sessions.get(picker.selected) {
                    let id = s.id.clone();
                    self.actions.push(Action::Host(HostRequest::Resume { id }));
                }
                self.picker = None;
            }
            KeyCode::Esc => self.picker = None,
            KeyCode::Char('c')
                if key
                    .modifiers
                    .contains(crossterm::event::KeyModifiers::CONTROL) =>
            {
                self.picker = None;
            }
            _ => {}
        }
    }

    /// A prompt or command the user sent.
    pub(crate) fn submit(&mut self, text: String) {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return;
        }
        self.ctrl_c_at = None;
        let (command, rest) = trimmed
            .split_once(char::is_whitespace)
            .map_or((trimmed, ""), |(c, r)| (c, r.trim()));
        // A path such as /usr/bin/foo is a prompt, not a command.
        let is_command = command
            .strip_prefix('/')
            .is_some_and(|c| !c.is_empty() && !c.contains('/'));
        if !is_command {
            if let Some(command) = trimmed.strip_prefix('!') {
                if command.trim().is_empty() {
                    self.message(
                        MessageKind::Error,
                        "`!` runs a shell command: type it after the `!`, e.g. `!git status`",
                    );
                } else if self.busy() {
                    self.queued.push_back(text);
                } else {
                    self.start_shell(command.trim().to_owned());
                }
                return;
            }
            if self.busy() {
                self.steer(text);
            } else {
                self.start_turn(text);
            }
            return;
        }
        // Instant commands answer at once, even while a turn runs.
        match (command, rest) {
            ("/exit" | "/quit", _) => {
                self.exit = Some(0);
                return;
            }
            ("/help", _) => {
                let mut help = String::from("commands:\n");
                for (name, what) in COMMANDS {
                    help.push_str(&format!("  {name} — {what}\n"));
                }
                help.push_str(KEYS_HELP);
                self.message(MessageKind::Notice, &help);
                self.actions.push(Action::Host(HostRequest::Help));
                return;
            }
            ("/mode", "") => {
                let line = format!("permission mode: {}", self.status.mode);
                self.message(MessageKind::Notice, &line);
                return;
            }
            ("/mode", mode) => {
                self.actions.push(Action::Op(Op::SetPermissionMode {
                    mode: mode.to_owned(),
                }));
                return;
            }
            ("/model", "") => {
                let line = format!("model: {}", self.status.model);
                self.message(MessageKind::Notice, &line);
                return;
            }
            ("/model", model) => {
                let model = (model != "default").then(|| model.to_owned());
                self.actions.push(Action::Op(Op::SetModel { model }));
                return;
            }
            ("/cost", _) => {
                let line = format!("session cost so far: ${:.4}", self.status.cost);
                self.message(MessageKind::Notice, &line);
                return;
            }
            ("/context", _) => {
                self.actions.push(Action::Host(HostRequest::Context));
                return;
            }
            ("/mcp", _) => {
                self.actions.push(Action::Host(HostRequest::Mcp));
                return;
            }
            _ => {}
        }
        // The rest change the session: after the running turn.
        if self.busy() {
            self.queued.push_back(text);
            return;
        }
        match (command, rest) {
            ("/compact", focus) => {
                self.turn = Some(self.now);
                self.actions.push(Action::Op(Op::Compact {
                    focus: (!focus.is_empty()).then(|| focus.to_owned()),
                }));
            }
            ("/rewind", "") => self.actions.push(Action::Op(Op::Rewind {
                turn: None,
                dry_run: false,
            })),
            // First what it would overwrite; the rewind itself after a yes.
            ("/rewind", n) => match n.parse() {
                Ok(turn) => self.actions.push(Action::Op(Op::Rewind {
                    turn: Some(turn),
                    dry_run: true,
                })),
                Err(_) => self.message(MessageKind::Error, "usage: /rewind [N]"),
            },
            ("/resume", "") => self.actions.push(Action::Host(HostRequest::Sessions)),
            ("/resume", id) => self
                .actions
                .push(Action::Host(HostRequest::Resume { id: id.to_owned() })),
            ("/clear", _) => self.actions.push(Action::Host(HostRequest::Clear)),
            (command, args) if command.starts_with("/mcp__") => {
                self.history
                    .extend(crate::cells::user_prompt(&text, self.width));
                self.actions.push(Action::Host(HostRequest::McpPrompt {
                    command: command.to_owned(),
                    args: args.to_owned(),
                }));
            }
            (command, args) => {
                // A custom command (or a typo the host reports).
                self.history
                    .extend(crate::cells::user_prompt(&text, self.width));
                self.actions.push(Action::Host(HostRequest::Custom {
                    command: command.to_owned(),
                    args: args.to_owned(),
                }));
            }
        }
    }
}
