//! Stream endings that are not success, per protocol: an answer cut at the
//! output limit is continued (a bounded number of times) and never reported
//! as a finished one; a cut tool call is never run.

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic, openai_chat, openai_responses};

use super::scenarios::{text, tool_results};
use super::{Env, assert_clean, stderr, stdout};

const PROVIDERS: [&str; 3] = ["anthropic", "openai-chat", "openai-responses"];

/// `text` (and `calls`) ending at the output limit, in `provider`'s shape.
fn cut(provider: &str, text: &str, calls: &[(&str, &str, Value)]) -> MockResponse {
    MockResponse::sse(match provider {
        "anthropic" => {
            let mut b = anthropic::StreamBuilder::new();
            if !text.is_empty() {
                b = b.text(text);
            }
            for (id, name, input) in calls {
                b = b.tool_call(id, name, input);
            }
            b.stop_reason("max_tokens").build()
        }
        "openai-chat" => {
            let mut b = openai_chat::StreamBuilder::new();
            if !text.is_empty() {
                b = b.text(text);
            }
            for (id, name, input) in calls {
                b = b.tool_call(id, name, input);
            }
            b.finish_reason("length").build()
        }
        _ => openai_responses::cut_at_output_limit(text, calls),
    })
}

/// The text of the last user message of a recorded request.
fn last_user_text(provider: &str, body: &Value) -> String {
    let items = match provider {
        "openai-responses" => body["input"].as_array().unwrap().clone(),
        _ => body["messages"].as_array().unwrap().clone(),
    };
    let last = items.iter().rev().find(|m| m["role"] == "user").unwrap();
    match &last["content"] {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[test]
fn an_answer_cut_at_the_output_limit_is_continued() {
    for provider in PROVIDERS {
        let env = Env::new();
        let server = MockServer::start(vec![
            cut(provider, "Part one, ", &[]),
            text(provider, "part two."),
        ])
        .unwrap();
        let out = env
            .wright_p(provider, &server.url(), "write it")
            .args(["--output-format", "json"])
            .output()
            .unwrap();
        assert_clean(&out);
        assert!(out.status.success(), "{provider}: {}", stderr(&out));
        let result: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(result["result"], json!("Part one, part two."), "{provider}");
        let requests = server.requests();
        assert_eq!(requests.len(), 2, "{provider}");
        let body = requests[1].json();
        // The cut part goes back as the model wrote it, then the request to go on.
        assert!(
            body.to_string().contains("Part one, "),
            "{provider}: {body}"
        );
        assert!(
            last_user_text(provider, &body).contains("cut off by the output token limit"),
            "{provider}: {body}"
        );
    }
}

#[test]
fn an_answer_still_cut_after_the_continuations_fails_clearly() {
    for provider in PROVIDERS {
        let env = Env::new();
        let server = MockServer::start(
            (0..4)
                .map(|n| cut(provider, &format!("part {n} "), &[]))
                .collect(),
        )
        .unwrap();
        let out = env
            .wright_p(provider, &server.url(), "write it")
            .output()
            .unwrap();
        assert_clean(&out);
        assert_eq!(out.status.code(), Some(1), "{provider}: {}", stderr(&out));
        assert!(stderr(&out).contains("asking the model to continue (3/3)"));
        assert!(
            stderr(&out).contains("still cut off at the output limit"),
            "{provider}: {}",
            stderr(&out)
        );
        assert_eq!(server.request_count(), 4, "{provider}");
    }
}

#[test]
fn a_tool_call_cut_at_the_output_limit_is_never_run() {
    for provider in PROVIDERS {
        let env = Env::new();
        // Even complete-looking arguments of the last call may be a prefix.
        let server = MockServer::start(vec![
            cut(
                provider,
                "",
                &[(
                    "call_cut",
                    "Write",
                    json!({"file_path": "out.txt", "content": "x"}),
                )],
            ),
            text(provider, "smaller steps then"),
        ])
        .unwrap();
        let out = env
            .wright_p(provider, &server.url(), "write out.txt")
            .args(["--permission-mode", "bypass"])
            .output()
            .unwrap();
        assert_clean(&out);
        assert!(out.status.success(), "{provider}: {}", stderr(&out));
        assert!(
            !env.path("out.txt").exists(),
            "{provider}: the cut call ran"
        );
        let results = tool_results(provider, &server.requests()[1]);
        assert_eq!(results[0].0, "call_cut", "{provider}");
        assert!(
            results[0].1.contains("output limit"),
            "{provider}: {results:?}"
        );
        assert!(
            results[0].1.contains("smaller step"),
            "{provider}: {results:?}"
        );
    }
}

#[test]
fn a_vllm_tool_call_id_is_echoed_exactly() {
    let env = Env::new();
    let id = "chatcmpl-tool-0123456789abcdef0123456789abcdef";
    let server = MockServer::start(vec![
        MockResponse::sse(openai_chat::tool_calls(&[(id, "LS", json!({}))])),
        MockResponse::sse(openai_chat::text("done")),
    ])
    .unwrap();
    let out = env
        .wright_p("openai-chat", &server.url(), "list")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let body = server.requests()[1].json();
    assert_eq!(
        body["messages"][2]["tool_calls"][0]["id"],
        json!(id),
        "{body}"
    );
    assert_eq!(body["messages"][3]["tool_call_id"], json!(id), "{body}");
}

/// One Anthropic SSE event.
fn anthropic_event(data: &Value) -> String {
    format!(
        "event: {}\ndata: {data}\n\n",
        data["type"].as_str().unwrap()
    )
}

#[test]
fn pause_turn_is_continued_with_server_tool_blocks_sent_back_verbatim() {
    let env = Env::new();
    let search = json!({"type": "server_tool_use", "id": "srvtoolu_01ABC", "name": "web_search", "input": {"query": "wright agent"}});
    let results = json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01ABC",
        "content": [{"type": "web_search_result", "url": "https://example.com", "title": "Example",
            "encrypted_content": "EqgfCioIARgBIiQ3", "page_age": null}]});
    let mut paused = anthropic_event(&json!({"type": "message_start", "message": {"id": "msg_1",
        "type": "message", "role": "assistant", "model": "m", "content": [], "stop_reason": null,
        "usage": {"input_tokens": 10, "output_tokens": 1}}}));
    paused += &anthropic_event(&json!({"type": "content_block_start", "index": 0,
        "content_block": {"type": "text", "text": ""}}));
    paused += &anthropic_event(&json!({"type": "content_block_delta", "index": 0,
        "delta": {"type": "text_delta", "text": "Searching. "}}));
    paused += &anthropic_event(&json!({"type": "content_block_stop", "index": 0}));
    // The server tool's input streams as JSON deltas after an empty start.
    paused += &anthropic_event(&json!({"type": "content_block_start", "index": 1,
        "content_block": {"type": "server_tool_use", "id": "srvtoolu_01ABC", "name": "web_search", "input": {}}}));
    paused += &anthropic_event(&json!({"type": "content_block_delta", "index": 1,
        "delta": {"type": "input_json_delta", "partial_json": "{\"query\": \"wright"}}));
    paused += &anthropic_event(&json!({"type": "content_block_delta", "index": 1,
        "delta": {"type": "input_json_delta", "partial_json": " agent\"}"}}));
    paused += &anthropic_event(&json!({"type": "content_block_stop", "index": 1}));
    paused += &anthropic_event(
        &json!({"type": "content_block_start", "index": 2, "content_block": results}),
    );
    paused += &anthropic_event(&json!({"type": "content_block_stop", "index": 2}));
    paused += &anthropic_event(&json!({"type": "message_delta",
        "delta": {"stop_reason": "pause_turn", "stop_sequence": null}, "usage": {"output_tokens": 30}}));
    paused += &anthropic_event(&json!({"type": "message_stop"}));
    let server = MockServer::start(vec![
        MockResponse::sse(paused),
        MockResponse::sse(anthropic::text("Found it.")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "search")
        .args(["--output-format", "json"])
        .output()
        .unwrap();
    assert_clean(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    let result: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(result["result"], json!("Searching. Found it."));
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let body = requests[1].json();
    let messages = body["messages"].as_array().unwrap();
    // No new user message: the paused assistant turn is the last message.
    let last = messages.last().unwrap();
    assert_eq!(last["role"], "assistant", "{body}");
    assert_eq!(
        last["content"][0],
        json!({"type": "text", "text": "Searching. "})
    );
    assert_eq!(last["content"][1], search);
    assert_eq!(last["content"][2], results);
}

/// A cap the user set is the answer's length: an answer cut there is kept
/// (exit 0, one request), not continued past it.
#[test]
fn an_answer_cut_at_a_limit_the_user_chose_is_kept() {
    for provider in PROVIDERS {
        let env = Env::new();
        let server = MockServer::start(vec![
            cut(provider, "A short answer, ", &[]),
            text(provider, "never asked for"),
        ])
        .unwrap();
        let out = env
            .wright_p(provider, &server.url(), "be brief")
            .args(["--max-tokens", "64"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{provider}: {}", stderr(&out));
        assert!(stdout(&out).contains("A short answer,"), "{provider}");
        assert!(
            stderr(&out).contains("output limit you set (64 tokens)"),
            "{provider}: {}",
            stderr(&out)
        );
        assert_eq!(server.request_count(), 1, "{provider}");
    }
}
