//! What a hook may print on stdout when it exits 0: Claude Code's JSON reply
//! ([`HookJson`]) or plain text. Reading is lenient where Claude Code is
//! (unknown fields are ignored, non-JSON is text) and strict on the fields
//! it knows, since a misspelt decision must not silently read as "allow".

use serde::Deserialize;
use serde_json::Value;

/// A hook's say on whether a tool call may run. Ordered from least to most
/// strict, so the strictest of several hooks is the maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PermissionDecision {
    /// Run it without asking.
    Allow,
    /// Ask the user.
    Ask,
    /// Do not run it.
    Deny,
}

impl PermissionDecision {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            PermissionDecision::Allow => "allow",
            PermissionDecision::Ask => "ask",
            PermissionDecision::Deny => "deny",
        }
    }
}

/// The legacy top-level `decision` field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JsonDecision {
    /// Block the action (for PreToolUse: deny the call).
    Block,
    /// For PreToolUse: allow the call (the old spelling of `allow`).
    Approve,
}

/// A PermissionRequest hook's answer, `hookSpecificOutput.decision.behavior`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PermissionBehavior {
    /// Approve without asking the user.
    Allow,
    /// Refuse without asking the user.
    Deny,
}

/// `hookSpecificOutput.decision` of a PermissionRequest hook.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PermissionRequestDecision {
    /// Allow or deny.
    pub behavior: PermissionBehavior,
    /// With `allow`: the tool input to use instead of the model's.
    #[serde(default)]
    pub updated_input: Option<Value>,
    /// With `deny`: why, for the model.
    #[serde(default)]
    pub message: Option<String>,
    /// With `deny`: also stop the agent.
    #[serde(default)]
    pub interrupt: Option<bool>,
}

/// The event-specific part of a hook's JSON reply.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HookSpecificOutput {
    /// The event the reply is meant for; a reply for another event is
    /// ignored (with a warning) rather than misread.
    #[serde(default)]
    pub hook_event_name: Option<String>,
    /// PreToolUse: allow, deny or ask.
    #[serde(default)]
    pub permission_decision: Option<PermissionDecision>,
    /// PreToolUse: why (shown to the model on deny, to the user on ask).
    #[serde(default)]
    pub permission_decision_reason: Option<String>,
    /// PreToolUse: the tool input to use instead of the model's.
    #[serde(default)]
    pub updated_input: Option<Value>,
    /// Text added to the model's context.
    #[serde(default)]
    pub additional_context: Option<String>,
    /// PermissionRequest: the answer to the permission prompt.
    #[serde(default)]
    pub decision: Option<PermissionRequestDecision>,
}

/// A hook's JSON reply on stdout (all fields optional).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HookJson {
    /// `false` stops the agent after the hooks ran.
    #[serde(default, rename = "continue")]
    pub continue_: Option<bool>,
    /// Shown to the user when `continue` is `false`.
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// Keep the hook's stdout out of the transcript.
    #[serde(default)]
    pub suppress_output: Option<bool>,
    /// A message shown to the user.
    #[serde(default)]
    pub system_message: Option<String>,
    /// The legacy/top-level decision.
    #[serde(default)]
    pub decision: Option<JsonDecision>,
    /// Why, for `decision`.
    #[serde(default)]
    pub reason: Option<String>,
    /// The event-specific reply.
    #[serde(default)]
    pub hook_specific_output: Option<HookSpecificOutput>,
}

/// How a successful hook's stdout reads.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Stdout {
    /// Nothing but whitespace.
    Empty,
    /// A JSON object in the reply format.
    Json(Box<HookJson>),
    /// A JSON object whose known fields have the wrong shape; the text says
    /// what is wrong.
    BadJson(String),
    /// Anything else.
    Text(String),
}

/// Reads a successful hook's stdout.
pub(crate) fn parse_stdout(stdout: &str) -> Stdout {
    let trimmed = stdout.trim();
    if trimmed.is_empty() {
        return Stdout::Empty;
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(v @ Value::Object(_)) => match serde_json::from_value::<HookJson>(v) {
            Ok(j) => Stdout::Json(Box::new(j)),
            Err(e) => Stdout::BadJson(e.to_string()),
        },
        // Text that happens to be a JSON scalar or array is still text.
        _ => Stdout::Text(trimmed.to_owned()),
    }
}

#[cfg(test)]
#[path = "output_tests.rs"]
mod tests;
