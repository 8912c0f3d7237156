//! The folding rules, on made-up outcomes (no processes).

use std::time::Duration;

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn ok(stdout: &str) -> HookResult {
    HookResult::Success {
        stdout: stdout.into(),
    }
}

fn blocked(stderr: &str) -> HookResult {
    HookResult::Blocked {
        stderr: stderr.into(),
    }
}

fn fold(event: HookEvent, results: Vec<HookResult>) -> HookRun {
    let outcomes = results
        .into_iter()
        .enumerate()
        .map(|(i, result)| HookOutcome {
            event,
            command: format!("h{i}"),
            source: "test".into(),
            duration: Duration::from_millis(5),
            result,
        })
        .collect();
    aggregate(event, outcomes)
}

fn pre(decision: &str, reason: &str) -> HookResult {
    ok(&json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": decision,
        "permissionDecisionReason": reason,
    }})
    .to_string())
}

#[test]
fn nothing_said_is_nothing_decided() {
    let r = fold(HookEvent::PreToolUse, vec![ok(""), ok("just a log line")]);
    assert_eq!(r.block, None);
    assert_eq!(r.permission, None);
    assert_eq!(r.denied(), None);
    assert!(r.additional_context.is_empty());
    assert!(r.warnings.is_empty());
}

#[test]
fn strictest_permission_wins_and_its_reasons_are_joined() {
    let r = fold(
        HookEvent::PreToolUse,
        vec![
            pre("allow", "fine"),
            pre("deny", "no"),
            pre("ask", "hm"),
            pre("deny", "never"),
        ],
    );
    assert_eq!(
        r.permission,
        Some((PermissionDecision::Deny, "no\nnever".into()))
    );
    assert_eq!(r.denied(), Some("no\nnever".into()));
    let r = fold(
        HookEvent::PreToolUse,
        vec![pre("allow", "a"), pre("ask", "b")],
    );
    assert_eq!(r.permission, Some((PermissionDecision::Ask, "b".into())));
    assert_eq!(r.denied(), None);
}

#[test]
fn legacy_decisions_for_pre_tool_use() {
    let r = fold(
        HookEvent::PreToolUse,
        vec![ok(r#"{"decision":"approve","reason":"ok"}"#)],
    );
    assert_eq!(r.permission, Some((PermissionDecision::Allow, "ok".into())));
    assert_eq!(r.block, None);
    let r = fold(
        HookEvent::PreToolUse,
        vec![ok(r#"{"decision":"block","reason":"rm -rf"}"#)],
    );
    assert_eq!(
        r.permission,
        Some((PermissionDecision::Deny, "rm -rf".into()))
    );
    assert_eq!(r.denied(), Some("rm -rf".into()));
    // The new field wins over the old one in the same reply.
    let r = fold(
        HookEvent::PreToolUse,
        vec![ok(
            r#"{"decision":"approve","hookSpecificOutput":{"permissionDecision":"ask"}}"#,
        )],
    );
    assert_eq!(r.permission, Some((PermissionDecision::Ask, String::new())));
}

#[test]
fn exit_2_per_event() {
    let r = fold(HookEvent::PreToolUse, vec![blocked("dangerous\n")]);
    assert_eq!(r.block, Some("dangerous".into()));
    assert_eq!(r.denied(), Some("dangerous".into()));
    let r = fold(HookEvent::PermissionRequest, vec![blocked("no way")]);
    assert_eq!(r.block, None);
    assert_eq!(
        r.permission,
        Some((PermissionDecision::Deny, "no way".into()))
    );
    for e in [
        HookEvent::Stop,
        HookEvent::SubagentStop,
        HookEvent::UserPromptSubmit,
        HookEvent::PostToolUse,
        HookEvent::PreCompact,
    ] {
        let r = fold(e, vec![blocked("keep going")]);
        assert_eq!(r.block, Some("keep going".into()), "{e}");
    }
    for e in [
        HookEvent::SessionStart,
        HookEvent::SessionEnd,
        HookEvent::Notification,
    ] {
        let r = fold(e, vec![blocked("only for you")]);
        assert_eq!(r.block, None, "{e}");
        assert_eq!(r.system_messages, ["only for you"], "{e}");
    }
    // Without stderr the block still says something.
    let r = fold(HookEvent::Stop, vec![blocked("")]);
    assert!(
        r.block
            .is_some_and(|b| b.contains("h0") && b.contains("exit"))
    );
}

#[test]
fn json_block_for_other_events() {
    let r = fold(
        HookEvent::Stop,
        vec![
            ok(r#"{"decision":"block","reason":"tests fail"}"#),
            blocked("lint fails"),
        ],
    );
    assert_eq!(r.block, Some("tests fail\nlint fails".into()));
    let r = fold(HookEvent::SessionStart, vec![ok(r#"{"decision":"block"}"#)]);
    assert_eq!(r.block, None);
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
}

#[test]
fn updated_input_only_from_allowing_or_undecided_hooks_last_wins() {
    let rewrite = |decision: Option<&str>, cmd: &str| {
        let mut hso = json!({"hookEventName": "PreToolUse", "updatedInput": {"command": cmd}});
        if let Some(d) = decision {
            hso["permissionDecision"] = d.into();
        }
        ok(&json!({ "hookSpecificOutput": hso }).to_string())
    };
    let r = fold(
        HookEvent::PreToolUse,
        vec![
            rewrite(Some("allow"), "one"),
            rewrite(None, "two"),
            rewrite(Some("ask"), "three"),
            rewrite(Some("deny"), "four"),
        ],
    );
    assert_eq!(r.updated_input, Some(json!({"command": "two"})));
}

#[test]
fn permission_request_behaviors() {
    let allow = ok(&json!({"hookSpecificOutput": {
        "hookEventName": "PermissionRequest",
        "decision": {"behavior": "allow", "updatedInput": {"x": 1}},
    }})
    .to_string());
    let r = fold(HookEvent::PermissionRequest, vec![allow.clone()]);
    assert_eq!(
        r.permission,
        Some((PermissionDecision::Allow, String::new()))
    );
    assert_eq!(r.updated_input, Some(json!({"x": 1})));
    let deny = ok(&json!({"hookSpecificOutput": {
        "hookEventName": "PermissionRequest",
        "decision": {"behavior": "deny", "message": "not on main", "interrupt": true},
    }})
    .to_string());
    let r = fold(HookEvent::PermissionRequest, vec![allow, deny]);
    assert_eq!(
        r.permission,
        Some((PermissionDecision::Deny, "not on main".into()))
    );
    assert_eq!(r.stop, Some("not on main".into()));
}

#[test]
fn context_from_json_and_from_plain_text_where_it_counts() {
    let ctx = |e: &str| {
        ok(
            &json!({"hookSpecificOutput": {"hookEventName": e, "additionalContext": "from json"}})
                .to_string(),
        )
    };
    let r = fold(
        HookEvent::UserPromptSubmit,
        vec![ok("branch: main\n"), ctx("UserPromptSubmit")],
    );
    assert_eq!(r.additional_context, ["branch: main", "from json"]);
    let r = fold(HookEvent::SessionStart, vec![ok("hello")]);
    assert_eq!(r.additional_context, ["hello"]);
    let r = fold(
        HookEvent::PostToolUse,
        vec![ok("ignored"), ctx("PostToolUse")],
    );
    assert_eq!(r.additional_context, ["from json"]);
}

#[test]
fn specific_output_for_another_event_is_ignored_with_a_warning() {
    let r = fold(
        HookEvent::PostToolUse,
        vec![ok(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"x"}}"#,
        )],
    );
    assert!(r.additional_context.is_empty());
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn continue_false_stop_reason_messages_and_suppress() {
    let r = fold(
        HookEvent::PostToolUse,
        vec![
            ok(r#"{"continue":false,"stopReason":"build broken","systemMessage":"see log"}"#),
            ok(r#"{"continue":false,"suppressOutput":true}"#),
            ok(r#"{"continue":true}"#),
        ],
    );
    let stop = r.stop.unwrap_or_default();
    assert!(stop.starts_with("build broken\n"), "{stop}");
    assert!(
        stop.contains("h1"),
        "a default reason names the hook: {stop}"
    );
    assert_eq!(r.system_messages, ["see log"]);
    assert!(r.suppress_output);
}

#[test]
fn failures_become_warnings_and_never_decisions() {
    let r = fold(
        HookEvent::PreToolUse,
        vec![
            HookResult::Failed {
                code: Some(1),
                stderr: "line1\nboom\n".into(),
            },
            HookResult::Failed {
                code: None,
                stderr: String::new(),
            },
            HookResult::TimedOut,
            HookResult::SpawnError("no bash".into()),
            HookResult::Cancelled,
            ok(r#"{"continue":"nope"}"#),
        ],
    );
    assert_eq!(r.denied(), None);
    assert_eq!(r.stop, None);
    assert_eq!(r.warnings.len(), 5, "{:#?}", r.warnings);
    assert_eq!(
        r.warnings[0],
        "hook \"h0\" (PreToolUse) exited 1: line1\nboom"
    );
    assert!(
        r.warnings[1].contains("no stderr output"),
        "{}",
        r.warnings[1]
    );
    assert!(r.warnings[2].contains("timed out"), "{}", r.warnings[2]);
    assert!(r.warnings[3].contains("could not start: no bash"));
    assert!(r.warnings[4].contains("not a valid hook reply"));
}

#[test]
fn long_stderr_is_cut_to_its_tail() {
    let long = format!("{}END", "é".repeat(1000));
    let r = fold(
        HookEvent::Stop,
        vec![HookResult::Failed {
            code: Some(3),
            stderr: long,
        }],
    );
    assert!(r.warnings[0].ends_with("END"));
    assert!(r.warnings[0].chars().count() < 500);
}

#[test]
fn describe_has_one_line_per_hook() {
    let r = fold(
        HookEvent::PreToolUse,
        vec![
            ok(""),
            blocked("x"),
            HookResult::TimedOut,
            HookResult::Cancelled,
        ],
    );
    assert_eq!(
        r.describe(),
        [
            "PreToolUse hook \"h0\" 5ms: ok",
            "PreToolUse hook \"h1\" 5ms: blocked",
            "PreToolUse hook \"h2\" 5ms: timeout",
            "PreToolUse hook \"h3\" 5ms: cancelled",
        ]
    );
    assert_eq!(r.to_string(), r.describe().join("\n"));
}
