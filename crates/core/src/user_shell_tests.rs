//! `!cmd` (`Op::UserShell`) and "always" on command chains, through the
//! session actor: the model's permission path, what the model sees next,
//! the session file, interrupts.

use super::*;
use wright_protocol::{ItemKind, ToolCallStatus};

async fn shell(h: &mut Harness, command: &str) -> (Vec<Event>, TurnEndReason) {
    h.handle
        .submit(Op::UserShell {
            command: command.into(),
        })
        .await
        .unwrap();
    collect(h).await
}

/// The finished `Bash` item of a `!cmd`: its status and output.
fn finished_call(events: &[Event]) -> (ToolCallStatus, String) {
    events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::ItemCompleted { item } => match &item.kind {
                ItemKind::ToolCall {
                    name,
                    status,
                    output,
                    ..
                } if name == "Bash" => Some((*status, output.clone().unwrap_or_default())),
                _ => None,
            },
            _ => None,
        })
        .expect("a finished Bash item")
}

fn sent_text(h: &Harness) -> String {
    let requests = h.requests.lock().unwrap();
    serde_json::to_string(&requests.last().unwrap().messages).unwrap()
}

#[tokio::test]
async fn a_user_command_runs_and_its_output_is_context_for_the_next_turn() {
    let mut h = start(vec![text("seen it")], PermissionMode::Bypass, 5);
    let (events, reason) = shell(&mut h, "echo hi-from-shell").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let (status, output) = finished_call(&events);
    assert_eq!(status, ToolCallStatus::Completed);
    assert!(output.contains("hi-from-shell"), "{output}");
    assert!(
        events.iter().any(|e| matches!(
            e.kind,
            EventKind::TurnCompleted {
                model_requests: 0,
                ..
            }
        )),
        "no model request for a !cmd"
    );
    assert!(h.requests.lock().unwrap().is_empty());
    let (_, reason) = turn(&mut h, "what did it print?").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let sent = sent_text(&h);
    assert!(
        sent.contains("<bash-input>echo hi-from-shell</bash-input>")
            && sent.contains("<bash-stdout>hi-from-shell"),
        "{sent}"
    );
    assert!(sent.contains("what did it print?"), "{sent}");
}

#[tokio::test]
async fn a_user_command_asks_like_the_models_and_a_refusal_adds_nothing() {
    // The mode does not ask for the user's own command; an ask rule does.
    let mut h = start_with(vec![text("ok")], PermissionMode::Default, 5, |o| {
        o.policy.can_ask = CanAsk::Yes;
        o.policy.rules =
            wright_permissions::RuleSet::parse(&[] as &[&str], &["Bash(touch:*)"], &[] as &[&str])
                .unwrap();
    });
    h.handle
        .submit(Op::UserShell {
            command: "touch made-by-user".into(),
        })
        .await
        .unwrap();
    let mut events = Vec::new();
    loop {
        let e = h.handle.events.recv().await.unwrap();
        if let EventKind::ApprovalRequested { id, call_id, .. } = &e.kind {
            assert!(call_id.as_deref().is_some_and(|c| c.starts_with("user_")));
            h.handle
                .submit(Op::ResolveApproval {
                    id: id.clone(),
                    decision: ApprovalDecision::Deny { note: None },
                })
                .await
                .unwrap();
        }
        let end = matches!(e.kind, EventKind::TurnCompleted { .. });
        events.push(e);
        if end {
            break;
        }
    }
    assert_eq!(finished_call(&events).0, ToolCallStatus::Denied);
    let (_, _) = turn(&mut h, "next").await;
    assert!(!sent_text(&h).contains("bash-input"));
}

/// The user's own `!cmd` runs without the mode's question (issue 33).
#[tokio::test]
async fn a_user_command_runs_without_asking_in_default_mode() {
    let mut h = start_with(vec![], PermissionMode::Default, 5, |o| {
        o.policy.can_ask = CanAsk::No
    });
    let (events, _) = shell(&mut h, "touch made-by-user && echo made").await;
    let (status, output) = finished_call(&events);
    assert_eq!(status, ToolCallStatus::Completed, "{output}");
    assert!(output.contains("made"), "{output}");
}

#[tokio::test]
async fn deny_rules_and_the_guard_apply_to_user_commands_in_every_mode() {
    let mut h = start_with(vec![], PermissionMode::Bypass, 5, |o| {
        o.policy.rules =
            wright_permissions::RuleSet::parse(&[] as &[&str], &[] as &[&str], &["Bash(touch:*)"])
                .unwrap();
    });
    let (events, _) = shell(&mut h, "echo a && touch denied-file").await;
    let (status, output) = finished_call(&events);
    assert_eq!(status, ToolCallStatus::Denied, "{output}");
    let (events, _) = shell(&mut h, "rm -rf /").await;
    assert_eq!(finished_call(&events).0, ToolCallStatus::Denied);
}

#[tokio::test]
async fn interrupt_stops_a_running_user_command() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let mut h = start_in(
        dir,
        vec![],
        PermissionMode::Bypass,
        5,
        |_| {},
        super::super::Persistence::default(),
    );
    h.handle
        .submit(Op::UserShell {
            command: "touch started; sleep 60".into(),
        })
        .await
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !root.join("started").exists() {
        assert!(std::time::Instant::now() < deadline, "never started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    h.handle.submit(Op::Interrupt).await.unwrap();
    let (events, reason) = collect(&mut h).await;
    assert_eq!(reason, TurnEndReason::Interrupted);
    assert_eq!(finished_call(&events).0, ToolCallStatus::Cancelled);
}

#[tokio::test]
async fn a_user_command_is_recorded_so_a_resume_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let (_data, store, writer) = super::session_store(dir.path());
    let id = writer.id().to_owned();
    let mut h = start_in(
        dir,
        vec![],
        PermissionMode::Bypass,
        5,
        |_| {},
        super::super::Persistence {
            writer: Some(writer),
            ..super::super::Persistence::default()
        },
    );
    let (_, reason) = shell(&mut h, "echo kept-on-resume").await;
    assert_eq!(reason, TurnEndReason::Completed);
    h.handle.shutdown().await;
    let history = store.load(&id).unwrap().history();
    let text = serde_json::to_string(&history).unwrap();
    assert!(
        text.contains("<bash-input>echo kept-on-resume</bash-input>"),
        "{text}"
    );
}

#[tokio::test]
async fn always_on_a_chain_saves_a_rule_per_part_and_the_same_chain_runs_without_asking() {
    let chain = r#"{"command":"expr one && expr two | head -1"}"#;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join(".wright/config.local.toml");
    let mut h = start_in(
        dir,
        vec![
            calls(&[("a", "Bash", chain)]),
            calls(&[("b", "Bash", chain)]),
            text("done"),
        ],
        PermissionMode::Default,
        10,
        |o| o.policy.can_ask = CanAsk::Yes,
        super::super::Persistence::default(),
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
                suggested_rule,
                suggested_rules,
                still_asks,
                ..
            } => {
                asked.push(suggested_rules.clone());
                assert_eq!(suggested_rule.as_deref(), Some("Bash(expr one:*)"));
                assert_eq!(still_asks, &None);
                h.handle
                    .submit(Op::ResolveApproval {
                        id: id.clone(),
                        decision: ApprovalDecision::AllowProject,
                    })
                    .await
                    .unwrap();
            }
            EventKind::TurnCompleted { reason, .. } => break *reason,
            _ => {}
        }
    };
    assert_eq!(reason, TurnEndReason::Completed);
    // Asked once, for the first call; the identical second call ran.
    assert_eq!(
        asked,
        [vec![
            "Bash(expr one:*)".to_owned(),
            "Bash(expr two:*)".to_owned(),
            "Bash(head:*)".to_owned()
        ]]
    );
    let saved = std::fs::read_to_string(config).unwrap();
    for rule in ["Bash(expr one:*)", "Bash(expr two:*)", "Bash(head:*)"] {
        assert!(saved.contains(rule), "{saved}");
    }
}

#[tokio::test]
async fn a_chain_with_a_dangerous_part_says_always_will_still_ask() {
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"echo one && rm -rf build"}"#)]),
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
    loop {
        let e = h.handle.events.recv().await.unwrap();
        match &e.kind {
            EventKind::ApprovalRequested {
                id,
                suggested_rules,
                still_asks,
                ..
            } => {
                assert_eq!(suggested_rules, &["Bash(echo one:*)".to_owned()]);
                let why = still_asks.clone().unwrap_or_default();
                assert!(why.contains("rm -rf build"), "{why}");
                h.handle
                    .submit(Op::ResolveApproval {
                        id: id.clone(),
                        decision: ApprovalDecision::Deny { note: None },
                    })
                    .await
                    .unwrap();
            }
            EventKind::TurnCompleted { .. } => break,
            _ => {}
        }
    }
}
