//! Bad input and faults: each gives a clear message, no panic, no leaked key.

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, anthropic, openai_chat};

use super::scenarios::tool_results;
use super::{Env, FAKE_KEY, assert_clean, stderr, stdout};

#[test]
fn malformed_tool_arguments_become_an_error_result_and_the_loop_goes_on() {
    for provider in ["anthropic", "openai-chat"] {
        let env = Env::new();
        let broken = match provider {
            "anthropic" => anthropic::raw_tool_call("call_bad", "Read", &["{\"path\": ", "\"a.t"]),
            _ => openai_chat::raw_tool_call("call_bad", "Read", &["{\"path\": ", "\"a.t"]),
        };
        let answer = match provider {
            "anthropic" => anthropic::text("recovered"),
            _ => openai_chat::text("recovered"),
        };
        let server =
            MockServer::start(vec![MockResponse::sse(broken), MockResponse::sse(answer)]).unwrap();
        let out = env
            .wright_p(provider, &server.url(), "read a.txt")
            .output()
            .unwrap();
        assert_clean(&out);
        assert!(out.status.success(), "{provider}: {}", stderr(&out));
        assert!(stdout(&out).contains("recovered"));
        let results = tool_results(provider, &server.requests()[1]);
        assert_eq!(results[0].0, "call_bad");
        assert!(
            results[0].1.starts_with("Invalid arguments"),
            "{:?}",
            results[0]
        );
        // The broken call still went back to the server in a form it accepts.
        let body = server.requests()[1].json();
        if provider == "anthropic" {
            let call = &body["messages"][1]["content"][0];
            assert_eq!(call["type"], "tool_use");
            assert!(call["input"].is_object());
        }
    }
}

#[test]
fn unknown_tool_and_missing_arguments_are_reported_to_the_model() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[
            ("c1", "frobnicate", json!({"x": 1})),
            ("c2", "Read", json!({})),
        ])),
        MockResponse::sse(anthropic::text("ok")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .output()
        .unwrap();
    assert_clean(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    let results = tool_results("anthropic", &server.requests()[1]);
    assert!(
        results[0].1.contains("Unknown tool `frobnicate`"),
        "{:?}",
        results[0]
    );
    assert!(results[0].1.contains("Read"));
    assert!(results[0].2);
    assert!(
        results[1].1.starts_with("Invalid arguments"),
        "{:?}",
        results[1]
    );
}

#[test]
fn server_error_is_shown_clearly_without_the_key() {
    for provider in ["anthropic", "openai-chat"] {
        let env = Env::new();
        let server = MockServer::start(vec![MockResponse::json(
            500,
            json!({"type": "error", "error": {"type": "api_error", "message": format!("internal failure for key {FAKE_KEY}")}}),
        )])
        .unwrap();
        let out = env
            .wright_p(provider, &server.url(), "hi")
            .output()
            .unwrap();
        assert_clean(&out);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("500"), "{err}");
        assert!(err.contains("internal failure"), "{err}");
    }
}

#[test]
fn dropped_connection_mid_stream_is_an_error_not_a_hang() {
    for provider in ["anthropic", "openai-chat"] {
        let env = Env::new();
        let body = match provider {
            "anthropic" => anthropic::text("this answer will be cut off somewhere in the middle"),
            _ => openai_chat::text("this answer will be cut off somewhere in the middle"),
        };
        let cut = body.len() / 2;
        let server = MockServer::start(vec![MockResponse::sse(body).drop_after(cut)]).unwrap();
        let out = env
            .wright_p(provider, &server.url(), "hi")
            .output()
            .unwrap();
        assert_clean(&out);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains("error:"), "{}", stderr(&out));
    }
}

#[test]
fn connection_refused_is_a_clear_error() {
    let env = Env::new();
    // Bind then drop, so nothing listens on the port.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = env
        .wright_p("anthropic", &format!("http://127.0.0.1:{port}"), "hi")
        .output()
        .unwrap();
    assert_clean(&out);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("anthropic"), "{}", stderr(&out));
}

#[test]
fn error_event_mid_stream_is_reported() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::error_event(
        "overloaded_error",
        "Overloaded",
    ))])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .output()
        .unwrap();
    assert_clean(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("Overloaded"), "{}", stderr(&out));
}

#[test]
fn missing_key_says_which_variable_to_set() {
    let env = Env::new();
    let out = env
        .wright()
        .args(["-p", "hi", "--provider", "anthropic"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("ANTHROPIC_API_KEY"),
        "{}",
        stderr(&out)
    );
    let out = env
        .wright()
        .args(["-p", "hi", "--provider", "openai-chat"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("OPENAI_API_KEY"), "{}", stderr(&out));
}

#[test]
fn nothing_configured_names_every_option() {
    let env = Env::new();
    let out = env.wright().args(["-p", "hi"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    for needle in ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "--base-url"] {
        assert!(err.contains(needle), "{err}");
    }
}

#[test]
fn a_local_server_is_detected_when_nothing_is_configured() {
    let env = Env::new();
    // A local server is also asked for its context window (`/props`, …):
    // this one knows only chat completions.
    let server = MockServer::start_routed(|req| match req.path.as_str() {
        "/v1/chat/completions" => MockResponse::sse(openai_chat::text("local hi")),
        _ => MockResponse::json(404, serde_json::json!({"error": "not found"})),
    })
    .unwrap();
    let port = server.url().rsplit(':').next().unwrap().to_owned();
    let out = env
        .wright()
        .args(["-p", "hi", "--model", "llama3"])
        .env("WRIGHT_LOCAL_SERVER_PORTS", &port)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("local hi"));
    assert!(
        stderr(&out).contains(&format!("127.0.0.1:{port}")),
        "{}",
        stderr(&out)
    );
    let requests = server.requests();
    let r = requests
        .iter()
        .find(|r| r.path == "/v1/chat/completions")
        .unwrap();
    assert_eq!(r.json()["model"], "llama3");
}

#[test]
fn empty_prompt_is_a_usage_error() {
    let env = Env::new();
    let out = env.wright().args(["-p", "  "]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no prompt"));
}
