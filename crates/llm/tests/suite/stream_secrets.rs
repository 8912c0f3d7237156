//! Errors that arrive inside a stream are redacted like HTTP error bodies:
//! every provider × every in-stream error shape × every kind of key (an
//! `sk-ant-…` key, an `sk-proj-…` key, the configured key bytes, which look
//! like nothing in particular), through the real HTTP driver.

use futures::StreamExt;
use serde_json::json;
use tokio_util::sync::CancellationToken;
use wright_llm::{
    AnthropicClient, LlmError, ModelClient, ModelRequest, OpenAiChatClient, OpenAiResponsesClient,
    StreamEvent, http_client,
};
use wright_protocol::Message;

use super::server::{After, serve_once, sse_response};

/// Fake keys, never real ones.
const ANT_KEY: &str = "sk-ant-api03-FAKEfakeFAKE0123456789-abcdefXYZ_fake";
const PROJ_KEY: &str = "sk-proj-FAKEfake0123456789abcdefFAKEfake";
/// What the client is configured with; only its bytes identify it.
const CONFIGURED: &str = "Zq7plainConfiguredSecretValueXy";

fn request() -> ModelRequest {
    ModelRequest {
        model: "m".into(),
        system: "sys".into(),
        messages: std::sync::Arc::new(vec![Message::user_text("hi")]),
        max_tokens: 100,
        ..ModelRequest::default()
    }
}

fn named(name: &str, data: &serde_json::Value) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}

fn unnamed(data: &serde_json::Value) -> String {
    format!("data: {data}\n\n")
}

/// `(provider, shape, SSE body)` with `key` somewhere in the server's text.
fn cases(key: &str) -> Vec<(&'static str, &'static str, String)> {
    let start = named(
        "message_start",
        &json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
            "role": "assistant", "model": "m", "content": [], "stop_reason": null,
            "usage": {"input_tokens": 1, "output_tokens": 1}}}),
    );
    let chat_start = unnamed(&json!({"id": "c", "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Work"}}]}));
    let created = named(
        "response.created",
        &json!({"type": "response.created", "response": {"id": "r", "status": "in_progress", "output": []}}),
    );
    let long = format!("{}{key}", "padding ".repeat(60));
    vec![
        (
            "anthropic",
            "message",
            start.clone()
                + &named(
                    "error",
                    &json!({"type": "error", "error": {"type": "authentication_error",
                        "message": format!("invalid x-api-key: {key}")}}),
                ),
        ),
        (
            "anthropic",
            "type",
            start.clone()
                + &named(
                    "error",
                    &json!({"type": "error", "error": {"type": key, "message": "no"}}),
                ),
        ),
        (
            "anthropic",
            "past the cap",
            start
                + &named(
                    "error",
                    &json!({"type": "error", "error": {"type": "api_error", "message": long}}),
                ),
        ),
        (
            "openai-chat",
            "object",
            chat_start.clone()
                + &unnamed(&json!({"error": {"message": format!("Incorrect key {key}"),
                    "type": "invalid_request_error"}})),
        ),
        (
            "openai-chat",
            "string",
            chat_start + &unnamed(&json!({"error": format!("Authorization: Bearer {key}")})),
        ),
        (
            "openai-responses",
            "flat error",
            created.clone()
                + &named(
                    "error",
                    &json!({"type": "error", "code": "invalid_api_key", "message": format!("api_key={key}")}),
                ),
        ),
        (
            "openai-responses",
            "nested error",
            created.clone()
                + &named(
                    "error",
                    &json!({"type": "error", "error": {"code": key, "message": key}}),
                ),
        ),
        (
            "openai-responses",
            "response.failed",
            created
                + &named(
                    "response.failed",
                    &json!({"type": "response.failed", "response": {"id": "r", "status": "failed",
                        "error": {"code": "server_error", "message": format!("{key} failed")}}}),
                ),
        ),
    ]
}

fn client(provider: &str, base: String) -> Box<dyn ModelClient> {
    let http = http_client().unwrap();
    let key = Some(CONFIGURED.to_owned());
    match provider {
        "anthropic" => Box::new(AnthropicClient::new(http, base, key)),
        "openai-chat" => Box::new(OpenAiChatClient::new(http, base, key)),
        _ => Box::new(OpenAiResponsesClient::new(http, base, key)),
    }
}

#[tokio::test]
async fn in_stream_errors_never_carry_a_key() {
    let mut checked = 0;
    for key in [ANT_KEY, PROJ_KEY, CONFIGURED] {
        for (provider, shape, body) in cases(key) {
            let (base, _) = serve_once(sse_response(&body), After::Close).await;
            let client = client(provider, base);
            let items: Vec<Result<StreamEvent, LlmError>> = client
                .stream(request(), CancellationToken::new())
                .collect()
                .await;
            let case = format!("{provider}/{shape}/{}", &key[..8]);
            let Some(Err(error)) = items.last() else {
                panic!("{case}: no error: {items:?}");
            };
            assert!(matches!(error, LlmError::Api { .. }), "{case}: {error:?}");
            let shown = format!("{error} {error:?}");
            assert!(!shown.contains(key), "{case}: {shown}");
            // Not even a recognisable piece of it.
            assert!(!shown.contains(&key[..16]), "{case}: {shown}");
            assert!(shown.contains("[REDACTED"), "{case}: {shown}");
            checked += 1;
        }
    }
    assert_eq!(checked, 24);
}
