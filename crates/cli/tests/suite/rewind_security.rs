//! Checkpoints and `wright rewind` stay inside the workspace: directories
//! swapped for symlinks after an edit are not written or deleted through,
//! nothing outside is copied into the session store, and checkpointing a
//! FIFO does not hang the run.

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, assert_clean, stderr, stdout};

fn text(t: &str) -> MockResponse {
    MockResponse::sse(anthropic::text(t))
}

/// Whether any file under `dir` contains `needle`.
fn any_file_contains(dir: &Path, needle: &str) -> bool {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| {
            let p = e.path();
            if p.is_dir() {
                any_file_contains(&p, needle)
            } else {
                std::fs::read(&p).is_ok_and(|b| String::from_utf8_lossy(&b).contains(needle))
            }
        })
}

#[test]
fn rewind_does_not_write_or_delete_through_swapped_symlinks() {
    let env = Env::new();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("profile"), "OUTSIDE-PROFILE").unwrap();
    std::fs::write(outside.path().join("del"), "OUTSIDE-DEL").unwrap();
    std::fs::create_dir_all(env.path("e")).unwrap();
    env.write("d/profile", "x");
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "w1",
            "Write",
            json!({"file_path": "d/profile", "content": "y"}),
        )])),
        MockResponse::sse(anthropic::tool_calls(&[(
            "w2",
            "Write",
            json!({"file_path": "e/del", "content": "made"}),
        )])),
        text("done"),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "edit the files")
        .args(["--permission-mode", "accept-edits"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(env.path("d/profile")).unwrap(), "y");
    assert!(env.path("e/del").exists());

    // What a shell command could do afterwards: swap the dirs for symlinks.
    std::fs::remove_dir_all(env.path("d")).unwrap();
    std::fs::remove_dir_all(env.path("e")).unwrap();
    symlink(outside.path(), env.path("d")).unwrap();
    symlink(outside.path(), env.path("e")).unwrap();

    let out = env
        .wright()
        .args(["rewind", "--to", "1", "--yes"])
        .output()
        .unwrap();
    assert_clean(&out);
    assert_eq!(
        std::fs::read_to_string(outside.path().join("profile")).unwrap(),
        "OUTSIDE-PROFILE",
        "rewind wrote outside the workspace: {}{}",
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(outside.path().join("del")).unwrap(),
        "OUTSIDE-DEL",
        "rewind deleted outside the workspace"
    );
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 2);
    let report = format!("{}{}", stdout(&out), stderr(&out));
    assert!(report.contains("symbolic link"), "{report}");
    let sessions = env.home.path().join(".local/share/wright/sessions");
    assert!(
        !any_file_contains(&sessions, "OUTSIDE-"),
        "outside content was copied into the session store"
    );
}

#[test]
fn writing_to_a_fifo_does_not_hang_the_run() {
    let env = Env::new();
    let status = std::process::Command::new("mkfifo")
        .arg(env.path("ff"))
        .status()
        .unwrap();
    assert!(status.success());
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "w1",
            "Write",
            json!({"file_path": "ff", "content": "x"}),
        )])),
        text("done"),
    ])
    .unwrap();
    let mut child = env
        .std_wright_p("anthropic", &server.url(), "write it")
        .args(["--permission-mode", "accept-edits"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let exited = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(60) {
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    if exited.is_none() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("wright hung on a write to a FIFO");
    }
}

/// The session file edited after the run so a checkpoint names a root
/// and a path outside: `wright rewind` refuses it with the reason and
/// writes and deletes nothing outside, for every way of naming the root.
#[test]
fn generator_rewind_refuses_a_tampered_checkpoint_root() {
    let outside = tempfile::tempdir().unwrap();
    let out = outside.path().canonicalize().unwrap();
    let roots = |ws: &Path| {
        vec![
            json!(out.display().to_string()),
            json!("/"),
            json!(ws.parent().unwrap().display().to_string()),
            json!(
                ws.join("..")
                    .join(out.file_name().unwrap())
                    .display()
                    .to_string()
            ),
        ]
    };
    for variant in 0..4 {
        let env = Env::new();
        let ws = env.project.path().canonicalize().unwrap();
        env.write("a.txt", "x");
        std::fs::write(out.join("victim"), "OUTSIDE").unwrap();
        let server = MockServer::start(vec![
            MockResponse::sse(anthropic::tool_calls(&[(
                "w1",
                "Write",
                json!({"file_path": "a.txt", "content": "y"}),
            )])),
            MockResponse::sse(anthropic::tool_calls(&[(
                "w2",
                "Write",
                json!({"file_path": "new.txt", "content": "made"}),
            )])),
            text("done"),
        ])
        .unwrap();
        let out_run = env
            .wright_p("anthropic", &server.url(), "edit")
            .args(["--permission-mode", "accept-edits"])
            .output()
            .unwrap();
        assert!(out_run.status.success(), "{}", stderr(&out_run));
        // Retarget every checkpoint: one restores a blob outside, the
        // other deletes a file outside.
        let sessions = env.home.path().join(".local/share/wright/sessions");
        let file = walk(&sessions)
            .into_iter()
            .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .expect("a session file");
        let root = roots(&ws)[variant].clone();
        let text: Vec<String> = std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .map(|line| {
                let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
                if v.get("path").is_some() && v.get("before").is_some() {
                    let name = if v["before"] == json!("absent") {
                        "victim"
                    } else {
                        "planted"
                    };
                    v["path"] = json!(out.join(name).display().to_string());
                    v["root"] = root.clone();
                }
                v.to_string()
            })
            .collect();
        std::fs::write(&file, text.join("\n") + "\n").unwrap();

        let res = env
            .wright()
            .args(["rewind", "--to", "1", "--yes"])
            .output()
            .unwrap();
        let report = format!("{}{}", stdout(&res), stderr(&res));
        assert_eq!(
            std::fs::read_to_string(out.join("victim")).unwrap(),
            "OUTSIDE",
            "variant {variant}: rewind deleted outside: {report}"
        );
        assert!(
            !out.join("planted").exists(),
            "variant {variant}: rewind wrote outside: {report}"
        );
        assert!(
            report.contains("neither the session's directory nor a configured root")
                || report.contains("outside the workspace"),
            "variant {variant}: {report}"
        );
    }
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
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
