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

/// `@path` attaches the file (a directory's listing) to the prompt; a
/// secret file or a path a deny rule covers is not attached, and the
/// person is told.
#[test]
fn at_mentions_attach_files_but_never_secrets_or_denied_paths() {
    let env = Env::new();
    env.write("notes.txt", "the notes say: ship on friday\n");
    env.write("src/lib.rs", "pub fn f() {}\n");
    env.write(".env", "API_TOKEN=hunter2\n");
    env.write("private.txt", "classified words\n");
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("explained"))]).unwrap();
    let out = env
        .wright_p(
            "anthropic",
            &server.url(),
            "explain @notes.txt and @src/, not @.env or @private.txt; mail me@example.com",
        )
        .args(["--deny", "Read(private.txt)"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", super::stderr(&out));
    let sent = server.requests()[0].json()["messages"].to_string();
    assert!(sent.contains("ship on friday"), "{sent}");
    assert!(sent.contains("lib.rs"), "the listing: {sent}");
    assert!(!sent.contains("hunter2"), "{sent}");
    assert!(!sent.contains("classified words"), "{sent}");
    let err = super::stderr(&out);
    assert!(err.contains("@.env is not attached"), "{err}");
    assert!(err.contains("@private.txt is not attached"), "{err}");
}
