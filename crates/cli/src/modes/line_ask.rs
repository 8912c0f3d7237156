//! The line mode's plan approval and the model's questions: what is
//! printed for them and which typed line answers them. As with a call's
//! approval, only a number (with a note after `:` where one is asked for)
//! answers; the loop that waits for the line is the line mode's own.

use serde_json::Value;
use wright_protocol::ApprovalDecision;

use crate::render::escape_controls;

/// What a line answered: the mode to switch to first, and the decision.
pub type Answer = (Option<String>, ApprovalDecision);

/// The prompt under a plan.
pub const PLAN_PROMPT: &str = "  carry out the plan? 1 yes, and accept edits · 2 yes, and ask before edits · \
     3 no, keep planning (3: what to change) — the number, then Enter › ";

/// The plan as printed above its question.
pub fn plan_text(arguments: &str) -> String {
    let value: Value = serde_json::from_str(arguments).unwrap_or_default();
    let plan = value
        .get("plan")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let body: Vec<String> = plan
        .lines()
        .map(|l| format!("  {}", escape_controls(l)))
        .collect();
    format!("Plan:\n{}", body.join("\n"))
}

/// The answer a line gives to a plan.
pub fn plan_answer(line: &str) -> Option<Answer> {
    let (number, note) = split_note(line);
    match (number, note) {
        ("1", None) => Some((Some("accept-edits".to_owned()), ApprovalDecision::AllowOnce)),
        ("2", None) => Some((None, ApprovalDecision::AllowOnce)),
        ("3", note) => Some((
            None,
            ApprovalDecision::Deny {
                note: note.filter(|n| !n.is_empty()).map(str::to_owned),
            },
        )),
        _ => None,
    }
}

fn split_note(line: &str) -> (&str, Option<&str>) {
    line.trim()
        .split_once(':')
        .map_or((line.trim(), None), |(n, note)| {
            (n.trim(), Some(note.trim()))
        })
}

/// One of the model's questions as the line mode asks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineQuestion {
    question: String,
    header: String,
    options: Vec<(String, String)>,
    multi: bool,
}

/// The questions of an `AskUserQuestion` call (none when its arguments
/// hold no question with options).
pub fn questions(arguments: &str) -> Vec<LineQuestion> {
    let value: Value = serde_json::from_str(arguments).unwrap_or_default();
    let text = |v: &Value, k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let list: Vec<LineQuestion> = value
        .get("questions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|q| LineQuestion {
            question: text(q, "question"),
            header: text(q, "header"),
            options: q
                .get("options")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|o| (text(o, "label"), text(o, "description")))
                .collect(),
            multi: q
                .get("multiSelect")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        })
        .collect();
    if list.iter().any(|q| q.options.is_empty()) {
        return Vec::new();
    }
    list
}

impl LineQuestion {
    /// The question and its numbered options, as printed.
    pub fn text(&self) -> String {
        let header = if self.header.is_empty() {
            String::new()
        } else {
            format!("[{}] ", escape_controls(&self.header))
        };
        let mut out = format!("? {header}{}", escape_controls(&self.question));
        for (i, (label, description)) in self.options.iter().enumerate() {
            out.push_str(&format!("\n  {}. {}", i + 1, escape_controls(label)));
            if !description.is_empty() {
                out.push_str(&format!(" — {}", escape_controls(description)));
            }
        }
        let own = self.options.len() + 1;
        out.push_str(&format!("\n  {own}. your own words ({own}: the answer)"));
        out
    }

    /// The prompt under it.
    pub fn prompt(&self) -> String {
        if self.multi {
            "  the numbers (several: 1,3), then Enter › ".to_owned()
        } else {
            "  the number, then Enter › ".to_owned()
        }
    }

    /// The question's text (the key of its answer).
    pub fn question(&self) -> &str {
        &self.question
    }

    /// The answer a line gives: the chosen labels (joined by ", ") or the
    /// person's own words.
    pub fn answer(&self, line: &str) -> Option<String> {
        let own = self.options.len() + 1;
        let (number, note) = split_note(line);
        if number == own.to_string() {
            return note.filter(|n| !n.is_empty()).map(str::to_owned);
        }
        if note.is_some() {
            return None;
        }
        let mut picked = Vec::new();
        for part in number.split(',') {
            let i: usize = part.trim().parse().ok()?;
            let (label, _) = self.options.get(i.checked_sub(1)?)?;
            if !picked.contains(label) {
                picked.push(label.clone());
            }
        }
        match picked.len() {
            0 => None,
            1 => picked.pop(),
            _ if self.multi => Some(picked.join(", ")),
            _ => None,
        }
    }
}

/// The decision that sends `answers` back with the call's input.
pub fn answered(arguments: &str, answers: serde_json::Map<String, Value>) -> ApprovalDecision {
    let mut input: Value = serde_json::from_str(arguments).unwrap_or_default();
    if let Some(object) = input.as_object_mut() {
        object.insert("answers".to_owned(), Value::Object(answers));
    }
    ApprovalDecision::AllowWithInput {
        input: input.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_is_answered_by_its_number_and_3_takes_feedback() {
        assert_eq!(
            plan_answer("1"),
            Some((Some("accept-edits".into()), ApprovalDecision::AllowOnce))
        );
        assert_eq!(
            plan_answer(" 2 "),
            Some((None, ApprovalDecision::AllowOnce))
        );
        assert_eq!(
            plan_answer("3: smaller steps"),
            Some((
                None,
                ApprovalDecision::Deny {
                    note: Some("smaller steps".into())
                }
            ))
        );
        for no in ["yes", "1: why", "4", "", "approve"] {
            assert_eq!(plan_answer(no), None, "{no:?}");
        }
        let shown = plan_text(r#"{"plan":"1. Edit\n2. \u001b[2JTest"}"#);
        assert!(shown.starts_with("Plan:\n  1. Edit\n  2. "), "{shown}");
        assert!(!shown.contains('\u{1b}'));
    }

    #[test]
    fn questions_take_numbers_several_when_allowed_or_own_words() {
        let qs = questions(
            r#"{"questions":[
            {"question":"Which database?","header":"DB","multiSelect":false,
             "options":[{"label":"SQLite","description":"a file"},{"label":"Postgres","description":""}]},
            {"question":"Extras?","header":"","multiSelect":true,
             "options":[{"label":"Cache","description":""},{"label":"Queue","description":""}]}]}"#,
        );
        assert_eq!(qs.len(), 2);
        let text = qs[0].text();
        assert!(
            text.contains(
                "? [DB] Which database?\n  1. SQLite — a file\n  2. Postgres\n  3. your own words"
            ),
            "{text}"
        );
        assert_eq!(qs[0].answer("2").as_deref(), Some("Postgres"));
        assert_eq!(qs[0].answer("1,2"), None, "one choice only");
        assert_eq!(qs[0].answer("3: MySQL").as_deref(), Some("MySQL"));
        assert_eq!(qs[0].answer("3"), None);
        assert_eq!(qs[0].answer("Postgres"), None);
        assert_eq!(qs[0].answer("9"), None);
        assert_eq!(qs[1].answer("2, 1").as_deref(), Some("Queue, Cache"));
        assert!(questions("{}").is_empty());
        let ApprovalDecision::AllowWithInput { input } = answered(
            r#"{"questions":[]}"#,
            serde_json::Map::from_iter([("Q".to_owned(), Value::from("A"))]),
        ) else {
            panic!()
        };
        let input: Value = serde_json::from_str(&input).unwrap();
        assert_eq!(
            input,
            serde_json::json!({"answers": {"Q": "A"}, "questions": []})
        );
    }
}
