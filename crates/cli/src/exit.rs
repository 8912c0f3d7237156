//! Exit codes of CLI.md, and the one for how a turn ended.

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
