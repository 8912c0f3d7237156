//! Working with the agent as the app shows it: a plan to approve, the
//! model's questions, messages sent into a running turn, the bell, the
//! todo checklist and a window resized while an answer streams.

use super::*;
use wright_protocol::{ApprovalDecision, Op};

fn asking(tool: &str, arguments: &str) -> Input {
    ev(EventKind::ApprovalRequested {
        id: "ap1".to_owned(),
        tool: tool.to_owned(),
        arguments: arguments.to_owned(),
        touches: None,
        reason: "asks".to_owned(),
        suggested_rule: None,
        suggested_rules: Vec::new(),
        still_asks: None,
        call_id: None,
    })
}

/// Opens `tool`'s menu and lets its guard pass; the time after it.
fn opened(app: &mut App, tool: &str, arguments: &str) -> Instant {
    app.input(asking(tool, arguments));
    let t = app.now;
    app.frame_drawn(t);
    let later = t + Duration::from_secs(2);
    app.set_now(later);
    later
}

#[test]
fn a_plan_goes_to_the_transcript_and_1_approves_it_for_accept_edits() {
    let (mut app, _) = busy_app(80);
    let plan = serde_json::json!({"plan": "## Steps\n1. Edit **lib.rs**\n2. Run the tests"});
    opened(&mut app, "ExitPlanMode", &plan.to_string());
    let history = rows(&app.take_history());
    assert!(history.contains("Plan"), "{history}");
    assert!(
        history.contains("Edit lib.rs"),
        "rendered markdown: {history}"
    );
    let shown = screen(&app, 80, 14);
    assert!(shown.contains("? The plan above is ready"), "{shown}");
    assert!(shown.contains("1. Yes, and accept edits"), "{shown}");
    assert!(shown.contains("3. No, keep planning"), "{shown}");
    app.key(typed('1'));
    assert!(app.take_actions().is_empty(), "a digit only picks");
    app.key(special(crossterm::event::KeyCode::Enter));
    assert_eq!(
        app.take_actions(),
        [
            Action::Op(Op::SetPermissionMode {
                mode: "accept-edits".to_owned()
            }),
            Action::Op(Op::ResolveApproval {
                id: "ap1".to_owned(),
                decision: ApprovalDecision::AllowOnce,
            })
        ]
    );
    assert!(app.approval.is_none());
}

#[test]
fn keep_planning_sends_the_typed_feedback_and_typed_ahead_letters_stay_prompts() {
    let (mut app, _) = busy_app(80);
    app.input(asking("ExitPlanMode", r#"{"plan":"1. Do it"}"#));
    // Typed before the menu was on screen: the composer's, sent into the
    // turn, answering nothing.
    app.key(typed('3'));
    app.key(special(crossterm::event::KeyCode::Enter));
    assert!(
        !app.take_actions()
            .iter()
            .any(|a| matches!(a, Action::Op(Op::ResolveApproval { .. }))),
    );
    assert_eq!(app.steering, ["3"]);
    let t = app.now;
    app.frame_drawn(t);
    app.set_now(t + Duration::from_secs(2));
    app.key(typed('3'));
    app.key(special(crossterm::event::KeyCode::Enter));
    for c in "smaller steps".chars() {
        app.key(typed(c));
    }
    assert!(screen(&app, 80, 14).contains("what to change: smaller steps"));
    app.key(special(crossterm::event::KeyCode::Enter));
    assert_eq!(
        app.take_actions(),
        [Action::Op(Op::ResolveApproval {
            id: "ap1".to_owned(),
            decision: ApprovalDecision::Deny {
                note: Some("smaller steps".to_owned())
            },
        })]
    );
}

#[test]
fn a_question_shows_its_options_and_2_returns_the_second_label() {
    let (mut app, _) = busy_app(80);
    let question = r#"{"questions":[{"question":"Which database?","header":"DB","multiSelect":false,
        "options":[{"label":"SQLite","description":"one file"},{"label":"Postgres","description":"a server"}]}]}"#;
    opened(&mut app, "AskUserQuestion", question);
    let shown = screen(&app, 80, 12);
    assert!(shown.contains("[DB] Which database?"), "{shown}");
    assert!(shown.contains("1. SQLite — one file"), "{shown}");
    assert!(shown.contains("2. Postgres — a server"), "{shown}");
    assert!(shown.contains("3. Answer in your own words"), "{shown}");
    app.key(typed('2'));
    app.key(special(crossterm::event::KeyCode::Enter));
    let actions = app.take_actions();
    let [
        Action::Op(Op::ResolveApproval {
            decision: ApprovalDecision::AllowWithInput { input },
            ..
        }),
    ] = actions.as_slice()
    else {
        panic!("{actions:?}")
    };
    let input: serde_json::Value = serde_json::from_str(input).unwrap();
    assert_eq!(input["answers"]["Which database?"], "Postgres");
}

#[test]
fn esc_on_a_question_refuses_and_stops_the_turn() {
    let (mut app, _) = busy_app(80);
    let question = r#"{"questions":[{"question":"Q?","header":"","multiSelect":false,
        "options":[{"label":"a","description":""},{"label":"b","description":""}]}]}"#;
    opened(&mut app, "AskUserQuestion", question);
    app.key(special(crossterm::event::KeyCode::Esc));
    let actions = app.take_actions();
    assert!(actions.contains(&Action::Op(Op::Interrupt)), "{actions:?}");
}

#[test]
fn a_message_sent_into_a_turn_shows_where_it_was_delivered_or_comes_back() {
    let (mut app, _) = busy_app(80);
    app.submit("also check b.txt".to_owned());
    assert_eq!(
        app.take_actions(),
        [Action::Op(Op::Steer {
            text: "also check b.txt".to_owned(),
            images: Vec::new(),
            uuid: None,
        })]
    );
    assert!(screen(&app, 80, 10).contains("↳ with the next step: also check b.txt"));
    app.input(ev(EventKind::Steered {
        text: "also check b.txt".to_owned(),
    }));
    assert!(app.steering.is_empty());
    assert!(rows(&app.take_history()).contains("› also check b.txt"));
    // Withdrawn by an interrupt: back in the composer, before what is there.
    app.submit("one more".to_owned());
    app.composer.set_text("draft");
    app.input(ev(EventKind::SteeringWithdrawn {
        texts: vec!["one more".to_owned()],
    }));
    assert_eq!(app.composer.text(), "one more\n\ndraft");
    assert!(app.steering.is_empty());
}

#[test]
fn esc_puts_a_queued_prompt_back_into_the_composer() {
    let (mut app, _) = busy_app(80);
    app.queued.push_back("for later".to_owned());
    app.input(ev(EventKind::TurnCompleted {
        reason: TurnEndReason::Interrupted,
        model_requests: 1,
        structured_output: None,
        structured_output_failed: false,
        plan: None,
    }));
    assert!(app.take_actions().is_empty(), "not sent");
    assert_eq!(app.composer.text(), "for later");
}

#[test]
fn the_ui_rings_once_when_it_waits_for_the_person() {
    let (mut app, t0) = busy_app(80);
    assert_eq!(app.take_ring(), None);
    app.input(asking("Bash", r#"{"command":"touch a"}"#));
    assert_eq!(app.take_ring().as_deref(), Some("\x07"));
    assert_eq!(app.take_ring(), None, "once");
    // OSC 9 says why; a turn that ran long rings as it ends.
    app.notify = crate::host::Notify::Osc9;
    app.set_now(t0 + Duration::from_secs(60));
    app.input(ev(EventKind::TurnCompleted {
        reason: TurnEndReason::Completed,
        model_requests: 1,
        structured_output: None,
        structured_output_failed: false,
        plan: None,
    }));
    assert_eq!(
        app.take_ring().as_deref(),
        Some("\x1b]9;wright finished its turn\x07")
    );
    app.notify = crate::host::Notify::Off;
    app.input(asking("ExitPlanMode", r#"{"plan":"1. x"}"#));
    assert_eq!(app.take_ring(), None);
}

#[test]
fn the_todo_list_stays_in_view_as_a_checklist_while_any_is_open() {
    let (mut app, _) = busy_app(80);
    let todos = r#"{"todos":[
        {"content":"Read the code","status":"completed","activeForm":"Reading the code"},
        {"content":"Fix the bug","status":"in_progress","activeForm":"Fixing the bug"},
        {"content":"Run the tests","status":"pending","activeForm":"Running the tests"}]}"#;
    app.input(ev(EventKind::ItemCompleted {
        item: tool("t1", "TodoWrite", todos, ToolCallStatus::Completed, None),
    }));
    let shown = screen(&app, 80, 14);
    assert!(shown.contains("☑ Read the code"), "{shown}");
    assert!(shown.contains("◐ Fixing the bug"), "{shown}");
    assert!(shown.contains("☐ Run the tests"), "{shown}");
    app.input(ev(EventKind::TurnCompleted {
        reason: TurnEndReason::Completed,
        model_requests: 1,
        structured_output: None,
        structured_output_failed: false,
        plan: None,
    }));
    assert!(
        screen(&app, 80, 14).contains("☐ Run the tests"),
        "still in view"
    );
    let done = todos
        .replace("in_progress", "completed")
        .replace("pending", "completed");
    app.input(ev(EventKind::ItemCompleted {
        item: tool("t2", "TodoWrite", &done, ToolCallStatus::Completed, None),
    }));
    assert!(
        !screen(&app, 80, 14).contains("Run the tests"),
        "all done: gone"
    );
}

#[test]
fn shrinking_and_growing_the_window_while_a_list_streams_keeps_each_item_once() {
    let (mut app, _) = busy_app(60);
    app.input(message_start("m1"));
    for (i, width) in (1..=10).zip([60u16, 30, 80, 20, 50, 25, 70, 40, 35, 90]) {
        app.set_width(width);
        let item = format!("- entry{i:02} is described at a length that wraps on narrow windows\n");
        let (a, b) = item.split_at(item.len() / 3);
        app.input(text("m1", a));
        app.input(text("m1", b));
    }
    app.input(ev(EventKind::ItemCompleted {
        item: Item {
            id: "m1".to_owned(),
            kind: ItemKind::AgentMessage {
                text: String::new(),
                stop_reason: None,
            },
        },
    }));
    let committed = rows(&app.take_history());
    for i in 1..=10 {
        let tag = format!("entry{i:02}");
        assert_eq!(committed.matches(&tag).count(), 1, "{tag}:\n{committed}");
    }
}
