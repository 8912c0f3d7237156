//! The relay transport through the manager, against a fake program whose
//! in-process server is written by hand: `initialize`, `tools/list` and
//! `tools/call` with tools that succeed, fail in each way, block, or close
//! the relay.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::FutureExt;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::*;
use crate::config::{ConfigSource, McpServer, McpServerConfig};
use crate::{McpError, McpManager, ServerStatus, StartOptions};

const LONG: Duration = Duration::from_secs(30);

/// The program driving wright, with one in-process server.
struct FakeProgram {
    /// Every message relayed, with the server it was for.
    seen: Mutex<Vec<(String, Value)>>,
    /// After a `close` call: every message fails with `Closed`.
    closed: AtomicBool,
    /// Opened by the `open` tool; `gate` waits for it.
    gate: tokio::sync::Semaphore,
}

impl Default for FakeProgram {
    fn default() -> Self {
        Self {
            seen: Mutex::default(),
            closed: AtomicBool::new(false),
            gate: tokio::sync::Semaphore::new(0),
        }
    }
}

impl FakeProgram {
    fn methods(&self) -> Vec<String> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .map(|(_, m)| m["method"].as_str().unwrap_or("?").to_owned())
            .collect()
    }

    async fn answer(
        self: Arc<Self>,
        server: String,
        message: Value,
    ) -> Result<Value, SdkRelayError> {
        self.seen.lock().unwrap().push((server, message.clone()));
        if self.closed.load(Ordering::SeqCst) {
            return Err(SdkRelayError::Closed("wright's stdin closed".into()));
        }
        let id = message.get("id").cloned();
        let ok = |result: Value| Ok(json!({"jsonrpc": "2.0", "id": id, "result": result}));
        let Some(id_value) = message.get("id") else {
            // A notification: the SDK's ack.
            return Ok(json!({"jsonrpc": "2.0", "result": {}}));
        };
        let method = message["method"].as_str().unwrap_or_default();
        let params = &message["params"];
        match method {
            "initialize" => ok(json!({
                "protocolVersion": params["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "calc", "version": "1.0.0"},
            })),
            "tools/list" => ok(json!({"tools": [
                {"name": "add", "description": "Adds a and b",
                 "inputSchema": {"type": "object", "properties": {
                     "a": {"type": "number"}, "b": {"type": "number"}}}},
                {"name": "fail", "inputSchema": {"type": "object"}},
                {"name": "unrelayed", "inputSchema": {"type": "object"}},
                {"name": "garbage", "inputSchema": {"type": "object"}},
                {"name": "wrong_id", "inputSchema": {"type": "object"}},
                {"name": "gate", "inputSchema": {"type": "object"}},
                {"name": "open", "inputSchema": {"type": "object"}},
                {"name": "hang", "inputSchema": {"type": "object"}},
                {"name": "close", "inputSchema": {"type": "object"}},
            ]})),
            "tools/call" => {
                let args = &params["arguments"];
                let text = |t: String| ok(json!({"content": [{"type": "text", "text": t}]}));
                match params["name"].as_str().unwrap_or_default() {
                    "add" => {
                        let sum =
                            args["a"].as_f64().unwrap_or(0.0) + args["b"].as_f64().unwrap_or(0.0);
                        text(format!("{sum}"))
                    }
                    "fail" => Ok(json!({"jsonrpc": "2.0", "id": id_value,
                        "error": {"code": -32603, "message": "boom"}})),
                    "unrelayed" => Err(SdkRelayError::Failed("the control request failed".into())),
                    "garbage" => Ok(json!(["not", "a", "response"])),
                    "wrong_id" => Ok(json!({"jsonrpc": "2.0", "id": "elsewhere",
                        "result": {"content": [{"type": "text", "text": "paired anyway"}]}})),
                    "gate" => {
                        let _permit = self.gate.acquire().await;
                        text("through".into())
                    }
                    "open" => {
                        self.gate.add_permits(1);
                        text("opened".into())
                    }
                    "hang" => futures::future::pending().await,
                    "close" => {
                        self.closed.store(true, Ordering::SeqCst);
                        Err(SdkRelayError::Closed("wright's stdin closed".into()))
                    }
                    other => Ok(json!({"jsonrpc": "2.0", "id": id_value,
                        "error": {"code": -32602, "message": format!("no tool {other}")}})),
                }
            }
            _ => Ok(json!({"jsonrpc": "2.0", "id": id_value,
                "error": {"code": -32601, "message": "Method not found"}})),
        }
    }
}

struct Relay(Arc<FakeProgram>);

impl SdkRelay for Relay {
    fn send(
        &self,
        server: &str,
        message: Value,
    ) -> BoxFuture<'static, Result<Value, SdkRelayError>> {
        Arc::clone(&self.0)
            .answer(server.to_owned(), message)
            .boxed()
    }
}

fn calc() -> McpServer {
    McpServer {
        name: "calc".into(),
        config: McpServerConfig::Sdk,
        source: ConfigSource::CommandLine,
    }
}

async fn start(program: &Arc<FakeProgram>) -> McpManager {
    let options = StartOptions {
        startup_timeout: LONG,
        sdk_relay: Some(Arc::new(Relay(Arc::clone(program)))),
        ..StartOptions::default()
    };
    McpManager::start(vec![calc()], options).await
}

async fn call(mcp: &McpManager, tool: &str, args: Value) -> Result<crate::McpToolResult, McpError> {
    mcp.call(tool, args, LONG, &CancellationToken::new(), None)
        .await
}

#[tokio::test]
async fn an_sdk_server_connects_lists_and_calls_through_the_relay() {
    let program = Arc::new(FakeProgram::default());
    let mcp = start(&program).await;
    let status = &mcp.statuses()[0];
    assert_eq!((status.name.as_str(), status.transport), ("calc", "sdk"));
    let ServerStatus::Connected { tools } = &status.status else {
        panic!("not connected: {:?}", status.status);
    };
    assert!(tools.contains(&"mcp__calc__add".to_owned()), "{tools:?}");
    let add = mcp.tool("mcp__calc__add").unwrap();
    assert_eq!(add.description.as_deref(), Some("Adds a and b"));
    assert_eq!(add.input_schema["properties"]["a"]["type"], "number");

    let sum = call(&mcp, "mcp__calc__add", json!({"a": 1, "b": 2}))
        .await
        .unwrap();
    assert_eq!((sum.text.as_str(), sum.is_error), ("3", false));

    let methods = program.methods();
    assert_eq!(
        methods
            .iter()
            .filter(|m| !m.starts_with("server/"))
            .cloned()
            .collect::<Vec<_>>(),
        [
            "initialize",
            "notifications/initialized",
            "tools/list",
            "tools/call"
        ]
    );
    assert!(
        program
            .seen
            .lock()
            .unwrap()
            .iter()
            .all(|(s, _)| s == "calc")
    );
    // wright's progress routing stays inside wright.
    let last = program.seen.lock().unwrap().last().cloned().unwrap().1;
    assert!(!last.to_string().contains(crate::tap::ROUTE_KEY), "{last}");
    mcp.shutdown().await;
}

#[tokio::test]
async fn each_kind_of_failure_is_a_clear_error_and_the_server_stays_usable() {
    let program = Arc::new(FakeProgram::default());
    let mcp = start(&program).await;

    let err = call(&mcp, "mcp__calc__fail", json!({})).await.unwrap_err();
    let McpError::Protocol {
        server, message, ..
    } = &err
    else {
        panic!("{err:?}");
    };
    assert_eq!(server, "calc");
    assert!(message.contains("boom"), "{message}");

    let err = call(&mcp, "mcp__calc__unrelayed", json!({}))
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("could not relay it: the control request failed"),
        "{err}"
    );

    let err = call(&mcp, "mcp__calc__garbage", json!({}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("not a JSON-RPC response"), "{err}");

    let paired = call(&mcp, "mcp__calc__wrong_id", json!({})).await.unwrap();
    assert_eq!(paired.text, "paired anyway");

    let sum = call(&mcp, "mcp__calc__add", json!({"a": 2, "b": 2}))
        .await
        .unwrap();
    assert_eq!(sum.text, "4");
    assert!(matches!(
        mcp.statuses()[0].status,
        ServerStatus::Connected { .. }
    ));
    mcp.shutdown().await;
}

#[tokio::test]
async fn requests_travel_concurrently() {
    let program = Arc::new(FakeProgram::default());
    let mcp = start(&program).await;
    // `gate` answers only once `open` ran: one at a time, it would hang.
    let (gate, open) = tokio::join!(
        call(&mcp, "mcp__calc__gate", json!({})),
        call(&mcp, "mcp__calc__open", json!({})),
    );
    assert_eq!(gate.unwrap().text, "through");
    assert_eq!(open.unwrap().text, "opened");
    mcp.shutdown().await;
}

#[tokio::test]
async fn a_call_without_an_answer_times_out_and_is_cancelled() {
    let program = Arc::new(FakeProgram::default());
    let mcp = start(&program).await;
    let err = mcp
        .call(
            "mcp__calc__hang",
            json!({}),
            Duration::from_millis(50),
            &CancellationToken::new(),
            None,
        )
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Timeout { .. }), "{err:?}");
    let sum = call(&mcp, "mcp__calc__add", json!({"a": 1, "b": 1}))
        .await
        .unwrap();
    assert_eq!(sum.text, "2");
    mcp.shutdown().await;
}

#[tokio::test]
async fn a_closed_relay_stops_the_server_and_its_restart_fails() {
    let program = Arc::new(FakeProgram::default());
    let mcp = start(&program).await;
    let err = call(&mcp, "mcp__calc__close", json!({})).await.unwrap_err();
    let McpError::ServerDied { detail, .. } = &err else {
        panic!("{err:?}");
    };
    assert!(detail.contains("wright's stdin closed"), "{detail}");
    // The one restart meets the closed relay.
    let err = call(&mcp, "mcp__calc__add", json!({"a": 1, "b": 1}))
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Unavailable { .. }), "{err:?}");
    let ServerStatus::Failed { reason } = &mcp.statuses()[0].status else {
        panic!("{:?}", mcp.statuses()[0].status);
    };
    assert!(reason.contains("wright's stdin closed"), "{reason}");
    mcp.shutdown().await;
}

#[tokio::test]
async fn without_a_relay_an_sdk_server_fails_with_the_reason() {
    let mcp = McpManager::start(vec![calc()], StartOptions::default()).await;
    assert_eq!(
        mcp.statuses()[0].status,
        ServerStatus::Failed {
            reason: SDK_NEEDS_RELAY.to_owned()
        }
    );
    assert!(mcp.tools().is_empty());
}

#[tokio::test]
async fn a_program_that_fails_the_handshake_leaves_a_failed_status() {
    struct Refusing;
    impl SdkRelay for Refusing {
        fn send(&self, _: &str, _: Value) -> BoxFuture<'static, Result<Value, SdkRelayError>> {
            async { Err(SdkRelayError::Failed("Server 'calc' not found".into())) }.boxed()
        }
    }
    let options = StartOptions {
        startup_timeout: LONG,
        sdk_relay: Some(Arc::new(Refusing)),
        ..StartOptions::default()
    };
    let mcp = McpManager::start(vec![calc()], options).await;
    let ServerStatus::Failed { reason } = &mcp.statuses()[0].status else {
        panic!("{:?}", mcp.statuses()[0].status);
    };
    assert!(reason.contains("Server 'calc' not found"), "{reason}");
}

#[test]
fn replies_are_paired_with_their_request() {
    let id = RequestId::Number(7);
    let ok = parse_reply(json!({"result": {}}), &id).unwrap();
    assert!(matches!(ok, JsonRpcMessage::Response(r) if r.id == id));
    let err = parse_reply(json!({"id": 1, "error": {"code": 1, "message": "x"}}), &id).unwrap();
    assert!(matches!(err, JsonRpcMessage::Error(e) if e.id == Some(id.clone())));
    for bad in [
        json!(null),
        json!("text"),
        json!({"method": "ping"}),
        json!({"x": 1}),
    ] {
        let why = parse_reply(bad.clone(), &id).unwrap_err();
        assert!(why.contains("not a JSON-RPC response"), "{bad}: {why}");
    }
    let long = json!("x".repeat(1000));
    assert!(parse_reply(long, &id).unwrap_err().chars().count() < 300);
}
