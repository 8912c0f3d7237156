//! Both adapters over loopback HTTP: headers, paths, streaming, HTTP errors,
//! truncation, cancellation and refused connections.

use std::time::Duration;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use wright_llm::{
    AnthropicClient, LlmError, ModelClient, ModelRequest, OpenAiChatClient, StreamEvent,
    http_client,
};
use wright_protocol::{Message, StopReason};

use super::server::{After, error_response, serve_once, sse_response};

const ANTHROPIC_TEXT: &str = include_str!("../fixtures/anthropic/text.sse");
const CHAT_TOOL_CALLS: &str = include_str!("../fixtures/openai_chat/tool_calls.sse");
const KEY: &str = "sk-test-0123456789abcdef";

fn request() -> ModelRequest {
    ModelRequest {
        model: "m".into(),
        system: "sys".into(),
        messages: std::sync::Arc::new(vec![Message::user_text("hi")]),
        tools: vec![],
        max_tokens: 100,
        ..ModelRequest::default()
    }
}

async fn collect(
    client: &dyn ModelClient,
    cancel: CancellationToken,
) -> Vec<Result<StreamEvent, LlmError>> {
    client.stream(request(), cancel).collect().await
}

fn stop_reason(items: &[Result<StreamEvent, LlmError>]) -> StopReason {
    match items.last() {
        Some(Ok(StreamEvent::Completed { stop_reason, .. })) => *stop_reason,
        other => panic!("not completed: {other:?}"),
    }
}

#[tokio::test]
async fn anthropic_streams_text_with_headers() {
    let (base, recorded) = serve_once(sse_response(ANTHROPIC_TEXT), After::Close).await;
    let client = AnthropicClient::new(http_client().unwrap(), format!("{base}/"), Some(KEY.into()));
    assert_eq!(client.provider(), "anthropic");
    let items = collect(&client, CancellationToken::new()).await;
    // `message_start`'s usage first (what a cancel still counts), then text.
    assert_eq!(items.len(), 4, "{items:?}");
    assert!(matches!(items[0], Ok(StreamEvent::Usage(_))), "{items:?}");
    assert_eq!(stop_reason(&items), StopReason::EndTurn);
    let recorded = recorded.await.unwrap();
    let head = recorded.head.to_ascii_lowercase();
    assert!(head.starts_with("post /v1/messages http/1.1\r\n"), "{head}");
    assert!(head.contains(&format!("x-api-key: {KEY}")), "{head}");
    assert!(head.contains("anthropic-version: 2023-06-01"), "{head}");
    assert!(head.contains("user-agent: wright/"), "{head}");
    assert_eq!(recorded.body["stream"], true);
    assert_eq!(recorded.body["system"], "sys");
    assert!(!format!("{client:?}").contains(KEY));
}

#[tokio::test]
async fn openai_chat_streams_tool_calls_with_bearer() {
    let (base, recorded) = serve_once(sse_response(CHAT_TOOL_CALLS), After::Close).await;
    let client = OpenAiChatClient::new(
        http_client().unwrap(),
        format!("{base}/v1"),
        Some(KEY.into()),
    );
    assert_eq!(client.provider(), "openai-chat");
    let items = collect(&client, CancellationToken::new()).await;
    assert_eq!(stop_reason(&items), StopReason::ToolUse);
    let head = recorded.await.unwrap().head.to_ascii_lowercase();
    assert!(
        head.starts_with("post /v1/chat/completions http/1.1\r\n"),
        "{head}"
    );
    assert!(
        head.contains(&format!("authorization: bearer {KEY}")),
        "{head}"
    );
}

#[tokio::test]
async fn no_key_sends_no_auth_header() {
    let (base, recorded) = serve_once(sse_response(CHAT_TOOL_CALLS), After::Close).await;
    let client = OpenAiChatClient::new(http_client().unwrap(), base, None);
    let _ = collect(&client, CancellationToken::new()).await;
    let head = recorded.await.unwrap().head.to_ascii_lowercase();
    assert!(!head.contains("authorization"), "{head}");
}

#[tokio::test]
async fn http_error_carries_status_message_and_retry_after_without_the_key() {
    let body = format!(
        r#"{{"type":"error","error":{{"type":"rate_limit_error","message":"Slow down, key {KEY} is busy"}}}}"#
    );
    let response = error_response("429 Too Many Requests", "retry-after: 3\r\n", &body);
    let (base, _) = serve_once(response, After::Close).await;
    let client = AnthropicClient::new(http_client().unwrap(), base, Some(KEY.into()));
    let items = collect(&client, CancellationToken::new()).await;
    assert_eq!(items.len(), 1);
    let error = items.into_iter().next().unwrap().unwrap_err();
    match &error {
        LlmError::Http {
            provider,
            status,
            message,
            retry_after,
        } => {
            assert_eq!(*provider, "anthropic");
            assert_eq!(*status, 429);
            assert_eq!(message, "Slow down, key [REDACTED] is busy");
            assert_eq!(*retry_after, Some(Duration::from_secs(3)));
        }
        other => panic!("{other:?}"),
    }
    assert!(error.is_retryable());
    assert!(!error.to_string().contains(KEY));
}

#[tokio::test]
async fn closed_mid_stream_is_truncated() {
    let cut = ANTHROPIC_TEXT.find("event: message_delta").unwrap();
    let (base, _) = serve_once(sse_response(&ANTHROPIC_TEXT[..cut]), After::Close).await;
    let client = AnthropicClient::new(http_client().unwrap(), base, None);
    let items = collect(&client, CancellationToken::new()).await;
    assert!(
        matches!(
            items.last(),
            Some(Err(LlmError::Truncated {
                provider: "anthropic"
            }))
        ),
        "{items:?}"
    );
    assert!(items.last().unwrap().as_ref().unwrap_err().is_retryable());
}

#[tokio::test]
async fn cancel_stops_a_stalled_stream() {
    let first = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n";
    let (base, _) = serve_once(sse_response(first), After::Hold).await;
    let client = OpenAiChatClient::new(http_client().unwrap(), base, None);
    let cancel = CancellationToken::new();
    let mut stream = client.stream(request(), cancel.clone());
    assert_eq!(
        stream.next().await.unwrap().unwrap(),
        StreamEvent::TextDelta("Hi".into())
    );
    cancel.cancel();
    assert!(matches!(
        stream.next().await,
        Some(Err(LlmError::Cancelled))
    ));
    assert!(stream.next().await.is_none());
}

#[tokio::test]
async fn cancelled_before_start_sends_nothing() {
    let client = OpenAiChatClient::new(http_client().unwrap(), "http://127.0.0.1:9".into(), None);
    let cancel = CancellationToken::new();
    cancel.cancel();
    let items = collect(&client, cancel).await;
    assert!(
        matches!(items.as_slice(), [Err(LlmError::Cancelled)]),
        "{items:?}"
    );
}

#[tokio::test]
async fn refused_connection_is_a_retryable_connection_error() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let client = AnthropicClient::new(http_client().unwrap(), base, Some(KEY.into()));
    let items = collect(&client, CancellationToken::new()).await;
    match items.as_slice() {
        [
            Err(
                e @ LlmError::Connection {
                    provider: "anthropic",
                    ..
                },
            ),
        ] => {
            assert!(e.is_retryable());
            assert!(!e.to_string().contains(KEY));
        }
        other => panic!("{other:?}"),
    }
}
