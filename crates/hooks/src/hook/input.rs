//! The JSON object a hook reads on stdin: the fields every event shares
//! ([`HookCommon`]) plus `hook_event_name` and the event's own fields
//! ([`HookPayload`]), flattened into one object with Claude Code's field
//! names so hooks written for Claude Code read it unchanged.

use std::path::{Path, PathBuf};

use serde::{Serialize, Serializer};
use serde_json::Value;

use super::HookEvent;

/// The fields every hook input carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HookCommon {
    /// The session's id.
    pub session_id: String,
    /// The session's transcript file.
    #[serde(serialize_with = "path_lossy")]
    pub transcript_path: PathBuf,
    /// The agent's working directory when the event fired.
    #[serde(serialize_with = "path_lossy")]
    pub cwd: PathBuf,
    /// The permission mode, in Claude Code's spelling (`default`, `plan`,
    /// `acceptEdits`, `bypassPermissions`, ...).
    pub permission_mode: String,
}

/// Why a session started, SessionStart's `source` (and its matcher target).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SessionStartSource {
    /// A new session.
    Startup,
    /// A resumed session.
    Resume,
    /// After the conversation was cleared.
    Clear,
    /// After the context was compacted.
    Compact,
}

impl SessionStartSource {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionStartSource::Startup => "startup",
            SessionStartSource::Resume => "resume",
            SessionStartSource::Clear => "clear",
            SessionStartSource::Compact => "compact",
        }
    }
}

/// What started a compaction, PreCompact's `trigger` (and matcher target).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CompactTrigger {
    /// The user asked for it.
    Manual,
    /// The context was full.
    Auto,
}

impl CompactTrigger {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            CompactTrigger::Manual => "manual",
            CompactTrigger::Auto => "auto",
        }
    }
}

/// The event and its own input fields. Each variant serializes to its
/// fields only; `hook_event_name` comes from [`HookPayload::event`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum HookPayload {
    /// Before a tool call.
    PreToolUse {
        /// The tool's name.
        tool_name: String,
        /// The tool's arguments as the model sent them.
        tool_input: Value,
        /// The tool call's id.
        tool_use_id: String,
    },
    /// After a successful tool call.
    PostToolUse {
        /// The tool's name.
        tool_name: String,
        /// The tool's arguments.
        tool_input: Value,
        /// What the tool returned.
        tool_response: Value,
        /// The tool call's id.
        tool_use_id: String,
    },
    /// After a failed tool call.
    PostToolUseFailure {
        /// The tool's name.
        tool_name: String,
        /// The tool's arguments.
        tool_input: Value,
        /// The tool call's id.
        tool_use_id: String,
        /// What went wrong.
        error: String,
        /// Whether the user interrupted the call; left out when unknown.
        #[serde(skip_serializing_if = "Option::is_none")]
        is_interrupt: Option<bool>,
    },
    /// Before the user is asked to approve a tool call.
    PermissionRequest {
        /// The tool's name.
        tool_name: String,
        /// The tool's arguments.
        tool_input: Value,
        /// The tool call's id, when there is one.
        #[serde(skip_serializing_if = "Option::is_none")]
        tool_use_id: Option<String>,
    },
    /// A prompt the user submitted.
    UserPromptSubmit {
        /// The prompt text.
        prompt: String,
    },
    /// The main agent is about to stop.
    Stop {
        /// True when the agent is already continuing because of a Stop hook,
        /// so hooks can avoid keeping it going forever.
        stop_hook_active: bool,
    },
    /// A subagent is about to stop.
    SubagentStop {
        /// As for [`HookPayload::Stop`].
        stop_hook_active: bool,
    },
    /// A session started.
    SessionStart {
        /// Why it started.
        source: SessionStartSource,
    },
    /// A session ended.
    SessionEnd {
        /// Why it ended (`clear`, `logout`, `prompt_input_exit`, `other`, ...).
        reason: String,
    },
    /// Before compaction.
    PreCompact {
        /// Who asked for it.
        trigger: CompactTrigger,
        /// The user's `/compact` instructions; empty for automatic ones.
        custom_instructions: String,
    },
    /// A notification for the user.
    Notification {
        /// The notification text.
        message: String,
        /// Its kind (`permission_prompt`, `idle_prompt`, ...).
        notification_type: String,
    },
}

impl HookPayload {
    /// The event this payload belongs to.
    pub fn event(&self) -> HookEvent {
        match self {
            HookPayload::PreToolUse { .. } => HookEvent::PreToolUse,
            HookPayload::PostToolUse { .. } => HookEvent::PostToolUse,
            HookPayload::PostToolUseFailure { .. } => HookEvent::PostToolUseFailure,
            HookPayload::PermissionRequest { .. } => HookEvent::PermissionRequest,
            HookPayload::UserPromptSubmit { .. } => HookEvent::UserPromptSubmit,
            HookPayload::Stop { .. } => HookEvent::Stop,
            HookPayload::SubagentStop { .. } => HookEvent::SubagentStop,
            HookPayload::SessionStart { .. } => HookEvent::SessionStart,
            HookPayload::SessionEnd { .. } => HookEvent::SessionEnd,
            HookPayload::PreCompact { .. } => HookEvent::PreCompact,
            HookPayload::Notification { .. } => HookEvent::Notification,
        }
    }

    /// The value hook matchers are compared against (see
    /// [`HookEvent::matcher_target`]); `None` for events without matchers.
    pub fn matcher_target(&self) -> Option<&str> {
        match self {
            HookPayload::PreToolUse { tool_name, .. }
            | HookPayload::PostToolUse { tool_name, .. }
            | HookPayload::PostToolUseFailure { tool_name, .. }
            | HookPayload::PermissionRequest { tool_name, .. } => Some(tool_name),
            HookPayload::SessionStart { source } => Some(source.as_str()),
            HookPayload::PreCompact { trigger, .. } => Some(trigger.as_str()),
            HookPayload::Notification {
                notification_type, ..
            } => Some(notification_type),
            HookPayload::SessionEnd { reason } => Some(reason),
            HookPayload::UserPromptSubmit { .. }
            | HookPayload::Stop { .. }
            | HookPayload::SubagentStop { .. } => None,
        }
    }
}

/// The whole stdin object, in Claude Code's field order: common fields,
/// `hook_event_name`, then the event's own fields.
#[derive(Serialize)]
struct Wire<'a> {
    #[serde(flatten)]
    common: &'a HookCommon,
    hook_event_name: &'static str,
    #[serde(flatten)]
    payload: &'a HookPayload,
}

/// The JSON text written to a hook's stdin.
pub(crate) fn input_bytes(
    common: &HookCommon,
    payload: &HookPayload,
) -> Result<Vec<u8>, serde_json::Error> {
    serde_json::to_vec(&Wire {
        common,
        hook_event_name: payload.event().as_str(),
        payload,
    })
}

/// The stdin object as a JSON value (for logs, tests and other consumers).
pub fn input_json(common: &HookCommon, payload: &HookPayload) -> Result<Value, serde_json::Error> {
    serde_json::to_value(Wire {
        common,
        hook_event_name: payload.event().as_str(),
        payload,
    })
}

fn path_lossy<S: Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
    // A non-UTF-8 path must not make the hook input unwritable; hooks get
    // the closest text instead.
    s.serialize_str(&path.to_string_lossy())
}

#[cfg(test)]
#[path = "input_tests.rs"]
mod tests;
