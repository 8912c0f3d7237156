//! `ExitPlanMode` and `AskUserQuestion` through the session actor: which
//! requests carry them, what plan mode tells the model, how an approved,
//! refused or headless plan and an answered question come back.

use super::*;

fn tool_names(request: &ModelRequest) -> Vec<String> {
    request.tools.iter().map(|t| t.name.clone()).collect()
}

fn last_results(h: &Harness) -> Vec<String> {
    let requests = h.requests.lock().unwrap();
    requests
        .last()
        .unwrap()
        .messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolResult { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect()
}

/// Runs a turn, answering each question with `answer(tool, arguments)`
/// (`None`: leave it to the caller by sending nothing, which never happens
/// in these tests); returns the events and the questions' tools.
async fn answered_turn(
    h: &mut Harness,
    prompt: &str,
    mut answer: impl FnMut(&str, &str) -> Vec<Op>,
) -> (Vec<Event>, Vec<String>, TurnEndReason) {
    h.handle
        .submit(Op::UserTurn {
            text: prompt.into(),
        })
        .await
        .unwrap();
    let mut events = Vec::new();
    let mut asked = Vec::new();
    loop {
        let e = h.handle.events.recv().await.unwrap();
        match &e.kind {
            EventKind::ApprovalRequested {
                id,
                tool,
                arguments,
                ..
            } => {
                asked.push(tool.clone());
                for op in answer(tool, arguments) {
                    let op = match op {
                        Op::ResolveApproval { decision, .. } => Op::ResolveApproval {
                            id: id.clone(),
                            decision,
                        },
                        other => other,
                    };
                    h.handle.submit(op).await.unwrap();
                }
            }
            EventKind::TurnCompleted { reason, .. } => {
                let reason = *reason;
                events.push(e);
                return (events, asked, reason);
            }
            _ => {}
        }
        events.push(e);
    }
}

fn resolve(decision: ApprovalDecision) -> Op {
    Op::ResolveApproval {
        id: String::new(),
        decision,
    }
}

const PLAN: &str = r#"{"plan":"1. Write a.txt\n2. Check it"}"#;

#[tokio::test]
async fn plan_mode_offers_exit_plan_mode_and_not_the_edit_tools() {
    let mut h = start_with(vec![text("a plan soon")], PermissionMode::Plan, 5, |o| {
        o.policy.can_ask = CanAsk::Yes
    });
    turn(&mut h, "plan it").await;
    let requests = h.requests.lock().unwrap();
    let names = tool_names(&requests[0]);
    assert!(names.contains(&"ExitPlanMode".to_owned()), "{names:?}");
    assert!(names.contains(&"AskUserQuestion".to_owned()), "{names:?}");
    for edit in ["Edit", "Write", "MultiEdit"] {
        assert!(
            !names.contains(&edit.to_owned()),
            "{edit} offered: {names:?}"
        );
    }
    assert!(names.contains(&"Read".to_owned()) && names.contains(&"Bash".to_owned()));
    assert!(requests[0].system.contains("Plan mode is on"));
}

#[tokio::test]
async fn default_mode_offers_the_edit_tools_and_no_plan_tool() {
    let mut h = start(vec![text("hi")], PermissionMode::Default, 5);
    turn(&mut h, "hello").await;
    let requests = h.requests.lock().unwrap();
    let names = tool_names(&requests[0]);
    assert!(names.contains(&"Edit".to_owned()));
    assert!(!names.contains(&"ExitPlanMode".to_owned()));
    // Headless: nobody can answer a question.
    assert!(!names.contains(&"AskUserQuestion".to_owned()), "{names:?}");
    assert!(!requests[0].system.contains("Plan mode is on"));
}

#[tokio::test]
async fn an_approved_plan_leaves_plan_mode_and_the_next_edit_runs_in_the_same_turn() {
    let mut h = start_with(
        vec![
            calls(&[("p", "ExitPlanMode", PLAN)]),
            calls(&[("w", "Write", r#"{"file_path":"a.txt","content":"x"}"#)]),
            text("done"),
        ],
        PermissionMode::Plan,
        5,
        |o| o.policy.can_ask = CanAsk::Yes,
    );
    let (events, asked, reason) = answered_turn(&mut h, "plan then do", |tool, args| {
        assert_eq!(tool, "ExitPlanMode");
        assert!(args.contains("Write a.txt"), "{args}");
        vec![
            Op::SetPermissionMode {
                mode: "accept-edits".into(),
            },
            resolve(ApprovalDecision::AllowOnce),
        ]
    })
    .await;
    assert_eq!(reason, TurnEndReason::Completed);
    assert_eq!(asked, ["ExitPlanMode"], "the write asked again");
    assert!(h._dir.path().join("a.txt").exists());
    let results = last_results(&h);
    assert!(
        results[0].contains("approved the plan") && results[0].contains("accept-edits"),
        "{results:?}"
    );
    // The request after approval offers the edit tools again.
    let requests = h.requests.lock().unwrap();
    assert!(tool_names(&requests[1]).contains(&"Write".to_owned()));
    assert!(!tool_names(&requests[1]).contains(&"ExitPlanMode".to_owned()));
    assert!(
        !events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::TurnCompleted { plan: Some(_), .. }))
    );
}

#[tokio::test]
async fn approving_without_a_mode_goes_to_default_and_edits_ask_again() {
    let mut h = start_with(
        vec![
            calls(&[("p", "ExitPlanMode", PLAN)]),
            calls(&[("w", "Write", r#"{"file_path":"a.txt","content":"x"}"#)]),
            text("done"),
        ],
        PermissionMode::Plan,
        5,
        |o| o.policy.can_ask = CanAsk::Yes,
    );
    let (events, asked, _) = answered_turn(&mut h, "go", |tool, _| match tool {
        "ExitPlanMode" => vec![resolve(ApprovalDecision::AllowOnce)],
        _ => vec![resolve(ApprovalDecision::AllowOnce)],
    })
    .await;
    assert_eq!(asked, ["ExitPlanMode", "Write"]);
    assert!(events.iter().any(|e| matches!(
        &e.kind,
        EventKind::Notice { message } if message == "Permission mode is now `default`."
    )));
    assert!(h._dir.path().join("a.txt").exists());
}

#[tokio::test]
async fn keep_planning_returns_the_feedback_and_stays_in_plan_mode() {
    let mut h = start_with(
        vec![
            calls(&[("p", "ExitPlanMode", PLAN)]),
            calls(&[("w", "Write", r#"{"file_path":"a.txt","content":"x"}"#)]),
            text("revised"),
        ],
        PermissionMode::Plan,
        5,
        |o| o.policy.can_ask = CanAsk::Yes,
    );
    let (_, asked, _) = answered_turn(&mut h, "go", |_, _| {
        vec![resolve(ApprovalDecision::Deny {
            note: Some("use b.txt instead".into()),
        })]
    })
    .await;
    assert_eq!(asked, ["ExitPlanMode"]);
    let results = last_results(&h);
    assert!(
        results[0].contains("keep planning") && results[0].contains("use b.txt instead"),
        "{results:?}"
    );
    // Still plan mode: the write the model tried anyway was refused.
    assert!(results[1].contains("plan"), "{results:?}");
    assert!(!h._dir.path().join("a.txt").exists());
}

#[tokio::test]
async fn a_headless_plan_is_the_result_and_nothing_after_it_runs() {
    let mut h = start(
        vec![
            calls(&[
                ("p", "ExitPlanMode", PLAN),
                ("b", "Bash", r#"{"command":"touch after-plan"}"#),
            ]),
            text("never asked for"),
        ],
        PermissionMode::Plan,
        5,
    );
    let (events, reason) = turn(&mut h, "plan it").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let plan = events.iter().find_map(|e| match &e.kind {
        EventKind::TurnCompleted { plan, .. } => plan.clone(),
        _ => None,
    });
    assert_eq!(plan.as_deref(), Some("1. Write a.txt\n2. Check it"));
    assert_eq!(
        h.requests.lock().unwrap().len(),
        1,
        "a request after the plan"
    );
    assert!(!h._dir.path().join("after-plan").exists());
}

#[tokio::test]
async fn exit_plan_mode_with_an_empty_plan_is_an_invalid_call() {
    let mut h = start(
        vec![
            calls(&[("p", "ExitPlanMode", r#"{"plan":"  "}"#)]),
            text("ok"),
        ],
        PermissionMode::Plan,
        5,
    );
    let (events, _) = turn(&mut h, "plan").await;
    assert!(
        !events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::TurnCompleted { plan: Some(_), .. }))
    );
    assert!(last_results(&h)[0].contains("`plan` is empty"));
}

const QUESTION: &str = r#"{"questions":[{"question":"Which database?","header":"DB","multiSelect":false,
  "options":[{"label":"SQLite","description":"a file"},{"label":"Postgres","description":"a server"}]}]}"#;

#[tokio::test]
async fn an_answered_question_names_the_chosen_label() {
    let mut h = start_with(
        vec![calls(&[("q", "AskUserQuestion", QUESTION)]), text("ok")],
        PermissionMode::Default,
        5,
        |o| o.policy.can_ask = CanAsk::Yes,
    );
    let (_, asked, _) = answered_turn(&mut h, "ask me", |tool, args| {
        assert_eq!(tool, "AskUserQuestion");
        let mut input: serde_json::Value = serde_json::from_str(args).unwrap();
        input["answers"] = serde_json::json!({"Which database?": "Postgres"});
        vec![resolve(ApprovalDecision::AllowWithInput {
            input: input.to_string(),
        })]
    })
    .await;
    assert_eq!(asked, ["AskUserQuestion"]);
    let results = last_results(&h);
    assert!(
        results[0].contains("\"Which database?\" = \"Postgres\""),
        "{results:?}"
    );
}

#[tokio::test]
async fn a_declined_question_says_so_and_bad_questions_are_refused_before_asking() {
    let bad = r#"{"questions":[{"question":"One?","header":"x","multiSelect":false,"options":[{"label":"only","description":""}]}]}"#;
    let mut h = start_with(
        vec![
            calls(&[("bad", "AskUserQuestion", bad)]),
            calls(&[("q", "AskUserQuestion", QUESTION)]),
            text("ok"),
        ],
        PermissionMode::Default,
        5,
        |o| o.policy.can_ask = CanAsk::Yes,
    );
    let (_, asked, _) = answered_turn(&mut h, "ask", |_, _| {
        vec![resolve(ApprovalDecision::Deny { note: None })]
    })
    .await;
    assert_eq!(asked, ["AskUserQuestion"], "the bad one was asked");
    let requests = h.requests.lock().unwrap();
    let sent = serde_json::to_string(&requests[1].messages).unwrap();
    assert!(sent.contains("2 to 4 options (1 given)"), "{sent}");
    drop(requests);
    let results = last_results(&h);
    assert!(results[1].contains("did not answer"), "{results:?}");
}

#[tokio::test]
async fn subagents_get_neither_tool() {
    // A child's toolbox is made without the asking tools.
    let parent = crate::toolbox::ToolBox::new(Arc::new(ToolRegistry::builtin()), None, None);
    assert!(parent.interactive());
    assert!(parent.lookup("ExitPlanMode").is_some());
    let child = parent.for_subagent(None);
    assert!(!child.interactive());
    assert!(child.lookup("ExitPlanMode").is_none());
    assert!(child.lookup("AskUserQuestion").is_none());
}

#[tokio::test]
async fn dont_ask_again_on_an_edit_covers_every_edit_of_the_session() {
    let mut h = start_with(
        vec![
            calls(&[("w1", "Write", r#"{"file_path":"a.txt","content":"a"}"#)]),
            calls(&[("w2", "Write", r#"{"file_path":"sub/b.txt","content":"b"}"#)]),
            text("done"),
        ],
        PermissionMode::Default,
        5,
        |o| o.policy.can_ask = CanAsk::Yes,
    );
    let (events, asked, _) = answered_turn(&mut h, "write two files", |_, _| {
        vec![resolve(ApprovalDecision::AllowSession)]
    })
    .await;
    assert_eq!(asked, ["Write"], "the second edit asked again");
    assert!(h._dir.path().join("sub/b.txt").exists());
    assert!(events.iter().any(|e| matches!(
        &e.kind,
        EventKind::Notice { message } if message == "Permission mode is now `accept-edits`."
    )));
}
