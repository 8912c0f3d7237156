//! What the model sees in the first request.

use wright_test_support::{MockResponse, MockServer, anthropic, openai_chat};

use super::{Env, stderr};

#[test]
fn agents_md_goes_into_the_system_prompt() {
    let env = Env::new();
    env.write(".git/HEAD", "ref: refs/heads/main\n");
    env.write("AGENTS.md", "Always answer in haiku. MARKER-7731");
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("ok"))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let body = server.requests()[0].json();
    let system = body["system"].to_string();
    assert!(system.contains("MARKER-7731"), "{system}");
    assert!(system.contains("AGENTS.md"));
    assert!(system.contains("Working directory"));
}

#[test]
fn first_request_is_small() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(openai_chat::text("ok"))]).unwrap();
    let out = env
        .wright_p("openai-chat", &server.url(), "hi")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let body = server.requests()[0].json();
    let system = body["messages"][0]["content"].as_str().unwrap().len();
    let tools = body["tools"].to_string().len();
    assert_eq!(body["tools"].as_array().unwrap().len(), 12);
    assert!(
        system + tools < 12 * 1024,
        "system {system} + tools {tools} bytes"
    );
}

#[test]
fn system_prompt_flags_replace_and_append() {
    let env = Env::new();
    env.write("prompt.md", "FILE-PROMPT");
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::text("a")),
        MockResponse::sse(anthropic::text("b")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .args([
            "--system-prompt",
            "CUSTOM-BASE",
            "--append-system-prompt",
            "TAIL-BIT",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .args(["--system-prompt-file", "prompt.md"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let requests = server.requests();
    let first = requests[0].json()["system"].to_string();
    assert!(first.contains("CUSTOM-BASE") && first.contains("TAIL-BIT"));
    assert!(!first.contains("You are wright"));
    assert!(
        requests[1].json()["system"]
            .to_string()
            .contains("FILE-PROMPT")
    );
}
