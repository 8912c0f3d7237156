//! Print mode (text format): run one task, stream the answer to stdout,
//! exit with a code that says how it ended.

use wright_protocol::{EventKind, Op, TurnEndReason};

use crate::exit;
use crate::render::{Detail, Renderer};
use crate::setup::Started;
use crate::signals::spawn_interrupt_handler;
use crate::summary::RunSummary;

/// Runs `prompt` as one task and returns the exit code.
pub async fn run(started: Started, prompt: String, detail: Detail) -> u8 {
    run_op(started, Op::UserTurn { text: prompt }, detail).await
}

/// Runs one piece of work (a task, a compaction) and returns the exit code.
pub async fn run_op(started: Started, op: Op, detail: Detail) -> u8 {
    let Started {
        mut handle,
        notice,
        mcp,
        structured,
        ..
    } = started;
    let mut renderer = Renderer::new(detail);
    let mut summary = RunSummary::new();
    if let Some(notice) = notice {
        renderer.err_line(&notice);
    }
    if let Some(mcp) = &mcp {
        crate::mcp_start::wait_for_servers(mcp, |line| renderer.err_line(line)).await;
    }
    let stop = spawn_interrupt_handler(handle.op_sender());
    if handle.submit(op).await.is_err() {
        return exit::ERROR;
    }
    if stop.get().is_some() {
        // Stopped before the turn began: its interrupt found nothing to stop.
        let _ = handle.submit(Op::Interrupt).await;
    }
    let mut reason = TurnEndReason::Failed;
    while let Some(event) = handle.events.recv().await {
        summary.observe(&event);
        // With `--json-schema` the answer is printed once, parsed, at the
        // end: streaming it would also print an attempt that was rejected.
        let answer_text = event.agent.is_root()
            && matches!(
                &event.kind,
                EventKind::ItemDelta {
                    delta: wright_protocol::ItemDelta::Text(_),
                    ..
                }
            );
        if !(structured && answer_text) {
            renderer.event(&event);
        }
        if event.agent.is_root()
            && let EventKind::TurnCompleted { reason: end, .. } = event.kind
        {
            reason = end;
            break;
        }
    }
    handle.shutdown().await;
    if let Some(value) = summary.structured_output() {
        println!("{value}");
    }
    let line = renderer.dim(&summary.usage_line());
    renderer.err_line(&line);
    stop.exit_code(reason)
}
