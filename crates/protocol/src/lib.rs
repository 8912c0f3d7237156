//! Shared types of wright: the canonical message model, tool specs, usage,
//! and the `Op`/`Event` contract between the agent core and its front ends.
//!
//! This crate does no I/O. Every other crate depends on it, so its shapes
//! change only with care.

mod block_de;
pub mod event;
pub mod hook_event;
pub mod message;
pub mod sandbox_mode;
pub mod tool;
pub mod touches;
pub mod usage;

pub use event::{
    AgentPath, ApprovalDecision, Event, EventKind, Item, ItemDelta, ItemKind, Op, RewindFileAction,
    RewindFilePreview, ToolCallStatus, TurnEndReason,
};
pub use hook_event::{HookEvent, MatcherTarget, UnknownHookEvent};
pub use message::{ContentBlock, Message, Role, SUMMARY_MARKER, StopReason};
pub use sandbox_mode::{SandboxMode, UnknownSandboxMode};
pub use tool::{ToolDisplay, ToolKind, ToolSchema, ToolSpec};
pub use touches::Touches;
pub use usage::Usage;
