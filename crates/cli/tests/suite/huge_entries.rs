//! A session file that gained a line far above the line cap (20 MB, made
//! here at test time) keeps the conversation around it, on `--continue`,
//! `--resume`, `sessions show` and `export`.

use std::io::Write;

use serde_json::Value;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, stderr, stdout};

fn session_file(env: &Env) -> std::path::PathBuf {
    let root = env.home.path().join(".local/share/wright/sessions");
    std::fs::read_dir(root)
        .unwrap()
        .flatten()
        .flat_map(|p| std::fs::read_dir(p.path()).unwrap().flatten())
        .map(|f| f.path())
        .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .unwrap()
}

#[test]
fn continue_after_a_20_mb_line_keeps_the_earlier_conversation() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::text("first answer")),
        MockResponse::sse(anthropic::text("second answer")),
        MockResponse::sse(anthropic::text("third answer")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "first question")
        .args(["--output-format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let id = serde_json::from_str::<Value>(&stdout(&out)).unwrap()["session_id"]
        .as_str()
        .unwrap()
        .to_owned();

    let path = session_file(&env);
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    let filler = "h".repeat(20_000_000);
    writeln!(
        file,
        r#"{{"id":"huge-entry","parent_id":null,"ts":"t","type":"message","message":{{"role":"user","content":[{{"type":"text","text":"{filler}"}}]}}}}"#
    )
    .unwrap();
    drop(file);

    let out = env
        .wright_p("anthropic", &server.url(), "follow-up")
        .arg("--continue")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("second answer"), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("skipped an entry of 20.0 MB"),
        "{}",
        stderr(&out)
    );
    let sent = server.requests()[1].json()["messages"].to_string();
    assert!(
        sent.contains("first question") && sent.contains("first answer"),
        "{sent}"
    );
    assert!(sent.contains("follow-up") && !sent.contains("hhhhhhhh"));

    let out = env
        .wright_p("anthropic", &server.url(), "once more")
        .args(["--resume", &id])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let sent = server.requests()[2].json()["messages"].to_string();
    assert!(sent.contains("first answer") && sent.contains("second answer"));

    for args in [
        ["sessions", "show", id.as_str()],
        ["sessions", "export", id.as_str()],
    ] {
        let out = env.wright().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.contains("first question") && text.contains("third answer"),
            "{args:?}: {text}"
        );
        assert!(!text.contains("hhhhhhhh"));
    }
}
