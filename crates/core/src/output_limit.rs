//! Answers cut off by the output token limit. Unless the user chose the
//! limit (then the cut answer is the answer), a cut answer is never taken
//! as the final one: the model is asked to continue it, a bounded number of
//! times, and a turn still cut after that fails with a clear error (a
//! non-zero exit in print and JSON modes). A cut tool call is never run;
//! [`crate::dispatch`] answers it with a result asking for a smaller step.

use wright_protocol::Message;

use crate::context::TurnContext;

/// How many times one turn asks the model to continue a cut answer.
pub(crate) const MAX_CONTINUATIONS: u32 = 3;

/// The user message asking the model to carry on where its answer stopped.
/// A user message (not an assistant prefill) works the same on every
/// protocol and with extended thinking, which forbids prefills.
pub(crate) fn continue_message() -> Message {
    Message::user_text(
        "Your previous answer was cut off by the output token limit. Continue exactly where it \
         stopped, without repeating anything already written.",
    )
}

/// What becomes of an answer cut at the output limit.
pub(crate) enum CutAnswer {
    /// Ask the model to go on with this message.
    Continue(Message),
    /// The user chose the limit: the cut answer is the answer.
    Keep,
    /// Still cut after every continuation: the turn fails.
    Fail,
}

/// What to do with an answer that ended at the output limit without a tool
/// call: keep it when the user chose the limit (a cap they set is never
/// continued past), else ask for a continuation (warning the user), or
/// fail the turn once the continuations are spent.
pub(crate) fn on_cut_answer(ctx: &TurnContext, continuations: &mut u32) -> CutAnswer {
    if ctx.options.max_tokens_chosen {
        ctx.emitter.warning(format!(
            "The answer stopped at the output limit you set ({} tokens); raise --max-tokens \
             (or max_tokens) for a longer one.",
            ctx.options.max_tokens
        ));
        return CutAnswer::Keep;
    }
    if *continuations >= MAX_CONTINUATIONS {
        ctx.emitter.error(format!(
            "The answer was still cut off at the output limit ({} tokens) after {MAX_CONTINUATIONS} \
             continuations; raise --max-tokens or ask for a shorter answer.",
            ctx.options.max_tokens
        ));
        return CutAnswer::Fail;
    }
    *continuations += 1;
    ctx.emitter.warning(format!(
        "The answer was cut off at the output limit ({} tokens); asking the model to continue \
         ({}/{MAX_CONTINUATIONS}).",
        ctx.options.max_tokens, *continuations
    ));
    CutAnswer::Continue(continue_message())
}
