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
