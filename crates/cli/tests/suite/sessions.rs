//! Sessions that lose nothing: resume, fork, kill -9, rewind, and the
//! `wright sessions` commands, end to end.

use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, FAKE_KEY, stderr, stdout};

fn text(t: &str) -> MockResponse {
    MockResponse::sse(anthropic::text(t))
}

fn session_files(env: &Env) -> Vec<std::path::PathBuf> {
    let root = env.home.path().join(".local/share/wright/sessions");
    let mut out = Vec::new();
    for project in std::fs::read_dir(root).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(project.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if f.path().extension().is_some_and(|e| e == "jsonl") {
                out.push(f.path());
            }
        }
    }
    out
}

fn list(env: &Env) -> Vec<Value> {
    let out = env
        .wright()
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str::<Value>(&stdout(&out))
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn continue_carries_the_whole_first_conversation() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[("call_1", "LS", json!({}))])),
        text("first answer"),
        text("second answer"),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "first question")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = env
        .wright_p("anthropic", &server.url(), "follow-up")
        .arg("--continue")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("second answer"));
    let requests = server.requests();
    // Cache breakpoints move to the newest turn; everything else is identical.
    let first = without_cache_control(requests[1].json()["messages"].clone());
    let third = without_cache_control(requests[2].json()["messages"].clone());
    let n = first.as_array().unwrap().len();
    // The resumed request starts with exactly what the model saw before.
    assert_eq!(
        third.as_array().unwrap()[..n],
        first.as_array().unwrap()[..]
    );
    assert!(third.to_string().contains("first answer") && third.to_string().contains("follow-up"));
    assert_eq!(session_files(&env).len(), 1);
    let sessions = list(&env);
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0]["title"], "first question");
    assert_eq!(sessions[0]["turns"], 2);
}

#[test]
fn resume_by_prefix_and_fork() {
    let env = Env::new();
    let server = MockServer::start(vec![text("one"), text("two"), text("three")]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "start")
        .args(["--output-format", "json"])
        .output()
        .unwrap();
    let id = serde_json::from_str::<Value>(&stdout(&out)).unwrap()["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let out = env
        .wright_p("anthropic", &server.url(), "again")
        .args(["--resume", &id[..24], "--output-format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        serde_json::from_str::<Value>(&stdout(&out)).unwrap()["session_id"],
        id.as_str()
    );
    let out = env
        .wright_p("anthropic", &server.url(), "branch")
        .args(["--resume", &id, "--fork-session", "--output-format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let forked = serde_json::from_str::<Value>(&stdout(&out)).unwrap()["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(forked, id);
    let third = server.requests()[2].json()["messages"].to_string();
    assert!(
        third.contains("start")
            && third.contains("one")
            && third.contains("again")
            && third.contains("two")
    );
    assert_eq!(list(&env).len(), 2);
    // The original is untouched by the fork.
    let out = env
        .wright()
        .args(["sessions", "export", &id, "--format", "markdown"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!stdout(&out).contains("branch"));
    let out = env
        .wright()
        .args(["sessions", "search", "branch", "--json"])
        .output()
        .unwrap();
    let hits: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(hits[0]["session"], forked.as_str());
    let out = env
        .wright()
        .args(["sessions", "rm", &forked])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(list(&env).len(), 1);
}

#[test]
fn unknown_session_is_a_clear_error() {
    let env = Env::new();
    let out = env
        .wright_p("anthropic", "http://127.0.0.1:9", "x")
        .args(["--resume", "nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = env
        .wright_p("anthropic", "http://127.0.0.1:9", "x")
        .arg("--continue")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--continue"), "{}", stderr(&out));
}

#[test]
fn kill_9_during_a_streaming_turn_then_continue_works() {
    let env = Env::new();
    let body = anthropic::text("a long answer that will never finish streaming");
    let cut = body.len() / 2;
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[("call_1", "LS", json!({}))])),
        MockResponse::sse(body).drop_after(cut).stall(),
        text("recovered"),
    ])
    .unwrap();
    let mut child = env
        .std_wright_p("anthropic", &server.url(), "start")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while server.requests().len() < 2 {
        assert!(Instant::now() < deadline, "second request never came");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "after the crash")
        .arg("--continue")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("recovered"));
    let messages = server.requests()[2].json()["messages"].clone();
    let text = messages.to_string();
    assert!(text.contains("start") && text.contains("after the crash"));
    // The ls call kept its result: the conversation is valid.
    assert!(text.contains("call_1") && text.contains("tool_result"));
}

#[test]
fn a_second_live_run_of_the_same_session_is_refused() {
    let env = Env::new();
    let server = MockServer::start(vec![
        text("first"),
        MockResponse::sse(anthropic::tool_calls(&[(
            "c",
            "Bash",
            json!({"command": "touch started && sleep 30"}),
        )])),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "one")
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut child = env
        .std_wright_p("anthropic", &server.url(), "two")
        .args(["--continue", "--permission-mode", "bypass"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !env.path("started").exists() {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(10));
    }
    let before = std::fs::read_to_string(&session_files(&env)[0]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "three")
        .arg("--continue")
        .output()
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("in use"), "{}", stderr(&out));
    let after = std::fs::read_to_string(&session_files(&env)[0]).unwrap();
    assert!(after.starts_with(&before) && !after.contains("three"));
}

#[test]
fn rewind_restores_files_and_the_conversation() {
    let env = Env::new();
    env.write("notes.txt", "original\n");
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "e1",
            "Edit",
            json!({"file_path": "notes.txt", "old_string": "original", "new_string": "changed"}),
        )])),
        text("edited"),
        MockResponse::sse(anthropic::tool_calls(&[(
            "w1",
            "Write",
            json!({"file_path": "new.txt", "content": "made"}),
        )])),
        text("written"),
        text("after rewind"),
    ])
    .unwrap();
    for prompt in ["edit it", "make a file"] {
        let mut cmd = env.wright_p("anthropic", &server.url(), prompt);
        cmd.args(["--permission-mode", "accept-edits"]);
        if prompt != "edit it" {
            cmd.arg("--continue");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(
        std::fs::read_to_string(env.path("notes.txt")).unwrap(),
        "changed\n"
    );
    assert!(env.path("new.txt").exists());
    let out = env.wright().args(["rewind", "--json"]).output().unwrap();
    let turns: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(turns["turns"].as_array().unwrap().len(), 2);
    // Without a terminal to ask on, the rewind shows what it would
    // overwrite and refuses until --yes.
    let out = env.wright().args(["rewind", "--to", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("notes.txt: overwritten"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("new.txt: deleted"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("pass --yes"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(env.path("notes.txt")).unwrap(),
        "changed\n"
    );
    let out = env
        .wright()
        .args(["rewind", "--to", "1", "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("not tracked"), "{}", stdout(&out));
    // The rewind left both prompts on an abandoned branch.
    let out = env
        .wright()
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    let list: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(list[0]["turns"], 0, "{list}");
    assert_eq!(
        std::fs::read_to_string(env.path("notes.txt")).unwrap(),
        "original\n"
    );
    assert!(!env.path("new.txt").exists());
    let out = env
        .wright_p("anthropic", &server.url(), "fresh start")
        .arg("--continue")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let messages = server.requests()[4].json()["messages"].to_string();
    assert!(
        !messages.contains("edit it") && messages.contains("fresh start"),
        "{messages}"
    );
}

#[test]
fn the_key_never_reaches_a_session_file() {
    let env = Env::new();
    let failure = MockResponse::json(
        500,
        json!({"error": {"message": format!("bad key {FAKE_KEY}")}}),
    );
    let server = MockServer::start(std::iter::repeat_n(failure, 5).collect()).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .args(["--output-format", "stream-json"])
        .output()
        .unwrap();
    super::assert_clean(&out);
    for file in session_files(&env) {
        assert!(!std::fs::read_to_string(file).unwrap().contains(FAKE_KEY));
    }
    for entry in walk(env.home.path()) {
        if let Ok(text) = std::fs::read_to_string(&entry) {
            assert!(!text.contains(FAKE_KEY), "{}", entry.display());
        }
    }
}

fn without_cache_control(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            map.remove("cache_control");
            for v in map.values_mut() {
                *v = without_cache_control(v.take());
            }
        }
        Value::Array(items) => {
            for v in items.iter_mut() {
                *v = without_cache_control(v.take());
            }
        }
        _ => {}
    }
    value
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// A session recorded before the tools took Claude Code's names resumes,
/// and the model is shown its old calls under today's names and arguments.
#[test]
fn a_session_recorded_with_the_old_tool_names_resumes_under_the_new_ones() {
    let env = Env::new();
    env.write("a.txt", "alpha\n");
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[
            ("call_1", "Read", json!({"file_path": "a.txt"})),
            (
                "call_2",
                "Bash",
                json!({"command": "echo hi", "timeout": 5000}),
            ),
        ])),
        text("first answer"),
        text("second answer"),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "first question")
        .args(["--permission-mode", "bypass"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // Rewrite the recorded calls the way an older wright wrote them.
    let file = &session_files(&env)[0];
    let old = std::fs::read_to_string(file)
        .unwrap()
        .replace(r#""name":"Read""#, r#""name":"read""#)
        .replace(r#""name":"Bash""#, r#""name":"bash""#)
        .replace(r#"\"file_path\""#, r#"\"path\""#)
        .replace(r#"\"timeout\":5000"#, r#"\"timeout_secs\":5"#);
    assert!(old.contains(r#""name":"read""#), "{old}");
    std::fs::write(file, old).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "follow-up")
        .arg("--continue")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("second answer"));
    let sent = server.requests()[2].json()["messages"].clone();
    let calls: Vec<&serde_json::Value> = sent
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["content"].as_array().into_iter().flatten())
        .filter(|b| b["type"] == "tool_use")
        .collect();
    assert_eq!(calls.len(), 2, "{sent}");
    assert_eq!(calls[0]["name"], "Read");
    assert_eq!(calls[0]["input"], json!({"file_path": "a.txt"}));
    assert_eq!(calls[1]["name"], "Bash");
    assert_eq!(
        calls[1]["input"],
        json!({"command": "echo hi", "timeout": 5000})
    );
}

/// A report command whose reader goes away (`| head`) ends quietly, as a
/// Unix tool does, instead of panicking in its next write.
#[test]
fn report_commands_end_quietly_when_the_reader_goes_away() {
    let env = Env::new();
    for args in [
        &["models"][..],
        &["sessions", "list"],
        &["agents", "list"],
        &["doctor"],
    ] {
        let mut child = env
            .std_wright()
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
