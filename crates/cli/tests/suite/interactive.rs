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
