//! The contract between the agent core and its front ends: `Op`s go in,
//! `Event`s come out. Events are item-based: a turn is a sequence of items
//! (agent message, reasoning, tool call, …), each started, optionally
//! streamed with deltas, and completed.

use serde::{Deserialize, Serialize};

use crate::message::StopReason;
use crate::tool::{ToolDisplay, ToolKind};
use crate::touches::Touches;
use crate::usage::Usage;

/// A command sent to the core.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Op {
    /// Start a turn with this user input.
    UserTurn {
        /// The user's text.
        text: String,
    },
    /// Start a turn with text and images (a program's or an editor's
    /// prompt); only `ContentBlock::Image` entries of `images` are used.
    UserTurnWithImages {
        /// The user's text (may be empty when images carry the question).
        text: String,
        /// The images, in order, after the text.
        images: Vec<crate::ContentBlock>,
        /// The program's id of this message (an Agent SDK user message's
        /// uuid), recorded with the prompt so [`Op::RewindFiles`] finds it
        /// in this process or a later one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        uuid: Option<String>,
        /// The prompt as the user typed it, when `text` is something else
        /// (a custom command's expansion): recorded for titles and lists.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        typed: Option<String>,
    },
    /// Run a shell command the user typed (`!cmd` in a composer) through
    /// the same hooks, permission check and sandbox as the model's `Bash`
    /// call, shown as a `Bash` tool-call item. The command and its output
    /// join the conversation as user context for the next turn; no model
    /// request is made. It is bracketed by `TurnStarted`/`TurnCompleted`
    /// (0 model requests) like any other work, and `Interrupt` stops it.
    UserShell {
        /// The command, without the leading `!`.
        command: String,
    },
    /// A message for the running turn (typed while it works): delivered
    /// to the model with the tool results of its next step, in the
    /// request that carries them. With no turn running, or when the turn
    /// ends before another step, it starts the next turn. `Interrupt`
    /// withdraws the ones not yet delivered ([`EventKind::SteeringWithdrawn`]).
    Steer {
        /// The message.
        text: String,
        /// Images after the text (only `ContentBlock::Image` entries are used).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        images: Vec<crate::ContentBlock>,
        /// The program's id of this message, recorded with it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        uuid: Option<String>,
    },
    /// Stop the running turn; every open tool call still gets a result.
    Interrupt,
    /// Answer an `ApprovalRequested` event.
    ResolveApproval {
        /// The approval id from the event.
        id: String,
        /// The answer.
        decision: ApprovalDecision,
    },
    /// Summarize older turns now, optionally focusing the summary on a topic.
    Compact {
        /// What the summary should keep in particular.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        focus: Option<String>,
    },
    /// List the user turns (`turn: None`), or restore files and conversation
    /// to before user turn `turn` (1-based), as a new branch of the session.
    Rewind {
        /// The turn to return to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<u32>,
        /// Only say what the rewind would do (a [`EventKind::RewindPreview`]
        /// event), changing nothing: a front end shows it and asks before
        /// sending the same op without `dry_run`.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        dry_run: bool,
    },
    /// Restore the files the model edited to how they were before the user
    /// message a program named `user_message_id` (given as the `uuid` of
    /// [`Op::UserTurnWithImages`], in this process or an earlier one of the
    /// session), leaving the conversation as it is (the Agent SDK's
    /// `rewind_files`). Answered by a `Notice` saying what was restored,
    /// or an `Error`; with `dry_run`, by a [`EventKind::RewindPreview`]
    /// and nothing changes.
    RewindFiles {
        /// The program's id of the user message.
        user_message_id: String,
        /// Only say which files would change.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        dry_run: bool,
    },
    /// Change the permission mode for the rest of the session.
    SetPermissionMode {
        /// `default`, `accept-edits`, `plan`, `auto` or `bypass`.
        mode: String,
    },
    /// Use this model from the next model request on (`None`: back to the
    /// model the session was started with).
    SetModel {
        /// Model name, or `None` for the configured default.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
    },
    /// Change the extended-thinking budget from the next model request on
    /// (`None` or 0: thinking off).
    SetMaxThinkingTokens {
        /// Budget in tokens.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tokens: Option<u32>,
    },
    /// End the session once the current turn (if any) is stopped.
    Shutdown,
}

/// A user's answer to an approval request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum ApprovalDecision {
    /// Run it this once.
    AllowOnce,
    /// Run it and anything matching the suggested rule for the rest of the session.
    AllowSession,
    /// As `AllowSession`, and write the rule to the project's local settings.
    AllowProject,
    /// Run it once with this input instead of the model's (a program's
    /// permission callback may rewrite it); the new input is checked again
    /// and refused if it would still need approval.
    AllowWithInput {
        /// The tool input to use, as JSON text.
        input: String,
    },
    /// Refuse, with an optional note for the model.
    Deny {
        /// Shown to the model with the refusal.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
}

/// Which agent an event came from: `root`, `root/explore-1`, …
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AgentPath(pub String);

impl AgentPath {
    /// The top-level agent.
    pub fn root() -> Self {
        Self("root".to_owned())
    }

    /// Whether this is the top-level agent (front ends end a turn on its
    /// `TurnCompleted` only, not on a subagent's).
    pub fn is_root(&self) -> bool {
        self.0 == "root"
    }

    /// A child's path: `root/explore-1`.
    pub fn child(&self, name: &str) -> Self {
        Self(format!("{}/{name}", self.0))
    }
}

/// One fact reported by the core.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// The session this belongs to.
    pub session_id: String,
    /// The user turn this belongs to (0 before the first turn).
    pub turn_id: u64,
    /// Strictly increasing per session.
    pub seq: u64,
    /// The agent that produced it.
    pub agent: AgentPath,
    /// For a subagent's event: the id of the parent's `Task` call that
    /// started it (Claude Code's `parent_tool_use_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_tool_use_id: Option<String>,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// The session is ready. Sent once, first.
    SessionConfigured {
        /// Model name.
        model: String,
        /// Provider wire protocol.
        provider: String,
        /// Working directory.
        cwd: String,
        /// Names of the tools offered to the model.
        tools: Vec<String>,
        /// Permission mode in force.
        permission_mode: String,
        /// The model's context window in tokens, as this session knows it
        /// (the catalog, a `[models]` override, or what a local server
        /// reports); 0 when unknown.
        #[serde(default, skip_serializing_if = "is_zero")]
        context_window: u64,
    },
    /// A user turn began.
    TurnStarted,
    /// An item began.
    ItemStarted {
        /// The item as known so far.
        item: Item,
    },
    /// A streamed piece of an item.
    ItemDelta {
        /// The item's id.
        item_id: String,
        /// The piece.
        delta: ItemDelta,
    },
    /// An item is final.
    ItemCompleted {
        /// The finished item.
        item: Item,
    },
    /// The core needs a decision before running a tool.
    ApprovalRequested {
        /// Id to answer with `Op::ResolveApproval`.
        id: String,
        /// Tool name.
        tool: String,
        /// Raw tool arguments.
        arguments: String,
        /// What the call touches, as its tool said (front ends show the
        /// command or path from here instead of parsing the arguments).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        touches: Option<Touches>,
        /// Why approval is needed.
        reason: String,
        /// The first of `suggested_rules`, for consumers that show one
        /// rule, e.g. `Bash(npm run test:*)`; `None` when "always" can
        /// store no rule.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suggested_rule: Option<String>,
        /// Every rule "always allow" would store: one per part of a
        /// command chain that no rule allows yet (`cargo build && cargo
        /// test` → `Bash(cargo build:*)`, `Bash(cargo test:*)`). Parts no
        /// rule may allow (dangerous, not fully parsed) get none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        suggested_rules: Vec<String>,
        /// Why the same call would still ask after "always" stored
        /// `suggested_rules` (a front end must not promise it will stop
        /// asking); `None` when it would not ask again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        still_asks: Option<String>,
        /// The model's id of the call waiting for the answer.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        call_id: Option<String>,
    },
    /// Usage of one model request, sent when its response is complete
    /// (after the response's items have started, before its tools run).
    Usage {
        /// This request.
        request: Usage,
        /// Session total so far.
        total: Usage,
        /// Cost of this request in USD (0 when the model's prices are unknown).
        cost_usd: f64,
        /// Session cost so far in USD.
        total_cost_usd: f64,
        /// Wall time of this request, from sending it to its last event.
        duration_ms: u64,
        /// The model that served it (differs from the configured one after a fallback).
        model: String,
    },
    /// A model request is being retried.
    Retrying {
        /// Attempt number starting at 1 for the first retry.
        attempt: u32,
        /// Delay before it, in milliseconds.
        delay_ms: u64,
        /// Why.
        reason: String,
        /// Items of the broken attempt that were already shown (its text and
        /// reasoning so far). The retry's items replace them: they are not
        /// part of the answer, and the session never records them. Empty
        /// when the attempt failed before anything was shown.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        superseded: Vec<String>,
    },
    /// A message sent with [`Op::Steer`] reached the model now: with the
    /// tool results of this step, or as the prompt of a turn that starts
    /// for it. Front ends show it here, where the model got it.
    Steered {
        /// The message as sent.
        text: String,
    },
    /// These [`Op::Steer`] messages were not delivered: the turn was
    /// interrupted first, or a `UserPromptSubmit` hook blocked them (an
    /// error says so). A front end puts them back in its composer, or
    /// sends them again.
    SteeringWithdrawn {
        /// The messages, in the order they were sent.
        texts: Vec<String>,
    },
    /// The permission mode changed (the user's choice, an approved plan,
    /// "don't ask again" on an edit); a `Notice` saying so comes with it.
    /// Front ends that show the mode follow this, not the notice's text.
    ModeChanged {
        /// The mode now, as `Op::SetPermissionMode` takes it (`accept-edits`).
        mode: String,
    },
    /// Something went wrong; the session stays usable.
    Error {
        /// Human-readable message (never contains credentials).
        message: String,
    },
    /// Information the user asked for (a list of turns, a rewind's outcome).
    Notice {
        /// Human-readable text, possibly several lines.
        message: String,
    },
    /// The answer to a dry-run [`Op::Rewind`]: what rewinding to before
    /// user turn `turn` would do to files. Nothing has changed yet.
    RewindPreview {
        /// The turn (1-based) the rewind would return to before.
        turn: u32,
        /// The first line of that turn's prompt.
        prompt: String,
        /// Each file the rewind would touch, once.
        files: Vec<RewindFilePreview>,
    },
    /// Something the user should know.
    Warning {
        /// Human-readable message.
        message: String,
    },
    /// The user turn is over.
    TurnCompleted {
        /// Why it ended.
        reason: TurnEndReason,
        /// Model requests made in this turn.
        model_requests: u32,
        /// With a JSON schema for the answer (`--json-schema`): the final
        /// answer parsed, valid against the schema.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        structured_output: Option<serde_json::Value>,
        /// With a JSON schema: the answer was still not valid after the
        /// retry (the turn ends `Failed`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        structured_output_failed: bool,
        /// The plan (Markdown) the turn ended at: the model called
        /// `ExitPlanMode` in a run nobody could approve it in, so the plan
        /// is the run's result and nothing after it ran.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plan: Option<String>,
    },
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Why a user turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnEndReason {
    /// The model finished.
    Completed,
    /// `--max-turns` model requests were made.
    MaxTurns,
    /// `--max-budget-usd` was spent.
    MaxBudget,
    /// The user interrupted.
    Interrupted,
    /// An error ended it (see the preceding `Error` event).
    Failed,
}

/// A unit of a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Unique within the session.
    pub id: String,
    /// What it is.
    #[serde(flatten)]
    pub kind: ItemKind,
}

/// The kinds of items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "item_type", rename_all = "snake_case")]
pub enum ItemKind {
    /// Text from the model.
    AgentMessage {
        /// Text so far (complete in `ItemCompleted`).
        text: String,
        /// Why the model stopped (on completion).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stop_reason: Option<StopReason>,
    },
    /// Model reasoning shown to the user.
    Reasoning {
        /// Reasoning text so far.
        text: String,
        /// The provider's signature of the block (on completion, when the
        /// provider signs reasoning: Anthropic). Opaque; front ends that
        /// mirror Claude Code's output show it on the thinking block.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signature: Option<String>,
    },
    /// One run of a user hook (Claude Code's contract) at a point of the loop.
    HookRun {
        /// The hook event: `PreToolUse`, `Stop`, …
        event: String,
        /// The hook's command as configured.
        command: String,
        /// Where the hook was configured (file).
        source: String,
        /// Wall time of the run in milliseconds.
        duration_ms: u64,
        /// `ok`, `blocked`, `failed`, `timeout`, `cancelled` or `error`.
        outcome: String,
        /// What the hook said that wright acted on (block reason, warning).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// What the verifier found in the files edited by one model response.
    Diagnostics {
        /// The checker that ran, e.g. `cargo check`.
        checker: String,
        /// The edited files it covered (as shown to the model).
        files: Vec<String>,
        /// Errors in those files.
        errors: u32,
        /// Warnings in those files.
        warnings: u32,
        /// The report appended to the tool result.
        text: String,
        /// Whether the checker ran to a verdict (not refused, timed out or
        /// failed to start): only then do zero errors mean a clean file.
        #[serde(default = "ran_by_default")]
        ran: bool,
    },
    /// A tool call and, once completed, its result.
    ToolCall {
        /// Provider call id.
        call_id: String,
        /// Tool name.
        name: String,
        /// Effect class, when the tool is known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_kind: Option<ToolKind>,
        /// Raw arguments.
        arguments: String,
        /// What the call touches, as its tool read the arguments (absent
        /// for an unknown tool or arguments that are not a JSON object):
        /// front ends show this instead of parsing the arguments.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        touches: Option<Touches>,
        /// Where the call stands.
        status: ToolCallStatus,
        /// What went back to the model (on completion).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        output: Option<String>,
        /// What a front end may show (on completion).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        display: Option<ToolDisplay>,
    },
    /// Older turns were summarized to free room in the context window.
    Compaction {
        /// Estimated conversation tokens before.
        tokens_before: u64,
        /// Estimated conversation tokens after (0 while in progress).
        tokens_after: u64,
        /// Why: `auto`, `overflow` (the provider said the context was too long) or `manual`.
        trigger: String,
    },
    /// An error that belongs in the transcript.
    Error {
        /// The message.
        message: String,
    },
}

/// Where a tool call stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolCallStatus {
    /// Running.
    InProgress,
    /// Ran and succeeded.
    Completed,
    /// Ran and failed, or had invalid arguments.
    Failed,
    /// Not run: refused by permission, guard or user.
    Denied,
    /// Stopped by an interrupt.
    Cancelled,
}

/// A streamed piece of an item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "delta_type", content = "text", rename_all = "snake_case")]
pub enum ItemDelta {
    /// More agent text.
    Text(String),
    /// More reasoning text.
    Reasoning(String),
    /// More command output.
    ToolOutput(String),
}

/// Items recorded before `ran` existed came from checkers that ran.
fn ran_by_default() -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn user_shell_op_and_chain_rules_round_trip() {
        let op: Op =
            serde_json::from_value(json!({"type": "user_shell", "command": "ls -la"})).unwrap();
        assert_eq!(
            op,
            Op::UserShell {
                command: "ls -la".into()
            }
        );
        // An approval from before chain rules existed still reads.
        let old: EventKind = serde_json::from_value(json!({
            "type": "approval_requested", "id": "a1", "tool": "Bash",
            "arguments": "{}", "reason": "r", "suggested_rule": "Bash(ls:*)"
        }))
        .unwrap();
        let EventKind::ApprovalRequested {
            suggested_rule,
            suggested_rules,
            still_asks,
            ..
        } = &old
        else {
            panic!("{old:?}");
        };
        assert_eq!(suggested_rule.as_deref(), Some("Bash(ls:*)"));
        assert!(suggested_rules.is_empty() && still_asks.is_none());
        let new = EventKind::ApprovalRequested {
            id: "a1".into(),
            tool: "Bash".into(),
            arguments: "{}".into(),
            touches: None,
            reason: "r".into(),
            suggested_rule: Some("Bash(a:*)".into()),
            suggested_rules: vec!["Bash(a:*)".into(), "Bash(b:*)".into()],
            still_asks: Some("`rm -rf x` always asks".into()),
            call_id: None,
        };
        let value = serde_json::to_value(&new).unwrap();
        assert_eq!(value["suggested_rules"], json!(["Bash(a:*)", "Bash(b:*)"]));
        assert_eq!(value["still_asks"], "`rm -rf x` always asks");
    }

    #[test]
    fn model_ops_round_trip() {
        let op = Op::SetModel {
            model: Some("m2".into()),
        };
        assert_eq!(
            serde_json::to_value(&op).unwrap(),
            json!({"type": "set_model", "model": "m2"})
        );
        let back: Op = serde_json::from_value(json!({"type": "set_model"})).unwrap();
        assert_eq!(back, Op::SetModel { model: None });
        let op: Op =
            serde_json::from_value(json!({"type": "set_max_thinking_tokens", "tokens": 0}))
                .unwrap();
        assert_eq!(op, Op::SetMaxThinkingTokens { tokens: Some(0) });
    }

    #[test]
    fn turn_completed_adds_structured_output_only_when_there_is_some() {
        let plain = EventKind::TurnCompleted {
            reason: TurnEndReason::Completed,
            model_requests: 1,
            structured_output: None,
            structured_output_failed: false,
            plan: None,
        };
        assert_eq!(
            serde_json::to_value(&plain).unwrap(),
            json!({"type": "turn_completed", "reason": "completed", "model_requests": 1})
        );
        let old: EventKind = serde_json::from_value(
            json!({"type": "turn_completed", "reason": "failed", "model_requests": 2}),
        )
        .unwrap();
        assert!(matches!(
            old,
            EventKind::TurnCompleted {
                structured_output: None,
                structured_output_failed: false,
                ..
            }
        ));
        let with = EventKind::TurnCompleted {
            reason: TurnEndReason::Failed,
            model_requests: 2,
            structured_output: Some(json!({"a": 1})),
            structured_output_failed: true,
            plan: Some("1. Do it".to_owned()),
        };
        let value = serde_json::to_value(&with).unwrap();
        assert_eq!(value["structured_output"], json!({"a": 1}));
        assert_eq!(value["structured_output_failed"], true);
        assert_eq!(value["plan"], "1. Do it");
    }
}

/// One file in a [`EventKind::RewindPreview`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RewindFilePreview {
    /// The file's absolute path.
    pub path: std::path::PathBuf,
    /// What the rewind would do to it.
    pub action: RewindFileAction,
}

/// What a rewind would do to one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RewindFileAction {
    /// Overwrite it with its earlier content (changes since are lost from
    /// the working tree; the session file keeps them).
    Overwrite,
    /// Delete it: it did not exist then.
    Delete,
    /// Leave it alone, for this reason (outside the workspace, a symlink).
    Skip {
        /// Why.
        reason: String,
    },
}
