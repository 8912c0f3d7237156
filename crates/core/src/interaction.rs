//! The tools that ask the person rather than act: `ExitPlanMode` (a plan
//! to approve, offered in plan mode) and `AskUserQuestion` (a structured
//! question with options, offered when someone can answer). They change
//! nothing themselves; the question goes to the front end as an
//! `ApprovalRequested` for the tool, so the terminal UI, line mode, a
//! stream-json program's `can_use_tool` and an ACP client's permission
//! request all carry it, as Claude Code's SDK carries them.
//!
//! A plan with nobody to approve it (a headless `-p --permission-mode
//! plan` run) is the run's result: the turn ends there and nothing after
//! it runs.

use serde::Deserialize;
use tokio_util::sync::CancellationToken;
use wright_permissions::Mode;
use wright_protocol::{ApprovalDecision, ToolKind, ToolSpec, Touches};
use wright_tools::{Tool, ToolContext, ToolError, ToolOutput};

use crate::approval::Question;
use crate::context::TurnContext;

/// The plan tool's name (Claude Code's).
pub(crate) const EXIT_PLAN: &str = "ExitPlanMode";
/// The question tool's name (Claude Code's).
pub(crate) const ASK: &str = "AskUserQuestion";

/// Told to the model in every request of a turn that starts in plan mode.
pub(crate) const PLAN_MODE_NOTE: &str = "\n\nPlan mode is on: you are planning, not changing \
anything. Read, search and run read-only commands to understand the task; the edit tools are not \
available and commands cannot write. When the plan is ready, call ExitPlanMode with the plan in \
Markdown (the steps, the files each touches, how the result will be checked). The user approves \
it or asks you to keep planning; only after approval do you carry it out.";

const QUESTIONS_MAX: usize = 4;
const OPTIONS_MIN: usize = 2;
const OPTIONS_MAX: usize = 4;

/// The spec of `ExitPlanMode`.
pub(crate) fn exit_plan_spec() -> ToolSpec {
    ToolSpec {
        name: EXIT_PLAN.to_owned(),
        description: "Presents your plan to the user for approval and, once approved, leaves \
                      plan mode so you can carry it out. Call it only in plan mode, when the \
                      plan is complete: the steps, the files each touches, and how the result \
                      will be checked. If the user wants changes, you stay in plan mode with \
                      their feedback."
            .to_owned(),
        input_schema: serde_json::json!({
            "type": "object",
            "properties": {
                "plan": {"type": "string", "description": "The plan, in Markdown"}
            },
            "required": ["plan"]
        })
        .into(),
    }
}

/// The spec of `AskUserQuestion`.
pub(crate) fn ask_spec() -> ToolSpec {
    ToolSpec {
        name: ASK.to_owned(),
        description: "Asks the user one to four questions, each with two to four options, \
                      and waits for the answers. Use it when a choice is the user's to make \
                      (a design decision, an ambiguous requirement) and guessing would waste \
                      work. The user may also answer in their own words. Do not use it to ask \
                      for permission to run a tool, or to approve a plan (use ExitPlanMode)."
            .to_owned(),
        input_schema: serde_json::json!({
            "type": "object",
            "properties": {
                "questions": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": QUESTIONS_MAX,
                    "items": {
                        "type": "object",
                        "properties": {
                            "question": {"type": "string", "description": "The whole question, ending with a question mark"},
                            "header": {"type": "string", "description": "A short tag for it (at most 12 characters)"},
                            "options": {
                                "type": "array",
                                "minItems": OPTIONS_MIN,
                                "maxItems": OPTIONS_MAX,
                                "items": {
                                    "type": "object",
                                    "properties": {
                                        "label": {"type": "string", "description": "The choice as shown (1-5 words)"},
                                        "description": {"type": "string", "description": "What choosing it means"}
                                    },
                                    "required": ["label", "description"]
                                }
                            },
                            "multiSelect": {"type": "boolean", "description": "Whether several options may be chosen"}
                        },
                        "required": ["question", "header", "options", "multiSelect"]
                    }
                }
            },
            "required": ["questions"]
        })
        .into(),
    }
}

/// `ExitPlanMode` or `AskUserQuestion` as the tool box lists it; the run
/// happens in the session ([`run`]), which can reach the front end.
pub(crate) struct InteractionTool {
    pub(crate) spec: ToolSpec,
}

impl Tool for InteractionTool {
    fn name(&self) -> &str {
        &self.spec.name
    }

    fn spec(&self) -> ToolSpec {
        self.spec.clone()
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Interaction
    }

    fn touches(&self, _args: &serde_json::Value) -> Touches {
        Touches::of(ToolKind::Interaction)
    }

    fn run<'a>(
        &'a self,
        _args: serde_json::Value,
        _ctx: &'a ToolContext,
    ) -> futures::future::BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async {
            Err(ToolError::Failed(
                "this tool runs only inside a session".to_owned(),
            ))
        })
    }
}

/// Whether `name` is one of these tools.
pub(crate) fn is_interaction(name: &str) -> bool {
    name == EXIT_PLAN || name == ASK
}

/// Runs one `ExitPlanMode` or `AskUserQuestion` call.
pub(crate) async fn run(
    ctx: &TurnContext,
    name: &str,
    call_id: &str,
    args: serde_json::Value,
    cancel: &CancellationToken,
) -> Result<ToolOutput, ToolError> {
    if name == EXIT_PLAN {
        exit_plan(ctx, call_id, args, cancel).await
    } else {
        ask(ctx, call_id, args, cancel).await
    }
}

#[derive(Deserialize)]
struct PlanArgs {
    plan: String,
}

async fn exit_plan(
    ctx: &TurnContext,
    call_id: &str,
    args: serde_json::Value,
    cancel: &CancellationToken,
) -> Result<ToolOutput, ToolError> {
    let raw = args.to_string();
    let PlanArgs { plan } = wright_tools::parse_args(args)?;
    if plan.trim().is_empty() {
        return Err(ToolError::InvalidArgs("`plan` is empty".to_owned()));
    }
    let mode = ctx.gate.mode();
    if mode != Mode::Plan {
        return Ok(text(format!(
            "Plan mode is already off (the permission mode is `{}`); carry out the plan.",
            mode.as_str()
        )));
    }
    if !ctx.gate.can_ask() {
        ctx.presented_plan.present(&plan);
        return Ok(text(
            "The plan is this run's result: the run ends here for the user to review it. \
             Do nothing more."
                .to_owned(),
        ));
    }
    let question = Question {
        tool: EXIT_PLAN,
        raw_args: &raw,
        touches: Some(Touches::of(ToolKind::Interaction)),
        reason: "The plan is ready for your approval.".to_owned(),
        suggested_rules: Vec::new(),
        still_asks: None,
        call_id,
        notification: "wright has a plan for you to approve".to_owned(),
    };
    match ctx
        .gate
        .ask_person(question, &ctx.emitter, ctx, cancel)
        .await
    {
        None => Err(ToolError::Cancelled),
        Some(ApprovalDecision::Deny { note }) => Err(ToolError::Denied(match note {
            Some(note) if !note.trim().is_empty() => format!(
                "the user wants to keep planning. Stay in plan mode and revise the plan. Their feedback: {}",
                note.trim()
            ),
            _ => "the user wants to keep planning. Stay in plan mode, ask what they want changed or revise the plan.".to_owned(),
        })),
        Some(_) => {
            // The front end may have chosen the next mode (accept-edits)
            // before answering; otherwise approving leaves for `default`.
            if ctx.gate.mode() == Mode::Plan {
                ctx.gate.set_mode(Mode::Default);
                ctx.emitter.mode_changed(Mode::Default.as_str());
            }
            Ok(text(format!(
                "The user approved the plan; the permission mode is now `{}`. Carry it out now.",
                ctx.gate.mode().as_str()
            )))
        }
    }
}

/// One question as the model asks it.
#[derive(Debug, Deserialize)]
struct AskedQuestion {
    question: String,
    #[serde(default)]
    header: String,
    options: Vec<AskedOption>,
    #[serde(default, rename = "multiSelect")]
    multi_select: bool,
}

#[derive(Debug, Deserialize)]
struct AskedOption {
    label: String,
}

#[derive(Deserialize)]
struct AskArgs {
    questions: Vec<AskedQuestion>,
}

/// The problems with a set of questions, as the model is told them.
fn check_questions(questions: &[AskedQuestion]) -> Result<(), ToolError> {
    if questions.is_empty() || questions.len() > QUESTIONS_MAX {
        return Err(ToolError::InvalidArgs(format!(
            "ask one to {QUESTIONS_MAX} questions ({} given)",
            questions.len()
        )));
    }
    for (i, q) in questions.iter().enumerate() {
        if q.question.trim().is_empty() {
            return Err(ToolError::InvalidArgs(format!(
                "question {} has no text",
                i + 1
            )));
        }
        if questions[..i].iter().any(|p| p.question == q.question) {
            return Err(ToolError::InvalidArgs(format!(
                "question {} repeats an earlier one; each question must be different",
                i + 1
            )));
        }
        if !(OPTIONS_MIN..=OPTIONS_MAX).contains(&q.options.len()) {
            return Err(ToolError::InvalidArgs(format!(
                "question {} needs {OPTIONS_MIN} to {OPTIONS_MAX} options ({} given)",
                i + 1,
                q.options.len()
            )));
        }
        if q.options.iter().any(|o| o.label.trim().is_empty()) {
            return Err(ToolError::InvalidArgs(format!(
                "an option of question {} has no label",
                i + 1
            )));
        }
    }
    Ok(())
}

async fn ask(
    ctx: &TurnContext,
    call_id: &str,
    args: serde_json::Value,
    cancel: &CancellationToken,
) -> Result<ToolOutput, ToolError> {
    let raw = args.to_string();
    let AskArgs { questions } = wright_tools::parse_args(args)?;
    check_questions(&questions)?;
    if !ctx.gate.can_ask() {
        return Err(ToolError::Failed(
            "nobody can answer questions in this run; decide yourself and say what you assumed"
                .to_owned(),
        ));
    }
    let headers: Vec<&str> = questions
        .iter()
        .map(|q| {
            if q.header.trim().is_empty() {
                q.question.as_str()
            } else {
                q.header.as_str()
            }
        })
        .collect();
    let question = Question {
        tool: ASK,
        raw_args: &raw,
        touches: Some(Touches::of(ToolKind::Interaction)),
        reason: format!("The model asks: {}", headers.join(", ")),
        suggested_rules: Vec::new(),
        still_asks: None,
        call_id,
        notification: "wright has a question for you".to_owned(),
    };
    match ctx
        .gate
        .ask_person(question, &ctx.emitter, ctx, cancel)
        .await
    {
        None => Err(ToolError::Cancelled),
        Some(ApprovalDecision::Deny { note }) => Err(ToolError::Denied(match note {
            Some(note) if !note.trim().is_empty() => format!(
                "the user did not answer the questions. They said: {}",
                note.trim()
            ),
            _ => "the user did not answer the questions; go on with your best judgement and say what you assumed.".to_owned(),
        })),
        Some(ApprovalDecision::AllowWithInput { input }) => {
            Ok(text(answers_text(&questions, &input)))
        }
        Some(_) => Ok(text(
            "The user gave no answers; go on with your best judgement and say what you assumed."
                .to_owned(),
        )),
    }
}

/// The tool result for the answers a front end sent back as Claude Code's
/// SDK does: the input with `answers`, each question's text mapped to the
/// chosen label (several joined by ", ") or the person's own words.
fn answers_text(questions: &[AskedQuestion], input: &str) -> String {
    let parsed: serde_json::Value = serde_json::from_str(input).unwrap_or_default();
    let answers = parsed.get("answers").and_then(serde_json::Value::as_object);
    let mut lines = Vec::new();
    for q in questions {
        let answer = answers
            .and_then(|a| a.get(&q.question))
            .map(|v| match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Array(items) => items
                    .iter()
                    .filter_map(serde_json::Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", "),
                other => other.to_string(),
            })
            .filter(|a| !a.trim().is_empty());
        match answer {
            Some(a) => lines.push(format!("\"{}\" = \"{}\"", q.question, a.trim())),
            None => lines.push(format!("\"{}\" = (no answer)", q.question)),
        }
    }
    let several = questions.iter().any(|q| q.multi_select);
    let note = if several {
        " (several choices are joined by commas)"
    } else {
        ""
    };
    format!(
        "The user answered{note}:\n{}\nGo on with these answers in mind.",
        lines.join("\n")
    )
}

fn text(content: String) -> ToolOutput {
    ToolOutput {
        content,
        images: Vec::new(),
        display: wright_protocol::ToolDisplay::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn questions(json: serde_json::Value) -> Vec<AskedQuestion> {
        serde_json::from_value::<AskArgs>(json).unwrap().questions
    }

    fn one(options: usize) -> serde_json::Value {
        let options: Vec<_> = (0..options)
            .map(|i| serde_json::json!({"label": format!("opt{i}"), "description": "d"}))
            .collect();
        serde_json::json!({"questions": [{"question": "Which?", "header": "Pick", "options": options, "multiSelect": false}]})
    }

    #[test]
    fn questions_need_one_to_four_of_two_to_four_options() {
        assert!(check_questions(&questions(one(2))).is_ok());
        assert!(check_questions(&questions(one(4))).is_ok());
        let err = check_questions(&questions(one(1))).unwrap_err().to_string();
        assert!(err.contains("2 to 4 options (1 given)"), "{err}");
        assert!(check_questions(&questions(one(5))).is_err());
        let none = questions(serde_json::json!({"questions": []}));
        assert!(
            check_questions(&none)
                .unwrap_err()
                .to_string()
                .contains("one to 4")
        );
        let q = serde_json::json!({"question": "Same?", "header": "h",
            "options": [{"label": "a", "description": ""}, {"label": "b", "description": ""}],
            "multiSelect": false});
        let twice = questions(serde_json::json!({"questions": [q.clone(), q]}));
        assert!(
            check_questions(&twice)
                .unwrap_err()
                .to_string()
                .contains("repeats")
        );
        let blank = questions(
            serde_json::json!({"questions": [{"question": "Q?", "header": "h",
            "options": [{"label": " ", "description": ""}, {"label": "b", "description": ""}],
            "multiSelect": false}]}),
        );
        assert!(
            check_questions(&blank)
                .unwrap_err()
                .to_string()
                .contains("no label")
        );
    }

    #[test]
    fn answers_name_the_chosen_labels_or_say_none_was_given() {
        let qs = questions(serde_json::json!({"questions": [
            {"question": "Which database?", "header": "DB", "multiSelect": false,
             "options": [{"label": "SQLite", "description": ""}, {"label": "Postgres", "description": ""}]},
            {"question": "Which extras?", "header": "Extras", "multiSelect": true,
             "options": [{"label": "Cache", "description": ""}, {"label": "Queue", "description": ""}]},
            {"question": "Deploy where?", "header": "Deploy", "multiSelect": false,
             "options": [{"label": "Fly", "description": ""}, {"label": "VPS", "description": ""}]}
        ]}));
        let input = serde_json::json!({"answers": {"Which database?": "Postgres",
            "Which extras?": ["Cache", "Queue"]}})
        .to_string();
        let text = answers_text(&qs, &input);
        assert!(
            text.contains("\"Which database?\" = \"Postgres\""),
            "{text}"
        );
        assert!(
            text.contains("\"Which extras?\" = \"Cache, Queue\""),
            "{text}"
        );
        assert!(text.contains("\"Deploy where?\" = (no answer)"), "{text}");
        let garbage = answers_text(&qs, "not json");
        assert!(garbage.contains("\"Which database?\" = (no answer)"));
    }
}
