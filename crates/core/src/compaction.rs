//! Keeps long sessions inside the model's context window: estimates the
//! conversation's size before each request and, past the threshold (or when
//! the provider says the prompt is too long), first stubs old tool results,
//! then summarizes older turns with the model and keeps the recent ones
//! verbatim. The pure parts live in `wright_context::compaction`.

use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use wright_context::compaction as pure;
use wright_hooks::hook::{CompactTrigger, HookPayload, SessionStartSource};
use wright_llm::{LlmError, ModelRequest, StreamEvent};
use wright_protocol::{Item, ItemKind, Message};
use wright_store::EntryBody;

use crate::context::{TurnContext, report_usage};
use crate::hook_points;

/// What set a compaction off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// The estimate passed the threshold.
    Auto,
    /// The provider rejected the request as too long.
    Overflow,
    /// The user asked (`/compact`, `wright compact`).
    Manual,
}

impl Trigger {
    fn as_str(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Overflow => "overflow",
            Self::Manual => "manual",
        }
    }
}

/// The last provider-reported size: the history index it covered and its tokens.
pub(crate) type LastUsage = Option<(usize, u64)>;

/// Estimated tokens of the next request.
pub(crate) fn estimate(
    ctx: &TurnContext,
    history: &[Message],
    system: &str,
    last: LastUsage,
) -> u64 {
    let fixed = match last {
        // A reported usage already counts the system prompt and tools.
        Some(_) => 0,
        None => {
            let tools = ctx.tools.chars();
            u64::try_from((system.len() + tools).div_ceil(4)).unwrap_or(u64::MAX)
        }
    };
    pure::estimate_tokens(history, last).saturating_add(fixed)
}

/// Whether the next request should be preceded by a compaction.
pub(crate) fn needed(ctx: &TurnContext, estimate: u64) -> bool {
    let o = &ctx.options.compaction;
    // An output cap near the window (a local model with a generous
    // --max-tokens) would leave no room at all; reserve at most a quarter.
    let reserved = u64::from(ctx.options.max_tokens).min(o.context_window / 4);
    o.auto
        && pure::should_compact(
            estimate,
            o.context_window,
            reserved,
            pure::Margin::Percent(o.margin_percent),
        )
}

/// Whether an error says the prompt did not fit the model's window.
pub(crate) fn is_overflow(err: &LlmError) -> bool {
    let LlmError::Http {
        status, message, ..
    } = err
    else {
        return false;
    };
    let m = message.to_ascii_lowercase();
    (*status == 400 || *status == 413)
        && (m.contains("prompt is too long")
            || m.contains("context_length_exceeded")
            || m.contains("maximum context length")
            || m.contains("context window")
            || m.contains("too many tokens")
            || m.contains("input is too long"))
}

/// One compaction to run.
pub(crate) struct Job<'a> {
    /// The system prompt in force (for estimates).
    pub(crate) system: &'a str,
    /// The model that writes the summary (the session's current one).
    pub(crate) model: &'a str,
    /// The estimate that set it off.
    pub(crate) before: u64,
    /// What set it off.
    pub(crate) trigger: Trigger,
    /// What the summary should keep in particular.
    pub(crate) focus: Option<&'a str>,
}

/// What a compaction did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Compacted {
    /// The conversation is smaller now.
    Freed {
        /// Summary requests made (0 when trimming old results was enough).
        requests: u32,
    },
    /// Nothing was freed (the conversation may have been trimmed a little).
    Nothing {
        /// Summary requests made: 1 when a summary was written but dropped
        /// for being larger than what it replaced; it was paid for all the
        /// same.
        requests: u32,
    },
}

impl Compacted {
    /// Whether the conversation is smaller now.
    pub(crate) fn freed(self) -> bool {
        matches!(self, Compacted::Freed { .. })
    }

    /// The model requests the compaction made.
    pub(crate) fn requests(self) -> u32 {
        match self {
            Compacted::Freed { requests } | Compacted::Nothing { requests } => requests,
        }
    }
}

/// Compacts `history` in place, saying what it did.
pub(crate) async fn compact(
    ctx: &TurnContext,
    history: &mut Vec<Message>,
    job: &Job<'_>,
    cancel: &CancellationToken,
) -> Result<Compacted, LlmError> {
    let emitter = &ctx.emitter;
    let keep = ctx
        .options
        .compaction
        .keep_recent_tokens
        .min(pure::keep_recent_for_window(
            ctx.options.compaction.context_window,
        ));
    let item_id = emitter.next_item_id();
    let item = |after: u64| Item {
        id: item_id.clone(),
        kind: ItemKind::Compaction {
            tokens_before: job.before,
            tokens_after: after,
            trigger: job.trigger.as_str().to_owned(),
        },
    };
    let pre_compact = HookPayload::PreCompact {
        trigger: match job.trigger {
            Trigger::Manual => CompactTrigger::Manual,
            Trigger::Auto | Trigger::Overflow => CompactTrigger::Auto,
        },
        custom_instructions: job.focus.unwrap_or_default().to_owned(),
    };
    if hook_points::any(ctx, &pre_compact)
        && let Some(reason) = hook_points::run(ctx, pre_compact, cancel).await.block
    {
        emitter.warning(format!(
            "A PreCompact hook blocked compaction: {}",
            reason.trim()
        ));
        return Ok(Compacted::Nothing { requests: 0 });
    }
    // Cheap first: old tool output is the bulk of most long sessions.
    let (trimmed, _) = pure::trim_old_tool_results(history, keep);
    let after_trim = estimate(ctx, &trimmed, job.system, None);
    if job.trigger == Trigger::Auto && !needed(ctx, after_trim) {
        // Not recorded: a resumed session trims the same results again on
        // its first estimate, and re-writing them here would double the file.
        emitter.item_started(item(0));
        *history = trimmed;
        emitter.item_completed(item(after_trim));
        return Ok(Compacted::Freed { requests: 0 });
    }
    let cut = pure::choose_cut(&trimmed, keep);
    if cut == 0 {
        // Only trimming can help; a conversation it does not shrink is
        // left exactly as it was.
        if after_trim < job.before {
            emitter.item_started(item(0));
            *history = trimmed;
            emitter.item_completed(item(after_trim));
        }
        if needed(ctx, after_trim) {
            emitter.warning(
                "Nothing left to compact: the recent turns alone fill the context window."
                    .to_owned(),
            );
        } else if after_trim >= job.before {
            emitter.notice(format!(
                "Nothing to compact: the conversation is already small (~{} tokens).",
                job.before
            ));
        }
        return Ok(Compacted::Nothing { requests: 0 });
    }
    emitter.item_started(item(0));
    let summary = match summarize(ctx, &trimmed[..cut], job, cancel).await {
        Ok(summary) => summary,
        Err(e) => {
            // The item still ends, with nothing freed.
            emitter.item_completed(item(job.before));
            return Err(e);
        }
    };
    let compacted = pure::apply_summary(&summary, pure::kept_messages(&trimmed, cut));
    let after = estimate(ctx, &compacted, job.system, None);
    if after >= after_trim {
        // A compaction never makes the conversation larger: the summary
        // is dropped and the conversation kept (trimmed, if that helped).
        let kept = if after_trim < job.before {
            *history = trimmed;
            after_trim
        } else {
            job.before
        };
        emitter.item_completed(item(kept));
        emitter.notice(format!(
            "Not compacted: the summary (~{after} tokens) would be larger than what it replaces; \
             the conversation is unchanged (~{kept} tokens)."
        ));
        return Ok(Compacted::Nothing { requests: 1 });
    }
    ctx.recorder.append(
        emitter,
        &EntryBody::Compaction {
            summary: summary.clone(),
            first_kept: None,
            tokens_before: Some(job.before),
            messages_follow: true,
        },
    );
    // The compacted conversation is recorded whole so a resume sees exactly it.
    for message in &compacted {
        ctx.recorder.message(emitter, message);
    }
    *history = compacted;
    emitter.item_completed(item(after));
    hook_points::session_start(ctx, SessionStartSource::Compact, cancel).await;
    Ok(Compacted::Freed { requests: 1 })
}

/// Asks the model for the structured summary of `older`.
async fn summarize(
    ctx: &TurnContext,
    older: &[Message],
    job: &Job<'_>,
    cancel: &CancellationToken,
) -> Result<String, LlmError> {
    let started = std::time::Instant::now();
    let (system, messages) = pure::summary_request(older, job.focus);
    let request = ModelRequest {
        model: job.model.to_owned(),
        system,
        messages: messages.into(),
        tools: Vec::new(),
        max_tokens: ctx.options.max_tokens.min(8192),
        ..ModelRequest::default()
    };
    let mut stream = ctx.client.stream(request, cancel.child_token());
    let mut spent = crate::spent::SpentSoFar::default();
    while let Some(event) = stream.next().await {
        let event = match event {
            Ok(event) => event,
            Err(e) => {
                if matches!(e, LlmError::Cancelled) {
                    // Cut off by a cancel: what it cost is still spent.
                    spent.report(ctx, job.model, started);
                }
                return Err(e);
            }
        };
        match &event {
            StreamEvent::Usage(usage) => spent.reported = *usage,
            StreamEvent::TextDelta(delta) | StreamEvent::ThinkingDelta(delta) => {
                spent.streamed(delta);
            }
            StreamEvent::ToolCallStarted { .. }
            | StreamEvent::ThinkingSignature(_)
            | StreamEvent::Completed { .. } => {}
        }
        if let StreamEvent::Completed { message, usage, .. } = event {
            // The summary is paid for like any request.
            report_usage(ctx, job.model, usage, started);
            let text = message.text();
            if text.trim().is_empty() {
                break;
            }
            return Ok(text);
        }
    }
    Err(LlmError::Protocol {
        provider: ctx.client.provider(),
        message: "the summary request returned no text".to_owned(),
    })
}
