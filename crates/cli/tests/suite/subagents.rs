//! Subagents through the real binary: a `Task` call runs a child whose
//! tools are its definition's (a reviewer limited to Read and Grep cannot
//! run Bash), whose calls show indented under the `Task` line in print mode
//! and carry the parent's call id in stream-json, whose answer is the
//! call's result, and whose end fires `SubagentStop` hooks.

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::scenarios::tool_results;
use super::{Env, ndjson, stderr, stdout};

const REVIEWER: &str = "---\nname: reviewer\ndescription: Reviews code for bugs\ntools: Read, Grep\n---\nYou review code and report bugs.\n";

/// The parent asks the reviewer; the reviewer tries Bash, then answers.
fn script() -> Vec<MockResponse> {
    vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Task",
            json!({"description": "review main", "prompt": "review main.rs", "subagent_type": "reviewer"}),
        )])),
        MockResponse::sse(anthropic::tool_calls(&[(
            "k1",
            "Bash",
            json!({"command": "echo should-not-run > ran.txt"}),
        )])),
        MockResponse::sse(anthropic::text("no bugs found; I could not run commands")),
        MockResponse::sse(anthropic::text("The reviewer found no bugs.")),
    ]
}

fn project() -> Env {
    let env = Env::new();
    env.write(".wright/agents/reviewer.md", REVIEWER);
    env.write("main.rs", "fn main() {}\n");
    env
}

#[test]
fn a_reviewer_limited_to_read_and_grep_cannot_run_bash() {
    let env = project();
    let server = MockServer::start(script()).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "review the code")
        .args(["--permission-mode", "bypass"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "The reviewer found no bugs.");
    assert!(!env.path("ran.txt").exists());
    let requests = server.requests();
    // The parent was offered Task naming the reviewer.
    let task = requests[0].json()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "Task")
        .cloned()
        .unwrap();
    assert!(
        task["description"]
            .as_str()
            .unwrap()
            .contains("- reviewer: Reviews code for bugs")
    );
    // The child got its definition as system prompt and only its tools.
    let child = requests[1].json();
    assert!(
        child["system"]
            .to_string()
            .contains("You review code and report bugs."),
        "{}",
        child["system"]
    );
    let tools: Vec<&str> = child["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["Read", "Grep"]);
    let refused = tool_results("anthropic", &requests[2]);
    assert!(
        refused[0].2 && refused[0].1.contains("Unknown tool `Bash`"),
        "{refused:?}"
    );
    // The parent got the child's answer as the Task result.
    let results = tool_results("anthropic", &requests[3]);
    assert_eq!(
        results[0],
        (
            "c1".to_owned(),
            "no bugs found; I could not run commands".to_owned(),
            false
        )
    );
    // Print mode shows the child's call under the Task line.
    let err = stderr(&out);
    assert!(err.contains("● Task(reviewer: review main)"), "{err}");
    assert!(err.contains("[reviewer-1] ● Bash("), "{err}");
    assert!(
        err.contains("root/reviewer-1 (review main) · 2 requests"),
        "{err}"
    );
}

#[test]
fn stream_json_labels_every_child_message_with_the_task_call() {
    let env = project();
    let server = MockServer::start(script()).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "review the code")
        .args(["--output-format", "stream-json", "--verbose"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = ndjson(&out);
    let child: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["parent_tool_use_id"] == "c1")
        .collect();
    // The child's tool use, its refused result, its answer.
    let kinds: Vec<&str> = child.iter().map(|l| l["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["assistant", "user", "assistant"], "{child:?}");
    assert_eq!(child[0]["message"]["content"][0]["name"], "Bash");
    // The parent's own messages are not labelled.
    let parent: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["type"] == "assistant" && l["parent_tool_use_id"].is_null())
        .collect();
    assert_eq!(parent.len(), 2, "{lines:?}");
    let ids: Vec<&str> = lines
        .iter()
        .filter(|l| l["type"] == "assistant")
        .map(|l| l["message"]["id"].as_str().unwrap())
        .collect();
    let unique: std::collections::BTreeSet<&&str> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
    let init = &lines[0];
    assert!(
        init["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "Task")
    );
    let result = lines.last().unwrap();
    assert_eq!(result["result"], "The reviewer found no bugs.");
    assert_eq!(result["num_turns"], 4);
    assert_eq!(result["agents"]["root"]["requests"], 2);
    assert_eq!(result["agents"]["root/reviewer-1"]["requests"], 2);
    // Afterwards: the child's transcript is in the store, under the session.
    let id = result["session_id"].as_str().unwrap();
    let out = env
        .wright()
        .args(["sessions", "show", id, "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let shown: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let children = shown["subagents"].as_array().unwrap();
    assert_eq!(children.len(), 1, "{shown}");
    assert_eq!(children[0]["path"], "root/reviewer-1");
    assert_eq!(children[0]["parent_call_id"], "c1");
    assert_eq!(children[0]["requests"], 2);
    assert_eq!(children[0]["tool_calls"], json!(["Bash"]));
    let out = env
        .wright()
        .args(["sessions", "show", id, "--agent", "reviewer-1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("You review code and report bugs."), "{text}");
    assert!(
        text.contains("no bugs found; I could not run commands"),
        "{text}"
    );
}

#[test]
fn subagent_stop_hooks_fire_when_a_child_ends() {
    let env = project();
    let marker = env.home.path().join("subagent-stopped");
    env.write_user_config(&format!(
        "[[hooks.SubagentStop]]\nhooks = [{{ type = \"command\", command = \"cat > {}\" }}]\n",
        marker.display()
    ));
    let server = MockServer::start(script()).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "review the code")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let input = super::read(&marker);
    assert!(
        input.contains("\"hook_event_name\":\"SubagentStop\""),
        "{input}"
    );
}

#[test]
fn a_worktree_isolated_childs_edits_land_on_its_own_branch() {
    let env = Env::new();
    env.write("a.txt", "original\n");
    env.write(
        ".wright/agents/coder.md",
        "---\nname: coder\ndescription: Makes changes\ntools: Read, Write\nisolation: worktree\n---\nYou change code.\n",
    );
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .current_dir(env.project.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "init"]);
    let script = vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Task",
            json!({"description": "change a", "prompt": "change a.txt", "subagent_type": "coder"}),
        )])),
        MockResponse::sse(anthropic::tool_calls(&[(
            "w1",
            "Write",
            json!({"file_path": "a.txt", "content": "changed by the child\n"}),
        )])),
        MockResponse::sse(anthropic::text("changed a.txt")),
        MockResponse::sse(anthropic::text("done")),
    ];
    let server = MockServer::start(script).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(["--permission-mode", "accept-edits"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // The user's working tree is untouched.
    assert_eq!(super::read(&env.path("a.txt")), "original\n");
    // The child was told where it really works.
    let child_system = server.requests()[1].json()["system"].to_string();
    assert!(
        child_system.contains("/wright/worktrees/"),
        "{child_system}"
    );
    let results = tool_results("anthropic", &server.requests()[3]);
    let report = &results[0].1;
    assert!(!results[0].2, "{report}");
    assert!(report.starts_with("changed a.txt"), "{report}");
    let branch = report
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no branch in {report}"));
    assert!(branch.starts_with("wright/coder-1-"), "{report}");
    assert!(report.contains("a.txt | 2"), "{report}");
    assert_eq!(
        git(&["show", &format!("{branch}:a.txt")]),
        "changed by the child\n"
    );
    // The user is told where the work went, not only the model.
    let err = stderr(&out);
    assert!(
        err.contains(&format!("changes on branch {branch}")),
        "{err}"
    );
    // And the kept worktree is listed until the user deals with it.
    let list = env.wright().args(["agents", "list"]).output().unwrap();
    let list = stdout(&list);
    let kept = &list[list.find("Kept worktrees").expect("a kept section")..];
    assert!(kept.contains(&format!("  {branch}  ")), "{kept}");
}

#[test]
fn wright_context_shows_what_an_agent_type_is_given() {
    let env = project();
    let out = env
        .wright()
        .args(["context", "--agent", "reviewer", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["agent"], "reviewer");
    assert!(
        v["system_prompt"]
            .as_str()
            .unwrap()
            .starts_with("You review code and report bugs.")
    );
    let tools: Vec<&str> = v["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["Read", "Grep"]);
    // Part by part, each with its source.
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2, "{v}");
    assert!(
        parts[0]["source"]
            .as_str()
            .unwrap()
            .ends_with(".wright/agents/reviewer.md"),
        "{v}"
    );
    assert_eq!(parts[0]["text"], "You review code and report bugs.");
    assert!(
        parts[1]["text"]
            .as_str()
            .unwrap()
            .starts_with("You are the subagent `reviewer`"),
        "{v}"
    );
    let out = env
        .wright()
        .args(["context", "--agent", "nope"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no agent type \"nope\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_todo_list_is_shown_as_a_checklist_and_recorded() {
    let env = Env::new();
    let todos = json!({"todos": [
        {"content": "Read the code", "status": "completed", "activeForm": "Reading the code"},
        {"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing the bug"},
        {"content": "Run the tests", "status": "pending", "activeForm": "Running the tests"},
    ]});
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[("t1", "TodoWrite", todos)])),
        MockResponse::sse(anthropic::text("planned")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "plan it")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("● TodoWrite(3 todos: 1 done, 1 in progress, 1 pending)"),
        "{err}"
    );
    assert!(err.contains("☑ Read the code"), "{err}");
    assert!(err.contains("◐ Fix the bug"), "{err}");
    assert!(err.contains("☐ Run the tests"), "{err}");
    let results = tool_results("anthropic", &server.requests()[1]);
    assert!(!results[0].2, "{results:?}");
    // The list is in the session's record.
    let list = env
        .wright()
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    let rows: serde_json::Value = serde_json::from_str(stdout(&list).trim()).unwrap();
    let id = rows[0]["id"].as_str().unwrap();
    let shown = env
        .wright()
        .args(["sessions", "show", id])
        .output()
        .unwrap();
    let shown = stdout(&shown);
    assert!(shown.contains("Tool call: `TodoWrite`"), "{shown}");
    assert!(shown.contains("Fixing the bug"), "{shown}");
}

#[test]
fn a_childs_todo_list_is_shown_under_it() {
    let env = Env::new();
    let todos = json!({"todos": [
        {"content": "Read the code", "status": "completed", "activeForm": "Reading the code"},
        {"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing the bug"},
    ]});
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Task",
            json!({"description": "plan", "prompt": "plan it", "subagent_type": "general"}),
        )])),
        MockResponse::sse(anthropic::tool_calls(&[("t1", "TodoWrite", todos)])),
        MockResponse::sse(anthropic::text("planned")),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "plan it")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("    [general-1] ● TodoWrite(2 todos: 1 done, 1 in progress, 0 pending)"),
        "{err}"
    );
    let indent = " ".repeat("general-1".len() + 11);
    assert!(
        err.contains(&format!("\n{indent}☑ Read the code\n")),
        "{err}"
    );
    assert!(err.contains(&format!("\n{indent}◐ Fix the bug\n")), "{err}");
}
