//! Starting, failing, dying and shutting down.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::json;
use tokio_util::sync::CancellationToken;
use wright_mcp::{
    ConfigSource, McpError, McpManager, McpServer, McpServerConfig, ServerStatus, StartOptions,
};

use super::{quick_options, start, test_server, test_server_with_env};

const LONG: Duration = Duration::from_secs(30);

fn failure(mcp: &McpManager, name: &str) -> String {
    let report = mcp.statuses().into_iter().find(|s| s.name == name).unwrap();
    match report.status {
        ServerStatus::Failed { reason } => reason,
        ServerStatus::Connected { .. } => panic!("{name} connected"),
        ServerStatus::Starting => panic!("{name} still starting"),
        ServerStatus::Disabled => panic!("{name} turned off"),
    }
}

fn status(mcp: &McpManager, name: &str) -> ServerStatus {
    mcp.statuses()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap()
        .status
}

#[tokio::test]
async fn a_server_turned_off_loses_its_tools_and_comes_back_when_turned_on() {
    let mcp = start(vec![test_server("test", &[])]).await;
    assert!(mcp.tool("mcp__test__echo").is_some());
    mcp.set_enabled("test", false).await.unwrap();
    assert_eq!(status(&mcp, "test"), ServerStatus::Disabled);
    assert!(mcp.tool("mcp__test__echo").is_none());
    let err = mcp
        .call(
            "mcp__test__echo",
            json!({"text": "x"}),
            LONG,
            &CancellationToken::new(),
            None,
        )
        .await;
    assert!(err.is_err());
    mcp.set_enabled("test", true).await.unwrap();
    assert!(matches!(
        status(&mcp, "test"),
        ServerStatus::Connected { .. }
    ));
    let echoed = mcp
        .call(
            "mcp__test__echo",
            json!({"text": "back"}),
            LONG,
            &CancellationToken::new(),
            None,
        )
        .await
        .unwrap();
    assert!(format!("{echoed:?}").contains("back"), "{echoed:?}");
    mcp.reconnect("test").await.unwrap();
    assert!(matches!(
        status(&mcp, "test"),
        ServerStatus::Connected { .. }
    ));
    assert!(mcp.reconnect("nope").await.unwrap_err().contains("nope"));
    assert!(mcp.set_enabled("nope", false).await.is_err());
    mcp.shutdown().await;
}

#[tokio::test]
async fn a_missing_command_is_reported_by_name_and_the_others_connect() {
    let missing = McpServer {
        name: "ghost".into(),
        config: McpServerConfig::Stdio {
            command: "/nonexistent/wright-no-such-server".into(),
            args: vec![],
            env: BTreeMap::new(),
        },
        source: ConfigSource::CommandLine,
    };
    let mcp = start(vec![missing, test_server("test", &[])]).await;
    let reason = failure(&mcp, "ghost");
    assert!(
        reason.contains("/nonexistent/wright-no-such-server"),
        "{reason}"
    );
    let report = mcp
        .statuses()
        .into_iter()
        .find(|s| s.name == "test")
        .unwrap();
    assert!(matches!(report.status, ServerStatus::Connected { .. }));
    let err = mcp
        .call(
            "mcp__ghost__echo",
            json!({}),
            LONG,
            &CancellationToken::new(),
            None,
        )
        .await;
    assert!(matches!(err, Err(McpError::UnknownTool(_))));
    mcp.shutdown().await;
}

#[tokio::test]
async fn a_server_that_exits_at_start_reports_exit_code_and_stderr() {
    let mcp = start(vec![test_server("early", &["--exit-early", "7"])]).await;
    let reason = failure(&mcp, "early");
    assert!(reason.contains("exit code 7"), "{reason}");
    assert!(reason.contains("refusing to start"), "{reason}");
    assert!(!reason.contains('\n'), "one line: {reason}");
    mcp.shutdown().await;
}

#[tokio::test]
async fn a_server_that_hangs_at_initialize_times_out_without_blocking_others() {
    let options = StartOptions {
        startup_timeout: Duration::from_secs(2),
        ..quick_options()
    };
    let mcp = McpManager::start(
        vec![test_server("hang", &["--hang"]), test_server("test", &[])],
        options,
    )
    .await;
    let reason = failure(&mcp, "hang");
    assert!(
        reason.contains("no answer to initialize within 2 s"),
        "{reason}"
    );
    assert!(mcp.tools().iter().any(|t| t.name == "mcp__test__echo"));
    mcp.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_started_in_the_background_join_as_each_connects() {
    let options = StartOptions {
        startup_timeout: Duration::from_secs(3),
        ..quick_options()
    };
    let servers = vec![test_server("hang", &["--hang"]), test_server("test", &[])];
    let mcp = std::sync::Arc::new(McpManager::new(servers, options));
    assert!(
        mcp.statuses()
            .iter()
            .all(|s| s.status == ServerStatus::Starting)
    );
    assert!(mcp.tools().is_empty());
    let background = tokio::spawn({
        let mcp = std::sync::Arc::clone(&mcp);
        async move { mcp.connect_all().await }
    });
    // The quick server's tools arrive while the hanging one still starts.
    let mut joined = false;
    for _ in 0..500 {
        if mcp.resolve("mcp__test__echo").is_some() {
            joined = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(joined);
    let hang = mcp
        .statuses()
        .into_iter()
        .find(|s| s.name == "hang")
        .unwrap();
    assert_eq!(hang.status, ServerStatus::Starting);
    let echo = mcp
        .call(
            "mcp__test__echo",
            json!({"text": "early"}),
            LONG,
            &CancellationToken::new(),
            None,
        )
        .await
        .unwrap();
    assert_eq!(echo.text, "early");
    background.await.unwrap();
    assert!(failure(&mcp, "hang").contains("no answer to initialize"));
    mcp.shutdown().await;
}

#[tokio::test]
async fn a_crash_mid_call_is_an_error_then_the_server_restarts_once() {
    let mcp = start(vec![test_server("test", &[])]).await;
    let none = CancellationToken::new();
    let err = mcp
        .call("mcp__test__crash", json!({}), LONG, &none, None)
        .await
        .unwrap_err();
    let McpError::ServerDied { server, detail, .. } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(server, "test");
    assert!(detail.contains("exit code 3"), "{detail}");
    assert!(detail.contains("crashing on purpose"), "{detail}");

    // The next call restarts it.
    let echo = mcp
        .call(
            "mcp__test__echo",
            json!({"text": "back"}),
            LONG,
            &none,
            None,
        )
        .await
        .unwrap();
    assert_eq!(echo.text, "back");

    // A second death is final.
    let err = mcp
        .call("mcp__test__crash", json!({}), LONG, &none, None)
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::ServerDied { .. }), "{err:?}");
    let err = mcp
        .call("mcp__test__echo", json!({"text": "x"}), LONG, &none, None)
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Unavailable { .. }), "{err:?}");
    assert!(failure(&mcp, "test").contains("after its one restart"));
    mcp.shutdown().await;
}

#[tokio::test]
async fn refused_env_is_reported_and_nothing_is_spawned() {
    let env = BTreeMap::from([("LD_PRELOAD".to_owned(), "/tmp/evil.so".to_owned())]);
    let mcp = start(vec![test_server_with_env("bad", &[], env)]).await;
    let reason = failure(&mcp, "bad");
    assert!(reason.contains("LD_PRELOAD"), "{reason}");
    mcp.shutdown().await;
}

#[tokio::test]
async fn sse_servers_are_reported_unsupported() {
    let sse = McpServer {
        name: "old".into(),
        config: McpServerConfig::Sse {
            url: "http://127.0.0.1:9/sse".into(),
            headers: BTreeMap::new(),
        },
        source: ConfigSource::CommandLine,
    };
    let mcp = start(vec![sse]).await;
    assert!(failure(&mcp, "old").contains("not supported"));
}

#[tokio::test]
async fn invalid_server_names_are_reported() {
    let mcp = start(vec![test_server("bad name", &[])]).await;
    assert!(failure(&mcp, "bad name").contains("letters"));
}

#[tokio::test]
async fn shutdown_ends_the_process_group() {
    let mcp = start(vec![marked_server("shutdown")]).await;
    let pid = server_pid("shutdown");
    assert!(alive(pid));
    mcp.shutdown().await;
    assert!(dies(pid).await, "pid {pid} survived shutdown");
    assert!(matches!(
        mcp.call(
            "mcp__test__echo",
            json!({}),
            LONG,
            &CancellationToken::new(),
            None
        )
        .await,
        Err(McpError::UnknownTool(_))
    ));
}

#[tokio::test]
async fn shutdown_also_kills_what_the_server_left_running_in_its_group() {
    let mcp = start(vec![test_server("test", &[])]).await;
    let none = CancellationToken::new();
    let out = mcp
        .call("mcp__test__spawn_sleeper", json!({}), LONG, &none, None)
        .await
        .unwrap();
    let sleeper: u32 = out.text.parse().unwrap();
    assert!(alive(sleeper));
    mcp.shutdown().await;
    assert!(
        dies(sleeper).await,
        "grandchild {sleeper} survived shutdown"
    );
}

#[test]
fn the_manager_and_its_call_future_can_be_shared_across_tasks() {
    fn send_sync<T: Send + Sync>() {}
    fn send<F: Send>(_: &F) {}
    send_sync::<McpManager>();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let mcp = runtime.block_on(McpManager::start(vec![], StartOptions::default()));
    let cancel = CancellationToken::new();
    let call = mcp.call("x", json!({}), LONG, &cancel, None);
    send(&call);
    let refresh = mcp.refresh_if_stale();
    send(&refresh);
    let resources = mcp.resources(None, LONG, &cancel);
    send(&resources);
    let read = mcp.read_resource("s", "test://readme", LONG, &cancel);
    send(&read);
    let prompt = mcp.get_prompt("s", "greet", std::collections::BTreeMap::new(), LONG);
    send(&prompt);
}

#[tokio::test]
async fn dropping_the_manager_kills_the_servers() {
    let mcp = start(vec![marked_server("drop")]).await;
    let pid = server_pid("drop");
    drop(mcp);
    assert!(dies(pid).await, "pid {pid} survived drop");
}

/// A test server named "test" whose environment carries `mark`, so
/// [`server_pid`] can tell it from the other tests' servers.
fn marked_server(mark: &str) -> McpServer {
    let env = BTreeMap::from([("WRIGHT_TEST_MARK".to_owned(), mark.to_owned())]);
    test_server_with_env("test", &[], env)
}

/// The pid of our child test server whose environment holds `mark`.
fn server_pid(mark: &str) -> u32 {
    let bin = wright_test_support::mcp_test_server_bin().unwrap();
    let me = std::process::id();
    let needle = format!("WRIGHT_TEST_MARK={mark}");
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let ppid: u32 = stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok();
        let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        let marked = environ
            .split(|b| *b == 0)
            .any(|var| var == needle.as_bytes());
        if ppid == me && exe.as_deref() == Some(bin.as_path()) && marked {
            return pid;
        }
    }
    panic!("no test server child found");
}

/// Whether `pid` is gone within a few seconds: `kill` returns before the
/// kernel has finished the process off.
async fn dies(pid: u32) -> bool {
    for _ in 0..300 {
        if !alive(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

/// Running (not gone, not a zombie).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            s.rsplit(')')
                .next()
                .and_then(|rest| rest.split_whitespace().next())
                .is_some_and(|state| state != "Z" && state != "X")
        })
        .unwrap_or(false)
}
