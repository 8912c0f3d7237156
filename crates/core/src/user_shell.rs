//! `!cmd`: a shell command the user typed, run as work of its own through
//! the model's `Bash` path (hooks, permission check, sandbox; see
//! [`crate::dispatch::run_user_command`]). Claude Code's bash mode: the
//! command and its output join the conversation as user context, recorded
//! to the session like any message (so resume and fork keep it), and no
//! model request is made until the user's next prompt.

use tokio_util::sync::CancellationToken;
use wright_protocol::{EventKind, Message, TurnEndReason};

use crate::context::TurnContext;
use crate::dispatch::run_user_command;
use crate::turn::Conversation;

/// Runs `command` and keeps what it printed for the model's next turn.
pub(crate) async fn run_user_shell(
    ctx: &TurnContext,
    conv: &mut Conversation,
    command: String,
    cancel: CancellationToken,
) {
    let emitter = &ctx.emitter;
    emitter.begin_turn();
    emitter.emit(EventKind::TurnStarted);
    if command.trim().is_empty() {
        emitter.error("`!` needs a command after it, e.g. `!git status`.".to_owned());
    } else if let Some((ran, output)) = run_user_command(ctx, &command, &cancel).await {
        let message = Message::user_text(context_text(&ran, &output));
        ctx.recorder.message(emitter, &message);
        conv.push(message);
    }
    let reason = if cancel.is_cancelled() {
        TurnEndReason::Interrupted
    } else {
        TurnEndReason::Completed
    };
    emitter.emit(EventKind::TurnCompleted {
        reason,
        model_requests: 0,
        structured_output: None,
        structured_output_failed: false,
        plan: None,
    });
}

/// What the model sees of a command the user ran (Claude Code's tags).
fn context_text(command: &str, output: &str) -> String {
    format!("<bash-input>{command}</bash-input>\n<bash-stdout>{output}</bash-stdout>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_and_its_output_are_tagged() {
        assert_eq!(
            context_text("echo hi", "hi\nexit code 0"),
            "<bash-input>echo hi</bash-input>\n<bash-stdout>hi\nexit code 0</bash-stdout>"
        );
    }
}
