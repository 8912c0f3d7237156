//! Provider resilience end to end: retries with Retry-After, a dropped
//! stream retried without running a tool twice, and the usage/cost report.

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic, openai_responses};

use super::scenarios::{PROVIDERS, text, tool_calls};
use super::{Env, stderr, stdout};

#[test]
fn two_429s_with_retry_after_then_success() {
    for provider in PROVIDERS {
        let env = Env::new();
        let limited = || {
            MockResponse::json(
                429,
                json!({"error": {"type": "rate_limit_error", "message": "slow down"}}),
            )
            .with_header("retry-after", "1")
        };
        let server =
            MockServer::start(vec![limited(), limited(), text(provider, "made it")]).unwrap();
        let out = env
            .wright_p(provider, &server.url(), "hi")
            .env("WRIGHT_MAX_RETRIES", "4")
            .args(["--output-format", "stream-json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{provider}: {}", stderr(&out));
        let lines: Vec<Value> = super::ndjson(&out);
        let retries: Vec<&Value> = lines
            .iter()
            .filter(|l| l["type"] == "system" && l["subtype"] == "api_retry")
            .collect();
        assert_eq!(retries.len(), 2, "{provider}");
        assert_eq!(retries[0]["delay_ms"], 1000);
        assert!(retries[0]["reason"].as_str().unwrap().contains("429"));
        assert_eq!(lines.last().unwrap()["result"], "made it");
        assert_eq!(server.requests().len(), 3);
    }
}

#[test]
fn a_dropped_stream_is_retried_and_the_command_ran_once() {
    for provider in PROVIDERS {
        let env = Env::new();
        let answer = match provider {
            "anthropic" => anthropic::text("The log has one line."),
            "openai-responses" => openai_responses::text("The log has one line."),
            _ => wright_test_support::openai_chat::text("The log has one line."),
        };
        // Cut before any of the answer's text was shown: a break after
        // shown text ends the run instead (the fault matrix covers that).
        let cut = 10;
        let server = MockServer::start(vec![
            tool_calls(
                provider,
                &[("call_1", "Bash", json!({"command": "echo ran >> log.txt"}))],
            ),
            MockResponse::sse(answer.clone()).drop_after(cut),
            MockResponse::sse(answer),
        ])
        .unwrap();
        let out = env
            .wright_p(provider, &server.url(), "log once")
            .env("WRIGHT_MAX_RETRIES", "2")
            .args(["--permission-mode", "bypass"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{provider}: {}", stderr(&out));
        assert_eq!(
            std::fs::read_to_string(env.path("log.txt")).unwrap(),
            "ran\n",
            "{provider}"
        );
        assert!(stdout(&out).contains("The log has one line."));
        assert!(stderr(&out).contains("retrying"), "{}", stderr(&out));
        assert_eq!(server.requests().len(), 3);
    }
}

/// `wright -p hi` with a catalogued model (known prices) against `server`.
fn sonnet(env: &Env, server: &MockServer, extra: &[&str]) -> std::process::Output {
    env.wright()
        .args([
            "-p",
            "hi",
            "--provider",
            "anthropic",
            "--model",
            "claude-sonnet-4-5",
        ])
        .args(["--base-url", &server.url()])
        .args(extra)
        .env("ANTHROPIC_API_KEY", super::FAKE_KEY)
        .output()
        .unwrap()
}

#[test]
fn usage_and_cost_are_reported_for_a_known_model() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("hi"))]).unwrap();
    let out = sonnet(&env, &server, &["--output-format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let result: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    // 100 input and 20 output tokens at $3 / $15 per million.
    let cost = result["total_cost_usd"].as_f64().unwrap();
    assert!((cost - 0.0006).abs() < 1e-9, "{cost}");
    // The text format reports the same on stderr.
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("hi"))]).unwrap();
    let out = sonnet(&env, &server, &[]);
    assert!(stderr(&out).contains("$0.0006"), "{}", stderr(&out));
}

#[test]
fn budget_limit_stops_with_exit_code_4() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[("c1", "LS", json!({}))])),
        MockResponse::sse(anthropic::text("never")),
    ])
    .unwrap();
    let out = sonnet(
        &env,
        &server,
        &["--output-format", "json", "--max-budget-usd", "0.0001"],
    );
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let result: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(result["subtype"], "error_max_budget");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn unknown_models_warn_and_cost_nothing() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("hi"))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        stderr(&out).contains("unknown model `test-model`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn models_lists_the_catalog_with_overrides() {
    let env = Env::new();
    env.write_user_config("[models.\"my-local\"]\ncontext_window = 32768\ninput_price = 0.5\n");
    let out = env.wright().args(["models", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let models: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let list = models.as_array().unwrap();
    assert!(list.iter().any(|m| m["name"] == "claude-sonnet-4-5"));
    let mine = list.iter().find(|m| m["name"] == "my-local").unwrap();
    assert_eq!(mine["context_window"], 32768);
    assert_eq!(mine["pricing"]["input"], 0.5);
}

#[test]
fn chat_compat_flags_from_config_shape_the_request() {
    let env = Env::new();
    env.write_user_config(
        "[models.\"test-model\"]\ndeveloper_role = true\nmax_completion_tokens = true\nstream_usage = false\n",
    );
    let server = MockServer::start(vec![text("openai-chat", "ok")]).unwrap();
    let out = env
        .wright_p("openai-chat", &server.url(), "hi")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let body = server.requests()[0].json();
    assert_eq!(body["messages"][0]["role"], "developer");
    assert!(body.get("max_completion_tokens").is_some() && body.get("max_tokens").is_none());
    assert!(body.get("stream_options").is_none(), "{body}");
}

/// A local llama.cpp server's context window (its `/props`) is used for a
/// model the catalog does not know, instead of assuming 128k.
#[test]
fn a_local_servers_advertised_window_is_used() {
    let env = Env::new();
    let server = MockServer::start_routed(|req| match req.path.as_str() {
        "/props" => MockResponse::json(
            200,
            serde_json::json!({"default_generation_settings": {"n_ctx": 8192}, "total_slots": 1}),
        ),
        "/v1/chat/completions" => {
            MockResponse::sse(wright_test_support::openai_chat::text("local answer"))
        }
        _ => MockResponse::json(404, serde_json::json!({"error": "not found"})),
    })
    .unwrap();
    let port = server.addr().port().to_string();
    let out = env
        .wright_p("openai-chat", &server.url(), "hi")
        .args(["--output-format", "json"])
        .env("WRIGHT_LOCAL_SERVER_PORTS", &port)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("a 8192-token context window, as llama.cpp (/props) reports"),
        "{err}"
    );
    assert!(!err.contains("assuming a 128000-token window"), "{err}");
    let result: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(
        result["modelUsage"]["test-model"]["contextWindow"], 8192,
        "{result}"
    );
}
