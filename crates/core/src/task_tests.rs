//! Subagents in the turn loop, against a model that answers the parent and
//! each child by what it is asked: children run side by side, their
//! results come back in call order, restricted tools and recursion are
//! refused, a child that hits its limit is an error result, and every
//! child event carries its agent path and the parent's call id.

use super::*;
use std::collections::HashMap;
use wright_context::agents::{AgentDef, AgentSource, builtin_agents};
use wright_protocol::{Item, ItemKind, ToolCallStatus};

use crate::task::Agents;

/// Replies by who asks: the parent (system prompt "sys") gets its script
/// in order; a child gets, by its prompt, a list of replies for its
/// first, second, … request.
struct Router {
    parent: Mutex<Vec<Reply>>,
    children: Mutex<HashMap<String, Vec<Reply>>>,
    requests: Arc<Mutex<Vec<ModelRequest>>>,
    /// Children whose first request waits here, to prove they overlap.
    gate: Option<Arc<tokio::sync::Barrier>>,
    /// Children's responses being streamed now, and the most at once.
    in_flight: Arc<std::sync::atomic::AtomicUsize>,
    peak: Arc<std::sync::atomic::AtomicUsize>,
}

/// Counts one child response as in flight until the stream is dropped.
struct InFlight(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

impl ModelClient for Router {
    fn provider(&self) -> &'static str {
        "fake"
    }

    fn stream(&self, request: ModelRequest, cancel: CancellationToken) -> EventStream {
        self.requests.lock().unwrap().push(request.clone());
        let is_child = request.system.contains("You are the subagent");
        let reply = if is_child {
            let prompt = match request.messages.first().map(|m| m.content.first()) {
                Some(Some(ContentBlock::Text { text })) => text.clone(),
                _ => String::new(),
            };
            let mut children = self.children.lock().unwrap();
            let script = children.entry(prompt).or_default();
            if script.is_empty() {
                text("(child script exhausted)")
            } else {
                script.remove(0)
            }
        } else {
            let mut parent = self.parent.lock().unwrap();
            if parent.is_empty() {
                text("(parent script exhausted)")
            } else {
                parent.remove(0)
            }
        };
        let first_child_request = is_child && request.messages.len() == 1;
        let gate = self.gate.clone().filter(|_| first_child_request);
        let events = match reply {
            Reply::Events(events) => events,
            Reply::Stall => {
                return futures::stream::once(async move {
                    cancel.cancelled().await;
                    Err(LlmError::Cancelled)
                })
                .boxed();
            }
            Reply::Summary(summary) => vec![Err(LlmError::Protocol {
                provider: "fake",
                message: format!("no summary expected here: {summary}"),
            })],
        };
        let counted = is_child.then(|| {
            use std::sync::atomic::Ordering::SeqCst;
            let now = self.in_flight.fetch_add(1, SeqCst) + 1;
            self.peak.fetch_max(now, SeqCst);
            InFlight(Arc::clone(&self.in_flight))
        });
        futures::stream::once(async move {
            if let Some(gate) = gate {
                gate.wait().await;
            }
            futures::stream::iter(events)
        })
        .flatten()
        .map(move |e| {
            let _held = &counted;
            e
        })
        .boxed()
    }
}

fn reviewer() -> AgentDef {
    AgentDef {
        name: "reviewer".into(),
        description: "Reviews code".into(),
        tools: Some(vec!["Read".into(), "Grep".into()]),
        model: None,
        permission_mode: None,
        max_turns: Some(2),
        isolation: None,
        prompt: "You review code.".into(),
        source: AgentSource::Builtin,
    }
}

struct TaskHarness {
    handle: SessionHandle,
    requests: Arc<Mutex<Vec<ModelRequest>>>,
    /// The most children's responses streamed at once.
    peak: Arc<std::sync::atomic::AtomicUsize>,
    _dir: tempfile::TempDir,
}

fn start_tasks(
    parent: Vec<Reply>,
    children: Vec<(&str, Vec<Reply>)>,
    gate: Option<Arc<tokio::sync::Barrier>>,
) -> TaskHarness {
    start_capped(parent, children, gate, 4)
}

fn start_capped(
    parent: Vec<Reply>,
    children: Vec<(&str, Vec<Reply>)>,
    gate: Option<Arc<tokio::sync::Barrier>>,
    cap: usize,
) -> TaskHarness {
    let dir = tempfile::tempdir().unwrap();
    start_in_dir(
        dir,
        parent,
        children,
        gate,
        cap,
        crate::Persistence::default(),
    )
}

fn start_in_dir(
    dir: tempfile::TempDir,
    parent: Vec<Reply>,
    children: Vec<(&str, Vec<Reply>)>,
    gate: Option<Arc<tokio::sync::Barrier>>,
    cap: usize,
    persistence: crate::Persistence,
) -> TaskHarness {
    let requests = Arc::new(Mutex::new(Vec::new()));
    let peak = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let client = Router {
        parent: Mutex::new(parent),
        children: Mutex::new(
            children
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect(),
        ),
        requests: Arc::clone(&requests),
        gate,
        in_flight: Arc::default(),
        peak: Arc::clone(&peak),
    };
    std::fs::write(dir.path().join("a.txt"), "alpha\n").unwrap();
    let mut options = harness_options(dir.path());
    if persistence.writer.is_some() {
        options.policy.mode = PermissionMode::Bypass;
    }
    let mut defs = builtin_agents();
    defs.push(reviewer());
    options.extensions.agents = Some(Arc::new(Agents::new(defs, 5, cap)));
    let handle = spawn_session(
        options,
        Arc::new(client),
        Arc::new(ToolRegistry::builtin()),
        persistence,
    );
    TaskHarness {
        handle,
        requests,
        peak,
        _dir: dir,
    }
}

async fn run(h: &mut TaskHarness, text: &str) -> (Vec<Event>, TurnEndReason) {
    h.handle
        .submit(Op::UserTurn { text: text.into() })
        .await
        .unwrap();
    let mut events = Vec::new();
    while let Some(e) = h.handle.events.recv().await {
        let end = match &e.kind {
            EventKind::TurnCompleted { reason, .. } if e.agent.is_root() => Some(*reason),
            _ => None,
        };
        events.push(e);
        if let Some(reason) = end {
            return (events, reason);
        }
    }
    panic!("session ended without TurnCompleted");
}

fn parent_results(requests: &[ModelRequest]) -> Vec<(String, bool)> {
    let last = requests.iter().rfind(|r| r.system == "sys").unwrap();
    last.messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolResult {
                content, is_error, ..
            } => Some((content.clone(), *is_error)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn two_explore_children_run_side_by_side_and_both_answers_come_back_in_order() {
    let gate = Arc::new(tokio::sync::Barrier::new(2));
    let mut h = start_tasks(
        vec![
            calls(&[
                (
                    "t1",
                    "Task",
                    r#"{"description":"find a","prompt":"find alpha","subagent_type":"explore"}"#,
                ),
                (
                    "t2",
                    "Task",
                    r#"{"description":"find b","prompt":"find beta","subagent_type":"explore"}"#,
                ),
            ]),
            text("both done"),
        ],
        vec![
            (
                "find alpha",
                vec![
                    calls(&[("g1", "Grep", r#"{"pattern":"alpha"}"#)]),
                    text("alpha is in a.txt:1"),
                ],
            ),
            ("find beta", vec![text("no beta anywhere")]),
        ],
        Some(gate),
    );
    let (events, reason) = tokio::time::timeout(Duration::from_secs(30), run(&mut h, "go"))
        .await
        .expect("children did not overlap");
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap().clone();
    let results = parent_results(&requests);
    assert_eq!(
        results,
        [
            ("alpha is in a.txt:1".to_owned(), false),
            ("no beta anywhere".to_owned(), false)
        ]
    );
    // The child's own calls are visible, under its path and the parent's call id.
    let child_calls: Vec<(String, Option<String>, String)> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ItemCompleted {
                item:
                    Item {
                        kind: ItemKind::ToolCall { name, .. },
                        ..
                    },
            } if !e.agent.is_root() => Some((
                e.agent.0.clone(),
                e.parent_tool_use_id.clone(),
                name.clone(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(child_calls.len(), 1, "{child_calls:?}");
    assert!(child_calls[0].0.starts_with("root/explore-"));
    assert_eq!(child_calls[0].1.as_deref(), Some("t1"));
    assert_eq!(child_calls[0].2, "Grep");
    // Sequence numbers stay strictly increasing across agents.
    let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
    // The explore child was offered read-only tools, no Task.
    let child_tools: Vec<String> = requests
        .iter()
        .find(|r| r.system.contains("subagent `explore`"))
        .unwrap()
        .tools
        .iter()
        .map(|t| t.name.clone())
        .collect();
    assert!(!child_tools.contains(&"Task".to_owned()), "{child_tools:?}");
    assert!(
        !child_tools.contains(&"Write".to_owned()),
        "{child_tools:?}"
    );
    assert!(child_tools.contains(&"Grep".to_owned()), "{child_tools:?}");
    // The parent was offered Task with the agent types.
    let task = requests[0].tools.iter().find(|t| t.name == "Task").unwrap();
    assert!(
        task.description.contains("- explore:"),
        "{}",
        task.description
    );
    assert!(task.description.contains("- reviewer: Reviews code"));
}

#[tokio::test]
async fn restricted_tools_and_recursion_are_refused_and_limits_end_a_child() {
    let mut h = start_tasks(
        vec![
            calls(&[(
                "t1",
                "Task",
                r#"{"description":"review","prompt":"review it","subagent_type":"reviewer"}"#,
            )]),
            calls(&[(
                "t2",
                "Task",
                r#"{"description":"x","prompt":"x","subagent_type":"nope"}"#,
            )]),
            text("parent goes on"),
        ],
        vec![(
            "review it",
            vec![
                calls(&[
                    ("w1", "Write", r#"{"file_path":"b.txt","content":"x"}"#),
                    ("b1", "Bash", r#"{"command":"echo hi"}"#),
                    ("r1", "Task", r#"{"description":"d","prompt":"p"}"#),
                ]),
                calls(&[("g1", "Grep", r#"{"pattern":"x"}"#)]),
                text("never reached: the limit is 2 requests"),
            ],
        )],
        None,
    );
    let (_, reason) = run(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap().clone();
    // The child's refused calls: each an unknown tool for it.
    let child_second = requests
        .iter()
        .filter(|r| r.system.contains("subagent `reviewer`"))
        .nth(1)
        .unwrap();
    let child_results: Vec<&str> = child_second
        .messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolResult { content, .. } => Some(content.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(child_results.len(), 3);
    for r in &child_results {
        assert!(r.contains("Unknown tool"), "{r}");
    }
    assert!(!h._dir.path().join("b.txt").exists());
    let results = parent_results(&requests);
    assert!(results[0].1, "{results:?}");
    assert!(results[0].0.contains("request limit"), "{results:?}");
    assert!(
        results[1].1 && results[1].0.contains("no agent type `nope`"),
        "{results:?}"
    );
}

#[tokio::test]
async fn children_usage_counts_in_the_session_totals() {
    let mut h = start_tasks(
        vec![
            calls(&[(
                "t1",
                "Task",
                r#"{"description":"d","prompt":"say hi","subagent_type":"general"}"#,
            )]),
            text("done"),
        ],
        vec![("say hi", vec![text("hi")])],
        None,
    );
    let (events, _) = run(&mut h, "go").await;
    let totals: Vec<(bool, u64)> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Usage { total, .. } => Some((e.agent.is_root(), total.input_tokens)),
            _ => None,
        })
        .collect();
    // Parent's first request, the child's, the parent's second: the
    // session total grows through all three.
    assert_eq!(totals.len(), 3, "{totals:?}");
    assert_eq!(totals.iter().map(|t| t.1).collect::<Vec<_>>(), [0, 10, 20]);
    assert!(!totals[1].0);
    let done = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::ItemCompleted {
                item:
                    Item {
                        kind: ItemKind::ToolCall { name, display, .. },
                        ..
                    },
            } if name == "Task" => display.clone(),
            _ => None,
        })
        .unwrap();
    assert!(done.summary.contains("root/general-"), "{}", done.summary);
    assert!(done.summary.contains("· 1 request ·"), "{}", done.summary);
}

#[tokio::test]
async fn an_interrupt_cancels_every_child_and_each_call_gets_a_result() {
    let mut h = start_tasks(
        vec![calls(&[
            (
                "t1",
                "Task",
                r#"{"description":"a","prompt":"wait a","subagent_type":"explore"}"#,
            ),
            (
                "t2",
                "Task",
                r#"{"description":"b","prompt":"wait b","subagent_type":"explore"}"#,
            ),
        ])],
        vec![
            ("wait a", vec![Reply::Stall]),
            ("wait b", vec![Reply::Stall]),
        ],
        None,
    );
    h.handle
        .submit(Op::UserTurn { text: "go".into() })
        .await
        .unwrap();
    // Both children are waiting on the model: then interrupt.
    let mut events = Vec::new();
    let mut started = 0;
    while started < 2 {
        let e = h.handle.events.recv().await.unwrap();
        if matches!(e.kind, EventKind::TurnStarted) && !e.agent.is_root() {
            started += 1;
        }
        events.push(e);
    }
    h.handle.submit(Op::Interrupt).await.unwrap();
    let reason = loop {
        let e = h.handle.events.recv().await.unwrap();
        if let EventKind::TurnCompleted { reason, .. } = &e.kind
            && e.agent.is_root()
        {
            break *reason;
        }
        events.push(e);
    };
    assert_eq!(reason, TurnEndReason::Interrupted);
    let task_results: Vec<ToolCallStatus> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ItemCompleted {
                item:
                    Item {
                        kind: ItemKind::ToolCall { name, status, .. },
                        ..
                    },
            } if name == "Task" => Some(*status),
            _ => None,
        })
        .collect();
    assert_eq!(
        task_results,
        [ToolCallStatus::Cancelled, ToolCallStatus::Cancelled]
    );
}

#[tokio::test]
async fn a_worktree_child_follows_the_mode_the_user_switched_to() {
    let requests = Arc::new(Mutex::new(Vec::new()));
    let client = Router {
        parent: Mutex::new(vec![
            calls(&[(
                "t1",
                "Task",
                r#"{"description":"d","prompt":"touch it","subagent_type":"iso"}"#,
            )]),
            text("done"),
        ]),
        children: Mutex::new(HashMap::from([(
            "touch it".to_owned(),
            vec![
                calls(&[("b1", "Bash", r#"{"command":"touch made-by-child"}"#)]),
                text("tried"),
            ],
        )])),
        requests: Arc::clone(&requests),
        gate: None,
        in_flight: Arc::default(),
        peak: Arc::default(),
    };
    let dir = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        assert!(
            std::process::Command::new("git")
                .args(["-c", "user.name=t", "-c", "user.email=t@t"])
                .args(args)
                .current_dir(dir.path())
                .status()
                .unwrap()
                .success()
        );
    };
    git(&["init", "-q"]);
    git(&["commit", "-q", "--allow-empty", "-m", "init"]);
    let worktrees = tempfile::tempdir().unwrap();
    let mut options = harness_options(dir.path());
    options.policy.mode = PermissionMode::Bypass;
    let mut defs = builtin_agents();
    defs.push(AgentDef {
        name: "iso".into(),
        description: "Isolated".into(),
        tools: None,
        model: None,
        permission_mode: None,
        max_turns: None,
        isolation: Some("worktree".into()),
        prompt: "You work alone.".into(),
        source: AgentSource::Builtin,
    });
    options.extensions.agents = Some(Arc::new(
        Agents::new(defs, 5, 4).with_worktrees(worktrees.path().to_path_buf(), false),
    ));
    let handle = spawn_session(
        options,
        Arc::new(client),
        Arc::new(ToolRegistry::builtin()),
        crate::Persistence::default(),
    );
    let mut h = TaskHarness {
        handle,
        requests,
        peak: Arc::default(),
        _dir: dir,
    };
    h.handle
        .submit(Op::SetPermissionMode {
            mode: "plan".into(),
        })
        .await
        .unwrap();
    let (_, reason) = run(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap().clone();
    let child_second = requests
        .iter()
        .filter(|r| r.system.contains("subagent `iso`"))
        .nth(1)
        .unwrap();
    let refused: Vec<(&str, bool)> = child_second
        .messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolResult {
                content, is_error, ..
            } => Some((content.as_str(), *is_error)),
            _ => None,
        })
        .collect();
    assert!(refused[0].1, "{refused:?}");
    // Nothing was made in any worktree (a clean one is removed).
    assert!(
        std::fs::read_dir(worktrees.path())
            .unwrap()
            .next()
            .is_none()
    );
}

/// Three children in one response: with the cap at 4 they overlap; with
/// `[agents] max_concurrent = 1` only one runs at a time, and every answer
/// still comes back in call order.
#[tokio::test]
async fn the_concurrency_cap_bounds_children_running_at_once() {
    let three = || {
        calls(&[
            (
                "t1",
                "Task",
                r#"{"description":"a","prompt":"one","subagent_type":"explore"}"#,
            ),
            (
                "t2",
                "Task",
                r#"{"description":"b","prompt":"two","subagent_type":"explore"}"#,
            ),
            (
                "t3",
                "Task",
                r#"{"description":"c","prompt":"three","subagent_type":"explore"}"#,
            ),
        ])
    };
    let children = || {
        vec![
            ("one", vec![text("1")]),
            ("two", vec![text("2")]),
            ("three", vec![text("3")]),
        ]
    };
    let expected = [
        ("1".to_owned(), false),
        ("2".to_owned(), false),
        ("3".to_owned(), false),
    ];
    let gate = Arc::new(tokio::sync::Barrier::new(3));
    let mut wide = start_capped(vec![three(), text("done")], children(), Some(gate), 4);
    let (_, reason) = tokio::time::timeout(Duration::from_secs(30), run(&mut wide, "go"))
        .await
        .expect("children under the cap did not overlap");
    assert_eq!(reason, TurnEndReason::Completed);
    assert_eq!(wide.peak.load(std::sync::atomic::Ordering::SeqCst), 3);
    let mut narrow = start_capped(vec![three(), text("done")], children(), None, 1);
    let (_, reason) = run(&mut narrow, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    assert_eq!(narrow.peak.load(std::sync::atomic::Ordering::SeqCst), 1);
    let requests = narrow.requests.lock().unwrap().clone();
    assert_eq!(parent_results(&requests), expected);
}

/// A child working in the user's tree keeps its file snapshots in the
/// session's own file: rewinding the session to before the prompt undoes
/// the child's edit too.
#[tokio::test]
async fn rewinding_the_session_undoes_a_childs_edits() {
    let dir = tempfile::tempdir().unwrap();
    let (_data, _store, writer) = super::session_store(dir.path());
    let file = dir.path().join("a.txt");
    let mut h = start_in_dir(
        dir,
        vec![
            calls(&[(
                "t1",
                "Task",
                r#"{"description":"edit","prompt":"change a","subagent_type":"general"}"#,
            )]),
            text("changed"),
        ],
        vec![(
            "change a",
            vec![
                calls(&[(
                    "w1",
                    "Write",
                    r#"{"file_path":"a.txt","content":"by the child\n"}"#,
                )]),
                text("wrote a.txt"),
            ],
        )],
        None,
        4,
        crate::Persistence {
            writer: Some(writer),
            ..crate::Persistence::default()
        },
    );
    h.handle
        .submit(Op::UserTurnWithImages {
            text: "go".into(),
            images: Vec::new(),
            uuid: Some("u-1".into()),
            typed: None,
        })
        .await
        .unwrap();
    loop {
        let e = h.handle.events.recv().await.unwrap();
        if e.agent.is_root() && matches!(e.kind, EventKind::TurnCompleted { .. }) {
            break;
        }
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "by the child\n");
    h.handle
        .submit(Op::RewindFiles {
            user_message_id: "u-1".into(),
            dry_run: false,
        })
        .await
        .unwrap();
    loop {
        let e = h.handle.events.recv().await.unwrap();
        match e.kind {
            EventKind::Notice { .. } => break,
            EventKind::Error { message } => panic!("{message}"),
            _ => {}
        }
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "alpha\n");
}
