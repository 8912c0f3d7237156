use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn json_of(s: &str) -> HookJson {
    match parse_stdout(s) {
        Stdout::Json(j) => *j,
        other => panic!("not a JSON reply: {other:?}"),
    }
}

#[test]
fn empty_and_text() {
    assert_eq!(parse_stdout(""), Stdout::Empty);
    assert_eq!(parse_stdout(" \n\t"), Stdout::Empty);
    assert_eq!(parse_stdout("hello\n"), Stdout::Text("hello".into()));
    // Broken JSON, scalars and arrays are plain text.
    assert_eq!(parse_stdout("{oops"), Stdout::Text("{oops".into()));
    assert_eq!(parse_stdout("42"), Stdout::Text("42".into()));
    assert_eq!(parse_stdout("[1]"), Stdout::Text("[1]".into()));
}

#[test]
fn every_common_field() {
    let j = json_of(
        r#"{"continue":false,"stopReason":"done","suppressOutput":true,
            "systemMessage":"hi","decision":"block","reason":"no","extra":1}"#,
    );
    assert_eq!(
        j,
        HookJson {
            continue_: Some(false),
            stop_reason: Some("done".into()),
            suppress_output: Some(true),
            system_message: Some("hi".into()),
            decision: Some(JsonDecision::Block),
            reason: Some("no".into()),
            hook_specific_output: None,
        }
    );
    assert_eq!(
        json_of(r#"{"decision":"approve"}"#).decision,
        Some(JsonDecision::Approve)
    );
}

#[test]
fn pre_tool_use_specific_output() {
    let j = json_of(
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask",
            "permissionDecisionReason":"why","updatedInput":{"command":"ls -a"},
            "additionalContext":"ctx","somethingNew":true}}"#,
    );
    assert_eq!(
        j.hook_specific_output,
        Some(HookSpecificOutput {
            hook_event_name: Some("PreToolUse".into()),
            permission_decision: Some(PermissionDecision::Ask),
            permission_decision_reason: Some("why".into()),
            updated_input: Some(json!({"command": "ls -a"})),
            additional_context: Some("ctx".into()),
            decision: None,
        })
    );
}

#[test]
fn permission_request_specific_output() {
    let j = json_of(
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest",
            "decision":{"behavior":"deny","message":"not here","interrupt":true}}}"#,
    );
    let d = j.hook_specific_output.and_then(|s| s.decision);
    assert_eq!(
        d,
        Some(PermissionRequestDecision {
            behavior: PermissionBehavior::Deny,
            updated_input: None,
            message: Some("not here".into()),
            interrupt: Some(true),
        })
    );
}

#[test]
fn wrong_shapes_are_bad_json_not_silently_allow() {
    for s in [
        r#"{"decision":"allow"}"#,
        r#"{"continue":"no"}"#,
        r#"{"hookSpecificOutput":{"permissionDecision":"maybe"}}"#,
        r#"{"hookSpecificOutput":{"decision":{"behavior":"ask"}}}"#,
    ] {
        assert!(matches!(parse_stdout(s), Stdout::BadJson(_)), "{s}");
    }
}
