//! Turn-loop tests against a scripted in-process model client.

use futures::StreamExt;
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;
use wright_config::PermissionMode;
use wright_llm::{EventStream, LlmError, ModelClient, ModelRequest, StreamEvent};
use wright_protocol::{
    ContentBlock, Event, EventKind, Message, Op, Role, StopReason, TurnEndReason, Usage,
};
use wright_tools::{OutputLimits, ToolRegistry};

use super::{SessionHandle, SessionOptions, spawn_session};

/// What the fake model does for one request.
enum Reply {
    Events(Vec<Result<StreamEvent, LlmError>>),
    /// Never answers: only cancellation ends it.
    Stall,
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
        self.requests.lock().unwrap().push(request);
        self.requested.notify_one();
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
    let dir = tempfile::tempdir().unwrap();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let requested = Arc::new(tokio::sync::Notify::new());
    let client = Scripted {
        replies: Mutex::new(replies),
        requests: Arc::clone(&requests),
        requested: Arc::clone(&requested),
    };
    let options = SessionOptions {
        session_id: "s1".into(),
        model: "m".into(),
        cwd: dir.path().to_path_buf(),
        system_prompt: "sys".into(),
        max_tokens: 100,
        max_turns,
        max_budget_usd: None,
        permission_mode: mode,
        limits: OutputLimits::default(),
        spill_dir: dir.path().join("spill"),
    };
    let handle = spawn_session(options, Arc::new(client), Arc::new(ToolRegistry::builtin()));
    Harness {
        handle,
        requests,
        requested,
        _dir: dir,
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
                ("a", "read", r#"{"path":"missing.txt"}"#),
                ("b", "bash", r#"{"command":"echo no"}"#),
                ("c", "nope", "{}"),
                ("d", "ls", "{not json"),
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
                ("a", "bash", r#"{"command":"sleep 30"}"#),
                ("b", "bash", r#"{"command":"echo never"}"#),
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
        vec![calls(&[("a", "ls", "{}")]), calls(&[("b", "ls", "{}")])],
        PermissionMode::Default,
        2,
    );
    let (_, reason) = turn(&mut h, "loop").await;
    assert_eq!(reason, TurnEndReason::MaxTurns);
    assert_eq!(h.requests.lock().unwrap().len(), 2);
}
