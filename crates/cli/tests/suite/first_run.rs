//! From nothing to a first answer: the provider the environment means,
//! errors that say what to fix, and output that means what it says
//! (issue 16).

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, MockUsage, anthropic, openai_chat};

use super::{Env, FAKE_KEY, assert_clean, ndjson, stderr, stdout};

#[test]
fn anthropic_base_url_and_key_alone_reach_the_anthropic_mock() {
    let env = Env::new();
    let server =
        MockServer::start(vec![MockResponse::sse(anthropic::text("hello there"))]).unwrap();
    let out = env
        .wright()
        .args(["-p", "hi"])
        .env("ANTHROPIC_BASE_URL", server.url())
        .env("ANTHROPIC_API_KEY", FAKE_KEY)
        .output()
        .unwrap();
    assert_clean(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "hello there\n");
    let said = format!(
        "using anthropic at {} (from ANTHROPIC_BASE_URL)",
        server.url()
    );
    assert_eq!(stderr(&out).matches(&said).count(), 1, "{}", stderr(&out));
    let requests = server.requests();
    assert_eq!(requests[0].path, "/v1/messages");
    assert_eq!(requests[0].header("x-api-key"), Some(FAKE_KEY));
}

#[test]
fn openai_base_url_alone_is_said_as_a_system_line_in_stream_json() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(openai_chat::text("ok"))]).unwrap();
    let url = server.openai_base_url();
    let out = env
        .wright()
        .args(["-p", "hi", "--model", "m", "--output-format", "stream-json"])
        .args(["--verbose"])
        .env("OPENAI_BASE_URL", &url)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // Nothing but the stream: the notice and the warning are lines of it.
    assert_eq!(stderr(&out), "");
    let lines = ndjson(&out);
    assert_eq!(lines[0]["subtype"], "init");
    let said = format!("using openai-chat at {url} (from OPENAI_BASE_URL)");
    assert!(
        lines
            .iter()
            .any(|l| l["type"] == "system" && l["subtype"] == "notice" && l["message"] == said),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l["subtype"] == "warning"
            && l["message"]
                .as_str()
                .unwrap_or("")
                .contains("unknown model `m`")),
        "{lines:?}"
    );
    assert_eq!(server.requests()[0].path, "/v1/chat/completions");
}

#[test]
fn refused_connection_fails_at_once_naming_the_url_and_the_usual_ports() {
    let env = Env::new();
    // A port nothing listens on: bound, then released.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}/v1");
    let out = env
        .wright()
        .args(["-p", "hi", "--model", "m"])
        .env("OPENAI_BASE_URL", &url)
        // The default retry count: a refused local connection is not retried.
        .env_remove("WRIGHT_MAX_RETRIES")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains(&format!("nothing listens at {url}")), "{err}");
    assert!(err.contains("env OPENAI_BASE_URL"), "{err}");
    assert!(
        err.contains("Ollama 11434") && err.contains("LM Studio 1234"),
        "{err}"
    );
    assert!(!err.contains("retrying"), "{err}");
}

#[test]
fn not_found_names_the_url_posted_to_and_the_missing_v1() {
    let env = Env::new();
    let server =
        MockServer::start(vec![MockResponse::json(404, json!({"error": "no route"}))]).unwrap();
    let out = env
        .wright()
        .args(["-p", "hi", "--model", "m", "--provider", "openai-chat"])
        .args(["--base-url", &server.url()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    let posted = format!("Posted to {}/chat/completions", server.url());
    assert!(err.contains(&posted), "{err}");
    assert!(err.contains(&format!("try {}/v1", server.url())), "{err}");
}

#[test]
fn rejected_key_names_its_variable_and_never_the_key() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::api_error(
        401,
        "authentication_error",
        "invalid x-api-key",
    )])
    .unwrap();
    let out = env
        .anthropic(&server.url())
        .args(["-p", "hi"])
        .output()
        .unwrap();
    assert_clean(&out);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("HTTP 401"), "{err}");
    assert!(err.contains("the key from ANTHROPIC_API_KEY"), "{err}");
}

#[test]
fn unknown_model_gets_did_you_mean_and_the_served_list() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::json(
            404,
            json!({"error": {"message": "model \"qwen3:8\" not found, try pulling it first"}}),
        ),
        MockResponse::json(
            200,
            json!({"data": [{"id": "qwen3:8b"}, {"id": "llama3.2"}]}),
        ),
    ])
    .unwrap();
    let out = env
        .wright()
        .args(["-p", "hi", "--model", "qwen3:8"])
        .args(["--base-url", &server.openai_base_url()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("did you mean `qwen3:8b`?"), "{err}");
    assert!(
        err.contains("This server serves: qwen3:8b, llama3.2"),
        "{err}"
    );
    let requests = server.requests();
    assert_eq!(requests[1].method, "GET");
    assert_eq!(requests[1].path, "/v1/models");
}

#[test]
fn print_mode_keeps_narration_off_stdout_in_order_with_the_tools() {
    let env = Env::new();
    env.write("a.txt", "x");
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::text_and_tool_calls(
            "Let me look around.",
            &[("c1", "LS", json!({"path": "."}))],
        )),
        MockResponse::sse(anthropic::text("There is a.txt.")),
    ])
    .unwrap();
    let out = env
        .anthropic(&server.url())
        .args(["-p", "what is here?"])
        .output()
        .unwrap();
    assert_clean(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "There is a.txt.\n");
    let err = stderr(&out);
    let narration = err
        .find("Let me look around.")
        .expect("narration on stderr");
    let tool = err.find("● LS").expect("tool line on stderr");
    assert!(narration < tool, "{err}");
}

fn answer_with(input_tokens: u64, text: &str) -> MockResponse {
    MockResponse::sse(
        anthropic::StreamBuilder::new()
            .usage(MockUsage {
                input_tokens,
                ..MockUsage::DEFAULT
            })
            .text(text)
            .build(),
    )
}

#[test]
fn continue_reports_this_run_and_the_session_apart() {
    let env = Env::new();
    let server = MockServer::start(vec![
        answer_with(100, "first"),
        answer_with(300, "second"),
        answer_with(500, "third"),
    ])
    .unwrap();
    let out = env
        .anthropic(&server.url())
        .args(["-p", "one"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("this run: 1 request · 100 in"), "{err}");
    assert!(!err.contains("session:"), "{err}");

    let out = env
        .anthropic(&server.url())
        .args(["-p", "two", "--continue"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("this run: 1 request · 300 in"), "{err}");
    assert!(err.contains("; session: 400 in · 40 out"), "{err}");

    let out = env
        .anthropic(&server.url())
        .args(["-p", "three", "--continue", "--output-format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let result: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(result["usage"]["input_tokens"], 500);
    assert_eq!(result["usage"]["output_tokens"], 20);
    assert_eq!(result["session_usage"]["input_tokens"], 900);
    assert_eq!(result["session_usage"]["output_tokens"], 60);
}

/// A run that cannot start in stream-json mode says why on stdout as
/// `system` lines (the warnings said before it, then the error), and
/// nothing on stderr; in text mode the same error is on stderr.
#[test]
fn a_failed_start_in_stream_json_is_system_lines_not_stderr() {
    let env = Env::new();
    let settings = r#"{"env": {"ANTHROPIC_API_KEY": "no"}}"#;
    let out = env
        .wright()
        .args(["-p", "hi", "--output-format", "stream-json"])
        .args(["--settings", settings, "--max-thinking-tokens", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let lines = ndjson(&out);
    let said = |subtype: &str, words: &str| {
        lines.iter().any(|l| {
            l["type"] == "system"
                && l["subtype"] == subtype
                && l["message"].as_str().unwrap_or("").contains(words)
                && l["uuid"].is_string()
                && l["session_id"].is_string()
        })
    };
    assert!(
        said("warning", "--settings env: not setting ANTHROPIC_API_KEY"),
        "{lines:?}"
    );
    assert!(said("warning", "--max-thinking-tokens 5"), "{lines:?}");
    assert!(said("error", "No model provider configured"), "{lines:?}");
    assert_eq!(lines.last().unwrap()["subtype"], "error");
    // Text mode: the error on stderr, stdout empty.
    let out = env.wright().args(["-p", "hi"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("error: No model provider configured"));
    assert_eq!(stdout(&out), "");
}
