//! The "done when" scenarios of the foundation, for both wire protocols.

use serde_json::{Value, json};
use wright_test_support::{
    MockResponse, MockServer, RecordedRequest, anthropic, openai_chat, openai_responses,
};

use super::{Env, assert_clean, read, stderr, stdout};

pub const PROVIDERS: [&str; 3] = ["anthropic", "openai-chat", "openai-responses"];

pub fn tool_calls(provider: &str, calls: &[(&str, &str, Value)]) -> MockResponse {
    MockResponse::sse(match provider {
        "anthropic" => anthropic::tool_calls(calls),
        "openai-responses" => openai_responses::tool_calls(calls),
        _ => openai_chat::tool_calls(calls),
    })
}

pub fn text(provider: &str, text: &str) -> MockResponse {
    MockResponse::sse(match provider {
        "anthropic" => anthropic::text(text),
        "openai-responses" => openai_responses::text(text),
        _ => openai_chat::text(text),
    })
}

/// (call id, content, is_error) of the tool results in a request, in order.
pub fn tool_results(provider: &str, request: &RecordedRequest) -> Vec<(String, String, bool)> {
    let body = request.json();
    if provider == "openai-responses" {
        return body["input"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["type"] == "function_call_output")
            .map(|i| {
                let content = i["output"].as_str().unwrap_or_default().to_owned();
                let is_error = content.starts_with("Invalid arguments")
                    || content.starts_with("Permission denied")
                    || content.starts_with("Blocked by guard")
                    || content.starts_with("Unknown tool");
                (i["call_id"].as_str().unwrap().to_owned(), content, is_error)
            })
            .collect();
    }
    let messages = body["messages"].as_array().unwrap().clone();
    match provider {
        "anthropic" => messages
            .iter()
            .filter(|m| m["role"] == "user")
            .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
            .filter(|b| b["type"] == "tool_result")
            .map(|b| {
                let content = match &b["content"] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (
                    b["tool_use_id"].as_str().unwrap().to_owned(),
                    content,
                    b["is_error"].as_bool().unwrap_or(false),
                )
            })
            .collect(),
        _ => messages
            .iter()
            .filter(|m| m["role"] == "tool")
            .map(|m| {
                let content = m["content"].as_str().unwrap_or_default().to_owned();
                let is_error = content.starts_with("Invalid arguments")
                    || content.starts_with("Permission denied")
                    || content.starts_with("Blocked by guard")
                    || content.starts_with("Unknown tool");
                (
                    m["tool_call_id"].as_str().unwrap().to_owned(),
                    content,
                    is_error,
                )
            })
            .collect(),
    }
}

fn expected_path(provider: &str) -> &'static str {
    match provider {
        "anthropic" => "/v1/messages",
        "openai-responses" => "/v1/responses",
        _ => "/v1/chat/completions",
    }
}

#[test]
fn shell_command_scenario_completes_for_both_providers() {
    for provider in PROVIDERS {
        let env = Env::new();
        let server = MockServer::start(vec![
            tool_calls(
                provider,
                &[(
                    "call_01",
                    "Bash",
                    json!({"command": "echo hello > out.txt && cat out.txt"}),
                )],
            ),
            text(provider, "The file says: hello"),
        ])
        .unwrap();
        let out = env
            .wright_p(
                provider,
                &server.url(),
                "run `echo hello > out.txt && cat out.txt` and tell me what the file says",
            )
            .args(["--permission-mode", "bypass"])
            .output()
            .unwrap();
        assert_clean(&out);
        assert!(out.status.success(), "{provider}: {}", stderr(&out));
        assert_eq!(read(&env.path("out.txt")), "hello\n");
        assert!(
            stdout(&out).contains("The file says: hello"),
            "{}",
            stdout(&out)
        );
        let requests = server.requests();
        assert_eq!(requests.len(), 2, "{provider}");
        for r in &requests {
            assert_eq!(r.method, "POST");
            assert_eq!(r.path, expected_path(provider));
            assert_eq!(r.json()["stream"], true);
        }
        let results = tool_results(provider, &requests[1]);
        assert_eq!(results.len(), 1, "{provider}");
        assert_eq!(results[0].0, "call_01");
        assert!(results[0].1.contains("hello"), "{:?}", results[0]);
        assert!(!results[0].2);
        // The first request carries the prompt as the first user message.
        let first = requests[0].json();
        let list = if provider == "openai-responses" {
            &first["input"]
        } else {
            &first["messages"]
        };
        let user = list
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["role"] == "user")
            .unwrap()
            .to_string();
        assert!(user.contains("tell me what the file says"));
    }
}

#[test]
fn provider_headers_carry_the_key_the_right_way() {
    for provider in PROVIDERS {
        let env = Env::new();
        let server = MockServer::start(vec![text(provider, "hi")]).unwrap();
        let out = env
            .wright_p(provider, &server.url(), "say hi")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let r = &server.requests()[0];
        match provider {
            "anthropic" => {
                assert_eq!(r.header("x-api-key"), Some(super::FAKE_KEY));
                assert_eq!(r.header("anthropic-version"), Some("2023-06-01"));
                assert!(r.header("authorization").is_none());
            }
            _ => {
                assert_eq!(
                    r.header("authorization").map(str::to_owned),
                    Some(format!("Bearer {}", super::FAKE_KEY))
                );
                assert!(r.header("x-api-key").is_none());
            }
        }
    }
}

#[test]
fn read_then_write_then_answer_for_both_providers() {
    for provider in PROVIDERS {
        let env = Env::new();
        env.write("input.txt", "alpha\nbeta\n");
        let server = MockServer::start(vec![
            tool_calls(
                provider,
                &[("call_r", "Read", json!({"file_path": "input.txt"}))],
            ),
            tool_calls(
                provider,
                &[(
                    "call_w",
                    "Write",
                    json!({"file_path": "sub/output.txt", "content": "ALPHA\nBETA\n"}),
                )],
            ),
            text(provider, "Done: wrote sub/output.txt."),
        ])
        .unwrap();
        let out = env
            .wright_p(
                provider,
                &server.url(),
                "copy input.txt upper-cased to sub/output.txt",
            )
            .args(["--permission-mode", "bypass"])
            .output()
            .unwrap();
        assert_clean(&out);
        assert!(out.status.success(), "{provider}: {}", stderr(&out));
        assert_eq!(read(&env.path("sub/output.txt")), "ALPHA\nBETA\n");
        assert!(stdout(&out).contains("Done: wrote sub/output.txt."));
        let requests = server.requests();
        assert_eq!(requests.len(), 3);
        let read_result = &tool_results(provider, &requests[1])[0];
        assert_eq!(read_result.0, "call_r");
        assert!(read_result.1.contains("alpha") && read_result.1.contains("beta"));
        let results = tool_results(provider, &requests[2]);
        assert_eq!(results.len(), 2, "history keeps both results");
        assert_eq!(results[1].0, "call_w");
        assert!(!results[1].2, "{:?}", results[1]);
    }
}

#[test]
fn parallel_reads_each_get_their_result_in_order() {
    for provider in PROVIDERS {
        let env = Env::new();
        env.write("a.txt", "AAA\n");
        env.write("b.txt", "BBB\n");
        let server = MockServer::start(vec![
            tool_calls(
                provider,
                &[
                    ("call_a", "Read", json!({"file_path": "a.txt"})),
                    ("call_b", "Read", json!({"file_path": "b.txt"})),
                    ("call_g", "Grep", json!({"pattern": "BBB"})),
                ],
            ),
            text(provider, "ok"),
        ])
        .unwrap();
        let out = env
            .wright_p(provider, &server.url(), "read both")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let results = tool_results(provider, &server.requests()[1]);
        let ids: Vec<&str> = results.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(ids, ["call_a", "call_b", "call_g"]);
        assert!(results[0].1.contains("AAA"));
        assert!(results[1].1.contains("BBB"));
        assert!(results[2].1.contains("b.txt"), "{:?}", results[2]);
    }
}

#[test]
fn default_mode_denies_commands_and_the_model_is_told() {
    for provider in PROVIDERS {
        let env = Env::new();
        let server = MockServer::start(vec![
            tool_calls(
                provider,
                &[("call_1", "Bash", json!({"command": "touch made.txt"}))],
            ),
            tool_calls(
                provider,
                &[(
                    "call_2",
                    "Write",
                    json!({"file_path": "w.txt", "content": "x"}),
                )],
            ),
            text(provider, "I could not."),
        ])
        .unwrap();
        let out = env
            .wright_p(provider, &server.url(), "make a file")
            .output()
            .unwrap();
        assert_clean(&out);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(!env.path("made.txt").exists());
        assert!(!env.path("w.txt").exists());
        let results = tool_results(provider, &server.requests()[2]);
        assert!(
            results[0].1.starts_with("Permission denied"),
            "{:?}",
            results[0]
        );
        assert!(
            results[1].1.starts_with("Permission denied"),
            "{:?}",
            results[1]
        );
        assert!(results[0].2);
        assert!(stderr(&out).contains("refused"), "{}", stderr(&out));
    }
}

#[test]
fn destructive_command_is_blocked_even_in_bypass() {
    let env = Env::new();
    let provider = "anthropic";
    let server = MockServer::start(vec![
        tool_calls(
            provider,
            &[(
                "call_1",
                "Bash",
                json!({"command": "rm  -fr  / --no-preserve-root"}),
            )],
        ),
        text(provider, "Refused."),
    ])
    .unwrap();
    let out = env
        .wright_p(provider, &server.url(), "wipe")
        .args(["--permission-mode", "bypass"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let results = tool_results(provider, &server.requests()[1]);
    assert!(
        results[0].1.starts_with("Blocked by guard"),
        "{:?}",
        results[0]
    );
}

#[test]
fn edit_tool_changes_a_file_in_accept_edits_mode() {
    let env = Env::new();
    env.write("src/lib.rs", "fn main() {\n    println!(\"old\");\n}\n");
    let provider = "openai-chat";
    let server = MockServer::start(vec![
        tool_calls(
            provider,
            &[(
                "call_e",
                "Edit",
                json!({"file_path": "src/lib.rs", "old_string": "\"old\"", "new_string": "\"new\""}),
            )],
        ),
        text(provider, "Edited."),
    ])
    .unwrap();
    let out = env
        .wright_p(provider, &server.url(), "change old to new")
        .args(["--permission-mode", "accept-edits"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        read(&env.path("src/lib.rs")),
        "fn main() {\n    println!(\"new\");\n}\n"
    );
}

#[test]
fn prompt_from_stdin_alone_and_as_context() {
    let env = Env::new();
    let server =
        MockServer::start(vec![text("anthropic", "one"), text("anthropic", "two")]).unwrap();
    let mut cmd = env.wright();
    cmd.args(["--provider", "anthropic", "--base-url", &server.url()])
        .env("ANTHROPIC_API_KEY", super::FAKE_KEY)
        .write_stdin("what is piped");
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "one");
    let out = env
        .wright_p("anthropic", &server.url(), "summarize this")
        .write_stdin("LOG LINE 42")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let requests = server.requests();
    let first = requests[0].json()["messages"][0].to_string();
    assert!(first.contains("what is piped"));
    let second = requests[1].json()["messages"][0].to_string();
    assert!(
        second.contains("summarize this") && second.contains("LOG LINE 42"),
        "{second}"
    );
}

#[test]
fn max_turns_stops_with_exit_code_3() {
    let env = Env::new();
    let provider = "anthropic";
    let server = MockServer::start(vec![
        tool_calls(provider, &[("c1", "LS", json!({}))]),
        tool_calls(provider, &[("c2", "LS", json!({}))]),
    ])
    .unwrap();
    let out = env
        .wright_p(provider, &server.url(), "loop")
        .args(["--max-turns", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(server.requests().len(), 2);
    assert!(stderr(&out).contains("max-turns"), "{}", stderr(&out));
}
