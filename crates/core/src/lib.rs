//! The agent core: the session actor and its turn loop (model stream → tool
//! calls → permission check → tool run → results back → repeat), tool
//! dispatch, the interim permission policy and the system prompt.
//!
//! The core never prints and never reads the terminal: front ends send
//! [`wright_protocol::Op`]s through a [`SessionHandle`] and consume the
//! [`wright_protocol::Event`]s it emits.

mod dispatch;
mod emitter;
pub mod permissions;
pub mod prompt;
mod session;
mod turn;

pub use session::{SessionHandle, SessionOptions, spawn_session};
