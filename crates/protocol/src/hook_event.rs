//! The hook events of Claude Code's contract: their exact names, which of
//! them take a matcher (and what it is matched against), and which of them
//! can be blocked. Defined here, below both, because the config names them
//! (`[[hooks.<Event>]]`) and the hooks crate runs them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A point in the session where user hooks run. Variant names are spelled
/// exactly as in Claude Code's settings and in `hook_event_name`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum HookEvent {
    /// Before a tool call runs; can allow, deny, ask or rewrite it.
    PreToolUse,
    /// After a tool call succeeded.
    PostToolUse,
    /// After a tool call failed.
    PostToolUseFailure,
    /// When the user would be asked to approve a tool call.
    PermissionRequest,
    /// When the user submits a prompt, before the model sees it.
    UserPromptSubmit,
    /// When the main agent is about to finish its turn.
    Stop,
    /// When a subagent is about to finish.
    SubagentStop,
    /// When a session starts, resumes, is cleared or compacted.
    SessionStart,
    /// When a session ends.
    SessionEnd,
    /// Before the context is compacted.
    PreCompact,
    /// When wright shows the user a notification.
    Notification,
}

/// What a hook's matcher is compared against for a given event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatcherTarget {
    /// The tool's name (`Bash`, `Edit`, `mcp__server__tool`).
    ToolName,
    /// SessionStart's `source`: startup, resume, clear or compact.
    Source,
    /// PreCompact's `trigger`: manual or auto.
    Trigger,
    /// Notification's `notification_type`.
    NotificationType,
    /// SessionEnd's `reason`.
    Reason,
}

impl HookEvent {
    /// Every event, in the order Claude Code's reference lists the common ones.
    pub const ALL: [HookEvent; 11] = [
        HookEvent::PreToolUse,
        HookEvent::PostToolUse,
        HookEvent::PostToolUseFailure,
        HookEvent::PermissionRequest,
        HookEvent::UserPromptSubmit,
        HookEvent::Stop,
        HookEvent::SubagentStop,
        HookEvent::SessionStart,
        HookEvent::SessionEnd,
        HookEvent::PreCompact,
        HookEvent::Notification,
    ];

    /// The event's name as Claude Code spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PostToolUse => "PostToolUse",
            HookEvent::PostToolUseFailure => "PostToolUseFailure",
            HookEvent::PermissionRequest => "PermissionRequest",
            HookEvent::UserPromptSubmit => "UserPromptSubmit",
            HookEvent::Stop => "Stop",
            HookEvent::SubagentStop => "SubagentStop",
            HookEvent::SessionStart => "SessionStart",
            HookEvent::SessionEnd => "SessionEnd",
            HookEvent::PreCompact => "PreCompact",
            HookEvent::Notification => "Notification",
        }
    }

    /// What the matcher is compared against, or `None` when the event
    /// ignores matchers (every hook of the event runs).
    pub fn matcher_target(self) -> Option<MatcherTarget> {
        match self {
            HookEvent::PreToolUse
            | HookEvent::PostToolUse
            | HookEvent::PostToolUseFailure
            | HookEvent::PermissionRequest => Some(MatcherTarget::ToolName),
            HookEvent::SessionStart => Some(MatcherTarget::Source),
            HookEvent::PreCompact => Some(MatcherTarget::Trigger),
            HookEvent::Notification => Some(MatcherTarget::NotificationType),
            HookEvent::SessionEnd => Some(MatcherTarget::Reason),
            HookEvent::UserPromptSubmit | HookEvent::Stop | HookEvent::SubagentStop => None,
        }
    }

    /// Whether a matcher narrows which hooks of this event run.
    pub fn uses_matcher(self) -> bool {
        self.matcher_target().is_some()
    }

    /// Whether exit code 2 or `decision: "block"` has an effect on this
    /// event. For the others (session start and end, notifications) the
    /// action already happened or cannot be vetoed, so Claude Code only shows
    /// the hook's stderr to the user.
    pub fn can_block(self) -> bool {
        !matches!(
            self,
            HookEvent::SessionStart | HookEvent::SessionEnd | HookEvent::Notification
        )
    }

    /// Whether plain (non-JSON) stdout of a successful hook is added to the
    /// model's context; for every other event it is only logged.
    pub fn stdout_is_context(self) -> bool {
        matches!(self, HookEvent::UserPromptSubmit | HookEvent::SessionStart)
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A hook event name that is not one of [`HookEvent::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownHookEvent {
    /// The name as it was written.
    pub name: String,
}

impl fmt::Display for UnknownHookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown hook event \"{}\" (valid events: {})",
            self.name.escape_debug(),
            valid_names()
        )
    }
}

impl std::error::Error for UnknownHookEvent {}

fn valid_names() -> String {
    HookEvent::ALL
        .iter()
        .map(|e| e.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for HookEvent {
    type Err = UnknownHookEvent;

    /// Parses the exact, case-sensitive Claude Code spelling, because a
    /// settings file that Claude Code would ignore must not work here either.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        HookEvent::ALL
            .into_iter()
            .find(|e| e.as_str() == s)
            .ok_or_else(|| UnknownHookEvent { name: s.to_owned() })
    }
}

#[cfg(test)]
#[path = "hook_event_tests.rs"]
mod tests;
