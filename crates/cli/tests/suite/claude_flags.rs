//! Claude Code's spellings of the permission flags through the binary:
//! `--allowedTools` / `--allowed-tools` and `--disallowedTools` /
//! `--disallowed-tools`, with rules separated by commas or spaces.

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::scenarios::tool_results;
use super::{Env, stderr};

#[test]
fn allowed_and_disallowed_tools_take_rule_lists() {
    let env = Env::new();
    env.write("a.txt", "alpha\n");
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[
            ("c1", "Bash", json!({"command": "echo hi"})),
            ("c2", "Read", json!({"file_path": "a.txt"})),
            ("c3", "Write", json!({"file_path": "c.txt", "content": "x"})),
        ])),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(["--allowedTools", "Bash(echo hi:*), Write"])
        .args(["--disallowed-tools", "Read"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let results = tool_results("anthropic", &server.requests()[1]);
    assert!(!results[0].2, "{results:?}");
    assert!(
        results[1].2 && results[1].1.contains("Permission denied"),
        "{results:?}"
    );
    assert!(!results[2].2, "{results:?}");
    assert!(env.path("c.txt").exists());
}
