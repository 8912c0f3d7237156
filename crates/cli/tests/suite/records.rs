//! Secrets and records, end to end through the real binary: errors that
//! arrive inside a stream never show a key anywhere, session/blob/spill
//! files are private, a kill between tool calls keeps every finished
//! result, and damaged session files still resume with their history.

#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use wright_test_support::session_damage::{DAMAGES, damaged};
use wright_test_support::{MockResponse, MockServer, anthropic, openai_chat, openai_responses};

use super::scenarios::{PROVIDERS, text};
use super::{Env, stderr, stdout};

/// Anthropic-shaped fake key (not a real one).
const ANT_KEY: &str = "sk-ant-api03-FAKEfakeFAKE0123456789-abcdefXYZ_fake";
/// OpenAI-project-shaped fake key (not a real one).
const PROJ_KEY: &str = "sk-proj-FAKEfake0123456789abcdefFAKEfake";
/// The configured key: nothing about it looks like a key, so only knowing
/// the configured bytes can hide it.
const CONFIGURED_KEY: &str = "Zq7plainConfiguredSecretValueXy";

fn data_dir(env: &Env) -> PathBuf {
    env.home.path().join(".local/share/wright")
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Every directory under `dir`, `dir` included when it exists.
#[cfg(unix)]
fn dirs_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if dir.is_dir() {
        out.push(dir.to_path_buf());
    }
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(dirs_under(&path));
        }
    }
    out
}

fn session_files(env: &Env) -> Vec<PathBuf> {
    files_under(&data_dir(env).join("sessions"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect()
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// The in-stream error shapes of each provider, with `key` inside the
/// server's text; each shape puts it somewhere else.
fn error_streams(provider: &str, key: &str) -> Vec<(String, String)> {
    let shapes: Vec<(&str, String)> = match provider {
        "anthropic" => vec![
            (
                "message",
                anthropic::error_event(
                    "authentication_error",
                    &format!("invalid x-api-key: {key}"),
                ),
            ),
            (
                "type",
                anthropic::error_event(key, &format!("Authorization: Bearer {key} rejected")),
            ),
            (
                "after text",
                anthropic::StreamBuilder::new()
                    .text("partial answer")
                    .error("api_error", &format!("upstream said {key}"))
                    .build(),
            ),
        ],
        "openai-chat" => vec![
            (
                "object",
                openai_chat::error_chunk(&format!("Incorrect API key provided: {key}")),
            ),
            (
                "string",
                openai_chat::raw_error_chunk(&json!({"error": format!("bad key {key}")})),
            ),
            (
                "code",
                openai_chat::raw_error_chunk(
                    &json!({"error": {"message": format!("{key} expired"), "code": key}}),
                ),
            ),
        ],
        _ => vec![
            (
                "error",
                openai_responses::error_event("invalid_api_key", &format!("api_key={key}")),
            ),
            (
                "nested",
                openai_responses::raw_event(
                    "error",
                    &json!({"type": "error", "error": {"code": key, "message": format!("no {key}")}}),
                ),
            ),
            (
                "failed",
                openai_responses::failed("server_error", &format!("x-api-key: {key} failed")),
            ),
        ],
    };
    shapes
        .into_iter()
        .map(|(name, body)| (name.to_owned(), body))
        .collect()
}

/// Provider × in-stream error shape × key kind × output format: the key
/// bytes appear in no output and no file wright wrote.
#[test]
fn keys_in_stream_errors_never_leak() {
    let mut checked = 0;
    for provider in PROVIDERS {
        for key in [ANT_KEY, PROJ_KEY, CONFIGURED_KEY] {
            for (shape, body) in error_streams(provider, key) {
                for format in ["text", "stream-json"] {
                    let env = Env::new();
                    let server = MockServer::start(vec![MockResponse::sse(body.clone())]).unwrap();
                    let var = super::key_var(provider);
                    let out = env
                        .wright_p(provider, &server.url(), "hi")
                        .env(var, CONFIGURED_KEY)
                        .args(["--output-format", format])
                        .output()
                        .unwrap();
                    let case = format!("{provider}/{shape}/{format}/{}", &key[..8]);
                    assert_eq!(server.requests().len(), 1, "{case}");
                    assert_eq!(out.status.code(), Some(1), "{case}: {}", stderr(&out));
                    let (o, e) = (stdout(&out), stderr(&out));
                    assert!(!e.contains("panicked"), "{case}: {e}");
                    assert!(!o.contains(key), "{case}: key on stdout: {o}");
                    assert!(!e.contains(key), "{case}: key on stderr: {e}");
                    for file in files_under(&data_dir(&env)) {
                        let bytes = std::fs::read(&file).unwrap();
                        assert!(
                            !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
                            "{case}: key in {}",
                            file.display()
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 3 * 3 * 3 * 2);
}

/// A model server that sends the configured key back as answer text (the
/// mock splits text into deltas at odd places, so the key arrives in
/// pieces): the key bytes reach neither stdout, stream-json nor the
/// session file, in their place is `[REDACTED]`.
#[test]
fn a_key_echoed_as_answer_text_never_leaks() {
    for provider in PROVIDERS {
        for format in ["text", "stream-json"] {
            let env = Env::new();
            let answer = format!("here: {CONFIGURED_KEY} done");
            let mut responses = vec![text(provider, &answer)];
            if provider == "anthropic" {
                responses = vec![MockResponse::sse(anthropic::thinking_then_text(
                    &format!("thinking {CONFIGURED_KEY}"),
                    "sig",
                    &answer,
                ))];
            }
            let server = MockServer::start(responses).unwrap();
            let var = super::key_var(provider);
            let out = env
                .wright_p(provider, &server.url(), "hi")
                .env(var, CONFIGURED_KEY)
                .args(["--output-format", format])
                .output()
                .unwrap();
            let case = format!("{provider}/{format}");
            assert_eq!(out.status.code(), Some(0), "{case}: {}", stderr(&out));
            let (o, e) = (stdout(&out), stderr(&out));
            assert!(!o.contains(CONFIGURED_KEY), "{case}: key on stdout: {o}");
            assert!(!e.contains(CONFIGURED_KEY), "{case}: key on stderr: {e}");
            assert!(o.contains("[REDACTED]"), "{case}: {o}");
            let sessions = session_files(&env);
            assert_eq!(sessions.len(), 1, "{case}");
            for file in files_under(&data_dir(&env)) {
                let bytes = std::fs::read(&file).unwrap();
                assert!(
                    !bytes
                        .windows(CONFIGURED_KEY.len())
                        .any(|w| w == CONFIGURED_KEY.as_bytes()),
                    "{case}: key in {}",
                    file.display()
                );
            }
            let session = std::fs::read_to_string(&sessions[0]).unwrap();
            assert!(
                session.contains("here: [REDACTED] done"),
                "{case}: {session}"
            );
        }
    }
}

#[cfg(unix)]
/// After a run that records a session, a checkpoint blob and a spilled
/// command output, every file is 0600 and every directory 0700, even a
/// sessions directory that existed with looser modes.
#[test]
fn session_blob_and_spill_files_are_private() {
    let env = Env::new();
    env.write("notes.txt", "before\n");
    // A sessions directory someone created world-readable.
    let sessions = data_dir(&env).join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    std::fs::set_permissions(&sessions, std::fs::Permissions::from_mode(0o755)).unwrap();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[
            (
                "c1",
                "Write",
                json!({"file_path": "notes.txt", "content": "after\n"}),
            ),
            ("c2", "Bash", json!({"command": "seq 1 100000"})),
        ])),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(["--permission-mode", "bypass"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(env.path("notes.txt")).unwrap(),
        "after\n"
    );
    let spill = data_dir(&env).join("spill");
    let files: Vec<PathBuf> = files_under(&sessions)
        .into_iter()
        .chain(files_under(&spill))
        .collect();
    assert!(
        files
            .iter()
            .any(|f| f.extension().is_some_and(|e| e == "jsonl")),
        "no session file"
    );
    assert!(
        files.iter().any(|f| f
            .parent()
            .is_some_and(|p| p.extension().is_some_and(|e| e == "blobs"))),
        "no blob: {files:?}"
    );
    assert!(
        files.iter().any(|f| f.starts_with(&spill)),
        "no spill file: {files:?}"
    );
    for file in &files {
        assert_eq!(mode(file), 0o600, "{}", file.display());
    }
    let dirs: Vec<PathBuf> = dirs_under(&sessions)
        .into_iter()
        .chain(dirs_under(&spill))
        .collect();
    assert!(dirs.len() >= 4, "{dirs:?}");
    for dir in &dirs {
        assert_eq!(mode(dir), 0o700, "{}", dir.display());
    }
}

/// The tool results recorded in a session file: `(call_id, content)`.
fn recorded_results(file: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v["type"] != "message" {
            continue;
        }
        for block in v["message"]["content"].as_array().into_iter().flatten() {
            if block["type"] == "tool_result" {
                out.push((
                    block["call_id"].as_str().unwrap_or_default().to_owned(),
                    block["content"].as_str().unwrap_or_default().to_owned(),
                ));
            }
        }
    }
    out
}

/// SIGKILL while the 5th of 5 calls runs: the first 4 results are in the
/// session file, and `--continue` resumes with all 5 calls answered.
#[test]
fn a_kill_during_the_last_call_keeps_the_finished_results() {
    let env = Env::new();
    let mut calls: Vec<(String, Value)> = (1..=4)
        .map(|n| {
            (
                format!("call_{n}"),
                json!({"command": format!("echo result-{n}")}),
            )
        })
        .collect();
    // Waits for a file the test creates, so it never outlives the test.
    calls.push((
        "call_5".to_owned(),
        json!({"command": "touch started5; until test -e stop5; do sleep 0.05; done"}),
    ));
    let refs: Vec<(&str, &str, Value)> = calls
        .iter()
        .map(|(id, args)| (id.as_str(), "Bash", args.clone()))
        .collect();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&refs)),
        MockResponse::sse(anthropic::text("resumed fine")),
    ])
    .unwrap();
    let mut child = env
        .std_wright_p("anthropic", &server.url(), "five calls")
        .args(["--permission-mode", "bypass"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !env.path("started5").exists() {
        assert!(Instant::now() < deadline, "the 5th call never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    std::fs::write(env.path("stop5"), "").unwrap();
    let files = session_files(&env);
    assert_eq!(files.len(), 1);
    let results = recorded_results(&files[0]);
    let ids: Vec<&str> = results.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(ids, ["call_1", "call_2", "call_3", "call_4"], "{results:?}");
    for (n, (_, content)) in results.iter().enumerate() {
        assert!(content.contains(&format!("result-{}", n + 1)), "{content}");
    }
    let out = env
        .wright_p("anthropic", &server.url(), "after the kill")
        .arg("--continue")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("resumed fine"));
    let sent = server.requests()[1].json()["messages"].clone();
    let results: Vec<&Value> = sent
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["content"].as_array().into_iter().flatten())
        .filter(|b| b["type"] == "tool_result")
        .collect();
    let ids: Vec<&str> = results
        .iter()
        .map(|b| b["tool_use_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["call_1", "call_2", "call_3", "call_4", "call_5"]);
}

/// How a line of a session file is damaged.
/// The texts of the user and assistant messages of a session file's lines.
fn message_text(line: &str) -> Option<String> {
    let v: Value = serde_json::from_str(line).ok()?;
    (v["type"] == "message").then(|| {
        v["message"]["content"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("")
    })
}

/// (corrupt line, unknown parent, unknown type, torn line) × (early,
/// middle, last): the history before the damage is sent on `--continue`,
/// a warning is shown, nothing panics.
#[test]
fn damaged_session_files_resume_with_their_history() {
    let env = Env::new();
    let mut script = vec![
        text("anthropic", "answer-one"),
        text("anthropic", "answer-two"),
        text("anthropic", "answer-three"),
    ];
    for _ in 0..12 {
        script.push(text("anthropic", "resumed"));
    }
    let server = MockServer::start(script).unwrap();
    for (n, prompt) in ["prompt-one", "prompt-two", "prompt-three"]
        .iter()
        .enumerate()
    {
        let mut cmd = env.wright_p("anthropic", &server.url(), prompt);
        if n > 0 {
            cmd.arg("--continue");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let file = session_files(&env).remove(0);
    let pristine = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<String> = pristine.lines().map(str::to_owned).collect();
    let messages: Vec<usize> = (1..lines.len())
        .filter(|&i| message_text(&lines[i]).is_some())
        .collect();
    assert_eq!(messages.len(), 6, "{pristine}");
    // The first entry, the 2nd turn's answer, and the last line.
    let positions = [
        ("early", 1),
        ("middle", messages[3]),
        ("last", lines.len() - 1),
    ];
    let mut request = 3;
    for how in DAMAGES {
        for (name, at) in positions {
            let case = format!("{how:?} at {name} (line {})", at + 1);
            std::fs::write(&file, damaged(&lines, at, how)).unwrap();
            let out = env
                .wright_p("anthropic", &server.url(), "prompt-four")
                .arg("--continue")
                .output()
                .unwrap();
            let err = stderr(&out);
            assert!(!err.contains("panicked"), "{case}: {err}");
            assert!(out.status.success(), "{case}: {err}");
            assert!(stdout(&out).contains("resumed"), "{case}");
            assert!(err.contains("warning"), "{case}: no warning: {err}");
            let sent = server.requests()[request].json()["messages"].to_string();
            request += 1;
            for &i in messages.iter().filter(|&&i| i < at) {
                let text = message_text(&lines[i]).unwrap();
                assert!(sent.contains(&text), "{case}: lost {text}: {sent}");
            }
            // Damage to a line loses at most that line.
            for &i in messages.iter().filter(|&&i| i > at) {
                let text = message_text(&lines[i]).unwrap();
                assert!(sent.contains(&text), "{case}: lost later {text}: {sent}");
            }
            assert!(sent.contains("prompt-four"), "{case}");
        }
    }
}
