//! The meaning of the control protocol's messages, apart from moving them:
//! the hooks an `initialize` registers, the `can_use_tool` question for an
//! approval and the decision its answer stands for, Claude Code's names of
//! the permission modes, and the `initialize` reply the SDK reads.

use serde_json::{Value, json};
use wright_hooks::hook::{HookDef, HookEvent};
use wright_protocol::ApprovalDecision;

/// The callback hooks of an `initialize` request (`hooks`: event →
/// matchers with `hookCallbackIds`), with a warning per entry skipped.
pub fn hooks_of(request: &Value) -> (Vec<HookDef>, Vec<String>) {
    let mut defs = Vec::new();
    let mut warnings = Vec::new();
    let Some(events) = request["hooks"].as_object() else {
        return (defs, warnings);
    };
    for (event, matchers) in events {
        let Ok(hook_event) = event.parse::<HookEvent>() else {
            warnings.push(format!(
                "hook event \"{event}\" is not one wright runs; its callbacks are skipped"
            ));
            continue;
        };
        for matcher in matchers.as_array().into_iter().flatten() {
            let pattern = matcher["matcher"].as_str().map(str::to_owned);
            let timeout = matcher["timeout"].as_u64();
            for id in matcher["hookCallbackIds"].as_array().into_iter().flatten() {
                match id.as_str() {
                    Some(id) => {
                        defs.push(HookDef::callback(hook_event, pattern.clone(), id, timeout))
                    }
                    None => {
                        warnings.push(format!("a {event} hook callback id is not a string: {id}"))
                    }
                }
            }
        }
    }
    (defs, warnings)
}

/// wright's name of a permission mode given in Claude Code's (or wright's)
/// spelling.
pub fn wright_mode(mode: &str) -> Option<&'static str> {
    Some(match mode {
        "default" => "default",
        "acceptEdits" | "accept-edits" => "accept-edits",
        "plan" => "plan",
        "auto" => "auto",
        "bypassPermissions" | "bypass" => "bypass",
        // Never ask: a program that asks to be left alone is not asked;
        // what no rule allows is refused as in any headless run.
        "dontAsk" | "dont-ask" => "default",
        _ => return None,
    })
}

/// The `can_use_tool` request for an approval the core asks for.
pub fn can_use_tool(
    tool: &str,
    arguments: &str,
    reason: &str,
    rules: &[String],
    call_id: Option<&str>,
) -> Value {
    let input: Value = serde_json::from_str(arguments).unwrap_or_else(|_| json!({}));
    // Every rule "always" saves (one per part of a command chain), as one
    // update: granting it grants them all.
    let rules: Vec<Value> = rules
        .iter()
        .filter_map(|r| rule_parts(r))
        .map(|(tool_name, content)| json!({"toolName": tool_name, "ruleContent": content}))
        .collect();
    let suggestions: Vec<Value> = if rules.is_empty() {
        Vec::new()
    } else {
        vec![json!({
            "type": "addRules",
            "rules": rules,
            "behavior": "allow",
            "destination": "session",
        })]
    };
    json!({
        "subtype": "can_use_tool",
        "tool_name": tool,
        "input": input,
        "permission_suggestions": suggestions,
        "decision_reason": reason,
        "tool_use_id": call_id,
    })
}

/// `Bash(npm test:*)` → (`Bash`, `npm test:*`); `Read` → (`Read`, null).
fn rule_parts(rule: &str) -> Option<(String, Value)> {
    match rule.split_once('(') {
        Some((tool, rest)) => Some((
            tool.to_owned(),
            Value::String(rest.strip_suffix(')').unwrap_or(rest).to_owned()),
        )),
        None if !rule.is_empty() => Some((rule.to_owned(), Value::Null)),
        None => None,
    }
}

/// The permission mode an allowing answer switches to (Claude Code's
/// `updatedPermissions: [{"type": "setMode", "mode": "acceptEdits"}]`, as
/// an SDK program sends when it approves a plan).
pub fn mode_change(answer: &Result<Value, String>) -> Option<&'static str> {
    let answer = answer.as_ref().ok()?;
    if answer["behavior"] != "allow" {
        return None;
    }
    answer["updatedPermissions"]
        .as_array()?
        .iter()
        .rev()
        .filter(|u| u["type"] == "setMode")
        .find_map(|u| u["mode"].as_str().and_then(wright_mode))
}

/// What the program's answer to `can_use_tool` decides for a call whose
/// input was `original`, and whether it also asked to stop the turn
/// (`interrupt`).
pub fn decision(answer: &Result<Value, String>, original: &Value) -> (ApprovalDecision, bool) {
    let answer = match answer {
        Ok(a) => a,
        Err(e) => {
            return (
                ApprovalDecision::Deny {
                    note: Some(format!("the program's permission callback failed: {e}")),
                },
                false,
            );
        }
    };
    let deny = |note: &str| ApprovalDecision::Deny {
        note: Some(note.to_owned()),
    };
    match answer["behavior"].as_str() {
        Some("allow") => {
            let decision = match &answer["updatedInput"] {
                // A changed input wins over any rule the answer adds: the
                // call that runs is the one the program approved, checked
                // again like the model's, and nothing more is granted.
                Value::Object(_) if answer["updatedInput"] != *original => {
                    ApprovalDecision::AllowWithInput {
                        input: answer["updatedInput"].to_string(),
                    }
                }
                Value::Object(_) | Value::Null => {
                    // Rules the program adds for the session stand for
                    // "allow always" of the rule wright suggested.
                    let grants_rule =
                        answer["updatedPermissions"]
                            .as_array()
                            .is_some_and(|updates| {
                                updates
                                    .iter()
                                    .any(|u| u["type"] == "addRules" && u["behavior"] == "allow")
                            });
                    if grants_rule {
                        ApprovalDecision::AllowSession
                    } else {
                        ApprovalDecision::AllowOnce
                    }
                }
                // The program approved an input other than one wright can run.
                _ => deny(
                    "the program's permission answer had an updatedInput that is not an object",
                ),
            };
            (decision, false)
        }
        Some("deny") => (
            ApprovalDecision::Deny {
                note: answer["message"]
                    .as_str()
                    .filter(|m| !m.is_empty())
                    .map(str::to_owned),
            },
            answer["interrupt"] == true,
        ),
        _ => (
            deny("the program's permission answer had no behavior allow|deny"),
            false,
        ),
    }
}

/// The `initialize` reply: the slash commands (each the SDK's
/// `SlashCommand`: `name`, `description`, `argumentHint`), output style,
/// models and the account the SDK's `get_server_info()` returns (where the
/// API key came from; wright has no login, so no token source).
pub fn initialize_reply(commands: Vec<Value>, model: &str, api_key_source: &str) -> Value {
    json!({
        "commands": commands,
        "output_style": "default",
        "available_output_styles": ["default"],
        "models": [{"value": model, "displayName": model, "description": "the configured model"}],
        "account": {"apiKeySource": api_key_source, "tokenSource": "none"},
        "pid": std::process::id(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initialize_hooks_become_callback_hooks() {
        let request = json!({"subtype": "initialize", "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hookCallbackIds": ["hook_0", "hook_1"], "timeout": 5}],
            "Stop": [{"matcher": null, "hookCallbackIds": ["hook_2"]}],
            "Nonsense": [{"hookCallbackIds": ["hook_3"]}],
        }});
        let (defs, warnings) = hooks_of(&request);
        assert_eq!(defs.len(), 3);
        assert_eq!(defs[0].callback.as_deref(), Some("hook_0"));
        assert_eq!(defs[0].matcher.as_deref(), Some("Bash"));
        assert_eq!(defs[0].timeout, Some(std::time::Duration::from_secs(5)));
        assert_eq!(defs[2].event, HookEvent::Stop);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("Nonsense"));
        assert!(
            hooks_of(&json!({"subtype": "initialize", "hooks": null}))
                .0
                .is_empty()
        );
    }

    #[test]
    fn modes_in_both_spellings() {
        assert_eq!(wright_mode("acceptEdits"), Some("accept-edits"));
        assert_eq!(wright_mode("bypassPermissions"), Some("bypass"));
        assert_eq!(wright_mode("dontAsk"), Some("default"));
        assert_eq!(wright_mode("plan"), Some("plan"));
        assert_eq!(wright_mode("yolo"), None);
    }

    #[test]
    fn the_question_carries_input_and_suggestion() {
        let q = can_use_tool(
            "Bash",
            r#"{"command":"npm test"}"#,
            "runs a command",
            &["Bash(npm test:*)".to_owned(), "Bash(head:*)".to_owned()],
            Some("toolu_1"),
        );
        assert_eq!(q["input"]["command"], "npm test");
        assert_eq!(
            q["permission_suggestions"][0]["rules"][0]["ruleContent"],
            "npm test:*"
        );
        assert_eq!(
            q["permission_suggestions"][0]["rules"][1]["ruleContent"],
            "head:*"
        );
        let none = can_use_tool("Bash", "{}", "r", &[], None);
        assert_eq!(none["permission_suggestions"], json!([]));
        assert_eq!(q["tool_use_id"], "toolu_1");
    }

    #[test]
    fn answers_map_to_decisions() {
        let original = json!({"command": "ls"});
        let d = |answer: Value| decision(&Ok(answer), &original);
        // Echoing the input back is a plain allow.
        let same = json!({"behavior": "allow", "updatedInput": {"command": "ls"}});
        assert_eq!(d(same).0, ApprovalDecision::AllowOnce);
        assert_eq!(
            d(json!({"behavior": "allow"})).0,
            ApprovalDecision::AllowOnce
        );
        let changed = json!({"behavior": "allow", "updatedInput": {"command": "echo safe"}});
        assert_eq!(
            d(changed).0,
            ApprovalDecision::AllowWithInput {
                input: r#"{"command":"echo safe"}"#.into()
            }
        );
        let always = json!({"behavior": "allow", "updatedInput": {"command": "ls"}, "updatedPermissions": [{"type": "addRules", "behavior": "allow", "rules": []}]});
        assert_eq!(d(always).0, ApprovalDecision::AllowSession);
        // A changed input is not dropped for a rule.
        let both = json!({"behavior": "allow", "updatedInput": {"command": "echo safe"}, "updatedPermissions": [{"type": "addRules", "behavior": "allow", "rules": []}]});
        assert!(matches!(d(both).0, ApprovalDecision::AllowWithInput { .. }));
        assert!(matches!(
            d(json!({"behavior": "allow", "updatedInput": "echo pwn"})).0,
            ApprovalDecision::Deny { .. }
        ));
        let deny = json!({"behavior": "deny", "message": "not now", "interrupt": true});
        assert_eq!(
            d(deny),
            (
                ApprovalDecision::Deny {
                    note: Some("not now".into())
                },
                true
            )
        );
        assert!(matches!(
            decision(&Err("gone".into()), &original).0,
            ApprovalDecision::Deny { .. }
        ));
        assert!(matches!(d(json!({})).0, ApprovalDecision::Deny { .. }));
    }

    #[test]
    fn an_allowing_answer_may_set_the_mode() {
        let plan = json!({"behavior": "allow", "updatedPermissions": [
            {"type": "setMode", "mode": "acceptEdits", "destination": "session"}]});
        assert_eq!(mode_change(&Ok(plan)), Some("accept-edits"));
        let denied = json!({"behavior": "deny", "updatedPermissions": [{"type": "setMode", "mode": "bypassPermissions"}]});
        assert_eq!(mode_change(&Ok(denied)), None);
        let unknown = json!({"behavior": "allow", "updatedPermissions": [{"type": "setMode", "mode": "yolo"}]});
        assert_eq!(mode_change(&Ok(unknown)), None);
        assert_eq!(mode_change(&Ok(json!({"behavior": "allow"}))), None);
        assert_eq!(mode_change(&Err("gone".into())), None);
    }
}
