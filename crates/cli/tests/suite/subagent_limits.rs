//! A child's failures through the real binary: a child whose model
//! request fails gives the parent an error result and the parent goes on;
//! a child shares the session's budget, so its spending ends the run with
//! the budget exit code and the per-agent breakdown in the result.

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::scenarios::tool_results;
use super::{Env, FAKE_KEY, stderr, stdout};

fn task(prompt: &str) -> MockResponse {
    MockResponse::sse(anthropic::tool_calls(&[(
        "c1",
        "Task",
        json!({"description": "look", "prompt": prompt, "subagent_type": "explore"}),
    )]))
}

#[test]
fn a_child_whose_request_fails_is_an_error_result_and_the_parent_goes_on() {
    let env = Env::new();
    let server = MockServer::start(vec![
        task("look around"),
        MockResponse::api_error(500, "api_error", "the child's model broke"),
        MockResponse::sse(anthropic::text("I will do it myself.")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "I will do it myself.");
    let results = tool_results("anthropic", &server.requests()[2]);
    assert_eq!(results.len(), 1, "{results:?}");
    let (call, text, is_error) = &results[0];
    assert_eq!(call, "c1");
    assert!(*is_error, "{text}");
    assert!(
        text.contains("The subagent root/explore-1 stopped: it failed")
            && text.contains("the child's model broke"),
        "{text}"
    );
}

#[test]
fn a_child_shares_the_sessions_budget() {
    let env = Env::new();
    env.write("a.txt", "alpha\n");
    let grep = |id: &str| {
        MockResponse::sse(anthropic::tool_calls(&[(
            id,
            "Grep",
            json!({"pattern": "alpha"}),
        )]))
    };
    let server = MockServer::start(vec![
        task("search"),
        grep("g1"),
        grep("g2"),
        grep("g3"),
        MockResponse::sse(anthropic::text("child answer")),
        MockResponse::sse(anthropic::text("parent answer")),
    ])
    .unwrap();
    // A priced model: each mock request costs $0.0006 on it, so the
    // parent's first and the child's first leave the budget spent.
    let out = env
        .std_wright()
        .args(["-p", "go", "--provider", "anthropic"])
        .args(["--model", "claude-sonnet-4-5", "--base-url", &server.url()])
        .args(["--max-budget-usd", "0.001", "--output-format", "json"])
        .env("ANTHROPIC_API_KEY", FAKE_KEY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let result: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(result["subtype"], "error_max_budget", "{result}");
    let child = &result["agents"]["root/explore-1"];
    assert!(child["requests"].as_u64().unwrap() >= 1, "{result}");
    assert!(child["cost_usd"].as_f64().unwrap() > 0.0, "{result}");
    // The child never got to answer, nor the parent to go on.
    assert!(server.request_count() < 6, "{}", server.request_count());
}

/// A response that starts and then goes silent, so a child waits on it.
fn stalled() -> MockResponse {
    let body = anthropic::text("thinking about it");
    let end = body.find("event: content_block_stop").unwrap_or(0);
    MockResponse::sse(body).drop_after(end).stall()
}

#[test]
fn an_interrupt_during_children_gives_every_task_call_a_result() {
    use std::time::{Duration, Instant};
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[
            (
                "c1",
                "Task",
                json!({"description": "one", "prompt": "wait one", "subagent_type": "explore"}),
            ),
            (
                "c2",
                "Task",
                json!({"description": "two", "prompt": "wait two", "subagent_type": "explore"}),
            ),
        ])),
        stalled(),
        stalled(),
    ])
    .unwrap();
    let child = env
        .std_wright_p("anthropic", &server.url(), "go")
        .args(["--output-format", "stream-json", "--verbose"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Both children are waiting on the model (bounded wait).
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.request_count() < 3 {
        assert!(Instant::now() < deadline, "the children never asked");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let lines = super::ndjson(&out);
    let mut answered: Vec<String> = lines
        .iter()
        .filter(|l| l["type"] == "user" && l["parent_tool_use_id"].is_null())
        .flat_map(|l| {
            l["message"]["content"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter(|b| b["type"] == "tool_result" && b["is_error"] == true)
        .filter_map(|b| b["tool_use_id"].as_str().map(str::to_owned))
        .collect();
    answered.sort_unstable();
    assert_eq!(answered, ["c1", "c2"], "{lines:?}");
    assert_eq!(lines.last().unwrap()["type"], "result");
    // No request after the interrupt: the parent did not go on.
    assert_eq!(server.request_count(), 3);
}

#[test]
fn a_programs_approval_question_names_the_asking_child() {
    use std::io::{BufRead as _, BufReader, Write as _};
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Task",
            json!({"description": "run", "prompt": "run it", "subagent_type": "general"}),
        )])),
        MockResponse::sse(anthropic::tool_calls(&[(
            "k1",
            "Bash",
            json!({"command": "touch made-by-child"}),
        )])),
        MockResponse::sse(anthropic::text("ran it")),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let mut child = env.stream_json_child(&server.url(), &["--permission-prompt-tool", "stdio"]);
    let mut stdin = child.stdin.take().unwrap();
    let user = json!({"type": "user", "session_id": "", "parent_tool_use_id": null,
                      "message": {"role": "user", "content": "go"}});
    writeln!(stdin, "{user}").unwrap();
    let stdout_pipe = child.stdout.take().unwrap();
    let mut question = None;
    for line in BufReader::new(stdout_pipe).lines() {
        let Ok(line) = line else { break };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        if v["type"] == "control_request" && v["request"]["subtype"] == "can_use_tool" {
            let answer = json!({"type": "control_response", "response": {
                "subtype": "success", "request_id": v["request_id"],
                "response": {"behavior": "allow"}}});
            writeln!(stdin, "{answer}").unwrap();
            question = Some(v["request"].clone());
        }
        if v["type"] == "result" {
            break;
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let question = question.expect("the child's Bash call was asked about");
    assert_eq!(question["tool_name"], "Bash");
    assert_eq!(question["tool_use_id"], "k1");
    assert_eq!(question["agent_id"], "root/general-1");
    assert_eq!(question["parent_tool_use_id"], "c1");
    assert!(env.path("made-by-child").exists());
}
