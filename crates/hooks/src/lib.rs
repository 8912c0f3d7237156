//! User hooks in Claude Code's contract (events, matchers, JSON on stdin,
//! exit codes and JSON decisions) and the same-turn verifier (which checker
//! runs for which edited files, and how its diagnostics are read and
//! reported). This crate decides and runs; the core calls it at fixed points
//! of the turn loop.

pub mod hook;
pub mod verify;
