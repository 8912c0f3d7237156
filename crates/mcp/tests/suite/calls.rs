//! Tools listed and called over stdio: every result kind, timeouts,
//! cancellation, list_changed, provider keys withheld.

use std::time::Duration;

use pretty_assertions::assert_eq;
use serde_json::json;
use tokio_util::sync::CancellationToken;
use wright_mcp::{McpError, ServerStatus};

use super::{start, test_server};

const LONG: Duration = Duration::from_secs(30);

#[tokio::test]
async fn lists_tools_with_exposed_names_schemas_and_hints() {
    let mcp = start(vec![test_server("test", &[])]).await;
    let statuses = mcp.statuses();
    assert_eq!(statuses.len(), 1);
    let ServerStatus::Connected { tools } = &statuses[0].status else {
        panic!("not connected: {:?}", statuses[0].status);
    };
    assert!(tools.contains(&"mcp__test__echo".to_owned()), "{tools:?}");
    let echo = mcp
        .tools()
        .into_iter()
        .find(|t| t.name == "mcp__test__echo")
        .unwrap();
    assert_eq!(echo.server, "test");
    assert_eq!(echo.tool, "echo");
    assert_eq!(echo.description.as_deref(), Some("Echoes its text"));
    assert_eq!(echo.hints.read_only, Some(true));
    assert_eq!(echo.input_schema["properties"]["text"]["type"], "string");
    mcp.shutdown().await;
}

#[tokio::test]
async fn calls_each_kind_of_tool() {
    let mcp = start(vec![test_server("test", &[])]).await;
    let none = CancellationToken::new();

    let echo = mcp
        .call("mcp__test__echo", json!({"text": "hi"}), LONG, &none, None)
        .await
        .unwrap();
    assert_eq!((echo.text.as_str(), echo.is_error), ("hi", false));

    let image = mcp
        .call("mcp__test__image", json!({}), LONG, &none, None)
        .await
        .unwrap();
    assert_eq!(image.text, "a tiny image");
    assert_eq!(image.images.len(), 1);
    assert_eq!(image.images[0].mime_type, "image/png");
    assert_eq!(
        image.images[0].data,
        wright_test_support::mcp_server::TINY_PNG
    );

    let structured = mcp
        .call("mcp__test__structured", json!(null), LONG, &none, None)
        .await
        .unwrap();
    let value: serde_json::Value = serde_json::from_str(&structured.text).unwrap();
    assert_eq!(value, json!({"answer": 42, "unit": "none"}));

    let fail = mcp
        .call("mcp__test__fail", json!({}), LONG, &none, None)
        .await
        .unwrap();
    assert!(fail.is_error);
    assert_eq!(fail.text, "this tool always fails");

    let slow = mcp
        .call("mcp__test__slow", json!({"ms": 10}), LONG, &none, None)
        .await
        .unwrap();
    assert_eq!(slow.text, "slept 10 ms");

    let unknown = mcp
        .call("mcp__test__nope", json!({}), LONG, &none, None)
        .await
        .unwrap_err();
    assert_eq!(unknown, McpError::UnknownTool("mcp__test__nope".into()));
    let bad = mcp
        .call("mcp__test__echo", json!([1]), LONG, &none, None)
        .await
        .unwrap_err();
    assert!(matches!(bad, McpError::BadArguments { .. }));
    mcp.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_on_one_server_each_get_their_answer() {
    let mcp = start(vec![test_server("test", &[])]).await;
    let none = CancellationToken::new();
    let calls = (0..16).map(|i| {
        let mcp = &mcp;
        let none = &none;
        async move {
            let text = format!("call {i}");
            let args = json!({"text": text});
            let r = mcp
                .call("mcp__test__echo", args, LONG, none, None)
                .await
                .unwrap();
            assert_eq!(r.text, text);
        }
    });
    futures::future::join_all(calls).await;
    mcp.shutdown().await;
}

#[tokio::test]
async fn timeout_and_cancel_send_notifications_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = start(vec![test_server("test", &[])]).await;

    let mark = dir.path().join("timeout");
    let args = json!({"ms": 60_000, "mark": mark.to_str().unwrap()});
    let err = mcp
        .call(
            "mcp__test__slow",
            args,
            Duration::from_millis(200),
            &CancellationToken::new(),
            None,
        )
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Timeout { .. }), "{err}");
    wait_for_file(&mark).await;

    let mark = dir.path().join("cancel");
    let args = json!({"ms": 60_000, "mark": mark.to_str().unwrap()});
    let cancel = CancellationToken::new();
    let call = mcp.call("mcp__test__slow", args, LONG, &cancel, None);
    let canceller = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        cancel.cancel();
    };
    let (err, ()) = tokio::join!(call, canceller);
    assert!(matches!(err, Err(McpError::Cancelled { .. })), "{err:?}");
    wait_for_file(&mark).await;

    // The server is still fine afterwards.
    let echo = mcp
        .call(
            "mcp__test__echo",
            json!({"text": "still here"}),
            LONG,
            &CancellationToken::new(),
            None,
        )
        .await
        .unwrap();
    assert_eq!(echo.text, "still here");
    mcp.shutdown().await;
}

/// Waits (bounded) for the test server to record a cancellation.
async fn wait_for_file(path: &std::path::Path) {
    for _ in 0..200 {
        if std::fs::read_to_string(path).is_ok_and(|s| s == "cancelled") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!(
        "the server never saw notifications/cancelled ({})",
        path.display()
    );
}

#[tokio::test]
async fn list_changed_refreshes_the_tools() {
    let mcp = start(vec![test_server("test", &[])]).await;
    let none = CancellationToken::new();
    assert!(mcp.resolve("mcp__test__late").is_none());
    mcp.call(
        "mcp__test__add_tool",
        json!({"name": "late"}),
        LONG,
        &none,
        None,
    )
    .await
    .unwrap();
    // Over HTTP the notification may come after the call's answer.
    assert!(mcp.wait_list_changed(LONG).await);
    assert!(mcp.refresh_if_stale().await);
    assert!(mcp.tools().iter().any(|t| t.name == "mcp__test__late"));
    let late = mcp
        .call("mcp__test__late", json!({}), LONG, &none, None)
        .await
        .unwrap();
    assert_eq!(late.text, "late ran");
    assert!(!mcp.refresh_if_stale().await);
    mcp.shutdown().await;
}

#[tokio::test]
async fn withheld_variables_are_removed_from_the_server_env() {
    let options = wright_mcp::StartOptions {
        withheld_env: vec!["HOME".into()],
        ..super::quick_options()
    };
    let mcp = wright_mcp::McpManager::start(vec![test_server("test", &[])], options).await;
    let none = CancellationToken::new();
    let home = mcp
        .call("mcp__test__env", json!({"name": "HOME"}), LONG, &none, None)
        .await
        .unwrap();
    assert_eq!(home.text, "unset");
    mcp.shutdown().await;
}

/// Runs [`provider_keys_child`] in a copy of this test binary whose
/// environment holds provider keys (setting them here would need `unsafe`).
#[test]
fn provider_keys_are_not_visible_to_the_server() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "suite::calls::provider_keys_child",
            "--ignored",
            "--nocapture",
        ])
        .env("ANTHROPIC_API_KEY", "sk-ant-test")
        .env("OPENAI_API_KEY", "sk-test")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("1 passed"), "{stdout}");
}

#[tokio::test]
#[ignore = "run by provider_keys_are_not_visible_to_the_server with keys in its env"]
async fn provider_keys_child() {
    assert!(std::env::var_os("ANTHROPIC_API_KEY").is_some());
    let mcp = start(vec![test_server("test", &[])]).await;
    let none = CancellationToken::new();
    let home = mcp
        .call("mcp__test__env", json!({"name": "HOME"}), LONG, &none, None)
        .await
        .unwrap();
    assert_eq!(home.text, "set");
    for key in ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"] {
        let seen = mcp
            .call("mcp__test__env", json!({"name": key}), LONG, &none, None)
            .await
            .unwrap();
        assert_eq!(seen.text, "unset", "{key}");
    }
    mcp.shutdown().await;
}
