//! One user turn: model requests and tool rounds until the model stops
//! asking for tools, the request limit is hit, an error ends it, or the user
//! interrupts. Every tool call in the history gets exactly one result, so
//! the conversation stays valid for the next request whatever happened.

use std::sync::Arc;
use std::time::Instant;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use wright_llm::{LlmError, ModelRequest, StreamEvent};
use wright_protocol::{
    ContentBlock, EventKind, Item, ItemDelta, ItemKind, Message, Role, StopReason, TurnEndReason,
    Usage,
};

use crate::compaction::{self, LastUsage, Trigger};
use crate::context::{TurnContext, report_usage};
use crate::dispatch::{announce_tool_calls, run_tool_calls};
use crate::emitter::Emitter;
use crate::hook_points;
use crate::options::SystemPrompt;
use crate::output_limit;
use crate::spent::SpentSoFar;
use crate::structured::{self, Verdict};

/// The conversation the actor keeps between turns.
#[derive(Debug, Default)]
pub(crate) struct Conversation {
    /// Messages exactly as they will be sent, shared with the request in
    /// flight (which is serialized from it, never copied). Changed through
    /// [`Conversation::push`] and [`Conversation::history_mut`]: nothing
    /// else holds it between requests, so neither copies.
    pub(crate) messages: Arc<Vec<Message>>,
    /// The last provider-reported size, for the compaction estimate.
    pub(crate) last_usage: LastUsage,
    /// The model in use (changes after a fallback).
    pub(crate) model: String,
    /// Whether context warnings were shown already.
    pub(crate) warned_context: bool,
    /// Estimates at or below this do not trigger automatic compaction.
    pub(crate) compaction_floor: u64,
}

impl Conversation {
    /// Appends `message` to the history.
    pub(crate) fn push(&mut self, message: Message) {
        self.history_mut().push(message);
    }

    /// The history, to change in place (copied only if a request still
    /// holds it, which it does not between requests).
    pub(crate) fn history_mut(&mut self) -> &mut Vec<Message> {
        Arc::make_mut(&mut self.messages)
    }
}

/// What a user turn starts from.
pub(crate) struct Prompt {
    /// The user's text.
    pub(crate) text: String,
    /// Images after the text.
    pub(crate) images: Vec<ContentBlock>,
    /// The program's id of the message, recorded right after it.
    pub(crate) uuid: Option<String>,
    /// The prompt as the user typed it, when the text is something else
    /// (a custom command's expansion), recorded after it.
    pub(crate) typed: Option<String>,
}

/// Runs one user turn to its end, appending to the conversation, and
/// says how it ended.
pub(crate) async fn run_turn(
    ctx: &TurnContext,
    conv: &mut Conversation,
    Prompt {
        text,
        images,
        uuid,
        typed,
    }: Prompt,
    cancel: CancellationToken,
) -> TurnEndReason {
    let emitter = &ctx.emitter;
    emitter.begin_turn();
    emitter.emit(EventKind::TurnStarted);
    // Re-assembled each turn so edits to AGENTS.md and friends take effect.
    let mut system = system_prompt(ctx, conv).await;
    if let Some(schema) = &ctx.options.json_schema {
        system.push_str(&structured::instructions(schema));
    }
    // Kept for the whole turn (an approved plan says so in its result), so
    // the prompt cache holds.
    if ctx.tools.interactive() && ctx.gate.mode() == wright_permissions::Mode::Plan {
        system.push_str(crate::interaction::PLAN_MODE_NOTE);
    }
    let prompt = match hook_points::prompt_submitted(ctx, text, &cancel).await {
        Ok(prompt) => prompt,
        Err(reason) => {
            emitter.error(format!(
                "The prompt was blocked by a UserPromptSubmit hook: {reason}"
            ));
            emitter.emit(EventKind::TurnCompleted {
                reason: TurnEndReason::Failed,
                model_requests: 0,
                structured_output: None,
                structured_output_failed: false,
                plan: None,
            });
            return TurnEndReason::Failed;
        }
    };
    let mut prompt = crate::mcp_resources::attach_mentions(ctx, prompt, &cancel).await;
    if ctx.role == crate::context::Role::Root {
        crate::file_mentions::attach(ctx, &mut prompt, &cancel).await;
    }
    if !images.is_empty() {
        // Providers refuse an empty text block; the images may be the
        // whole question.
        prompt
            .content
            .retain(|b| !matches!(b, ContentBlock::Text { text } if text.is_empty()));
        prompt.content.extend(images);
    }
    ctx.recorder.message(emitter, &prompt);
    if let Some(uuid) = uuid {
        ctx.recorder
            .append(emitter, &wright_store::EntryBody::MessageUuid { uuid });
    }
    if let Some(text) = typed {
        ctx.recorder
            .append(emitter, &wright_store::EntryBody::PromptTyped { text });
    }
    conv.push(prompt);
    let mut requests = 0u32;
    let mut stop_hook_active = false;
    let mut schema_retried = false;
    let mut structured_output = None;
    let mut structured_output_failed = false;
    let mut plan = None;
    let mut continuations = 0u32;
    let reason = loop {
        if requests >= ctx.options.max_turns {
            // A child's limit is its definition's or `[agents] max_turns`.
            let limit = match ctx.role {
                crate::context::Role::Root => "--max-turns",
                crate::context::Role::Subagent => "its limit",
            };
            emitter.warning(format!(
                "Stopped after {requests} model requests ({limit} {}).",
                ctx.options.max_turns
            ));
            break TurnEndReason::MaxTurns;
        }
        if let Some(budget) = ctx.options.max_budget_usd {
            let spent = ctx.totals.lock().map(|t| t.cost_usd).unwrap_or(0.0);
            if spent >= budget {
                emitter.warning(format!(
                    "Stopped: the session has cost ${spent:.4}, over --max-budget-usd {budget}."
                ));
                break TurnEndReason::MaxBudget;
            }
        }
        let estimate = compaction::estimate(ctx, &conv.messages, &system, conv.last_usage);
        // After a compaction that could free nothing, wait for real growth
        // rather than trying (and announcing) it before every request.
        if compaction::needed(ctx, estimate) && estimate > conv.compaction_floor {
            let job = compaction::Job {
                system: &system,
                model: &conv.model,
                before: estimate,
                trigger: Trigger::Auto,
                focus: None,
            };
            match compaction::compact(ctx, Arc::make_mut(&mut conv.messages), &job, &cancel).await {
                Ok(done) if done.freed() => conv.last_usage = None,
                Ok(_) => conv.compaction_floor = estimate + estimate / 10,
                Err(LlmError::Cancelled) => break TurnEndReason::Interrupted,
                Err(e) => emitter.warning(format!(
                    "Compaction failed ({e}); continuing with the full conversation."
                )),
            }
        }
        apply_model_change(ctx, conv);
        requests += 1;
        let response = match respond(ctx, conv, &system, &cancel).await {
            // An empty answer (some models give one after tool results) is
            // not kept: providers reject empty assistant messages.
            Ok(response) if response.message.content.is_empty() => {
                report_usage(ctx, &conv.model, response.usage, response.started);
                match finish(ctx, conv, "", &mut schema_retried) {
                    Finish::Done(value) => {
                        structured_output = value;
                        break TurnEndReason::Completed;
                    }
                    Finish::Retry => continue,
                    Finish::Failed => {
                        structured_output_failed = true;
                        break TurnEndReason::Failed;
                    }
                }
            }
            Ok(response) => response,
            Err(LlmError::Cancelled) => break TurnEndReason::Interrupted,
            Err(err) => {
                emitter.error(err.to_string());
                break TurnEndReason::Failed;
            }
        };
        let cut_off = response.stop_reason == StopReason::MaxTokens;
        let calls = announce_tool_calls(ctx, &response.message, cut_off);
        ctx.recorder.message(emitter, &response.message);
        report_usage(ctx, &conv.model, response.usage, response.started);
        conv.push(response.message);
        // Servers that report no usage (some local ones) leave the estimate
        // to chars/4 of the whole conversation.
        let reported = response
            .usage
            .total_input()
            .saturating_add(response.usage.output_tokens);
        conv.last_usage = (reported > 0).then(|| (conv.messages.len() - 1, reported));
        if calls.is_empty() {
            if response.stop_reason == StopReason::PauseTurn {
                // The provider paused a long turn: sending the conversation
                // back as it is lets the model continue.
                continue;
            }
            if cut_off {
                // A cut answer is the final one only at a limit the user chose.
                match output_limit::on_cut_answer(ctx, &mut continuations) {
                    output_limit::CutAnswer::Continue(message) => {
                        ctx.recorder.message(emitter, &message);
                        conv.push(message);
                        continue;
                    }
                    output_limit::CutAnswer::Keep => {}
                    output_limit::CutAnswer::Fail => break TurnEndReason::Failed,
                }
            }
            if let Some(feedback) = hook_points::stop(ctx, stop_hook_active, &cancel).await {
                // A Stop hook said the work is not done: the model hears why.
                stop_hook_active = true;
                let message = Message::user_text(feedback);
                ctx.recorder.message(emitter, &message);
                conv.push(message);
                continue;
            }
            let answer = conv.messages.last().map(Message::text).unwrap_or_default();
            match finish(ctx, conv, &answer, &mut schema_retried) {
                Finish::Done(value) => {
                    structured_output = value;
                    break TurnEndReason::Completed;
                }
                Finish::Retry => continue,
                Finish::Failed => {
                    structured_output_failed = true;
                    break TurnEndReason::Failed;
                }
            }
        }
        // Each result was recorded as its call finished.
        let mut results = Message {
            role: Role::User,
            content: run_tool_calls(ctx, calls, &cancel).await,
        };
        crate::steering::deliver(ctx, &mut results, &cancel).await;
        conv.push(results);
        if cancel.is_cancelled() {
            break TurnEndReason::Interrupted;
        }
        if let Some(reason) = ctx.stop.take() {
            emitter.notice(format!("A hook stopped the turn: {reason}"));
            break TurnEndReason::Completed;
        }
        if let Some(presented) = ctx.presented_plan.take() {
            plan = Some(presented);
            break TurnEndReason::Completed;
        }
    };
    emitter.emit(EventKind::TurnCompleted {
        reason,
        model_requests: requests,
        structured_output,
        structured_output_failed,
        plan,
    });
    reason
}

/// How a turn's final answer stands against the session's JSON schema.
enum Finish {
    /// Accepted: the parsed value when a schema is set.
    Done(Option<serde_json::Value>),
    /// Invalid; the reasons were sent to the model for one more answer.
    Retry,
    /// Still invalid after the retry.
    Failed,
}

/// Checks the final answer against `--json-schema`, if one is set. The
/// first invalid answer is sent back with the reasons (one retry within
/// the same turn); a second one fails the turn.
fn finish(ctx: &TurnContext, conv: &mut Conversation, answer: &str, retried: &mut bool) -> Finish {
    let Some(schema) = &ctx.options.json_schema else {
        return Finish::Done(None);
    };
    match structured::check_answer(schema, answer) {
        Verdict::Valid(value) => Finish::Done(Some(value)),
        Verdict::Invalid(why) if !*retried => {
            *retried = true;
            ctx.emitter.warning(format!(
                "The answer does not match --json-schema; asking the model once more ({why})."
            ));
            let message = Message::user_text(structured::retry_message(&why));
            ctx.recorder.message(&ctx.emitter, &message);
            conv.push(message);
            Finish::Retry
        }
        Verdict::Invalid(why) => {
            ctx.emitter.error(format!(
                "The answer still does not match --json-schema after one retry: {why}"
            ));
            Finish::Failed
        }
    }
}

/// Applies a model switch asked for with `Op::SetModel` since the last
/// request.
fn apply_model_change(ctx: &TurnContext, conv: &mut Conversation) {
    let change = ctx.live.lock().ok().and_then(|mut live| live.model.take());
    if let Some(model) = change {
        conv.model = model.unwrap_or_else(|| ctx.options.model.clone());
    }
}

/// The system prompt for the next request: the fixed text, or the context
/// assembled afresh (its warnings shown once per session). Assembly reads
/// instruction, skill and memory files and runs `git status`, so it runs on
/// a blocking thread, off the async workers.
pub(crate) async fn system_prompt(ctx: &TurnContext, conv: &mut Conversation) -> String {
    match &ctx.options.system_prompt {
        SystemPrompt::Fixed(text) => text.clone(),
        SystemPrompt::Assembled(inputs) => {
            let owned = inputs.clone();
            let assembled =
                tokio::task::spawn_blocking(move || wright_context::assemble(&owned)).await;
            let context = match assembled {
                Ok(context) => context,
                // The blocking pool only fails when the runtime shuts down.
                Err(_) => wright_context::assemble(inputs),
            };
            if !conv.warned_context {
                conv.warned_context = true;
                for warning in &context.warnings {
                    ctx.emitter.warning(warning.to_string());
                }
            }
            context.system_prompt()
        }
    }
}

/// One model response, retried on transient errors (with the attempt
/// announced), compacted and retried once when the provider says the prompt
/// is too long, and moved to the fallback model after repeated overloads.
async fn respond(
    ctx: &TurnContext,
    conv: &mut Conversation,
    system: &str,
    cancel: &CancellationToken,
) -> Result<Response, LlmError> {
    let mut attempt = 0u32;
    let mut overloads = 0u32;
    let mut compacted = false;
    let mut stalls = 0u32;
    // The total limit covers every attempt of this response together.
    let first_attempt = Instant::now();
    loop {
        // A broken attempt is retried whatever it showed: no tool of a
        // response runs before the response is complete, and only complete
        // responses are recorded, so a retry runs nothing twice. What it
        // showed is named in the retry event, for each front end to mark
        // or drop.
        let (err, superseded) =
            match stream_one(ctx, &conv.messages, system, &conv.model, cancel).await {
                Ok(response) => return Ok(response),
                Err(Broken {
                    err: LlmError::Cancelled,
                    ..
                }) => return Err(LlmError::Cancelled),
                Err(Broken { err, shown }) => (err, shown),
            };
        if compaction::is_overflow(&err) && !compacted {
            compacted = true;
            let estimate = compaction::estimate(ctx, &conv.messages, system, conv.last_usage);
            let job = compaction::Job {
                system,
                model: &conv.model,
                before: estimate,
                trigger: Trigger::Overflow,
                focus: None,
            };
            if compaction::compact(ctx, Arc::make_mut(&mut conv.messages), &job, cancel)
                .await?
                .freed()
            {
                conv.last_usage = None;
                continue;
            }
            return Err(err);
        }
        if is_overload(&err) {
            overloads += 1;
            if let Some(fallback) = &ctx.options.fallback_model
                && overloads >= 2
                && *fallback != conv.model
            {
                ctx.emitter.warning(format!(
                    "{} is overloaded; switching to the fallback model {fallback} for the rest of the session.",
                    conv.model
                ));
                conv.model.clone_from(fallback);
                attempt = 0;
                // What the overloaded attempt showed is superseded by the
                // fallback's answer, as on any retry.
                if !superseded.is_empty() {
                    ctx.emitter.emit(EventKind::Retrying {
                        attempt: 1,
                        delay_ms: 0,
                        reason: err.to_string(),
                        superseded,
                    });
                }
                continue;
            }
        }
        if err.is_stall() {
            stalls += 1;
            if stalls > ctx.options.retry.stall_retries {
                ctx.emitter.warning(
                    "The server went silent again; not retrying. A slow local server or a \
                     model that thinks without streaming may need a longer \
                     `stream.idle_timeout_secs` (or `stream.first_byte_timeout_secs`)."
                        .to_owned(),
                );
                return Err(err);
            }
        }
        attempt += 1;
        let elapsed = first_attempt.elapsed();
        let Some(delay) = ctx.options.retry.delay_within(attempt, &err, elapsed) else {
            return Err(err);
        };
        ctx.emitter.emit(EventKind::Retrying {
            attempt,
            delay_ms: u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
            reason: err.to_string(),
            superseded,
        });
        tokio::select! {
            () = tokio::time::sleep(delay) => {}
            () = cancel.cancelled() => return Err(LlmError::Cancelled),
        }
    }
}

/// Overloaded servers: Anthropic's 529 and `overloaded_error`, 503s.
fn is_overload(err: &LlmError) -> bool {
    match err {
        LlmError::Http { status, .. } => matches!(status, 503 | 529),
        LlmError::Api { message, .. } => message.to_ascii_lowercase().contains("overloaded"),
        _ => false,
    }
}

/// A stream that failed before its response was complete.
struct Broken {
    err: LlmError,
    /// The ids of the items it had shown (text and reasoning so far).
    shown: Vec<String>,
}

/// A complete model response.
struct Response {
    message: Message,
    usage: Usage,
    stop_reason: StopReason,
    started: Instant,
}

/// Streams one model response, emitting message and reasoning items as they
/// arrive, and returns the assembled assistant message.
async fn stream_one(
    ctx: &TurnContext,
    history: &Arc<Vec<Message>>,
    system: &str,
    model: &str,
    cancel: &CancellationToken,
) -> Result<Response, Broken> {
    let tools = ctx
        .tools
        .specs_for_request(
            &ctx.emitter,
            ctx.options.compaction.context_window,
            crate::toolbox::Asking {
                mode: ctx.gate.mode(),
                can_ask: ctx.gate.can_ask(),
            },
        )
        .await;
    let started = Instant::now();
    let request = ModelRequest {
        model: model.to_owned(),
        system: system.to_owned(),
        messages: Arc::clone(history),
        tools,
        max_tokens: ctx.options.max_tokens,
        reasoning_effort: ctx.options.reasoning_effort,
        thinking_budget: ctx.thinking_budget(),
        prompt_cache: true,
    };
    let mut stream = ctx.client.stream(request, cancel.child_token());
    let mut open = OpenItems::default();
    let mut spent = SpentSoFar::default();
    let emitter = &ctx.emitter;
    loop {
        let next = tokio::select! {
            next = stream.next() => next,
            () = cancel.cancelled() => {
                open.close(emitter, None);
                spent.report(ctx, model, started);
                return Err(Broken { err: LlmError::Cancelled, shown: open.take_shown() });
            }
        };
        if let Some(Ok(StreamEvent::TextDelta(delta) | StreamEvent::ThinkingDelta(delta))) = &next {
            spent.streamed(delta);
        }
        match next {
            Some(Ok(StreamEvent::Usage(usage))) => spent.reported = usage,
            Some(Ok(StreamEvent::TextDelta(delta))) => {
                open.close_reasoning(emitter);
                let id = open.text_id(emitter);
                open.text.push_str(&delta);
                emitter.item_delta(&id, ItemDelta::Text(delta));
            }
            Some(Ok(StreamEvent::ThinkingDelta(delta))) => {
                let id = open.reasoning_id(emitter);
                open.reasoning.push_str(&delta);
                emitter.item_delta(&id, ItemDelta::Reasoning(delta));
            }
            Some(Ok(StreamEvent::ThinkingSignature(signature))) => {
                // A block may be signed with no visible text: it is shown
                // (empty) so its signature is not lost to front ends.
                open.reasoning_id(emitter);
                open.signature = Some(signature);
            }
            Some(Ok(StreamEvent::ToolCallStarted { .. })) => {
                open.close(emitter, None);
            }
            Some(Ok(StreamEvent::Completed {
                message,
                stop_reason,
                usage,
            })) => {
                open.close(emitter, Some(stop_reason));
                if stop_reason == StopReason::Refusal {
                    emitter.warning("The model declined to continue (refusal).".to_owned());
                }
                return Ok(Response {
                    message: tidy_response(message, history),
                    usage,
                    stop_reason,
                    started,
                });
            }
            Some(Err(err)) => {
                open.close(emitter, None);
                // A cancelled request ends the turn: its usage is
                // reported. A broken attempt is paid for too, counted into
                // the totals so a retried response's usage covers both.
                if matches!(err, LlmError::Cancelled) {
                    spent.report(ctx, model, started);
                } else {
                    spent.count(ctx, model);
                }
                let shown = open.take_shown();
                return Err(Broken { err, shown });
            }
            None => {
                open.close(emitter, None);
                spent.count(ctx, model);
                let err = LlmError::Truncated {
                    provider: ctx.client.provider(),
                };
                return Err(Broken {
                    err,
                    shown: open.take_shown(),
                });
            }
        }
    }
}

/// Makes a response safe to send back: providers reject empty text blocks,
/// tool calls without a name, and tool-call ids used twice, and a model or
/// server that produced one would otherwise break every later request.
fn tidy_response(mut message: Message, history: &[Message]) -> Message {
    message
        .content
        .retain(|b| !matches!(b, ContentBlock::Text { text } if text.is_empty()));
    // A scan per call, not a set of the whole history's ids: a response has
    // a few calls, and building the set cost every turn time and
    // allocations in proportion to the session's length.
    let mut ours: Vec<String> = Vec::new();
    let taken = |id: &str, ours: &[String]| {
        ours.iter().any(|o| o == id)
            || history
                .iter()
                .any(|m| m.tool_calls().any(|(old, _, _)| old == id))
    };
    for (n, block) in message.content.iter_mut().enumerate() {
        if let ContentBlock::ToolCall { id, name, .. } = block {
            if name.trim().is_empty() {
                "unnamed_tool".clone_into(name);
            }
            if id.trim().is_empty() || taken(id, &ours) {
                let base = if id.trim().is_empty() {
                    "call"
                } else {
                    id.as_str()
                };
                // Numbered past the calls so far, so a server that repeats
                // one id every turn does not make each turn try every
                // earlier rename first.
                let earlier: usize = history.iter().map(|m| m.tool_calls().count()).sum();
                let mut k = earlier + n;
                let mut fresh = format!("{base}_{k}");
                while taken(&fresh, &ours) {
                    k += 1;
                    fresh = format!("{base}_{k}");
                }
                *id = fresh;
            }
            ours.push(id.clone());
        }
    }
    message
}

/// Text and reasoning items being streamed, so each is started once and
/// completed once.
#[derive(Default)]
struct OpenItems {
    text_item: Option<String>,
    text: String,
    reasoning_item: Option<String>,
    reasoning: String,
    /// The open reasoning block's signature, once the provider sent it.
    signature: Option<String>,
    /// Every text or reasoning item this response started, in order.
    shown: Vec<String>,
}

impl OpenItems {
    /// The items this response has shown so far.
    fn take_shown(&mut self) -> Vec<String> {
        std::mem::take(&mut self.shown)
    }

    fn text_id(&mut self, emitter: &Emitter) -> String {
        if let Some(id) = &self.text_item {
            return id.clone();
        }
        let id = emitter.next_item_id();
        emitter.item_started(Item {
            id: id.clone(),
            kind: ItemKind::AgentMessage {
                text: String::new(),
                stop_reason: None,
            },
        });
        self.text_item = Some(id.clone());
        self.shown.push(id.clone());
        id
    }

    fn reasoning_id(&mut self, emitter: &Emitter) -> String {
        if let Some(id) = &self.reasoning_item {
            return id.clone();
        }
        let id = emitter.next_item_id();
        emitter.item_started(Item {
            id: id.clone(),
            kind: ItemKind::Reasoning {
                text: String::new(),
                signature: None,
            },
        });
        self.reasoning_item = Some(id.clone());
        self.shown.push(id.clone());
        id
    }

    fn close_reasoning(&mut self, emitter: &Emitter) {
        if let Some(id) = self.reasoning_item.take() {
            emitter.item_completed(Item {
                id,
                kind: ItemKind::Reasoning {
                    text: std::mem::take(&mut self.reasoning),
                    signature: self.signature.take(),
                },
            });
        }
    }

    fn close(&mut self, emitter: &Emitter, stop_reason: Option<StopReason>) {
        self.close_reasoning(emitter);
        if let Some(id) = self.text_item.take() {
            emitter.item_completed(Item {
                id,
                kind: ItemKind::AgentMessage {
                    text: std::mem::take(&mut self.text),
                    stop_reason,
                },
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(id: &str, name: &str) -> ContentBlock {
        ContentBlock::ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: "{}".into(),
        }
    }

    fn ids(message: &Message) -> Vec<&str> {
        message.tool_calls().map(|(id, _, _)| id).collect()
    }

    #[test]
    fn tidying_makes_ids_unique_and_names_nonempty() {
        let history = vec![Message {
            role: Role::Assistant,
            content: vec![call("a", "Read"), call("a_1", "Read")],
        }];
        let response = Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Text {
                    text: String::new(),
                },
                call("a", "Bash"),
                call("", " "),
                call("b", "Read"),
                call("b", "Read"),
            ],
        };
        let tidy = tidy_response(response, &history);
        // The empty text is gone, so the calls are blocks 0..4.
        // Renames are numbered past the history's two calls.
        assert_eq!(ids(&tidy), ["a_2", "call_3", "b", "b_5"]);
        assert_eq!(tidy.tool_calls().nth(1).map(|c| c.1), Some("unnamed_tool"));
        let again = tidy_response(
            Message {
                role: Role::Assistant,
                content: vec![call("a", "Bash"), call("a_6", "Bash")],
            },
            &[history[0].clone(), tidy.clone()],
        );
        // Six calls so far: `a` becomes `a_6`, so the server's own `a_6`
        // is renamed in turn.
        assert_eq!(ids(&again), ["a_6", "a_6_7"]);
    }
}
