//! `wright config` and configuration errors as the user sees them.

use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, stderr, stdout};

#[test]
fn config_show_names_the_source_of_each_value() {
    let env = Env::new();
    env.write(
        ".wright/config.toml",
        "model = \"from-project\"\nmax_turns = 7\n",
    );
    let out = env
        .wright()
        .args(["config", "show", "--permission-mode", "plan"])
        .env("WRIGHT_MAX_TURNS", "9")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = |key: &str| {
        text.lines()
            .find(|l| l.trim_start_matches("# ").starts_with(&format!("{key} ")))
            .unwrap_or_else(|| panic!("no {key} in {text}"))
            .to_owned()
    };
    assert!(line("model").contains("from-project") && line("model").contains("config.toml"));
    assert!(line("max_turns").contains('9') && line("max_turns").contains("WRIGHT_MAX_TURNS"));
    assert!(
        line("permission_mode").contains("plan")
            && line("permission_mode").contains("--permission-mode")
    );
}

/// The values a run uses for unset keys are shown with their source: the
/// provider a key implies, the default base URL and model, the catalog's
/// output limit; JSON likewise. `doctor` lists the same values.
#[test]
fn config_show_and_doctor_show_the_values_used_with_default_sources() {
    let env = Env::new();
    let out = env
        .wright()
        .args(["config", "show"])
        .env("ANTHROPIC_API_KEY", super::FAKE_KEY)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for line in [
        "provider = \"anthropic\"  # env ANTHROPIC_API_KEY",
        "base_url = \"https://api.anthropic.com\"  # default",
        "model = \"claude-sonnet-4-5\"  # default",
        "max_tokens = 8192  # default",
        "permission_mode = \"default\"  # default",
        "sandbox.mode = \"workspace-write\"  # default",
        "context.keep_recent_tokens = 20000  # default",
    ] {
        assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
    }
    assert!(!text.contains(super::FAKE_KEY));
    // A flag still wins, and names itself.
    let out = env
        .wright()
        .args(["config", "show", "--json", "--model", "gpt-x"])
        .args(["--base-url", "http://127.0.0.1:9/v1"])
        .env("OPENAI_API_KEY", super::FAKE_KEY)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let entries: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let entry = |key: &str| {
        entries
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["key"] == key)
            .unwrap()
            .clone()
    };
    assert_eq!(entry("provider")["value"], "openai-chat");
    assert_eq!(entry("provider")["source"]["name"], "OPENAI_API_KEY");
    assert_eq!(entry("model")["value"], "gpt-x");
    assert_eq!(entry("model")["source"]["name"], "--model");
    assert_eq!(entry("base_url")["source"]["kind"], "flag");
    assert_eq!(entry("max_turns")["source"]["kind"], "default");
    // Without a key or URL, only a probe can tell: not set.
    let out = env.wright().args(["config", "show"]).output().unwrap();
    assert!(
        stdout(&out).contains("# provider  (not set)"),
        "{}",
        stdout(&out)
    );
    // doctor: the same values and sources (its provider check fails here:
    // nothing listens on the default URL in tests, which is fine).
    let out = env
        .wright()
        .args([
            "doctor",
            "--base-url",
            "http://127.0.0.1:9",
            "--provider",
            "anthropic",
        ])
        .env("ANTHROPIC_API_KEY", super::FAKE_KEY)
        .output()
        .unwrap();
    let text = stdout(&out);
    for part in [
        "provider = \"anthropic\" (flag --provider)",
        "base_url = \"http://127.0.0.1:9\" (flag --base-url)",
        "model = \"claude-sonnet-4-5\" (default)",
        "max_turns = 50 (default)",
        "sandbox.mode = \"workspace-write\" (default)",
    ] {
        assert!(text.contains(part), "no `{part}` in\n{text}");
    }
    assert!(!text.contains(super::FAKE_KEY));
}

#[test]
fn a_bad_config_file_names_file_line_and_key() {
    let env = Env::new();
    env.write(".wright/config.toml", "model = \"x\"\nmodle = \"typo\"\n");
    let out = env.wright().args(["-p", "hi"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("config.toml") && err.contains(":2") && err.contains("modle"),
        "{err}"
    );
}

#[test]
fn project_config_selects_the_provider() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("configured"))]).unwrap();
    env.write(
        ".wright/config.toml",
        &format!(
            "provider = \"anthropic\"\nbase_url = \"{}\"\nmodel = \"claude-test\"\n",
            server.url()
        ),
    );
    // provider and base_url from a project apply once it is trusted.
    let out = env
        .wright()
        .args(["-p", "hi", "--trust-project"])
        .env("ANTHROPIC_API_KEY", super::FAKE_KEY)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("configured"));
    assert_eq!(server.requests()[0].json()["model"], "claude-test");
}

#[test]
fn json_forms_of_config_show_and_path() {
    let env = Env::new();
    env.write(".wright/config.toml", "max_turns = 7\n");
    let out = env
        .wright()
        .args(["config", "show", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let entries: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let turns = entries
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["key"] == "max_turns")
        .unwrap();
    assert_eq!(turns["value"], 7);
    assert_eq!(turns["source"]["kind"], "file");
    let out = env
        .wright()
        .args(["config", "path", "--json"])
        .output()
        .unwrap();
    let files: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(
        files
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["exists"] == true)
    );
}

#[test]
fn validate_names_a_bad_permission_rule_and_its_file() {
    let env = Env::new();
    env.write(
        ".wright/config.toml",
        "[permissions]\nallow = [\"Bash(((\"]\n",
    );
    let out = env.wright().args(["config", "validate"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("Bash(((") && text.contains("config.toml"),
        "{text}"
    );
}

#[test]
fn a_bad_base_url_is_a_usage_error() {
    let env = Env::new();
    let out = env
        .wright()
        .args([
            "-p",
            "hi",
            "--provider",
            "openai-chat",
            "--base-url",
            "http://[::1",
            "--model",
            "m",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("invalid base URL"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn init_writes_starters_once_and_config_edit_checks_the_result() {
    let env = Env::new();
    let out = env.wright().arg("init").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(env.path("AGENTS.md").exists() && env.path(".wright/config.toml").exists());
    std::fs::write(env.path("AGENTS.md"), "mine").unwrap();
    let out = env.wright().arg("init").output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_to_string(env.path("AGENTS.md")).unwrap(),
        "mine"
    );
    // The starter config is valid as written.
    let out = env.wright().args(["config", "validate"]).output().unwrap();
    assert!(out.status.success(), "{}", stdout(&out));
    let out = env
        .wright()
        .args(["config", "edit"])
        // An "editor" that puts a top-level key first.
        .env(
            "EDITOR",
            r#"sh -c 'printf "max_turns = 5\n" | cat - "$0" > "$0.new" && mv "$0.new" "$0"'"#,
        )
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = env.wright().args(["config", "show"]).output().unwrap();
    assert!(stdout(&out).contains("max_turns = 5"));
    let out = env
        .wright()
        .args(["config", "edit"])
        .env(
            "EDITOR",
            r#"sh -c 'printf "max_turns = \"x\"\n" | cat - "$0" > "$0.new" && mv "$0.new" "$0"'"#,
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("config.toml"), "{}", stderr(&out));
}

/// A system prompt file that is a FIFO, a device or huge is refused at
/// once with exit code 2, from the flag and from the environment.
#[cfg(unix)]
#[test]
fn special_or_huge_system_prompt_files_are_refused_quickly() {
    let env = Env::new();
    let fifo = env.path("fifo.md");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    env.write("big.md", &"a".repeat(3 * 1024 * 1024));
    let mut cases = vec![
        ("--system-prompt-file", "/dev/zero"),
        ("--system-prompt-file", "big.md"),
    ];
    if made {
        cases.push(("--system-prompt-file", "fifo.md"));
    }
    for (flag, file) in cases {
        let started = std::time::Instant::now();
        let out = env
            .wright_p("anthropic", "http://127.0.0.1:9", "go")
            .args([flag, file])
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{file}: {}",
            super::stderr(&out)
        );
        assert!(started.elapsed().as_secs() < 10, "{file} took too long");
        assert!(
            super::stderr(&out).contains("cannot read the system prompt file"),
            "{}",
            super::stderr(&out)
        );
    }
    let out = env
        .wright_p("anthropic", "http://127.0.0.1:9", "go")
        .env("WRIGHT_SYSTEM_PROMPT_FILE", "/dev/zero")
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", super::stderr(&out));
}
