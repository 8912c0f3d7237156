//! The interactive line mode, driven through a pseudo-terminal by
//! util-linux `script` so wright sees a terminal on stdin.

use std::io::Write;
use std::process::Stdio;

use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, FAKE_KEY};

#[test]
fn line_mode_answers_each_line_and_keeps_the_conversation() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: util-linux `script` is not installed; line mode not tested");
        return;
    }
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::text("first answer")),
        MockResponse::sse(anthropic::text("second answer")),
    ])
    .unwrap();
    let line = format!(
        "{} --provider anthropic --model test-model --base-url {}",
        env!("CARGO_BIN_EXE_wright"),
        server.url()
    );
    let mut script = std::process::Command::new("script");
    script
        .args(["-qec", &line, "/dev/null"])
        .env_clear()
        .current_dir(env.project.path())
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", env.home.path())
        .env("XDG_CONFIG_HOME", env.home.path().join(".config"))
        .env("XDG_DATA_HOME", env.home.path().join(".local/share"))
        .env("NO_COLOR", "1")
        .env("WRIGHT_LOCAL_SERVER_PORTS", "")
        .env("ANTHROPIC_API_KEY", FAKE_KEY)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut proc = script.spawn().unwrap();
    proc.stdin
        .take()
        .unwrap()
        .write_all(b"first question\nsecond question\n/exit\n")
        .unwrap();
    let out = proc.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("first answer") && text.contains("second answer"),
        "{text}"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let second = requests[1].json()["messages"].to_string();
    assert!(second.contains("first question") && second.contains("first answer"));
    assert!(second.contains("second question"));
}

/// Runs wright's line mode under `script` with these input lines.
fn run_lines(env: &Env, url: &str, input: &str) -> (bool, String) {
    let line = format!(
        "{} --provider anthropic --model test-model --base-url {url} --permission-mode accept-edits",
        env!("CARGO_BIN_EXE_wright"),
    );
    let mut script = std::process::Command::new("script");
    script
        .args(["-qec", &line, "/dev/null"])
        .env_clear()
        .current_dir(env.project.path())
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", env.home.path())
        .env("XDG_CONFIG_HOME", env.home.path().join(".config"))
        .env("XDG_DATA_HOME", env.home.path().join(".local/share"))
        .env("NO_COLOR", "1")
        .env("WRIGHT_LOCAL_SERVER_PORTS", "")
        .env("ANTHROPIC_API_KEY", FAKE_KEY)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut proc = script.spawn().unwrap();
    proc.stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = proc.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn slash_commands_context_compact_rewind_and_mode() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: util-linux `script` is not installed");
        return;
    }
    let env = Env::new();
    env.write("AGENTS.md", "PROJECT-RULES-MARK");
    env.write("f.txt", "v1\n");
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "e1",
            "edit",
            serde_json::json!({"path": "f.txt", "old_string": "v1", "new_string": "v2"}),
        )])),
        MockResponse::sse(anthropic::text("edited it")),
        MockResponse::sse(anthropic::text("second answer")),
        MockResponse::sse(anthropic::text("## Goal\nthe summary")),
    ])
    .unwrap();
    let (ok, shown) = run_lines(
        &env,
        &server.url(),
        "change v1 to v2\nanother question\n/context\n/compact keep the file names\n/rewind\n/rewind 1\n/mode plan\n/nonsense\n/exit\n",
    );
    assert!(ok, "{shown}");
    assert!(shown.contains("PROJECT-RULES-MARK"), "/context: {shown}");
    assert!(
        shown.contains("compacted the conversation (manual)"),
        "{shown}"
    );
    assert!(
        shown.contains("1. change v1 to v2"),
        "/rewind list: {shown}"
    );
    assert!(shown.contains("Rewound to before turn 1"), "{shown}");
    assert!(shown.contains("Permission mode is now `plan`"), "{shown}");
    assert!(shown.contains("unknown command /nonsense"), "{shown}");
    assert_eq!(std::fs::read_to_string(env.path("f.txt")).unwrap(), "v1\n");
    let requests = server.requests();
    let summary = requests[3].body_text();
    assert!(
        summary.contains("keep the file names"),
        "focus reaches the summary prompt"
    );
}
