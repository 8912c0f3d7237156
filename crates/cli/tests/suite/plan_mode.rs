//! Plan mode and questions as a user or a program meets them: `-p
//! --permission-mode plan` ends at the plan (stdout, the json `result`),
//! and an SDK program approves a plan (switching the mode) and answers a
//! question through `can_use_tool`.

use std::io::{BufRead as _, BufReader, Write as _};

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, stderr, stdout};

const PLAN: &str = "## Plan\n1. Write notes.txt\n2. Check it";

/// A response that presents the plan and, in the same response, tries to
/// run a command: nothing after the plan may run headless.
fn plan_then_command() -> String {
    anthropic::tool_calls(&[
        ("p1", "ExitPlanMode", json!({"plan": PLAN})),
        ("b1", "Bash", json!({"command": "touch ran-after-plan"})),
    ])
}

#[test]
fn a_headless_plan_is_printed_and_the_run_ends_there() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(plan_then_command()),
        MockResponse::sse(anthropic::text("must not be asked for")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "plan the notes file")
        .args(["--permission-mode", "plan"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains(PLAN), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("ended at the plan"),
        "{}",
        stderr(&out)
    );
    assert_eq!(server.request_count(), 1);
    assert!(!env.path("ran-after-plan").exists());
    // The request offered the plan tool and no edit tool, and said so.
    let request = server.requests()[0].json();
    let names: Vec<&str> = request["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"ExitPlanMode"), "{names:?}");
    assert!(
        !names.contains(&"Write") && !names.contains(&"Edit"),
        "{names:?}"
    );
    assert!(!names.contains(&"AskUserQuestion"), "headless: {names:?}");
    assert!(request["system"].to_string().contains("Plan mode is on"));
}

#[test]
fn the_json_result_of_a_headless_plan_is_the_plan() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text_and_tool_calls(
        "Here is what I would do.",
        &[("p1", "ExitPlanMode", json!({"plan": PLAN}))],
    ))])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "plan")
        .args(["--permission-mode", "plan", "--output-format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let result: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(result["subtype"], "success");
    assert_eq!(result["result"], PLAN);
}

#[test]
fn outside_plan_mode_the_plan_tool_is_not_offered() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("hi"))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hello")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let tools = server.requests()[0].json()["tools"].to_string();
    assert!(!tools.contains("ExitPlanMode") && !tools.contains("AskUserQuestion"));
    assert!(tools.contains("\"Write\""));
}

/// Runs wright on stream-json with `--permission-prompt-tool stdio`,
/// answering each `can_use_tool` with `answer(request)`; returns the
/// questions asked and every line.
fn sdk_run(
    env: &Env,
    server: &MockServer,
    extra: &[&str],
    mut answer: impl FnMut(&Value) -> Value,
) -> (Vec<Value>, Vec<Value>) {
    let mut flags = vec!["--permission-prompt-tool", "stdio"];
    flags.extend_from_slice(extra);
    let mut child = env.stream_json_child(&server.url(), &flags);
    let mut stdin = child.stdin.take().unwrap();
    let user = json!({"type": "user", "session_id": "", "parent_tool_use_id": null,
                      "message": {"role": "user", "content": "go"}});
    writeln!(stdin, "{user}").unwrap();
    let mut asked = Vec::new();
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let Ok(line) = line else { break };
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if v["type"] == "control_request" && v["request"]["subtype"] == "can_use_tool" {
            let response = answer(&v["request"]);
            let reply = json!({"type": "control_response", "response": {
                "subtype": "success", "request_id": v["request_id"], "response": response}});
            writeln!(stdin, "{reply}").unwrap();
            asked.push(v["request"].clone());
        }
        let end = v["type"] == "result";
        lines.push(v);
        if end {
            break;
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    (asked, lines)
}

#[test]
fn a_program_approves_a_plan_for_accept_edits_and_the_edit_runs_unasked() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "p1",
            "ExitPlanMode",
            json!({"plan": PLAN}),
        )])),
        MockResponse::sse(anthropic::tool_calls(&[(
            "w1",
            "Write",
            json!({"file_path": "notes.txt", "content": "planned\n"}),
        )])),
        MockResponse::sse(anthropic::text("Done as planned.")),
    ])
    .unwrap();
    let (asked, lines) = sdk_run(&env, &server, &["--permission-mode", "plan"], |_| {
        json!({"behavior": "allow", "updatedPermissions": [
            {"type": "setMode", "mode": "acceptEdits", "destination": "session"}]})
    });
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0]["tool_name"], "ExitPlanMode");
    assert_eq!(asked[0]["input"]["plan"], PLAN);
    assert_eq!(
        std::fs::read_to_string(env.path("notes.txt")).unwrap(),
        "planned\n"
    );
    assert_eq!(lines.last().unwrap()["result"], "Done as planned.");
    let second = server.requests()[1].json();
    assert!(second["tools"].to_string().contains("\"Write\""));
    assert!(second["messages"].to_string().contains("accept-edits"));
}

#[test]
fn a_program_answers_a_question_with_the_chosen_label() {
    let env = Env::new();
    let question = json!({"questions": [{"question": "Which database?", "header": "DB",
        "multiSelect": false, "options": [
            {"label": "SQLite", "description": "one file"},
            {"label": "Postgres", "description": "a server"}]}]});
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "q1",
            "AskUserQuestion",
            question.clone(),
        )])),
        MockResponse::sse(anthropic::text("Postgres it is.")),
    ])
    .unwrap();
    let (asked, _) = sdk_run(&env, &server, &[], |request| {
        let mut input = request["input"].clone();
        input["answers"] = json!({"Which database?": "Postgres"});
        json!({"behavior": "allow", "updatedInput": input})
    });
    assert_eq!(asked[0]["tool_name"], "AskUserQuestion");
    assert_eq!(asked[0]["input"], question);
    let sent = server.requests()[1].json()["messages"].to_string();
    assert!(
        sent.contains(r#"\"Which database?\" = \"Postgres\""#),
        "{sent}"
    );
    // A program that can answer is offered the tool.
    let tools = server.requests()[0].json()["tools"].to_string();
    assert!(tools.contains("AskUserQuestion"));
}
