//! Collects what a run's final `result` object reports (the `json` and
//! `stream-json` formats share it): turns, usage, cost, timings, the last
//! answer, refused tool calls, the verifier's runs and errors.

use std::time::Instant;

use serde_json::{Value, json};
use wright_protocol::{
    Event, EventKind, ItemKind, StopReason, ToolCallStatus, TurnEndReason, Usage,
};

/// Running totals for one print-mode run.
pub struct RunSummary {
    started: Instant,
    session_id: String,
    model: String,
    num_turns: u32,
    api_ms: u64,
    usage: Usage,
    /// The session's usage when the current turn began: each result
    /// reports its own turn (Claude Code's per-query `usage`).
    usage_at_turn_start: Usage,
    /// The session's cost when the current turn began.
    cost_at_turn_start: f64,
    /// Whether a request's usage has been seen (the first one tells what
    /// a resumed session had spent before this run).
    seen_usage: bool,
    cost_usd: f64,
    /// Text of the last assistant message of the current turn.
    last_text: String,
    /// Whether `last_text` was cut at the output limit or paused, so the
    /// next message (the model's continuation) extends it.
    text_cut: bool,
    /// `last_text` and `text_cut` as the last complete response left
    /// them: a retried attempt's text is not part of the answer.
    text_at_last_response: (String, bool),
    denials: Vec<Value>,
    errors: Vec<String>,
    /// Verifier reports (`Diagnostics` items) in the current turn.
    verifier_runs: u32,
    /// Errors in the most recent of them: what the edited files look like
    /// now, not a sum over checks the model has since fixed.
    verifier_errors: u32,
    /// Requests, tokens and cost per agent path, when subagents ran.
    agents: std::collections::BTreeMap<String, AgentUsage>,
    /// The last turn's answer parsed against `--json-schema`.
    structured_output: Option<Value>,
    /// The last turn's answer never matched `--json-schema`.
    structured_output_failed: bool,
    /// Tokens and cost per model (Claude Code's `modelUsage`).
    models: std::collections::BTreeMap<String, ModelUsage>,
    /// Every turn of this process together: what an interactive session's
    /// closing line reports (each result reports its own turn).
    process: ProcessTotals,
    /// When the summary (the process's run) began.
    created: Instant,
    /// The configured model and the window the session knows for it.
    window: (String, u64),
}

/// Requests and what the session had spent when this process began.
#[derive(Debug, Default, Clone, Copy)]
struct ProcessTotals {
    requests: u32,
    usage_before: Usage,
    cost_before: f64,
}

/// One model's share of a run.
#[derive(Debug, Default, Clone, Copy)]
struct ModelUsage {
    input_tokens: u64,
    output_tokens: u64,
    cache_read_input_tokens: u64,
    cache_creation_input_tokens: u64,
    cost_usd: f64,
}

/// One agent's share of a run.
#[derive(Debug, Default, Clone, Copy)]
struct AgentUsage {
    requests: u32,
    input_tokens: u64,
    output_tokens: u64,
    cost_usd: f64,
}

impl RunSummary {
    /// Starts the clock.
    pub fn new() -> Self {
        Self {
            started: Instant::now(),
            session_id: String::new(),
            model: String::new(),
            num_turns: 0,
            api_ms: 0,
            usage: Usage::default(),
            usage_at_turn_start: Usage::default(),
            cost_at_turn_start: 0.0,
            seen_usage: false,
            cost_usd: 0.0,
            agents: std::collections::BTreeMap::new(),
            models: std::collections::BTreeMap::new(),
            last_text: String::new(),
            text_cut: false,
            text_at_last_response: (String::new(), false),
            denials: Vec::new(),
            errors: Vec::new(),
            verifier_runs: 0,
            verifier_errors: 0,
            structured_output: None,
            structured_output_failed: false,
            process: ProcessTotals::default(),
            created: Instant::now(),
            window: (String::new(), 0),
        }
    }

    /// Takes in one event.
    pub fn observe(&mut self, event: &Event) {
        if self.session_id.is_empty() {
            self.session_id.clone_from(&event.session_id);
        }
        if let EventKind::Usage {
            request,
            cost_usd,
            model,
            ..
        } = &event.kind
        {
            let m = self.models.entry(model.clone()).or_default();
            m.input_tokens += request.input_tokens;
            m.output_tokens += request.output_tokens;
            m.cache_read_input_tokens += request.cache_read_input_tokens;
            m.cache_creation_input_tokens += request.cache_creation_input_tokens;
            m.cost_usd += cost_usd;
            let share = self.agents.entry(event.agent.0.clone()).or_default();
            share.requests += 1;
            share.input_tokens += request.total_input();
            share.output_tokens += request.output_tokens;
            share.cost_usd += cost_usd;
        }
        // A subagent's requests count (their usage events carry the shared
        // session totals); its turns, text and errors are its own.
        if !event.agent.is_root() && !matches!(event.kind, EventKind::Usage { .. }) {
            return;
        }
        match &event.kind {
            EventKind::SessionConfigured {
                model,
                context_window,
                ..
            } => {
                self.model.clone_from(model);
                self.window = (model.clone(), *context_window);
            }
            // Each turn's result speaks for that turn only.
            EventKind::TurnStarted => {
                self.started = Instant::now();
                self.num_turns = 0;
                self.api_ms = 0;
                self.usage_at_turn_start = self.usage;
                self.cost_at_turn_start = self.cost_usd;
                self.models.clear();
                self.agents.clear();
                self.last_text.clear();
                self.text_cut = false;
                self.text_at_last_response = (String::new(), false);
                self.denials.clear();
                self.errors.clear();
                self.verifier_runs = 0;
                self.verifier_errors = 0;
                self.structured_output = None;
                self.structured_output_failed = false;
            }
            EventKind::TurnCompleted {
                structured_output,
                structured_output_failed,
                plan,
                ..
            } => {
                self.structured_output.clone_from(structured_output);
                self.structured_output_failed = *structured_output_failed;
                // A plan nobody could approve is the run's answer.
                if let Some(plan) = plan {
                    self.last_text.clone_from(plan);
                }
            }
            EventKind::Usage {
                request,
                cost_usd,
                total,
                total_cost_usd,
                duration_ms,
                model,
            } => {
                // The first request this run saw, on a resumed session:
                // what the session had spent before is not this run's.
                if !self.seen_usage {
                    self.seen_usage = true;
                    self.usage_at_turn_start = minus(total, request);
                    self.cost_at_turn_start = (total_cost_usd - cost_usd).max(0.0);
                    self.process.usage_before = self.usage_at_turn_start;
                    self.process.cost_before = self.cost_at_turn_start;
                }
                self.process.requests += 1;
                self.model.clone_from(model);
                self.num_turns += 1;
                self.usage = *total;
                self.cost_usd = *total_cost_usd;
                self.api_ms += duration_ms;
                self.text_at_last_response = (self.last_text.clone(), self.text_cut);
            }
            EventKind::Retrying { .. } => {
                (self.last_text, self.text_cut) = self.text_at_last_response.clone();
            }
            EventKind::ItemCompleted { item } => match &item.kind {
                ItemKind::AgentMessage { text, stop_reason } if !text.is_empty() => {
                    if self.text_cut {
                        self.last_text.push_str(text);
                    } else {
                        self.last_text.clone_from(text);
                    }
                    // A cut or paused answer goes on in the next message.
                    self.text_cut = matches!(
                        stop_reason,
                        Some(StopReason::MaxTokens | StopReason::PauseTurn)
                    );
                }
                ItemKind::ToolCall {
                    call_id,
                    name,
                    arguments,
                    status: ToolCallStatus::Denied,
                    output,
                    ..
                } => self.denials.push(json!({
                    "tool_name": name,
                    "tool_use_id": call_id,
                    "tool_input": parse_input(arguments),
                    "reason": output.clone().unwrap_or_default(),
                })),
                ItemKind::Diagnostics { errors, .. } => {
                    self.verifier_runs += 1;
                    self.verifier_errors = *errors;
                }
                _ => {}
            },
            EventKind::Error { message } => self.errors.push(message.clone()),
            _ => {}
        }
    }

    /// The model of the latest request (the configured one before any).
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The session id, once known.
    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    /// The last turn's answer parsed against `--json-schema`, if valid.
    pub fn structured_output(&self) -> Option<&Value> {
        self.structured_output.as_ref()
    }

    /// The `result` object (CLI.md "Machine output").
    pub fn result(&self, reason: TurnEndReason) -> Value {
        let subtype = match reason {
            // Claude Code's subtype: the answer never matched the schema.
            TurnEndReason::Failed if self.structured_output_failed => {
                "error_max_structured_output_retries"
            }
            TurnEndReason::Completed => "success",
            TurnEndReason::MaxTurns => "error_max_turns",
            TurnEndReason::MaxBudget => "error_max_budget",
            TurnEndReason::Interrupted | TurnEndReason::Failed => "error_during_execution",
        };
        let turn = self.run_usage();
        let session = &self.usage;
        let mut result = json!({
            "type": "result",
            "subtype": subtype,
            "is_error": reason != TurnEndReason::Completed,
            "result": self.last_text,
            "session_id": self.session_id,
            "num_turns": self.num_turns,
            "duration_ms": millis(self.started),
            "duration_api_ms": self.api_ms,
            "total_cost_usd": self.run_cost(),
            "usage": {
                "input_tokens": turn.input_tokens,
                "output_tokens": turn.output_tokens,
                "cache_creation_input_tokens": turn.cache_creation_input_tokens,
                "cache_read_input_tokens": turn.cache_read_input_tokens,
            },
            "session_usage": {
                "input_tokens": session.input_tokens,
                "output_tokens": session.output_tokens,
                "cache_creation_input_tokens": session.cache_creation_input_tokens,
                "cache_read_input_tokens": session.cache_read_input_tokens,
                "cost_usd": self.cost_usd,
            },
            "model": self.model,
            "modelUsage": self.model_usage(),
            "stop_reason": match reason {
                TurnEndReason::Completed => Value::from("end_turn"),
                TurnEndReason::MaxTurns => Value::from("tool_use"),
                _ => Value::Null,
            },
            "uuid": uuid::Uuid::now_v7().to_string(),
            "permission_denials": self.denials,
            "verifier": {"runs": self.verifier_runs, "errors": self.verifier_errors},
        });
        // The per-agent breakdown, once there is more than the top agent.
        if self.agents.keys().any(|a| a != "root") {
            let agents: serde_json::Map<String, Value> = self
                .agents
                .iter()
                .map(|(path, u)| {
                    (
                        path.clone(),
                        json!({
                            "requests": u.requests,
                            "input_tokens": u.input_tokens,
                            "output_tokens": u.output_tokens,
                            "cost_usd": u.cost_usd,
                        }),
                    )
                })
                .collect();
            result["agents"] = Value::Object(agents);
        }
        if let Some(value) = &self.structured_output {
            result["structured_output"] = value.clone();
        }
        let mut errors = self.errors.clone();
        match reason {
            TurnEndReason::Interrupted => errors.push("interrupted by the user".to_owned()),
            TurnEndReason::MaxTurns => errors.push(format!(
                "stopped after {} model requests: the --max-turns limit",
                self.num_turns
            )),
            TurnEndReason::MaxBudget => errors.push(format!(
                "stopped at ${:.4}: the --max-budget-usd limit",
                self.cost_usd
            )),
            TurnEndReason::Completed | TurnEndReason::Failed => {}
        }
        if !errors.is_empty() {
            result["errors"] = json!(errors);
        }
        result
    }

    /// Claude Code's `modelUsage`: per model, tokens, cost and the
    /// context window.
    fn model_usage(&self) -> Value {
        let catalog = wright_llm::Catalog::builtin();
        let models: serde_json::Map<String, Value> = self
            .models
            .iter()
            .map(|(name, u)| {
                (
                    name.clone(),
                    json!({
                        "inputTokens": u.input_tokens,
                        "outputTokens": u.output_tokens,
                        "cacheReadInputTokens": u.cache_read_input_tokens,
                        "cacheCreationInputTokens": u.cache_creation_input_tokens,
                        "webSearchRequests": 0,
                        "costUSD": u.cost_usd,
                        // The session's own for its model (a local
                        // server's, an override), the catalog's otherwise.
                        "contextWindow": if *name == self.window.0 && self.window.1 > 0 {
                            self.window.1
                        } else {
                            catalog.lookup(name).info().context_window
                        },
                    }),
                )
            })
            .collect();
        Value::Object(models)
    }

    /// This run's (turn's) tokens: the session's now less the session's
    /// when it began.
    fn run_usage(&self) -> Usage {
        minus(&self.usage, &self.usage_at_turn_start)
    }

    /// This run's (turn's) cost.
    fn run_cost(&self) -> f64 {
        (self.cost_usd - self.cost_at_turn_start).max(0.0)
    }

    /// The text mode's closing line: what this run did, then the
    /// session's totals when the session had spent something before it
    /// (`--continue`, an earlier turn).
    pub fn usage_line(&self) -> String {
        self.line(
            self.num_turns,
            self.run_usage(),
            self.run_cost(),
            self.started.elapsed().as_secs_f64(),
            self.usage_at_turn_start,
        )
    }

    /// An interactive session's closing line: every turn of this process,
    /// then the session's totals when it had spent something before.
    pub fn process_usage_line(&self) -> String {
        let p = &self.process;
        self.line(
            p.requests,
            minus(&self.usage, &p.usage_before),
            (self.cost_usd - p.cost_before).max(0.0),
            self.created.elapsed().as_secs_f64(),
            p.usage_before,
        )
    }

    fn line(&self, requests: u32, u: Usage, cost: f64, secs: f64, before: Usage) -> String {
        let requests = if requests == 1 {
            "1 request".to_owned()
        } else {
            format!("{requests} requests")
        };
        let mut line = format!(
            "this run: {requests} · {} in ({} cache read, {} cache write) · {} out · ${cost:.4} · {secs:.1}s",
            u.input_tokens,
            u.cache_read_input_tokens,
            u.cache_creation_input_tokens,
            u.output_tokens,
        );
        if before != Usage::default() {
            let s = &self.usage;
            line.push_str(&format!(
                "; session: {} in · {} out · ${:.4}",
                s.input_tokens, s.output_tokens, self.cost_usd
            ));
        }
        line
    }
}

/// `now - base`, field by field, never below zero.
fn minus(now: &Usage, base: &Usage) -> Usage {
    Usage {
        input_tokens: now.input_tokens.saturating_sub(base.input_tokens),
        output_tokens: now.output_tokens.saturating_sub(base.output_tokens),
        cache_creation_input_tokens: now
            .cache_creation_input_tokens
            .saturating_sub(base.cache_creation_input_tokens),
        cache_read_input_tokens: now
            .cache_read_input_tokens
            .saturating_sub(base.cache_read_input_tokens),
    }
}

/// Tool arguments as JSON; raw text when the model sent malformed JSON.
pub fn parse_input(arguments: &str) -> Value {
    serde_json::from_str(arguments).unwrap_or_else(|_| Value::String(arguments.to_owned()))
}

fn millis(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use wright_protocol::{AgentPath, Item};

    use super::*;

    fn event(kind: EventKind) -> Event {
        Event {
            session_id: "s".to_owned(),
            turn_id: 1,
            seq: 0,
            agent: AgentPath::root(),
            parent_tool_use_id: None,
            kind,
        }
    }

    fn diagnostics(errors: u32) -> Event {
        event(EventKind::ItemCompleted {
            item: Item {
                id: "i".to_owned(),
                kind: ItemKind::Diagnostics {
                    checker: "cargo check".to_owned(),
                    files: vec!["src/lib.rs".to_owned()],
                    errors,
                    warnings: 0,
                    text: String::new(),
                    ran: true,
                },
            },
        })
    }

    #[test]
    fn verifier_counts_reports_and_keeps_the_latest_errors() {
        let mut summary = RunSummary::new();
        summary.observe(&event(EventKind::TurnStarted));
        assert_eq!(
            summary.result(TurnEndReason::Completed)["verifier"],
            json!({"runs": 0, "errors": 0})
        );
        summary.observe(&diagnostics(3));
        summary.observe(&diagnostics(0));
        assert_eq!(
            summary.result(TurnEndReason::Completed)["verifier"],
            json!({"runs": 2, "errors": 0})
        );
        summary.observe(&diagnostics(1));
        assert_eq!(
            summary.result(TurnEndReason::Completed)["verifier"],
            json!({"runs": 3, "errors": 1})
        );
        // A new turn's result speaks for that turn.
        summary.observe(&event(EventKind::TurnStarted));
        assert_eq!(
            summary.result(TurnEndReason::Completed)["verifier"]["runs"],
            0
        );
    }

    fn message(text: &str, stop_reason: Option<StopReason>) -> Event {
        event(EventKind::ItemCompleted {
            item: Item {
                id: "m".to_owned(),
                kind: ItemKind::AgentMessage {
                    text: text.to_owned(),
                    stop_reason,
                },
            },
        })
    }

    #[test]
    fn a_retried_attempts_text_is_not_part_of_the_result() {
        let mut summary = RunSummary::new();
        summary.observe(&event(EventKind::TurnStarted));
        // A response cut at the output limit, then a continuation that
        // breaks off and is retried.
        summary.observe(&message("first half, ", Some(StopReason::MaxTokens)));
        summary.observe(&usage(1, 1));
        summary.observe(&message("second h", None));
        summary.observe(&event(EventKind::Retrying {
            attempt: 1,
            delay_ms: 10,
            reason: "dropped".to_owned(),
            superseded: vec!["m".to_owned()],
        }));
        summary.observe(&message("second half", Some(StopReason::EndTurn)));
        summary.observe(&usage(1, 2));
        assert_eq!(
            summary.result(TurnEndReason::Completed)["result"],
            "first half, second half"
        );
    }

    fn usage(input: u64, total_input: u64) -> Event {
        let u = |n| Usage {
            input_tokens: n,
            ..Usage::default()
        };
        event(EventKind::Usage {
            request: u(input),
            total: u(total_input),
            cost_usd: 0.0,
            total_cost_usd: 0.0,
            duration_ms: 1,
            model: "m".to_owned(),
        })
    }

    #[test]
    fn the_interactive_line_counts_every_turn_of_the_process() {
        let mut summary = RunSummary::new();
        // A resumed session that had spent 50 before this process.
        summary.observe(&event(EventKind::TurnStarted));
        summary.observe(&usage(100, 150));
        summary.observe(&usage(100, 250));
        // A `!cmd` turn makes no request.
        summary.observe(&event(EventKind::TurnStarted));
        let line = summary.process_usage_line();
        assert!(line.starts_with("this run: 2 requests · 200 in"), "{line}");
        assert!(line.contains("session: 250 in"), "{line}");
        // The last turn alone made none.
        assert!(summary.usage_line().starts_with("this run: 0 requests"));
    }
}
