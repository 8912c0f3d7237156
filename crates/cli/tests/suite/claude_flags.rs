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

#[test]
fn add_dir_makes_another_directory_a_workspace_root() {
    let env = Env::new();
    let other = tempfile::tempdir().unwrap();
    let target = other.path().join("note.txt");
    let call = |id: &str| {
        anthropic::tool_calls(&[(
            id,
            "Write",
            json!({"file_path": target.display().to_string(), "content": "hi\n"}),
        )])
    };
    let run = |extra: &[&str]| {
        let server = MockServer::start(vec![
            MockResponse::sse(call("c1")),
            MockResponse::sse(anthropic::text("done")),
        ])
        .unwrap();
        let out = env
            .wright_p("anthropic", &server.url(), "go")
            .args(["--allowedTools", "Write"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        tool_results("anthropic", &server.requests()[1])
    };
    let refused = run(&[]);
    assert!(refused[0].2, "{refused:?}");
    assert!(!target.exists());
    let dir = other.path().display().to_string();
    let allowed = run(&["--add-dir", &dir]);
    assert!(!allowed[0].2, "{allowed:?}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "hi\n");
}

#[test]
fn session_id_names_the_new_session() {
    let env = Env::new();
    let id = "5f0c7a1e-9c4b-4e52-8a3d-2f6b9d1e7c40";
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("ok"))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .args(["--session-id", id, "--output-format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let result: serde_json::Value = serde_json::from_str(super::stdout(&out).trim()).unwrap();
    assert_eq!(result["session_id"], id);
    // Taken now, and not a UUID: both refused before anything runs.
    for bad in [id, "not-a-uuid"] {
        let server = MockServer::start(vec![MockResponse::sse(anthropic::text("ok"))]).unwrap();
        let out = env
            .wright_p("anthropic", &server.url(), "hi")
            .args(["--session-id", bad])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(
            err.contains("exists already") || err.contains("not a UUID"),
            "{err}"
        );
        assert!(server.requests().is_empty());
    }
    let out = env
        .wright()
        .args(["-p", "hi", "--continue", "--session-id", id])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn dont_ask_refuses_instead_of_asking_even_at_a_terminal() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Bash",
            json!({"command": "touch made.txt"}),
        )])),
        MockResponse::sse(anthropic::text("could not")),
    ])
    .unwrap();
    let Some((ok, screen)) =
        env.terminal(&server.url(), "--permission-mode dontAsk", "go\n/exit\n")
    else {
        return;
    };
    assert!(ok, "{screen}");
    assert!(!screen.contains("? Bash("), "{screen}");
    assert!(!env.path("made.txt").exists());
    let results = tool_results("anthropic", &server.requests()[1]);
    assert!(
        results[0].2 && results[0].1.contains("cannot ask"),
        "{results:?}"
    );
}

#[test]
fn permission_prompt_tool_asks_an_mcp_tool() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[
            (
                "c1",
                "Write",
                json!({"file_path": "ok.txt", "content": "fine\n"}),
            ),
            (
                "c2",
                "Write",
                json!({"file_path": "no.txt", "content": "forbidden\n"}),
            ),
        ])),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let config = perm_server();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(["--mcp-config", &config.to_string()])
        .args(["--permission-prompt-tool", "mcp__perm__approve"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let results = tool_results("anthropic", &server.requests()[1]);
    assert!(!results[0].2, "{results:?}");
    assert!(
        results[1].2 && results[1].1.contains("the approve tool said no"),
        "{results:?}"
    );
    assert!(env.path("ok.txt").exists() && !env.path("no.txt").exists());
}

#[test]
fn permission_prompt_tool_must_exist_and_stdio_needs_stream_json() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("never"))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(["--permission-prompt-tool", "mcp__nobody__approve"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("mcp__nobody__approve"),
        "{}",
        stderr(&out)
    );
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(["--permission-prompt-tool", "stdio"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("stream-json"), "{}", stderr(&out));
    assert_eq!(server.request_count(), 0);
}

#[test]
fn dont_ask_asks_no_permission_tool_either() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Write",
            json!({"file_path": "ok.txt", "content": "fine\n"}),
        )])),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let config = perm_server();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(["--mcp-config", &config.to_string()])
        .args(["--permission-prompt-tool", "mcp__perm__approve"])
        .args(["--permission-mode", "dontAsk"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let results = tool_results("anthropic", &server.requests()[1]);
    assert!(results[0].2, "{results:?}");
    assert!(!env.path("ok.txt").exists());
}

/// `--mcp-config` text for the test MCP server as `perm`, whose `approve`
/// tool answers permission questions.
fn perm_server() -> serde_json::Value {
    let bin = wright_test_support::mcp_test_server_bin().unwrap();
    json!({"mcpServers": {"perm": {"command": bin.display().to_string()}}})
}

/// `--fallback-model`: after the model is overloaded twice in a row the run
/// moves to the fallback model, says so, and finishes on it.
#[test]
fn fallback_model_takes_over_after_repeated_overloads() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::api_error(529, "overloaded_error", "Overloaded"),
        MockResponse::api_error(529, "overloaded_error", "Overloaded"),
        MockResponse::sse(anthropic::text("answered by the fallback")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(["--fallback-model", "small-model"])
        .env("WRIGHT_MAX_RETRIES", "3")
        .env("WRIGHT_RETRY_MAX_DELAY_MS", "20")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "answered by the fallback"
    );
    assert!(
        stderr(&out).contains("switching to the fallback model small-model"),
        "{}",
        stderr(&out)
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    assert_ne!(requests[0].json()["model"], "small-model");
    assert_eq!(requests[2].json()["model"], "small-model");
}
