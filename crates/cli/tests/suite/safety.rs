//! Safe by default, end to end: modes, rules, guards, approvals that are
//! remembered, and the OS sandbox for commands.

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::scenarios::tool_results;
use super::{Env, FAKE_KEY, stderr};

/// Runs one task in which the model asks for `list` once and then answers
/// "done"; returns the run, the tool results the model got back, and the
/// body of that second request.
fn one_round(
    env: &Env,
    list: &[(&str, &str, serde_json::Value)],
    args: &[&str],
) -> (std::process::Output, Vec<(String, String, bool)>, String) {
    let server = MockServer::start(vec![calls(list), done()]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(args)
        .output()
        .unwrap();
    let second = server.requests().get(1).cloned();
    let results = second
        .as_ref()
        .map(|r| tool_results("anthropic", r))
        .unwrap_or_default();
    (
        out,
        results,
        second.map(|r| r.body_text()).unwrap_or_default(),
    )
}

fn calls(list: &[(&str, &str, serde_json::Value)]) -> MockResponse {
    MockResponse::sse(anthropic::tool_calls(list))
}

fn done() -> MockResponse {
    MockResponse::sse(anthropic::text("done"))
}

#[test]
fn plan_mode_never_changes_a_file() {
    let env = Env::new();
    env.write("a.txt", "keep\n");
    let (out, results, _) = one_round(
        &env,
        &[
            (
                "c1",
                "Write",
                json!({"file_path": "a.txt", "content": "changed"}),
            ),
            (
                "c2",
                "Edit",
                json!({"file_path": "a.txt", "old_string": "keep", "new_string": "x"}),
            ),
            ("c3", "Bash", json!({"command": "touch made.txt"})),
            ("c4", "Bash", json!({"command": "ls"})),
            ("c5", "Read", json!({"file_path": "a.txt"})),
        ],
        &["--permission-mode", "plan"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(env.path("a.txt")).unwrap(),
        "keep\n"
    );
    assert!(!env.path("made.txt").exists());
    for r in &results[..3] {
        assert!(r.1.starts_with("Permission denied"), "{r:?}");
    }
    assert!(
        results[3].1.contains("a.txt"),
        "ls runs in plan mode: {:?}",
        results[3]
    );
    assert!(results[4].1.contains("keep"));
}

#[test]
fn allow_and_deny_rules_from_flags() {
    let env = Env::new();
    env.write("secret-notes.txt", "hidden\n");
    let (out, results, _) = one_round(
        &env,
        &[
            ("c1", "Bash", json!({"command": "touch allowed.txt"})),
            (
                "c2",
                "Bash",
                json!({"command": "touch allowed.txt && touch sneaky.txt"}),
            ),
            ("c3", "Read", json!({"file_path": "secret-notes.txt"})),
        ],
        &[
            "--allow",
            "Bash(touch allowed.txt)",
            "--deny",
            "Read(secret-*)",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(env.path("allowed.txt").exists());
    assert!(!env.path("sneaky.txt").exists());
    assert!(!results[0].2, "{:?}", results[0]);
    assert!(
        results[1].1.starts_with("Permission denied"),
        "{:?}",
        results[1]
    );
    assert!(
        results[2].1.starts_with("Permission denied"),
        "{:?}",
        results[2]
    );
}

#[test]
fn secrets_are_guarded_even_in_bypass() {
    let env = Env::new();
    env.write(".env", "API_KEY=hunter2\n");
    let (out, results, sent) = one_round(
        &env,
        &[
            ("c1", "Read", json!({"file_path": ".env"})),
            ("c2", "Bash", json!({"command": "cat .env"})),
        ],
        &["--permission-mode", "bypass"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let body = sent;
    assert!(!body.contains("hunter2"));
    assert!(
        results.iter().all(|r| r.1.starts_with("Blocked by guard")),
        "{results:?}"
    );
}

#[test]
fn bad_rules_are_usage_errors() {
    let env = Env::new();
    let out = env
        .wright_p("anthropic", "http://127.0.0.1:9", "x")
        .args(["--allow", "Bash(unclosed"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("rule"), "{}", stderr(&out));
}

/// "Always" saves the rule in `.wright/config.local.toml` but never trusts
/// the project: the next run ignores the rule (and says why at the time)
/// until the user runs `wright trust`.
#[test]
fn allow_always_for_the_project_is_saved_but_waits_for_trust() {
    let env = Env::new();
    let server = MockServer::start(vec![
        calls(&[("c1", "Bash", json!({"command": "touch first.txt"}))]),
        done(),
        calls(&[("c2", "Bash", json!({"command": "touch second.txt"}))]),
        done(),
        calls(&[("c3", "Bash", json!({"command": "touch second.txt"}))]),
        done(),
    ])
    .unwrap();
    let Some((_, shown)) = env.terminal_steps(
        &server.url(),
        "",
        &[("", "make the first file\n"), ("allow?", "3\n/exit\n")],
    ) else {
        return;
    };
    assert!(env.path("first.txt").exists(), "{shown}");
    let local = std::fs::read_to_string(env.path(".wright/config.local.toml")).unwrap();
    assert!(local.contains("Bash(touch"), "{local}");
    assert!(
        shown.contains("3 (always, in this project): saved, but later sessions ignore it"),
        "{shown}"
    );
    assert!(
        shown.contains("this project is not trusted, so later sessions ignore it")
            && shown.contains("wright trust"),
        "{shown}"
    );
    let user = env.home.path().join(".config/wright/config.toml");
    assert!(!user.exists(), "the answer trusted the project: {shown}");
    // A new, non-interactive run of the untrusted project ignores the rule.
    let out = env
        .wright_p("anthropic", &server.url(), "make the second file")
        .output()
        .unwrap();
    assert!(!env.path("second.txt").exists(), "{}", stderr(&out));
    // Trusted on its own, the project's saved rule applies.
    let trusted = env.wright().arg("trust").output().unwrap();
    assert!(trusted.status.success(), "{}", stderr(&trusted));
    let out = env
        .wright_p("anthropic", &server.url(), "make the second file")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(env.path("second.txt").exists(), "{}", stderr(&out));
}

/// A directory outside the workspace and outside every temp dir (which the
/// sandbox leaves writable): the target dir when the checkout is not under
/// /tmp (as CI's may be), else /var/tmp or the real HOME.
fn sibling_dir() -> Option<tempfile::TempDir> {
    let tmp = std::env::temp_dir().canonicalize().ok()?;
    let candidates = [
        Some(std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))),
        Some(std::path::PathBuf::from("/var/tmp")),
        std::env::var_os("HOME").map(std::path::PathBuf::from),
    ];
    candidates.into_iter().flatten().find_map(|dir| {
        std::fs::create_dir_all(&dir).ok()?;
        let dir = dir.canonicalize().ok()?;
        let inside =
            dir.starts_with(&tmp) || dir.starts_with("/tmp") || dir.starts_with("/dev/shm");
        if inside {
            return None;
        }
        tempfile::tempdir_in(&dir).ok()
    })
}

fn sandbox_available() -> bool {
    matches!(wright_sandbox::probe(), wright_sandbox::Support::Available)
}

#[test]
fn the_sandbox_blocks_writes_beside_the_workspace_and_network_until_full() {
    if !sandbox_available() {
        eprintln!("SKIPPED: the OS sandbox is unavailable on this kernel");
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let Some(sibling) = sibling_dir() else {
        eprintln!("SKIPPED: no writable directory outside the temp dir");
        return;
    };
    let target = sibling.path().join("escaped.txt");
    // The target is computed at run time, so the permission layer cannot
    // see it: this is the case the OS sandbox exists for.
    let command = format!(
        "touch inside.txt; D={}; touch \"$D/escaped.txt\"; T=/dev/tcp/127.0.0.1/{port}; (exec 3<>\"$T\") && echo CONNECTED",
        sibling.path().display()
    );
    for (mode, expect_escape) in [("workspace-write", false), ("full", true)] {
        let env = Env::new();
        let (out, results, _) = one_round(
            &env,
            &[("c1", "Bash", json!({"command": command}))],
            &["--permission-mode", "bypass", "--sandbox", mode],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let result = &results[0].1;
        assert!(env.path("inside.txt").exists(), "{mode}: {result}");
        assert_eq!(target.exists(), expect_escape, "{mode}");
        assert_eq!(
            result.contains("CONNECTED"),
            expect_escape,
            "{mode}: {result}"
        );
        if !expect_escape {
            assert!(result.contains("Blocked by sandbox"), "{result}");
        }
        let _ = std::fs::remove_file(&target);
    }
}

#[test]
fn the_agent_cannot_see_keys_grep_secrets_or_raise_its_own_permissions() {
    let env = Env::new();
    env.write(
        "deploy/id_rsa",
        "-----BEGIN OPENSSH PRIVATE KEY----- SECRET-KEY-BODY\n",
    );
    env.write("notes.txt", "SECRET-KEY-BODY is not here, just the words\n");
    let (out, results, sent) = one_round(
        &env,
        &[
            ("c1", "Bash", json!({"command": "env"})),
            (
                "c2",
                "Grep",
                json!({"pattern": "SECRET-KEY-BODY", "output_mode": "content"}),
            ),
            (
                "c3",
                "Write",
                json!({"file_path": ".wright/config.local.toml", "content": "[permissions]\nallow = [\"Bash\"]\n"}),
            ),
        ],
        &["--permission-mode", "bypass"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let body = sent;
    assert!(!body.contains(FAKE_KEY), "the key reached the model");
    assert!(
        results[1].1.contains("notes.txt") && !results[1].1.contains("id_rsa"),
        "{:?}",
        results[1]
    );
    assert!(
        results[2].1.starts_with("Blocked by guard"),
        "{:?}",
        results[2]
    );
    assert!(!env.path(".wright/config.local.toml").exists());
}

#[test]
fn auto_mode_runs_ordinary_commands_and_refuses_dangerous_ones_headless() {
    let env = Env::new();
    env.write("build/out.o", "x");
    let (out, results, _) = one_round(
        &env,
        &[
            ("c1", "Bash", json!({"command": "touch made.txt"})),
            ("c2", "Bash", json!({"command": "rm -r build"})),
        ],
        &["--permission-mode", "auto"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(env.path("made.txt").exists());
    assert!(env.path("build/out.o").exists());
    assert!(
        results[1].1.starts_with("Permission denied"),
        "{:?}",
        results[1]
    );
}

#[test]
fn a_webfetch_allow_rule_opens_the_network_for_commands() {
    if !sandbox_available() {
        eprintln!("SKIPPED: the OS sandbox is unavailable on this kernel");
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let command = format!("T=/dev/tcp/127.0.0.1/{port}; (exec 3<>\"$T\") && echo CONNECTED");
    let env = Env::new();
    let (out, results, _) = one_round(
        &env,
        &[("c1", "Bash", json!({"command": command}))],
        &[
            "--permission-mode",
            "bypass",
            "--allow",
            "WebFetch(domain:example.com)",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let result = &results[0].1;
    assert!(result.contains("CONNECTED"), "{result}");
}
