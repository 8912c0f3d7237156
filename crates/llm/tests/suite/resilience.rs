//! The newer paths over loopback HTTP: the Responses adapter, the idle
//! timeout, and Chat servers that hold the connection open after finishing.

use std::time::Duration;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use wright_llm::{
    ChatCompat, LlmError, ModelClient, ModelRequest, OpenAiChatClient, OpenAiResponsesClient,
    RetryPolicy, StreamEvent, http_client,
};
use wright_protocol::{Message, StopReason};

use super::server::{After, serve_once, sse_response};

const RESPONSES_TOOL_CALLS: &str = include_str!("../fixtures/openai_responses/tool_calls.sse");
const KEY: &str = "sk-test-responses-0123456789";

fn request() -> ModelRequest {
    ModelRequest {
        model: "gpt-5".into(),
        system: "sys".into(),
        messages: std::sync::Arc::new(vec![Message::user_text("hi")]),
        max_tokens: 100,
        ..ModelRequest::default()
    }
}

#[tokio::test]
async fn responses_streams_tool_calls_with_bearer() {
    let (base, recorded) = serve_once(sse_response(RESPONSES_TOOL_CALLS), After::Close).await;
    let client = OpenAiResponsesClient::new(
        http_client().unwrap(),
        format!("{base}/v1/"),
        Some(KEY.into()),
    );
    assert_eq!(client.provider(), "openai-responses");
    let items: Vec<_> = client
        .stream(request(), CancellationToken::new())
        .collect()
        .await;
    match items.last() {
        Some(Ok(StreamEvent::Completed { stop_reason, .. })) => {
            assert_eq!(*stop_reason, StopReason::ToolUse);
        }
        other => panic!("{other:?}"),
    }
    let recorded = recorded.await.unwrap();
    let head = recorded.head.to_ascii_lowercase();
    assert!(
        head.starts_with("post /v1/responses http/1.1\r\n"),
        "{head}"
    );
    assert!(
        head.contains(&format!("authorization: bearer {KEY}")),
        "{head}"
    );
    assert_eq!(recorded.body["store"], false);
    assert_eq!(recorded.body["instructions"], "sys");
    assert!(!format!("{client:?}").contains(KEY));
}

#[tokio::test]
async fn stalled_stream_hits_the_idle_timeout() {
    let first = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n";
    let (base, _) = serve_once(sse_response(first), After::Hold).await;
    let client = OpenAiChatClient::new(http_client().unwrap(), base, None)
        .with_idle_timeout(Duration::from_millis(200));
    let items: Vec<_> = client
        .stream(request(), CancellationToken::new())
        .collect()
        .await;
    assert_eq!(
        items[0].as_ref().unwrap(),
        &StreamEvent::TextDelta("Hi".into())
    );
    match items.last() {
        Some(Err(
            e @ LlmError::Stalled {
                after,
                mid_stream: true,
                ..
            },
        )) => {
            assert_eq!(*after, Duration::from_millis(200));
            assert!(e.to_string().contains("sent nothing for 200 ms"), "{e}");
            assert!(e.is_retryable() && e.is_stall());
            assert!(RetryPolicy::default().delay_for(1, e).is_some());
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn server_that_never_answers_hits_the_first_byte_timeout() {
    // Accepts and reads the request but writes nothing back.
    let (base, _) = serve_once(Vec::new(), After::Hold).await;
    let client = OpenAiResponsesClient::new(http_client().unwrap(), base, None)
        .with_idle_timeout(Duration::from_secs(60))
        .with_first_byte_timeout(Duration::from_millis(200));
    let items: Vec<_> = client
        .stream(request(), CancellationToken::new())
        .collect()
        .await;
    assert!(
        matches!(
            items.as_slice(),
            [Err(LlmError::Stalled {
                provider: "openai-responses",
                mid_stream: false,
                ..
            })]
        ),
        "{items:?}"
    );
}

#[tokio::test]
async fn chat_completes_without_done_on_a_held_connection() {
    let body = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}\n\n",
    );
    let (base, _) = serve_once(sse_response(body), After::Hold).await;
    // A long idle timeout: completion must come from the events alone.
    let client = OpenAiChatClient::new(http_client().unwrap(), base, None)
        .with_compat(ChatCompat::default())
        .with_idle_timeout(Duration::from_secs(600));
    let items: Vec<_> = client
        .stream(request(), CancellationToken::new())
        .collect()
        .await;
    match items.last() {
        Some(Ok(StreamEvent::Completed { usage, .. })) => assert_eq!(usage.input_tokens, 3),
        other => panic!("{other:?}"),
    }
}
