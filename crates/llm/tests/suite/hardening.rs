//! QA findings over loopback HTTP: redirects are not followed, an endless
//! SSE line is bounded, finished answers on held connections complete after
//! a short grace, and JSON or HTML answers give readable errors.

use std::time::Duration;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use wright_llm::{
    AnthropicClient, DEFAULT_FINISH_GRACE, LlmError, ModelClient, ModelRequest, OpenAiChatClient,
    OpenAiResponsesClient, StreamEvent, http_client,
};
use wright_protocol::{Message, StopReason, Usage};

use super::server::{After, raw_response, serve_once, serve_once_in, sse_response};

const KEY: &str = "sk-ant-hardening-0123456789";
const ANTHROPIC_TEXT: &str = include_str!("../fixtures/anthropic/text.sse");
const RESPONSES_TEXT: &str = include_str!("../fixtures/openai_responses/text.sse");
/// Longer than any test may take: completion must not come from it.
const LONG_IDLE: Duration = Duration::from_secs(600);
/// A short grace so held-connection tests finish fast.
const GRACE: Duration = Duration::from_millis(100);

fn request() -> ModelRequest {
    ModelRequest {
        model: "m".into(),
        system: "sys".into(),
        messages: std::sync::Arc::new(vec![Message::user_text("hi")]),
        max_tokens: 100,
        ..ModelRequest::default()
    }
}

async fn collect(client: &dyn ModelClient) -> Vec<Result<StreamEvent, LlmError>> {
    client
        .stream(request(), CancellationToken::new())
        .collect()
        .await
}

fn only_error(items: Vec<Result<StreamEvent, LlmError>>) -> LlmError {
    match <[_; 1]>::try_from(items) {
        Ok([Err(e)]) => e,
        other => panic!("{other:?}"),
    }
}

fn completed(items: &[Result<StreamEvent, LlmError>]) -> (&Message, StopReason, Usage) {
    match items.last() {
        Some(Ok(StreamEvent::Completed {
            message,
            stop_reason,
            usage,
        })) => (message, *stop_reason, *usage),
        other => panic!("not completed: {other:?}"),
    }
}

#[test]
fn default_finish_grace_is_two_seconds() {
    assert_eq!(DEFAULT_FINISH_GRACE, Duration::from_secs(2));
}

#[tokio::test]
async fn redirect_is_not_followed_and_the_key_is_not_resent() {
    let (target, mut target_recorded) =
        serve_once(sse_response(ANTHROPIC_TEXT), After::Close).await;
    let location = format!("{target}/v1/messages?redir=1");
    let response = raw_response(
        "307 Temporary Redirect",
        "text/plain",
        &format!("location: {location}\r\n"),
        "moved",
    );
    let (base, recorded) = serve_once(response, After::Close).await;
    let client = AnthropicClient::new(http_client().unwrap(), base, Some(KEY.into()));
    let error = only_error(collect(&client).await);
    match &error {
        LlmError::Http {
            provider: "anthropic",
            status: 307,
            message,
            ..
        } => assert_eq!(
            message,
            &format!(
                "the server redirected to {location}; wright does not follow redirects \
                 (set --base-url to the final URL)"
            )
        ),
        other => panic!("{other:?}"),
    }
    assert!(!error.is_retryable());
    assert!(recorded.await.is_ok());
    // The stream is over, so a followed redirect would have reached it.
    assert!(target_recorded.try_recv().is_err());
}

#[tokio::test]
async fn endless_sse_line_fails_at_16_mib() {
    let mut response = sse_response("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"");
    response.resize(response.len() + 17 * 1024 * 1024, b'a');
    // Held open and never a newline: only the cap can end this.
    let (base, _) = serve_once_in(response, After::Hold, 64 * 1024).await;
    let client =
        OpenAiChatClient::new(http_client().unwrap(), base, None).with_idle_timeout(LONG_IDLE);
    let error = only_error(collect(&client).await);
    match &error {
        LlmError::Protocol {
            provider: "openai-chat",
            message,
        } => assert_eq!(message, "an event from the server exceeded 16 MiB"),
        other => panic!("{other:?}"),
    }
    assert!(!error.is_retryable());
}

#[tokio::test]
async fn chat_finish_reason_without_usage_or_done_completes_after_the_grace() {
    let body = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"answer text\"},\"finish_reason\":null}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
        ": keep-alive\n\n",
    );
    let (base, _) = serve_once(sse_response(body), After::Hold).await;
    let client = OpenAiChatClient::new(http_client().unwrap(), base, None)
        .with_idle_timeout(LONG_IDLE)
        .with_finish_grace(GRACE);
    let items = collect(&client).await;
    assert_eq!(items.len(), 2, "{items:?}");
    let (message, stop, usage) = completed(&items);
    assert_eq!(message.text(), "answer text");
    assert_eq!(stop, StopReason::EndTurn);
    assert_eq!(usage, Usage::default());
}

#[tokio::test]
async fn chat_without_a_finish_reason_still_hits_the_idle_timeout() {
    let body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n";
    let (base, _) = serve_once(sse_response(body), After::Hold).await;
    let client = OpenAiChatClient::new(http_client().unwrap(), base, None)
        .with_idle_timeout(Duration::from_millis(300))
        .with_finish_grace(Duration::from_millis(1));
    let items = collect(&client).await;
    assert!(
        matches!(items.last(), Some(Err(LlmError::Stalled { .. }))),
        "{items:?}"
    );
}

#[tokio::test]
async fn anthropic_stop_reason_without_message_stop_completes_after_the_grace() {
    let cut = ANTHROPIC_TEXT.find("event: message_stop").unwrap();
    let (base, _) = serve_once(sse_response(&ANTHROPIC_TEXT[..cut]), After::Hold).await;
    let client = AnthropicClient::new(http_client().unwrap(), base, None)
        .with_idle_timeout(LONG_IDLE)
        .with_finish_grace(GRACE);
    let items = collect(&client).await;
    let (message, stop, usage) = completed(&items);
    assert_eq!(message.text(), "Hello, wörld 😀");
    assert_eq!(stop, StopReason::EndTurn);
    assert_eq!(usage.output_tokens, 15);
}

#[tokio::test]
async fn responses_completed_ends_a_held_stream() {
    let (base, _) = serve_once(sse_response(RESPONSES_TEXT), After::Hold).await;
    // Neither timeout may end this stream: `response.completed` must.
    let client = OpenAiResponsesClient::new(http_client().unwrap(), base, None)
        .with_idle_timeout(LONG_IDLE)
        .with_finish_grace(LONG_IDLE);
    let items = collect(&client).await;
    completed(&items);
}

#[tokio::test]
async fn json_answer_to_a_stream_request_is_a_protocol_error() {
    let body = format!(r#"{{"error":{{"message":"streaming is disabled for key {KEY}"}}}}"#);
    let (base, _) = serve_once(
        raw_response("200 OK", "application/json; charset=utf-8", "", &body),
        After::Close,
    )
    .await;
    let client = OpenAiChatClient::new(http_client().unwrap(), base, Some(KEY.into()));
    let error = only_error(collect(&client).await);
    match &error {
        LlmError::Protocol {
            provider: "openai-chat",
            message,
        } => assert_eq!(
            message,
            "expected an event stream but the server answered with JSON: \
             streaming is disabled for key [REDACTED]"
        ),
        other => panic!("{other:?}"),
    }
    assert!(!error.is_retryable());
}

#[tokio::test]
async fn html_error_page_is_reduced_to_its_title() {
    let page = format!(
        "<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n\
         <center><h1>502 Bad Gateway</h1></center>\n<p>upstream key {KEY}</p>\n\
         <hr><center>nginx</center>\n</body>\n</html>\n"
    );
    let (base, _) = serve_once(
        raw_response("502 Bad Gateway", "text/html", "", &page),
        After::Close,
    )
    .await;
    let client = AnthropicClient::new(http_client().unwrap(), base, Some(KEY.into()));
    let error = only_error(collect(&client).await);
    match &error {
        LlmError::Http {
            status: 502,
            message,
            ..
        } => assert_eq!(message, "502 Bad Gateway (HTML body omitted)"),
        other => panic!("{other:?}"),
    }
    assert!(error.is_retryable());
    assert_eq!(
        error.to_string(),
        "anthropic API error (HTTP 502): 502 Bad Gateway (HTML body omitted)"
    );
}
