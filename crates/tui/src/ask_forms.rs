//! The approval menu's two forms that are not about a tool call: a plan
//! to approve (`ExitPlanMode`: carry it out accepting edits, carry it out
//! asking, or keep planning with feedback) and the model's questions
//! (`AskUserQuestion`: numbered options, toggled when several may be
//! chosen, or an answer in one's own words). Like every approval they take
//! digits, arrows and Enter, never letters, until a choice opens a line to
//! type in.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use wright_protocol::ApprovalDecision;

use crate::cells::clean;
use crate::wrap::wrap;

/// What a key did to a form.
#[derive(Debug, Clone, PartialEq)]
pub enum FormOutcome {
    /// Still open.
    Open,
    /// Answered; `mode` is switched to first when set.
    Decided {
        /// The permission mode to switch to before the answer lands.
        mode: Option<String>,
        /// The answer.
        decision: ApprovalDecision,
    },
    /// Not a key for the form: it belongs to the composer.
    Composer,
}

/// Keys as a form sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormKey {
    /// A digit 1–9.
    Digit(usize),
    /// ↑ or Shift-Tab.
    Up,
    /// ↓ or Tab.
    Down,
    /// Enter without modifiers.
    Enter,
    /// Backspace.
    Backspace,
    /// A printable character (only a line being typed takes it).
    Char(char),
    /// Anything else.
    Other,
}

impl FormKey {
    /// The form's reading of a terminal key.
    pub fn of(key: crossterm::event::KeyEvent) -> Self {
        use crossterm::event::{KeyCode, KeyModifiers};
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match key.code {
            KeyCode::Up | KeyCode::BackTab => Self::Up,
            KeyCode::Down | KeyCode::Tab => Self::Down,
            KeyCode::Enter if key.modifiers.is_empty() => Self::Enter,
            KeyCode::Backspace => Self::Backspace,
            KeyCode::Char(c) if plain => match c.to_digit(10) {
                Some(d @ 1..=9) => Self::Digit(d as usize),
                _ => Self::Char(c),
            },
            _ => Self::Other,
        }
    }
}

/// A line being typed in a form (the plan's feedback, an own answer).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct TypedLine(String);

impl TypedLine {
    /// Applies `key`; `true` when it was Enter.
    fn key(&mut self, key: FormKey) -> bool {
        match key {
            FormKey::Char(c) => self.0.push(c),
            FormKey::Digit(d) => self.0.push_str(&d.to_string()),
            FormKey::Backspace => {
                self.0.pop();
            }
            FormKey::Enter => return true,
            FormKey::Up | FormKey::Down | FormKey::Other => {}
        }
        false
    }

    fn row(&self, label: &str, width: u16) -> Vec<Line<'static>> {
        wrap(
            Line::from(vec![
                Span::styled(format!("     {label}: "), Style::default().fg(Color::Cyan)),
                Span::raw(clean(&self.0)),
                Span::styled("▏", Style::default().fg(Color::Cyan)),
            ]),
            width,
            &[Span::raw("     ")],
        )
    }
}

fn choice_row(i: usize, label: &str, selected: bool, width: u16) -> Vec<Line<'static>> {
    let (mark, style) = if selected {
        (
            "❯ ",
            Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
        )
    } else {
        ("  ", Style::default())
    };
    wrap(
        Line::from(Span::styled(format!("{mark}{}. {label}", i + 1), style)),
        width,
        &[Span::raw("     ")],
    )
}

fn hint(text: &str) -> Line<'static> {
    Line::from(Span::styled(
        format!("  {text}"),
        Style::default().fg(Color::DarkGray),
    ))
}

fn step(selected: Option<usize>, n: usize, key: FormKey) -> Option<usize> {
    match key {
        FormKey::Up => Some(selected.map_or(n - 1, |i| (i + n - 1) % n)),
        FormKey::Down => Some(selected.map_or(0, |i| (i + 1) % n)),
        FormKey::Digit(d) if d <= n => Some(d - 1),
        _ => selected,
    }
}

const PLAN_CHOICES: [&str; 3] = [
    "Yes, and accept edits",
    "Yes, and ask before each edit",
    "No, keep planning (say what to change)",
];

/// A plan to approve; the plan itself is in the transcript above.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanForm {
    selected: Option<usize>,
    /// The feedback being typed, once "keep planning" was confirmed.
    feedback: Option<TypedLine>,
}

impl PlanForm {
    /// Applies `key`.
    pub fn key(&mut self, key: FormKey) -> FormOutcome {
        if let Some(line) = self.feedback.as_mut() {
            if line.key(key) {
                let note = line.0.trim().to_owned();
                return FormOutcome::Decided {
                    mode: None,
                    decision: ApprovalDecision::Deny {
                        note: (!note.is_empty()).then_some(note),
                    },
                };
            }
            return FormOutcome::Open;
        }
        match key {
            // A digit past the choices is typing, not an answer.
            FormKey::Digit(d) if d > PLAN_CHOICES.len() => FormOutcome::Composer,
            FormKey::Up | FormKey::Down | FormKey::Digit(_) => {
                self.selected = step(self.selected, PLAN_CHOICES.len(), key);
                FormOutcome::Open
            }
            FormKey::Enter => match self.selected {
                Some(0) => FormOutcome::Decided {
                    mode: Some("accept-edits".to_owned()),
                    decision: ApprovalDecision::AllowOnce,
                },
                Some(1) => FormOutcome::Decided {
                    mode: None,
                    decision: ApprovalDecision::AllowOnce,
                },
                Some(_) => {
                    self.feedback = Some(TypedLine::default());
                    FormOutcome::Open
                }
                None => FormOutcome::Composer,
            },
            _ => FormOutcome::Composer,
        }
    }

    /// Whether keys now go to the feedback line (not the composer).
    pub fn typing(&self) -> bool {
        self.feedback.is_some()
    }

    /// A typed key went to the composer: a picked choice is forgotten.
    pub fn forget(&mut self) {
        self.selected = None;
    }

    /// The form's rows at `width`.
    pub fn lines(&self, width: u16) -> Vec<Line<'static>> {
        let accent = Style::default().fg(Color::Magenta);
        let mut rows = wrap(
            Line::from(Span::styled(
                "? The plan above is ready. Carry it out?",
                accent.add_modifier(Modifier::BOLD),
            )),
            width,
            &[Span::raw("  ")],
        );
        for (i, label) in PLAN_CHOICES.iter().enumerate() {
            rows.extend(choice_row(i, label, self.selected == Some(i), width));
        }
        match &self.feedback {
            Some(line) => {
                rows.extend(line.row("what to change", width));
                rows.push(hint("Enter sends it · Esc: refuse and stop"));
            }
            None => rows.push(hint("1–3 or ↑/↓, then Enter · Esc: refuse and stop")),
        }
        rows
    }
}

/// One of the model's questions.
#[derive(Debug, Clone, PartialEq, Eq)]
struct AskedQuestion {
    question: String,
    header: String,
    options: Vec<(String, String)>,
    multi: bool,
}

/// The model's questions, one at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct QuestionForm {
    /// The call's input, sent back with `answers` added.
    input: serde_json::Value,
    questions: Vec<AskedQuestion>,
    /// The question on screen.
    index: usize,
    /// The highlighted row (an option, or the own-answer row after them).
    selected: Option<usize>,
    /// Options toggled on (several may be chosen).
    toggled: Vec<bool>,
    /// The own answer being typed.
    own: Option<TypedLine>,
    answers: serde_json::Map<String, serde_json::Value>,
}

impl QuestionForm {
    /// The form for an `AskUserQuestion` call's arguments; `None` when they
    /// do not hold a question with options (the core refuses such a call
    /// before asking, so this is a fallback to the plain menu).
    pub fn parse(arguments: &str) -> Option<Self> {
        let input: serde_json::Value = serde_json::from_str(arguments).ok()?;
        let text = |v: &serde_json::Value, k: &str| {
            v.get(k)
                .and_then(serde_json::Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let questions: Vec<AskedQuestion> = input
            .get("questions")?
            .as_array()?
            .iter()
            .map(|q| AskedQuestion {
                question: text(q, "question"),
                header: text(q, "header"),
                options: q
                    .get("options")
                    .and_then(serde_json::Value::as_array)
                    .into_iter()
                    .flatten()
                    .map(|o| (text(o, "label"), text(o, "description")))
                    .collect(),
                multi: q
                    .get("multiSelect")
                    .and_then(serde_json::Value::as_bool)
                    .unwrap_or(false),
            })
            .collect();
        if questions.is_empty() || questions.iter().any(|q| q.options.is_empty()) {
            return None;
        }
        let toggled = vec![false; questions[0].options.len()];
        Some(Self {
            input,
            questions,
            index: 0,
            selected: None,
            toggled,
            own: None,
            answers: serde_json::Map::new(),
        })
    }

    /// The question on screen (callers check that one is left).
    fn current(&self) -> &AskedQuestion {
        let last = self.questions.len().saturating_sub(1);
        &self.questions[self.index.min(last)]
    }

    /// Whether keys now go to the own-answer line.
    pub fn typing(&self) -> bool {
        self.own.is_some()
    }

    /// A typed key went to the composer: a highlighted choice is forgotten.
    pub fn forget(&mut self) {
        self.selected = None;
    }

    /// Records the answer to the question on screen and moves on; the
    /// decision once every question is answered.
    fn answer(&mut self, answer: String) -> FormOutcome {
        let question = self.current().question.clone();
        self.answers
            .insert(question, serde_json::Value::String(answer));
        self.index += 1;
        if self.index < self.questions.len() {
            self.selected = None;
            self.toggled = vec![false; self.current().options.len()];
            return FormOutcome::Open;
        }
        let mut input = self.input.clone();
        if let Some(object) = input.as_object_mut() {
            object.insert(
                "answers".to_owned(),
                serde_json::Value::Object(self.answers.clone()),
            );
        }
        FormOutcome::Decided {
            mode: None,
            decision: ApprovalDecision::AllowWithInput {
                input: input.to_string(),
            },
        }
    }

    /// Applies `key`.
    pub fn key(&mut self, key: FormKey) -> FormOutcome {
        // Every question answered: the menu is gone (nothing to apply).
        if self.index >= self.questions.len() {
            return FormOutcome::Open;
        }
        if let Some(line) = self.own.as_mut() {
            if line.key(key) {
                let typed = line.0.trim().to_owned();
                if typed.is_empty() {
                    return FormOutcome::Open;
                }
                self.own = None;
                return self.answer(typed);
            }
            return FormOutcome::Open;
        }
        let options = self.current().options.len();
        let rows = options + 1;
        match key {
            FormKey::Digit(d) if d > rows => FormOutcome::Composer,
            FormKey::Up | FormKey::Down | FormKey::Digit(_) => {
                let picked = step(self.selected, rows, key);
                self.selected = picked;
                if let (FormKey::Digit(_), Some(i)) = (key, picked)
                    && self.current().multi
                    && i < options
                {
                    self.toggled[i] = !self.toggled[i];
                }
                FormOutcome::Open
            }
            FormKey::Enter => match self.selected {
                Some(i) if i == options => {
                    self.own = Some(TypedLine::default());
                    FormOutcome::Open
                }
                Some(i) if !self.current().multi => {
                    let label = self.current().options[i].0.clone();
                    self.answer(label)
                }
                Some(i) => {
                    // Enter on a highlighted option with nothing toggled
                    // takes that option.
                    if !self.toggled.iter().any(|t| *t) {
                        self.toggled[i] = true;
                    }
                    let chosen: Vec<String> = self
                        .current()
                        .options
                        .iter()
                        .zip(&self.toggled)
                        .filter(|(_, on)| **on)
                        .map(|((label, _), _)| label.clone())
                        .collect();
                    self.answer(chosen.join(", "))
                }
                None => FormOutcome::Composer,
            },
            _ => FormOutcome::Composer,
        }
    }

    /// The form's rows at `width`.
    pub fn lines(&self, width: u16) -> Vec<Line<'static>> {
        let accent = Style::default().fg(Color::Magenta);
        let Some(q) = self.questions.get(self.index) else {
            return Vec::new();
        };
        let count = if self.questions.len() > 1 {
            format!(" ({} of {})", self.index + 1, self.questions.len())
        } else {
            String::new()
        };
        let header = if q.header.is_empty() {
            String::new()
        } else {
            format!("[{}] ", clean(&q.header))
        };
        let mut rows = wrap(
            Line::from(vec![
                Span::styled(
                    format!("? {header}{}", clean(&q.question)),
                    accent.add_modifier(Modifier::BOLD),
                ),
                Span::styled(count, accent),
            ]),
            width,
            &[Span::raw("  ")],
        );
        for (i, (label, description)) in q.options.iter().enumerate() {
            let boxed = if q.multi {
                if self.toggled[i] { "[x] " } else { "[ ] " }
            } else {
                ""
            };
            let text = if description.is_empty() {
                format!("{boxed}{}", clean(label))
            } else {
                format!("{boxed}{} — {}", clean(label), clean(description))
            };
            rows.extend(choice_row(i, &text, self.selected == Some(i), width));
        }
        let own = q.options.len();
        rows.extend(choice_row(
            own,
            "Answer in your own words",
            self.selected == Some(own),
            width,
        ));
        match &self.own {
            Some(line) => {
                rows.extend(line.row("your answer", width));
                rows.push(hint("Enter sends it · Esc: refuse and stop"));
            }
            None if q.multi => rows.push(hint(&format!(
                "1–{} toggles, Enter confirms · Esc: refuse and stop",
                own + 1
            ))),
            None => rows.push(hint(&format!(
                "1–{} or ↑/↓, then Enter · Esc: refuse and stop",
                own + 1
            ))),
        }
        rows
    }

    /// The form's rows as plain text.
    #[cfg(test)]
    fn plain(&self, width: u16) -> String {
        self.lines(width)
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUESTIONS: &str = r#"{"questions":[
        {"question":"Which database?","header":"DB","multiSelect":false,
         "options":[{"label":"SQLite","description":"a file"},{"label":"Postgres","description":"a server"}]},
        {"question":"Which extras?","header":"Extras","multiSelect":true,
         "options":[{"label":"Cache","description":""},{"label":"Queue","description":""},{"label":"Mail","description":""}]}]}"#;

    fn answers(outcome: FormOutcome) -> serde_json::Value {
        match outcome {
            FormOutcome::Decided {
                decision: ApprovalDecision::AllowWithInput { input },
                ..
            } => serde_json::from_str::<serde_json::Value>(&input).unwrap()["answers"].clone(),
            other => panic!("not answered: {other:?}"),
        }
    }

    #[test]
    fn plan_choices_approve_for_a_mode_or_keep_planning_with_feedback() {
        let mut form = PlanForm::default();
        assert_eq!(
            form.key(FormKey::Enter),
            FormOutcome::Composer,
            "nothing picked"
        );
        assert_eq!(form.key(FormKey::Digit(1)), FormOutcome::Open);
        assert_eq!(
            form.key(FormKey::Enter),
            FormOutcome::Decided {
                mode: Some("accept-edits".into()),
                decision: ApprovalDecision::AllowOnce
            }
        );
        let mut form = PlanForm::default();
        form.key(FormKey::Digit(2));
        assert_eq!(
            form.key(FormKey::Enter),
            FormOutcome::Decided {
                mode: None,
                decision: ApprovalDecision::AllowOnce
            }
        );
        let mut form = PlanForm::default();
        assert_eq!(form.key(FormKey::Digit(7)), FormOutcome::Composer);
        assert_eq!(form.key(FormKey::Char('y')), FormOutcome::Composer);
        form.key(FormKey::Digit(3));
        assert_eq!(form.key(FormKey::Enter), FormOutcome::Open);
        assert!(form.typing());
        for c in "use b.rs".chars() {
            form.key(FormKey::Char(c));
        }
        form.key(FormKey::Backspace);
        form.key(FormKey::Char('s'));
        let rows: String = form
            .lines(80)
            .iter()
            .flat_map(|l| l.spans.iter().map(|s| s.content.to_string()))
            .collect();
        assert!(rows.contains("what to change: use b.rs"), "{rows}");
        assert_eq!(
            form.key(FormKey::Enter),
            FormOutcome::Decided {
                mode: None,
                decision: ApprovalDecision::Deny {
                    note: Some("use b.rs".into())
                }
            }
        );
    }

    #[test]
    fn questions_are_answered_one_after_another_with_toggles_for_several() {
        let mut form = QuestionForm::parse(QUESTIONS).unwrap();
        let shown = form.plain(80);
        assert!(shown.contains("[DB] Which database? (1 of 2)"), "{shown}");
        assert!(shown.contains("2. Postgres — a server"), "{shown}");
        assert!(shown.contains("3. Answer in your own words"), "{shown}");
        assert_eq!(form.key(FormKey::Char('2')), FormOutcome::Composer);
        form.key(FormKey::Digit(2));
        assert_eq!(form.key(FormKey::Enter), FormOutcome::Open);
        assert!(form.plain(80).contains("[ ] Cache"));
        form.key(FormKey::Digit(1));
        form.key(FormKey::Digit(3));
        form.key(FormKey::Digit(1));
        form.key(FormKey::Digit(1));
        assert!(form.plain(80).contains("[x] Cache"));
        let answers = answers(form.key(FormKey::Enter));
        assert_eq!(
            answers,
            serde_json::json!({"Which database?": "Postgres", "Which extras?": "Cache, Mail"})
        );
    }

    #[test]
    fn an_own_answer_is_typed_and_the_input_goes_back_with_the_answers() {
        let one = r#"{"questions":[{"question":"Name?","header":"","multiSelect":false,
            "options":[{"label":"a","description":""},{"label":"b","description":""}]}]}"#;
        let mut form = QuestionForm::parse(one).unwrap();
        form.key(FormKey::Digit(3));
        form.key(FormKey::Enter);
        assert!(form.typing());
        assert_eq!(form.key(FormKey::Enter), FormOutcome::Open, "empty answer");
        for c in "zed 2".chars() {
            form.key(if c == '2' {
                FormKey::Digit(2)
            } else {
                FormKey::Char(c)
            });
        }
        let outcome = form.key(FormKey::Enter);
        let FormOutcome::Decided {
            decision: ApprovalDecision::AllowWithInput { input },
            ..
        } = outcome
        else {
            panic!("{outcome:?}")
        };
        let input: serde_json::Value = serde_json::from_str(&input).unwrap();
        assert_eq!(input["answers"]["Name?"], "zed 2");
        assert_eq!(input["questions"][0]["question"], "Name?");
    }

    #[test]
    fn arguments_without_questions_are_not_a_form() {
        assert!(QuestionForm::parse("{}").is_none());
        assert!(QuestionForm::parse("not json").is_none());
        assert!(QuestionForm::parse(r#"{"questions":[{"question":"q","options":[]}]}"#).is_none());
    }
}
