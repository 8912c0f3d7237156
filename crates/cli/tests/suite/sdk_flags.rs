//! The Claude Code flags the Agent SDK passes, through the binary against
//! the loopback mock: `--settings`, `--setting-sources`, `--thinking`,
//! `--max-thinking-tokens`, `--effort`, `--tools`, `--json-schema`,
//! `--agents`, and the refusal of flags wright does not implement.

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::scenarios::tool_results;
use super::{Env, stderr, stdout};

/// One Anthropic request answered with `text`; returns the run's output
/// and the request body.
fn one_request(env: &Env, args: &[&str]) -> (std::process::Output, Option<Value>) {
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("ok"))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .args(args)
        .output()
        .unwrap();
    let body = server.requests().first().map(|r| r.json());
    (out, body)
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .map(|t| t["name"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn result_of(out: &std::process::Output) -> Value {
    serde_json::from_str(stdout(out).trim()).unwrap_or_else(|e| {
        panic!(
            "not one JSON object ({e}):\n{}\n{}",
            stdout(out),
            stderr(out)
        )
    })
}

#[test]
fn settings_json_applies_permissions_env_and_model() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[
            (
                "c1",
                "Bash",
                json!({"command": "printenv FROM_SETTINGS SDK_TOKEN"}),
            ),
            ("c2", "Read", json!({"file_path": "a.txt"})),
        ])),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    env.write("a.txt", "alpha\n");
    let settings = json!({
        "permissions": {"allow": ["Bash(printenv:*)"], "deny": ["Read"]},
        // A credential-like name the invoker sets for commands reaches them.
        "env": {"FROM_SETTINGS": "hello-from-settings", "SDK_TOKEN": "sdk-token-value", "ANTHROPIC_API_KEY": "stolen"},
        "model": "settings-model",
        "sandbox": {"enabled": true},
    })
    .to_string();
    let out = env
        .wright()
        .args(["-p", "go", "--provider", "anthropic", "--base-url"])
        .arg(server.url())
        .env("ANTHROPIC_API_KEY", super::FAKE_KEY)
        .args(["--settings", &settings])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("wright does not use `sandbox`"), "{err}");
    assert!(err.contains("not setting ANTHROPIC_API_KEY"), "{err}");
    let requests = server.requests();
    assert_eq!(requests[0].json()["model"], "settings-model");
    let results = tool_results("anthropic", &requests[1]);
    assert!(
        !results[0].2
            && results[0].1.contains("hello-from-settings")
            && results[0].1.contains("sdk-token-value"),
        "{results:?}"
    );
    assert!(
        results[1].2 && results[1].1.contains("Permission denied"),
        "{results:?}"
    );
    // An explicit flag beats the settings.
    let (out, body) = one_request(&env, &["--settings", r#"{"model": "settings-model"}"#]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(body.unwrap()["model"], "test-model");
}

#[test]
fn settings_from_a_file_run_their_hooks() {
    let env = Env::new();
    env.write(
        "sdk-settings.json",
        &json!({
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "echo 'not from settings' >&2; exit 2"}
            ]}]}
        })
        .to_string(),
    );
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Bash",
            json!({"command": "echo ran"}),
        )])),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args([
            "--settings",
            "sdk-settings.json",
            "--permission-mode",
            "bypass",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let results = tool_results("anthropic", &server.requests()[1]);
    assert_eq!(results[0].1, "Blocked by hook: not from settings");
}

#[test]
fn bad_settings_are_usage_errors_before_any_request() {
    let env = Env::new();
    for (value, says) in [
        ("missing.json", "cannot read"),
        ("{not json}", "invalid JSON"),
        (r#"{"permissions": {"allow": "Read"}}"#, "permissions.allow"),
    ] {
        let (out, body) = one_request(&env, &["--settings", value]);
        assert_eq!(out.status.code(), Some(2), "{value}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{value}: {}", stderr(&out));
        assert!(body.is_none());
    }
    let (out, body) = one_request(&env, &["--setting-sources", "user,policy"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("`policy`"), "{}", stderr(&out));
    assert!(body.is_none());
}

#[test]
fn setting_sources_choose_the_config_files() {
    let env = Env::new();
    env.write(
        ".wright/config.toml",
        "append_system_prompt = \"PROJECT-MARK\"\n",
    );
    env.write_user_config("append_system_prompt = \"USER-MARK\"\n");
    let system = |args: &[&str]| {
        let (out, body) = one_request(&env, args);
        assert!(out.status.success(), "{}", stderr(&out));
        body.unwrap()["system"].to_string()
    };
    assert!(system(&[]).contains("PROJECT-MARK"));
    let user_only = system(&["--setting-sources=user"]);
    assert!(
        user_only.contains("USER-MARK") && !user_only.contains("PROJECT-MARK"),
        "{user_only}"
    );
    let none = system(&["--setting-sources", ""]);
    assert!(!none.contains("-MARK"), "{none}");
}

/// As Claude Code loads CLAUDE.md and `.mcp.json` only with `project`.
#[test]
fn setting_sources_without_project_leave_out_instructions_and_mcp_json() {
    let env = Env::new();
    env.write("AGENTS.md", "INSTRUCTIONS-MARK\n");
    let mcp = wright_test_support::mcp_test_server_bin().unwrap();
    env.write(
        ".mcp.json",
        &json!({"mcpServers": {"t": {"command": mcp}}}).to_string(),
    );
    let request = |args: &[&str]| {
        let (out, body) = one_request(&env, args);
        assert!(out.status.success(), "{}", stderr(&out));
        (body.unwrap(), stderr(&out))
    };
    let (all, _) = request(&[]);
    assert!(all["system"].to_string().contains("INSTRUCTIONS-MARK"));
    let (user_only, err) = request(&["--setting-sources=user"]);
    assert!(
        !user_only["system"]
            .to_string()
            .contains("INSTRUCTIONS-MARK"),
        "{user_only}"
    );
    assert!(!err.contains(".mcp.json"), "{err}");
    assert!(
        !user_only["tools"].to_string().contains("mcp__t__"),
        "{user_only}"
    );
}

#[test]
fn thinking_flags_set_or_clear_the_budget() {
    let env = Env::new();
    let thinking = |args: &[&str]| {
        let (out, body) = one_request(&env, args);
        assert!(out.status.success(), "{}", stderr(&out));
        body.unwrap()["thinking"].clone()
    };
    assert_eq!(
        thinking(&["--thinking", "adaptive"]),
        json!({"type": "enabled", "budget_tokens": 8000})
    );
    assert_eq!(
        thinking(&["--max-thinking-tokens", "3000"]),
        json!({"type": "enabled", "budget_tokens": 3000})
    );
    assert_eq!(thinking(&["--thinking", "disabled"]), Value::Null);
    env.write_user_config("thinking_budget = 5000\n");
    assert_eq!(
        thinking(&["--thinking", "adaptive"]),
        json!({"type": "enabled", "budget_tokens": 5000})
    );
    assert_eq!(thinking(&["--max-thinking-tokens", "0"]), Value::Null);
    let (out, _) = one_request(&env, &["--thinking", "lots"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn effort_maps_to_reasoning_effort() {
    let env = Env::new();
    for (word, sent) in [("low", "low"), ("xhigh", "high"), ("max", "high")] {
        let server = MockServer::start(vec![MockResponse::sse(
            wright_test_support::openai_chat::text("ok"),
        )])
        .unwrap();
        let out = env
            .wright_p("openai-chat", &server.url(), "hi")
            .args(["--effort", word])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(server.requests()[0].json()["reasoning_effort"], sent);
    }
}

#[test]
fn tools_chooses_the_built_in_tools_offered() {
    let env = Env::new();
    let (out, body) = one_request(&env, &["--tools", ""]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(tool_names(&body.unwrap()).is_empty());
    let (out, body) = one_request(&env, &["--tools", "Read,Grep,NotebookEdit"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(tool_names(&body.unwrap()), ["Read", "Grep"]);
    assert!(
        stderr(&out).contains("no built-in tool named NotebookEdit"),
        "{}",
        stderr(&out)
    );
    let (_, body) = one_request(&env, &["--tools", "default"]);
    let all = tool_names(&body.unwrap());
    assert!(all.contains(&"Bash".to_owned()) && all.contains(&"Task".to_owned()));
    let (_, body) = one_request(&env, &["--tools", "Read,Task"]);
    assert_eq!(tool_names(&body.unwrap()), ["Read", "Task"]);
}

const SCHEMA: &str =
    r#"{"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}"#;

#[test]
fn json_schema_returns_structured_output() {
    let env = Env::new();
    let server =
        MockServer::start(vec![MockResponse::sse(anthropic::text(r#"{"count": 3}"#))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "count")
        .args(["--json-schema", SCHEMA, "--output-format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let result = result_of(&out);
    assert_eq!(result["subtype"], "success");
    assert_eq!(result["structured_output"], json!({"count": 3}));
    let system = server.requests()[0].json()["system"].to_string();
    assert!(system.contains("Structured output"), "{system}");
    assert!(system.contains("required"), "{system}");

    // One invalid answer is sent back once; print mode prints the JSON.
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::text("About three.")),
        MockResponse::sse(anthropic::text("```json\n{\"count\": 3}\n```")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "count")
        .args(["--json-schema", SCHEMA])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), r#"{"count":3}"#);
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert!(
        requests[1].json()["messages"]
            .to_string()
            .contains("not valid JSON"),
        "{}",
        requests[1].json()["messages"]
    );
}

#[test]
fn json_schema_still_invalid_after_the_retry_is_an_error_result() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::text(r#"{"count": "three"}"#)),
        MockResponse::sse(anthropic::text(r#"{"total": 3}"#)),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "count")
        .args(["--json-schema", SCHEMA, "--output-format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let result = result_of(&out);
    assert_eq!(result["subtype"], "error_max_structured_output_retries");
    assert_eq!(result["is_error"], true);
    assert!(result.get("structured_output").is_none());
    assert_eq!(server.requests().len(), 2);
    for bad in ["{not json", r#"{"type": 7}"#] {
        let (out, body) = one_request(&env, &["--json-schema", bad]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("--json-schema"), "{}", stderr(&out));
        assert!(body.is_none());
    }
}

#[test]
fn agents_adds_subagent_types() {
    let env = Env::new();
    let agents = json!({"reviewer": {
        "description": "Reviews diffs for bugs",
        "prompt": "You review code.",
        "tools": ["Read", "Grep"],
    }})
    .to_string();
    let (out, body) = one_request(&env, &["--agents", &agents]);
    assert!(out.status.success(), "{}", stderr(&out));
    let tools = body.unwrap()["tools"].to_string();
    assert!(
        tools.contains("reviewer") && tools.contains("Reviews diffs for bugs"),
        "{tools}"
    );
    for bad in ["{nope", r#"{"x": {"prompt": "p"}}"#] {
        let (out, body) = one_request(&env, &["--agents", bad]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("--agents"), "{}", stderr(&out));
        assert!(body.is_none());
    }
}

#[test]
fn unsupported_claude_code_flags_are_named() {
    let env = Env::new();
    for args in [
        &["--betas", "x"][..],
        &["--resume-session-at=abc"],
        &["--plugin-dir", "p"],
        &["--thinking-display", "summarized"],
    ] {
        let (out, body) = one_request(&env, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let flag = args[0].split('=').next().unwrap();
        let err = stderr(&out);
        assert!(
            err.contains(flag) && err.contains("wright does not support"),
            "{err}"
        );
        assert!(body.is_none());
    }
    let (out, _) = one_request(&env, &["--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown flag --no-such-flag"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_sdks_default_command_line_is_accepted() {
    let env = Env::new();
    let (out, body) = one_request(
        &env,
        &[
            "--output-format",
            "json",
            "--verbose",
            "--tools",
            "default",
            "--setting-sources=user,project",
            "--thinking",
            "disabled",
            "--effort",
            "high",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(result_of(&out)["subtype"], "success");
    assert!(body.is_some());
}

#[test]
fn json_schema_output_is_in_the_stream_json_result_line() {
    let env = Env::new();
    let server =
        MockServer::start(vec![MockResponse::sse(anthropic::text(r#"{"count": 9}"#))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "count")
        .args(["--json-schema", SCHEMA, "--output-format", "stream-json"])
        .args([
            "--verbose",
            "--setting-sources=user,project",
            "--tools",
            "default",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["type"], "result");
    assert_eq!(last["subtype"], "success");
    assert_eq!(last["structured_output"], json!({"count": 9}));
    let schema: Value =
        serde_json::from_str(include_str!("../../../../docs/schema/result.schema.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(&last), "{last}");
}

#[test]
fn settings_show_in_config_show_with_their_source() {
    let env = Env::new();
    let out = env
        .wright()
        .args(["config", "show", "--json"])
        .args([
            "--settings",
            r#"{"model": "from-settings", "permissions": {"ask": ["Write"]}}"#,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let entries: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let entry = |key: &str| {
        entries
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["key"] == key)
            .unwrap()
            .clone()
    };
    assert_eq!(entry("model")["value"], "from-settings");
    assert_eq!(entry("permissions.ask")["value"], json!(["Write"]));
    assert!(
        entry("model")["source"].to_string().contains("--settings"),
        "{}",
        entry("model")
    );
}

/// Anthropic's thinking signature reaches the assistant line's thinking
/// block, and with `--include-partial-messages` streams as Claude Code's
/// `signature_delta` right before the block's `content_block_stop`.
#[test]
fn thinking_blocks_carry_the_providers_signature() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::thinking_then_text(
        "Let me think.",
        "EqQBCgIYAhIMsig",
        "42",
    ))])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "why")
        .args([
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-partial-messages",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let assistant = lines
        .iter()
        .find(|l| l["type"] == "assistant")
        .expect("an assistant line");
    let thinking = &assistant["message"]["content"][0];
    assert_eq!(thinking["type"], "thinking", "{assistant}");
    assert_eq!(thinking["thinking"], "Let me think.");
    assert_eq!(thinking["signature"], "EqQBCgIYAhIMsig");
    let events: Vec<&Value> = lines
        .iter()
        .filter(|l| l["type"] == "stream_event")
        .map(|l| &l["event"])
        .collect();
    let signed = events
        .iter()
        .position(|e| e["delta"]["type"] == "signature_delta")
        .expect("a signature_delta event");
    assert_eq!(events[signed]["delta"]["signature"], "EqQBCgIYAhIMsig");
    assert_eq!(events[signed + 1]["type"], "content_block_stop");
    assert_eq!(events[signed + 1]["index"], events[signed]["index"]);
}
