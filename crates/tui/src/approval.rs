//! The approval menu: what the model wants to run (the whole command, or
//! the edit as a diff) and four choices picked with ↑/↓/Enter or y/s/a/n.
//! The "always" choices show every rule they will save (one per part of a
//! command chain) and never promise to stop asking when the core says the
//! same call would still ask.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use wright_protocol::ApprovalDecision;

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
    reason: String,
    always: AlwaysOffer,
    selected: usize,
}

/// What the "always" choices save, from the approval event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AlwaysOffer {
    /// The rules saved (one per part of a command chain).
    pub rules: Vec<String>,
    /// Why the same call would still ask once they are saved.
    pub still_asks: Option<String>,
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
        }
    }

    /// The label of "always" choice `i` (1: this session, 2: the project).
    fn label(&self, i: usize) -> String {
        let rules = self
            .rules
            .iter()
            .map(|r| clean(r))
            .collect::<Vec<_>>()
            .join(", ");
        let base = CHOICES[i].0;
        let scope = if i == 1 {
            "this session"
        } else {
            "in this project"
        };
        match (&self.still_asks, rules.is_empty()) {
            (None, true) => base.to_owned(),
            (None, false) => format!("{base} ({rules})"),
            (Some(why), true) => format!("Yes, this once: no rule can be saved ({})", clean(why)),
            (Some(why), false) => format!(
                "Yes, and allow {rules} {scope}; it will still ask ({})",
                clean(why)
            ),
        }
    }
}

/// What a key does to the menu.
#[derive(Debug, Clone, PartialEq)]
pub enum MenuOutcome {
    /// Still open.
    Open,
    /// Answered.
    Decided(ApprovalDecision),
    /// Refused and the turn is to stop (Esc, Ctrl-C).
    Cancelled,
}

const CHOICES: [(&str, char); 4] = [
    ("Yes", 'y'),
    ("Yes, and don't ask again this session", 's'),
    ("Always allow in this project", 'a'),
    ("No", 'n'),
];

impl ApprovalMenu {
    /// A menu for one request.
    pub fn new(
        id: String,
        agent: Option<String>,
        tool: String,
        arguments: String,
        reason: String,
        always: AlwaysOffer,
    ) -> Self {
        Self {
            id,
            agent,
            tool,
            arguments,
            reason,
            always,
            selected: 0,
        }
    }

    /// Handles a key.
    pub fn key(&mut self, key: crossterm::event::KeyEvent) -> MenuOutcome {
        use crossterm::event::{KeyCode, KeyModifiers};
        let pick = |i: usize| MenuOutcome::Decided(decision(i));
        match key.code {
            KeyCode::Up | KeyCode::BackTab => {
                self.selected = (self.selected + CHOICES.len() - 1) % CHOICES.len();
                MenuOutcome::Open
            }
            KeyCode::Down | KeyCode::Tab => {
                self.selected = (self.selected + 1) % CHOICES.len();
                MenuOutcome::Open
            }
            KeyCode::Enter => pick(self.selected),
            KeyCode::Esc => MenuOutcome::Cancelled,
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                MenuOutcome::Cancelled
            }
            KeyCode::Char(c) => match CHOICES
                .iter()
                .position(|(_, k)| *k == c.to_ascii_lowercase())
            {
                Some(i) => pick(i),
                None => match c {
                    '1'..='4' => pick(usize::from(c as u8 - b'1')),
                    _ => MenuOutcome::Open,
                },
            },
            _ => MenuOutcome::Open,
        }
    }

    /// The menu's rows at `width`.
    pub fn lines(&self, width: u16) -> Vec<Line<'static>> {
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
        for (i, (label, key)) in CHOICES.iter().enumerate() {
            let label = if i == 1 || i == 2 {
                self.always.label(i)
            } else {
                (*label).to_owned()
            };
            let text = format!("{}. {label}  [{key}]", i + 1);
            let (mark, style) = if i == self.selected {
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
        rows.push(Line::from(Span::styled(
            "  Esc or Ctrl-C: refuse and stop",
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
        match self.tool.as_str() {
            "Bash" if text("command").is_some() => {
                text_rows(text("command").unwrap_or_default(), code, width, "  ")
            }
            "Edit" if text("old_string").is_some() => {
                let mut rows = path_row(text("file_path"), width);
                rows.extend(crate::diff::proposed(
                    text("old_string").unwrap_or_default(),
                    text("new_string").unwrap_or_default(),
                    width,
                    max,
                ));
                rows
            }
            "MultiEdit" => {
                let mut rows = path_row(text("file_path"), width);
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
                let mut rows = path_row(text("file_path"), width);
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
