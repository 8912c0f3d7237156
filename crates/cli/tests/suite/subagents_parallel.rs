//! Two `explore` children started in one response, through the real
//! binary: they run at the same time (the routed mock holds each child's
//! first request until the other's arrives), the parent gets both answers
//! in call order, print mode shows each child's calls under its name,
//! stream-json labels every child message with its `Task` call id, and
//! `wright sessions show` lists both children with their tool calls and
//! token counts.

use serde_json::Value;
use wright_test_support::MockServer;
use wright_test_support::subagents::{ALPHA, BETA, NOT_TOGETHER, PARENT_ANSWER, two_explorers};

use super::scenarios::tool_results;
use super::{Env, ndjson, stderr, stdout};

fn project() -> Env {
    let env = Env::new();
    env.write("a.txt", "alpha\n");
    env.write("b.txt", "beta\n");
    env
}

/// The parent's last request: the one carrying both `Task` results.
fn parent_results(server: &MockServer) -> Vec<(String, String, bool)> {
    let requests = server.requests();
    let last = requests
        .iter()
        .rfind(|r| !wright_test_support::subagents::is_child(r))
        .expect("a parent request");
    tool_results("anthropic", last)
}

#[test]
fn two_explorers_run_together_and_both_answers_reach_the_parent() {
    let env = project();
    let server = MockServer::start_routed(two_explorers()).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "find alpha and beta")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), PARENT_ANSWER);
    let results = parent_results(&server);
    assert_eq!(
        results,
        [
            ("toolu_task_alpha".to_owned(), ALPHA.1.to_owned(), false),
            ("toolu_task_beta".to_owned(), BETA.1.to_owned(), false),
        ],
        "children did not overlap if an answer says: {NOT_TOGETHER}"
    );
    // Each child searched, under its own name, below its Task line.
    let err = stderr(&out);
    assert!(err.contains("● Task(explore: find alpha)"), "{err}");
    assert!(err.contains("● Task(explore: find beta)"), "{err}");
    assert_eq!(err.matches("] ● Grep(").count(), 2, "{err}");
    assert!(err.contains("[explore-1] ● Grep("), "{err}");
    assert!(err.contains("[explore-2] ● Grep("), "{err}");
}

#[test]
fn stream_json_and_the_store_show_both_children() {
    let env = project();
    let server = MockServer::start_routed(two_explorers()).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "find alpha and beta")
        .args(["--output-format", "stream-json", "--verbose"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = ndjson(&out);
    // Every message a child sends or gets names the Task call that started it.
    for call in ["toolu_task_alpha", "toolu_task_beta"] {
        let kinds: Vec<&str> = lines
            .iter()
            .filter(|l| l["parent_tool_use_id"] == call)
            .filter(|l| l["type"] == "assistant" || l["type"] == "user")
            .map(|l| l["type"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(
            kinds,
            ["assistant", "user", "assistant"],
            "{call}: {lines:?}"
        );
    }
    // The parent's own messages carry no parent id.
    let unlabelled = lines
        .iter()
        .filter(|l| l["type"] == "assistant" && l["parent_tool_use_id"].is_null())
        .count();
    assert_eq!(unlabelled, 2, "{lines:?}");
    let result = lines.last().unwrap();
    assert_eq!(result["result"], PARENT_ANSWER);
    // Per-agent breakdown: 2 requests each at the mock's 100 in / 20 out.
    for agent in ["root", "root/explore-1", "root/explore-2"] {
        assert_eq!(result["agents"][agent]["requests"], 2, "{result}");
    }
    assert_eq!(result["usage"]["input_tokens"], 600, "{result}");
    assert_eq!(result["usage"]["output_tokens"], 120, "{result}");

    let id = result["session_id"].as_str().unwrap();
    let shown = env
        .wright()
        .args(["sessions", "show", id, "--json"])
        .output()
        .unwrap();
    assert!(shown.status.success(), "{}", stderr(&shown));
    let doc: Value = serde_json::from_str(stdout(&shown).trim()).unwrap();
    let subs = doc["subagents"].as_array().unwrap();
    assert_eq!(subs.len(), 2, "{doc}");
    let mut calls: Vec<&str> = subs
        .iter()
        .map(|s| s["parent_call_id"].as_str().unwrap())
        .collect();
    calls.sort_unstable();
    assert_eq!(calls, ["toolu_task_alpha", "toolu_task_beta"]);
    assert_eq!(doc["total_with_subagents"]["input_tokens"], 600, "{doc}");
    assert_eq!(doc["total_with_subagents"]["output_tokens"], 120, "{doc}");
    for sub in subs {
        assert_eq!(sub["agent_type"], "explore");
        assert_eq!(sub["requests"], 2);
        assert_eq!(sub["input_tokens"], 200);
        assert_eq!(sub["output_tokens"], 40);
        assert_eq!(sub["tool_calls"], serde_json::json!(["Grep"]));
    }
    let text = env
        .wright()
        .args(["sessions", "show", id])
        .output()
        .unwrap();
    let text = stdout(&text);
    let tree = &text[text.find("## Subagents").expect("a subagents section")..];
    assert!(
        tree.contains("Total with subagents: 600 input, 120 output tokens"),
        "{tree}"
    );
    for path in ["root/explore-1", "root/explore-2"] {
        let line = tree
            .lines()
            .find(|l| l.contains(path))
            .unwrap_or_else(|| panic!("{path} missing: {tree}"));
        assert!(
            line.contains("2 requests · 240 tokens") && line.ends_with("Grep"),
            "{line}"
        );
    }
}

#[test]
fn resuming_keeps_the_childrens_answers_in_the_parents_history() {
    let env = project();
    let server = MockServer::start_routed(two_explorers()).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "find alpha and beta")
        .args(["--output-format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let result: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let id = result["session_id"].as_str().unwrap();
    let again = MockServer::start(vec![wright_test_support::MockResponse::sse(
        wright_test_support::anthropic::text("They found alpha and beta."),
    )])
    .unwrap();
    let out = env
        .wright_p("anthropic", &again.url(), "what did they find?")
        .args(["--resume", id])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // One request: the children are not run again, their answers are history.
    let requests = again.requests();
    assert_eq!(requests.len(), 1);
    let results = tool_results("anthropic", &requests[0]);
    assert_eq!(
        results,
        [
            ("toolu_task_alpha".to_owned(), ALPHA.1.to_owned(), false),
            ("toolu_task_beta".to_owned(), BETA.1.to_owned(), false),
        ]
    );
}
