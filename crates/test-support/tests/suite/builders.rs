//! The SSE builders: every payload is JSON in the provider's shape, and the
//! streamed pieces reassemble to exactly what was asked for.

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, MockUsage, anthropic, openai_chat};

use super::client::post;
use super::sse::{events, json_payloads};

fn calls() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "toolu_01A",
            "bash",
            json!({"command": "echo \"hi\" > out.txt && cat out.txt"}),
        ),
        (
            "toolu_01B",
            "write",
            json!({"path": "dïr/ünï.txt", "content": "line 1\nline ✓ 2\n"}),
        ),
    ]
}

/// Concatenated `partial_json` per content-block index.
fn anthropic_inputs(body: &str) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = Vec::new();
    let mut index_of = std::collections::HashMap::new();
    for v in json_payloads(body) {
        match v["type"].as_str().unwrap() {
            "content_block_start" if v["content_block"]["type"] == "tool_use" => {
                let b = &v["content_block"];
                assert_eq!(b["input"], json!({}));
                index_of.insert(v["index"].as_u64().unwrap(), out.len());
                out.push((
                    b["id"].as_str().unwrap().into(),
                    b["name"].as_str().unwrap().into(),
                    String::new(),
                ));
            }
            "content_block_delta" if v["delta"]["type"] == "input_json_delta" => {
                let slot = index_of[&v["index"].as_u64().unwrap()];
                out[slot]
                    .2
                    .push_str(v["delta"]["partial_json"].as_str().unwrap());
            }
            _ => {}
        }
    }
    out
}

fn anthropic_deltas(body: &str, kind: &str, field: &str) -> String {
    json_payloads(body)
        .iter()
        .filter(|v| v["type"] == "content_block_delta" && v["delta"]["type"] == kind)
        .map(|v| v["delta"][field].as_str().unwrap().to_string())
        .collect()
}

fn anthropic_stop_reason(body: &str) -> Value {
    json_payloads(body)
        .into_iter()
        .find(|v| v["type"] == "message_delta")
        .unwrap()["delta"]["stop_reason"]
        .clone()
}

#[test]
fn anthropic_event_names_match_payload_types_and_order() {
    let body = anthropic::text_and_tool_calls("Let me look.", &calls());
    let evs = events(&body);
    for e in &evs {
        let v: Value = serde_json::from_str(&e.data).unwrap();
        assert_eq!(e.name.as_deref(), v["type"].as_str());
    }
    let names: Vec<_> = evs.iter().map(|e| e.name.clone().unwrap()).collect();
    assert_eq!(names[0], "message_start");
    assert_eq!(names[1], "content_block_start");
    assert_eq!(names[2], "ping");
    assert_eq!(names[names.len() - 2], "message_delta");
    assert_eq!(names[names.len() - 1], "message_stop");
    let start: Value = serde_json::from_str(&evs[0].data).unwrap();
    assert!(start["message"]["id"].as_str().unwrap().starts_with("msg_"));
    assert_eq!(start["message"]["usage"]["input_tokens"], 100);
    let delta: Value = serde_json::from_str(&evs[evs.len() - 2].data).unwrap();
    assert_eq!(delta["usage"]["output_tokens"], 20);
}

#[test]
fn anthropic_text_reassembles() {
    let text = "Hello, wörld! This answer is split into several ✓ pieces.";
    let body = anthropic::text(text);
    assert!(
        json_payloads(&body)
            .iter()
            .filter(|v| v["delta"]["type"] == "text_delta")
            .count()
            > 3
    );
    assert_eq!(anthropic_deltas(&body, "text_delta", "text"), text);
    assert_eq!(anthropic_stop_reason(&body), "end_turn");
}

#[test]
fn anthropic_tool_call_fragments_parse_back_to_the_input() {
    let body = anthropic::tool_calls(&calls());
    let got = anthropic_inputs(&body);
    assert_eq!(got.len(), 2);
    for ((id, name, input), (gid, gname, gjson)) in calls().iter().zip(&got) {
        assert_eq!((*id, *name), (gid.as_str(), gname.as_str()));
        assert_eq!(&serde_json::from_str::<Value>(gjson).unwrap(), input);
    }
    let fragments = json_payloads(&body)
        .iter()
        .filter(|v| v["delta"]["type"] == "input_json_delta")
        .count();
    assert!(fragments > 10, "inputs should be split into many fragments");
    assert_eq!(anthropic_stop_reason(&body), "tool_use");
    assert_eq!(anthropic_deltas(&body, "text_delta", "text"), "");
}

#[test]
fn anthropic_text_and_tool_calls_has_both() {
    let body = anthropic::text_and_tool_calls("Checking.", &calls());
    assert_eq!(anthropic_deltas(&body, "text_delta", "text"), "Checking.");
    assert_eq!(anthropic_inputs(&body).len(), 2);
    assert_eq!(anthropic_stop_reason(&body), "tool_use");
}

#[test]
fn anthropic_thinking_then_text() {
    let body = anthropic::thinking_then_text("First, think hard.", "sig-abc==", "Answer.");
    assert_eq!(
        anthropic_deltas(&body, "thinking_delta", "thinking"),
        "First, think hard."
    );
    assert_eq!(
        anthropic_deltas(&body, "signature_delta", "signature"),
        "sig-abc=="
    );
    assert_eq!(anthropic_deltas(&body, "text_delta", "text"), "Answer.");
    let starts: Vec<Value> = json_payloads(&body)
        .into_iter()
        .filter(|v| v["type"] == "content_block_start")
        .collect();
    assert_eq!(starts[0]["content_block"]["type"], "thinking");
    assert_eq!(starts[1]["content_block"]["type"], "text");
    assert_eq!(starts[1]["index"], 1);
}

#[test]
fn anthropic_error_event_follows_message_start() {
    let body = anthropic::error_event("overloaded_error", "Overloaded");
    let evs = events(&body);
    assert_eq!(evs[0].name.as_deref(), Some("message_start"));
    let last = evs.last().unwrap();
    assert_eq!(last.name.as_deref(), Some("error"));
    let v: Value = serde_json::from_str(&last.data).unwrap();
    assert_eq!(
        v["error"],
        json!({"type": "overloaded_error", "message": "Overloaded"})
    );
    assert!(!body.contains("message_stop"));
}

#[test]
fn anthropic_raw_tool_call_streams_fragments_verbatim() {
    let body = anthropic::raw_tool_call("toolu_X", "read", &["{\"pa", "th\": \"a", "\"{"]);
    assert_eq!(anthropic_inputs(&body)[0].2, "{\"path\": \"a\"{");
}

#[test]
fn anthropic_builder_overrides() {
    let usage = MockUsage {
        input_tokens: 7,
        output_tokens: 9,
        cache_read_input_tokens: 3,
        cache_creation_input_tokens: 2,
    };
    let body = anthropic::StreamBuilder::new()
        .message_id("msg_custom")
        .model("claude-x")
        .usage(usage)
        .stop_reason("max_tokens")
        .redacted_thinking("opaque")
        .text("cut")
        .build();
    let p = json_payloads(&body);
    assert_eq!(p[0]["message"]["id"], "msg_custom");
    assert_eq!(p[0]["message"]["model"], "claude-x");
    assert_eq!(p[0]["message"]["usage"]["cache_read_input_tokens"], 3);
    assert_eq!(p[0]["message"]["usage"]["cache_creation_input_tokens"], 2);
    assert_eq!(
        p[1]["content_block"],
        json!({"type": "redacted_thinking", "data": "opaque"})
    );
    assert_eq!(anthropic_stop_reason(&body), "max_tokens");
}

/// (id, name, concatenated arguments) per tool-call index.
fn openai_calls(body: &str) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = Vec::new();
    for v in json_payloads(body) {
        assert_eq!(v["object"], "chat.completion.chunk");
        assert!(v["id"].as_str().unwrap().starts_with("chatcmpl-"));
        let Some(choice) = v["choices"].get(0) else {
            continue;
        };
        let Some(tcs) = choice["delta"]["tool_calls"].as_array() else {
            continue;
        };
        for tc in tcs {
            let i = tc["index"].as_u64().unwrap() as usize;
            if let Some(id) = tc["id"].as_str() {
                assert_eq!(i, out.len());
                assert_eq!(tc["type"], "function");
                assert_eq!(tc["function"]["arguments"], "");
                out.push((
                    id.into(),
                    tc["function"]["name"].as_str().unwrap().into(),
                    String::new(),
                ));
            } else {
                out[i]
                    .2
                    .push_str(tc["function"]["arguments"].as_str().unwrap());
            }
        }
    }
    out
}

fn openai_text(body: &str) -> String {
    json_payloads(body)
        .iter()
        .filter_map(|v| {
            v["choices"].get(0)?["delta"]["content"]
                .as_str()
                .map(String::from)
        })
        .collect()
}

fn openai_finish(body: &str) -> Vec<String> {
    json_payloads(body)
        .iter()
        .filter_map(|v| {
            v["choices"].get(0)?["finish_reason"]
                .as_str()
                .map(String::from)
        })
        .collect()
}

#[test]
fn openai_text_ends_with_usage_chunk_and_done() {
    let text = "Hi there, ünïcode ✓ text.";
    let body = openai_chat::text(text);
    assert!(body.ends_with("data: [DONE]\n\n"));
    let p = json_payloads(&body);
    assert_eq!(p[0]["choices"][0]["delta"]["role"], "assistant");
    assert_eq!(openai_text(&body), text);
    assert_eq!(openai_finish(&body), ["stop"]);
    let last = p.last().unwrap();
    assert_eq!(last["choices"], json!([]));
    assert_eq!(last["usage"]["prompt_tokens"], 100);
    assert_eq!(last["usage"]["completion_tokens"], 20);
    assert_eq!(last["usage"]["total_tokens"], 120);
    assert!(p[..p.len() - 1].iter().all(|v| v["usage"].is_null()));
}

#[test]
fn openai_tool_call_fragments_parse_back_to_the_arguments() {
    let calls = [
        ("call_A", "bash", json!({"command": "ls -la \"dir\""})),
        ("call_B", "read", json!({"path": "ü/ñ.txt"})),
    ];
    let body = openai_chat::tool_calls(&calls);
    let got = openai_calls(&body);
    assert_eq!(got.len(), 2);
    for ((id, name, args), (gid, gname, gargs)) in calls.iter().zip(&got) {
        assert_eq!((*id, *name), (gid.as_str(), gname.as_str()));
        assert_eq!(&serde_json::from_str::<Value>(gargs).unwrap(), args);
    }
    let first = &json_payloads(&body)[0]["choices"][0]["delta"];
    assert_eq!(first["role"], "assistant");
    assert!(first["tool_calls"].is_array());
    assert_eq!(openai_finish(&body), ["tool_calls"]);
    assert_eq!(openai_text(&body), "");
}

#[test]
fn openai_text_and_tool_calls_and_raw() {
    let body = openai_chat::text_and_tool_calls("Let me check.", &[("call_1", "ls", json!({}))]);
    assert_eq!(openai_text(&body), "Let me check.");
    assert_eq!(openai_calls(&body)[0].2, "{}");
    let raw = openai_chat::raw_tool_call("call_2", "write", &["{\"path\":", "oops"]);
    assert_eq!(openai_calls(&raw)[0].2, "{\"path\":oops");
}

#[test]
fn openai_builder_overrides() {
    let usage = MockUsage {
        input_tokens: 10,
        output_tokens: 5,
        cache_read_input_tokens: 30,
        cache_creation_input_tokens: 0,
    };
    let body = openai_chat::StreamBuilder::new()
        .usage(usage)
        .finish_reason("length")
        .text("x")
        .build();
    let last = json_payloads(&body).pop().unwrap();
    assert_eq!(last["usage"]["prompt_tokens"], 40);
    assert_eq!(last["usage"]["prompt_tokens_details"]["cached_tokens"], 30);
    assert_eq!(openai_finish(&body), ["length"]);
    let no_usage = openai_chat::StreamBuilder::new()
        .usage_chunk(openai_chat::UsageChunk::Omit)
        .text("x")
        .build();
    assert!(
        json_payloads(&no_usage)
            .iter()
            .all(|v| v["choices"] != json!([]))
    );
}

#[test]
fn byte_split_stream_over_the_wire_reassembles_exactly() {
    let body = anthropic::text("ünïcødé ✓ split at every byte");
    let server = MockServer::start(vec![MockResponse::sse(body.clone()).chunked(&[1, 2])]).unwrap();
    let r = post(&server.url(), "/v1/messages", "{}");
    assert_eq!(r.body_text(), body);
}
