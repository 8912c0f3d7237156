//! The user's hooks at their fixed points of the loop: builds each event's
//! input, runs the matching hooks, and makes every run visible (an item for
//! the front ends, an entry in the session, warnings for hooks that broke).
//! What a hook's answer means for the loop is decided at each call site.

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;
use wright_hooks::hook::{
    HookCommon, HookOutcome, HookPayload, HookResult, HookRun, SessionStartSource,
};
use wright_protocol::{ContentBlock, Item, ItemKind, Message};
use wright_store::EntryBody;

use crate::approval::ApprovalHooks;
use crate::context::TurnContext;
use crate::text::cap_hook_text;

/// Longest hook message kept in an item or the session (the whole text
/// still reaches the model where it is meant to).
const MESSAGE_CHARS: usize = 2000;

/// The permission gate runs its hooks (`PermissionRequest`, `Notification`)
/// through the same runner as every other point of the loop.
impl ApprovalHooks for TurnContext {
    fn any(&self, payload: &HookPayload) -> bool {
        any(self, payload)
    }

    fn run<'a>(
        &'a self,
        payload: HookPayload,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, HookRun> {
        Box::pin(run(self, payload, cancel))
    }

    fn stop(&self, reason: &str) {
        self.stop.request(reason);
    }
}

/// Runs the hooks that match `payload` and reports each run.
pub(crate) async fn run(
    ctx: &TurnContext,
    payload: HookPayload,
    cancel: &CancellationToken,
) -> HookRun {
    let hooks = &ctx.options.extensions.hooks;
    let event = payload.event();
    if hooks.matching(event, payload.matcher_target()).is_empty() {
        return HookRun::empty(event);
    }
    // Hooks run unsandboxed: nothing a background command planted in
    // .git may be there for their git commands to read.
    for notice in ctx.options.jobs.sweep() {
        ctx.emitter.warning(notice);
    }
    let common = HookCommon {
        session_id: ctx.options.session_id.clone(),
        transcript_path: ctx.recorder.path().unwrap_or_default(),
        cwd: ctx.options.cwd.clone(),
        permission_mode: claude_mode_name(ctx.gate.mode()).to_owned(),
    };
    let run = hooks
        .run(&common, &payload, &ctx.options.extensions.hook_env, cancel)
        .await;
    report(ctx, &run);
    run
}

/// Runs the `SessionStart` hooks; their context waits for the next prompt.
pub(crate) async fn session_start(
    ctx: &TurnContext,
    source: SessionStartSource,
    cancel: &CancellationToken,
) {
    let payload = HookPayload::SessionStart { source };
    if !any(ctx, &payload) {
        return;
    }
    let run = run(ctx, payload, cancel).await;
    if let Some(text) = context_text("SessionStart", &run.additional_context)
        && let Ok(mut pending) = ctx.pending_context.lock()
    {
        pending.push(text);
    }
}

/// The user's prompt as the model gets it: `UserPromptSubmit` hooks may
/// add context (or refuse it: `Err` with their reason), and context left by
/// `SessionStart` hooks joins it.
pub(crate) async fn prompt_submitted(
    ctx: &TurnContext,
    text: String,
    cancel: &CancellationToken,
) -> Result<Message, String> {
    let payload = HookPayload::UserPromptSubmit {
        prompt: text.clone(),
    };
    let mut extra = Vec::new();
    // A subagent's prompt is its parent's tool call, which the hooks saw
    // as a `PreToolUse` already.
    if ctx.role == crate::context::Role::Root && any(ctx, &payload) {
        let run = run(ctx, payload, cancel).await;
        if let Some(reason) = run.block.or(run.stop) {
            return Err(cap_hook_text(reason.trim()));
        }
        extra.extend(context_text("UserPromptSubmit", &run.additional_context));
    }
    let mut message = Message::user_text(text);
    let pending = ctx
        .pending_context
        .lock()
        .map(|mut p| std::mem::take(&mut *p))
        .unwrap_or_default();
    for text in pending.into_iter().chain(extra) {
        message.content.push(ContentBlock::Text { text });
    }
    Ok(message)
}

/// The `Stop` hooks' reason to keep going, as the message the model gets,
/// or `None` to let the turn end. A `continue: false` ends it either way.
pub(crate) async fn stop(
    ctx: &TurnContext,
    stop_hook_active: bool,
    cancel: &CancellationToken,
) -> Option<String> {
    let payload = match ctx.role {
        crate::context::Role::Root => HookPayload::Stop { stop_hook_active },
        crate::context::Role::Subagent => HookPayload::SubagentStop { stop_hook_active },
    };
    if !any(ctx, &payload) {
        return None;
    }
    let run = run(ctx, payload, cancel).await;
    if let Some(reason) = run.stop {
        ctx.emitter.notice(format!(
            "A Stop hook ended the turn: {}",
            cap_hook_text(reason.trim())
        ));
        return None;
    }
    let reason = run.block?;
    Some(format!(
        "[Stop hook feedback] The task is not finished yet:\n{}",
        cap_hook_text(reason.trim())
    ))
}

/// Whether any hook is configured for the event of `payload` and its target.
pub(crate) fn any(ctx: &TurnContext, payload: &HookPayload) -> bool {
    !ctx.options
        .extensions
        .hooks
        .matching(payload.event(), payload.matcher_target())
        .is_empty()
}

fn report(ctx: &TurnContext, run: &HookRun) {
    for outcome in &run.outcomes {
        let message = outcome_message(outcome).map(|m| cut(&m));
        let duration_ms = u64::try_from(outcome.duration.as_millis()).unwrap_or(u64::MAX);
        ctx.emitter.item_completed(Item {
            id: ctx.emitter.next_item_id(),
            kind: ItemKind::HookRun {
                event: outcome.event.as_str().to_owned(),
                command: outcome.command.clone(),
                source: outcome.source.clone(),
                duration_ms,
                outcome: outcome.result.word().to_owned(),
                message: message.clone(),
            },
        });
        ctx.recorder.append(
            &ctx.emitter,
            &EntryBody::Hook {
                event: outcome.event.as_str().to_owned(),
                command: outcome.command.clone(),
                outcome: outcome.result.word().to_owned(),
                duration_ms,
                message,
            },
        );
    }
    for warning in &run.warnings {
        ctx.emitter.warning(warning.clone());
    }
    for message in &run.system_messages {
        ctx.emitter
            .notice(format!("hook: {}", cap_hook_text(message)));
    }
}

/// What a hook said that is worth showing beside its outcome word.
fn outcome_message(outcome: &HookOutcome) -> Option<String> {
    match &outcome.result {
        HookResult::Success { .. } | HookResult::Cancelled => None,
        HookResult::Blocked { stderr } => Some(stderr.trim().to_owned()),
        HookResult::Failed { code, stderr } => Some(match code {
            Some(code) => format!("exit {code}: {}", stderr.trim()),
            None => format!("killed by a signal: {}", stderr.trim()),
        }),
        HookResult::TimedOut => Some("timed out and was killed".to_owned()),
        HookResult::SpawnError(e) => Some(e.clone()),
    }
}

fn cut(text: &str) -> String {
    if text.chars().count() <= MESSAGE_CHARS {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(MESSAGE_CHARS).collect();
    out.push('…');
    out
}

/// Claude Code's name for a permission mode, as hooks written for it expect.
fn claude_mode_name(mode: wright_permissions::Mode) -> &'static str {
    use wright_permissions::Mode;
    match mode {
        Mode::Default => "default",
        Mode::AcceptEdits => "acceptEdits",
        Mode::Plan => "plan",
        Mode::Auto => "auto",
        Mode::Bypass => "bypassPermissions",
    }
}

/// The extra context hooks asked to give the model, as one text block.
pub(crate) fn context_text(event: &str, context: &[String]) -> Option<String> {
    let parts: Vec<&str> = context
        .iter()
        .map(|c| c.trim())
        .filter(|c| !c.is_empty())
        .collect();
    (!parts.is_empty()).then(|| {
        format!(
            "[{event} hook context]\n{}",
            cap_hook_text(&parts.join("\n\n"))
        )
    })
}
