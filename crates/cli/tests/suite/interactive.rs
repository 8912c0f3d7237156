//! The interactive line mode, driven through a pseudo-terminal by
//! util-linux `script` so wright sees a terminal on stdin.

use wright_test_support::{MockResponse, MockServer, anthropic};

use super::Env;

#[test]
fn line_mode_answers_each_line_and_keeps_the_conversation() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::text("first answer")),
        MockResponse::sse(anthropic::text("second answer")),
    ])
    .unwrap();
    let Some((ok, text)) = env.terminal(
        &server.url(),
        "",
        "first question\nsecond question\n/exit\n",
    ) else {
        return;
    };
    assert!(ok, "{text}");
    assert!(
        text.contains("first answer") && text.contains("second answer"),
        "{text}"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let second = requests[1].json()["messages"].to_string();
    assert!(second.contains("first question") && second.contains("first answer"));
    assert!(second.contains("second question"));
}

#[test]
fn slash_commands_context_compact_rewind_and_mode() {
    let env = Env::new();
    env.write("AGENTS.md", "PROJECT-RULES-MARK");
    env.write("f.txt", "v1\n");
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "e1",
            "Edit",
            serde_json::json!({"file_path": "f.txt", "old_string": "v1", "new_string": "v2"}),
        )])),
        MockResponse::sse(anthropic::text("edited it")),
        MockResponse::sse(anthropic::text("second answer")),
        MockResponse::sse(anthropic::text("## Goal\nthe summary")),
    ])
    .unwrap();
    let Some((ok, shown)) = env.terminal(
        &server.url(),
        "--permission-mode accept-edits",
        "change v1 to v2\nanother question\n/context\n/compact keep the file names\n/rewind\n/rewind 1\ny\n/mode plan\n/nonsense\n/exit\n",
    ) else {
        return;
    };
    assert!(ok, "{shown}");
    assert!(shown.contains("PROJECT-RULES-MARK"), "/context: {shown}");
    assert!(shown.contains("hooks: none · verifier: on"), "{shown}");
    assert!(!shown.contains("background commands:"), "{shown}");
    assert!(
        shown.contains("compacted the conversation (manual)"),
        "{shown}"
    );
    assert!(
        shown.contains("1. change v1 to v2"),
        "/rewind list: {shown}"
    );
    assert!(shown.contains("will change 1 file(s)"), "{shown}");
    assert!(shown.contains("f.txt: overwritten"), "{shown}");
    assert!(shown.contains("Rewound to before turn 1"), "{shown}");
    assert!(shown.contains("Permission mode is now `plan`"), "{shown}");
    assert!(shown.contains("unknown command /nonsense"), "{shown}");
    assert_eq!(std::fs::read_to_string(env.path("f.txt")).unwrap(), "v1\n");
    let requests = server.requests();
    let summary = requests[3].body_text();
    assert!(
        summary.contains("keep the file names"),
        "focus reaches the summary prompt"
    );
}

#[test]
fn context_lists_background_commands_and_hooks() {
    let env = Env::new();
    env.write_user_config(
        "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"true\" }]\n\n\
         [[hooks.PreToolUse]]\nmatcher = \"Write\"\nhooks = [{ type = \"command\", command = \"true\" }]\n",
    );
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "b1",
            "Bash",
            serde_json::json!({"command": "sleep 30", "run_in_background": true}),
        )])),
        MockResponse::sse(anthropic::text("started it")),
    ])
    .unwrap();
    let Some((ok, shown)) = env.terminal(
        &server.url(),
        "--permission-mode bypass --no-verify",
        "start the server\n/context\n/exit\n",
    ) else {
        return;
    };
    assert!(ok, "{shown}");
    assert!(shown.contains("started it"), "{shown}");
    assert!(
        shown.contains("hooks: PreToolUse 1, Stop 1 · verifier: off"),
        "{shown}"
    );
    assert!(shown.contains("background commands:"), "{shown}");
    assert!(shown.contains("bash_1  running"), "{shown}");
    assert!(shown.contains("sleep 30"), "{shown}");
    assert!(shown.contains("output: "), "{shown}");
}

#[test]
fn bang_runs_a_command_without_approval_and_the_next_question_carries_it() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("seen"))]).unwrap();
    // The user's own command runs without the mode's question (issue 33);
    let Some((ok, text)) = env.terminal_steps(
        &server.url(),
        "",
        &[
            ("", "!echo line-bang-$((1+1))\n"),
            ("exit 0", "what did it say\n/exit\n"),
        ],
    ) else {
        return;
    };
    assert!(ok, "{text}");
    assert!(!text.contains("needs approval"), "{text}");
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "the command alone asks no model");
    let sent = requests[0].json()["messages"].to_string();
    assert!(
        sent.contains("<bash-input>echo line-bang-$((1+1))</bash-input>")
            && sent.contains("<bash-stdout>line-bang-2"),
        "{sent}"
    );
}

/// Lines typed before an approval question shows (a sentence with "yes" and
/// "always", even a number) never answer it: they stay prompts, sent after
/// the turn. Nothing runs, no rule is saved, the project stays untrusted.
#[test]
fn lines_typed_before_an_approval_never_answer_it() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "b1",
            "Bash",
            serde_json::json!({"command": "touch ran.txt"}),
        )])),
        MockResponse::sse(anthropic::text("not run")),
        MockResponse::sse(anthropic::text("first kept")),
        MockResponse::sse(anthropic::text("second kept")),
    ])
    .unwrap();
    let Some((ok, text)) = env.terminal(
        &server.url(),
        "",
        "make the file\nyes and always\n3\n/exit\n",
    ) else {
        return;
    };
    assert!(ok, "{text}");
    assert!(text.contains("needs approval"), "{text}");
    assert!(
        text.contains("kept for after this turn: yes and always"),
        "{text}"
    );
    assert!(!env.path("ran.txt").exists(), "{text}");
    assert!(!env.path(".wright/config.local.toml").exists(), "{text}");
    assert!(
        !env.home.path().join(".config/wright/config.toml").exists(),
        "{text}"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 4, "{text}");
    let refused = requests[1].json()["messages"].to_string();
    assert!(refused.contains("Permission denied"), "{refused}");
    let kept = requests[2].json()["messages"].to_string();
    assert!(kept.contains("yes and always"), "{kept}");
}

/// The line mode shows a plan and takes "1" (accept edits): the edit after
/// it runs without another question.
#[test]
fn a_plan_in_the_line_mode_is_approved_with_1() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "p1",
            "ExitPlanMode",
            serde_json::json!({"plan": "1. Write notes.txt\n2. Done"}),
        )])),
        MockResponse::sse(anthropic::tool_calls(&[(
            "w1",
            "Write",
            serde_json::json!({"file_path": "notes.txt", "content": "planned\n"}),
        )])),
        MockResponse::sse(anthropic::text("carried out")),
    ])
    .unwrap();
    let Some((ok, text)) = env.terminal_steps(
        &server.url(),
        "--permission-mode plan",
        &[
            ("", "plan the notes\n"),
            ("carry out the plan?", "1\n"),
            ("carried out", "/exit\n"),
        ],
    ) else {
        return;
    };
    assert!(ok, "{text}");
    assert!(text.contains("Plan:\r\n  1. Write notes.txt"), "{text}");
    assert!(!text.contains("needs approval"), "{text}");
    assert_eq!(
        std::fs::read_to_string(env.path("notes.txt")).unwrap(),
        "planned\n"
    );
}

/// The line mode asks each question with numbered options; "2" sends the
/// second label, "3: …" one's own words.
#[test]
fn questions_in_the_line_mode_take_a_number_or_own_words() {
    let env = Env::new();
    let question = serde_json::json!({"questions": [
        {"question": "Which database?", "header": "DB", "multiSelect": false, "options": [
            {"label": "SQLite", "description": "one file"},
            {"label": "Postgres", "description": "a server"}]},
        {"question": "Which name?", "header": "Name", "multiSelect": false, "options": [
            {"label": "app", "description": ""},
            {"label": "svc", "description": ""}]}]});
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "q1",
            "AskUserQuestion",
            question,
        )])),
        MockResponse::sse(anthropic::text("noted")),
    ])
    .unwrap();
    let Some((ok, text)) = env.terminal_steps(
        &server.url(),
        "",
        &[
            ("", "ask me\n"),
            ("2. Postgres — a server", "2\n"),
            ("[Name] Which name?", "3: wright-demo\n"),
            ("noted", "/exit\n"),
        ],
    ) else {
        return;
    };
    assert!(ok, "{text}");
    let sent = server.requests()[1].json()["messages"].to_string();
    assert!(
        sent.contains(r#"\"Which database?\" = \"Postgres\""#),
        "{sent}"
    );
    assert!(
        sent.contains(r#"\"Which name?\" = \"wright-demo\""#),
        "{sent}"
    );
}
