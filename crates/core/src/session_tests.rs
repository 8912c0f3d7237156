//! Turn-loop tests against a scripted in-process model client.

use futures::StreamExt;
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;
use wright_config::PermissionMode;
use wright_llm::{EventStream, LlmError, ModelClient, ModelRequest, StreamEvent};
use wright_permissions::{CanAsk, PolicyInput};
use wright_protocol::{
    ApprovalDecision, ContentBlock, Event, EventKind, Message, Op, Role, StopReason, TurnEndReason,
    Usage,
};
use wright_tools::{OutputLimits, ToolRegistry};

use std::time::Duration;

use super::{SessionHandle, spawn_session};
use crate::{SessionOptions, SystemPrompt};

/// What the fake model does for one request.
enum Reply {
    Events(Vec<Result<StreamEvent, LlmError>>),
    /// Never answers: only cancellation ends it.
    Stall,
    /// The answer to the next summary request (when it is next in line);
    /// otherwise summaries are a short fixed text.
    Summary(String),
}

struct Scripted {
    replies: Mutex<Vec<Reply>>,
    requests: Arc<Mutex<Vec<ModelRequest>>>,
    /// Signalled on every request, so tests wait without sleeping.
    requested: Arc<tokio::sync::Notify>,
}

impl ModelClient for Scripted {
    fn provider(&self) -> &'static str {
        "fake"
    }

    fn stream(&self, request: ModelRequest, cancel: CancellationToken) -> EventStream {
        let is_summary = request.tools.is_empty();
        self.requests.lock().unwrap().push(request);
        self.requested.notify_one();
        if is_summary {
            // Compaction asks without tools: answer with a summary.
            let scripted = {
                let mut replies = self.replies.lock().unwrap();
                match replies.first() {
                    Some(Reply::Summary(_)) => match replies.remove(0) {
                        Reply::Summary(summary) => Some(summary),
                        _ => None,
                    },
                    _ => None,
                }
            };
            let summary = scripted.unwrap_or_else(|| "## Goal\nthe summary".to_owned());
            let Reply::Events(events) = text(&summary) else {
                unreachable!()
            };
            return futures::stream::iter(events).boxed();
        }
        let reply = {
            let mut replies = self.replies.lock().unwrap();
            if replies.is_empty() {
                Reply::Events(vec![Err(LlmError::Protocol {
                    provider: "fake",
                    message: "script exhausted".into(),
                })])
            } else {
                replies.remove(0)
            }
        };
        match reply {
            Reply::Events(events) => futures::stream::iter(events).boxed(),
            Reply::Stall => futures::stream::once(async move {
                cancel.cancelled().await;
                Err(LlmError::Cancelled)
            })
            .boxed(),
            Reply::Summary(_) => futures::stream::iter(vec![Err(LlmError::Protocol {
                provider: "fake",
                message: "a summary scripted where a turn's answer was due".into(),
            })])
            .boxed(),
        }
    }
}

fn text(t: &str) -> Reply {
    Reply::Events(vec![
        Ok(StreamEvent::TextDelta(t.into())),
        Ok(StreamEvent::Completed {
            message: Message {
                role: Role::Assistant,
                content: vec![ContentBlock::Text { text: t.into() }],
            },
            stop_reason: StopReason::EndTurn,
            usage: Usage {
                input_tokens: 10,
                output_tokens: 2,
                ..Usage::default()
            },
        }),
    ])
}

fn calls(list: &[(&str, &str, &str)]) -> Reply {
    let content = list
        .iter()
        .map(|(id, name, args)| ContentBlock::ToolCall {
            id: (*id).into(),
            name: (*name).into(),
            arguments: (*args).into(),
        })
        .collect();
    Reply::Events(vec![Ok(StreamEvent::Completed {
        message: Message {
            role: Role::Assistant,
            content,
        },
        stop_reason: StopReason::ToolUse,
        usage: Usage::default(),
    })])
}

struct Harness {
    handle: SessionHandle,
    requests: Arc<Mutex<Vec<ModelRequest>>>,
    requested: Arc<tokio::sync::Notify>,
    _dir: tempfile::TempDir,
}

fn start(replies: Vec<Reply>, mode: PermissionMode, max_turns: u32) -> Harness {
    start_with(replies, mode, max_turns, |_| {})
}

fn start_with(
    replies: Vec<Reply>,
    mode: PermissionMode,
    max_turns: u32,
    adjust: impl FnOnce(&mut SessionOptions),
) -> Harness {
    start_in(
        tempfile::tempdir().unwrap(),
        replies,
        mode,
        max_turns,
        adjust,
        super::Persistence::default(),
    )
}

fn start_in(
    dir: tempfile::TempDir,
    replies: Vec<Reply>,
    mode: PermissionMode,
    max_turns: u32,
    adjust: impl FnOnce(&mut SessionOptions),
    persistence: super::Persistence,
) -> Harness {
    let tools = ToolRegistry::builtin();
    start_with_tools(dir, replies, (mode, max_turns), adjust, persistence, tools)
}

/// [`start_in`] with the session's tools given.
fn start_with_tools(
    dir: tempfile::TempDir,
    replies: Vec<Reply>,
    (mode, max_turns): (PermissionMode, u32),
    adjust: impl FnOnce(&mut SessionOptions),
    persistence: super::Persistence,
    tools: ToolRegistry,
) -> Harness {
    let requests = Arc::new(Mutex::new(Vec::new()));
    let requested = Arc::new(tokio::sync::Notify::new());
    let client = Scripted {
        replies: Mutex::new(replies),
        requests: Arc::clone(&requests),
        requested: Arc::clone(&requested),
    };
    let mut options = harness_options(dir.path());
    options.policy.mode = mode;
    options.max_turns = max_turns;
    adjust(&mut options);
    let handle = spawn_session(options, Arc::new(client), Arc::new(tools), persistence);
    Harness {
        handle,
        requests,
        requested,
        _dir: dir,
    }
}

/// The options every harness starts from, for a session in `dir`.
fn harness_options(dir: &std::path::Path) -> SessionOptions {
    SessionOptions {
        session_id: "s1".into(),
        model: "m".into(),
        cwd: dir.to_path_buf(),
        system_prompt: SystemPrompt::Fixed("sys".into()),
        catalog: Arc::new(wright_llm::Catalog::builtin()),
        retry: wright_llm::RetryPolicy {
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(2),
            max_retry_after: Duration::from_millis(2),
            ..wright_llm::RetryPolicy::default()
        },
        fallback_model: None,
        reasoning_effort: None,
        thinking_budget: None,
        compaction: crate::CompactionOptions::default(),
        max_tokens: 100,
        max_tokens_chosen: false,
        max_turns: 10,
        max_budget_usd: None,
        policy: PolicyInput {
            mode: PermissionMode::Default,
            workspace_roots: vec![dir.to_path_buf()],
            can_ask: CanAsk::No,
            temp_roots: vec![std::env::temp_dir()],
            commands: wright_permissions::CommandConfinement::AsConfigured,
            ..PolicyInput::default()
        },
        local_config: dir.join(".wright/config.local.toml"),
        sandbox: None,
        limits: OutputLimits::default(),
        spill_dir: dir.join("spill"),
        jobs: Arc::default(),
        extensions: crate::Extensions::none(dir),
        json_schema: None,
        editor: None,
    }
}

/// Events until the turn ends.
async fn turn(h: &mut Harness, text: &str) -> (Vec<Event>, TurnEndReason) {
    h.handle
        .submit(Op::UserTurn { text: text.into() })
        .await
        .unwrap();
    collect(h).await
}

async fn collect(h: &mut Harness) -> (Vec<Event>, TurnEndReason) {
    let mut events = Vec::new();
    while let Some(e) = h.handle.events.recv().await {
        let end = match &e.kind {
            EventKind::TurnCompleted { reason, .. } => Some(*reason),
            _ => None,
        };
        events.push(e);
        if let Some(reason) = end {
            return (events, reason);
        }
    }
    panic!("session ended without TurnCompleted");
}

/// Every tool call in `messages` is answered by exactly one result.
fn assert_paired(messages: &[Message]) {
    let calls: Vec<&str> = messages
        .iter()
        .flat_map(|m| m.tool_calls().map(|c| c.0))
        .collect();
    let results: Vec<&str> = messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolResult { call_id, .. } => Some(call_id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(calls, results);
}

#[tokio::test]
async fn events_are_ordered_and_stamped() {
    let mut h = start(vec![text("hello")], PermissionMode::Default, 5);
    let (events, reason) = turn(&mut h, "hi").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
    assert!(events.iter().all(|e| e.session_id == "s1"));
    assert!(events[1..].iter().all(|e| e.turn_id == 1));
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match &e.kind {
            EventKind::SessionConfigured { .. } => "configured",
            EventKind::TurnStarted => "turn_started",
            EventKind::ItemStarted { .. } => "item_started",
            EventKind::ItemDelta { .. } => "delta",
            EventKind::ItemCompleted { .. } => "item_completed",
            EventKind::Usage { .. } => "usage",
            EventKind::TurnCompleted { .. } => "turn_completed",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "configured",
            "turn_started",
            "item_started",
            "delta",
            "item_completed",
            "usage",
            "turn_completed"
        ]
    );
}

#[tokio::test]
async fn each_call_gets_one_result_even_when_refused_or_broken() {
    let mut h = start(
        vec![
            calls(&[
                ("a", "Read", r#"{"file_path":"missing.txt"}"#),
                ("b", "Bash", r#"{"command":"expr no"}"#),
                ("c", "nope", "{}"),
                ("d", "LS", "{not json"),
            ]),
            text("done"),
        ],
        PermissionMode::Default,
        5,
    );
    let (_, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap();
    let history = &requests[1].messages;
    assert_paired(history);
    let results: Vec<(String, bool)> = history[2]
        .content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::ToolResult {
                content, is_error, ..
            } => Some((content.clone(), *is_error)),
            _ => None,
        })
        .collect();
    assert!(
        results[0].0.contains("not found") || results[0].0.contains("File not found"),
        "{results:?}"
    );
    assert!(results[1].0.starts_with("Permission denied"));
    assert!(results[2].0.starts_with("Unknown tool"));
    assert!(results[3].0.starts_with("Invalid arguments"));
    assert!(results.iter().all(|r| r.1));
}

#[tokio::test]
async fn interrupt_while_streaming_ends_the_turn_and_the_session_goes_on() {
    let mut h = start(
        vec![Reply::Stall, text("after")],
        PermissionMode::Default,
        5,
    );
    h.handle
        .submit(Op::UserTurn {
            text: "first".into(),
        })
        .await
        .unwrap();
    // Wait until the request is in flight, then interrupt.
    h.requested.notified().await;
    h.handle.submit(Op::Interrupt).await.unwrap();
    let (_, reason) = collect(&mut h).await;
    assert_eq!(reason, TurnEndReason::Interrupted);
    let (_, reason) = turn(&mut h, "second").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap();
    let texts: Vec<String> = requests[1].messages.iter().map(Message::text).collect();
    assert_eq!(texts, ["first", "second"]);
}

#[tokio::test]
async fn interrupt_during_a_command_gives_every_call_a_result() {
    let mut h = start(
        vec![
            calls(&[
                ("a", "Bash", r#"{"command":"sleep 30"}"#),
                ("b", "Bash", r#"{"command":"echo never"}"#),
            ]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
    );
    h.handle
        .submit(Op::UserTurn { text: "go".into() })
        .await
        .unwrap();
    loop {
        let e = h.handle.events.recv().await.unwrap();
        if let EventKind::ItemStarted { item } = &e.kind
            && let wright_protocol::ItemKind::ToolCall { call_id, .. } = &item.kind
            && call_id == "b"
        {
            break;
        }
    }
    h.handle.submit(Op::Interrupt).await.unwrap();
    let (events, reason) = collect(&mut h).await;
    assert_eq!(reason, TurnEndReason::Interrupted);
    let cancelled = events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::ItemCompleted { item } if matches!(&item.kind, wright_protocol::ItemKind::ToolCall { status: wright_protocol::ToolCallStatus::Cancelled, .. })))
        .count();
    assert_eq!(cancelled, 2);
    let (_, reason) = turn(&mut h, "again").await;
    assert_eq!(reason, TurnEndReason::Completed);
    assert_paired(&h.requests.lock().unwrap()[1].messages);
}

#[tokio::test]
async fn stream_error_fails_the_turn_with_a_clear_event() {
    let mut h = start(
        vec![Reply::Events(vec![
            Ok(StreamEvent::TextDelta("par".into())),
            Err(LlmError::Truncated { provider: "fake" }),
        ])],
        PermissionMode::Default,
        5,
    );
    let (events, reason) = turn(&mut h, "hi").await;
    assert_eq!(reason, TurnEndReason::Failed);
    assert!(
        events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::Error { message } if message.contains("fake")))
    );
}

#[tokio::test]
async fn max_turns_stops_after_n_requests() {
    let mut h = start(
        vec![calls(&[("a", "LS", "{}")]), calls(&[("b", "LS", "{}")])],
        PermissionMode::Default,
        2,
    );
    let (_, reason) = turn(&mut h, "loop").await;
    assert_eq!(reason, TurnEndReason::MaxTurns);
    assert_eq!(h.requests.lock().unwrap().len(), 2);
}

fn http_error(status: u16, message: &str) -> Reply {
    Reply::Events(vec![Err(LlmError::Http {
        provider: "fake",
        status,
        message: message.into(),
        retry_after: None,
    })])
}

#[tokio::test]
async fn transient_errors_are_retried_and_announced() {
    let mut h = start(
        vec![
            http_error(429, "slow down"),
            http_error(500, "oops"),
            text("fine"),
        ],
        PermissionMode::Default,
        5,
    );
    let (events, reason) = turn(&mut h, "hi").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let attempts: Vec<u32> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Retrying { attempt, .. } => Some(*attempt),
            _ => None,
        })
        .collect();
    assert_eq!(attempts, [1, 2]);
    assert_eq!(h.requests.lock().unwrap().len(), 3);
}

#[tokio::test]
async fn a_stream_broken_after_shown_text_is_retried_and_recorded_once() {
    let mut h = start(
        vec![
            Reply::Events(vec![
                Ok(StreamEvent::TextDelta("partial answ".into())),
                Err(LlmError::Connection {
                    provider: "fake",
                    message: "reset".into(),
                }),
            ]),
            text("whole answer"),
            text("second"),
        ],
        PermissionMode::Default,
        5,
    );
    let (events, reason) = turn(&mut h, "hi").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let broken: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ItemStarted { item }
                if matches!(item.kind, wright_protocol::ItemKind::AgentMessage { .. }) =>
            {
                Some(item.id.clone())
            }
            _ => None,
        })
        .take(1)
        .collect();
    let superseded: Vec<Vec<String>> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Retrying { superseded, .. } => Some(superseded.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(superseded, [broken]);
    // One Usage event, for the complete response; its totals include the
    // broken attempt's estimated output (12 chars ≈ 3 tokens).
    let totals: Vec<u64> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Usage { total, .. } => Some(total.output_tokens),
            _ => None,
        })
        .collect();
    assert_eq!(totals, [5]);
    let (_, reason) = turn(&mut h, "again").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap();
    let history = &requests[2].messages;
    let texts: Vec<&str> = history
        .iter()
        .filter(|m| m.role == Role::Assistant)
        .flat_map(|m| &m.content)
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["whole answer"]);
}

#[tokio::test]
async fn a_stall_is_retried_once_then_the_turn_fails_with_a_hint() {
    let stall = || {
        Reply::Events(vec![Err(LlmError::Stalled {
            provider: "fake",
            after: Duration::from_secs(60),
            mid_stream: true,
        })])
    };
    let mut h = start(
        vec![stall(), stall(), text("never asked for")],
        PermissionMode::Default,
        5,
    );
    let (events, reason) = turn(&mut h, "hi").await;
    assert_eq!(reason, TurnEndReason::Failed);
    assert_eq!(h.requests.lock().unwrap().len(), 2);
    assert!(events.iter().any(|e| matches!(&e.kind,
        EventKind::Warning { message } if message.contains("stream.idle_timeout_secs"))));
    assert!(events.iter().any(|e| matches!(&e.kind,
        EventKind::Error { message } if message.contains("sent nothing for 60 s"))));
}

#[tokio::test]
async fn a_client_error_is_not_retried() {
    let mut h = start(
        vec![http_error(400, "bad request")],
        PermissionMode::Default,
        5,
    );
    let (_, reason) = turn(&mut h, "hi").await;
    assert_eq!(reason, TurnEndReason::Failed);
    assert_eq!(h.requests.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn repeated_overload_moves_to_the_fallback_model_and_says_so() {
    let mut h = start_with(
        vec![
            http_error(529, "Overloaded"),
            http_error(529, "Overloaded"),
            text("from fallback"),
        ],
        PermissionMode::Default,
        5,
        |o| o.fallback_model = Some("small-model".into()),
    );
    let (events, reason) = turn(&mut h, "hi").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let models: Vec<String> = h
        .requests
        .lock()
        .unwrap()
        .iter()
        .map(|r| r.model.clone())
        .collect();
    assert_eq!(models, ["m", "m", "small-model"]);
    assert!(events.iter().any(
        |e| matches!(&e.kind, EventKind::Warning { message } if message.contains("fallback"))
    ));
}

#[tokio::test]
async fn text_shown_before_an_overload_is_superseded_by_the_fallback_answer() {
    let overloaded_mid_stream = || {
        Reply::Events(vec![
            Ok(StreamEvent::TextDelta("partial answ".into())),
            Err(LlmError::Api {
                provider: "fake",
                message: "overloaded_error: Overloaded".into(),
            }),
        ])
    };
    let mut h = start_with(
        vec![
            overloaded_mid_stream(),
            overloaded_mid_stream(),
            text("from fallback"),
        ],
        PermissionMode::Default,
        5,
        |o| o.fallback_model = Some("small-model".into()),
    );
    let (events, reason) = turn(&mut h, "hi").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let shown: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ItemStarted { item }
                if matches!(item.kind, wright_protocol::ItemKind::AgentMessage { .. }) =>
            {
                Some(item.id.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(shown.len(), 3, "{events:?}");
    let superseded: Vec<Vec<String>> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Retrying { superseded, .. } => Some(superseded.clone()),
            _ => None,
        })
        .collect();
    // Each broken attempt's text is named once: the first by the retry,
    // the second by the move to the fallback model.
    assert_eq!(superseded, [vec![shown[0].clone()], vec![shown[1].clone()]]);
}

#[tokio::test]
async fn pause_turn_is_continued_without_a_new_user_message() {
    let paused = Reply::Events(vec![Ok(StreamEvent::Completed {
        message: Message {
            role: Role::Assistant,
            content: vec![ContentBlock::Text {
                text: "part one".into(),
            }],
        },
        stop_reason: StopReason::PauseTurn,
        usage: Usage::default(),
    })]);
    let mut h = start(vec![paused, text("part two")], PermissionMode::Default, 5);
    let (_, reason) = turn(&mut h, "long job").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap();
    assert_eq!(requests.len(), 2);
    let last = requests[1].messages.last().unwrap();
    assert_eq!(last.role, Role::Assistant);
    assert_eq!(last.text(), "part one");
}

#[tokio::test]
async fn approvals_flow_through_events_and_session_grants_stick() {
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"expr one"}"#)]),
            calls(&[("b", "Bash", r#"{"command":"expr one two"}"#)]),
            calls(&[("c", "Bash", r#"{"command":"touch nope"}"#)]),
            text("done"),
        ],
        PermissionMode::Default,
        10,
        |o| o.policy.can_ask = CanAsk::Yes,
    );
    h.handle
        .submit(Op::UserTurn { text: "go".into() })
        .await
        .unwrap();
    let mut asked = Vec::new();
    let reason = loop {
        let e = h.handle.events.recv().await.unwrap();
        match &e.kind {
            EventKind::ApprovalRequested {
                id,
                arguments,
                suggested_rule,
                ..
            } => {
                asked.push(arguments.clone());
                let decision = if arguments.contains("expr one") {
                    assert_eq!(suggested_rule.as_deref(), Some("Bash(expr one:*)"));
                    ApprovalDecision::AllowSession
                } else {
                    ApprovalDecision::Deny {
                        note: Some("not that".into()),
                    }
                };
                h.handle
                    .submit(Op::ResolveApproval {
                        id: id.clone(),
                        decision,
                    })
                    .await
                    .unwrap();
            }
            EventKind::TurnCompleted { reason, .. } => break *reason,
            _ => {}
        }
    };
    assert_eq!(reason, TurnEndReason::Completed);
    // `expr one two` ran under the session grant without asking; `touch` asked and was refused.
    assert_eq!(asked.len(), 2, "{asked:?}");
    let requests = h.requests.lock().unwrap();
    let last = requests.last().unwrap().messages.clone();
    let results: Vec<String> = last
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolResult { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect();
    assert!(results[0].contains("one"));
    assert!(results[1].contains("two"));
    assert!(
        results[2].starts_with("Permission denied") && results[2].contains("not that"),
        "{results:?}"
    );
}

#[tokio::test]
async fn a_long_session_compacts_more_than_once_and_finishes() {
    let chatter = "thinking out loud ".repeat(250);
    let mut script = Vec::new();
    for i in 0..16 {
        script.push(Reply::Events(vec![Ok(StreamEvent::Completed {
            message: Message {
                role: Role::Assistant,
                content: vec![
                    ContentBlock::Text {
                        text: chatter.clone(),
                    },
                    ContentBlock::ToolCall {
                        id: format!("c{i}"),
                        name: "Bash".into(),
                        arguments: r#"{"command":"true"}"#.into(),
                    },
                ],
            },
            stop_reason: StopReason::ToolUse,
            usage: Usage::default(),
        })]));
    }
    script.push(text("finished"));
    let mut h = start_with(script, PermissionMode::Bypass, 40, |o| {
        o.compaction = crate::CompactionOptions {
            auto: true,
            context_window: 8_000,
            keep_recent_tokens: 1_000,
            margin_percent: 10,
        };
        o.max_tokens = 500;
    });
    let (events, reason) = turn(&mut h, "do the long task").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let compactions = events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::ItemCompleted { item } if matches!(item.kind, wright_protocol::ItemKind::Compaction { .. })))
        .count();
    assert!(compactions >= 2, "{compactions} compactions");
    let requests = h.requests.lock().unwrap();
    let summaries: Vec<&ModelRequest> = requests.iter().filter(|r| r.tools.is_empty()).collect();
    assert!(summaries.len() >= 2);
    assert!(
        summaries[0].messages[0].text().contains("Goal"),
        "structured prompt"
    );
    let last = requests.last().unwrap();
    assert!(
        last.messages
            .iter()
            .any(|m| m.text().contains("the summary"))
    );
    assert!(
        last.messages
            .iter()
            .any(|m| m.text().contains("do the long task"))
    );
    for r in requests.iter() {
        assert_paired(&r.messages);
    }
}

#[tokio::test]
async fn broken_provider_output_is_tidied_before_it_is_sent_back() {
    let mut h = start(
        vec![
            calls(&[("a", "LS", "{}"), ("a", "LS", "{}"), ("", "", "{}")]),
            text("ok"),
        ],
        PermissionMode::Default,
        5,
    );
    let (_, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap();
    let history = &requests[1].messages;
    let ids: Vec<&str> = history[1].tool_calls().map(|c| c.0).collect();
    let unique: std::collections::HashSet<&&str> = ids.iter().collect();
    assert_eq!(unique.len(), 3, "{ids:?}");
    assert!(ids.iter().all(|id| !id.is_empty()));
    assert!(history[1].tool_calls().all(|c| !c.1.is_empty()));
    assert_paired(history);
}

#[tokio::test]
async fn arguments_cut_off_at_the_output_limit_are_explained() {
    let cut = Reply::Events(vec![Ok(StreamEvent::Completed {
        message: Message {
            role: Role::Assistant,
            content: vec![ContentBlock::ToolCall {
                id: "w".into(),
                name: "Write".into(),
                arguments: r#"{"path":"a.txt","content":"lots of te"#.into(),
            }],
        },
        stop_reason: StopReason::MaxTokens,
        usage: Usage::default(),
    })]);
    let mut h = start(vec![cut, text("ok")], PermissionMode::Bypass, 5);
    let (_, reason) = turn(&mut h, "write it").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap();
    let result = requests[1].messages[2].content[0].clone();
    let ContentBlock::ToolResult { content, .. } = result else {
        panic!("no result");
    };
    assert!(content.contains("output limit"), "{content}");
}

/// Tool results recorded in the session file so far, by call id.
fn recorded_results(store: &wright_store::SessionStore, id: &str) -> Vec<String> {
    let loaded = store.load(id).unwrap();
    loaded
        .entries
        .iter()
        .filter_map(|e| match &e.body {
            wright_store::EntryBody::Message { message } => Some(message),
            _ => None,
        })
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolResult { call_id, .. } => Some(call_id.clone()),
            _ => None,
        })
        .collect()
}

/// A session store in a temp dir of its own, and a new session's writer
/// for a project at `cwd` (keep the dir alive while the store is used).
pub(super) fn session_store(
    cwd: &std::path::Path,
) -> (
    tempfile::TempDir,
    wright_store::SessionStore,
    wright_store::SessionWriter,
) {
    let data = tempfile::tempdir().unwrap();
    let store = wright_store::SessionStore::new(data.path());
    let writer = store
        .create(&wright_store::SessionMeta {
            cwd: cwd.to_path_buf(),
            model: "m".into(),
            provider: "fake".into(),
        })
        .unwrap();
    (data, store, writer)
}

#[tokio::test]
async fn each_result_is_recorded_as_soon_as_its_call_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let (_data, store, writer) = session_store(dir.path());
    let id = writer.id().to_owned();
    let root = dir.path().to_path_buf();
    let mut h = start_in(
        dir,
        vec![
            calls(&[
                ("a", "Bash", r#"{"command":"echo one"}"#),
                ("b", "Read", r#"{"file_path":"missing.txt"}"#),
                ("c", "nope", "{}"),
                (
                    "d",
                    "Bash",
                    r#"{"command":"touch started; until test -e go; do sleep 0.02; done"}"#,
                ),
            ]),
            text("done"),
        ],
        PermissionMode::Bypass,
        5,
        |_| {},
        super::Persistence {
            writer: Some(writer),
            ..super::Persistence::default()
        },
    );
    h.handle
        .submit(Op::UserTurn { text: "go".into() })
        .await
        .unwrap();
    // Bounded wait for the last call to be running.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !root.join("started").exists() {
        assert!(std::time::Instant::now() < deadline, "never started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // In the order they finished: the refusal before the batched read.
    let mut early = recorded_results(&store, &id);
    early.sort();
    assert_eq!(early, ["a", "b", "c"]);
    std::fs::write(root.join("go"), "").unwrap();
    let (_, reason) = collect(&mut h).await;
    assert_eq!(reason, TurnEndReason::Completed);
    assert_eq!(recorded_results(&store, &id).len(), 4);
    // Loaded back, the results are one message, exactly as sent.
    let history = store.load(&id).unwrap().history();
    let sent = h.requests.lock().unwrap()[1].messages.clone();
    assert_eq!(history[..sent.len()], sent[..]);
}

#[path = "hooks_tests.rs"]
mod hooks;

#[path = "mcp_tests.rs"]
mod mcp;

#[path = "task_tests.rs"]
mod task;

#[path = "compaction_tests.rs"]
mod compaction;

#[path = "user_shell_tests.rs"]
mod user_shell;

#[path = "sdk_tests.rs"]
mod sdk;

#[path = "interaction_tests.rs"]
mod interaction;

#[path = "steering_tests.rs"]
mod steering;

/// The `TurnCompleted` event of a turn's events.
fn completed(events: &[Event]) -> (Option<serde_json::Value>, bool) {
    events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::TurnCompleted {
                structured_output,
                structured_output_failed,
                ..
            } => Some((structured_output.clone(), *structured_output_failed)),
            _ => None,
        })
        .unwrap()
}

fn answer_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {"answer": {"type": "integer"}},
        "required": ["answer"]
    })
}

#[tokio::test]
async fn a_valid_structured_answer_is_returned_and_the_schema_is_in_the_prompt() {
    let mut h = start_with(
        vec![text("```json\n{\"answer\": 42}\n```")],
        PermissionMode::Default,
        5,
        |o| o.json_schema = Some(answer_schema()),
    );
    let (events, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    assert_eq!(
        completed(&events),
        (Some(serde_json::json!({"answer": 42})), false)
    );
    let requests = h.requests.lock().unwrap();
    assert_eq!(requests.len(), 1);
    assert!(requests[0].system.starts_with("sys"));
    assert!(
        requests[0].system.contains("\"required\": ["),
        "{}",
        requests[0].system
    );
}

#[tokio::test]
async fn an_invalid_structured_answer_is_retried_once_with_the_reasons() {
    let mut h = start_with(
        vec![text("{\"answer\": \"many\"}"), text("{\"answer\": 7}")],
        PermissionMode::Default,
        5,
        |o| o.json_schema = Some(answer_schema()),
    );
    let (events, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    assert_eq!(
        completed(&events),
        (Some(serde_json::json!({"answer": 7})), false)
    );
    let requests = h.requests.lock().unwrap();
    assert_eq!(requests.len(), 2);
    let retry = requests[1].messages.last().unwrap().text();
    assert!(retry.contains("at /answer"), "{retry}");
    assert!(retry.contains("Reply again"), "{retry}");
}

#[tokio::test]
async fn a_second_invalid_structured_answer_fails_the_turn() {
    let mut h = start_with(
        vec![text("not json"), text("still not json")],
        PermissionMode::Default,
        5,
        |o| o.json_schema = Some(answer_schema()),
    );
    let (events, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Failed);
    assert_eq!(completed(&events), (None, true));
    assert_eq!(h.requests.lock().unwrap().len(), 2);
    assert!(events.iter().any(|e| matches!(&e.kind,
        EventKind::Error { message } if message.contains("after one retry"))));
}

#[tokio::test]
async fn without_a_schema_no_structured_output_is_reported() {
    let mut h = start(vec![text("{\"answer\": 1}")], PermissionMode::Default, 5);
    let (events, _) = turn(&mut h, "go").await;
    assert_eq!(completed(&events), (None, false));
    assert!(
        !h.requests.lock().unwrap()[0]
            .system
            .contains("Structured output")
    );
}

#[tokio::test]
async fn set_model_switches_at_the_next_request_and_back_to_the_default() {
    let mut h = start(
        vec![text("one"), text("two"), text("three")],
        PermissionMode::Default,
        5,
    );
    turn(&mut h, "a").await;
    h.handle
        .submit(Op::SetModel {
            model: Some("other".into()),
        })
        .await
        .unwrap();
    let (events, _) = turn(&mut h, "b").await;
    assert!(events.iter().any(|e| matches!(&e.kind,
        EventKind::Notice { message } if message.contains("`other`"))));
    h.handle.submit(Op::SetModel { model: None }).await.unwrap();
    turn(&mut h, "c").await;
    let models: Vec<String> = h
        .requests
        .lock()
        .unwrap()
        .iter()
        .map(|r| r.model.clone())
        .collect();
    assert_eq!(models, ["m", "other", "m"]);
}

#[tokio::test]
async fn set_max_thinking_tokens_changes_the_budget_and_zero_turns_it_off() {
    let mut h = start_with(
        vec![text("one"), text("two"), text("three"), text("four")],
        PermissionMode::Default,
        5,
        |o| o.thinking_budget = Some(2000),
    );
    turn(&mut h, "a").await;
    h.handle
        .submit(Op::SetMaxThinkingTokens { tokens: Some(5000) })
        .await
        .unwrap();
    turn(&mut h, "b").await;
    h.handle
        .submit(Op::SetMaxThinkingTokens { tokens: Some(0) })
        .await
        .unwrap();
    let (events, _) = turn(&mut h, "c").await;
    assert!(events.iter().any(|e| matches!(&e.kind,
        EventKind::Notice { message } if message.contains("Thinking is now off"))));
    h.handle
        .submit(Op::SetMaxThinkingTokens { tokens: Some(10) })
        .await
        .unwrap();
    turn(&mut h, "d").await;
    let budgets: Vec<Option<u32>> = h
        .requests
        .lock()
        .unwrap()
        .iter()
        .map(|r| r.thinking_budget)
        .collect();
    assert_eq!(budgets, [Some(2000), Some(5000), None, Some(1024)]);
}

#[path = "recipe_tests.rs"]
mod recipe;
