//! Messages sent into a running turn (`Op::Steer`): delivered with the
//! next step's tool results, withdrawn by an interrupt, a turn of their
//! own when nothing runs.

use super::*;
use wright_protocol::ItemKind;

async fn steer(h: &Harness, text: &str) {
    h.handle
        .submit(Op::Steer {
            text: text.into(),
            images: Vec::new(),
            uuid: None,
        })
        .await
        .unwrap();
}

#[tokio::test]
async fn a_message_sent_during_a_command_goes_with_its_result() {
    let mut h = start(
        vec![
            calls(&[("a", "Bash", r#"{"command":"sleep 1; echo slept"}"#)]),
            text("done"),
        ],
        PermissionMode::Bypass,
        5,
    );
    h.handle
        .submit(Op::UserTurn { text: "go".into() })
        .await
        .unwrap();
    let mut events = Vec::new();
    loop {
        let e = h.handle.events.recv().await.unwrap();
        let started = matches!(&e.kind, EventKind::ItemStarted { item }
            if matches!(item.kind, ItemKind::ToolCall { .. }));
        let end = matches!(e.kind, EventKind::TurnCompleted { .. });
        events.push(e);
        if started {
            steer(&h, "also check b.txt").await;
        }
        if end {
            break;
        }
    }
    let requests = h.requests.lock().unwrap();
    assert_eq!(requests.len(), 2, "one turn, two requests");
    let last = requests[1].messages.last().unwrap();
    assert_eq!(last.role, Role::User);
    assert!(
        matches!(&last.content[0], ContentBlock::ToolResult { content, .. } if content.contains("slept"))
    );
    assert!(
        last.content
            .iter()
            .any(|b| matches!(b, ContentBlock::Text { text } if text == "also check b.txt")),
        "{last:?}"
    );
    let steered = events
        .iter()
        .position(|e| matches!(&e.kind, EventKind::Steered { text } if text == "also check b.txt"))
        .expect("a Steered event");
    let turns = events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::TurnStarted))
        .count();
    assert_eq!(turns, 1);
    assert!(steered < events.len() - 1);
}

#[tokio::test]
async fn an_interrupt_withdraws_what_was_not_delivered() {
    let mut h = start(
        vec![Reply::Stall, text("after")],
        PermissionMode::Default,
        5,
    );
    h.handle
        .submit(Op::UserTurn { text: "go".into() })
        .await
        .unwrap();
    h.requested.notified().await;
    steer(&h, "never mind").await;
    h.handle.submit(Op::Interrupt).await.unwrap();
    let (events, reason) = collect(&mut h).await;
    assert_eq!(reason, TurnEndReason::Interrupted);
    let withdrawn = loop {
        let e = h.handle.events.recv().await.unwrap();
        if let EventKind::SteeringWithdrawn { texts } = e.kind {
            break texts;
        }
    };
    assert_eq!(withdrawn, ["never mind"]);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Steered { .. }))
    );
    // Nothing more was asked of the model.
    assert_eq!(h.requests.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn a_message_steered_with_nothing_running_is_a_turn_of_its_own() {
    let mut h = start(vec![text("hello back")], PermissionMode::Default, 5);
    steer(&h, "hello").await;
    let (events, reason) = collect(&mut h).await;
    assert_eq!(reason, TurnEndReason::Completed);
    let steered = events
        .iter()
        .position(|e| matches!(&e.kind, EventKind::Steered { text } if text == "hello"));
    let started = events
        .iter()
        .position(|e| matches!(e.kind, EventKind::TurnStarted));
    assert!(steered.is_some() && steered < started, "{events:?}");
    let sent = serde_json::to_string(&h.requests.lock().unwrap()[0].messages).unwrap();
    assert!(sent.contains("hello"));
}

#[tokio::test]
async fn an_unknown_model_name_is_warned_about_with_the_closest_known_one() {
    let mut h = start(vec![text("hi")], PermissionMode::Default, 5);
    h.handle
        .submit(Op::SetModel {
            model: Some("claude-sonet-4-5".into()),
        })
        .await
        .unwrap();
    let warning = loop {
        let e = h.handle.events.recv().await.unwrap();
        if let EventKind::Warning { message } = e.kind {
            break message;
        }
    };
    assert!(
        warning.contains("`claude-sonet-4-5` is not a model wright knows")
            && warning.contains("Did you mean `claude-sonnet-4-5`?"),
        "{warning}"
    );
}
