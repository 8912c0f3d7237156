//! The real Claude Agent SDK (Python, pinned) driving the real binary
//! against the loopback mock: `query()`, `ClaudeSDKClient` over several
//! turns, `can_use_tool`, a hook callback that blocks a call, `interrupt()`,
//! `set_permission_mode`, partial messages and resume. The scenarios are in
//! `tests/sdk/scenarios.py`; the SDK is installed into a venv under the
//! target dir once. Where Python or the package index is unavailable the
//! tests say so on stderr and pass without running.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::Env;

/// The SDK version the scenarios are written against.
const SDK_VERSION: &str = "0.2.189";

/// The venv's python with the SDK importable, or why there is none.
fn sdk_python() -> Result<&'static Path, &'static str> {
    static PYTHON: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let found = PYTHON.get_or_init(|| {
        let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sdk-venv-{SDK_VERSION}"));
        let python = venv.join("bin/python");
        let ready = |python: &Path| {
            Command::new(python)
                .args(["-c", "import claude_agent_sdk"])
                .output()
                .is_ok_and(|o| o.status.success())
        };
        if ready(&python) {
            return Ok(python);
        }
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .output()
            .map_err(|e| format!("python3 is not available ({e})"))?;
        if !made.status.success() {
            return Err(format!(
                "python3 -m venv failed: {}",
                String::from_utf8_lossy(&made.stderr)
            ));
        }
        let pip = Command::new(venv.join("bin/pip"))
            .args(["install", "-q", "--disable-pip-version-check"])
            .arg(format!("claude-agent-sdk=={SDK_VERSION}"))
            .output()
            .map_err(|e| format!("pip could not run ({e})"))?;
        if !pip.status.success() || !ready(&python) {
            return Err(format!(
                "claude-agent-sdk=={SDK_VERSION} could not be installed: {}",
                String::from_utf8_lossy(&pip.stderr)
            ));
        }
        Ok(python)
    });
    found.as_deref().map_err(String::as_str)
}

/// Runs scenario `name` against `server`; `None` when the SDK is missing.
fn scenario(env: &Env, server: &MockServer, name: &str) -> Option<String> {
    let python = match sdk_python() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: the Claude Agent SDK scenario {name} did not run: {why}");
            return None;
        }
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk/scenarios.py");
    let out = Command::new(python)
        .arg(script)
        .arg(name)
        .env_clear()
        .current_dir(env.project.path())
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", env.home.path())
        .env("XDG_CONFIG_HOME", env.home.path().join(".config"))
        .env("XDG_DATA_HOME", env.home.path().join(".local/share"))
        .env("WRIGHT", env!("CARGO_BIN_EXE_wright"))
        .env("WRIGHT_PROVIDER", "anthropic")
        .env("ANTHROPIC_BASE_URL", server.url())
        .env("ANTHROPIC_API_KEY", "test-key")
        .env("WRIGHT_LOCAL_SERVER_PORTS", "")
        .env("WRIGHT_MAX_RETRIES", "0")
        .env("NO_COLOR", "1")
        .env("CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK", "1")
        .env(
            "MCP_TEST_SERVER",
            wright_test_support::mcp_test_server_bin().unwrap(),
        )
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success() && stdout.contains("OK"),
        "scenario {name} failed\nstdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(stdout)
}

fn text(t: &str) -> MockResponse {
    MockResponse::sse(anthropic::text(t))
}

fn calls(calls: &[(&str, &str, serde_json::Value)]) -> MockResponse {
    MockResponse::sse(anthropic::tool_calls(calls))
}

#[test]
fn query_runs_a_bash_call_and_reports_cost() {
    let env = Env::new();
    let server = MockServer::start(vec![
        calls(&[("c1", "Bash", json!({"command": "echo hello-from-bash"}))]),
        text("The command printed hello."),
    ])
    .unwrap();
    if scenario(&env, &server, "query_bash").is_some() {
        assert_eq!(server.request_count(), 2);
    }
}

#[test]
fn client_keeps_one_session_over_turns() {
    let env = Env::new();
    let server = MockServer::start(vec![text("answer one"), text("answer two")]).unwrap();
    if scenario(&env, &server, "multi_turn").is_some() {
        let second = String::from_utf8_lossy(&server.requests()[1].body).into_owned();
        assert!(second.contains("first question") && second.contains("answer one"));
    }
}

#[test]
fn can_use_tool_allows_and_denies() {
    let env = Env::new();
    let server = MockServer::start(vec![
        calls(&[
            (
                "c1",
                "Write",
                json!({"file_path": "allowed.txt", "content": "yes\n"}),
            ),
            ("c2", "Bash", json!({"command": "touch denied.txt"})),
        ]),
        text("done"),
    ])
    .unwrap();
    scenario(&env, &server, "can_use_tool");
}

#[test]
fn a_python_hook_blocks_a_call() {
    let env = Env::new();
    let server = MockServer::start(vec![
        calls(&[("c1", "Bash", json!({"command": "touch hooked.txt"}))]),
        text("blocked"),
    ])
    .unwrap();
    scenario(&env, &server, "hook_blocks");
}

#[test]
fn interrupt_stops_the_turn_and_the_session_goes_on() {
    let env = Env::new();
    let server = MockServer::start(vec![
        calls(&[("c1", "Bash", json!({"command": "sleep 30"}))]),
        text("still here"),
    ])
    .unwrap();
    scenario(&env, &server, "interrupt");
}

#[test]
fn set_permission_mode_applies_to_the_next_call() {
    let env = Env::new();
    let server = MockServer::start(vec![
        calls(&[(
            "c1",
            "Write",
            json!({"file_path": "first.txt", "content": "1"}),
        )]),
        text("refused"),
        calls(&[(
            "c2",
            "Write",
            json!({"file_path": "second.txt", "content": "2"}),
        )]),
        text("written"),
    ])
    .unwrap();
    scenario(&env, &server, "permission_mode");
}

#[test]
fn partial_messages_stream_events() {
    let env = Env::new();
    let server = MockServer::start(vec![text("streamed answer")]).unwrap();
    scenario(&env, &server, "partial_messages");
}

#[test]
fn resume_continues_the_recorded_session() {
    let env = Env::new();
    let server = MockServer::start(vec![text("noted"), text("kumquat")]).unwrap();
    if scenario(&env, &server, "resume").is_some() {
        let second = String::from_utf8_lossy(&server.requests()[1].body).into_owned();
        assert!(second.contains("remember the word kumquat"));
    }
}

#[test]
fn rewind_files_restores_the_files_of_a_user_message() {
    let env = Env::new();
    let write = |id: &str, text: &str| {
        calls(&[(
            id,
            "Write",
            json!({"file_path": "notes.txt", "content": text}),
        )])
    };
    let server = MockServer::start(vec![
        write("c1", "one\n"),
        text("wrote one"),
        write("c2", "two\n"),
        text("wrote two"),
        text("ok"),
    ])
    .unwrap();
    scenario(&env, &server, "rewind_files");
}

#[test]
fn rewind_files_after_a_resume_reaches_the_first_processs_message() {
    let env = Env::new();
    let write = |id: &str, text: &str| {
        calls(&[(
            id,
            "Write",
            json!({"file_path": "notes.txt", "content": text}),
        )])
    };
    let server = MockServer::start(vec![
        write("c1", "one\n"),
        text("wrote one"),
        write("c2", "two\n"),
        text("wrote two"),
    ])
    .unwrap();
    if scenario(&env, &server, "rewind_after_resume").is_some() {
        assert_eq!(server.request_count(), 4);
    }
}

#[test]
fn thinking_signatures_and_described_commands_reach_the_program() {
    let env = Env::new();
    env.write(
        ".wright/commands/review.md",
        "---\ndescription: Review a pull request\nargument-hint: [pr-number]\n---\nReview $ARGUMENTS.\n",
    );
    let server = MockServer::start(vec![MockResponse::sse(anthropic::thinking_then_text(
        "Let me think.",
        "EqQBCgIYAhIMsig",
        "42",
    ))])
    .unwrap();
    scenario(&env, &server, "thinking_and_commands");
}

#[test]
fn the_programs_in_process_mcp_server_is_listed_and_called() {
    let env = Env::new();
    let server = MockServer::start(vec![
        calls(&[
            ("c1", "mcp__calc__add", json!({"a": 2, "b": 3})),
            ("c2", "mcp__calc__fail", json!({})),
        ]),
        text("five"),
    ])
    .unwrap();
    if scenario(&env, &server, "sdk_mcp").is_some() {
        let first = String::from_utf8_lossy(&server.requests()[0].body).into_owned();
        assert!(first.contains("mcp__calc__add"), "{first}");
        let second = String::from_utf8_lossy(&server.requests()[1].body).into_owned();
        assert!(second.contains("sum=5"), "{second}");
    }
}

#[test]
fn set_model_and_initialize_agents_reach_the_requests() {
    let env = Env::new();
    let server = MockServer::start(vec![text("one"), text("two")]).unwrap();
    if scenario(&env, &server, "model_and_agents").is_some() {
        let requests = server.requests();
        let first = requests[0].json();
        let second = requests[1].json();
        assert_ne!(first["model"], "other-model");
        assert_eq!(second["model"], "other-model");
        assert!(
            first["tools"]
                .to_string()
                .contains("Reviews diffs for bugs")
        );
    }
}

#[test]
fn an_image_in_a_user_message_reaches_the_model() {
    let env = Env::new();
    let server = MockServer::start(vec![text("A tiny PNG.")]).unwrap();
    if scenario(&env, &server, "image_prompt").is_some() {
        let sent = server.requests()[0].json()["messages"].to_string();
        assert!(
            sent.contains("iVBORw0KGgo=") && sent.contains("what is this?"),
            "{sent}"
        );
    }
}

#[test]
fn an_input_the_program_rewrote_is_what_runs() {
    let env = Env::new();
    let server = MockServer::start(vec![
        calls(&[("c1", "Bash", json!({"command": "touch not-this.txt"}))]),
        text("done"),
    ])
    .unwrap();
    if scenario(&env, &server, "rewritten_input").is_some() {
        assert!(!env.path("not-this.txt").exists());
    }
}

#[test]
fn an_interrupt_withdraws_an_open_permission_question() {
    let env = Env::new();
    let server = MockServer::start(vec![
        calls(&[("c1", "Bash", json!({"command": "touch asked.txt"}))]),
        text("never"),
    ])
    .unwrap();
    scenario(&env, &server, "interrupt_while_asking");
}

#[test]
fn session_controls_reach_mcp_servers_jobs_and_the_context() {
    let env = Env::new();
    let server = MockServer::start(vec![text("one"), text("two")]).unwrap();
    scenario(&env, &server, "session_controls");
}
