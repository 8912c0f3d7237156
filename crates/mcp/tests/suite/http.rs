//! Streamable HTTP against the test server on loopback, in this process.

use std::collections::BTreeMap;
use std::time::Duration;

use pretty_assertions::assert_eq;
use serde_json::json;
use tokio_util::sync::CancellationToken;
use wright_mcp::{ConfigSource, McpServer, McpServerConfig, ServerStatus};
use wright_test_support::mcp_server::{HttpTestServer, TINY_PNG};

use super::start;

const LONG: Duration = Duration::from_secs(30);

/// An HTTP server entry for `url` (with a custom header).
pub fn http_server(name: &str, url: &str) -> McpServer {
    McpServer {
        name: name.into(),
        config: McpServerConfig::Http {
            url: url.into(),
            headers: BTreeMap::from([("X-Test".to_owned(), "1".to_owned())]),
        },
        source: ConfigSource::CommandLine,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_over_streamable_http() {
    let server = HttpTestServer::start().await.unwrap();
    let mcp = start(vec![http_server("web", &server.url)]).await;
    let status = &mcp.statuses()[0];
    assert_eq!(status.transport, "http");
    assert!(
        matches!(status.status, ServerStatus::Connected { .. }),
        "{:?}",
        status.status
    );
    let none = CancellationToken::new();

    let echo = mcp
        .call(
            "mcp__web__echo",
            json!({"text": "over http"}),
            LONG,
            &none,
            None,
        )
        .await
        .unwrap();
    assert_eq!(echo.text, "over http");
    let image = mcp
        .call("mcp__web__image", json!({}), LONG, &none, None)
        .await
        .unwrap();
    assert_eq!(image.images[0].data, TINY_PNG);
    let fail = mcp
        .call("mcp__web__fail", json!({}), LONG, &none, None)
        .await
        .unwrap();
    assert!(fail.is_error);

    mcp.call(
        "mcp__web__add_tool",
        json!({"name": "later"}),
        LONG,
        &none,
        None,
    )
    .await
    .unwrap();
    // Over HTTP the notification may come after the call's answer.
    assert!(mcp.wait_list_changed(LONG).await);
    assert!(mcp.refresh_if_stale().await);
    assert!(mcp.resolve("mcp__web__later").is_some());
    mcp.shutdown().await;
}

#[tokio::test]
async fn an_unreachable_url_is_reported() {
    // Port 9 (discard) on loopback: nothing listens in a test environment.
    let mcp = start(vec![http_server("down", "http://127.0.0.1:9/mcp")]).await;
    let ServerStatus::Failed { reason } = &mcp.statuses()[0].status else {
        panic!("connected to nothing");
    };
    assert!(reason.contains("initialize failed"), "{reason}");
    // The cause, not rmcp's Rust type names.
    assert!(reason.contains("http://127.0.0.1:9/mcp"), "{reason}");
    assert!(!reason.contains("rmcp::"), "{reason}");
}

#[tokio::test]
async fn a_401_is_reported_as_needing_authorization_and_headers_are_sent() {
    let mock = wright_test_support::MockServer::start_looping(vec![
        wright_test_support::MockResponse::json(401, json!({"error": "unauthorized"}))
            .with_header("WWW-Authenticate", "Bearer realm=\"mcp\""),
    ])
    .unwrap();
    let url = format!("{}/mcp", mock.url());
    let mcp = start(vec![http_server("private", &url)]).await;
    let ServerStatus::Failed { reason } = &mcp.statuses()[0].status else {
        panic!("connected without authorization");
    };
    assert!(reason.contains(wright_mcp::AUTH_REQUIRED), "{reason}");
    let first = &mock.requests()[0];
    assert_eq!(first.method, "POST");
    assert_eq!(first.header("x-test"), Some("1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_goes_away_mid_call_fails_the_call_instead_of_hanging() {
    let server = HttpTestServer::start().await.unwrap();
    let mcp = start(vec![http_server("web", &server.url)]).await;
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("mark");
    let args = json!({"ms": 600_000, "mark": mark.to_str().unwrap()});
    // Far beyond the stream's few resume attempts: the call must end
    // because the server is gone, not because its time ran out.
    let timeout = Duration::from_secs(300);
    let none = CancellationToken::new();
    let call = mcp.call("mcp__web__slow", args, timeout, &none, None);
    let stopper = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        drop(server);
    };
    let (outcome, ()) = tokio::join!(call, stopper);
    let err = outcome.unwrap_err();
    assert!(
        !matches!(err, wright_mcp::McpError::Timeout { .. }),
        "{err}"
    );
    mcp.shutdown().await;
}
