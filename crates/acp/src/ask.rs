//! A plan to approve and the model's questions as ACP permission requests,
//! the only question ACP has: a plan's options switch the session mode
//! (accept edits, ask before edits, keep planning), and each of the model's
//! questions is a request of its own whose options are its labels.
//! Answers map back to the core's decisions as the terminal UI's do.

use agent_client_protocol::v1::schema::{PermissionOption, PermissionOptionKind};
use serde_json::Value;
use wright_protocol::ApprovalDecision;

/// A plan approved for accept-edits.
const PLAN_ACCEPT_EDITS: &str = "plan_accept_edits";
/// A plan approved; edits ask.
const PLAN_DEFAULT: &str = "plan_default";
/// Keep planning.
const PLAN_KEEP: &str = "plan_keep";
/// No answer to a question.
const SKIP: &str = "skip";

/// What a permission request asks besides a yes or no on a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Form {
    /// `ExitPlanMode`: carry out the plan?
    Plan,
    /// `AskUserQuestion`: its questions, asked one after another.
    Questions(Vec<Question>),
}

/// One of the model's questions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// The question's text (the key of its answer).
    pub text: String,
    labels: Vec<(String, String)>,
}

/// The form for a call of `tool` with `arguments`, if it is one.
pub fn form(tool: &str, arguments: &str) -> Option<Form> {
    match tool {
        "ExitPlanMode" => Some(Form::Plan),
        "AskUserQuestion" => {
            let value: Value = serde_json::from_str(arguments).ok()?;
            let text = |v: &Value, k: &str| {
                v.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            let questions: Vec<Question> = value
                .get("questions")?
                .as_array()?
                .iter()
                .map(|q| Question {
                    text: text(q, "question"),
                    labels: q
                        .get("options")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .map(|o| (text(o, "label"), text(o, "description")))
                        .collect(),
                })
                .collect();
            (!questions.is_empty() && questions.iter().all(|q| !q.labels.is_empty()))
                .then_some(Form::Questions(questions))
        }
        _ => None,
    }
}

/// The options of a plan's request.
pub fn plan_options() -> Vec<PermissionOption> {
    vec![
        PermissionOption::new(
            PLAN_ACCEPT_EDITS,
            "Yes, and accept edits",
            PermissionOptionKind::AllowAlways,
        ),
        PermissionOption::new(
            PLAN_DEFAULT,
            "Yes, and ask before edits",
            PermissionOptionKind::AllowOnce,
        ),
        PermissionOption::new(
            PLAN_KEEP,
            "No, keep planning",
            PermissionOptionKind::RejectOnce,
        ),
    ]
}

/// The mode to switch to and the decision for the option chosen for a
/// plan (`None`: the request was cancelled or failed, which refuses).
pub fn plan_answer(option: Option<&str>) -> (Option<&'static str>, ApprovalDecision) {
    match option {
        Some(PLAN_ACCEPT_EDITS) => (Some("accept-edits"), ApprovalDecision::AllowOnce),
        Some(PLAN_DEFAULT) => (None, ApprovalDecision::AllowOnce),
        _ => (None, ApprovalDecision::Deny { note: None }),
    }
}

impl Question {
    /// The options of this question's request: its labels, then "skip".
    pub fn options(&self) -> Vec<PermissionOption> {
        let mut options: Vec<PermissionOption> = self
            .labels
            .iter()
            .enumerate()
            .map(|(i, (label, description))| {
                let name = if description.is_empty() {
                    label.clone()
                } else {
                    format!("{label} — {description}")
                };
                PermissionOption::new(format!("answer_{i}"), name, PermissionOptionKind::AllowOnce)
            })
            .collect();
        options.push(PermissionOption::new(
            SKIP,
            "Skip (let the agent decide)",
            PermissionOptionKind::RejectOnce,
        ));
        options
    }

    /// The label the option chosen names (`None`: skipped or cancelled).
    pub fn answer(&self, option: Option<&str>) -> Option<String> {
        let i: usize = option?.strip_prefix("answer_")?.parse().ok()?;
        self.labels.get(i).map(|(label, _)| label.clone())
    }
}

/// The decision that sends `answers` back with the call's input; a
/// question left unanswered refuses the whole call.
pub fn answered(
    arguments: &str,
    answers: Option<serde_json::Map<String, Value>>,
) -> ApprovalDecision {
    let Some(answers) = answers else {
        return ApprovalDecision::Deny { note: None };
    };
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
    fn a_plans_options_switch_the_mode_or_keep_planning() {
        assert_eq!(form("ExitPlanMode", "{}"), Some(Form::Plan));
        let ids: Vec<String> = plan_options()
            .iter()
            .map(|o| o.option_id.to_string())
            .collect();
        assert_eq!(ids, [PLAN_ACCEPT_EDITS, PLAN_DEFAULT, PLAN_KEEP]);
        assert_eq!(
            plan_answer(Some(PLAN_ACCEPT_EDITS)),
            (Some("accept-edits"), ApprovalDecision::AllowOnce)
        );
        assert_eq!(
            plan_answer(Some(PLAN_DEFAULT)),
            (None, ApprovalDecision::AllowOnce)
        );
        for refused in [Some(PLAN_KEEP), Some("allow_once"), None] {
            assert!(matches!(
                plan_answer(refused).1,
                ApprovalDecision::Deny { .. }
            ));
        }
    }

    #[test]
    fn each_question_offers_its_labels_and_a_skip() {
        let args = r#"{"questions":[{"question":"Which database?","header":"DB","multiSelect":false,
            "options":[{"label":"SQLite","description":"a file"},{"label":"Postgres","description":""}]}]}"#;
        let Some(Form::Questions(qs)) = form("AskUserQuestion", args) else {
            panic!("no form")
        };
        let names: Vec<String> = qs[0].options().iter().map(|o| o.name.clone()).collect();
        assert_eq!(
            names,
            ["SQLite — a file", "Postgres", "Skip (let the agent decide)"]
        );
        assert_eq!(qs[0].answer(Some("answer_1")).as_deref(), Some("Postgres"));
        assert_eq!(qs[0].answer(Some("answer_7")), None);
        assert_eq!(qs[0].answer(Some(SKIP)), None);
        assert_eq!(qs[0].answer(None), None);
        let answers = serde_json::Map::from_iter([(qs[0].text.clone(), Value::from("Postgres"))]);
        let ApprovalDecision::AllowWithInput { input } = answered(args, Some(answers)) else {
            panic!()
        };
        let input: Value = serde_json::from_str(&input).unwrap();
        assert_eq!(input["answers"]["Which database?"], "Postgres");
        assert!(matches!(
            answered(args, None),
            ApprovalDecision::Deny { .. }
        ));
        assert_eq!(form("AskUserQuestion", "{}"), None);
        assert_eq!(form("Bash", "{}"), None);
    }
}
