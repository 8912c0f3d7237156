//! Where hooks come from, through the real binary: `wright hooks list`
//! with wright's own config and a trusted project's `.claude/settings.json`,
//! the warnings for a malformed settings file, an import that needs trust
//! and a bad matcher, and a session that starts in spite of them. (That
//! hooks fire during a run is the core's suite.)

use serde_json::Value;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, assert_clean, stderr, stdout};

const USER_HOOKS: &str = r#"
[hooks]
import_claude_settings = true

[[hooks.Stop]]
hooks = [{ type = "command", command = "make test", timeout = 30 }]
"#;

const PROJECT_HOOKS: &str = r#"
[[hooks.PreToolUse]]
matcher = "Edit|Write"
hooks = [{ type = "command", command = "./scripts/check.sh" }]
"#;

const CLAUDE_SETTINGS: &str = r#"{
  "permissions": {"allow": []},
  "hooks": {
    "PostToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo from-claude", "timeout": 5}]}
    ]
  }
}"#;

/// The project root as wright sees it (the real path of the temp dir).
fn root(env: &Env) -> std::path::PathBuf {
    env.project.path().canonicalize().unwrap()
}

fn hooks_list(env: &Env, extra: &[&str]) -> std::process::Output {
    let out = env
        .wright()
        .args(["hooks", "list"])
        .args(extra)
        .output()
        .unwrap();
    assert_clean(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_str(stdout(out).trim()).unwrap()
}

fn commands(list: &Value) -> Vec<&str> {
    list["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["command"].as_str().unwrap())
        .collect()
}

#[test]
fn user_project_and_claude_hooks_are_listed_by_event_with_their_sources() {
    let env = Env::new();
    let root = root(&env);
    env.write_user_config(&format!(
        "{USER_HOOKS}\n[projects.\"{}\"]\ntrusted = true\n",
        root.display()
    ));
    env.write(".wright/config.toml", PROJECT_HOOKS);
    env.write(".claude/settings.json", CLAUDE_SETTINGS);

    let list = json(&hooks_list(&env, &["--json"]));
    assert_eq!(list["warnings"], Value::Array(vec![]), "{list}");
    let hooks = list["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 3, "{list}");
    let user_file = env.home.path().join(".config/wright/config.toml");
    // Grouped by event in Claude Code's order, whatever the file order.
    assert_eq!(hooks[0]["event"], "PreToolUse");
    assert_eq!(hooks[0]["matcher"], "Edit|Write");
    assert_eq!(hooks[0]["command"], "./scripts/check.sh");
    assert_eq!(hooks[0]["timeout_secs"], 60);
    assert_eq!(
        hooks[0]["source"],
        format!(
            "project config ({})",
            root.join(".wright/config.toml").display()
        )
    );
    assert_eq!(hooks[1]["event"], "PostToolUse");
    assert_eq!(hooks[1]["command"], "echo from-claude");
    assert_eq!(hooks[1]["timeout_secs"], 5);
    assert_eq!(
        hooks[1]["source"],
        format!(
            "Claude Code settings ({})",
            root.join(".claude/settings.json").display()
        )
    );
    assert_eq!(hooks[2]["event"], "Stop");
    assert_eq!(hooks[2]["matcher"], Value::Null);
    assert_eq!(hooks[2]["timeout_secs"], 30);
    assert_eq!(
        hooks[2]["source"],
        format!("user config ({})", user_file.display())
    );

    let text = stdout(&hooks_list(&env, &[]));
    let expected = format!(
        "PreToolUse\n  [Edit|Write] ./scripts/check.sh\n      timeout 60s · project config ({})\n\
         PostToolUse\n  [Bash] echo from-claude\n      timeout 5s · Claude Code settings ({})\n\
         Stop\n  [*] make test\n      timeout 30s · user config ({})\n",
        root.join(".wright/config.toml").display(),
        root.join(".claude/settings.json").display(),
        user_file.display()
    );
    assert_eq!(text, expected);
}

#[test]
fn settings_local_json_is_read_after_settings_json() {
    let env = Env::new();
    env.write_user_config(USER_HOOKS);
    env.write(".claude/settings.json", CLAUDE_SETTINGS);
    env.write(
        ".claude/settings.local.json",
        r#"{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"echo local"}]}]}}"#,
    );
    let list = json(&hooks_list(&env, &["--json", "--trust-project"]));
    assert_eq!(
        commands(&list),
        ["echo from-claude", "echo local", "make test"]
    );
}

#[test]
fn a_malformed_claude_settings_file_is_a_warning_naming_it() {
    let env = Env::new();
    env.write_user_config(USER_HOOKS);
    env.write(".claude/settings.json", "{ \"hooks\": ");
    let file = root(&env).join(".claude/settings.json");

    let out = hooks_list(&env, &["--trust-project"]);
    let err = stderr(&out);
    assert!(err.contains(&file.display().to_string()), "{err}");
    assert!(err.contains("not valid JSON"), "{err}");
    // wright's own hooks are still there.
    assert!(stdout(&out).contains("make test"), "{}", stdout(&out));

    let list = json(&hooks_list(&env, &["--json", "--trust-project"]));
    assert_eq!(commands(&list), ["make test"]);
    let warnings = list["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{list}");
    assert!(
        warnings[0]
            .as_str()
            .unwrap()
            .contains(&file.display().to_string()),
        "{list}"
    );
}

#[test]
fn the_import_needs_a_trusted_project() {
    let env = Env::new();
    env.write_user_config(USER_HOOKS);
    env.write(".wright/config.toml", PROJECT_HOOKS);
    env.write(".claude/settings.json", CLAUDE_SETTINGS);

    let out = hooks_list(&env, &["--json"]);
    let list = json(&out);
    // Neither the project's own hooks nor its Claude Code ones.
    assert_eq!(commands(&list), ["make test"]);
    let warnings: Vec<&str> = list["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert_eq!(warnings.len(), 1, "{list}");
    assert!(warnings[0].contains("not trusted"), "{list}");
    assert!(warnings[0].contains("wright trust"), "{list}");
    assert!(warnings[0].contains("--trust-project"), "{list}");
    assert!(warnings[0].contains(".claude/settings.json"), "{list}");

    let out = hooks_list(&env, &[]);
    assert!(!stdout(&out).contains("from-claude"), "{}", stdout(&out));
    assert!(stderr(&out).contains("not trusted"), "{}", stderr(&out));
}

#[test]
fn without_the_opt_in_claude_settings_are_not_read() {
    let env = Env::new();
    env.write(".claude/settings.json", CLAUDE_SETTINGS);
    let out = hooks_list(&env, &["--trust-project"]);
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    assert!(err.contains("no hooks configured (looked in "), "{err}");
    assert!(err.contains(".wright/config.toml"), "{err}");
    assert!(!err.contains(".claude"), "{err}");
    let list = json(&hooks_list(&env, &["--json", "--trust-project"]));
    assert_eq!(list, serde_json::json!({"hooks": [], "warnings": []}));
}

#[test]
fn a_bad_matcher_drops_that_hook_with_a_warning() {
    let env = Env::new();
    env.write_user_config(
        r#"
[[hooks.PreToolUse]]
matcher = "Edit("
hooks = [{ type = "command", command = "./never.sh" }]

[[hooks.PreToolUse]]
matcher = "Bash"
hooks = [{ type = "command", command = "./kept.sh" }]
"#,
    );
    let list = json(&hooks_list(&env, &["--json"]));
    assert_eq!(commands(&list), ["./kept.sh"]);
    let warning = list["warnings"][0].as_str().unwrap();
    assert!(warning.contains("./never.sh"), "{warning}");
    assert!(warning.contains("user config ("), "{warning}");
}

#[test]
fn a_session_starts_in_spite_of_a_broken_settings_file() {
    let env = Env::new();
    env.write_user_config("[hooks]\nimport_claude_settings = true\n");
    env.write(".claude/settings.json", "not json");
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("hello"))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .args(["--trust-project", "--output-format", "json"])
        .output()
        .unwrap();
    assert_clean(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("warning: "), "{err}");
    assert!(err.contains(".claude/settings.json"), "{err}");
    let result: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(result["result"], "hello");
    assert_eq!(
        result["verifier"],
        serde_json::json!({"runs": 0, "errors": 0})
    );
}
