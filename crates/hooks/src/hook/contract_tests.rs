//! Claude Code's contract end to end: real bash hooks read the input on
//! stdin and answer with exit codes and JSON; the folded [`HookRun`] must say
//! what Claude Code would do.

use pretty_assertions::assert_eq;
use serde_json::json;

use super::input::input_bytes;
use super::*;

use super::test_fx::*;

#[tokio::test]
async fn every_event_gets_its_exact_input_on_stdin() {
    let dir = project();
    let payloads = [
        bash_call("ls"),
        HookPayload::PostToolUse {
            tool_name: "Bash".into(),
            tool_input: json!({"command": "ls"}),
            tool_response: json!({"stdout": "a\n"}),
            tool_use_id: "toolu_9".into(),
        },
        HookPayload::PostToolUseFailure {
            tool_name: "Bash".into(),
            tool_input: json!({"command": "false"}),
            tool_use_id: "toolu_9".into(),
            error: "exit 1".into(),
            is_interrupt: Some(false),
        },
        HookPayload::PermissionRequest {
            tool_name: "Edit".into(),
            tool_input: json!({"file_path": "a"}),
            tool_use_id: Some("toolu_9".into()),
        },
        HookPayload::UserPromptSubmit {
            prompt: "héllo \"world\"\n".into(),
        },
        HookPayload::Stop {
            stop_hook_active: true,
        },
        HookPayload::SubagentStop {
            stop_hook_active: false,
        },
        HookPayload::SessionStart {
            source: SessionStartSource::Clear,
        },
        HookPayload::SessionEnd {
            reason: "logout".into(),
        },
        HookPayload::PreCompact {
            trigger: CompactTrigger::Auto,
            custom_instructions: String::new(),
        },
        HookPayload::Notification {
            message: "waiting".into(),
            notification_type: "idle_prompt".into(),
        },
    ];
    for p in &payloads {
        let event = p.event();
        let out = dir.path().join(format!("{event}.json"));
        let cmd = format!("cat > '{}'", out.display());
        let r = run(dir.path(), vec![def(event, &cmd)], p).await;
        assert!(r.warnings.is_empty(), "{event}: {:?}", r.warnings);
        let expected = input_bytes(&common(dir.path()), p).unwrap_or_default();
        assert_eq!(read(&out), String::from_utf8_lossy(&expected), "{event}");
    }
    let pre =
        serde_json::from_str::<serde_json::Value>(&read(&dir.path().join("PreToolUse.json"))).ok();
    assert_eq!(
        pre,
        Some(json!({
            "session_id": "sess-9",
            "transcript_path": dir.path().join("t.jsonl").to_string_lossy(),
            "cwd": dir.path().to_string_lossy(),
            "permission_mode": "acceptEdits",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
            "tool_use_id": "toolu_9",
        }))
    );
}

#[tokio::test]
async fn exit_2_blocks_with_stderr_and_ignores_stdout() {
    let dir = project();
    let r = run(
        dir.path(),
        vec![def(
            HookEvent::PreToolUse,
            r#"echo '{"decision":"approve"}'; echo "rm is not allowed here" >&2; exit 2"#,
        )],
        &bash_call("rm -rf /"),
    )
    .await;
    assert_eq!(r.block, Some("rm is not allowed here".into()));
    assert_eq!(r.permission, None);
    assert_eq!(r.denied(), Some("rm is not allowed here".into()));
    assert_eq!(
        r.outcomes[0].result,
        HookResult::Blocked {
            stderr: "rm is not allowed here\n".into()
        }
    );
    assert_eq!(r.outcomes[0].source, "test settings");
}

#[tokio::test]
async fn json_permission_decisions_and_legacy_ones() {
    let dir = project();
    let reply = |d: &str, why: &str| {
        format!(
            r#"printf '%s' '{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"{d}","permissionDecisionReason":"{why}"}}}}'"#
        )
    };
    for (d, want) in [
        ("allow", PermissionDecision::Allow),
        ("ask", PermissionDecision::Ask),
        ("deny", PermissionDecision::Deny),
    ] {
        let r = run(
            dir.path(),
            vec![def(HookEvent::PreToolUse, &reply(d, "because"))],
            &bash_call("ls"),
        )
        .await;
        assert_eq!(r.permission, Some((want, "because".into())), "{d}");
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    }
    let r = run(
        dir.path(),
        vec![
            def(HookEvent::PreToolUse, &reply("allow", "ok")),
            def(HookEvent::PreToolUse, &reply("deny", "secret file")),
        ],
        &bash_call("cat .env"),
    )
    .await;
    assert_eq!(
        r.permission,
        Some((PermissionDecision::Deny, "secret file".into()))
    );
    for (legacy, want) in [
        ("approve", PermissionDecision::Allow),
        ("block", PermissionDecision::Deny),
    ] {
        let cmd = format!(r#"echo '{{"decision":"{legacy}","reason":"legacy"}}'"#);
        let r = run(
            dir.path(),
            vec![def(HookEvent::PreToolUse, &cmd)],
            &bash_call("ls"),
        )
        .await;
        assert_eq!(r.permission, Some((want, "legacy".into())), "{legacy}");
    }
}

#[tokio::test]
async fn updated_input_and_additional_context() {
    let dir = project();
    let r = run(
        dir.path(),
        vec![def(
            HookEvent::PreToolUse,
            r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"},"additionalContext":"listing is safe"}}'"#,
        )],
        &bash_call("ls"),
    )
    .await;
    assert_eq!(r.updated_input, Some(json!({"command": "ls -la"})));
    assert_eq!(r.additional_context, ["listing is safe"]);
}

#[tokio::test]
async fn plain_stdout_is_context_for_user_prompt_submit_only() {
    let dir = project();
    let prompt = HookPayload::UserPromptSubmit {
        prompt: "hi".into(),
    };
    let r = run(
        dir.path(),
        vec![def(
            HookEvent::UserPromptSubmit,
            "echo 'current branch: main'",
        )],
        &prompt,
    )
    .await;
    assert_eq!(r.additional_context, ["current branch: main"]);
    let post = HookPayload::PostToolUse {
        tool_name: "Bash".into(),
        tool_input: json!({}),
        tool_response: json!({}),
        tool_use_id: "t".into(),
    };
    let r = run(
        dir.path(),
        vec![def(HookEvent::PostToolUse, "echo formatted")],
        &post,
    )
    .await;
    assert!(r.additional_context.is_empty());
}

#[tokio::test]
async fn continue_false_stops_with_its_reason() {
    let dir = project();
    let r = run(
        dir.path(),
        vec![def(
            HookEvent::Stop,
            r#"echo '{"continue":false,"stopReason":"quota reached","systemMessage":"bye"}'"#,
        )],
        &HookPayload::Stop {
            stop_hook_active: false,
        },
    )
    .await;
    assert_eq!(r.stop, Some("quota reached".into()));
    assert_eq!(r.system_messages, ["bye"]);
}

#[tokio::test]
async fn permission_request_answers() {
    let dir = project();
    let ask = HookPayload::PermissionRequest {
        tool_name: "Bash".into(),
        tool_input: json!({"command": "git push"}),
        tool_use_id: None,
    };
    let r = run(
        dir.path(),
        vec![def(
            HookEvent::PermissionRequest,
            r#"echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"git push --dry-run"}}}}'"#,
        )],
        &ask,
    )
    .await;
    assert_eq!(
        r.permission,
        Some((PermissionDecision::Allow, String::new()))
    );
    assert_eq!(
        r.updated_input,
        Some(json!({"command": "git push --dry-run"}))
    );
    let r = run(
        dir.path(),
        vec![def(
            HookEvent::PermissionRequest,
            "echo 'pushing is for humans' >&2; exit 2",
        )],
        &ask,
    )
    .await;
    assert_eq!(
        r.permission,
        Some((PermissionDecision::Deny, "pushing is for humans".into()))
    );
    assert_eq!(r.denied(), Some("pushing is for humans".into()));
}

#[tokio::test]
async fn garbage_on_stdout_decides_nothing() {
    let dir = project();
    let r = run(
        dir.path(),
        vec![
            def(HookEvent::PreToolUse, "head -c 4096 /dev/urandom"),
            def(HookEvent::PreToolUse, r#"echo '{"permissionDecision": 7'"#),
            def(HookEvent::PreToolUse, r#"echo '{"continue": "maybe"}'"#),
        ],
        &bash_call("ls"),
    )
    .await;
    assert_eq!(r.denied(), None);
    assert_eq!(r.permission, None);
    assert_eq!(r.stop, None);
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(r.warnings[0].contains("not a valid hook reply"));
}
