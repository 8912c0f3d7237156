//! Resources, prompts, progress, instructions, list_changed and a large
//! tool catalogue, each over stdio and over streamable HTTP on loopback.
//! Each scenario is one function run against both transports.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pretty_assertions::assert_eq;
use serde_json::json;
use tokio_util::sync::CancellationToken;
use wright_mcp::{
    McpError, McpManager, McpProgress, McpPromptArg, ProgressSink, PromptRole, ServerStatus,
};
use wright_test_support::mcp_server::{HttpTestServer, INSTRUCTIONS, TINY_PNG, content::README};

use super::http::http_server;
use super::{start, test_server};

const LONG: Duration = Duration::from_secs(30);

/// Runs `scenario` against a stdio server and an HTTP server, both named `s`.
macro_rules! both_transports {
    ($stdio:ident, $http:ident, $scenario:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $stdio() {
            let mcp = start(vec![test_server("s", &[])]).await;
            $scenario(&mcp).await;
            mcp.shutdown().await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $http() {
            let server = HttpTestServer::start().await.unwrap();
            let mcp = start(vec![http_server("s", &server.url)]).await;
            $scenario(&mcp).await;
            mcp.shutdown().await;
        }
    };
}

both_transports!(resources_over_stdio, resources_over_http, resources);
both_transports!(prompts_over_stdio, prompts_over_http, prompts);
both_transports!(progress_over_stdio, progress_over_http, progress);
both_transports!(
    list_changed_over_stdio,
    list_changed_over_http,
    list_changed
);
both_transports!(
    instructions_over_stdio,
    instructions_over_http,
    instructions
);

async fn resources(mcp: &McpManager) {
    let none = CancellationToken::new();
    assert_eq!(mcp.server_names(), vec!["s".to_owned()]);
    // Three resources over two pages.
    let all = mcp.resources(None, LONG, &none).await.unwrap();
    let uris: Vec<&str> = all.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        vec!["test://readme", "test://pixel.png", "test://data.bin"]
    );
    let readme = &all[0];
    assert_eq!(readme.server, "s");
    assert_eq!(readme.name, "readme");
    assert_eq!(readme.title.as_deref(), Some("Read me"));
    assert_eq!(readme.description.as_deref(), Some("What this server is"));
    assert_eq!(readme.mime_type.as_deref(), Some("text/markdown"));
    assert_eq!(mcp.resources(Some("s"), LONG, &none).await.unwrap(), all);

    let text = mcp
        .read_resource("s", "test://readme", LONG, &none)
        .await
        .unwrap();
    assert_eq!(text.text, format!("[resource test://readme]\n{README}"));
    assert!(text.images.is_empty());
    let image = mcp
        .read_resource("s", "test://pixel.png", LONG, &none)
        .await
        .unwrap();
    assert_eq!(image.images.len(), 1);
    assert_eq!(image.images[0].data, TINY_PNG);
    let blob = mcp
        .read_resource("s", "test://data.bin", LONG, &none)
        .await
        .unwrap();
    assert_eq!(
        blob.text,
        "[resource test://data.bin: binary application/octet-stream, 4 bytes]"
    );

    let missing = mcp
        .read_resource("s", "test://nope", LONG, &none)
        .await
        .unwrap_err();
    assert!(matches!(missing, McpError::Protocol { .. }), "{missing:?}");
    assert!(missing.to_string().contains("test://nope"), "{missing}");
    let unknown = mcp.resources(Some("ghost"), LONG, &none).await.unwrap_err();
    assert_eq!(unknown, McpError::UnknownServer("ghost".into()));
    assert!(matches!(
        mcp.read_resource("ghost", "test://readme", LONG, &none)
            .await,
        Err(McpError::UnknownServer(_))
    ));
}

async fn prompts(mcp: &McpManager) {
    let prompts = mcp.prompts();
    let names: Vec<&str> = prompts.iter().map(|p| p.exposed.as_str()).collect();
    assert_eq!(names, vec!["mcp__s__greet", "mcp__s__summary"]);
    let greet = &prompts[0];
    assert_eq!((greet.server.as_str(), greet.name.as_str()), ("s", "greet"));
    assert_eq!(greet.description.as_deref(), Some("Greets someone by name"));
    assert_eq!(
        greet.arguments,
        vec![
            McpPromptArg {
                name: "name".into(),
                description: Some("Who to greet".into()),
                required: true
            },
            McpPromptArg {
                name: "style".into(),
                description: Some("formal or casual".into()),
                required: false
            }
        ]
    );
    assert!(prompts[1].arguments.is_empty());

    let args = BTreeMap::from([("name".to_owned(), "Ada".to_owned())]);
    let messages = mcp.get_prompt("s", "greet", args, LONG).await.unwrap();
    let spoken: Vec<(PromptRole, &str)> =
        messages.iter().map(|m| (m.role, m.text.as_str())).collect();
    assert_eq!(
        spoken,
        vec![
            (PromptRole::User, "Please greet Ada."),
            (PromptRole::Assistant, "Hello, Ada!")
        ]
    );

    let missing = mcp
        .get_prompt("s", "greet", BTreeMap::new(), LONG)
        .await
        .unwrap_err();
    assert_eq!(
        missing,
        McpError::MissingArguments {
            server: "s".into(),
            prompt: "greet".into(),
            missing: vec!["name".into()]
        }
    );
    assert_eq!(
        missing.to_string(),
        "prompt \"greet\" of MCP server \"s\" needs the argument: name"
    );

    let summary = mcp
        .get_prompt("s", "summary", BTreeMap::new(), LONG)
        .await
        .unwrap();
    assert_eq!(summary.len(), 3);
    assert_eq!(summary[0].text, "Summarize this:");
    assert_eq!(
        summary[1].text,
        format!("[resource test://readme]\n{README}")
    );
    assert_eq!(summary[2].images[0].data, TINY_PNG);

    let unknown = mcp
        .get_prompt("s", "nope", BTreeMap::new(), LONG)
        .await
        .unwrap_err();
    assert!(
        matches!(unknown, McpError::UnknownPrompt { .. }),
        "{unknown:?}"
    );
    assert!(matches!(
        mcp.get_prompt("ghost", "greet", BTreeMap::new(), LONG)
            .await,
        Err(McpError::UnknownServer(_))
    ));
}

async fn progress(mcp: &McpManager) {
    let none = CancellationToken::new();
    let seen: Arc<Mutex<Vec<McpProgress>>> = Arc::default();
    let sink: ProgressSink = {
        let seen = Arc::clone(&seen);
        Arc::new(move |p| seen.lock().unwrap().push(p))
    };
    let done = mcp
        .call("mcp__s__progress", json!({}), LONG, &none, Some(sink))
        .await
        .unwrap();
    assert_eq!(done.text, "done");
    // Every notification came before the answer on the wire, so all have
    // reached the sink by now.
    let seen = seen.lock().unwrap().clone();
    let expected: Vec<McpProgress> = (1..=3)
        .map(|i| McpProgress {
            progress: f64::from(i),
            total: Some(3.0),
            message: Some(format!("step {i}")),
        })
        .collect();
    assert_eq!(seen, expected);

    // Without a sink the call works the same.
    let done = mcp
        .call("mcp__s__progress", json!({}), LONG, &none, None)
        .await
        .unwrap();
    assert_eq!(done.text, "done");
}

async fn list_changed(mcp: &McpManager) {
    let none = CancellationToken::new();
    assert!(!mcp.refresh_if_stale().await);
    // Over HTTP the notification may come after the call's answer.
    mcp.call(
        "mcp__s__add_prompt",
        json!({"name": "late"}),
        LONG,
        &none,
        None,
    )
    .await
    .unwrap();
    assert!(mcp.wait_list_changed(LONG).await);
    assert!(mcp.refresh_if_stale().await);
    assert!(mcp.prompts().iter().any(|p| p.exposed == "mcp__s__late"));
    let late = mcp
        .get_prompt("s", "late", BTreeMap::new(), LONG)
        .await
        .unwrap();
    assert_eq!(late[0].text, "late says hi");

    mcp.call(
        "mcp__s__add_tool",
        json!({"name": "later"}),
        LONG,
        &none,
        None,
    )
    .await
    .unwrap();
    assert!(mcp.wait_list_changed(LONG).await);
    assert!(mcp.refresh_if_stale().await);
    assert!(mcp.resolve("mcp__s__later").is_some());
    assert!(!mcp.refresh_if_stale().await);
}

async fn instructions(mcp: &McpManager) {
    assert_eq!(
        mcp.instructions(),
        vec![("s".to_owned(), INSTRUCTIONS.to_owned())]
    );
}

/// 200 catalogue tools: all listed, named, normalized and callable.
async fn many_tools(mcp: &McpManager) {
    let tools = mcp.tools();
    let catalogue: Vec<_> = tools
        .iter()
        .filter(|t| t.tool.starts_with("tool_"))
        .collect();
    assert_eq!(catalogue.len(), 200);
    let ServerStatus::Connected { tools: listed } = &mcp.statuses()[0].status else {
        panic!("not connected");
    };
    assert_eq!(listed.len(), tools.len());
    for tool in &tools {
        assert_eq!(tool.input_schema["type"], "object", "{}", tool.name);
        assert!(tool.input_schema["properties"].is_object(), "{}", tool.name);
    }
    let t137 = tools.iter().find(|t| t.name == "mcp__s__tool_137").unwrap();
    assert!(
        t137.description
            .as_deref()
            .unwrap()
            .contains("catalogue entry 137")
    );
    let answer = mcp
        .call(
            "mcp__s__tool_137",
            json!({"sku": "A-1"}),
            LONG,
            &CancellationToken::new(),
            None,
        )
        .await
        .unwrap();
    assert_eq!(answer.text, "tool_137 ran with sku=A-1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_tools_over_stdio() {
    let mcp = start(vec![test_server("s", &["--many", "200"])]).await;
    many_tools(&mcp).await;
    mcp.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_tools_over_http() {
    let server = HttpTestServer::start_with_many(200).await.unwrap();
    let mcp = start(vec![http_server("s", &server.url)]).await;
    many_tools(&mcp).await;
    mcp.shutdown().await;
}

#[tokio::test]
async fn a_server_without_resources_or_prompts_says_so() {
    let mcp = start(vec![
        test_server("plain", &["--tools-only"]),
        test_server("s", &[]),
    ])
    .await;
    let none = CancellationToken::new();
    let err = mcp.resources(Some("plain"), LONG, &none).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "MCP server \"plain\" does not offer resources"
    );
    assert!(matches!(
        mcp.read_resource("plain", "test://readme", LONG, &none)
            .await,
        Err(McpError::Unsupported { .. })
    ));
    assert!(matches!(
        mcp.get_prompt("plain", "greet", BTreeMap::new(), LONG)
            .await,
        Err(McpError::Unsupported {
            feature: "prompts",
            ..
        })
    ));
    // Listing everything skips it; its prompts and instructions are absent.
    let all = mcp.resources(None, LONG, &none).await.unwrap();
    assert!(all.iter().all(|r| r.server == "s"));
    assert_eq!(all.len(), 3);
    assert!(mcp.prompts().iter().all(|p| p.server == "s"));
    assert_eq!(mcp.instructions().len(), 1);
    assert_eq!(mcp.server_names(), vec!["plain".to_owned(), "s".to_owned()]);
    mcp.shutdown().await;
}

#[tokio::test]
async fn a_server_that_failed_to_start_is_unavailable_for_resources_and_prompts() {
    let mcp = start(vec![test_server("early", &["--exit-early", "1"])]).await;
    let none = CancellationToken::new();
    assert!(matches!(
        mcp.resources(Some("early"), LONG, &none).await,
        Err(McpError::Unavailable { .. })
    ));
    assert!(matches!(
        mcp.get_prompt("early", "greet", BTreeMap::new(), LONG)
            .await,
        Err(McpError::Unavailable { .. })
    ));
    // No server offers resources: an empty list, not an error.
    assert_eq!(mcp.resources(None, LONG, &none).await.unwrap(), vec![]);
    assert_eq!(mcp.server_names(), vec!["early".to_owned()]);
    assert!(mcp.instructions().is_empty());
    mcp.shutdown().await;
}
