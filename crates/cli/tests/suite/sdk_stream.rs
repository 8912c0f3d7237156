//! `--input-format stream-json` control requests driven line by line, as a
//! program speaking Claude Code's protocol sends them: `rewind_files` to a
//! user message of an earlier process of a resumed session, and the slash
//! commands the `initialize` reply describes (a custom command's prompt
//! runs its expansion).

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, ndjson, stderr, stdout};

/// One stream-json run with `lines` on stdin (then EOF) and `args`.
fn run(env: &Env, server: &MockServer, args: &[&str], lines: &[Value]) -> Vec<Value> {
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = env
        .anthropic(&server.url())
        .args([
            "--input-format",
            "stream-json",
            "--output-format",
            "stream-json",
            "--verbose",
        ])
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    ndjson(&out)
}

fn user(text: &str, uuid: &str) -> Value {
    json!({"type": "user", "uuid": uuid, "session_id": "", "parent_tool_use_id": null,
           "message": {"role": "user", "content": text}})
}

fn control(id: &str, request: Value) -> Value {
    json!({"type": "control_request", "request_id": id, "request": request})
}

/// The response to control request `id`.
fn response<'a>(lines: &'a [Value], id: &str) -> &'a Value {
    lines
        .iter()
        .find(|l| l["type"] == "control_response" && l["response"]["request_id"] == id)
        .unwrap_or_else(|| panic!("no response to {id}: {lines:#?}"))
}

fn write(id: &str, text: &str) -> MockResponse {
    MockResponse::sse(anthropic::tool_calls(&[(
        id,
        "Write",
        json!({"file_path": "notes.txt", "content": text}),
    )]))
}

#[test]
fn rewind_files_reaches_a_user_message_of_an_earlier_process() {
    let env = Env::new();
    let server = MockServer::start(vec![
        write("c1", "one\n"),
        MockResponse::sse(anthropic::text("wrote one")),
        write("c2", "two\n"),
        MockResponse::sse(anthropic::text("wrote two")),
    ])
    .unwrap();
    let first_uuid = "0190a000-0000-7000-8000-000000000001";
    let accept = ["--permission-mode", "acceptEdits"];
    let lines = run(&env, &server, &accept, &[user("write one", first_uuid)]);
    let sid = lines[0]["session_id"].as_str().unwrap().to_owned();
    assert_eq!(
        std::fs::read_to_string(env.path("notes.txt")).unwrap(),
        "one\n"
    );

    // A later process resumes the session, writes again, then rewinds to
    // before the first process's message: both edits are undone.
    let second_uuid = "0190a000-0000-7000-8000-000000000002";
    let resume = ["--permission-mode", "acceptEdits", "--resume", &sid];
    let lines = run(
        &env,
        &server,
        &resume,
        &[
            control("init", json!({"subtype": "initialize"})),
            user("write two", second_uuid),
            control(
                "dry",
                json!({"subtype": "rewind_files", "user_message_id": first_uuid, "dry_run": true}),
            ),
            control(
                "bad",
                json!({"subtype": "rewind_files", "user_message_id": "no-such-message"}),
            ),
            control(
                "real",
                json!({"subtype": "rewind_files", "user_message_id": first_uuid}),
            ),
        ],
    );
    let dry = response(&lines, "dry");
    assert_eq!(dry["response"]["subtype"], "success", "{dry}");
    assert_eq!(dry["response"]["response"]["canRewind"], true, "{dry}");
    let changed = dry["response"]["response"]["filesChanged"].to_string();
    assert!(changed.contains("notes.txt"), "{dry}");
    let bad = response(&lines, "bad");
    assert_eq!(bad["response"]["subtype"], "error", "{bad}");
    assert!(
        bad["response"]["error"]
            .as_str()
            .unwrap()
            .contains("no-such-message"),
        "{bad}"
    );
    let real = response(&lines, "real");
    assert_eq!(real["response"]["subtype"], "success", "{real}");
    assert_eq!(real["response"]["response"]["canRewind"], true, "{real}");
    let changed = real["response"]["response"]["filesChanged"].to_string();
    assert!(changed.contains("notes.txt"), "{real}");
    assert!(
        !env.path("notes.txt").exists(),
        "notes.txt did not exist before the first message"
    );
    assert_eq!(server.request_count(), 4);
}

#[test]
fn initialize_describes_the_commands_and_a_custom_one_runs() {
    let env = Env::new();
    env.write(
        ".wright/commands/review.md",
        "---\ndescription: Review a pull request\nargument-hint: [pr-number]\n---\nReview pull request $ARGUMENTS with care.\n",
    );
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("reviewed"))]).unwrap();
    let lines = run(
        &env,
        &server,
        &[],
        &[
            control("init", json!({"subtype": "initialize"})),
            user("/review 42", "0190a000-0000-7000-8000-000000000003"),
        ],
    );
    let init = response(&lines, "init");
    let commands = init["response"]["response"]["commands"].as_array().unwrap();
    let review = commands
        .iter()
        .find(|c| c["name"] == "review")
        .unwrap_or_else(|| panic!("{init}"));
    assert_eq!(review["description"], "Review a pull request");
    assert_eq!(review["argumentHint"], "[pr-number]");
    let compact = commands.iter().find(|c| c["name"] == "compact").unwrap();
    assert!(!compact["description"].as_str().unwrap().is_empty());
    for c in commands {
        assert!(
            c["name"].is_string() && c["description"].is_string() && c["argumentHint"].is_string(),
            "{c}"
        );
    }
    let system_init = lines.iter().find(|l| l["subtype"] == "init").unwrap();
    let names = system_init["slash_commands"].to_string();
    assert!(
        names.contains("\"review\"") && names.contains("\"compact\""),
        "{names}"
    );
    let sent = server.requests()[0].json()["messages"].to_string();
    assert!(sent.contains("Review pull request 42 with care."), "{sent}");
    // The session is listed under the prompt as typed, not its expansion.
    let out = env
        .wright()
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed[0]["title"], "/review 42", "{listed}");
}
