//! Sessions recorded before the built-in tools took Claude Code's names
//! (`bash` → `Bash`, `read` → `Read`, …, `path` → `file_path`): their tool
//! calls are upgraded as they load, so a resumed conversation shows the
//! model the same names and arguments as the tools it is offered now.
//! The file itself is never rewritten.

use wright_protocol::{ContentBlock, Message};

/// The old name of each built-in tool and its name now.
const RENAMED: [(&str, &str); 7] = [
    ("bash", "Bash"),
    ("read", "Read"),
    ("write", "Write"),
    ("edit", "Edit"),
    ("glob", "Glob"),
    ("grep", "Grep"),
    ("ls", "LS"),
];

/// Upgrades the legacy tool calls of `message` in place.
pub(crate) fn upgrade_tool_calls(message: &mut Message) {
    for block in &mut message.content {
        if let ContentBlock::ToolCall {
            name, arguments, ..
        } = block
            && let Some((_, new)) = RENAMED.iter().find(|(old, _)| old == name)
        {
            *arguments = upgrade_arguments(new, arguments);
            *name = (*new).to_owned();
        }
    }
}

/// The arguments under their new keys; text that is not a JSON object
/// (a malformed call kept as it was sent) stays as it is.
fn upgrade_arguments(tool: &str, arguments: &str) -> String {
    let Ok(serde_json::Value::Object(mut map)) = serde_json::from_str(arguments) else {
        return arguments.to_owned();
    };
    let mut rename = |old: &str, new: &str| {
        if !map.contains_key(new)
            && let Some(v) = map.remove(old)
        {
            map.insert(new.to_owned(), v);
        }
    };
    match tool {
        "Read" | "Write" | "Edit" => rename("path", "file_path"),
        "Grep" => {
            rename("case_insensitive", "-i");
            rename("context", "-C");
        }
        "Bash" => {
            if let Some(secs) = map.remove("timeout_secs") {
                let ms = secs
                    .as_u64()
                    .map_or(secs, |s| s.saturating_mul(1000).into());
                map.entry("timeout").or_insert(ms);
            }
        }
        _ => {}
    }
    serde_json::Value::Object(map).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wright_protocol::Role;

    fn call(name: &str, args: &str) -> ContentBlock {
        ContentBlock::ToolCall {
            id: "c1".into(),
            name: name.into(),
            arguments: args.into(),
        }
    }

    fn upgraded(name: &str, args: &str) -> (String, serde_json::Value) {
        let mut m = Message {
            role: Role::Assistant,
            content: vec![call(name, args)],
        };
        upgrade_tool_calls(&mut m);
        match &m.content[0] {
            ContentBlock::ToolCall {
                name, arguments, ..
            } => (
                name.clone(),
                serde_json::from_str(arguments).unwrap_or(serde_json::Value::Null),
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn old_names_and_keys_become_claude_codes() {
        assert_eq!(
            upgraded("read", r#"{"path":"a.rs","limit":3}"#),
            (
                "Read".into(),
                serde_json::json!({"file_path":"a.rs","limit":3})
            )
        );
        assert_eq!(
            upgraded("bash", r#"{"command":"ls","timeout_secs":5}"#),
            (
                "Bash".into(),
                serde_json::json!({"command":"ls","timeout":5000})
            )
        );
        assert_eq!(
            upgraded(
                "grep",
                r#"{"pattern":"x","case_insensitive":true,"context":2}"#
            ),
            (
                "Grep".into(),
                serde_json::json!({"pattern":"x","-i":true,"-C":2})
            )
        );
        assert_eq!(
            upgraded("ls", r#"{"path":"src"}"#),
            ("LS".into(), serde_json::json!({"path":"src"}))
        );
    }

    #[test]
    fn new_names_unknown_tools_and_broken_arguments_stay() {
        assert_eq!(
            upgraded("Read", r#"{"path":"a"}"#),
            ("Read".into(), serde_json::json!({"path":"a"}))
        );
        assert_eq!(
            upgraded("mcp__x__read", r#"{"path":"a"}"#).0,
            "mcp__x__read"
        );
        let mut m = Message {
            role: Role::Assistant,
            content: vec![call("edit", "{not json")],
        };
        upgrade_tool_calls(&mut m);
        assert_eq!(m.content[0], call("Edit", "{not json"));
    }
}
