//! What a new user meets first: `wright init`'s starters, short session
//! ids that stay unique, what `--continue` says it resumed, and
//! `wright compact` without a session.

use serde_json::Value;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, stderr, stdout};

#[test]
fn init_ignores_the_local_config_once_and_fills_agents_md() {
    let env = Env::new();
    env.write("Cargo.toml", "[package]\nname = \"demo\"\n");
    env.write(".gitignore", "target");
    let out = env.wright().arg("init").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = env.wright().arg("init").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(env.path(".gitignore")).unwrap(),
        "target\n.wright/config.local.toml\n"
    );
    let agents = std::fs::read_to_string(env.path("AGENTS.md")).unwrap();
    assert!(agents.contains("- Test: `cargo test`"), "{agents}");
    assert!(agents.contains("<!--"), "{agents}");
    // The placeholders are comments the model never sees.
    let out = env.wright().arg("context").output().unwrap();
    let shown = stdout(&out);
    assert!(shown.contains("cargo test"), "{shown}");
    assert!(
        !shown.contains("<!--") && !shown.contains("Comments like this"),
        "{shown}"
    );

    // No .gitignore yet: one is made.
    let env = Env::new();
    let out = env.wright().arg("init").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(env.path(".gitignore")).unwrap(),
        ".wright/config.local.toml\n"
    );
}

#[test]
fn compact_without_a_session_says_so() {
    let env = Env::new();
    let out = env
        .anthropic("http://127.0.0.1:9")
        .arg("compact")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no session to compact"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn short_ids_are_unique_and_continue_says_what_it_resumed() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::text("first answer")),
        MockResponse::sse(anthropic::text("second answer")),
        MockResponse::sse(anthropic::text("ANSWER-TO-SECOND-PROMPT")),
        MockResponse::sse(anthropic::text("resumed answer")),
        MockResponse::sse(anthropic::text("json answer")),
    ])
    .unwrap();
    for prompt in ["one session", "another session"] {
        let out = env
            .wright_p("anthropic", &server.url(), prompt)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let out = env
        .wright_p("anthropic", &server.url(), "SECOND-PROMPT")
        .arg("--continue")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));

    // Two sessions made within the same second share their UUIDv7 time
    // prefix; the ids shown still differ and each resolves.
    let out = env.wright().args(["sessions", "list"]).output().unwrap();
    let shown: Vec<String> = stdout(&out)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect();
    assert_eq!(shown.len(), 2, "{}", stdout(&out));
    assert_ne!(shown[0], shown[1]);
    let out = env
        .wright()
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    let list: Value = serde_json::from_str(&stdout(&out)).unwrap();
    for (short, row) in shown.iter().zip(list.as_array().unwrap()) {
        assert!(short.len() >= 8, "{short}");
        assert!(row["id"].as_str().unwrap().starts_with(short.as_str()));
        let out = env
            .wright()
            .args(["sessions", "show", short])
            .output()
            .unwrap();
        assert!(out.status.success(), "{short}: {}", stderr(&out));
    }
    // The continued session counts both its prompts.
    assert_eq!(list[0]["turns"], 2, "{list}");

    let out = env
        .wright_p("anthropic", &server.url(), "and now")
        .arg("--continue")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("resumed session {}", shown[0])),
        "{err}"
    );
    assert!(err.contains("another session"), "first prompt: {err}");
    assert!(err.contains("> SECOND-PROMPT"), "last prompt: {err}");
    assert!(
        err.contains("ANSWER-TO-SECOND-PROMPT"),
        "last answer: {err}"
    );
    assert!(
        !stdout(&out).contains("resumed session"),
        "{}",
        stdout(&out)
    );

    // Not in json output's stdout either.
    let out = env
        .wright_p("anthropic", &server.url(), "json please")
        .args(["--continue", "--output-format", "json"])
        .output()
        .unwrap();
    assert!(
        !stdout(&out).contains("resumed session"),
        "{}",
        stdout(&out)
    );
}

/// Everything in `dir`, relative, sorted (`.git` left out).
fn tree(dir: &std::path::Path) -> Vec<String> {
    fn walk(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            if rel == ".git" {
                continue;
            }
            out.push(rel);
            if path.is_dir() && !path.is_symlink() {
                walk(root, &path, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// `doctor` and a first command write nothing into the repository (no
/// empty `.wright/` or `.claude/` for the sandbox's mount points).
#[test]
fn doctor_and_a_first_command_leave_the_repository_as_it_was() {
    let env = Env::new();
    env.write(".git/HEAD", "ref: refs/heads/main\n");
    env.write("src/main.rs", "fn main() {}\n");
    let before = tree(env.project.path());
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "b1",
            "Bash",
            serde_json::json!({"command": "ls src; echo listed"}),
        )])),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let _ = env.anthropic(&server.url()).arg("doctor").output().unwrap();
    assert_eq!(tree(env.project.path()), before, "after doctor");
    let out = env
        .wright_p("anthropic", &server.url(), "list the sources")
        .args(["--permission-mode", "bypass"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", super::stderr(&out));
    assert_eq!(tree(env.project.path()), before, "after a command");
}
