use std::time::Duration;

use pretty_assertions::assert_eq;

use super::*;

const SRC: &str = "project Claude settings (.claude/settings.json)";

#[test]
fn reads_claude_code_settings() {
    let text = r#"{
        "permissions": {"allow": ["Bash(ls:*)"]},
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "~/check.sh", "timeout": 30},
                    {"type": "command", "command": "echo second"}
                ]},
                {"hooks": [{"type": "command", "command": "log-all"}]}
            ],
            "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "notify"}]}]
        }
    }"#;
    let Ok((defs, warnings)) = hooks_from_claude_settings(text, SRC) else {
        panic!("did not parse");
    };
    assert!(warnings.is_empty(), "{warnings:?}");
    let got: Vec<_> = defs
        .iter()
        .map(|d| {
            (
                d.event,
                d.matcher.as_deref(),
                d.command.as_str(),
                d.timeout,
                d.source.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                HookEvent::PreToolUse,
                Some("Bash"),
                "~/check.sh",
                Some(Duration::from_secs(30)),
                SRC
            ),
            (
                HookEvent::PreToolUse,
                Some("Bash"),
                "echo second",
                None,
                SRC
            ),
            (HookEvent::PreToolUse, None, "log-all", None, SRC),
            (HookEvent::Stop, Some(""), "notify", None, SRC),
        ]
    );
}

#[test]
fn unknown_events_and_other_hook_types_are_warnings() {
    let text = r#"{"hooks": {
        "BeforeEverything": [{"hooks": [{"type": "command", "command": "x"}]}],
        "PostToolUse": [{"matcher": "Edit", "hooks": [
            {"type": "prompt", "prompt": "judge this"},
            {"type": "command"},
            {"type": "command", "command": "fmt", "timeout": "soon"},
            {"type": "command", "command": "lint", "timeout": 1.5}
        ]}],
        "Stop": {"hooks": []},
        "SubagentStop": [{"matcher": 3, "hooks": []}, {"matcher": "x"}]
    }}"#;
    let Ok((defs, warnings)) = hooks_from_claude_settings(text, SRC) else {
        panic!("did not parse");
    };
    let commands: Vec<_> = defs
        .iter()
        .map(|d| (d.command.as_str(), d.timeout))
        .collect();
    assert_eq!(
        commands,
        [("fmt", None), ("lint", Some(Duration::from_secs(2)))]
    );
    assert_eq!(warnings.len(), 7, "{warnings:#?}");
    assert!(warnings.iter().all(|w| w.starts_with(SRC)), "{warnings:#?}");
    let all = warnings.join("\n");
    for needle in [
        "\"BeforeEverything\"",
        "\"prompt\" is not supported",
        "\"command\" is missing",
        "timeout \"soon\"",
        "hooks.Stop must be an array",
        "hooks.SubagentStop[0].matcher",
        "hooks.SubagentStop[1].hooks",
    ] {
        assert!(all.contains(needle), "{needle} not in {all}");
    }
}

#[test]
fn no_hooks_is_no_hooks() {
    assert_eq!(
        hooks_from_claude_settings("{}", SRC),
        Ok((Vec::new(), Vec::new()))
    );
    assert_eq!(
        hooks_from_claude_settings(r#"{"hooks": null, "model": "opus"}"#, SRC),
        Ok((Vec::new(), Vec::new()))
    );
}

#[test]
fn malformed_json_is_an_error_naming_the_source() {
    let Err(e) = hooks_from_claude_settings("{\"hooks\": [", SRC) else {
        panic!("parsed");
    };
    assert!(matches!(e, HookConfigError::Json { .. }));
    assert!(e.to_string().starts_with(SRC), "{e}");
    for bad in ["[]", r#"{"hooks": []}"#, r#"{"hooks": "x"}"#] {
        let Err(e) = hooks_from_claude_settings(bad, SRC) else {
            panic!("{bad} parsed");
        };
        assert!(matches!(e, HookConfigError::Shape { .. }), "{bad}");
        assert!(e.to_string().starts_with(SRC), "{e}");
    }
}
