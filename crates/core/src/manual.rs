//! Work the user asks for outside a model turn: compaction on demand,
//! rewinding to before an earlier user turn, and restoring only the files
//! of an earlier turn.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use wright_llm::LlmError;
use wright_protocol::{EventKind, RewindFileAction, RewindFilePreview, TurnEndReason};
use wright_store::{
    RestoreAction, RewindOutcome, RewindPoint, RewindScope, UNTRACKED_NOTE, UserTurn,
};

use crate::compaction::{self, Trigger};
use crate::context::TurnContext;
use crate::turn::{Conversation, system_prompt};

/// `/compact [focus]`: summarize older turns now. Runs as a turn of its own
/// so front ends see it start and end like any other work.
pub(crate) async fn compact_now(
    ctx: &TurnContext,
    conv: &mut Conversation,
    focus: Option<String>,
    cancel: CancellationToken,
) {
    let emitter = &ctx.emitter;
    emitter.begin_turn();
    emitter.emit(EventKind::TurnStarted);
    let system = system_prompt(ctx, conv).await;
    let before = compaction::estimate(ctx, &conv.messages, &system, conv.last_usage);
    let job = compaction::Job {
        system: &system,
        model: &conv.model,
        before,
        trigger: Trigger::Manual,
        focus: focus.as_deref(),
    };
    let result = compaction::compact(ctx, Arc::make_mut(&mut conv.messages), &job, &cancel).await;
    let requests = match result {
        Ok(done) => done.requests(),
        Err(_) => 1,
    };
    let reason = match result {
        Ok(_) => {
            conv.last_usage = None;
            TurnEndReason::Completed
        }
        Err(LlmError::Cancelled) => TurnEndReason::Interrupted,
        Err(e) => {
            emitter.error(format!("Compaction failed: {e}"));
            TurnEndReason::Failed
        }
    };
    emitter.emit(EventKind::TurnCompleted {
        reason,
        model_requests: requests,
        structured_output: None,
        structured_output_failed: false,
        plan: None,
    });
}

/// `/rewind [N]`: list the user turns, or go back to before turn N (files
/// the model edited and the conversation), as a new branch of the session.
/// With `dry_run`, only report what going back would do to files.
pub(crate) fn rewind(ctx: &TurnContext, conv: &mut Conversation, turn: Option<u32>, dry_run: bool) {
    let emitter = &ctx.emitter;
    let Some(turns) = recorded_turns(ctx) else {
        return;
    };
    let Some(n) = turn else {
        let mut text = String::from("User turns of this session (rewind with /rewind N):\n");
        for (i, t) in turns.iter().enumerate() {
            let line = t.text.lines().next().unwrap_or_default();
            text.push_str(&format!(
                "{:>3}. {}\n",
                i + 1,
                line.chars().take(80).collect::<String>()
            ));
        }
        text.push_str(UNTRACKED_NOTE);
        return emitter.emit(EventKind::Notice { message: text });
    };
    let Some(target) = usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| turns.get(i))
    else {
        return emitter.error(format!(
            "There is no turn {n}: the session has {} user turn(s).",
            turns.len()
        ));
    };
    if dry_run {
        return preview(ctx, n, target);
    }
    let Some(outcome) = rewind_before(ctx, target, RewindScope::FilesAndConversation) else {
        return;
    };
    conv.messages = Arc::new(outcome.history);
    conv.last_usage = None;
    let mut text = format!("Rewound to before turn {n}.\n");
    text.push_str(&restored_files(&outcome.files));
    text.push_str(UNTRACKED_NOTE);
    emitter.emit(EventKind::Notice { message: text });
}

/// Emits what rewinding to before `turn` (number `n`) would do to files.
fn preview(ctx: &TurnContext, n: u32, turn: &UserTurn) {
    let point = RewindPoint::BeforeTurn(turn.entry.clone());
    let files = match ctx
        .recorder
        .rewind_preview(&point, RewindScope::FilesAndConversation)
    {
        Some(Ok(files)) => files,
        Some(Err(e)) => return ctx.emitter.error(format!("Rewind preview failed: {e}")),
        None => return,
    };
    let files = files
        .into_iter()
        .map(|f| RewindFilePreview {
            path: f.path,
            action: match f.action {
                RestoreAction::Restored => RewindFileAction::Overwrite,
                RestoreAction::Deleted => RewindFileAction::Delete,
                RestoreAction::Failed(reason) => RewindFileAction::Skip { reason },
            },
        })
        .collect();
    ctx.emitter.emit(EventKind::RewindPreview {
        turn: n,
        prompt: turn.text.lines().next().unwrap_or_default().to_owned(),
        files,
    });
}

/// The Agent SDK's `rewind_files`: the files the model edited go back to
/// how they were before the user message the program named `id` (in this
/// process or an earlier one of the session); the conversation stays as it
/// is. With `dry_run`, only a preview says which files would change.
pub(crate) fn rewind_files(ctx: &TurnContext, id: &str, dry_run: bool) {
    let emitter = &ctx.emitter;
    let Some(turns) = recorded_turns(ctx) else {
        return;
    };
    let Some((n, target)) = turns
        .iter()
        .enumerate()
        .find(|(_, t)| t.uuid.as_deref() == Some(id))
    else {
        return emitter.error(format!(
            "There is no user message \"{id}\" on this session's current branch: rewind_files takes the uuid of a user message the program sent (echoed with --replay-user-messages)."
        ));
    };
    if dry_run {
        return preview(ctx, u32::try_from(n + 1).unwrap_or(u32::MAX), target);
    }
    let Some(outcome) = rewind_before(ctx, target, RewindScope::FilesOnly) else {
        return;
    };
    let mut text = format!("Files rewound to before the user message {id}.\n");
    text.push_str(&restored_files(&outcome.files));
    emitter.emit(EventKind::Notice { message: text });
}

/// The session's user turns, or `None` once the reason is reported.
fn recorded_turns(ctx: &TurnContext) -> Option<Vec<UserTurn>> {
    match ctx.recorder.user_turns() {
        Some(Ok(turns)) => Some(turns),
        Some(Err(e)) => {
            ctx.emitter.error(format!("Cannot read the session: {e}"));
            None
        }
        None => {
            ctx.emitter
                .error("This session is not recorded, so it cannot be rewound.".to_owned());
            None
        }
    }
}

/// Rewinds `scope` to before `turn`, or `None` once a failure is reported.
fn rewind_before(ctx: &TurnContext, turn: &UserTurn, scope: RewindScope) -> Option<RewindOutcome> {
    match ctx
        .recorder
        .rewind(&RewindPoint::BeforeTurn(turn.entry.clone()), scope)?
    {
        Ok(outcome) => Some(outcome),
        Err(e) => {
            ctx.emitter.error(format!("Rewind failed: {e}"));
            None
        }
    }
}

/// One line per file a rewind touched, saying what became of it.
fn restored_files(files: &[wright_store::RestoredFile]) -> String {
    let mut text = String::new();
    for f in files {
        let what = match &f.action {
            RestoreAction::Restored => "restored".to_owned(),
            RestoreAction::Deleted => "deleted (it did not exist then)".to_owned(),
            RestoreAction::Failed(why) => format!("FAILED: {why}"),
        };
        text.push_str(&format!("  {}: {what}\n", f.path.display()));
    }
    text
}
