//! The machine interface: `--output-format json|stream-json`,
//! `--input-format stream-json`, exit codes, `doctor`, `config validate`,
//! and the JSON Schemas in docs/schema checked against real output.

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic, openai_chat};

use super::{Env, stderr, stdout};

fn schema_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schema")
}

fn load_schema(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(schema_dir().join(name)).unwrap()).unwrap()
}

/// The stream-json schema with its reference to the result schema inlined,
/// so the validator needs no resolver.
fn validators() -> (jsonschema::Validator, jsonschema::Validator) {
    let result = load_schema("result.schema.json");
    let mut stream = load_schema("stream-json.schema.json");
    let mut inlined = result.clone();
    inlined.as_object_mut().unwrap().remove("$schema");
    inlined.as_object_mut().unwrap().remove("$id");
    for option in stream["oneOf"].as_array_mut().unwrap() {
        if option["$ref"] == "result.schema.json" {
            *option = inlined.clone();
        }
    }
    (
        jsonschema::validator_for(&result).unwrap(),
        jsonschema::validator_for(&stream).unwrap(),
    )
}

fn assert_valid(validator: &jsonschema::Validator, value: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{value}\n{errors:#?}");
}

fn tool_script(provider: &str) -> Vec<MockResponse> {
    let (calls, answer) = match provider {
        "anthropic" => (
            anthropic::tool_calls(&[
                ("c1", "Bash", json!({"command": "touch hi; echo hi"})),
                ("c2", "Write", json!({"file_path": "x.txt", "content": "x"})),
            ]),
            anthropic::text("All done."),
        ),
        _ => (
            openai_chat::tool_calls(&[
                ("c1", "Bash", json!({"command": "touch hi; echo hi"})),
                ("c2", "Write", json!({"file_path": "x.txt", "content": "x"})),
            ]),
            openai_chat::text("All done."),
        ),
    };
    vec![MockResponse::sse(calls), MockResponse::sse(answer)]
}

#[test]
fn json_output_is_one_result_object() {
    let (result_schema, _) = validators();
    for provider in ["anthropic", "openai-chat"] {
        let env = Env::new();
        let server = MockServer::start(tool_script(provider)).unwrap();
        let out = env
            .wright_p(provider, &server.url(), "do it")
            .args([
                "--output-format",
                "json",
                "--permission-mode",
                "accept-edits",
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert_eq!(text.trim().lines().count(), 1, "{text}");
        let result: Value = serde_json::from_str(text.trim()).unwrap();
        assert_valid(&result_schema, &result);
        assert_eq!(result["subtype"], "success");
        assert_eq!(result["is_error"], false);
        assert_eq!(result["result"], "All done.");
        assert_eq!(result["num_turns"], 2);
        assert_eq!(result["model"], "test-model");
        assert_eq!(result["usage"]["input_tokens"], 200);
        assert_eq!(result["usage"]["output_tokens"], 40);
        // accept-edits: the write ran, the command (not read-only) was refused and reported.
        assert_eq!(std::fs::read_to_string(env.path("x.txt")).unwrap(), "x");
        let denials = result["permission_denials"].as_array().unwrap();
        assert_eq!(denials.len(), 1);
        assert_eq!(denials[0]["tool_name"], "Bash");
        assert_eq!(denials[0]["tool_use_id"], "c1");
        assert_eq!(denials[0]["tool_input"]["command"], "touch hi; echo hi");
        // x.txt has no checker: the verifier had nothing to say.
        assert_eq!(result["verifier"], json!({"runs": 0, "errors": 0}));
    }
}

#[test]
fn stream_json_has_init_first_result_last_and_tools_between() {
    let (_, line_schema) = validators();
    let env = Env::new();
    let server = MockServer::start(tool_script("anthropic")).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "do it")
        .args([
            "--output-format",
            "stream-json",
            "--permission-mode",
            "bypass",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<Value> = super::ndjson(&out);
    for line in &lines {
        assert_valid(&line_schema, line);
    }
    let types: Vec<&str> = lines.iter().map(|l| l["type"].as_str().unwrap()).collect();
    // The unknown model's warning is a system line after init, not stderr.
    assert_eq!(
        types,
        [
            "system",
            "system",
            "assistant",
            "user",
            "user",
            "assistant",
            "result"
        ]
    );
    assert_eq!(lines[0]["subtype"], "init");
    assert_eq!(lines[1]["subtype"], "warning");
    // Where the key came from, never the key.
    assert_eq!(lines[0]["apiKeySource"], "ANTHROPIC_API_KEY");
    assert!(!stderr(&out).contains("unknown model"), "{}", stderr(&out));
    assert_eq!(lines[0]["tools"].as_array().unwrap().len(), 12);
    let session = lines[0]["session_id"].as_str().unwrap();
    assert!(lines.iter().all(|l| l["session_id"] == session));
    let content = lines[2]["message"]["content"].as_array().unwrap();
    assert_eq!(content[0]["type"], "tool_use");
    assert_eq!(content[0]["id"], "c1");
    assert_eq!(content[1]["input"]["file_path"], "x.txt");
    assert_eq!(lines[3]["message"]["content"][0]["tool_use_id"], "c1");
    assert!(
        lines[3]["message"]["content"][0]["content"]
            .as_str()
            .unwrap()
            .contains("hi")
    );
    assert_eq!(lines[4]["message"]["content"][0]["tool_use_id"], "c2");
    assert_eq!(lines[5]["message"]["content"][0]["text"], "All done.");
    assert_eq!(lines[6]["result"], "All done.");
    assert_eq!(lines[6]["verifier"], json!({"runs": 0, "errors": 0}));
}

#[test]
fn partial_messages_add_stream_events() {
    let (_, line_schema) = validators();
    let env = Env::new();
    let server =
        MockServer::start(vec![MockResponse::sse(anthropic::text("Hello there"))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .args([
            "--output-format",
            "stream-json",
            "--include-partial-messages",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<Value> = super::ndjson(&out);
    for line in &lines {
        assert_valid(&line_schema, line);
    }
    let deltas: String = lines
        .iter()
        .filter(|l| l["type"] == "stream_event" && l["event"]["type"] == "content_block_delta")
        .map(|l| l["event"]["delta"]["text"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(deltas, "Hello there");
}

/// A stream that breaks after visible text is retried: with partial
/// messages, a `stream_superseded` line tells the client to drop what the
/// broken attempt streamed, and the complete `assistant` line comes once.
#[test]
fn a_retried_stream_supersedes_its_partial_events() {
    let (_, line_schema) = validators();
    let env = Env::new();
    let body = anthropic::text("Hello there");
    let delta = body.find("content_block_delta").unwrap();
    let cut = delta + body[delta..].find("\n\n").unwrap() + 2;
    let server = MockServer::start(vec![
        MockResponse::sse(body.clone()).drop_after(cut),
        MockResponse::sse(body),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .args([
            "--output-format",
            "stream-json",
            "--include-partial-messages",
        ])
        .env("WRIGHT_MAX_RETRIES", "2")
        .env("WRIGHT_RETRY_MAX_DELAY_MS", "10")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<Value> = super::ndjson(&out);
    for line in &lines {
        assert_valid(&line_schema, line);
    }
    let kinds: Vec<String> = lines
        .iter()
        .map(|l| match l["subtype"].as_str() {
            Some(sub) => format!("{}/{sub}", l["type"].as_str().unwrap()),
            None => l["type"].as_str().unwrap().to_owned(),
        })
        .collect();
    let superseded = kinds.iter().position(|k| k == "system/stream_superseded");
    let retry = kinds.iter().position(|k| k == "system/api_retry");
    assert!(
        superseded.is_some() && superseded.map(|i| i + 1) == retry,
        "{kinds:?}"
    );
    let line = &lines[superseded.unwrap()];
    assert_eq!(line["attempt"], 1);
    assert_eq!(line["superseded"].as_array().unwrap().len(), 1);
    // The retry's message reuses the id the broken attempt's message had.
    let starts: Vec<&Value> = lines
        .iter()
        .filter(|l| l["type"] == "stream_event" && l["event"]["type"] == "message_start")
        .map(|l| &l["event"]["message"]["id"])
        .collect();
    assert_eq!(starts, [&line["message_id"], &line["message_id"]]);
    let assistant: Vec<&Value> = lines.iter().filter(|l| l["type"] == "assistant").collect();
    assert_eq!(assistant.len(), 1);
    assert_eq!(assistant[0]["message"]["content"][0]["text"], "Hello there");
    assert_eq!(lines.last().unwrap()["result"], "Hello there");
}

#[test]
fn error_subtypes_and_exit_codes() {
    let (result_schema, _) = validators();
    let env = Env::new();
    // Turn limit.
    let server = MockServer::start(vec![MockResponse::sse(anthropic::tool_calls(&[(
        "c1",
        "LS",
        json!({}),
    )]))])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "loop")
        .args(["--output-format", "json", "--max-turns", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let result: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_valid(&result_schema, &result);
    assert_eq!(result["subtype"], "error_max_turns");
    assert_eq!(result["is_error"], true);
    // Server failure.
    let server = MockServer::start(vec![MockResponse::json(
        400,
        json!({"type": "error", "error": {"type": "invalid_request_error", "message": "bad thing"}}),
    )])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .args(["--output-format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let result: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_valid(&result_schema, &result);
    assert_eq!(result["subtype"], "error_during_execution");
    assert!(result["errors"][0].as_str().unwrap().contains("bad thing"));
}

#[test]
fn stream_json_input_drives_two_turns() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::text("first")),
        MockResponse::sse(anthropic::text("second")),
    ])
    .unwrap();
    let input = concat!(
        r#"{"type":"user","message":{"role":"user","content":"one"}}"#,
        "\n",
        "this line is not json\n",
        r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"two"}]}}"#,
        "\n"
    );
    let mut cmd = env.anthropic(&server.url());
    cmd.args([
        "--input-format",
        "stream-json",
        "--output-format",
        "stream-json",
    ])
    .write_stdin(input);
    let out = cmd.output().unwrap();
    let lines: Vec<Value> = super::ndjson(&out);
    let results: Vec<&Value> = lines.iter().filter(|l| l["type"] == "result").collect();
    assert_eq!(results.len(), 2, "{}", stdout(&out));
    assert_eq!(results[0]["result"], "first");
    assert_eq!(results[1]["result"], "second");
    assert!(lines.iter().any(|l| l["type"] == "system"
        && l["subtype"] == "error"
        && l["message"].as_str().unwrap().contains("stdin line 2")));
    let second = server.requests()[1].json()["messages"].to_string();
    assert!(second.contains("one") && second.contains("first") && second.contains("two"));
    // The bad line is reported; the last turn decides the exit code.
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn doctor_reports_each_check_without_the_key() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::json(200, json!({"data": []}))]).unwrap();
    let out = env
        .anthropic(&server.url())
        .args(["doctor", "--json"])
        .output()
        .unwrap();
    super::assert_clean(&out);
    let report: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(report["ok"], true, "{report}");
    assert!(out.status.success());
    let names: Vec<&str> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    for name in ["config", "provider", "key", "reachable", "sandbox", "tools"] {
        assert!(names.contains(&name), "{names:?}");
    }
    let request = &server.requests()[0];
    assert_eq!(request.path, "/v1/models");
    assert_eq!(request.header("x-api-key"), Some(super::FAKE_KEY));
}

#[test]
fn doctor_fails_when_the_server_is_down() {
    let env = Env::new();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = env
        .wright()
        .args([
            "doctor",
            "--provider",
            "openai-chat",
            "--model",
            "m",
            "--base-url",
            &format!("http://127.0.0.1:{port}/v1"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("FAIL reachable"), "{}", stdout(&out));
}

#[test]
fn config_validate_checks_every_file() {
    let env = Env::new();
    env.write(".wright/config.toml", "max_turns = \"many\"\n");
    env.write(".wright/config.local.toml", "nonsense = 1\n");
    let out = env
        .wright()
        .args(["config", "validate", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let failures: Vec<String> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["ok"] == false)
        .map(|c| c["detail"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(failures[0].contains("config.toml:1") && failures[0].contains("max_turns"));
    assert!(failures[1].contains("config.local.toml:1") && failures[1].contains("nonsense"));
}
