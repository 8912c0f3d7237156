//! MCP tools through the real binary: the model calls `mcp__test__…` tools
//! of the test server from `.mcp.json` and gets their results (an image as
//! an image block inside the tool result), the permission check and
//! `PreToolUse` hooks see them under their exposed names, a server that
//! cannot start is reported while the others work, tool search with 200
//! tools, and the three wire protocols.

use serde_json::json;
use wright_test_support::{
    MockResponse, MockServer, anthropic, mcp_test_server_bin, openai_chat, openai_responses,
};

use super::scenarios::tool_results;
use super::{Env, stderr, stdout};

fn server_entry(args: &[&str]) -> serde_json::Value {
    json!({"command": mcp_test_server_bin().unwrap().display().to_string(), "args": args})
}

/// A project whose `.mcp.json` runs the test server as `test` (with
/// `args`) and a server whose command does not exist as `ghost`.
fn project(args: &[&str]) -> Env {
    let env = Env::new();
    let config = json!({"mcpServers": {
        "test": server_entry(args),
        "ghost": {"command": "/nonexistent/mcp-server"},
    }});
    env.write(".mcp.json", &config.to_string());
    env
}

#[test]
fn the_model_calls_server_tools_and_gets_text_and_images() {
    let env = project(&[]);
    let script = vec![
        MockResponse::sse(anthropic::tool_calls(&[
            ("c1", "mcp__test__echo", json!({"text": "hello from MCP"})),
            ("c2", "mcp__test__image", json!({})),
            ("c3", "mcp__test__fail", json!({})),
        ])),
        MockResponse::sse(anthropic::text("done")),
    ];
    let server = MockServer::start(script).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "use the server")
        .args(["--allow", "mcp__test", "--allow", "mcp__ghost"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "done");
    let err = stderr(&out);
    assert!(
        err.contains("`ghost`") && err.contains("/nonexistent/mcp-server"),
        "{err}"
    );
    let requests = server.requests();
    let tools: Vec<String> = requests[0].json()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(tools.contains(&"mcp__test__echo".to_owned()), "{tools:?}");
    assert!(tools.contains(&"ListMcpResources".to_owned()), "{tools:?}");
    let body = requests[1].json();
    let results = body["messages"].as_array().unwrap().last().unwrap()["content"].clone();
    assert_eq!(results[0]["content"], "hello from MCP");
    assert_eq!(results[1]["content"][0]["text"], "a tiny image");
    assert_eq!(results[1]["content"][1]["type"], "image");
    assert_eq!(
        results[1]["content"][1]["source"]["media_type"],
        "image/png"
    );
    assert_eq!(results[2]["is_error"], true);
    assert_eq!(results[2]["content"], "this tool always fails");
}

#[test]
fn server_tools_work_over_the_openai_protocols() {
    for provider in ["openai-chat", "openai-responses"] {
        let env = project(&[]);
        let (calls, done) = match provider {
            "openai-chat" => (
                openai_chat::tool_calls(&[("c1", "mcp__test__echo", json!({"text": "chat"}))]),
                openai_chat::text("done"),
            ),
            _ => (
                openai_responses::tool_calls(&[("c1", "mcp__test__echo", json!({"text": "chat"}))]),
                openai_responses::text("done"),
            ),
        };
        let server =
            MockServer::start(vec![MockResponse::sse(calls), MockResponse::sse(done)]).unwrap();
        let out = env
            .wright_p(provider, &server.url(), "go")
            .args(["--allow", "mcp__test__echo", "--allow", "mcp__test"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{provider}: {}", stderr(&out));
        let results = tool_results(provider, &server.requests()[1]);
        assert_eq!(results[0].1, "chat", "{provider}");
    }
}

#[cfg(unix)]
#[test]
fn permission_rules_and_hooks_see_the_exposed_names() {
    let env = Env::new();
    let hook = env.home.path().join("log-mcp.sh");
    let log = env.home.path().join("hook.log");
    std::fs::write(
        &hook,
        format!(
            "#!/bin/bash\ninput=$(cat)\nprintf '%s\\n' \"$input\" >> {}\n\
             case \"$input\" in *'\"tool_name\":\"mcp__test__fail\"'*) echo 'no failing today' >&2; exit 2 ;; esac\nexit 0\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&hook, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    env.write_user_config(&format!(
        "[[hooks.PreToolUse]]\nmatcher = \"mcp__test__.*\"\nhooks = [{{ type = \"command\", command = \"{}\" }}]\n",
        hook.display()
    ));
    // A server from --mcp-config is the user's own: it starts without
    // approval, and its tools still ask (and so are refused headless).
    let flag = json!({"mcpServers": {"test": server_entry(&[])}}).to_string();
    let script = vec![
        MockResponse::sse(anthropic::tool_calls(&[
            ("c1", "mcp__test__echo", json!({"text": "allowed"})),
            ("c2", "mcp__test__fail", json!({})),
            ("c3", "mcp__test__env", json!({"name": "HOME"})),
        ])),
        MockResponse::sse(anthropic::text("done")),
    ];
    let server = MockServer::start(script).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(["--mcp-config", &flag, "--allow", "mcp__test__echo"])
        .args(["--allow", "mcp__test__fail"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let results = tool_results("anthropic", &server.requests()[1]);
    assert_eq!(results[0].1, "allowed");
    assert!(
        results[1].2 && results[1].1.contains("no failing today"),
        "{results:?}"
    );
    assert!(results[2].2, "{results:?}");
    assert!(
        results[2].1.contains("--allow 'mcp__test__env'"),
        "{results:?}"
    );
    let logged = std::fs::read_to_string(&log).unwrap();
    assert_eq!(logged.lines().count(), 3, "{logged}");
    assert!(
        logged.contains("\"tool_name\":\"mcp__test__echo\""),
        "{logged}"
    );
    assert!(
        logged.contains("\"tool_input\":{\"text\":\"allowed\"}"),
        "{logged}"
    );
}

#[test]
fn two_hundred_tools_go_behind_tool_search() {
    let env = project(&["--many", "200"]);
    let script = vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "ToolSearch",
            json!({"query": "select:mcp__test__tool_42"}),
        )])),
        MockResponse::sse(anthropic::tool_calls(&[(
            "c2",
            "mcp__test__tool_42",
            json!({}),
        )])),
        MockResponse::sse(anthropic::text("done")),
    ];
    let server = MockServer::start(script).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(["--allow", "mcp__test"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let requests = server.requests();
    let names = |i: usize| -> Vec<String> {
        requests[i].json()["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(names(0).contains(&"ToolSearch".to_owned()));
    assert!(!names(0).contains(&"mcp__test__tool_42".to_owned()));
    assert!(names(1).contains(&"mcp__test__tool_42".to_owned()));
    let results = tool_results("anthropic", &requests[2]);
    assert!(!results[1].2, "{results:?}");
}

#[test]
fn server_prompts_are_commands_of_the_interactive_mode() {
    let env = Env::new();
    let flag = json!({"mcpServers": {"test": server_entry(&[])}}).to_string();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("greeted"))]).unwrap();
    let Some((ok, screen)) = env.terminal(
        &server.url(),
        &format!("--mcp-config '{flag}'"),
        "/help\n/mcp__test__greet Ada\n/mcp__test__nope\n/exit\n",
    ) else {
        return;
    };
    assert!(ok, "{screen}");
    assert!(screen.contains("/mcp__test__greet <name>"), "{screen}");
    assert!(
        screen.contains("unknown command /mcp__test__nope"),
        "{screen}"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "{screen}");
    let prompt = requests[0].json()["messages"][0]["content"].to_string();
    assert!(prompt.contains("Please greet Ada."), "{prompt}");
}

#[test]
fn wright_context_lists_the_server_tools_the_model_sees() {
    let env = Env::new();
    let flag = json!({"mcpServers": {"test": server_entry(&[])}}).to_string();
    let out = env
        .wright()
        .args(["context", "--mcp-config", &flag])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("mcp__test__echo"), "{text}");
    assert!(text.contains("Read"), "{text}");
}
