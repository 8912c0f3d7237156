//! Subagents' transcripts after the fact: a session with two children,
//! recorded through the store's writer API as the core records them, then
//! `wright sessions show ID` (the tree) and `--agent PATH` (one child's
//! transcript), as text and JSON, from the real binary.

use serde_json::Value;
use wright_protocol::{ContentBlock, Message, Role, Usage};
use wright_store::{EntryBody, SessionMeta, SessionStore, SessionWriter, SubagentParent};

use super::{Env, stderr, stdout};

fn store(env: &Env) -> SessionStore {
    SessionStore::new(env.home.path().join(".local/share"))
}

fn meta(env: &Env) -> SessionMeta {
    SessionMeta {
        cwd: env.project.path().to_path_buf(),
        model: "test-model".into(),
        provider: "anthropic".into(),
    }
}

fn assistant(content: Vec<ContentBlock>) -> Message {
    Message {
        role: Role::Assistant,
        content,
    }
}

fn call(id: &str, name: &str, arguments: &str) -> ContentBlock {
    ContentBlock::ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: arguments.into(),
    }
}

fn result(id: &str, content: &str) -> Message {
    Message {
        role: Role::User,
        content: vec![ContentBlock::ToolResult {
            call_id: id.into(),
            content: content.into(),
            is_error: false,
        }],
    }
}

fn usage(w: &mut SessionWriter, input: u64, output: u64, cost: f64) {
    w.append(&EntryBody::Usage {
        usage: Usage {
            input_tokens: input,
            output_tokens: output,
            ..Usage::default()
        },
        model: "test-model".into(),
        cost_usd: Some(cost),
    })
    .unwrap();
}

/// A parent that started two `explore` children in one response, each
/// recorded in full; returns the parent's id.
fn recorded_session(env: &Env) -> String {
    let store = store(env);
    let mut parent = store.create(&meta(env)).unwrap();
    parent
        .append_message(&Message::user_text("where is the config loaded?"))
        .unwrap();
    parent
        .append_message(&assistant(vec![
            call(
                "toolu_01",
                "Task",
                r#"{"subagent_type":"explore","prompt":"find the loader"}"#,
            ),
            call(
                "toolu_02",
                "Task",
                r#"{"subagent_type":"explore","prompt":"find the tests"}"#,
            ),
        ]))
        .unwrap();
    usage(&mut parent, 500, 50, 0.01);
    let id = parent.id().to_string();

    let child = |agent: &str, call_id: &str| SubagentParent {
        session_id: id.clone(),
        cwd: env.project.path().to_path_buf(),
        agent: agent.into(),
        parent_call_id: call_id.into(),
        agent_type: "explore".into(),
        system_prompt: "You are a read-only explorer.\nNever edit files.".into(),
    };
    let mut one = store
        .create_subagent(&child("root/explore-1", "toolu_01"), &meta(env))
        .unwrap();
    let mut two = store
        .create_subagent(&child("root/explore-2", "toolu_02"), &meta(env))
        .unwrap();
    one.append_message(&Message::user_text("find the loader"))
        .unwrap();
    two.append_message(&Message::user_text("find the tests"))
        .unwrap();
    one.append_message(&assistant(vec![call(
        "c1",
        "Grep",
        r#"{"pattern":"load"}"#,
    )]))
    .unwrap();
    usage(&mut one, 1_000, 100, 0.0015);
    one.append_message(&result("c1", "src/config.rs:12: fn load()"))
        .unwrap();
    two.append_message(&assistant(vec![call(
        "c9",
        "Glob",
        r#"{"pattern":"tests/**"}"#,
    )]))
    .unwrap();
    usage(&mut two, 300, 20, 0.0004);
    two.append_message(&result("c9", "tests/config.rs"))
        .unwrap();
    one.append_message(&assistant(vec![
        call("c2", "Read", r#"{"path":"src/config.rs"}"#),
        call("c3", "Read", r#"{"path":"src/main.rs"}"#),
    ]))
    .unwrap();
    usage(&mut one, 120, 10, 0.0005);
    one.append_message(&Message {
        role: Role::User,
        content: vec![
            ContentBlock::ToolResult {
                call_id: "c2".into(),
                content: "pub fn load() {}".into(),
                is_error: false,
            },
            ContentBlock::ToolResult {
                call_id: "c3".into(),
                content: "fn main() {}".into(),
                is_error: false,
            },
        ],
    })
    .unwrap();
    one.append_message(&assistant(vec![ContentBlock::Text {
        text: "The loader is config::load in src/config.rs.".into(),
    }]))
    .unwrap();
    usage(&mut one, 4, 0, 0.0001);
    two.append_message(&assistant(vec![ContentBlock::Text {
        text: "Tests live in tests/config.rs.".into(),
    }]))
    .unwrap();
    usage(&mut two, 10, 5, 0.0001);

    parent
        .append_message(&Message {
            role: Role::User,
            content: vec![
                ContentBlock::ToolResult {
                    call_id: "toolu_01".into(),
                    content: "The loader is config::load in src/config.rs.".into(),
                    is_error: false,
                },
                ContentBlock::ToolResult {
                    call_id: "toolu_02".into(),
                    content: "Tests live in tests/config.rs.".into(),
                    is_error: false,
                },
            ],
        })
        .unwrap();
    parent
        .append_message(&assistant(vec![ContentBlock::Text {
            text: "It is loaded in src/config.rs.".into(),
        }]))
        .unwrap();
    id
}

fn show(env: &Env, args: &[&str]) -> std::process::Output {
    let out = env
        .wright()
        .args(["sessions", "show"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

#[test]
fn show_lists_each_subagent_with_its_calls_tokens_and_cost() {
    let env = Env::new();
    let id = recorded_session(&env);
    let out = show(&env, &[&id[..8]]);
    let text = stdout(&out);
    // The session's own transcript comes first, unchanged.
    assert!(text.starts_with(&format!("# Session {id}")), "{text}");
    assert!(text.contains("It is loaded in src/config.rs."), "{text}");
    let tree = &text[text.find("## Subagents").expect("a subagents section")..];
    assert!(
        tree.contains(
            "- root/explore-1 (explore, from toolu_01) · 3 requests · 1,234 tokens · $0.0021 · Grep, Read, Read"
        ),
        "{tree}"
    );
    assert!(
        tree.contains(
            "- root/explore-2 (explore, from toolu_02) · 2 requests · 335 tokens · $0.0005 · Glob"
        ),
        "{tree}"
    );
    assert!(tree.find("root/explore-1").unwrap() < tree.find("root/explore-2").unwrap());
    assert!(tree.contains("\nTotal with subagents: "), "{tree}");
    // The children are not sessions of their own.
    let list = env
        .wright()
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    let rows: Value = serde_json::from_str(&stdout(&list)).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 1, "{rows}");
    assert_eq!(rows[0]["id"], id.as_str());
}

#[test]
fn show_json_includes_the_subagents() {
    let env = Env::new();
    let id = recorded_session(&env);
    let out = show(&env, &[&id, "--json"]);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["session"]["id"], id.as_str());
    assert!(doc["messages"].as_array().unwrap().len() >= 4);
    let subs = doc["subagents"].as_array().unwrap();
    assert_eq!(subs.len(), 2);
    let one = &subs[0];
    assert_eq!(one["path"], "root/explore-1");
    assert_eq!(one["agent_type"], "explore");
    assert_eq!(one["parent_call_id"], "toolu_01");
    assert_eq!(one["requests"], 3);
    assert_eq!(one["input_tokens"], 1_124);
    assert_eq!(one["output_tokens"], 110);
    assert!((one["cost_usd"].as_f64().unwrap() - 0.0021).abs() < 1e-9);
    assert_eq!(
        one["tool_calls"],
        serde_json::json!(["Grep", "Read", "Read"])
    );
    assert!(
        one["file"]
            .as_str()
            .unwrap()
            .ends_with(&format!("{id}.agents/explore-1.jsonl"))
    );
    assert_eq!(subs[1]["path"], "root/explore-2");
    assert_eq!(subs[1]["tool_calls"], serde_json::json!(["Glob"]));
    // The session's own totals, then the totals with its children's.
    let own = doc["cost_usd"].as_f64().unwrap();
    let total = &doc["total_with_subagents"];
    let with = total["cost_usd"].as_f64().unwrap();
    assert!((with - (own + 0.0021 + 0.0005)).abs() < 1e-9, "{total}");
    let children_tokens: u64 = subs
        .iter()
        .map(|s| s["input_tokens"].as_u64().unwrap())
        .sum();
    assert!(
        total["input_tokens"].as_u64().unwrap() > children_tokens,
        "{total}"
    );
    // The list counts the children's cost in the session's.
    let list = env
        .wright()
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    let rows: Value = serde_json::from_str(&stdout(&list)).unwrap();
    let listed = rows[0]["cost_usd"].as_f64().unwrap();
    assert!((listed - with).abs() < 1e-9, "{rows}");
}

#[test]
fn show_agent_prints_one_childs_transcript_system_prompt_first() {
    let env = Env::new();
    let id = recorded_session(&env);
    for agent in ["root/explore-1", "explore-1"] {
        let out = show(&env, &[&id, "--agent", agent]);
        let text = stdout(&out);
        assert!(text.starts_with("# Subagent root/explore-1\n"), "{text}");
        assert!(text.contains(&format!("- session: {id}")), "{text}");
        assert!(text.contains("- started by: toolu_01"), "{text}");
        let prompt = text.find("You are a read-only explorer.").unwrap();
        let first = text.find("find the loader").unwrap();
        assert!(prompt < first, "{text}");
        assert!(text.contains("### Tool call: `Grep` (c1)"), "{text}");
        assert!(text.contains("src/config.rs:12: fn load()"), "{text}");
        assert!(text.contains("### Tool call: `Read` (c3)"), "{text}");
        assert!(text.contains("The loader is config::load"), "{text}");
        // Only this child: not its sibling, not the parent.
        assert!(!text.contains("find the tests"), "{text}");
        assert!(!text.contains("where is the config loaded?"), "{text}");
        assert!(!text.contains("## Subagents"), "{text}");
    }
}

#[test]
fn show_agent_json_is_the_childs_transcript() {
    let env = Env::new();
    let id = recorded_session(&env);
    let out = show(&env, &[&id, "--agent", "root/explore-2", "--json"]);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let agent = &doc["session"]["agent"];
    assert_eq!(agent["path"], "root/explore-2");
    assert_eq!(agent["parent_call_id"], "toolu_02");
    assert_eq!(agent["agent_type"], "explore");
    assert_eq!(
        agent["system_prompt"],
        "You are a read-only explorer.\nNever edit files."
    );
    assert_eq!(doc["session"]["parent"]["session"], id.as_str());
    let messages = doc["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4);
    assert_eq!(
        messages[0]["message"]["content"][0]["text"],
        "find the tests"
    );
    assert_eq!(doc["usage"]["input_tokens"], 310);
    assert!((doc["cost_usd"].as_f64().unwrap() - 0.0005).abs() < 1e-9);
}

#[test]
fn an_unknown_agent_names_the_known_ones() {
    let env = Env::new();
    let id = recorded_session(&env);
    let out = env
        .wright()
        .args(["sessions", "show", &id, "--agent", "root/plan-1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("no subagent 'root/plan-1'"), "{err}");
    assert!(
        err.contains("its subagents: root/explore-1, root/explore-2"),
        "{err}"
    );
    assert!(stdout(&out).is_empty());
}

#[test]
fn a_session_without_subagents_shows_as_before() {
    let env = Env::new();
    let store = store(&env);
    let mut w = store.create(&meta(&env)).unwrap();
    w.append_message(&Message::user_text("hello")).unwrap();
    let id = w.id().to_string();
    drop(w);
    let text = stdout(&show(&env, &[&id]));
    assert!(!text.contains("Subagents"), "{text}");
    let doc: Value = serde_json::from_str(&stdout(&show(&env, &[&id, "--json"]))).unwrap();
    assert_eq!(doc["subagents"], serde_json::json!([]));
}
