//! The `wright-mock` binary: prints its URL, then serves the scenario.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use super::client::post;
use super::sse::json_payloads;

/// Kills the child even when an assertion fails.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn serves_a_scenario_and_prints_its_url_first() {
    let mut child = Child(
        Command::new(env!("CARGO_BIN_EXE_wright-mock"))
            .args([
                "--provider",
                "openai-chat",
                "--scenario",
                "echo-hello",
                "--loop",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");

    for _ in 0..2 {
        let turn1 = post(url, "/v1/chat/completions", "{}").body_text();
        let args: String = json_payloads(&turn1)
            .iter()
            .filter_map(|v| {
                v["choices"].get(0)?["delta"]["tool_calls"][0]["function"]["arguments"]
                    .as_str()
                    .map(String::from)
            })
            .collect();
        let args: serde_json::Value = serde_json::from_str(&args).unwrap();
        assert_eq!(args["command"], "echo hello > out.txt && cat out.txt");
        let turn2 = post(url, "/v1/chat/completions", "{}").body_text();
        assert!(turn2.contains("says"));
    }
}

#[test]
fn bad_flags_print_usage_and_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_wright-mock"))
        .args(["--provider", "anthropic", "--scenario", "no-such"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("usage: wright-mock"));
    assert!(err.contains("echo-hello"));

    let out = Command::new(env!("CARGO_BIN_EXE_wright-mock"))
        .arg("--frobnicate")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
