//! Explicit context end to end: `wright context`, configured instruction
//! files, skills disclosed on demand, memory commands, and compaction
//! against the mock with a tiny window.

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, MockUsage, anthropic};

use super::{Env, stderr, stdout};

#[test]
fn context_shows_agents_md_with_its_path_and_user_files_only_when_configured() {
    let env = Env::new();
    env.write(".git/HEAD", "ref: refs/heads/main\n");
    env.write("AGENTS.md", "Use tabs. MARK-AGENTS");
    let user_file = env.home.path().join(".config/wright/AGENTS.md");
    std::fs::create_dir_all(user_file.parent().unwrap()).unwrap();
    std::fs::write(&user_file, "USER-LEVEL-RULES").unwrap();
    let out = env.wright().args(["context"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("MARK-AGENTS"), "{text}");
    assert!(text.contains(&env.path("AGENTS.md").display().to_string()));
    assert!(!text.contains("USER-LEVEL-RULES"));
    // A project's config may not pull in files from outside it...
    let setting = format!(
        "[context]\nuser_instruction_files = [\"{}\"]\n",
        user_file.display()
    );
    env.write(".wright/config.toml", &setting);
    let out = env.wright().args(["context"]).output().unwrap();
    assert!(!stdout(&out).contains("USER-LEVEL-RULES"));
    assert!(
        stderr(&out).contains("ignoring context.user_instruction_files"),
        "{}",
        stderr(&out)
    );
    // ...the user's own config may.
    std::fs::remove_file(env.path(".wright/config.toml")).unwrap();
    std::fs::write(user_file.with_file_name("config.toml"), &setting).unwrap();
    let out = env.wright().args(["context", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let all = report.to_string();
    assert!(all.contains("USER-LEVEL-RULES") && all.contains("MARK-AGENTS"));
}

#[test]
fn a_skill_is_listed_and_its_body_sent_only_after_it_is_read() {
    let env = Env::new();
    env.write(
        ".wright/skills/release/SKILL.md",
        "---\nname: release\ndescription: How to cut a release of this project\n---\nSECRET-STEPS: bump, tag, push\n",
    );
    env.write(".wright/skills/broken/SKILL.md", "no frontmatter here\n");
    let out = env
        .wright()
        .args(["skills", "list", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let skills: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(skills.as_array().unwrap().len(), 1);
    assert_eq!(skills[0]["name"], "release");
    assert!(stderr(&out).contains("broken"), "{}", stderr(&out));
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Read",
            json!({"file_path": ".wright/skills/release/SKILL.md"}),
        )])),
        MockResponse::sse(anthropic::text("released")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "cut a release")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let first = server.requests()[0].body_text();
    assert!(first.contains("How to cut a release") && !first.contains("SECRET-STEPS"));
    assert!(server.requests()[1].body_text().contains("SECRET-STEPS"));
}

#[test]
fn memory_notes_crud() {
    let env = Env::new();
    let out = env
        .wright()
        .args([
            "memory",
            "add",
            "style",
            "--description",
            "Code style the user wants",
            "--type",
            "feedback",
            "--body",
            "Prefer small functions.",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = env
        .wright()
        .args(["memory", "list", "--json"])
        .output()
        .unwrap();
    let notes: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(notes[0]["name"], "style");
    let out = env
        .wright()
        .args(["memory", "show", "style"])
        .output()
        .unwrap();
    assert!(stdout(&out).contains("Prefer small functions."));
    let out = env.wright().args(["context"]).output().unwrap();
    assert!(stdout(&out).contains("Code style the user wants"));
    let out = env
        .wright()
        .args(["memory", "rm", "style"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = env
        .wright()
        .args(["memory", "show", "style"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_long_session_compacts_against_the_mock_and_completes() {
    let env = Env::new();
    env.write_user_config(
        "[models.\"tiny\"]\ncontext_window = 6000\nmax_output = 500\n[context]\nkeep_recent_tokens = 1000\n",
    );
    let chatter = "working through the steps carefully ".repeat(100);
    let mut script = Vec::new();
    // The mock reports no usage, so wright estimates from the text (a
    // fixed fake usage would hide the conversation's growth).
    let no_usage = MockUsage {
        input_tokens: 0,
        output_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
    };
    for i in 0..12 {
        script.push(MockResponse::sse(
            anthropic::StreamBuilder::new()
                .usage(no_usage)
                .text(&chatter)
                .tool_call(&format!("c{i}"), "LS", &json!({}))
                .build(),
        ));
    }
    // Summaries and the final answer: the mock cannot tell them apart, so
    // every remaining reply is text.
    for _ in 0..6 {
        script.push(MockResponse::sse(anthropic::text(
            "## Goal\nsummary of the work so far",
        )));
    }
    let server = MockServer::start(script).unwrap();
    let out = env
        .wright()
        .args([
            "-p",
            "do the long task",
            "--provider",
            "anthropic",
            "--model",
            "tiny",
            "--base-url",
            &server.url(),
            "--output-format",
            "stream-json",
        ])
        .env("ANTHROPIC_API_KEY", super::FAKE_KEY)
        .output()
        .unwrap();
    let lines: Vec<Value> = super::ndjson(&out);
    let boundaries = lines
        .iter()
        .filter(|l| l["subtype"] == "compact_boundary")
        .count();
    assert!(boundaries >= 1, "{}", stdout(&out));
    let requests = server.requests();
    let summary_request = requests
        .iter()
        .find(|r| r.json().get("tools").is_none())
        .expect("a summary request");
    assert!(summary_request.body_text().contains("Goal"));
    assert_eq!(lines.last().unwrap()["type"], "result");
}

#[test]
fn wright_compact_summarizes_the_latest_session_and_remember_saves_notes() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "m1",
            "remember",
            json!({"name": "tabs", "description": "User wants tabs", "type": "feedback", "body": "Indent with tabs."}),
        )])),
        MockResponse::sse(anthropic::text("noted")),
        MockResponse::sse(anthropic::text("## Goal\nremember tabs")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "remember that I like tabs")
        .args(["--permission-mode", "accept-edits"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = env
        .wright()
        .args(["memory", "list", "--json"])
        .output()
        .unwrap();
    let notes: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(notes[0]["name"], "tabs");
    let out = env
        .anthropic(&server.url())
        .args(["compact", "--focus", "preferences"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("compacted the conversation (manual)"),
        "{}",
        stderr(&out)
    );
    let summary_request = server.requests()[2].body_text();
    assert!(
        summary_request.contains("preferences")
            && summary_request.contains("remember that I like tabs")
    );
}

/// `wright context` counts the tools a request carries: `Task` and the
/// question tool too; in plan mode the plan tool and no edit tools.
#[test]
fn context_counts_exactly_the_tools_a_request_carries() {
    let env = Env::new();
    let names = |out: &std::process::Output| -> Vec<String> {
        let report: serde_json::Value = serde_json::from_str(stdout(out).trim()).unwrap();
        report["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let out = env.wright().args(["context", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let tools = names(&out);
    for want in ["Read", "Edit", "Bash", "Task", "AskUserQuestion"] {
        assert!(tools.iter().any(|t| t == want), "{want}: {tools:?}");
    }
    assert!(!tools.iter().any(|t| t == "ExitPlanMode"), "{tools:?}");
    env.write_user_config("permission_mode = \"plan\"\n");
    let out = env.wright().args(["context", "--json"]).output().unwrap();
    let tools = names(&out);
    assert!(tools.iter().any(|t| t == "ExitPlanMode"), "{tools:?}");
    assert!(
        !tools.iter().any(|t| t == "Edit" || t == "Write"),
        "{tools:?}"
    );
}
