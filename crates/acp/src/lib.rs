//! wright as an Agent Client Protocol (ACP) agent: editors (Zed, JetBrains,
//! Neovim and Emacs plugins) talk JSON-RPC to `wright acp` on stdio, and
//! this crate turns their requests into core `Op`s and the core's `Event`s
//! into ACP session updates.
//!
//! The crate knows nothing about configuration or how a session is built:
//! the binary supplies a [`Backend`] that starts sessions, so this crate
//! depends on the protocol types only (as every front end does).

mod ask;
mod backend;
mod editor_fs;
mod model_option;
mod modes;
mod prompt;
mod replay;
mod server;
mod session;
mod tool_map;
mod updates;

pub use backend::{
    AuthState, Backend, BackendError, BackendSession, CustomCommand, McpServerSpec, ModelChoice,
    SessionRequest, TouchesOf,
};
pub use editor_fs::EditorFs;
pub use server::serve_stdio;
