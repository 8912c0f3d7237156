//! Print mode (text format): run one task, stream the answer to stdout,
//! exit with a code that says how it ended.

use wright_protocol::{EventKind, Op, TurnEndReason};

use crate::approver::Approver;
use crate::exit;
use crate::render::{Detail, Renderer};
use crate::setup::Started;
use crate::signals::spawn_interrupt_handler;
use crate::summary::RunSummary;

/// Runs one piece of work (a task, a custom command's expansion, a
/// compaction) and returns the exit code; `prompt_tool`
/// (`--permission-prompt-tool`) answers approvals.
pub async fn run_op(started: Started, op: Op, detail: Detail, prompt_tool: Option<&str>) -> u8 {
    let Started {
        mut handle,
        notices,
        resumed,
        mcp,
        structured,
        ..
    } = started;
    let mut renderer = Renderer::new(detail).answer_only();
    let mut summary = RunSummary::new();
    for line in notices.iter().chain(resumed.iter()) {
        renderer.err_line(line);
    }
    if let Some(mcp) = &mcp {
        crate::mcp_start::wait_for_servers(mcp, |line| renderer.err_line(line)).await;
    }
    let approver = match prompt_tool.map(|t| Approver::for_tool(t, mcp.as_ref())) {
        Some(Err(e)) => {
            renderer.err_line(&format!("error: {e}"));
            handle.shutdown().await;
            return exit::USAGE;
        }
        Some(Ok(a)) => Some(a),
        None => None,
    };
    let ops = handle.op_sender();
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
        if let Some(approver) = &approver {
            approver.handle(&event, &ops);
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
