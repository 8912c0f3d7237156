//! Hooks and the verifier in the turn loop: each event fired at its point,
//! blocks by exit code and by JSON, the permission order, rewritten input,
//! added context, broken and hanging hooks, and the verifier's report in
//! the edit's own result.

use super::*;
use std::path::Path;
use wright_hooks::hook::{HookDef, HookEvent, Hooks};
use wright_hooks::verify::{CheckSpec, Format, Verifier, VerifySettings};
use wright_permissions::{Rule, RuleSet};
use wright_protocol::ItemKind;

/// A hook script written into the session dir; `body` is bash.
struct Hook {
    event: HookEvent,
    matcher: Option<&'static str>,
    body: String,
    timeout_secs: Option<u64>,
}

fn hook(event: HookEvent, matcher: Option<&'static str>, body: &str) -> Hook {
    Hook {
        event,
        matcher,
        body: body.to_owned(),
        timeout_secs: None,
    }
}

/// Installs the hooks (scripts under `<cwd>/.hooks/`) in the options.
fn with_hooks(hooks: Vec<Hook>) -> impl FnOnce(&mut SessionOptions) {
    move |o: &mut SessionOptions| {
        let dir = o.cwd.join(".hooks");
        std::fs::create_dir_all(&dir).unwrap();
        let defs = hooks
            .into_iter()
            .enumerate()
            .map(|(n, h)| {
                let path = dir.join(format!("h{n}.sh"));
                std::fs::write(&path, format!("#!/bin/bash\n{}\n", h.body)).unwrap();
                HookDef::new(
                    h.event,
                    h.matcher.map(str::to_owned),
                    format!("bash {}", path.display()),
                    h.timeout_secs,
                    "test config",
                )
            })
            .collect();
        let (hooks, warnings) = Hooks::new(defs);
        assert!(warnings.is_empty(), "{warnings:?}");
        o.extensions.hooks = Arc::new(hooks);
    }
}

fn results(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ItemCompleted { item } => match &item.kind {
                ItemKind::ToolCall { name, output, .. } => {
                    Some((name.clone(), output.clone().unwrap_or_default()))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn hook_runs(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ItemCompleted { item } => match &item.kind {
                ItemKind::HookRun { event, outcome, .. } => Some((event.clone(), outcome.clone())),
                _ => None,
            },
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

fn cwd_of(h: &Harness) -> &Path {
    h._dir.path()
}

#[tokio::test]
async fn a_pre_tool_use_hook_exiting_2_blocks_rm_and_the_model_reads_its_stderr() {
    let body = r#"input=$(cat)
if echo "$input" | grep -q '"command":"rm '; then echo "no rm here: use trash" >&2; exit 2; fi
exit 0"#;
    let mut h = start_with(
        vec![
            calls(&[
                ("a", "Bash", r#"{"command":"rm keep.txt"}"#),
                ("b", "Bash", r#"{"command":"echo fine"}"#),
            ]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
        with_hooks(vec![hook(HookEvent::PreToolUse, Some("Bash"), body)]),
    );
    std::fs::write(cwd_of(&h).join("keep.txt"), "x").unwrap();
    let (events, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let r = results(&events);
    assert!(
        r[0].1.starts_with("Blocked by hook: no rm here: use trash"),
        "{r:?}"
    );
    assert!(r[1].1.contains("fine"), "{r:?}");
    assert!(cwd_of(&h).join("keep.txt").exists());
    assert_eq!(
        hook_runs(&events),
        [
            ("PreToolUse".to_owned(), "blocked".to_owned()),
            ("PreToolUse".to_owned(), "ok".to_owned())
        ]
    );
    // The model's next request carries the refusal.
    let sent = h.requests.lock().unwrap()[1].messages.clone();
    assert!(format!("{sent:?}").contains("no rm here"));
}

#[tokio::test]
async fn a_json_deny_beats_an_allow_rule_and_a_hook_allow_never_beats_the_guard() {
    let deny = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy says no"}}'"#;
    let allow_rule = |o: &mut SessionOptions| {
        o.policy.rules = RuleSet {
            allow: vec!["Bash(*)".parse::<Rule>().unwrap()],
            ..RuleSet::default()
        };
    };
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"touch made.txt"}"#)]),
            text("ok"),
        ],
        PermissionMode::Default,
        5,
        |o| {
            allow_rule(o);
            with_hooks(vec![hook(HookEvent::PreToolUse, Some("Bash"), deny)])(o);
        },
    );
    let (events, _) = turn(&mut h, "go").await;
    assert_eq!(
        results(&events)[0].1,
        "Blocked by hook: policy says no",
        "{events:?}"
    );
    assert!(!cwd_of(&h).join("made.txt").exists());

    let allow = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'"#;
    let mut h = start_with(
        vec![
            calls(&[
                ("a", "Bash", r#"{"command":"rm -rf /"}"#),
                ("b", "Bash", r#"{"command":"touch made.txt"}"#),
            ]),
            text("ok"),
        ],
        PermissionMode::Default,
        5,
        with_hooks(vec![hook(HookEvent::PreToolUse, None, allow)]),
    );
    let (events, _) = turn(&mut h, "go").await;
    let r = results(&events);
    assert!(r[0].1.starts_with("Blocked by guard"), "{r:?}");
    // The allow spares the approval default mode would ask for (this run cannot ask).
    assert!(r[1].1.contains("exit code 0"), "{r:?}");
    assert!(cwd_of(&h).join("made.txt").exists());
}

#[tokio::test]
async fn an_ask_from_a_hook_beats_an_allow_rule_and_a_deny_rule_beats_a_hook_allow() {
    let ask = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check with a human"}}'"#;
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"touch made.txt"}"#)]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
        with_hooks(vec![hook(HookEvent::PreToolUse, None, ask)]),
    );
    let (events, _) = turn(&mut h, "go").await;
    let r = results(&events);
    assert!(
        r[0].1.starts_with("Permission denied") && r[0].1.contains("check with a human"),
        "{r:?}"
    );
    assert!(!cwd_of(&h).join("made.txt").exists());

    let allow = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'"#;
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"touch made.txt"}"#)]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
        |o| {
            o.policy.rules = RuleSet {
                deny: vec!["Bash(touch:*)".parse::<Rule>().unwrap()],
                ..RuleSet::default()
            };
            with_hooks(vec![hook(HookEvent::PreToolUse, None, allow)])(o);
        },
    );
    let (events, _) = turn(&mut h, "go").await;
    assert!(
        results(&events)[0].1.starts_with("Permission denied"),
        "{events:?}"
    );
}

#[tokio::test]
async fn updated_input_is_what_runs_and_is_checked() {
    let rewrite = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten"}}}'"#;
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"echo original"}"#)]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
        with_hooks(vec![hook(HookEvent::PreToolUse, None, rewrite)]),
    );
    let (events, _) = turn(&mut h, "go").await;
    let r = results(&events);
    assert!(
        r[0].1.contains("rewritten") && !r[0].1.contains("original"),
        "{r:?}"
    );

    // A rewrite to something destructive meets the guard.
    let evil = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"rm -rf /"}}}'"#;
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"echo original"}"#)]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
        with_hooks(vec![hook(HookEvent::PreToolUse, None, evil)]),
    );
    let (events, _) = turn(&mut h, "go").await;
    assert!(
        results(&events)[0].1.starts_with("Blocked by guard"),
        "{events:?}"
    );
}

#[tokio::test]
async fn the_hook_gets_claude_codes_input_on_stdin_and_its_env() {
    let body = r#"cat > "$CLAUDE_PROJECT_DIR/stdin.json"; echo "$WRIGHT_PROJECT_DIR" > "$CLAUDE_PROJECT_DIR/env.txt""#;
    let mut h = start_with(
        vec![
            calls(&[("call_7", "Bash", r#"{"command":"echo hi"}"#)]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
        with_hooks(vec![hook(HookEvent::PreToolUse, Some("Bash"), body)]),
    );
    turn(&mut h, "go").await;
    let dir = cwd_of(&h).to_path_buf();
    let input: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("stdin.json")).unwrap()).unwrap();
    assert_eq!(
        input,
        serde_json::json!({
            "session_id": "s1",
            "transcript_path": "",
            "cwd": dir,
            "hook_event_name": "PreToolUse",
            "permission_mode": "bypassPermissions",
            "tool_name": "Bash",
            "tool_input": {"command": "echo hi"},
            "tool_use_id": "call_7",
        })
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("env.txt")).unwrap().trim(),
        dir.display().to_string()
    );
}

#[tokio::test]
async fn post_tool_use_feedback_and_context_join_the_result() {
    let post = r#"cat >/dev/null; echo "lint: trailing space" >&2; exit 2"#;
    let context = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"remember the style guide"}}'"#;
    let failure = r#"cat > "$CLAUDE_PROJECT_DIR/failure.json""#;
    let mut h = start_with(
        vec![
            calls(&[
                ("a", "Bash", r#"{"command":"echo done"}"#),
                ("b", "Read", r#"{"file_path":"missing.txt"}"#),
            ]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
        with_hooks(vec![
            hook(HookEvent::PostToolUse, Some("Bash"), post),
            hook(HookEvent::PostToolUse, Some("Bash"), context),
            hook(HookEvent::PostToolUseFailure, Some("Read"), failure),
        ]),
    );
    let (events, _) = turn(&mut h, "go").await;
    let r = results(&events);
    assert!(
        r[0].1.contains("done")
            && r[0]
                .1
                .contains("[PostToolUse hook feedback]\nlint: trailing space")
            && r[0].1.contains("remember the style guide"),
        "{r:?}"
    );
    let failure: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cwd_of(&h).join("failure.json")).unwrap())
            .unwrap();
    assert_eq!(failure["hook_event_name"], "PostToolUseFailure");
    assert_eq!(failure["tool_name"], "Read");
    assert!(failure["error"].as_str().unwrap().contains("missing.txt"));
}

#[tokio::test]
async fn user_prompt_submit_adds_context_or_blocks_the_prompt() {
    let mut h = start_with(
        vec![text("ok")],
        PermissionMode::Default,
        5,
        with_hooks(vec![
            hook(
                HookEvent::UserPromptSubmit,
                None,
                "cat >/dev/null; echo 'today is release day'",
            ),
            hook(
                HookEvent::SessionStart,
                None,
                "cat >/dev/null; echo 'branch: main'",
            ),
        ]),
    );
    let (_, reason) = turn(&mut h, "hello").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let sent = format!("{:?}", h.requests.lock().unwrap()[0].messages);
    assert!(
        sent.contains("hello")
            && sent.contains("today is release day")
            && sent.contains("branch: main"),
        "{sent}"
    );

    let mut h = start_with(
        vec![text("never")],
        PermissionMode::Default,
        5,
        with_hooks(vec![hook(
            HookEvent::UserPromptSubmit,
            None,
            r#"grep -q secret && { echo "prompt mentions a secret" >&2; exit 2; }; exit 0"#,
        )]),
    );
    let (events, reason) = turn(&mut h, "show me the secret").await;
    assert_eq!(reason, TurnEndReason::Failed);
    assert!(h.requests.lock().unwrap().is_empty());
    assert!(format!("{events:?}").contains("prompt mentions a secret"));
}

#[tokio::test]
async fn a_stop_hook_re_prompts_once_with_stop_hook_active_set() {
    // Blocks the first stop, lets the second through (it sees stop_hook_active).
    let body = r#"input=$(cat)
echo "$input" >> "$CLAUDE_PROJECT_DIR/stops.jsonl"
if echo "$input" | grep -q '"stop_hook_active":false'; then echo "run the tests first" >&2; exit 2; fi
exit 0"#;
    let mut h = start_with(
        vec![text("done"), text("tests pass, done")],
        PermissionMode::Default,
        5,
        with_hooks(vec![hook(HookEvent::Stop, None, body)]),
    );
    let (_, reason) = turn(&mut h, "work").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2);
    assert!(format!("{:?}", requests[1].messages).contains("run the tests first"));
    let stops = std::fs::read_to_string(cwd_of(&h).join("stops.jsonl")).unwrap();
    let flags: Vec<bool> = stops
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["stop_hook_active"]
                .as_bool()
                .unwrap()
        })
        .collect();
    assert_eq!(flags, [false, true]);
}

#[tokio::test]
async fn broken_and_hanging_hooks_warn_and_the_loop_goes_on() {
    let mut slow = hook(HookEvent::PreToolUse, None, "sleep 30");
    slow.timeout_secs = Some(1);
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"echo still runs"}"#)]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
        with_hooks(vec![
            hook(
                HookEvent::PreToolUse,
                None,
                "cat >/dev/null; echo boom >&2; exit 1",
            ),
            slow,
            hook(
                HookEvent::PreToolUse,
                None,
                "cat >/dev/null; echo '{not json'",
            ),
        ]),
    );
    let started = std::time::Instant::now();
    let (events, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(results(&events)[0].1.contains("still runs"), "{events:?}");
    let w = warnings(&events).join("\n");
    assert!(w.contains("boom"), "{w}");
    let mut outcomes: Vec<String> = hook_runs(&events).into_iter().map(|(_, o)| o).collect();
    outcomes.sort();
    assert_eq!(outcomes, ["failed", "ok", "timeout"]);
}

#[tokio::test]
async fn a_permission_request_hook_answers_instead_of_the_user() {
    let allow = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'"#;
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"touch made.txt"}"#)]),
            text("ok"),
        ],
        PermissionMode::Default,
        5,
        with_hooks(vec![hook(
            HookEvent::PermissionRequest,
            Some("Bash"),
            allow,
        )]),
    );
    let (events, _) = turn(&mut h, "go").await;
    assert!(results(&events)[0].1.contains("exit code 0"), "{events:?}");
    assert!(cwd_of(&h).join("made.txt").exists());
}

/// A crate whose `src/lib.rs` the model edits.
fn cargo_project(dir: &Path) {
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"verifyme\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), "pub fn two() -> u32 {\n    2\n}\n").unwrap();
}

fn with_verifier(checks: Vec<CheckSpec>) -> impl FnOnce(&mut SessionOptions) {
    move |o: &mut SessionOptions| {
        cargo_project(&o.cwd);
        let (verifier, warnings) = Verifier::new(
            VerifySettings {
                enabled: true,
                timeout: Duration::from_secs(120),
                checks,
            },
            |p| p == "cargo",
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        o.extensions.verifier = Some(Arc::new(verifier));
    }
}

fn diagnostics(events: &[Event]) -> Vec<(String, u32)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ItemCompleted { item } => match &item.kind {
                ItemKind::Diagnostics {
                    checker, errors, ..
                } => Some((checker.clone(), *errors)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn the_verifier_puts_the_compiler_error_in_the_edit_result_once_per_response() {
    let break_it =
        r#"{"file_path":"src/lib.rs","old_string":"    2\n","new_string":"    \"two\"\n"}"#;
    let note = r#"{"file_path":"NOTES.md","content":"notes\n"}"#;
    let fix = r#"{"file_path":"src/lib.rs","old_string":"    \"two\"\n","new_string":"    2\n"}"#;
    let mut h = start_with(
        vec![
            calls(&[
                ("a", "Write", note),
                ("b", "Edit", break_it),
                ("c", "Read", r#"{"file_path":"src/lib.rs"}"#),
            ]),
            calls(&[("d", "Edit", fix), ("e", "Write", note)]),
            calls(&[("f", "Write", note)]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        10,
        with_verifier(Vec::new()),
    );
    let (events, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let r = results(&events);
    // The first response: one cargo run, reported in the last edit's result.
    assert!(!r[0].1.contains("[verifier"), "{r:?}");
    assert!(
        r[1].1.contains("[verifier: cargo check") && r[1].1.contains("error[E0308]"),
        "{r:?}"
    );
    assert!(r[1].1.contains("src/lib.rs:2"), "{}", r[1].1);
    // The fix clears it, in the second response's last edit (a Write of a
    // Markdown file, after the Edit that fixed the Rust one).
    assert!(
        r[4].1.contains("no errors in the edited files"),
        "{}",
        r[4].1
    );
    // A response that changed only Markdown runs nothing.
    assert!(!r[5].1.contains("[verifier"), "{}", r[5].1);
    let runs = diagnostics(&events);
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert!(runs[0].1 >= 1 && runs[1].1 == 0, "{runs:?}");
}

#[tokio::test]
async fn a_checker_that_hangs_is_one_short_note() {
    let check = CheckSpec {
        glob: "*.txt".into(),
        command: "sleep 30".into(),
        format: Format::Lines,
        timeout: Some(Duration::from_secs(1)),
        source: "test".into(),
    };
    let mut h = start_with(
        vec![
            calls(&[("a", "Write", r#"{"file_path":"a.txt","content":"x"}"#)]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
        with_verifier(vec![check]),
    );
    let started = std::time::Instant::now();
    let (events, _) = turn(&mut h, "go").await;
    assert!(started.elapsed() < Duration::from_secs(20));
    let r = results(&events);
    assert!(r[0].1.contains("timed out"), "{r:?}");
    assert_eq!(r[0].1.matches("[verifier").count(), 1, "{r:?}");
}

/// Appends the hook's stdin to `<cwd>/events.jsonl`.
const LOG_STDIN: &str =
    r#"cat >> "$CLAUDE_PROJECT_DIR/events.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/events.jsonl""#;

fn logged(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("events.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test]
async fn every_loop_event_fires_at_its_point_with_its_input() {
    let long = "x".repeat(12_000);
    let events = [
        HookEvent::SessionStart,
        HookEvent::UserPromptSubmit,
        HookEvent::PreToolUse,
        HookEvent::PostToolUse,
        HookEvent::Stop,
        HookEvent::PreCompact,
        HookEvent::SessionEnd,
    ];
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"echo hi"}"#)]),
            text(&long),
            text("second"),
        ],
        PermissionMode::Bypass,
        10,
        |o| {
            o.compaction = crate::CompactionOptions {
                auto: false,
                context_window: 8_000,
                keep_recent_tokens: 1_000,
                margin_percent: 10,
            };
            with_hooks(events.iter().map(|e| hook(*e, None, LOG_STDIN)).collect())(o);
        },
    );
    turn(&mut h, "first").await;
    turn(&mut h, "again").await;
    h.handle
        .submit(Op::Compact {
            focus: Some("keep the names".into()),
        })
        .await
        .unwrap();
    // The compaction, then the SessionStart hooks it fires.
    let mut compacted = false;
    while let Some(e) = h.handle.events.recv().await {
        if let EventKind::ItemCompleted { item } = &e.kind {
            match &item.kind {
                ItemKind::Compaction { .. } => compacted = true,
                ItemKind::HookRun { event, .. } if compacted && event == "SessionStart" => break,
                _ => {}
            }
        }
    }
    assert!(compacted);
    h.handle.shutdown().await;
    let log = logged(cwd_of(&h));
    let names: Vec<&str> = log
        .iter()
        .map(|v| v["hook_event_name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PostToolUse",
            "Stop",
            "UserPromptSubmit",
            "Stop",
            "PreCompact",
            "SessionStart",
            "SessionEnd"
        ],
        "{log:?}"
    );
    assert_eq!(log[0]["source"], "startup");
    assert_eq!(log[1]["prompt"], "first");
    assert_eq!(log[2]["tool_input"]["command"], "echo hi");
    assert!(
        log[3]["tool_response"]["content"]
            .as_str()
            .unwrap()
            .contains("hi")
    );
    assert_eq!(log[3]["tool_use_id"], "a");
    assert_eq!(log[4]["stop_hook_active"], false);
    assert_eq!(log[7]["trigger"], "manual");
    assert_eq!(log[7]["custom_instructions"], "keep the names");
    assert_eq!(log[8]["source"], "compact");
    assert_eq!(log[9]["reason"], "other");
    for entry in &log {
        assert_eq!(entry["session_id"], "s1");
        assert_eq!(entry["permission_mode"], "bypassPermissions");
    }
}

#[tokio::test]
async fn a_notification_hook_hears_of_every_approval_prompt() {
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"touch x"}"#)]),
            text("ok"),
        ],
        PermissionMode::Default,
        5,
        |o| {
            o.policy.can_ask = CanAsk::Yes;
            with_hooks(vec![hook(HookEvent::Notification, None, LOG_STDIN)])(o);
        },
    );
    h.handle
        .submit(Op::UserTurn { text: "go".into() })
        .await
        .unwrap();
    // The user answers once the notification has gone out (an earlier
    // answer would stop it: nobody needs the reminder any more).
    let mut asked = None;
    loop {
        let e = h.handle.events.recv().await.unwrap();
        match &e.kind {
            EventKind::ApprovalRequested { id, .. } => asked = Some(id.clone()),
            EventKind::ItemCompleted { item } if matches!(&item.kind, ItemKind::HookRun { event, .. } if event == "Notification") =>
            {
                h.handle
                    .submit(Op::ResolveApproval {
                        id: asked.take().unwrap(),
                        decision: ApprovalDecision::AllowOnce,
                    })
                    .await
                    .unwrap();
            }
            EventKind::TurnCompleted { .. } => break,
            _ => {}
        }
    }
    let log = logged(cwd_of(&h));
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0]["notification_type"], "permission_prompt");
    assert!(log[0]["message"].as_str().unwrap().contains("Bash"));
    assert!(cwd_of(&h).join("x").exists());
}

#[tokio::test]
async fn json_blocks_work_like_exit_2() {
    let block = |reason: &str| {
        format!(r#"cat >/dev/null; echo '{{"decision":"block","reason":"{reason}"}}'"#)
    };
    // UserPromptSubmit: the prompt is refused.
    let mut h = start_with(
        vec![text("never")],
        PermissionMode::Default,
        5,
        with_hooks(vec![hook(
            HookEvent::UserPromptSubmit,
            None,
            &block("not today"),
        )]),
    );
    let (events, reason) = turn(&mut h, "hi").await;
    assert_eq!(reason, TurnEndReason::Failed);
    assert!(format!("{events:?}").contains("not today"));
    assert!(h.requests.lock().unwrap().is_empty());

    // PostToolUse: the model reads the reason with the result.
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"echo x"}"#)]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
        with_hooks(vec![hook(
            HookEvent::PostToolUse,
            None,
            &block("fix the lint"),
        )]),
    );
    let (events, _) = turn(&mut h, "go").await;
    assert!(results(&events)[0].1.contains("fix the lint"), "{events:?}");

    // Stop: the model goes on, once per stop.
    let stop_once = r#"input=$(cat); if echo "$input" | grep -q '"stop_hook_active":false'; then echo '{"decision":"block","reason":"tests first"}'; fi"#;
    let mut h = start_with(
        vec![text("done"), text("really done")],
        PermissionMode::Default,
        5,
        with_hooks(vec![hook(HookEvent::Stop, None, stop_once)]),
    );
    let (_, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let requests = h.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2);
    assert!(format!("{:?}", requests[1].messages).contains("tests first"));

    // PermissionRequest: a deny refuses what the user would have been asked.
    let deny = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not on Fridays"}}}'"#;
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"touch y"}"#)]),
            text("ok"),
        ],
        PermissionMode::Default,
        5,
        |o| {
            o.policy.can_ask = CanAsk::Yes;
            with_hooks(vec![hook(HookEvent::PermissionRequest, None, deny)])(o);
        },
    );
    let (events, _) = turn(&mut h, "go").await;
    let r = results(&events);
    assert!(
        r[0].1
            .starts_with("Permission denied by a PermissionRequest hook: not on Fridays"),
        "{r:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e.kind, EventKind::ApprovalRequested { .. }))
    );
}

#[tokio::test]
async fn a_pre_compact_hook_can_stop_a_compaction() {
    let mut h = start_with(
        vec![text(&"y".repeat(12_000)), text("short")],
        PermissionMode::Default,
        5,
        |o| {
            o.compaction = crate::CompactionOptions {
                auto: false,
                context_window: 8_000,
                keep_recent_tokens: 1_000,
                margin_percent: 10,
            };
            with_hooks(vec![hook(
                HookEvent::PreCompact,
                Some("manual"),
                "cat >/dev/null; echo 'not now' >&2; exit 2",
            )])(o);
        },
    );
    turn(&mut h, "one").await;
    turn(&mut h, "two").await;
    h.handle.submit(Op::Compact { focus: None }).await.unwrap();
    let mut seen = Vec::new();
    while let Some(e) = h.handle.events.recv().await {
        let done =
            matches!(&e.kind, EventKind::Warning { message } if message.contains("PreCompact"));
        seen.push(e);
        if done {
            break;
        }
    }
    assert!(
        !seen.iter().any(|e| matches!(&e.kind, EventKind::ItemCompleted { item } if matches!(item.kind, ItemKind::Compaction { .. }))),
        "{seen:?}"
    );
    assert!(format!("{seen:?}").contains("not now"));
}

#[tokio::test]
async fn continue_false_stops_the_rest_of_the_response() {
    let stop = r#"input=$(cat); if echo "$input" | grep -q first; then echo '{"continue":false,"stopReason":"secret detected"}'; fi"#;
    let mut h = start_with(
        vec![
            calls(&[
                ("a", "Bash", r#"{"command":"echo first > one.txt"}"#),
                ("b", "Bash", r#"{"command":"touch two.txt"}"#),
                ("c", "Write", r#"{"file_path":"three.txt","content":"x"}"#),
            ]),
            text("never"),
        ],
        PermissionMode::Bypass,
        5,
        with_hooks(vec![hook(HookEvent::PreToolUse, None, stop)]),
    );
    let (events, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let r = results(&events);
    assert_eq!(r.len(), 3);
    assert!(r[0].1.contains("secret detected"), "{r:?}");
    assert!(
        r[1].1
            .starts_with("Not run: a hook stopped the turn (secret detected)"),
        "{r:?}"
    );
    assert!(r[2].1.starts_with("Not run"), "{r:?}");
    for f in ["one.txt", "two.txt", "three.txt"] {
        assert!(!cwd_of(&h).join(f).exists(), "{f}");
    }
    assert_eq!(h.requests.lock().unwrap().len(), 1);
    assert!(format!("{events:?}").contains("A hook stopped the turn: secret detected"));
}

#[tokio::test]
async fn a_permission_request_rewrite_runs_only_after_the_same_checks() {
    let rewrite = |cmd: &str| {
        format!(
            r#"cat >/dev/null; echo '{{"hookSpecificOutput":{{"hookEventName":"PermissionRequest","decision":{{"behavior":"allow","updatedInput":{{"command":"{cmd}"}}}}}}}}'"#
        )
    };
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"echo original > out.txt"}"#)]),
            text("ok"),
        ],
        PermissionMode::Default,
        5,
        with_hooks(vec![hook(
            HookEvent::PermissionRequest,
            None,
            &rewrite("echo sanitized > out.txt"),
        )]),
    );
    turn(&mut h, "go").await;
    assert_eq!(
        std::fs::read_to_string(cwd_of(&h).join("out.txt")).unwrap(),
        "sanitized\n"
    );
    // A rewrite into something the guard refuses is refused.
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"expr original"}"#)]),
            text("ok"),
        ],
        PermissionMode::Default,
        5,
        with_hooks(vec![hook(
            HookEvent::PermissionRequest,
            None,
            &rewrite("rm -rf /"),
        )]),
    );
    let (events, _) = turn(&mut h, "go").await;
    assert!(
        results(&events)[0].1.starts_with("Blocked by guard"),
        "{events:?}"
    );
}

#[tokio::test]
async fn hooks_see_file_path_even_when_the_model_says_path() {
    let guard = r#"input=$(cat); if echo "$input" | grep -q '"file_path":"package-lock.json"'; then echo "lock files are generated" >&2; exit 2; fi"#;
    let mut h = start_with(
        vec![
            calls(&[(
                "a",
                "Write",
                r#"{"path":"package-lock.json","content":"x"}"#,
            )]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
        with_hooks(vec![hook(HookEvent::PreToolUse, Some("Write"), guard)]),
    );
    let (events, _) = turn(&mut h, "go").await;
    assert!(
        results(&events)[0]
            .1
            .starts_with("Blocked by hook: lock files are generated"),
        "{events:?}"
    );
    assert!(!cwd_of(&h).join("package-lock.json").exists());
}

#[tokio::test]
async fn a_flood_from_a_hook_is_cut_before_the_model_sees_it() {
    let flood = r#"cat >/dev/null; head -c 3000000 /dev/zero | tr '\0' x >&2; exit 2"#;
    let mut h = start_with(
        vec![
            calls(&[("a", "Bash", r#"{"command":"echo hi"}"#)]),
            text("ok"),
        ],
        PermissionMode::Bypass,
        5,
        with_hooks(vec![hook(HookEvent::PreToolUse, None, flood)]),
    );
    let (events, _) = turn(&mut h, "go").await;
    let r = results(&events);
    assert!(r[0].1.len() < 20_000, "{} bytes", r[0].1.len());
    assert!(
        r[0].1.contains("[hook output cut"),
        "{}",
        &r[0].1[r[0].1.len() - 100..]
    );
}
