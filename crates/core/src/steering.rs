//! Messages typed while the agent works (`Op::Steer`): delivered with the
//! tool results of the step that was running, in the request that carries
//! them. What the turn does not take is the session actor's to settle
//! (a turn of its own, or withdrawn by an interrupt).

use tokio_util::sync::CancellationToken;
use wright_protocol::{EventKind, Message};

use crate::context::TurnContext;
use crate::hook_points;
use crate::turn::Prompt;

/// Messages typed while this step ran go to the model with its tool
/// results (after them, in the same user message), when the turn goes on
/// to another request; otherwise they wait for the turn's end, which
/// makes them turns of their own (or withdraws them when interrupted).
/// Each goes through the `UserPromptSubmit` hooks like a prompt and is
/// recorded as a user message of its own.
pub(crate) async fn deliver(ctx: &TurnContext, results: &mut Message, cancel: &CancellationToken) {
    let goes_on =
        !cancel.is_cancelled() && ctx.stop.peek().is_none() && !ctx.presented_plan.is_set();
    if !goes_on {
        return;
    }
    let pending: Vec<Prompt> = ctx
        .steering
        .lock()
        .map(|mut s| std::mem::take(&mut *s))
        .unwrap_or_default();
    for Prompt {
        text, images, uuid, ..
    } in pending
    {
        let shown = text.clone();
        match hook_points::prompt_submitted(ctx, text, cancel).await {
            Ok(mut message) => {
                message.content.extend(images);
                ctx.emitter.emit(EventKind::Steered { text: shown });
                ctx.recorder.message(&ctx.emitter, &message);
                if let Some(uuid) = uuid {
                    ctx.recorder
                        .append(&ctx.emitter, &wright_store::EntryBody::MessageUuid { uuid });
                }
                results.content.extend(message.content);
            }
            Err(reason) => {
                ctx.emitter.error(format!(
                    "The message was blocked by a UserPromptSubmit hook: {reason}"
                ));
                ctx.emitter
                    .emit(EventKind::SteeringWithdrawn { texts: vec![shown] });
            }
        }
    }
}
