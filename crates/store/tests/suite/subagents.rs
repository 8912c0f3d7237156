//! Subagents' transcripts: where they live, their headers, their
//! summaries, loading one, and staying out of listing, `--continue`,
//! search and id lookup.

use std::path::Path;

use wright_protocol::{ContentBlock, Message, Usage};
use wright_store::{
    EntryBody, ExportFormat, SearchOptions, SessionStore, SessionWriter, StoreError,
    SubagentParent, export_loaded,
};

use super::*;

fn parent_of(w: &SessionWriter, cwd: &Path, agent: &str, call: &str) -> SubagentParent {
    SubagentParent {
        session_id: w.id().to_string(),
        cwd: cwd.to_path_buf(),
        agent: agent.to_string(),
        parent_call_id: call.to_string(),
        agent_type: agent
            .trim_start_matches("root/")
            .split('-')
            .next()
            .unwrap_or_default()
            .to_string(),
        system_prompt: format!("# You are {agent}\nSearch, do not edit."),
    }
}

fn named_call(id: &str, name: &str) -> ContentBlock {
    ContentBlock::ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: "{}".into(),
    }
}

fn usage(w: &mut SessionWriter, input: u64, output: u64, cost: Option<f64>) {
    w.append(&EntryBody::Usage {
        usage: Usage {
            input_tokens: input,
            output_tokens: output,
            cache_read_input_tokens: 1,
            ..Usage::default()
        },
        model: "claude-test".into(),
        cost_usd: cost,
    })
    .unwrap();
}

/// A child that calls `tools` one by one, one request each, then answers.
fn run_child(w: &mut SessionWriter, tools: &[&str]) {
    w.append_message(&Message::user_text("find the config loader"))
        .unwrap();
    for (i, tool) in tools.iter().enumerate() {
        let id = format!("c{i}");
        w.append_message(&assistant(vec![named_call(&id, tool)]))
            .unwrap();
        usage(w, 100, 10, Some(0.001));
        w.append_message(&result(&id, &format!("{tool} output")))
            .unwrap();
    }
    w.append_message(&assistant(vec![text("it is in src/config.rs")]))
        .unwrap();
    usage(w, 100, 10, Some(0.001));
}

/// A parent session with one written turn.
fn parent_session(store: &SessionStore, cwd: &Path) -> SessionWriter {
    let mut w = store.create(&meta(cwd)).unwrap();
    w.append_message(&Message::user_text("explore the code"))
        .unwrap();
    w
}

#[test]
fn a_subagent_transcript_lives_beside_its_parent_with_an_agent_header() {
    let (dir, store) = store();
    let parent = parent_session(&store, dir.path());
    let mut child = store
        .create_subagent(
            &parent_of(&parent, dir.path(), "root/explore-1", "toolu_01"),
            &meta(dir.path()),
        )
        .unwrap();
    run_child(&mut child, &["Grep", "Read"]);
    let expected = parent
        .path()
        .with_extension("agents")
        .join("explore-1.jsonl");
    assert_eq!(child.path(), expected);
    assert!(expected.is_file());
    assert_ne!(child.id(), parent.id());

    // The header line: a normal header plus `agent`, `parent` naming the session.
    let text = std::fs::read_to_string(&expected).unwrap();
    let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(header["type"], "session");
    assert_eq!(header["parent"]["session"], parent.id());
    assert_eq!(header["parent"]["entry"], serde_json::Value::Null);
    assert_eq!(header["agent"]["path"], "root/explore-1");
    assert_eq!(header["agent"]["parent_call_id"], "toolu_01");
    assert_eq!(header["agent"]["agent_type"], "explore");
    assert!(
        header["agent"]["system_prompt"]
            .as_str()
            .unwrap()
            .starts_with("# You are root/explore-1")
    );

    // Loading: its own conversation only, nothing inherited from the parent.
    let loaded = store.load_subagent(parent.id(), "root/explore-1").unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert!(loaded.inherited.is_empty());
    assert_eq!(loaded.header.id, child.id());
    assert_eq!(loaded.history(), child.load().unwrap().history());
    assert_eq!(loaded.history()[0].text(), "find the config loader");
    assert_eq!(
        loaded.header.agent.as_ref().unwrap().parent_call_id,
        "toolu_01"
    );
    // Without `root/` it is the same agent.
    let short = store.load_subagent(parent.id(), "explore-1").unwrap();
    assert_eq!(short.history(), loaded.history());

    // Markdown: the system prompt comes first, fenced, then the transcript.
    let md = export_loaded(&loaded, ExportFormat::Markdown).unwrap();
    assert!(md.starts_with("# Subagent root/explore-1\n"), "{md}");
    let prompt = md.find("## System prompt").unwrap();
    let first_message = md.find("find the config loader").unwrap();
    assert!(prompt < first_message);
    assert!(md.contains("### Tool call: `Grep` (c0)"));
    assert!(!md.contains("forked from"));
}

#[test]
fn ordinary_headers_have_no_agent_field_and_old_headers_still_load() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    turn(&mut w, 1);
    let id = w.id().to_string();
    let path = w.path().to_path_buf();
    drop(w);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.lines().next().unwrap().contains("\"agent\""));

    // A header as older wrights wrote it: no `agent` field at all.
    let project = path.parent().unwrap();
    let old_id = "0190a0a0-0000-7000-8000-000000000001";
    std::fs::write(
        project.join(format!("{old_id}.jsonl")),
        format!(
            "{{\"type\":\"session\",\"version\":1,\"id\":\"{old_id}\",\"cwd\":\"/tmp\",\"created\":\"2024-01-01T00:00:00.000Z\",\"model\":\"m\",\"provider\":\"p\",\"parent\":null}}\n\
             {{\"id\":\"e1\",\"parent_id\":null,\"ts\":\"t\",\"type\":\"message\",\"message\":{{\"role\":\"user\",\"content\":[{{\"type\":\"text\",\"text\":\"old prompt\"}}]}}}}\n"
        ),
    )
    .unwrap();
    let loaded = store.load(old_id).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.header.agent, None);
    assert_eq!(loaded.history()[0].text(), "old prompt");
    assert!(store.subagents(old_id).unwrap().is_empty());
    assert!(store.subagents(&id).unwrap().is_empty());
}

#[test]
fn listing_continue_search_and_lookup_ignore_subagent_files() {
    let (dir, store) = store();
    let parent = parent_session(&store, dir.path());
    let parent_id = parent.id().to_string();
    // Written after the parent, so it is the newest file of the project.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let mut child = store
        .create_subagent(
            &parent_of(&parent, dir.path(), "root/explore-1", "toolu_01"),
            &meta(dir.path()),
        )
        .unwrap();
    run_child(&mut child, &["Grep"]);
    child
        .append_message(&Message::user_text("needle-only-in-child"))
        .unwrap();
    let child_id = child.id().to_string();
    drop(child);
    drop(parent);

    let rows = store.list(Some(dir.path()));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].id, parent_id);
    assert_eq!(store.list(None).len(), 1);
    assert_eq!(
        store.latest_for_project(dir.path()),
        Some(parent_id.clone())
    );
    assert!(store.unreadable_session_files(None).is_empty());
    let hits = store
        .search("needle-only-in-child", &SearchOptions::default())
        .unwrap();
    assert!(hits.is_empty(), "{hits:?}");
    assert!(store.locate(&child_id).is_none());
    assert!(matches!(
        store.resolve_id(&child_id, None),
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store.resolve_id("explore-1", None),
        Err(StoreError::NotFound { .. })
    ));
}

#[test]
fn subagents_are_summed_and_sorted_naturally() {
    let (dir, store) = store();
    let parent = parent_session(&store, dir.path());
    for (agent, call, tools) in [
        ("root/explore-10", "toolu_10", &["Read"][..]),
        ("root/explore-2", "toolu_02", &["Grep", "Read", "Read"][..]),
        ("root/general-1", "toolu_03", &[][..]),
    ] {
        let mut w = store
            .create_subagent(
                &parent_of(&parent, dir.path(), agent, call),
                &meta(dir.path()),
            )
            .unwrap();
        run_child(&mut w, tools);
    }
    // A child whose usage has no price: no cost, not zero.
    let mut w = store
        .create_subagent(
            &parent_of(&parent, dir.path(), "root/plan-1", "toolu_04"),
            &meta(dir.path()),
        )
        .unwrap();
    w.append_message(&Message::user_text("plan")).unwrap();
    usage(&mut w, 7, 3, None);
    drop(w);

    let subs = store.subagents(parent.id()).unwrap();
    let paths: Vec<&str> = subs.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "root/explore-2",
            "root/explore-10",
            "root/general-1",
            "root/plan-1"
        ]
    );
    let two = &subs[0];
    assert_eq!(two.agent_type, "explore");
    assert_eq!(two.parent_call_id, "toolu_02");
    assert_eq!(two.requests, 4);
    // 100 uncached + 1 cache read per request.
    assert_eq!(two.input_tokens, 404);
    assert_eq!(two.output_tokens, 40);
    assert!((two.cost_usd.unwrap() - 0.004).abs() < 1e-9);
    assert_eq!(two.tool_calls, ["Grep", "Read", "Read"]);
    assert_eq!(
        two.file,
        parent
            .path()
            .with_extension("agents")
            .join("explore-2.jsonl")
    );
    assert_eq!(subs[2].requests, 1);
    assert!(subs[2].tool_calls.is_empty());
    assert_eq!(subs[3].requests, 1);
    assert_eq!(subs[3].input_tokens, 8);
    assert_eq!(subs[3].cost_usd, None);
}

#[test]
fn the_same_agent_path_twice_gets_a_second_file() {
    let (dir, store) = store();
    let parent = parent_session(&store, dir.path());
    let p = parent_of(&parent, dir.path(), "root/explore-1", "toolu_01");
    let mut a = store.create_subagent(&p, &meta(dir.path())).unwrap();
    // Not written yet, but live: its name is taken all the same.
    let mut b = store.create_subagent(&p, &meta(dir.path())).unwrap();
    assert_ne!(a.path(), b.path());
    assert!(b.path().ends_with("explore-1-2.jsonl"));
    run_child(&mut a, &["Grep"]);
    run_child(&mut b, &["Read"]);
    let subs = store.subagents(parent.id()).unwrap();
    assert_eq!(subs.len(), 2);
    let b_loaded = store.load_subagent(parent.id(), "explore-1-2").unwrap();
    assert_eq!(b_loaded.header.id, b.id());
}

#[test]
fn unknown_agents_are_errors_that_list_the_known_ones() {
    let (dir, store) = store();
    let parent = parent_session(&store, dir.path());
    match store.load_subagent(parent.id(), "root/explore-1") {
        Err(e @ StoreError::UnknownAgent { .. }) => {
            assert!(e.to_string().contains("it has no subagents"), "{e}");
        }
        other => panic!("expected UnknownAgent, got {other:?}"),
    }
    for agent in ["root/explore-1", "root/explore-2"] {
        let mut w = store
            .create_subagent(
                &parent_of(&parent, dir.path(), agent, "toolu_01"),
                &meta(dir.path()),
            )
            .unwrap();
        run_child(&mut w, &[]);
    }
    match store.load_subagent(parent.id(), "explore-9") {
        Err(e @ StoreError::UnknownAgent { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains("no subagent 'explore-9'"), "{msg}");
            assert!(
                msg.contains("its subagents: root/explore-1, root/explore-2"),
                "{msg}"
            );
        }
        other => panic!("expected UnknownAgent, got {other:?}"),
    }
    assert!(matches!(
        store.load_subagent("0190a0a0-0000-7000-8000-00000000dead", "explore-1"),
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store.subagents("0190a0a0-0000-7000-8000-00000000dead"),
        Err(StoreError::NotFound { .. })
    ));
}

#[test]
fn subagent_writers_keep_big_outputs_in_their_own_blobs() {
    let (dir, store) = store();
    let parent = parent_session(&store, dir.path());
    let mut w = store
        .create_subagent(
            &parent_of(&parent, dir.path(), "root/explore-1", "toolu_01"),
            &meta(dir.path()),
        )
        .unwrap();
    let big = "x".repeat(wright_store::INLINE_MAX + 10);
    w.append_message(&Message::user_text("go")).unwrap();
    w.append_message(&assistant(vec![named_call("c1", "Read")]))
        .unwrap();
    w.append_message(&result("c1", &big)).unwrap();
    w.sync().unwrap();
    let blobs = w.path().with_extension("blobs");
    assert!(blobs.is_dir());
    assert!(blobs.starts_with(parent.path().with_extension("agents")));
    drop(w);
    let loaded = store.load_subagent(parent.id(), "explore-1").unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let history = loaded.history();
    assert!(matches!(
        &history[2].content[0],
        ContentBlock::ToolResult { content, .. } if *content == big
    ));
}

#[test]
fn a_child_started_before_the_parent_wrote_still_lands_in_its_project() {
    let (dir, store) = store();
    let parent = store.create(&meta(dir.path())).unwrap();
    assert!(!parent.path().exists());
    let mut w = store
        .create_subagent(
            &parent_of(&parent, dir.path(), "root/explore-1", "toolu_01"),
            &meta(dir.path()),
        )
        .unwrap();
    run_child(&mut w, &[]);
    assert!(w.path().starts_with(parent.path().with_extension("agents")));
}

#[test]
fn removing_a_session_removes_its_subagents() {
    let (dir, store) = store();
    let parent = parent_session(&store, dir.path());
    let id = parent.id().to_string();
    let mut w = store
        .create_subagent(
            &parent_of(&parent, dir.path(), "root/explore-1", "toolu_01"),
            &meta(dir.path()),
        )
        .unwrap();
    run_child(&mut w, &[]);
    let agents = parent.path().with_extension("agents");
    drop(w);
    drop(parent);
    assert!(agents.is_dir());
    store.remove(&id).unwrap();
    assert!(!agents.exists());
}
