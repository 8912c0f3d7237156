//! The interactive line mode: one prompt per line, streamed answers, `/exit`
//! or end of input to leave. Ctrl-C stops a running turn; at the prompt it
//! leaves.

use std::io::{BufRead, Write};

use tokio::sync::mpsc;
use wright_protocol::{ApprovalDecision, EventKind, Op};

use crate::render::{Detail, Renderer};
use crate::setup::Started;
use crate::summary::RunSummary;

/// Runs the read–eval loop until the user leaves; returns the exit code.
pub async fn run(started: Started, detail: Detail) -> u8 {
    let Started { mut handle, notice } = started;
    let mut renderer = Renderer::new(detail);
    let mut summary = RunSummary::new();
    if let Some(notice) = notice {
        renderer.err_line(&notice);
    }
    renderer.err_line("wright — type a task, /exit to leave.");
    let mut lines = spawn_line_reader();
    loop {
        prompt();
        let line = tokio::select! {
            line = lines.recv() => line,
            _ = tokio::signal::ctrl_c() => None,
        };
        let Some(line) = line else { break };
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        if matches!(text, "/exit" | "/quit") {
            break;
        }
        if text == "/help" {
            renderer.err_line(HELP);
            continue;
        }
        if let Some(mode) = text.strip_prefix("/mode") {
            if handle
                .submit(Op::SetPermissionMode {
                    mode: mode.trim().to_owned(),
                })
                .await
                .is_err()
            {
                break;
            }
            // The core answers at once with a confirmation or an error.
            if let Some(event) = handle.events.recv().await {
                renderer.event(&event);
            }
            continue;
        }
        if handle
            .submit(Op::UserTurn {
                text: text.to_owned(),
            })
            .await
            .is_err()
        {
            break;
        }
        loop {
            let event = tokio::select! {
                event = handle.events.recv() => event,
                _ = tokio::signal::ctrl_c() => {
                    let _ = handle.submit(Op::Interrupt).await;
                    continue;
                }
            };
            let Some(event) = event else {
                return 1;
            };
            summary.observe(&event);
            if let EventKind::ApprovalRequested { id, .. } = &event.kind {
                renderer.event(&event);
                let decision = ask_approval(&mut lines).await;
                let _ = handle
                    .submit(Op::ResolveApproval {
                        id: id.clone(),
                        decision,
                    })
                    .await;
                continue;
            }
            if renderer.event(&event).is_some() {
                break;
            }
        }
    }
    let _ = handle.submit(Op::Shutdown).await;
    let line = renderer.dim(&summary.usage_line());
    renderer.err_line(&line);
    0
}

const HELP: &str = "/mode default|accept-edits|plan|auto|bypass — change what runs without asking\n\
/exit — leave (also Ctrl-D; Ctrl-C stops a running turn)";

/// Reads the answer to an approval request from the user's next line.
async fn ask_approval(lines: &mut mpsc::UnboundedReceiver<String>) -> ApprovalDecision {
    loop {
        {
            let mut err = std::io::stderr().lock();
            let _ = write!(
                err,
                "  allow? [y]es once · [s] for this session · [a]lways in this project · [n]o (n: note) › "
            );
            let _ = err.flush();
        }
        let line = tokio::select! {
            line = lines.recv() => line,
            _ = tokio::signal::ctrl_c() => None,
        };
        let Some(line) = line else {
            return ApprovalDecision::Deny { note: None };
        };
        let answer = line.trim();
        let (word, note) = answer
            .split_once(':')
            .map_or((answer, ""), |(w, n)| (w.trim(), n.trim()));
        match word.to_ascii_lowercase().as_str() {
            "y" | "yes" => return ApprovalDecision::AllowOnce,
            "s" | "session" => return ApprovalDecision::AllowSession,
            "a" | "always" => return ApprovalDecision::AllowProject,
            "n" | "no" => {
                return ApprovalDecision::Deny {
                    note: (!note.is_empty()).then(|| note.to_owned()),
                };
            }
            _ => {}
        }
    }
}

fn prompt() {
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\n› ");
    let _ = err.flush();
}

/// Reads stdin lines on a plain thread: stdin reads block and cannot be
/// cancelled, so they stay off the runtime.
fn spawn_line_reader() -> mpsc::UnboundedReceiver<String> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}
