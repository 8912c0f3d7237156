//! Print mode: run one task, stream the answer to stdout, exit with a code
//! that says how it ended.

use wright_protocol::{Op, TurnEndReason};

use crate::render::{Detail, Renderer};
use crate::setup::Started;

/// Exit codes of CLI.md.
pub mod exit {
    /// Success.
    pub const SUCCESS: u8 = 0;
    /// An error ended the task.
    pub const ERROR: u8 = 1;
    /// Usage or configuration error.
    pub const USAGE: u8 = 2;
    /// `--max-turns` reached.
    pub const MAX_TURNS: u8 = 3;
    /// Interrupted by the user.
    pub const INTERRUPTED: u8 = 130;
}

/// Runs `prompt` as one task and returns the exit code.
pub async fn run(started: Started, prompt: String, detail: Detail) -> u8 {
    let Started { mut handle, notice } = started;
    let mut renderer = Renderer::new(detail);
    if let Some(notice) = notice {
        renderer.err_line(&notice);
    }
    let ops = handle.op_sender();
    tokio::spawn(async move {
        // First Ctrl-C stops the turn cleanly; a second one leaves at once.
        if tokio::signal::ctrl_c().await.is_ok() {
            let _ = ops.send(Op::Interrupt).await;
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(i32::from(exit::INTERRUPTED));
            }
        }
    });
    if handle.submit(Op::UserTurn { text: prompt }).await.is_err() {
        return exit::ERROR;
    }
    let mut reason = TurnEndReason::Failed;
    while let Some(event) = handle.events.recv().await {
        if let Some(end) = renderer.event(&event) {
            reason = end;
            break;
        }
    }
    let _ = handle.submit(Op::Shutdown).await;
    if detail == Detail::Verbose || renderer.model_requests > 0 {
        let line = renderer.usage_line();
        renderer.err_line(&line);
    }
    match reason {
        TurnEndReason::Completed => exit::SUCCESS,
        TurnEndReason::MaxTurns => exit::MAX_TURNS,
        TurnEndReason::Interrupted => exit::INTERRUPTED,
        TurnEndReason::Failed => exit::ERROR,
    }
}
