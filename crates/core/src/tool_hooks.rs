//! The hooks around one tool call: `PreToolUse` before the permission check
//! (its answer, and any input it rewrote, go into the check), and
//! `PostToolUse` / `PostToolUseFailure` after the run (their feedback and
//! context are appended to the result the model reads).

use tokio_util::sync::CancellationToken;
use wright_hooks::hook::{HookPayload, HookRun, PermissionDecision};
use wright_permissions::HookVerdict;
use wright_protocol::{ToolCallStatus, ToolDisplay, Touches};

use crate::context::TurnContext;
use crate::hook_points;
use crate::text::cap_hook_text;

/// What the `PreToolUse` hooks decided for one call.
pub(crate) struct Before {
    /// The arguments to check and run (a hook may have rewritten them).
    pub(crate) args: serde_json::Value,
    /// The hooks' answer, for the permission check.
    pub(crate) verdict: HookVerdict,
    /// Context a hook asked to give the model with the result.
    pub(crate) context: Option<String>,
    /// Whether a hook rewrote the arguments.
    pub(crate) rewritten: bool,
}

/// Runs the `PreToolUse` hooks for a call about to be checked.
pub(crate) async fn before(
    ctx: &TurnContext,
    call_id: &str,
    tool: &str,
    args: serde_json::Value,
    cancel: &CancellationToken,
) -> Before {
    let payload = HookPayload::PreToolUse {
        tool_name: tool.to_owned(),
        tool_input: args.clone(),
        tool_use_id: call_id.to_owned(),
    };
    if !hook_points::any(ctx, &payload) {
        return Before {
            args,
            verdict: HookVerdict::None,
            context: None,
            rewritten: false,
        };
    }
    let run = hook_points::run(ctx, payload, cancel).await;
    if let Some(reason) = &run.stop {
        ctx.stop.request(reason);
    }
    let verdict = verdict_of(&run);
    let (args, rewritten) = match (&verdict, run.updated_input) {
        (HookVerdict::Deny(_), _) | (_, None) => (args, false),
        (_, Some(updated)) if updated.is_object() => {
            ctx.emitter.notice(format!(
                "A PreToolUse hook changed the input of {tool} to: {}",
                shorten(&updated.to_string())
            ));
            (updated, true)
        }
        (_, Some(_)) => {
            ctx.emitter.warning(format!(
                "A PreToolUse hook's updatedInput for {tool} is not a JSON object; the original input is used."
            ));
            (args, false)
        }
    };
    Before {
        args,
        verdict,
        context: hook_points::context_text("PreToolUse", &run.additional_context),
        rewritten,
    }
}

/// The hooks' answer as the permission engine takes it: a block (exit 2),
/// a stop or a deny refuses; otherwise the strictest decision given.
fn verdict_of(run: &HookRun) -> HookVerdict {
    if let Some(reason) = run.denied() {
        return HookVerdict::Deny(with_default(&reason, "a PreToolUse hook refused the call"));
    }
    if let Some(reason) = &run.stop {
        return HookVerdict::Deny(with_default(reason, "a hook stopped the turn"));
    }
    match &run.permission {
        Some((PermissionDecision::Ask, reason)) => {
            HookVerdict::Ask(with_default(reason, "no reason given"))
        }
        Some((PermissionDecision::Allow, _)) => HookVerdict::Allow,
        Some((PermissionDecision::Deny, reason)) => {
            HookVerdict::Deny(with_default(reason, "a PreToolUse hook refused the call"))
        }
        None => HookVerdict::None,
    }
}

fn with_default(text: &str, default: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        default.to_owned()
    } else {
        cap_hook_text(text)
    }
}

fn shorten(text: &str) -> String {
    const MAX: usize = 300;
    if text.chars().count() <= MAX {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(MAX).collect();
    out.push('…');
    out
}

/// What a `PostToolUse` hook reads as the tool's response: Claude Code's
/// fields for its tools (`stdout`/`stderr`/`interrupted` for `Bash`,
/// `filePath`/`success` for the file tools) beside wright's own (`content`,
/// `summary`, `exit_code`, `duration_ms`). `Bash` merges stderr into stdout.
fn tool_response(
    tool: &str,
    touches: &Touches,
    content: &str,
    display: &ToolDisplay,
) -> serde_json::Value {
    let mut response = serde_json::json!({
        "content": content,
        "summary": display.summary,
        "exit_code": display.exit_code,
        "duration_ms": display.duration_ms,
    });
    let extra = match tool {
        "Bash" => serde_json::json!({"stdout": content, "stderr": "", "interrupted": false}),
        "Read" | "Write" | "Edit" => serde_json::json!({
            "filePath": touches.subject_path(),
            "success": true,
        }),
        _ => serde_json::Value::Null,
    };
    if let (Some(map), serde_json::Value::Object(extra)) = (response.as_object_mut(), extra) {
        map.extend(extra);
    }
    response
}

/// Runs `PostToolUse` (or `PostToolUseFailure` for a failed run) and
/// returns what to append to the result for the model, if anything.
pub(crate) async fn after(
    ctx: &TurnContext,
    call: (&str, &str, &serde_json::Value, &Touches),
    status: ToolCallStatus,
    content: &str,
    display: &ToolDisplay,
    cancel: &CancellationToken,
) -> Option<String> {
    let (call_id, tool, args, touches) = call;
    let payload = match status {
        ToolCallStatus::Completed => HookPayload::PostToolUse {
            tool_name: tool.to_owned(),
            tool_input: args.clone(),
            tool_response: tool_response(tool, touches, content, display),
            tool_use_id: call_id.to_owned(),
        },
        ToolCallStatus::Failed => HookPayload::PostToolUseFailure {
            tool_name: tool.to_owned(),
            tool_input: args.clone(),
            tool_use_id: call_id.to_owned(),
            error: content.to_owned(),
            is_interrupt: None,
        },
        // Refused and cancelled calls did not run.
        ToolCallStatus::Denied | ToolCallStatus::Cancelled | ToolCallStatus::InProgress => {
            return None;
        }
    };
    if !hook_points::any(ctx, &payload) {
        return None;
    }
    let event = payload.event().as_str();
    let run = hook_points::run(ctx, payload, cancel).await;
    if let Some(reason) = &run.stop {
        ctx.stop.request(reason);
    }
    let mut notes = Vec::new();
    if let Some(reason) = &run.block {
        notes.push(format!(
            "[{event} hook feedback]\n{}",
            cap_hook_text(reason.trim())
        ));
    }
    notes.extend(hook_points::context_text(event, &run.additional_context));
    (!notes.is_empty()).then(|| notes.join("\n\n"))
}
