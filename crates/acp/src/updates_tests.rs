use super::*;
use agent_client_protocol::v1::schema::{Diff, ToolKind};
use pretty_assertions::assert_eq;
use wright_protocol::{AgentPath, Item};

fn ev(kind: EventKind) -> Event {
    Event {
        session_id: "s".into(),
        turn_id: 1,
        seq: 0,
        agent: AgentPath::root(),
        parent_tool_use_id: None,
        kind,
    }
}

fn child(kind: EventKind) -> Event {
    Event {
        agent: AgentPath::root().child("explore-1"),
        parent_tool_use_id: Some("task1".into()),
        ..ev(kind)
    }
}

fn tool(
    call_id: &str,
    name: &str,
    args: &str,
    status: WrightStatus,
    output: Option<&str>,
) -> ItemKind {
    ItemKind::ToolCall {
        call_id: call_id.into(),
        name: name.into(),
        tool_kind: None,
        touches: touches(name, args),
        arguments: args.into(),
        status,
        output: output.map(Into::into),
        display: None,
    }
}

/// What the core's item says the call touches (as the built-in tools do).
fn touches(name: &str, args: &str) -> Option<wright_protocol::Touches> {
    use wright_protocol::Touches;
    let v: serde_json::Value = serde_json::from_str(args).ok()?;
    let s = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_owned);
    Some(match name {
        "Read" => Touches::read(s("file_path")?),
        "Edit" | "Write" => Touches::write(s("file_path")?),
        "Bash" => Touches::command(s("command")?),
        _ => return None,
    })
}

fn started(id: &str, kind: ItemKind) -> EventKind {
    EventKind::ItemStarted {
        item: Item {
            id: id.into(),
            kind,
        },
    }
}

fn completed(id: &str, kind: ItemKind) -> EventKind {
    EventKind::ItemCompleted {
        item: Item {
            id: id.into(),
            kind,
        },
    }
}

fn update(a: &Action) -> &SessionUpdate {
    match a {
        Action::Update(u) => u,
        other => panic!("update expected, got {other:?}"),
    }
}

const EDIT: &str = r#"{"file_path":"a.txt","old_string":"one","new_string":"two"}"#;

#[test]
fn a_retry_after_shown_text_is_marked_and_a_silent_one_is_not() {
    let mut m = EventMapper::new("/p".into());
    let retry = |superseded: Vec<String>| EventKind::Retrying {
        attempt: 1,
        delay_ms: 10,
        reason: "dropped".into(),
        superseded,
    };
    assert!(m.map(&ev(retry(Vec::new()))).is_empty());
    let a = m.map(&ev(retry(vec!["i1".into()])));
    let SessionUpdate::AgentMessageChunk(c) = update(&a[0]) else {
        panic!("{a:?}")
    };
    assert!(
        format!("{c:?}").contains("broke off; retrying (1)"),
        "{c:?}"
    );
}

#[test]
fn text_and_reasoning_stream_as_chunks_and_are_not_repeated() {
    let mut m = EventMapper::new("/p".into());
    let a = m.map(&ev(EventKind::ItemDelta {
        item_id: "i1".into(),
        delta: ItemDelta::Reasoning("hmm".into()),
    }));
    assert_eq!(
        update(&a[0]),
        &SessionUpdate::AgentThoughtChunk(chunk("hmm"))
    );
    let a = m.map(&ev(EventKind::ItemDelta {
        item_id: "i2".into(),
        delta: ItemDelta::Text("Hel".into()),
    }));
    assert_eq!(
        update(&a[0]),
        &SessionUpdate::AgentMessageChunk(chunk("Hel"))
    );
    let done = ItemKind::AgentMessage {
        text: "Hello".into(),
        stop_reason: None,
    };
    assert!(m.map(&ev(completed("i2", done))).is_empty());
    // A message that did not stream is sent whole on completion.
    let whole = ItemKind::AgentMessage {
        text: "Whole".into(),
        stop_reason: None,
    };
    let a = m.map(&ev(completed("i3", whole)));
    assert_eq!(
        update(&a[0]),
        &SessionUpdate::AgentMessageChunk(chunk("Whole"))
    );
}

#[test]
fn an_edit_goes_pending_then_asks_then_completes_with_its_diff() {
    let mut m = EventMapper::new("/p".into());
    let a = m.map(&ev(started(
        "it1",
        tool("c1", "Edit", EDIT, WrightStatus::InProgress, None),
    )));
    let SessionUpdate::ToolCall(call) = update(&a[0]) else {
        panic!("tool call expected");
    };
    assert_eq!(call.tool_call_id.to_string(), "c1");
    assert_eq!(call.kind, ToolKind::Edit);
    assert_eq!(call.status, ToolCallStatus::Pending);
    let diff = ToolCallContent::Diff(Diff::new("/p/a.txt", "two").old_text("one".to_owned()));
    assert_eq!(call.content, vec![diff.clone()]);

    let a = m.map(&ev(EventKind::ApprovalRequested {
        id: "approval_1".into(),
        tool: "Edit".into(),
        arguments: EDIT.into(),
        touches: None,
        reason: "edits ask in default mode".into(),
        suggested_rule: None,
        suggested_rules: Vec::new(),
        still_asks: None,
        call_id: None,
    }));
    let Action::AskPermission {
        approval_id,
        tool_call,
        announced,
        always,
        ..
    } = &a[0]
    else {
        panic!("permission expected");
    };
    assert_eq!(approval_id, "approval_1");
    assert!(*announced);
    assert_eq!(always, &None, "no rule to store: no allow-always option");
    assert_eq!(tool_call.tool_call_id.to_string(), "c1");
    assert_eq!(tool_call.fields.content.as_ref().unwrap()[0], diff);

    let a = m.map(&ev(completed(
        "it1",
        tool("c1", "Edit", EDIT, WrightStatus::Completed, Some("edited")),
    )));
    let SessionUpdate::ToolCallUpdate(u) = update(&a[0]) else {
        panic!("update expected");
    };
    assert_eq!(u.fields.status, Some(ToolCallStatus::Completed));
    assert_eq!(u.fields.content, Some(vec![diff]));
}

#[test]
fn command_output_streams_and_a_denial_fails_with_its_message() {
    let mut m = EventMapper::new("/p".into());
    let args = r#"{"command":"ls"}"#;
    m.map(&ev(started(
        "it",
        tool("c", "Bash", args, WrightStatus::InProgress, None),
    )));
    let a = m.map(&ev(EventKind::ItemDelta {
        item_id: "it".into(),
        delta: ItemDelta::ToolOutput("a\n".into()),
    }));
    let SessionUpdate::ToolCallUpdate(u) = update(&a[0]) else {
        panic!("update expected");
    };
    assert_eq!(u.fields.status, Some(ToolCallStatus::InProgress));
    assert_eq!(
        u.fields.content,
        Some(vec![tool_map::text_content("```\na\n```".into())])
    );
    let a = m.map(&ev(completed(
        "it",
        tool(
            "c",
            "Bash",
            args,
            WrightStatus::Denied,
            Some("Permission denied: no"),
        ),
    )));
    let SessionUpdate::ToolCallUpdate(u) = update(&a[0]) else {
        panic!("update expected");
    };
    assert_eq!(u.fields.status, Some(ToolCallStatus::Failed));
}

#[test]
fn todo_write_is_a_plan_not_a_tool_call() {
    let mut m = EventMapper::new("/p".into());
    let args = r#"{"todos":[{"content":"a","status":"pending"}]}"#;
    let a = m.map(&ev(started(
        "t",
        tool("c", "TodoWrite", args, WrightStatus::InProgress, None),
    )));
    assert!(matches!(update(&a[0]), SessionUpdate::Plan(p) if p.entries.len() == 1));
    assert!(
        m.map(&ev(completed(
            "t",
            tool("c", "TodoWrite", args, WrightStatus::Completed, Some("ok"))
        )))
        .is_empty()
    );
}

#[test]
fn subagent_work_shows_inside_its_task_call() {
    let mut m = EventMapper::new("/p".into());
    let task = r#"{"description":"look around","prompt":"x"}"#;
    m.map(&ev(started(
        "t",
        tool("task1", "Task", task, WrightStatus::InProgress, None),
    )));
    let a = m.map(&child(started(
        "k1",
        tool(
            "k",
            "Read",
            r#"{"file_path":"b.rs"}"#,
            WrightStatus::InProgress,
            None,
        ),
    )));
    let SessionUpdate::ToolCallUpdate(u) = update(&a[0]) else {
        panic!("update expected");
    };
    assert_eq!(u.tool_call_id.to_string(), "task1");
    assert_eq!(
        u.fields.content,
        Some(vec![tool_map::text_content("• Read /p/b.rs".into())])
    );
    // A subagent's own turn end does not end the user's turn.
    assert!(
        m.map(&child(EventKind::TurnCompleted {
            reason: TurnEndReason::Completed,
            model_requests: 1,
            structured_output: None,
            structured_output_failed: false,
            plan: None,
        }))
        .is_empty()
    );
    let done = m.map(&ev(completed(
        "t",
        tool(
            "task1",
            "Task",
            task,
            WrightStatus::Completed,
            Some("found it"),
        ),
    )));
    let SessionUpdate::ToolCallUpdate(u) = update(&done[0]) else {
        panic!("update expected");
    };
    let content = u.fields.content.clone().unwrap();
    assert_eq!(content.len(), 2, "{content:?}");
}

#[test]
fn turn_ends_map_to_stop_reasons() {
    let mut m = EventMapper::new("/p".into());
    let end = |m: &mut EventMapper, reason| {
        m.map(&ev(EventKind::TurnCompleted {
            reason,
            model_requests: 1,
            structured_output: None,
            structured_output_failed: false,
            plan: None,
        }))
    };
    assert_eq!(
        end(&mut m, TurnEndReason::Completed),
        vec![Action::TurnEnded(TurnOutcome::Stopped(StopReason::EndTurn))]
    );
    assert_eq!(
        end(&mut m, TurnEndReason::Interrupted),
        vec![Action::TurnEnded(TurnOutcome::Stopped(
            StopReason::Cancelled
        ))]
    );
    assert_eq!(
        end(&mut m, TurnEndReason::MaxTurns),
        vec![Action::TurnEnded(TurnOutcome::Stopped(
            StopReason::MaxTurnRequests
        ))]
    );
    m.map(&ev(completed(
        "i",
        ItemKind::AgentMessage {
            text: "cut".into(),
            stop_reason: Some(ModelStop::MaxTokens),
        },
    )));
    assert_eq!(
        end(&mut m, TurnEndReason::Completed),
        vec![Action::TurnEnded(TurnOutcome::Stopped(
            StopReason::MaxTokens
        ))]
    );
    m.map(&ev(EventKind::Error {
        message: "HTTP 500".into(),
    }));
    assert_eq!(
        end(&mut m, TurnEndReason::Failed),
        vec![Action::TurnEnded(TurnOutcome::Failed("HTTP 500".into()))]
    );
}

#[test]
fn usage_reports_context_use_and_cost() {
    let usage = EventKind::Usage {
        request: wright_protocol::Usage {
            input_tokens: 100,
            output_tokens: 20,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 880,
        },
        total: wright_protocol::Usage::default(),
        cost_usd: 0.5,
        total_cost_usd: 1.5,
        duration_ms: 1,
        model: "m".into(),
    };
    let mut m = EventMapper::new("/p".into());
    assert!(m.map(&ev(usage.clone())).is_empty(), "no window, no update");
    let mut m = EventMapper::new("/p".into()).with_context_window(Some(200_000));
    let a = m.map(&ev(usage));
    assert_eq!(
        update(&a[0]),
        &SessionUpdate::UsageUpdate(UsageUpdate::new(1000, 200_000).cost(Cost::new(1.5, "USD")))
    );
}

#[test]
fn chatty_output_is_batched_and_only_its_tail_kept() {
    let mut m = EventMapper::new("/p".into());
    let args = r#"{"command":"yes"}"#;
    m.map(&ev(started(
        "it",
        tool("c", "Bash", args, WrightStatus::InProgress, None),
    )));
    let delta = |text: &str| {
        ev(EventKind::ItemDelta {
            item_id: "it".into(),
            delta: ItemDelta::ToolOutput(text.into()),
        })
    };
    assert_eq!(
        m.map(&delta("y\n")).len(),
        1,
        "the first chunk shows at once"
    );
    let mut sent = 0;
    for _ in 0..10_000 {
        sent += m.map(&delta("y\n")).len();
    }
    assert!(sent > 0 && sent <= 10, "{sent} updates for 20 kB");
    let mut last = String::new();
    for _ in 0..1_000 {
        for a in m.map(&delta("é")) {
            last = format!("{a:?}");
        }
    }
    assert!(last.len() < LIVE_OUTPUT_BYTES * 2, "only the tail is sent");
    let mut s = "aé".repeat(10);
    keep_tail(&mut s, 4);
    assert_eq!(s, "aé");
}

#[test]
fn the_allow_always_label_names_the_rules_and_what_still_asks() {
    assert_eq!(always_label(&[], None), None);
    let rules = vec![
        "Bash(cargo build:*)".to_owned(),
        "Bash(cargo test:*)".to_owned(),
    ];
    assert_eq!(
        always_label(&rules, None).as_deref(),
        Some("Allow for this session: Bash(cargo build:*), Bash(cargo test:*)")
    );
    let label = always_label(&rules[..1], Some("`rm -rf build` is dangerous")).unwrap();
    assert!(
        label.ends_with("(will still ask: `rm -rf build` is dangerous)"),
        "{label}"
    );
}
