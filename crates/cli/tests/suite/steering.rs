//! A program's user message sent while a turn runs (stream-json input)
//! reaches the model with the next step's tool results, in the same turn.

use std::io::{BufRead as _, BufReader, Write as _};

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, stderr};

#[test]
fn a_message_sent_mid_turn_on_stream_json_goes_with_the_next_results() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "b1",
            "Bash",
            json!({"command": "sleep 2; echo slept-well"}),
        )])),
        MockResponse::sse(anthropic::text("took both into account")),
    ])
    .unwrap();
    let mut child = env.stream_json_child(&server.url(), &["--permission-mode", "bypass"]);
    let mut stdin = child.stdin.take().unwrap();
    let user = |text: &str| {
        json!({"type": "user", "session_id": "", "parent_tool_use_id": null,
               "message": {"role": "user", "content": text}})
    };
    writeln!(stdin, "{}", user("run the long thing")).unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let Ok(line) = line else { break };
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        // The command is running: the program says more.
        let tool_use = v["type"] == "assistant"
            && v["message"]["content"]
                .as_array()
                .is_some_and(|c| c.iter().any(|b| b["type"] == "tool_use"));
        if tool_use {
            writeln!(stdin, "{}", user("also check b.txt")).unwrap();
        }
        let end = v["type"] == "result";
        lines.push(v);
        if end {
            break;
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let results = lines.iter().filter(|l| l["type"] == "result").count();
    assert_eq!(results, 1, "one turn: {lines:?}");
    assert_eq!(lines.last().unwrap()["result"], "took both into account");
    let delivered = lines
        .iter()
        .find(|l| l["subtype"] == "user_message_delivered")
        .expect("the delivery is reported");
    assert_eq!(delivered["text"], "also check b.txt");
    assert!(delivered["uuid"].is_string() && delivered["session_id"].is_string());
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let messages = requests[1].json()["messages"].clone();
    let last = messages.as_array().unwrap().last().unwrap().to_string();
    assert!(
        last.contains("slept-well") && last.contains("also check b.txt"),
        "{last}"
    );
}
