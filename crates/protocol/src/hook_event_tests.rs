use super::*;

#[test]
fn names_round_trip_exactly() {
    for e in HookEvent::ALL {
        assert_eq!(e.as_str().parse::<HookEvent>(), Ok(e));
        assert_eq!(e.to_string(), e.as_str());
        assert_eq!(serde_json::to_value(e).ok(), Some(e.as_str().into()));
    }
}

#[test]
fn unknown_and_misspelt_names_list_the_valid_ones() {
    for bad in ["pretooluse", "PreToolUse ", "BeforeTool", ""] {
        let Err(err) = bad.parse::<HookEvent>() else {
            panic!("{bad:?} parsed");
        };
        let msg = err.to_string();
        assert!(msg.contains(&format!("\"{bad}\"")), "{msg}");
        assert!(msg.contains("PreToolUse, PostToolUse"), "{msg}");
        assert!(msg.contains("Notification"), "{msg}");
    }
}

#[test]
fn matcher_targets_follow_claude_code() {
    use MatcherTarget::*;
    let expect = [
        (HookEvent::PreToolUse, Some(ToolName)),
        (HookEvent::PostToolUse, Some(ToolName)),
        (HookEvent::PostToolUseFailure, Some(ToolName)),
        (HookEvent::PermissionRequest, Some(ToolName)),
        (HookEvent::UserPromptSubmit, None),
        (HookEvent::Stop, None),
        (HookEvent::SubagentStop, None),
        (HookEvent::SessionStart, Some(Source)),
        (HookEvent::SessionEnd, Some(Reason)),
        (HookEvent::PreCompact, Some(Trigger)),
        (HookEvent::Notification, Some(NotificationType)),
    ];
    assert_eq!(expect.len(), HookEvent::ALL.len());
    for (e, t) in expect {
        assert_eq!(e.matcher_target(), t, "{e}");
        assert_eq!(e.uses_matcher(), t.is_some(), "{e}");
    }
}

#[test]
fn only_session_and_notification_events_cannot_block() {
    let cannot: Vec<_> = HookEvent::ALL
        .into_iter()
        .filter(|e| !e.can_block())
        .collect();
    assert_eq!(
        cannot,
        [
            HookEvent::SessionStart,
            HookEvent::SessionEnd,
            HookEvent::Notification
        ]
    );
}
