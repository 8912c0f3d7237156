//! Exit codes of CLI.md, the one for how a turn ended, and the two errors
//! that end a run with [`USAGE`]: every module that refuses a run names
//! them here, below all of them, so none imports another to say so.

use wright_protocol::TurnEndReason;

/// Success.
pub const SUCCESS: u8 = 0;
/// An error ended the task.
pub const ERROR: u8 = 1;
/// Usage or configuration error.
pub const USAGE: u8 = 2;
/// `--max-turns` reached.
pub const MAX_TURNS: u8 = 3;
/// `--max-budget-usd` reached.
pub const MAX_BUDGET: u8 = 4;
/// Interrupted by the user.
pub const INTERRUPTED: u8 = 130;

/// The exit code for how a turn ended.
pub fn for_turn(reason: TurnEndReason) -> u8 {
    match reason {
        TurnEndReason::Completed => SUCCESS,
        TurnEndReason::MaxTurns => MAX_TURNS,
        TurnEndReason::MaxBudget => MAX_BUDGET,
        TurnEndReason::Interrupted => INTERRUPTED,
        TurnEndReason::Failed => ERROR,
    }
}

/// A problem the user must fix before a session can start (exit code 2):
/// no usable provider, a bad rule, a missing binary; the message says what
/// to do.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// A mistake in how wright was invoked (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);
