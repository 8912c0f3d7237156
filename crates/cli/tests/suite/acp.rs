//! `wright acp` end to end: a scripted JSON-RPC client (the editor) drives
//! the real binary over stdio against the loopback model mock. One editor
//! session: initialize, a new session with the editor's own MCP server, a
//! prompt whose model response edits a file (the client answers the
//! permission request), streamed text, a tool call with its diff, the
//! turn's end, a mode change, a second prompt refused while one runs,
//! cancel, malformed input; then a second process loads the recorded
//! session and gets it replayed.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic, mcp_test_server_bin};

use super::{Env, FAKE_KEY};

/// Long enough for a slow CI machine; a hang fails instead of blocking.
const WAIT: Duration = Duration::from_secs(60);

/// The editor's side of one `wright acp` process.
struct Editor {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<Value>,
    next_id: u64,
    /// Every notification and agent request seen so far, in order.
    seen: Vec<Value>,
}

impl Editor {
    fn start(env: &Env, url: &str) -> Self {
        let mut cmd = env.std_wright();
        cmd.args([
            "--provider",
            "anthropic",
            "--model",
            "m",
            "--base-url",
            url,
            "acp",
        ])
        .env("ANTHROPIC_API_KEY", FAKE_KEY)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
        let mut child = cmd.spawn().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                assert!(!line.contains(FAKE_KEY), "key leaked: {line}");
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("stdout is not JSON-RPC ({e}): {line}"));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        Self {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            next_id: 1,
            seen: Vec::new(),
        }
    }

    fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, value: Value) {
        self.send_line(&value.to_string());
    }

    fn request(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    fn next(&mut self) -> Value {
        self.lines
            .recv_timeout(WAIT)
            .expect("wright acp sent nothing in time")
    }

    /// Reads until the response to `id`; requests from the agent go to
    /// `answer`, which returns the result to send back.
    fn response(&mut self, id: u64, answer: &mut dyn FnMut(&Value) -> Value) -> Value {
        loop {
            let msg = self.next();
            if msg.get("method").is_some() {
                self.seen.push(msg.clone());
                if let Some(req_id) = msg.get("id") {
                    let result = answer(&msg);
                    self.send(json!({"jsonrpc": "2.0", "id": req_id, "result": result}));
                }
                continue;
            }
            if msg["id"] == json!(id) {
                return msg;
            }
            panic!("unexpected message: {msg}");
        }
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.request(method, params);
        self.response(id, &mut |m| panic!("unexpected agent request: {m}"))
    }

    /// The `session/update` payloads seen, by their `sessionUpdate` kind.
    fn updates(&self, kind: &str) -> Vec<Value> {
        self.seen
            .iter()
            .filter(|m| m["method"] == "session/update")
            .map(|m| m["params"]["update"].clone())
            .filter(|u| u["sessionUpdate"] == kind)
            .collect()
    }

    /// All agent text chunks, joined.
    fn agent_text(&self) -> String {
        self.updates("agent_message_chunk")
            .iter()
            .filter_map(|u| u["content"]["text"].as_str().map(str::to_owned))
            .collect()
    }

    /// Closes stdin (the editor goes away) and waits for a clean exit.
    fn finish(mut self) {
        drop(self.stdin.take());
        let (tx, rx) = mpsc::channel();
        let mut child = self.child;
        std::thread::spawn(move || {
            let _ = tx.send(child.wait());
        });
        let status = rx
            .recv_timeout(WAIT)
            .expect("wright acp did not exit")
            .unwrap();
        assert!(status.success(), "wright acp exited with {status}");
    }
}

fn initialize(editor: &mut Editor) -> Value {
    editor.call(
        "initialize",
        json!({"protocolVersion": 1, "clientCapabilities": {"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false}}),
    )
}

#[test]
fn an_editor_session_from_initialize_to_load() {
    let env = Env::new();
    env.write("a.txt", "one\n");
    let edit = json!({"file_path": "a.txt", "old_string": "one", "new_string": "two"});
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::text_and_tool_calls(
            "Editing the file.",
            &[("c1", "Edit", edit)],
        )),
        MockResponse::sse(anthropic::text("Done: one is now two.")),
        // The third turn's answer starts and then stalls until cancelled.
        MockResponse::sse(anthropic::text("this never finishes"))
            .drop_after(10)
            .stall(),
        MockResponse::sse(anthropic::text("nor does this"))
            .drop_after(10)
            .stall(),
    ])
    .unwrap();
    let mut ed = Editor::start(&env, &server.url());

    let init = initialize(&mut ed);
    let caps = &init["result"]["agentCapabilities"];
    assert_eq!(caps["loadSession"], true, "{init}");
    assert_eq!(caps["promptCapabilities"]["embeddedContext"], true);
    assert_eq!(caps["mcpCapabilities"]["http"], true);
    assert_eq!(init["result"]["agentInfo"]["name"], "wright");
    assert_eq!(init["result"]["authMethods"], json!([]));

    // Bad input gets errors and the agent keeps going.
    ed.send_line("{this is not json");
    let parse_error = ed.next();
    assert_eq!(parse_error["error"]["code"], -32700, "{parse_error}");
    let unknown = ed.call(
        "session/prompt",
        json!({"sessionId": "no-such-session", "prompt": [{"type": "text", "text": "hi"}]}),
    );
    assert!(unknown["error"].is_object(), "{unknown}");

    let mcp = mcp_test_server_bin().unwrap().display().to_string();
    let cwd = env.project.path().display().to_string();
    let new = ed.call(
        "session/new",
        json!({"cwd": cwd, "mcpServers": [{"name": "test", "command": mcp, "args": [], "env": []}]}),
    );
    let session = new["result"]["sessionId"].as_str().unwrap().to_owned();
    let modes = &new["result"]["modes"];
    assert_eq!(modes["currentModeId"], "default", "{new}");
    let ids: Vec<&str> = modes["availableModes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["modeId"].as_str().or(m["id"].as_str()).unwrap())
        .collect();
    assert_eq!(ids, ["default", "accept-edits", "plan", "auto", "bypass"]);

    // A prompt whose answer edits a file: the editor is asked first.
    let mut asked = Vec::new();
    let id = ed.request(
        "session/prompt",
        json!({"sessionId": session, "prompt": [
            {"type": "text", "text": "change one to two in"},
            {"type": "resource_link", "name": "a.txt", "uri": format!("file://{cwd}/a.txt")},
        ]}),
    );
    let done = ed.response(id, &mut |req| {
        assert_eq!(req["method"], "session/request_permission", "{req}");
        asked.push(req["params"].clone());
        json!({"outcome": {"outcome": "selected", "optionId": "allow_once"}})
    });
    assert_eq!(done["result"]["stopReason"], "end_turn", "{done}");
    assert_eq!(std::fs::read_to_string(env.path("a.txt")).unwrap(), "two\n");

    assert_eq!(asked.len(), 1, "{asked:?}");
    let question = &asked[0];
    assert_eq!(question["sessionId"], session.as_str());
    assert_eq!(question["toolCall"]["toolCallId"], "c1");
    let options: Vec<&str> = question["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["kind"].as_str().unwrap())
        .collect();
    assert_eq!(options, ["allow_once", "allow_always", "reject_once"]);
    // "Always" names the rule it stores, so the editor promises no more.
    let always = question["options"][1]["name"].as_str().unwrap();
    assert!(
        always.starts_with("Allow for this session: Edit("),
        "{always}"
    );

    let text = ed.agent_text();
    assert!(
        text.contains("Editing the file.") && text.contains("Done: one is now two."),
        "{text}"
    );
    let calls = ed.updates("tool_call");
    assert_eq!(calls.len(), 1, "{calls:?}");
    let call = &calls[0];
    assert_eq!(call["toolCallId"], "c1");
    assert_eq!(call["kind"], "edit");
    // `pending` is the default, which the schema leaves out.
    assert_eq!(call["status"].as_str().unwrap_or("pending"), "pending");
    let file = format!("{cwd}/a.txt");
    assert_eq!(call["locations"][0]["path"], file.as_str());
    let diff = &call["content"][0];
    assert_eq!(diff["type"], "diff", "{call}");
    assert_eq!(diff["path"], file.as_str());
    assert_eq!(diff["oldText"], "one");
    assert_eq!(diff["newText"], "two");
    let statuses: Vec<String> = ed
        .updates("tool_call_update")
        .iter()
        .filter(|u| u["toolCallId"] == "c1")
        .filter_map(|u| u["status"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(statuses, ["in_progress", "completed"]);
    assert_eq!(ed.updates("available_commands_update").len(), 1);

    // The model saw the prompt (with the link as a path) and the editor's MCP server.
    let requests = server.requests();
    let first = requests[0].json();
    let tools: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(tools.contains(&"mcp__test__echo"), "{tools:?}");
    let prompt = first["messages"][0].to_string();
    assert!(
        prompt.contains("change one to two in") && prompt.contains("a.txt"),
        "{prompt}"
    );

    // Modes: a known one is taken, an unknown one refused.
    let set = ed.call(
        "session/set_mode",
        json!({"sessionId": session, "modeId": "accept-edits"}),
    );
    assert!(set["result"].is_object(), "{set}");
    let bad = ed.call(
        "session/set_mode",
        json!({"sessionId": session, "modeId": "yolo"}),
    );
    assert_eq!(bad["error"]["code"], -32602, "{bad}");

    // Model selection: the next model request uses the new model.
    let option = &new["result"]["configOptions"][0];
    assert_eq!(option["id"], "model", "{new}");
    assert_eq!(option["category"], "model");
    assert_eq!(option["currentValue"], "m");
    let other = option["options"][1]["value"].as_str().unwrap().to_owned();
    let changed = ed.call(
        "session/set_config_option",
        json!({"sessionId": session, "configId": "model", "value": other}),
    );
    assert_eq!(
        changed["result"]["configOptions"][0]["currentValue"],
        other.as_str(),
        "{changed}"
    );
    let unknown_model = ed.call(
        "session/set_config_option",
        json!({"sessionId": session, "configId": "model", "value": "no-such-model"}),
    );
    assert_eq!(unknown_model["error"]["code"], -32602, "{unknown_model}");

    // A turn that hangs: a second prompt goes into it; cancel ends the
    // first and withdraws the second (both answered `cancelled`).
    let running = ed.request(
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": "go on"}]}),
    );
    let deadline = std::time::Instant::now() + WAIT;
    while server.request_count() < 3 {
        assert!(
            std::time::Instant::now() < deadline,
            "third request never came"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(server.requests()[2].json()["model"], other.as_str());
    let second = ed.request(
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": "and this"}]}),
    );
    ed.send(
        json!({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": session}}),
    );
    let mut answered = std::collections::HashMap::new();
    while answered.len() < 2 {
        let msg = ed.next();
        if msg.get("method").is_some() {
            ed.seen.push(msg);
            continue;
        }
        answered.insert(msg["id"].as_u64().unwrap(), msg);
    }
    for id in [running, second] {
        assert_eq!(
            answered[&id]["result"]["stopReason"], "cancelled",
            "{:?}",
            answered[&id]
        );
    }
    // A cancel sent right behind its prompt is not lost on the way to
    // the core (it could overtake the turn and be dropped as idle).
    let quick = ed.request(
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": "stop at once"}]}),
    );
    ed.send(
        json!({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": session}}),
    );
    let stopped = ed.response(quick, &mut |m| panic!("unexpected agent request: {m}"));
    assert_eq!(stopped["result"]["stopReason"], "cancelled", "{stopped}");
    ed.finish();

    // A new process loads the recorded session and replays it; only in
    // the directory it was recorded in.
    let mut ed = Editor::start(&env, &server.url());
    initialize(&mut ed);
    let elsewhere = tempfile::tempdir().unwrap();
    let wrong_dir = ed.call(
        "session/load",
        json!({"sessionId": session, "cwd": elsewhere.path(), "mcpServers": []}),
    );
    assert!(
        wrong_dir["error"]["data"]
            .to_string()
            .contains("was recorded in"),
        "{wrong_dir}"
    );
    let loaded = ed.call(
        "session/load",
        json!({"sessionId": session, "cwd": cwd, "mcpServers": []}),
    );
    assert!(loaded["result"].is_object(), "{loaded}");
    let users: String = ed
        .updates("user_message_chunk")
        .iter()
        .filter_map(|u| u["content"]["text"].as_str().map(str::to_owned))
        .collect();
    assert!(users.contains("change one to two in"), "{users}");
    assert!(ed.agent_text().contains("Editing the file."));
    let replayed = ed.updates("tool_call");
    assert_eq!(replayed[0]["toolCallId"], "c1");
    assert_eq!(replayed[0]["content"][0]["type"], "diff");
    assert!(
        ed.updates("tool_call_update")
            .iter()
            .any(|u| u["toolCallId"] == "c1" && u["status"] == "completed")
    );
    ed.finish();
}

/// Starts an editor with these `fs` capabilities, opens a session in
/// accept-edits mode and sends a prompt; returns the editor, the session
/// id and the prompt's request id.
fn editor_prompt(
    env: &Env,
    server: &MockServer,
    reads: bool,
    writes: bool,
) -> (Editor, String, u64) {
    let mut ed = Editor::start(env, &server.url());
    ed.call(
        "initialize",
        json!({"protocolVersion": 1, "clientCapabilities": {"fs": {"readTextFile": reads, "writeTextFile": writes}, "terminal": false}}),
    );
    let cwd = env.project.path().display().to_string();
    let new = ed.call("session/new", json!({"cwd": cwd, "mcpServers": []}));
    let session = new["result"]["sessionId"].as_str().unwrap().to_owned();
    ed.call(
        "session/set_mode",
        json!({"sessionId": session, "modeId": "accept-edits"}),
    );
    let id = ed.request(
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": "change a.txt"}]}),
    );
    (ed, session, id)
}

/// The model reads a.txt, then edits "saved" to "agent" in it.
fn read_then_edit() -> MockServer {
    let read = json!({"file_path": "a.txt"});
    let edit = json!({"file_path": "a.txt", "old_string": "saved", "new_string": "agent"});
    MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[("r1", "Read", read)])),
        MockResponse::sse(anthropic::tool_calls(&[("e1", "Edit", edit)])),
        MockResponse::sse(anthropic::text("Done.")),
    ])
    .unwrap()
}

/// An editor that serves `fs/read_text_file` but takes no writes: the
/// model reads the unsaved buffer, an edit of that dirty file is refused
/// (the disk keeps its text), and the editor is only ever asked about the
/// file wright itself opened.
#[test]
fn unsaved_editor_buffers_are_read_and_never_overwritten() {
    let env = Env::new();
    env.write("a.txt", "saved\n");
    let server = read_then_edit();
    let (mut ed, session, id) = editor_prompt(&env, &server, true, false);
    let mut reads = Vec::new();
    let done = ed.response(id, &mut |req| {
        assert_eq!(req["method"], "fs/read_text_file", "{req}");
        reads.push(req["params"].clone());
        json!({"content": "saved\nplus unsaved typing\n"})
    });
    assert_eq!(done["result"]["stopReason"], "end_turn", "{done}");
    assert_eq!(
        std::fs::read_to_string(env.path("a.txt")).unwrap(),
        "saved\n"
    );
    assert_eq!(reads.len(), 2, "{reads:?}");
    let real = std::fs::canonicalize(env.path("a.txt")).unwrap();
    for r in &reads {
        assert_eq!(r["sessionId"], session.as_str());
        assert_eq!(r["path"], real.display().to_string().as_str());
    }
    let requests = server.requests();
    let after_read = requests[1].json()["messages"].to_string();
    assert!(after_read.contains("plus unsaved typing"), "{after_read}");
    let after_edit = requests[2].json()["messages"].to_string();
    assert!(
        after_edit.contains("unsaved changes in the editor"),
        "{after_edit}"
    );
    ed.finish();
}

/// An editor that also serves `fs/write_text_file`: the edit applies to
/// the unsaved buffer and goes back through the editor (which saves it, as
/// Zed does), for the file wright opened; the editor sees the diff.
#[test]
fn edits_go_through_an_editor_that_takes_writes() {
    let env = Env::new();
    env.write("a.txt", "saved\n");
    let server = read_then_edit();
    let (mut ed, session, id) = editor_prompt(&env, &server, true, true);
    let real = std::fs::canonicalize(env.path("a.txt")).unwrap();
    let mut writes = Vec::new();
    let done = ed.response(id, &mut |req| match req["method"].as_str() {
        Some("fs/read_text_file") => json!({"content": "saved\nplus typing\n"}),
        Some("fs/write_text_file") => {
            let params = req["params"].clone();
            std::fs::write(&real, params["content"].as_str().unwrap()).unwrap();
            writes.push(params);
            json!({})
        }
        _ => panic!("unexpected agent request: {req}"),
    });
    assert_eq!(done["result"]["stopReason"], "end_turn", "{done}");
    assert_eq!(writes.len(), 1, "{writes:?}");
    assert_eq!(writes[0]["sessionId"], session.as_str());
    assert_eq!(writes[0]["path"], real.display().to_string().as_str());
    assert_eq!(writes[0]["content"], "agent\nplus typing\n");
    assert_eq!(
        std::fs::read_to_string(env.path("a.txt")).unwrap(),
        "agent\nplus typing\n"
    );
    let after_edit = server.requests()[2].json()["messages"].to_string();
    assert!(after_edit.contains("unsaved text"), "{after_edit}");
    ed.finish();
}

/// A server that cannot start is the user's business: the editor shows it
/// in the conversation, not only in the agent's log.
#[test]
fn a_broken_mcp_server_is_reported_in_the_editor() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("Hello."))]).unwrap();
    let mut ed = Editor::start(&env, &server.url());
    initialize(&mut ed);
    let cwd = env.project.path().display().to_string();
    let new = ed.call(
        "session/new",
        json!({"cwd": cwd, "mcpServers": [{"name": "broken", "command": "/nonexistent/mcp-server", "args": [], "env": []}]}),
    );
    let session = new["result"]["sessionId"].as_str().unwrap().to_owned();
    let done = ed.call(
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": "hi"}]}),
    );
    assert_eq!(done["result"]["stopReason"], "end_turn", "{done}");
    let text = ed.agent_text();
    assert!(text.contains("broken") && text.contains("Hello."), "{text}");
    ed.finish();
}

#[test]
fn a_rejected_edit_leaves_the_file_and_fails_the_call() {
    let env = Env::new();
    env.write("a.txt", "one\n");
    let write = json!({"file_path": "a.txt", "content": "changed\n"});
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[("w1", "Write", write)])),
        MockResponse::sse(anthropic::text("Understood.")),
        MockResponse::sse(anthropic::text("A tiny PNG.")),
    ])
    .unwrap();
    let mut ed = Editor::start(&env, &server.url());
    initialize(&mut ed);
    let cwd = env.project.path().display().to_string();
    let new = ed.call("session/new", json!({"cwd": cwd, "mcpServers": []}));
    let session = new["result"]["sessionId"].as_str().unwrap().to_owned();
    let id = ed.request(
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": "rewrite a.txt"}]}),
    );
    let done = ed.response(
        id,
        &mut |_| json!({"outcome": {"outcome": "selected", "optionId": "reject"}}),
    );
    assert_eq!(done["result"]["stopReason"], "end_turn", "{done}");
    assert_eq!(std::fs::read_to_string(env.path("a.txt")).unwrap(), "one\n");
    let last = ed
        .updates("tool_call_update")
        .into_iter()
        .rfind(|u| u["toolCallId"] == "w1")
        .unwrap();
    assert_eq!(last["status"], "failed", "{last}");
    // Context use after each model request, against the model's window.
    let usage = ed.updates("usage_update");
    assert!(!usage.is_empty());
    assert_eq!(usage[0]["size"], 128_000, "{usage:?}");
    // The model was told it was refused.
    let results = server.requests()[1].json()["messages"].to_string();
    assert!(results.contains("Permission denied"), "{results}");
    // An image goes to the model beside the text; an SVG is refused, not dropped.
    let image = ed.call(
        "session/prompt",
        json!({"sessionId": session, "prompt": [
            {"type": "text", "text": "what is this?"},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        ]}),
    );
    assert_eq!(image["result"]["stopReason"], "end_turn", "{image}");
    let sent = server.requests()[2].json()["messages"].to_string();
    assert!(
        sent.contains("iVBORw0KGgo=") && sent.contains("what is this?"),
        "{sent}"
    );
    let svg = ed.call(
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "image", "data": "AAAA", "mimeType": "image/svg+xml"}]}),
    );
    assert!(svg["error"]["data"].to_string().contains("images"), "{svg}");
    ed.finish();
}

#[test]
fn subagent_work_shows_in_its_task_call_and_todos_as_a_plan() {
    let env = Env::new();
    env.write("a.txt", "one\n");
    let task =
        json!({"description": "look around", "prompt": "read a.txt", "subagent_type": "explore"});
    let todos = json!({"todos": [
        {"content": "Read a.txt", "status": "completed", "activeForm": "Reading a.txt"},
        {"content": "Report", "status": "in_progress", "activeForm": "Reporting"},
    ]});
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[("t1", "Task", task)])),
        MockResponse::sse(anthropic::tool_calls(&[(
            "k1",
            "Read",
            json!({"file_path": "a.txt"}),
        )])),
        MockResponse::sse(anthropic::text("a.txt says one")),
        MockResponse::sse(anthropic::tool_calls(&[("p1", "TodoWrite", todos)])),
        MockResponse::sse(anthropic::text("All done.")),
    ])
    .unwrap();
    let mut ed = Editor::start(&env, &server.url());
    initialize(&mut ed);
    let cwd = env.project.path().display().to_string();
    let new = ed.call("session/new", json!({"cwd": cwd, "mcpServers": []}));
    let session = new["result"]["sessionId"].as_str().unwrap().to_owned();
    let id = ed.request(
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": "explore"}]}),
    );
    let done = ed.response(id, &mut |m| panic!("unexpected agent request: {m}"));
    assert_eq!(done["result"]["stopReason"], "end_turn", "{done}");

    // Only the parent's calls are top-level tool calls.
    let calls: Vec<Value> = ed.updates("tool_call");
    let ids: Vec<&str> = calls
        .iter()
        .map(|c| c["toolCallId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["t1"], "{calls:?}");
    assert_eq!(calls[0]["kind"], "think");
    assert_eq!(calls[0]["title"], "Task: look around");
    let task_updates: Vec<String> = ed
        .updates("tool_call_update")
        .iter()
        .filter(|u| u["toolCallId"] == "t1")
        .map(|u| u["content"].to_string())
        .collect();
    assert!(
        task_updates
            .iter()
            .any(|c| c.contains("• Read") && c.contains("a.txt")),
        "{task_updates:?}"
    );
    assert!(
        task_updates.iter().any(|c| c.contains("a.txt says one")),
        "{task_updates:?}"
    );

    let plans = ed.updates("plan");
    assert_eq!(plans.len(), 1, "{plans:?}");
    let entries = plans[0]["entries"].as_array().unwrap();
    assert_eq!(entries[0]["content"], "Read a.txt");
    assert_eq!(entries[0]["status"], "completed");
    assert_eq!(entries[1]["status"], "in_progress");
    assert!(ed.agent_text().contains("All done."));
    ed.finish();
}

#[test]
fn custom_commands_are_offered_and_expanded() {
    let env = Env::new();
    let commands = env.project.path().join(".wright/commands");
    std::fs::create_dir_all(&commands).unwrap();
    std::fs::write(
        commands.join("review.md"),
        "---\ndescription: Review a file\nargument-hint: '[file]'\n---\nReview $ARGUMENTS carefully.\n",
    )
    .unwrap();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("Reviewed."))]).unwrap();
    let mut ed = Editor::start(&env, &server.url());
    initialize(&mut ed);
    let cwd = env.project.path().display().to_string();
    let new = ed.call("session/new", json!({"cwd": cwd, "mcpServers": []}));
    let session = new["result"]["sessionId"].as_str().unwrap().to_owned();
    let done = ed.call(
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": "/review src/a.rs"}]}),
    );
    assert_eq!(done["result"]["stopReason"], "end_turn", "{done}");
    let offered = ed.updates("available_commands_update");
    let names: Vec<&str> = offered[0]["availableCommands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["compact", "review"], "{offered:?}");
    let review = &offered[0]["availableCommands"][1];
    assert_eq!(review["description"], "Review a file");
    assert_eq!(review["input"]["hint"], "[file]", "{review}");
    let sent = server.requests()[0].json()["messages"].to_string();
    assert!(sent.contains("Review src/a.rs carefully."), "{sent}");
    ed.finish();
}

/// The editor goes away while an answer streams: the session interrupts
/// its turn and ends as `/exit` ends one (its SessionEnd hook runs) before
/// the process exits, within a bounded time.
#[test]
fn closing_stdin_mid_stream_ends_the_session_before_the_process() {
    let env = Env::new();
    let marker = env.home.path().join("session-ended");
    env.write_user_config(&format!(
        "[[hooks.SessionEnd]]\nhooks = [{{ type = \"command\", command = \"touch {}\" }}]\n",
        marker.display()
    ));
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::text("the beginning of an answer"))
            .drop_after(10)
            .stall(),
    ])
    .unwrap();
    let mut ed = Editor::start(&env, &server.url());
    initialize(&mut ed);
    let cwd = env.project.path().display().to_string();
    let new = ed.call("session/new", json!({"cwd": cwd, "mcpServers": []}));
    let session = new["result"]["sessionId"].as_str().unwrap().to_owned();
    ed.request(
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": "stream something"}]}),
    );
    // The request reached the stalled server: the turn is in flight.
    let start = std::time::Instant::now();
    while server.requests().is_empty() {
        assert!(start.elapsed() < WAIT, "the prompt never reached the model");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let closed = std::time::Instant::now();
    ed.finish();
    assert!(
        closed.elapsed() < Duration::from_secs(15),
        "wright acp took {:?} to exit after stdin closed",
        closed.elapsed()
    );
    assert!(
        marker.exists(),
        "the session did not end before the process exited"
    );
}

/// Starts a session in `mode` and sends `text`; the editor, the session's
/// id and the prompt's request id.
fn session_in_mode(
    env: &Env,
    server: &MockServer,
    mode: &str,
    text: &str,
) -> (Editor, String, u64) {
    let mut ed = Editor::start(env, &server.url());
    initialize(&mut ed);
    let cwd = env.project.path().display().to_string();
    let new = ed.call("session/new", json!({"cwd": cwd, "mcpServers": []}));
    let session = new["result"]["sessionId"].as_str().unwrap().to_owned();
    ed.call(
        "session/set_mode",
        json!({"sessionId": session, "modeId": mode}),
    );
    let id = ed.request(
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": text}]}),
    );
    (ed, session, id)
}

#[test]
fn a_plan_is_a_permission_request_that_switches_the_session_mode() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "p1",
            "ExitPlanMode",
            json!({"plan": "1. Write notes.txt"}),
        )])),
        MockResponse::sse(anthropic::tool_calls(&[(
            "w1",
            "Write",
            json!({"file_path": "notes.txt", "content": "planned\n"}),
        )])),
        MockResponse::sse(anthropic::text("Carried out.")),
    ])
    .unwrap();
    let (mut ed, _, id) = session_in_mode(&env, &server, "plan", "plan the notes");
    let mut asked = Vec::new();
    let done = ed.response(id, &mut |req| {
        assert_eq!(req["method"], "session/request_permission", "{req}");
        asked.push(req["params"].clone());
        json!({"outcome": {"outcome": "selected", "optionId": "plan_accept_edits"}})
    });
    assert_eq!(done["result"]["stopReason"], "end_turn", "{done}");
    assert_eq!(asked.len(), 1, "the write asked again: {asked:?}");
    let options: Vec<&str> = asked[0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["optionId"].as_str().unwrap())
        .collect();
    assert_eq!(options, ["plan_accept_edits", "plan_default", "plan_keep"]);
    assert!(
        asked[0]["toolCall"]
            .to_string()
            .contains("1. Write notes.txt")
    );
    assert_eq!(
        std::fs::read_to_string(env.path("notes.txt")).unwrap(),
        "planned\n"
    );
    let modes: Vec<String> = ed
        .updates("current_mode_update")
        .iter()
        .map(|u| u["currentModeId"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        modes.last().map(String::as_str),
        Some("accept-edits"),
        "{modes:?}"
    );
    ed.finish();
}

#[test]
fn each_question_is_a_permission_request_whose_options_are_its_labels() {
    let env = Env::new();
    let question = json!({"questions": [{"question": "Which database?", "header": "DB",
        "multiSelect": false, "options": [
            {"label": "SQLite", "description": "one file"},
            {"label": "Postgres", "description": "a server"}]}]});
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "q1",
            "AskUserQuestion",
            question,
        )])),
        MockResponse::sse(anthropic::text("Postgres then.")),
    ])
    .unwrap();
    let (mut ed, _, id) = session_in_mode(&env, &server, "default", "ask me");
    let mut asked = Vec::new();
    let done = ed.response(id, &mut |req| {
        asked.push(req["params"].clone());
        json!({"outcome": {"outcome": "selected", "optionId": "answer_1"}})
    });
    assert_eq!(done["result"]["stopReason"], "end_turn", "{done}");
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0]["toolCall"]["title"], "Which database?");
    let names: Vec<&str> = asked[0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "SQLite — one file",
            "Postgres — a server",
            "Skip (let the agent decide)"
        ]
    );
    let sent = server.requests()[1].json()["messages"].to_string();
    assert!(
        sent.contains(r#"\"Which database?\" = \"Postgres\""#),
        "{sent}"
    );
    ed.finish();
}

/// A prompt sent while one runs is steered into the running turn: the
/// model gets it with the running command's result, and both prompts are
/// answered when the turn ends.
#[test]
fn a_prompt_sent_while_one_runs_goes_into_its_turn() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "b1",
            "Bash",
            json!({"command": "sleep 2; echo slept-well"}),
        )])),
        MockResponse::sse(anthropic::text("Both handled.")),
    ])
    .unwrap();
    let (mut ed, session_id, first) =
        session_in_mode(&env, &server, "bypass", "run the long thing");
    // Wait for the command to start, then send the second prompt.
    loop {
        let msg = ed.next();
        let started = msg["method"] == "session/update"
            && msg["params"]["update"]["sessionUpdate"] == "tool_call";
        ed.seen.push(msg);
        if started {
            break;
        }
    }
    let second = ed.request(
        "session/prompt",
        json!({"sessionId": session_id, "prompt": [{"type": "text", "text": "also check b.txt"}]}),
    );
    let mut done = std::collections::HashMap::new();
    while done.len() < 2 {
        let msg = ed.next();
        if msg.get("method").is_some() {
            ed.seen.push(msg);
            continue;
        }
        done.insert(msg["id"].as_u64().unwrap(), msg);
    }
    for id in [first, second] {
        assert_eq!(
            done[&id]["result"]["stopReason"], "end_turn",
            "{:?}",
            done[&id]
        );
    }
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "one turn");
    let messages = requests[1].json()["messages"].clone();
    let last = messages.as_array().unwrap().last().unwrap().to_string();
    assert!(
        last.contains("slept-well") && last.contains("also check b.txt"),
        "{last}"
    );
    // The editor sees it where the model got it.
    assert!(
        ed.updates("user_message_chunk")
            .iter()
            .any(|u| u["content"]["text"] == "also check b.txt")
    );
    ed.finish();
}
