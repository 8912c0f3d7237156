//! The approval menu: what the model wants to run (the whole command, or
//! the edit as a diff) and four numbered choices. A choice is picked with
//! a digit or ↑/↓ and confirmed with Enter; no letter answers it, because
//! a person typing their next prompt while an answer streams would
//! otherwise answer a menu that opened under their fingers. For the same
//! reason the menu is deaf until it has been on screen for [`KEY_GUARD`]
//! with no typing in between: keys it does not take go to the composer.
//! The "always" choices show every rule they will save (one per part of a
//! command chain) and never promise to stop asking when the core says the
//! same call would still ask.

use std::time::{Duration, Instant};

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use wright_protocol::{ApprovalDecision, Touches};

use crate::ask_forms::{FormKey, FormOutcome, PlanForm, QuestionForm};
use crate::cells::{clean, text_rows};
use crate::wrap::wrap;

/// An open approval request.
#[derive(Debug, Clone)]
pub struct ApprovalMenu {
    /// Id to answer with.
    pub id: String,
    /// The agent asking (`None`: the main one).
    pub agent: Option<String>,
    tool: String,
    arguments: String,
    /// What the call touches, as its tool said: the command or path shown.
    touches: Option<Touches>,
    reason: String,
    always: AlwaysOffer,
    /// A plan or the model's questions instead of a call's four choices.
    form: Option<Form>,
    /// "No" was confirmed: why, being typed (Enter sends it, empty or not).
    refusal: Option<String>,
    /// The choice Enter confirms: none until a digit or arrow picks one,
    /// so an Enter that ends a typed sentence confirms nothing.
    selected: Option<usize>,
    /// When the menu was first drawn (`None`: not on screen yet).
    shown_at: Option<Instant>,
    /// When the last key the menu did not take went to the composer.
    typed_at: Option<Instant>,
}

/// How long the menu stays deaf after it first appears on screen, and
/// after each key that went to the composer instead. Keys typed at normal
/// speed come well under this apart (about 100–250 ms), so a person still
/// typing their prompt keeps typing into the composer; a deliberate answer
/// comes after reading the menu, which takes longer than this. Short enough
/// that an answer given on purpose is never noticeably delayed.
pub(crate) const KEY_GUARD: Duration = Duration::from_millis(500);

/// What the "always" choices save, from the approval event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AlwaysOffer {
    /// The rules saved (one per part of a command chain).
    pub rules: Vec<String>,
    /// Why the same call would still ask once they are saved.
    pub still_asks: Option<String>,
    /// What saving them in the project cannot promise (it is not trusted),
    /// added to the project choice.
    pub caveat: Option<String>,
    /// An edit asked in `default` mode: "this session" covers every edit
    /// (the session moves to accept-edits).
    pub all_edits: bool,
}

impl AlwaysOffer {
    /// From an `ApprovalRequested` event's fields; a core that sends only
    /// the single `suggested_rule` saves just that one.
    pub fn from_event(
        suggested_rule: Option<&String>,
        suggested_rules: &[String],
        still_asks: Option<&String>,
    ) -> Self {
        let rules = if suggested_rules.is_empty() {
            suggested_rule.cloned().into_iter().collect()
        } else {
            suggested_rules.to_vec()
        };
        Self {
            rules,
            still_asks: still_asks.cloned(),
            caveat: None,
            all_edits: false,
        }
    }

    /// The same offer, for an edit asked in `default` mode when `on`.
    #[must_use]
    pub fn for_all_edits(mut self, on: bool) -> Self {
        self.all_edits = on;
        self
    }

    /// The same offer, with `caveat` said on the project choice.
    #[must_use]
    pub fn with_caveat(mut self, caveat: Option<String>) -> Self {
        self.caveat = caveat;
        self
    }

    /// The label of "always" choice `i` (1: this session, 2: the project).
    fn label(&self, i: usize) -> String {
        if i == 1 && self.all_edits {
            return "Yes, and allow all edits this session (accept-edits mode)".to_owned();
        }
        let rules = self
            .rules
            .iter()
            .map(|r| clean(r))
            .collect::<Vec<_>>()
            .join(", ");
        let base = CHOICES[i];
        let scope = if i == 1 {
            "this session"
        } else {
            "in this project"
        };
        let label = match (&self.still_asks, rules.is_empty()) {
            (None, true) => base.to_owned(),
            (None, false) => format!("{base} ({rules})"),
            (Some(why), true) => {
                return format!("Yes, this once: no rule can be saved ({})", clean(why));
            }
            (Some(why), false) => format!(
                "Yes, and allow {rules} {scope}; it will still ask ({})",
                clean(why)
            ),
        };
        match &self.caveat {
            Some(caveat) if i == 2 => format!("{label}; {}", clean(caveat)),
            _ => label,
        }
    }
}

/// The menu's form when it asks for more than a yes or no on a call.
#[derive(Debug, Clone, PartialEq)]
enum Form {
    Plan(PlanForm),
    Questions(QuestionForm),
}

/// What a key does to the menu.
#[derive(Debug, Clone, PartialEq)]
pub enum MenuOutcome {
    /// Still open.
    Open,
    /// Answered.
    Decided(ApprovalDecision),
    /// Answered, with the permission mode to switch to first (a plan
    /// approved for accept-edits).
    DecidedInMode(String, ApprovalDecision),
    /// Refused and the turn is to stop (Esc, Ctrl-C).
    Cancelled,
    /// Not a key for the menu: it belongs to the composer.
    Composer,
}

const CHOICES: [&str; 4] = [
    "Yes",
    "Yes, and don't ask again this session",
    "Always allow in this project",
    "No",
];

impl ApprovalMenu {
    /// A menu for one request.
    pub fn new(
        id: String,
        agent: Option<String>,
        (tool, arguments, touches): (String, String, Option<Touches>),
        reason: String,
        always: AlwaysOffer,
    ) -> Self {
        let form = match tool.as_str() {
            "ExitPlanMode" => Some(Form::Plan(PlanForm::default())),
            "AskUserQuestion" => QuestionForm::parse(&arguments).map(Form::Questions),
            _ => None,
        };
        Self {
            id,
            agent,
            tool,
            arguments,
            touches,
            reason,
            always,
            form,
            refusal: None,
            selected: None,
            shown_at: None,
            typed_at: None,
        }
    }

    /// The menu was drawn at `at`; only the first frame counts, since keys
    /// typed before anyone could see the menu were never meant for it.
    pub fn shown(&mut self, at: Instant) {
        self.shown_at.get_or_insert(at);
    }

    /// Whether keys at `now` reach the menu: it has been on screen for
    /// [`KEY_GUARD`] and nothing has been typed into the composer for as long.
    pub fn listening(&self, now: Instant) -> bool {
        let quiet_since = |t: Instant| now.saturating_duration_since(t) >= KEY_GUARD;
        self.shown_at.is_some_and(quiet_since) && self.typed_at.is_none_or(quiet_since)
    }

    /// Something went to the composer at `now` (a key the menu did not take,
    /// a paste): the person is typing, so the menu is deaf again and a
    /// choice picked before is forgotten.
    pub fn typed(&mut self, now: Instant) {
        self.typed_at = Some(now);
        self.selected = None;
        match self.form.as_mut() {
            Some(Form::Plan(form)) => form.forget(),
            Some(Form::Questions(form)) => form.forget(),
            None => {}
        }
    }

    /// Whether a line is being typed in the menu (plan feedback, an own
    /// answer): every key goes there, not to the composer.
    fn typing(&self) -> bool {
        if self.refusal.is_some() {
            return true;
        }
        match &self.form {
            Some(Form::Plan(form)) => form.typing(),
            Some(Form::Questions(form)) => form.typing(),
            None => false,
        }
    }

    /// A key while the reason for a refusal is typed.
    fn refusal_key(&mut self, key: crossterm::event::KeyEvent) -> MenuOutcome {
        let Some(why) = self.refusal.as_mut() else {
            return MenuOutcome::Open;
        };
        match FormKey::of(key) {
            FormKey::Char(c) => why.push(c),
            FormKey::Digit(d) => why.push_str(&d.to_string()),
            FormKey::Backspace => {
                why.pop();
            }
            FormKey::Enter => {
                let note = why.trim().to_owned();
                return MenuOutcome::Decided(ApprovalDecision::Deny {
                    note: (!note.is_empty()).then_some(note),
                });
            }
            FormKey::Up | FormKey::Down | FormKey::Other => {}
        }
        MenuOutcome::Open
    }

    /// A key for a plan or questions form.
    fn form_key(&mut self, key: crossterm::event::KeyEvent, now: Instant) -> MenuOutcome {
        let key = FormKey::of(key);
        let outcome = match self.form.as_mut() {
            Some(Form::Plan(form)) => form.key(key),
            Some(Form::Questions(form)) => form.key(key),
            None => FormOutcome::Composer,
        };
        match outcome {
            FormOutcome::Open => MenuOutcome::Open,
            FormOutcome::Decided {
                mode: Some(mode),
                decision,
            } => MenuOutcome::DecidedInMode(mode, decision),
            FormOutcome::Decided {
                mode: None,
                decision,
            } => MenuOutcome::Decided(decision),
            FormOutcome::Composer => {
                self.typed(now);
                MenuOutcome::Composer
            }
        }
    }

    /// Handles a key pressed at `now`. Esc and Ctrl-C always refuse (the
    /// safe answer); digits 1–4 and ↑/↓ (Tab/Shift-Tab) pick, Enter
    /// confirms a picked choice; everything else, and every key while the
    /// menu is deaf, is [`MenuOutcome::Composer`].
    pub fn key(&mut self, key: crossterm::event::KeyEvent, now: Instant) -> MenuOutcome {
        use crossterm::event::{KeyCode, KeyModifiers};
        let ctrl_or_alt = key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        let n = CHOICES.len();
        match key.code {
            KeyCode::Esc => return MenuOutcome::Cancelled,
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                return MenuOutcome::Cancelled;
            }
            // A line the person chose to type in takes every key.
            _ if self.refusal.is_some() => return self.refusal_key(key),
            _ if self.typing() => return self.form_key(key, now),
            // Arrows would walk the composer's history over the draft:
            // while deaf they do nothing.
            KeyCode::Up | KeyCode::Down | KeyCode::Tab | KeyCode::BackTab
                if !self.listening(now) =>
            {
                return MenuOutcome::Open;
            }
            _ if !self.listening(now) => {
                self.typed(now);
                return MenuOutcome::Composer;
            }
            _ if self.form.is_some() => return self.form_key(key, now),
            _ => {}
        }
        match key.code {
            KeyCode::Up | KeyCode::BackTab => {
                self.selected = Some(self.selected.map_or(n - 1, |i| (i + n - 1) % n));
                MenuOutcome::Open
            }
            KeyCode::Down | KeyCode::Tab => {
                self.selected = Some(self.selected.map_or(0, |i| (i + 1) % n));
                MenuOutcome::Open
            }
            KeyCode::Char(c @ '1'..='4') if !ctrl_or_alt => {
                self.selected = Some(usize::from(c as u8 - b'1'));
                MenuOutcome::Open
            }
            KeyCode::Enter if key.modifiers.is_empty() => match self.selected {
                // "No": say why first (Enter again sends it as it is).
                Some(3) => {
                    self.refusal = Some(String::new());
                    MenuOutcome::Open
                }
                Some(i) => MenuOutcome::Decided(decision(i)),
                None => {
                    self.typed(now);
                    MenuOutcome::Composer
                }
            },
            _ => {
                self.typed(now);
                MenuOutcome::Composer
            }
        }
    }

    /// The menu's rows at `width`.
    pub fn lines(&self, width: u16) -> Vec<Line<'static>> {
        match &self.form {
            Some(Form::Plan(form)) => return form.lines(width),
            Some(Form::Questions(form)) => return form.lines(width),
            None => {}
        }
        let accent = Style::default().fg(Color::Magenta);
        let mut rows = Vec::new();
        let who = self
            .agent
            .as_deref()
            .map(|a| format!("[{}] ", clean(a)))
            .unwrap_or_default();
        rows.extend(wrap(
            Line::from(vec![
                Span::styled(
                    format!("? {who}{}", clean(&self.tool)),
                    accent.add_modifier(Modifier::BOLD),
                ),
                Span::styled(format!(" needs approval: {}", clean(&self.reason)), accent),
            ]),
            width,
            &[Span::raw("  ")],
        ));
        rows.extend(self.body(width));
        for (i, label) in CHOICES.iter().enumerate() {
            let label = if i == 1 || i == 2 {
                self.always.label(i)
            } else {
                (*label).to_owned()
            };
            let text = format!("{}. {label}", i + 1);
            let (mark, style) = if self.selected == Some(i) {
                (
                    "❯ ",
                    Style::default()
                        .fg(Color::Cyan)
                        .add_modifier(Modifier::BOLD),
                )
            } else {
                ("  ", Style::default())
            };
            rows.extend(wrap(
                Line::from(Span::styled(format!("{mark}{text}"), style)),
                width,
                &[Span::raw("     ")],
            ));
        }
        let hint = match &self.refusal {
            Some(why) => {
                rows.extend(wrap(
                    Line::from(vec![
                        Span::styled("     why (optional): ", Style::default().fg(Color::Cyan)),
                        Span::raw(clean(why)),
                        Span::styled("▏", Style::default().fg(Color::Cyan)),
                    ]),
                    width,
                    &[Span::raw("     ")],
                ));
                "  Enter refuses with it (or without) · Esc: refuse and stop"
            }
            None => "  1–4 or ↑/↓, then Enter · Esc or Ctrl-C: refuse and stop",
        };
        rows.push(Line::from(Span::styled(
            hint,
            Style::default().fg(Color::DarkGray),
        )));
        rows
    }

    /// The whole command, or the change as a diff, or the raw arguments.
    fn body(&self, width: u16) -> Vec<Line<'static>> {
        let value: serde_json::Value = serde_json::from_str(&self.arguments).unwrap_or_default();
        let text = |k: &str| value.get(k).and_then(|v| v.as_str());
        let max = crate::diff::MAX_ROWS;
        let code = Style::default().fg(Color::Cyan);
        let touched = self.touches.as_ref();
        let path = touched.and_then(Touches::subject_path);
        if let Some(command) = touched.and_then(|t| t.command.as_deref()) {
            return text_rows(command, code, width, "  ");
        }
        match self.tool.as_str() {
            "Edit" if text("old_string").is_some() => {
                let mut rows = path_row(path, width);
                rows.extend(crate::diff::proposed(
                    text("old_string").unwrap_or_default(),
                    text("new_string").unwrap_or_default(),
                    width,
                    max,
                ));
                rows
            }
            "MultiEdit" => {
                let mut rows = path_row(path, width);
                for edit in value
                    .get("edits")
                    .and_then(|e| e.as_array())
                    .into_iter()
                    .flatten()
                {
                    let get = |k: &str| edit.get(k).and_then(|v| v.as_str()).unwrap_or_default();
                    rows.extend(crate::diff::proposed(
                        get("old_string"),
                        get("new_string"),
                        width,
                        max,
                    ));
                }
                rows
            }
            "Write" if text("content").is_some() => {
                let mut rows = path_row(path, width);
                rows.extend(crate::diff::proposed(
                    "",
                    text("content").unwrap_or_default(),
                    width,
                    max,
                ));
                rows
            }
            _ => {
                let pretty = serde_json::to_string_pretty(&value)
                    .ok()
                    .filter(|_| !value.is_null())
                    .unwrap_or_else(|| self.arguments.clone());
                text_rows(&pretty, code, width, "  ")
            }
        }
    }
}

fn path_row(path: Option<&str>, width: u16) -> Vec<Line<'static>> {
    text_rows(
        path.unwrap_or_default(),
        Style::default().add_modifier(Modifier::BOLD),
        width,
        "  ",
    )
}

fn decision(i: usize) -> ApprovalDecision {
    match i {
        0 => ApprovalDecision::AllowOnce,
        1 => ApprovalDecision::AllowSession,
        2 => ApprovalDecision::AllowProject,
        _ => ApprovalDecision::Deny { note: None },
    }
}
