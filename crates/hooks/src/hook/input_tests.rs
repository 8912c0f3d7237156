use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn common() -> HookCommon {
    HookCommon {
        session_id: "s-1".into(),
        transcript_path: "/home/u/.wright/sessions/s-1.jsonl".into(),
        cwd: "/work/p".into(),
        permission_mode: "default".into(),
    }
}

fn text(payload: &HookPayload) -> String {
    let bytes = input_bytes(&common(), payload).unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

const HEAD: &str = r#"{"session_id":"s-1","transcript_path":"/home/u/.wright/sessions/s-1.jsonl","cwd":"/work/p","permission_mode":"default","#;

#[test]
fn pre_tool_use() {
    let p = HookPayload::PreToolUse {
        tool_name: "Bash".into(),
        tool_input: json!({"command": "ls"}),
        tool_use_id: "toolu_1".into(),
    };
    assert_eq!(
        text(&p),
        format!(
            r#"{HEAD}"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"ls"}},"tool_use_id":"toolu_1"}}"#
        )
    );
    assert_eq!(p.matcher_target(), Some("Bash"));
}

#[test]
fn post_tool_use() {
    let p = HookPayload::PostToolUse {
        tool_name: "Write".into(),
        // One key per object: key order in objects depends on serde_json's
        // features, which other crates may switch on.
        tool_input: json!({"file_path": "/work/p/a.rs"}),
        tool_response: json!({"success": true}),
        tool_use_id: "toolu_2".into(),
    };
    assert_eq!(
        text(&p),
        format!(
            r#"{HEAD}"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{{"file_path":"/work/p/a.rs"}},"tool_response":{{"success":true}},"tool_use_id":"toolu_2"}}"#
        )
    );
}

#[test]
fn post_tool_use_failure_with_and_without_interrupt() {
    let mut p = HookPayload::PostToolUseFailure {
        tool_name: "Bash".into(),
        tool_input: json!({"command": "false"}),
        tool_use_id: "toolu_3".into(),
        error: "exit status 1".into(),
        is_interrupt: None,
    };
    assert_eq!(
        text(&p),
        format!(
            r#"{HEAD}"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{{"command":"false"}},"tool_use_id":"toolu_3","error":"exit status 1"}}"#
        )
    );
    if let HookPayload::PostToolUseFailure { is_interrupt, .. } = &mut p {
        *is_interrupt = Some(true);
    }
    assert!(text(&p).ends_with(r#""error":"exit status 1","is_interrupt":true}"#));
}

#[test]
fn permission_request() {
    let p = HookPayload::PermissionRequest {
        tool_name: "Edit".into(),
        tool_input: json!({"file_path": "/work/p/a"}),
        tool_use_id: Some("toolu_4".into()),
    };
    assert_eq!(
        text(&p),
        format!(
            r#"{HEAD}"hook_event_name":"PermissionRequest","tool_name":"Edit","tool_input":{{"file_path":"/work/p/a"}},"tool_use_id":"toolu_4"}}"#
        )
    );
    let p = HookPayload::PermissionRequest {
        tool_name: "Edit".into(),
        tool_input: json!({}),
        tool_use_id: None,
    };
    assert_eq!(
        text(&p),
        format!(
            r#"{HEAD}"hook_event_name":"PermissionRequest","tool_name":"Edit","tool_input":{{}}}}"#
        )
    );
}

#[test]
fn user_prompt_submit() {
    let p = HookPayload::UserPromptSubmit {
        prompt: "fix the \"bug\"\n".into(),
    };
    assert_eq!(
        text(&p),
        format!(r#"{HEAD}"hook_event_name":"UserPromptSubmit","prompt":"fix the \"bug\"\n"}}"#)
    );
    assert_eq!(p.matcher_target(), None);
}

#[test]
fn stop_and_subagent_stop() {
    assert_eq!(
        text(&HookPayload::Stop {
            stop_hook_active: false
        }),
        format!(r#"{HEAD}"hook_event_name":"Stop","stop_hook_active":false}}"#)
    );
    assert_eq!(
        text(&HookPayload::SubagentStop {
            stop_hook_active: true
        }),
        format!(r#"{HEAD}"hook_event_name":"SubagentStop","stop_hook_active":true}}"#)
    );
}

#[test]
fn session_start_and_end() {
    let p = HookPayload::SessionStart {
        source: SessionStartSource::Resume,
    };
    assert_eq!(
        text(&p),
        format!(r#"{HEAD}"hook_event_name":"SessionStart","source":"resume"}}"#)
    );
    assert_eq!(p.matcher_target(), Some("resume"));
    let p = HookPayload::SessionEnd {
        reason: "prompt_input_exit".into(),
    };
    assert_eq!(
        text(&p),
        format!(r#"{HEAD}"hook_event_name":"SessionEnd","reason":"prompt_input_exit"}}"#)
    );
    assert_eq!(p.matcher_target(), Some("prompt_input_exit"));
}

#[test]
fn pre_compact() {
    let p = HookPayload::PreCompact {
        trigger: CompactTrigger::Manual,
        custom_instructions: "keep the plan".into(),
    };
    assert_eq!(
        text(&p),
        format!(
            r#"{HEAD}"hook_event_name":"PreCompact","trigger":"manual","custom_instructions":"keep the plan"}}"#
        )
    );
    assert_eq!(p.matcher_target(), Some("manual"));
}

#[test]
fn notification() {
    let p = HookPayload::Notification {
        message: "wright needs your permission to use Bash".into(),
        notification_type: "permission_prompt".into(),
    };
    assert_eq!(
        text(&p),
        format!(
            r#"{HEAD}"hook_event_name":"Notification","message":"wright needs your permission to use Bash","notification_type":"permission_prompt"}}"#
        )
    );
    assert_eq!(p.matcher_target(), Some("permission_prompt"));
}

#[test]
fn input_json_matches_the_bytes() {
    let p = HookPayload::Stop {
        stop_hook_active: true,
    };
    let v = input_json(&common(), &p).ok();
    let from_bytes = serde_json::from_slice::<serde_json::Value>(
        &input_bytes(&common(), &p).unwrap_or_default(),
    )
    .ok();
    assert_eq!(v, from_bytes);
    assert_eq!(
        v,
        Some(json!({
            "session_id": "s-1",
            "transcript_path": "/home/u/.wright/sessions/s-1.jsonl",
            "cwd": "/work/p",
            "permission_mode": "default",
            "hook_event_name": "Stop",
            "stop_hook_active": true,
        }))
    );
}

#[test]
fn every_payload_names_its_event() {
    let payloads = [
        HookPayload::PreToolUse {
            tool_name: String::new(),
            tool_input: json!({}),
            tool_use_id: String::new(),
        },
        HookPayload::PostToolUse {
            tool_name: String::new(),
            tool_input: json!({}),
            tool_response: json!({}),
            tool_use_id: String::new(),
        },
        HookPayload::PostToolUseFailure {
            tool_name: String::new(),
            tool_input: json!({}),
            tool_use_id: String::new(),
            error: String::new(),
            is_interrupt: None,
        },
        HookPayload::PermissionRequest {
            tool_name: String::new(),
            tool_input: json!({}),
            tool_use_id: None,
        },
        HookPayload::UserPromptSubmit {
            prompt: String::new(),
        },
        HookPayload::Stop {
            stop_hook_active: false,
        },
        HookPayload::SubagentStop {
            stop_hook_active: false,
        },
        HookPayload::SessionStart {
            source: SessionStartSource::Startup,
        },
        HookPayload::SessionEnd {
            reason: String::new(),
        },
        HookPayload::PreCompact {
            trigger: CompactTrigger::Auto,
            custom_instructions: String::new(),
        },
        HookPayload::Notification {
            message: String::new(),
            notification_type: String::new(),
        },
    ];
    let events: Vec<_> = payloads.iter().map(HookPayload::event).collect();
    assert_eq!(events, HookEvent::ALL);
    for p in &payloads {
        assert_eq!(p.matcher_target().is_some(), p.event().uses_matcher());
        let v = input_json(&common(), p).ok();
        assert_eq!(
            v.as_ref().and_then(|v| v["hook_event_name"].as_str()),
            Some(p.event().as_str())
        );
    }
}
