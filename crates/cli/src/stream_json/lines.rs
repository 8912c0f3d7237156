//! The stream-json lines that more than the stream's own writer builds:
//! wright's `system` lines, the notice lines said before a session exists,
//! the stamp every line gets, and Claude Code's word for a server's status.
//! They import nothing of this crate, so `notices`, the SDK mode and
//! `wright mcp list` can say them without the rest of the stream.

use serde_json::{Value, json};
use wright_mcp::ServerStatus;

/// A `system` line of wright's own with a message.
pub fn system(sid: &str, subtype: &str, message: &str) -> Value {
    json!({"type": "system", "subtype": subtype, "session_id": sid, "message": message})
}

/// A start-up notice as a `system` line: `warning` for the ones that
/// start with `warning: ` (without that prefix), `notice` otherwise. In
/// stream-json mode nothing goes to stderr as plain text.
pub fn notice_line(sid: &str, notice: &str) -> Value {
    match notice.strip_prefix("warning: ") {
        Some(warning) => system(sid, "warning", warning),
        None => system(sid, "notice", notice),
    }
}

/// Gives `line` a fresh `uuid` and the session id, unless it has them.
pub fn stamp(line: &mut Value, sid: &str) {
    if let Some(obj) = line.as_object_mut() {
        if !obj.contains_key("uuid") {
            obj.insert(
                "uuid".to_owned(),
                Value::String(uuid::Uuid::now_v7().to_string()),
            );
        }
        if !obj.contains_key("session_id") || obj["session_id"].as_str() == Some("") {
            obj.insert("session_id".to_owned(), Value::String(sid.to_owned()));
        }
    }
}

/// The stream-json word for a status, as Claude Code spells them.
pub fn status_word(status: &ServerStatus) -> &'static str {
    match status {
        ServerStatus::Starting => "pending",
        ServerStatus::Connected { .. } => "connected",
        // Claude Code's word: the user's next step is `wright mcp login`.
        ServerStatus::Failed { reason } if reason.contains(wright_mcp::AUTH_REQUIRED) => {
            "needs-auth"
        }
        ServerStatus::Failed { .. } => "failed",
        ServerStatus::Disabled => "disabled",
    }
}
