//! Ctrl-C stops the running turn cleanly: the command is killed, the
//! process exits 130, and nothing hangs.

use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::Env;

#[test]
fn sigint_during_a_command_stops_the_turn_with_exit_130() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::tool_calls(&[(
        "c1",
        "Bash",
        json!({"command": "touch started && sleep 30 && touch finished"}),
    )]))])
    .unwrap();
    let mut cmd = env.std_wright_p("anthropic", &server.url(), "wait");
    let child = cmd
        .args(["--permission-mode", "bypass"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait (bounded) for the command to have started.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !env.path("started").exists() {
        assert!(Instant::now() < deadline, "command never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    assert!(
        std::process::Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!env.path("finished").exists());
    assert_eq!(server.requests().len(), 1);
}

/// A run cancelled while the answer streams reports what it spent: the
/// input the provider reported at the start of the stream, and the output
/// streamed so far (chars/4), in the result's `usage`.
#[test]
fn a_cancelled_run_reports_the_interrupted_requests_usage() {
    use std::io::{BufRead as _, BufReader};
    let env = Env::new();
    let partial = "partial answer words";
    let body = anthropic::StreamBuilder::new()
        .usage(wright_test_support::MockUsage {
            input_tokens: 1234,
            output_tokens: 999,
            cache_read_input_tokens: 0,
            cache_creation_input_tokens: 0,
        })
        .text(partial)
        .build();
    // Everything up to and including the text deltas, then silence.
    let end = body.find("event: content_block_stop").unwrap();
    let server = MockServer::start(vec![MockResponse::sse(body).drop_after(end).stall()]).unwrap();
    let mut cmd = env.std_wright_p("anthropic", &server.url(), "go");
    let mut child = cmd
        .args([
            "--output-format",
            "stream-json",
            "--include-partial-messages",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // Wait for the streamed text (the mock may hold the last piece back),
    // so the request is under way.
    let mut streamed = String::new();
    while !streamed.starts_with("partial answer word") {
        let line = lines.next().expect("stream ended early").unwrap();
        let line: serde_json::Value = serde_json::from_str(&line).unwrap();
        if let Some(text) = line.pointer("/event/delta/text").and_then(|t| t.as_str()) {
            streamed.push_str(text);
        }
    }
    let pid = child.id().to_string();
    assert!(
        std::process::Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let result: serde_json::Value = serde_json::from_str(rest.last().unwrap()).unwrap();
    assert_eq!(result["type"], "result");
    assert_eq!(result["usage"]["input_tokens"], 1234);
    // "partial answer word(s)" is 19 or 20 chars: 5 tokens by chars/4.
    assert_eq!(result["usage"]["output_tokens"], 5);
    assert_eq!(server.requests().len(), 1);
}
