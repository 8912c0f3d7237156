//! The stream-json lines against what the Claude Agent SDK's message
//! parser requires of each type (its `KeyError`s), and the rule that no
//! line uses a type the SDK treats as fatal.

use serde_json::Value;
use wright_protocol::{
    AgentPath, Event, EventKind, Item, ItemDelta, ItemKind, ToolCallStatus, TurnEndReason, Usage,
};

use super::{InitExtras, StreamJson};

fn event(kind: EventKind) -> Event {
    Event {
        session_id: "s1".to_owned(),
        turn_id: 1,
        seq: 0,
        agent: AgentPath::root(),
        parent_tool_use_id: None,
        kind,
    }
}

fn item(id: &str, kind: ItemKind) -> Item {
    Item {
        id: id.to_owned(),
        kind,
    }
}

fn call(status: ToolCallStatus, output: Option<&str>) -> ItemKind {
    ItemKind::ToolCall {
        call_id: "toolu_1".to_owned(),
        name: "Bash".to_owned(),
        tool_kind: None,
        touches: None,
        arguments: r#"{"command":"ls"}"#.to_owned(),
        status,
        output: output.map(str::to_owned),
        display: None,
    }
}

/// Every kind of line a turn can produce, partial messages on.
fn a_whole_turn() -> Vec<Value> {
    let mut mapper = StreamJson::new(true).with_init(InitExtras {
        slash_commands: vec!["compact".to_owned()],
        agents: vec!["general".to_owned()],
        api_key_source: String::new(),
    });
    let events = [
        EventKind::SessionConfigured {
            model: "m".to_owned(),
            provider: "anthropic".to_owned(),
            cwd: "/p".to_owned(),
            tools: vec!["Bash".to_owned()],
            permission_mode: "accept-edits".to_owned(),
            context_window: 0,
        },
        EventKind::TurnStarted,
        EventKind::ItemStarted {
            item: item(
                "r",
                ItemKind::Reasoning {
                    text: String::new(),
                    signature: None,
                },
            ),
        },
        EventKind::ItemDelta {
            item_id: "r".to_owned(),
            delta: ItemDelta::Reasoning("hm".to_owned()),
        },
        EventKind::ItemCompleted {
            item: item(
                "r",
                ItemKind::Reasoning {
                    text: "hm".to_owned(),
                    signature: Some("sig-1".to_owned()),
                },
            ),
        },
        EventKind::ItemStarted {
            item: item(
                "t",
                ItemKind::AgentMessage {
                    text: String::new(),
                    stop_reason: None,
                },
            ),
        },
        EventKind::ItemDelta {
            item_id: "t".to_owned(),
            delta: ItemDelta::Text("hi".to_owned()),
        },
        EventKind::ItemCompleted {
            item: item(
                "t",
                ItemKind::AgentMessage {
                    text: "hi".to_owned(),
                    stop_reason: None,
                },
            ),
        },
        EventKind::ItemStarted {
            item: item("c", call(ToolCallStatus::InProgress, None)),
        },
        EventKind::Usage {
            request: Usage::default(),
            total: Usage::default(),
            cost_usd: 0.0,
            total_cost_usd: 0.0,
            duration_ms: 1,
            model: "m".to_owned(),
        },
        EventKind::ItemDelta {
            item_id: "c".to_owned(),
            delta: ItemDelta::ToolOutput("out".to_owned()),
        },
        EventKind::ItemCompleted {
            item: item("c", call(ToolCallStatus::Completed, Some("out"))),
        },
        EventKind::Retrying {
            attempt: 1,
            delay_ms: 10,
            reason: "overloaded".to_owned(),
            superseded: Vec::new(),
        },
        EventKind::Warning {
            message: "w".to_owned(),
        },
        EventKind::Notice {
            message: "n".to_owned(),
        },
        EventKind::Error {
            message: "e".to_owned(),
        },
        EventKind::ApprovalRequested {
            id: "a1".to_owned(),
            tool: "Bash".to_owned(),
            arguments: "{}".to_owned(),
            touches: None,
            reason: "r".to_owned(),
            suggested_rule: None,
            suggested_rules: Vec::new(),
            still_asks: None,
            call_id: Some("toolu_1".to_owned()),
        },
        EventKind::ItemCompleted {
            item: item(
                "x",
                ItemKind::Error {
                    message: "boom".to_owned(),
                },
            ),
        },
        EventKind::TurnCompleted {
            reason: TurnEndReason::Completed,
            model_requests: 1,
            structured_output: None,
            structured_output_failed: false,
            plan: None,
        },
    ];
    events
        .into_iter()
        .flat_map(|k| mapper.lines(&event(k)))
        .collect()
}

#[test]
fn every_line_has_a_uuid_a_session_and_a_type_the_sdk_can_take() {
    let lines = a_whole_turn();
    assert!(lines.len() > 10, "{lines:#?}");
    for line in &lines {
        assert!(
            line["uuid"].as_str().is_some_and(|u| u.len() == 36),
            "{line}"
        );
        assert_eq!(line["session_id"], "s1", "{line}");
        let kind = line["type"].as_str().unwrap_or("");
        // `error` (and anything unknown to the SDK's parser that it treats
        // specially) must never be a top-level type.
        assert!(
            [
                "system",
                "assistant",
                "user",
                "stream_event",
                "tool_progress"
            ]
            .contains(&kind),
            "{line}"
        );
        if kind == "system" {
            assert!(line["subtype"].is_string(), "{line}");
        }
    }
    let uuids: std::collections::HashSet<_> = lines.iter().map(|l| l["uuid"].to_string()).collect();
    assert_eq!(uuids.len(), lines.len(), "uuids repeat");
}

#[test]
fn lines_carry_the_keys_the_sdk_parser_requires() {
    let lines = a_whole_turn();
    let init = &lines[0];
    for key in [
        "cwd",
        "tools",
        "mcp_servers",
        "model",
        "permissionMode",
        "slash_commands",
        "agents",
        "apiKeySource",
        "output_style",
        "claude_code_version",
    ] {
        assert!(!init[key].is_null(), "init lacks {key}: {init}");
    }
    assert_eq!(init["permissionMode"], "acceptEdits");
    let assistant: Vec<&Value> = lines.iter().filter(|l| l["type"] == "assistant").collect();
    assert!(!assistant.is_empty());
    for a in &assistant {
        assert!(
            a["message"]["model"].is_string() && a["message"]["content"].is_array(),
            "{a}"
        );
        assert!(
            a.as_object()
                .is_some_and(|o| o.contains_key("parent_tool_use_id")),
            "{a}"
        );
        for block in a["message"]["content"].as_array().into_iter().flatten() {
            match block["type"].as_str() {
                Some("thinking") => assert!(
                    block["thinking"].is_string() && block["signature"].is_string(),
                    "{block}"
                ),
                Some("text") => assert!(block["text"].is_string()),
                Some("tool_use") => assert!(
                    block["id"].is_string()
                        && block["name"].is_string()
                        && block["input"].is_object()
                ),
                other => panic!("unexpected block {other:?}"),
            }
        }
    }
    let user = lines
        .iter()
        .find(|l| l["type"] == "user")
        .expect("a user line");
    assert_eq!(user["message"]["content"][0]["tool_use_id"], "toolu_1");
    for event in lines.iter().filter(|l| l["type"] == "stream_event") {
        assert!(event["event"]["type"].is_string(), "{event}");
        assert!(
            event
                .as_object()
                .is_some_and(|o| o.contains_key("parent_tool_use_id"))
        );
    }
    let events: Vec<&Value> = lines
        .iter()
        .filter(|l| l["type"] == "stream_event")
        .map(|l| &l["event"])
        .collect();
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(kinds.first(), Some(&"message_start"), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"message_stop"), "{kinds:?}");
    assert_eq!(
        kinds
            .iter()
            .filter(|k| **k == "content_block_start")
            .count(),
        3,
        "{kinds:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| e["delta"]["type"] == "input_json_delta"),
        "{kinds:?}"
    );
    assert_eq!(events[0]["message"]["id"], assistant[0]["message"]["id"]);
    // The thinking block's signature: its last delta, then its stop, as
    // Claude Code streams it, and whole in the assistant message.
    let signed = kinds
        .iter()
        .zip(&events)
        .position(|(_, e)| e["delta"]["type"] == "signature_delta")
        .expect("a signature_delta");
    assert_eq!(events[signed]["delta"]["signature"], "sig-1");
    assert_eq!(events[signed]["index"], 0);
    assert_eq!(kinds[signed + 1], "content_block_stop");
    assert_eq!(events[signed + 1]["index"], 0);
    assert_eq!(assistant[0]["message"]["content"][0]["signature"], "sig-1");
    let delta = events
        .iter()
        .find(|e| e["type"] == "message_delta")
        .expect("message_delta");
    assert_eq!(delta["delta"]["stop_reason"], "tool_use");
    let subtypes: Vec<&str> = lines.iter().filter_map(|l| l["subtype"].as_str()).collect();
    for wanted in [
        "init",
        "api_retry",
        "warning",
        "notice",
        "error",
        "approval_requested",
    ] {
        assert!(subtypes.contains(&wanted), "no {wanted} in {subtypes:?}");
    }
}

#[test]
fn the_result_carries_what_the_sdk_reads() {
    let mut summary = crate::summary::RunSummary::new();
    summary.observe(&event(EventKind::Usage {
        request: Usage {
            input_tokens: 10,
            output_tokens: 2,
            ..Usage::default()
        },
        total: Usage {
            input_tokens: 10,
            output_tokens: 2,
            ..Usage::default()
        },
        cost_usd: 0.5,
        total_cost_usd: 0.5,
        duration_ms: 3,
        model: "claude-sonnet-4-5".to_owned(),
    }));
    let result = summary.result(TurnEndReason::Completed);
    for key in [
        "subtype",
        "duration_ms",
        "duration_api_ms",
        "is_error",
        "num_turns",
        "session_id",
        "uuid",
        "stop_reason",
        "total_cost_usd",
        "usage",
        "modelUsage",
        "permission_denials",
    ] {
        assert!(
            result.as_object().is_some_and(|o| o.contains_key(key)),
            "result lacks {key}: {result}"
        );
    }
    let model = &result["modelUsage"]["claude-sonnet-4-5"];
    assert_eq!(model["inputTokens"], 10);
    assert_eq!(model["costUSD"], 0.5);
    assert!(model["contextWindow"].as_u64().is_some_and(|w| w > 0));
    let failed = summary.result(TurnEndReason::Interrupted);
    assert_eq!(failed["subtype"], "error_during_execution");
    assert!(failed["errors"].is_array());
}
