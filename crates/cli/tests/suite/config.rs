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
