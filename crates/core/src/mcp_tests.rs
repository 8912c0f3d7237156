//! MCP tools in the turn loop, against the test server over stdio: the
//! tools offered with each request, calls and their results (text, images,
//! errors), the permission check on them, a server that cannot start,
//! tool search, a tool that joins mid-session, and a server that dies
//! mid-call.

use super::*;
use std::collections::BTreeMap;
use wright_mcp::{ConfigSource, McpManager, McpServer, McpServerConfig, StartOptions};
use wright_permissions::{Rule, RuleSet};
use wright_protocol::{Item, ItemKind};

use crate::{HintTrust, McpSetup, ToolSearch};

fn server(name: &str, command: Option<&str>, args: &[&str]) -> McpServer {
    let bin = wright_test_support::mcp_test_server_bin().unwrap();
    McpServer {
        name: name.to_owned(),
        config: McpServerConfig::Stdio {
            command: command.map_or_else(|| bin.to_string_lossy().into_owned(), str::to_owned),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: BTreeMap::new(),
        },
        source: ConfigSource::CommandLine,
    }
}

/// Options with the servers started the way front ends do: connecting in
/// a task while the session starts.
fn with_servers(
    servers: Vec<McpServer>,
    adjust: impl FnOnce(&mut McpSetup),
) -> impl FnOnce(&mut SessionOptions) {
    move |o: &mut SessionOptions| {
        let manager = Arc::new(McpManager::new(
            servers,
            StartOptions {
                startup_timeout: Duration::from_secs(20),
                shutdown_grace: Duration::from_millis(300),
                ..StartOptions::default()
            },
        ));
        let connecting = Arc::clone(&manager);
        tokio::spawn(async move { connecting.connect_all().await });
        let mut setup = McpSetup::new(manager);
        setup.startup_timeout = Duration::from_secs(20);
        adjust(&mut setup);
        o.extensions.mcp = Some(setup);
    }
}

fn tool_names(request: &ModelRequest) -> Vec<String> {
    request.tools.iter().map(|t| t.name.clone()).collect()
}

fn results_of(request: &ModelRequest) -> Vec<(String, bool)> {
    request
        .messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolResult {
                content, is_error, ..
            } => Some((content.clone(), *is_error)),
            _ => None,
        })
        .collect()
}

fn warnings(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Warning { message } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn server_tools_are_offered_and_called_with_text_and_image_results() {
    let mut h = start_with(
        vec![
            calls(&[
                ("c1", "mcp__test__echo", r#"{"text":"hi there"}"#),
                ("c2", "mcp__test__image", "{}"),
            ]),
            text("done"),
        ],
        PermissionMode::Auto,
        5,
        with_servers(vec![server("test", None, &[])], |_| {}),
    );
    let (events, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap().clone();
    let names = tool_names(&requests[0]);
    assert!(names.contains(&"Read".to_owned()), "{names:?}");
    assert!(names.contains(&"mcp__test__echo".to_owned()), "{names:?}");
    let echo = requests[0]
        .tools
        .iter()
        .find(|t| t.name == "mcp__test__echo")
        .unwrap();
    assert_eq!(echo.input_schema["properties"]["text"]["type"], "string");
    let results = results_of(&requests[1]);
    assert_eq!(results[0], ("hi there".to_owned(), false));
    assert_eq!(results[1].0, "a tiny image");
    // The image follows its result in the same message.
    let last = requests[1].messages.last().unwrap();
    let kinds: Vec<&str> = last
        .content
        .iter()
        .map(|b| match b {
            ContentBlock::ToolResult { .. } => "result",
            ContentBlock::Image { .. } => "image",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["result", "result", "image"]);
    // Front ends see the calls as tool items under the exposed names.
    let completed: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ItemCompleted {
                item:
                    Item {
                        kind: ItemKind::ToolCall { name, display, .. },
                        ..
                    },
            } => Some(format!("{name}: {}", display.as_ref().unwrap().summary)),
            _ => None,
        })
        .collect();
    assert_eq!(
        completed,
        [
            "mcp__test__echo: 1 lines",
            "mcp__test__image: 1 lines, 1 image(s)"
        ]
    );
}

#[tokio::test]
async fn server_errors_reach_the_model_as_errors() {
    let mut h = start_with(
        vec![
            calls(&[
                ("c1", "mcp__test__fail", "{}"),
                ("c2", "mcp__test__echo", "[1]"),
                ("c3", "mcp__test__nope", "{}"),
            ]),
            text("done"),
        ],
        PermissionMode::Auto,
        5,
        with_servers(vec![server("test", None, &[])], |_| {}),
    );
    turn(&mut h, "go").await;
    let requests = h.requests.lock().unwrap().clone();
    let results = results_of(&requests[1]);
    assert_eq!(results[0], ("this tool always fails".to_owned(), true));
    assert!(
        results[1].1 && results[1].0.contains("JSON object"),
        "{results:?}"
    );
    assert!(
        results[2].1 && results[2].0.contains("Unknown tool"),
        "{results:?}"
    );
    assert!(results[2].0.contains("mcp__test__echo"), "{results:?}");
}

#[tokio::test]
async fn mcp_tools_ask_by_default_and_rules_decide() {
    let mut h = start_with(
        vec![
            calls(&[("c1", "mcp__test__echo", r#"{"text":"x"}"#)]),
            calls(&[("c2", "mcp__other__echo", r#"{"text":"y"}"#)]),
            text("done"),
        ],
        PermissionMode::Default,
        5,
        |o| {
            with_servers(
                vec![server("test", None, &[]), server("other", None, &[])],
                |_| {},
            )(o);
            o.policy.rules = RuleSet {
                allow: vec!["mcp__other".parse::<Rule>().unwrap()],
                ..RuleSet::default()
            };
        },
    );
    turn(&mut h, "go").await;
    let requests = h.requests.lock().unwrap().clone();
    let results = results_of(&requests[2]);
    assert!(results[0].1, "{results:?}");
    assert!(
        results[0].0.contains("--allow 'mcp__test__echo'"),
        "{results:?}"
    );
    assert_eq!(results[1], ("y".to_owned(), false));
}

#[tokio::test]
async fn trusted_read_only_hints_run_without_asking() {
    let mut h = start_with(
        vec![
            calls(&[("c1", "mcp__test__echo", r#"{"text":"ro"}"#)]),
            text("done"),
        ],
        PermissionMode::Default,
        5,
        with_servers(vec![server("test", None, &[])], |s| {
            s.read_only_hints = HintTrust::Trust;
        }),
    );
    turn(&mut h, "go").await;
    let requests = h.requests.lock().unwrap().clone();
    assert_eq!(results_of(&requests[1])[0], ("ro".to_owned(), false));
}

#[tokio::test]
async fn a_server_that_cannot_start_is_reported_once_and_the_others_work() {
    let mut h = start_with(
        vec![
            calls(&[("c1", "mcp__test__echo", r#"{"text":"still here"}"#)]),
            text("done"),
            text("again"),
        ],
        PermissionMode::Auto,
        5,
        with_servers(
            vec![
                server("test", None, &[]),
                server("ghost", Some("/nonexistent/mcp-server"), &[]),
            ],
            |_| {},
        ),
    );
    let (events, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let w = warnings(&events);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("`ghost`") && w[0].contains("/nonexistent/mcp-server"),
        "{w:?}"
    );
    let requests = h.requests.lock().unwrap().clone();
    assert_eq!(
        results_of(&requests[1])[0],
        ("still here".to_owned(), false)
    );
    let (events, _) = turn(&mut h, "more").await;
    assert!(warnings(&events).is_empty());
}

#[tokio::test]
async fn tool_search_defers_schemas_until_loaded() {
    let mut h = start_with(
        vec![
            calls(&[("c1", "ToolSearch", r#"{"query":"select:mcp__test__echo"}"#)]),
            calls(&[("c2", "mcp__test__echo", r#"{"text":"found"}"#)]),
            text("done"),
        ],
        PermissionMode::Auto,
        5,
        with_servers(vec![server("test", None, &[])], |s| {
            s.tool_search = ToolSearch::On;
        }),
    );
    turn(&mut h, "go").await;
    let requests = h.requests.lock().unwrap().clone();
    let first = tool_names(&requests[0]);
    assert!(!first.iter().any(|n| n.starts_with("mcp__")), "{first:?}");
    let search = requests[0]
        .tools
        .iter()
        .find(|t| t.name == "ToolSearch")
        .unwrap();
    assert!(
        search
            .description
            .contains("- mcp__test__echo: Echoes its text")
    );
    let second = tool_names(&requests[1]);
    assert!(second.contains(&"mcp__test__echo".to_owned()), "{second:?}");
    assert!(
        !second.contains(&"mcp__test__fail".to_owned()),
        "{second:?}"
    );
    let loaded = &results_of(&requests[1])[0];
    assert!(!loaded.1 && loaded.0.contains("input_schema"), "{loaded:?}");
    assert_eq!(results_of(&requests[2])[1], ("found".to_owned(), false));
}

#[tokio::test]
async fn tool_search_auto_defers_only_when_schemas_crowd_the_window() {
    let small_window = |o: &mut SessionOptions| {
        with_servers(vec![server("test", None, &[])], |_| {})(o);
        o.compaction.context_window = 2_000;
    };
    let mut h = start_with(vec![text("done")], PermissionMode::Auto, 5, small_window);
    turn(&mut h, "go").await;
    let names = tool_names(&h.requests.lock().unwrap()[0]);
    assert!(names.contains(&"ToolSearch".to_owned()), "{names:?}");

    let mut h = start_with(
        vec![text("done")],
        PermissionMode::Auto,
        5,
        with_servers(vec![server("test", None, &[])], |_| {}),
    );
    turn(&mut h, "go").await;
    let names = tool_names(&h.requests.lock().unwrap()[0]);
    assert!(!names.contains(&"ToolSearch".to_owned()), "{names:?}");
    assert!(names.contains(&"mcp__test__echo".to_owned()), "{names:?}");
}

#[tokio::test]
async fn a_tool_added_mid_session_joins_the_next_request() {
    let mut h = start_with(
        vec![
            calls(&[("c1", "mcp__test__add_tool", r#"{"name":"late"}"#)]),
            calls(&[("c2", "mcp__test__late", "{}")]),
            text("done"),
        ],
        PermissionMode::Auto,
        5,
        with_servers(vec![server("test", None, &[])], |_| {}),
    );
    turn(&mut h, "go").await;
    let requests = h.requests.lock().unwrap().clone();
    assert!(!tool_names(&requests[0]).contains(&"mcp__test__late".to_owned()));
    // The list_changed notification may arrive just after the call's
    // result; by the request after it, the tool is there.
    assert!(tool_names(&requests[2]).contains(&"mcp__test__late".to_owned()));
    assert_eq!(results_of(&requests[2])[1], ("late ran".to_owned(), false));
}

#[tokio::test]
async fn a_server_that_dies_mid_call_gives_an_error_and_is_restarted() {
    let mut h = start_with(
        vec![
            calls(&[("c1", "mcp__test__crash", "{}")]),
            calls(&[("c2", "mcp__test__echo", r#"{"text":"back"}"#)]),
            text("done"),
        ],
        PermissionMode::Auto,
        5,
        with_servers(vec![server("test", None, &[])], |_| {}),
    );
    let (_, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap().clone();
    let crashed = &results_of(&requests[1])[0];
    assert!(crashed.1, "{crashed:?}");
    assert_eq!(results_of(&requests[2])[1], ("back".to_owned(), false));
}

#[tokio::test]
async fn progress_reaches_the_front_end_as_output() {
    let mut h = start_with(
        vec![calls(&[("c1", "mcp__test__progress", "{}")]), text("done")],
        PermissionMode::Auto,
        5,
        with_servers(vec![server("test", None, &[])], |_| {}),
    );
    let (events, _) = turn(&mut h, "go").await;
    let lines: String = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ItemDelta {
                delta: wright_protocol::ItemDelta::ToolOutput(t),
                ..
            } => Some(t.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(lines.matches("[progress ").count(), 3, "{lines}");
}

#[tokio::test]
async fn resources_are_listed_read_and_attached_by_mention() {
    let mut h = start_with(
        vec![
            calls(&[
                ("c1", "ListMcpResources", "{}"),
                (
                    "c2",
                    "ReadMcpResource",
                    r#"{"server":"test","uri":"test://readme"}"#,
                ),
                (
                    "c3",
                    "ReadMcpResource",
                    r#"{"server":"nope","uri":"x://y"}"#,
                ),
            ]),
            text("done"),
        ],
        PermissionMode::Default,
        5,
        with_servers(vec![server("test", None, &[])], |_| {}),
    );
    turn(&mut h, "look at @test:test://readme, please").await;
    let requests = h.requests.lock().unwrap().clone();
    let prompt = &requests[0].messages[0];
    let attached = prompt
        .content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        attached.contains("<mcp-resource server=\"test\" uri=\"test://readme\">"),
        "{attached}"
    );
    let results = results_of(&requests[1]);
    assert!(
        !results[0].1 && results[0].0.contains("test: test://readme"),
        "{results:?}"
    );
    assert!(!results[1].1, "{results:?}");
    assert!(results[2].1 && results[2].0.contains("nope"), "{results:?}");
}

#[tokio::test]
async fn two_hundred_tools_are_deferred_and_found_by_keyword() {
    let mut h = start_with(
        vec![
            calls(&[("c1", "ToolSearch", r#"{"query":"tool_17","max_results":1}"#)]),
            text("done"),
        ],
        PermissionMode::Auto,
        5,
        with_servers(vec![server("test", None, &["--many", "200"])], |_| {}),
    );
    turn(&mut h, "go").await;
    let requests = h.requests.lock().unwrap().clone();
    let first = tool_names(&requests[0]);
    assert!(first.contains(&"ToolSearch".to_owned()), "{first:?}");
    assert!(first.len() < 20, "{}", first.len());
    let search = requests[0]
        .tools
        .iter()
        .find(|t| t.name == "ToolSearch")
        .unwrap();
    assert!(search.description.contains("mcp__test__tool_199"));
    assert!(tool_names(&requests[1]).contains(&"mcp__test__tool_17".to_owned()));
}

#[tokio::test]
async fn a_long_result_is_cut_and_spilled_like_other_tools_output() {
    let long: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
    let args = serde_json::json!({ "text": long }).to_string();
    let mut h = start_with(
        vec![calls(&[("c1", "mcp__test__echo", &args)]), text("done")],
        PermissionMode::Auto,
        5,
        with_servers(vec![server("test", None, &[])], |_| {}),
    );
    let (_, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap().clone();
    let (content, is_error) = results_of(&requests[1]).remove(0);
    assert!(!is_error, "{content}");
    assert!(
        content.len() < long.len(),
        "not cut: {} bytes",
        content.len()
    );
    assert!(content.starts_with("line 0\n"), "{content}");
    let path = content
        .split("saved to ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_else(|| panic!("no spill file named: {content}"));
    assert!(path.contains("mcp-test"), "{path}");
    assert_eq!(std::fs::read_to_string(path).unwrap(), long);
}
