//! One user turn: model requests and tool rounds until the model stops
//! asking for tools, the request limit is hit, an error ends it, or the user
//! interrupts. Every tool call in the history gets exactly one result, so
//! the conversation stays valid for the next request whatever happened.

use std::sync::Arc;
use std::time::Instant;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use wright_llm::{LlmError, ModelClient, ModelRequest, StreamEvent};
use wright_protocol::{
    ContentBlock, EventKind, Item, ItemDelta, ItemKind, Message, Role, StopReason, TurnEndReason,
    Usage,
};
use wright_tools::ToolRegistry;

use crate::dispatch::{announce_tool_calls, run_tool_calls};
use crate::emitter::Emitter;
use crate::session::SessionOptions;

/// The services and settings a turn runs with.
pub(crate) struct TurnContext {
    pub(crate) options: SessionOptions,
    pub(crate) client: Arc<dyn ModelClient>,
    pub(crate) tools: Arc<ToolRegistry>,
    pub(crate) emitter: Emitter,
    /// Session totals across turns.
    pub(crate) totals: std::sync::Mutex<Totals>,
}

/// Usage and cost summed over the session.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Totals {
    pub(crate) usage: Usage,
    pub(crate) cost_usd: f64,
}

/// Runs one user turn to its end, appending to `history`.
pub(crate) async fn run_turn(
    ctx: &TurnContext,
    history: &mut Vec<Message>,
    text: String,
    cancel: CancellationToken,
) {
    let emitter = &ctx.emitter;
    emitter.begin_turn();
    emitter.emit(EventKind::TurnStarted);
    history.push(Message::user_text(text));
    let mut requests = 0u32;
    let reason = loop {
        if requests >= ctx.options.max_turns {
            emitter.warning(format!(
                "Stopped after {requests} model requests (--max-turns {}).",
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
        requests += 1;
        let started = Instant::now();
        let response = match stream_one(ctx, history, &cancel).await {
            Ok(response) => response,
            Err(LlmError::Cancelled) => break TurnEndReason::Interrupted,
            Err(err) => {
                emitter.error(err.to_string());
                break TurnEndReason::Failed;
            }
        };
        let calls = announce_tool_calls(ctx, &response.message);
        report_usage(ctx, response.usage, started);
        history.push(response.message);
        if calls.is_empty() {
            break TurnEndReason::Completed;
        }
        let results = run_tool_calls(ctx, calls, &cancel).await;
        history.push(Message {
            role: Role::User,
            content: results,
        });
        if cancel.is_cancelled() {
            break TurnEndReason::Interrupted;
        }
    };
    emitter.emit(EventKind::TurnCompleted {
        reason,
        model_requests: requests,
    });
}

/// A complete model response.
struct Response {
    message: Message,
    usage: Usage,
}

/// Streams one model response, emitting message and reasoning items as they
/// arrive, and returns the assembled assistant message.
async fn stream_one(
    ctx: &TurnContext,
    history: &[Message],
    cancel: &CancellationToken,
) -> Result<Response, LlmError> {
    let request = ModelRequest {
        model: ctx.options.model.clone(),
        system: ctx.options.system_prompt.clone(),
        messages: history.to_vec(),
        tools: ctx.tools.specs(),
        max_tokens: ctx.options.max_tokens,
        ..ModelRequest::default()
    };
    let mut stream = ctx.client.stream(request, cancel.child_token());
    let mut open = OpenItems::default();
    let emitter = &ctx.emitter;
    loop {
        let next = tokio::select! {
            next = stream.next() => next,
            () = cancel.cancelled() => {
                open.close(emitter, None);
                return Err(LlmError::Cancelled);
            }
        };
        match next {
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
            Some(Ok(StreamEvent::ToolCallStarted { .. })) => {
                open.close(emitter, None);
            }
            Some(Ok(StreamEvent::Completed {
                message,
                stop_reason,
                usage,
            })) => {
                open.close(emitter, Some(stop_reason));
                if stop_reason == StopReason::MaxTokens {
                    emitter.warning(format!(
                        "The response was cut off at the output limit ({} tokens); raise --max-tokens for longer answers.",
                        ctx.options.max_tokens
                    ));
                }
                return Ok(Response {
                    message: without_empty_text(message),
                    usage,
                });
            }
            Some(Err(err)) => {
                open.close(emitter, None);
                return Err(err);
            }
            None => {
                open.close(emitter, None);
                return Err(LlmError::Truncated {
                    provider: ctx.client.provider(),
                });
            }
        }
    }
}

fn report_usage(ctx: &TurnContext, usage: Usage, started: Instant) {
    let cost_usd = 0.0;
    let totals = match ctx.totals.lock() {
        Ok(mut totals) => {
            totals.usage.add(&usage);
            totals.cost_usd += cost_usd;
            *totals
        }
        Err(_) => Totals { usage, cost_usd },
    };
    ctx.emitter.emit(EventKind::Usage {
        request: usage,
        total: totals.usage,
        cost_usd,
        total_cost_usd: totals.cost_usd,
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
    });
}

/// Providers reject empty text blocks when the conversation is sent back.
fn without_empty_text(mut message: Message) -> Message {
    message
        .content
        .retain(|b| !matches!(b, ContentBlock::Text { text } if text.is_empty()));
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
}

impl OpenItems {
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
            },
        });
        self.reasoning_item = Some(id.clone());
        id
    }

    fn close_reasoning(&mut self, emitter: &Emitter) {
        if let Some(id) = self.reasoning_item.take() {
            emitter.item_completed(Item {
                id,
                kind: ItemKind::Reasoning {
                    text: std::mem::take(&mut self.reasoning),
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
