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
    let out = env
        .wright()
        .args(["-p", "hi"])
        .env("ANTHROPIC_API_KEY", super::FAKE_KEY)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("configured"));
    assert_eq!(server.requests()[0].json()["model"], "claude-test");
}
