//! The machine formats of print mode for one prompt: `json` (one result
//! object at the end) and `stream-json` (NDJSON as events happen, result
//! last). Programs that send turns on stdin are served by `crate::sdk`.

use wright_protocol::{Op, TurnEndReason};

use crate::approver::Approver;
use crate::exit;
use crate::sdk::peer::write_lines;
use crate::setup::Started;
use crate::signals::spawn_interrupt_handler;
use crate::stream_json::{InitExtras, StreamJson};
use crate::summary::RunSummary;

/// Which machine format to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One result object.
    Json,
    /// NDJSON lines.
    StreamJson {
        /// Add streaming deltas.
        partial: bool,
    },
}

/// Where the user turn comes from (`--input-format stream-json` is the
/// `sdk` module's).
pub enum Input {
    /// One prompt's op: a user turn, or the work of a slash command.
    Op(Op),
}

/// Runs the task(s) and returns the exit code.
pub async fn run(
    started: Started,
    input: Input,
    format: Format,
    mut init: InitExtras,
    prompt_tool: Option<&str>,
) -> u8 {
    let Started {
        mut handle,
        mut notices,
        mcp,
        api_key_source,
        ..
    } = started;
    init.api_key_source = api_key_source.unwrap_or("none").to_owned();
    let streaming = matches!(format, Format::StreamJson { .. });
    // In stream-json mode the notices become `system` lines after the
    // init line (which must come first); in json mode they go to stderr.
    if !streaming {
        for notice in notices.drain(..) {
            eprintln!("{notice}");
        }
    }
    // The init line shows real statuses: servers get their start-up
    // timeout before it is written (the core would wait as long anyway
    // before the first model request).
    if let Some(mcp) = &mcp {
        crate::mcp_start::wait_for_servers(mcp, |line| {
            if streaming {
                notices.push(line.to_owned());
            } else {
                eprintln!("{line}");
            }
        })
        .await;
    }
    let approver = prompt_tool.map(|t| Approver::for_tool(t, mcp.as_ref()));
    let ops = handle.op_sender();
    let stop = spawn_interrupt_handler(handle.op_sender());
    let mut summary = RunSummary::new();
    let mut mapper = StreamJson::new(matches!(format, Format::StreamJson { partial: true }))
        .with_mcp(mcp.as_ref().map(|m| std::sync::Arc::clone(&m.manager)))
        .with_init(init);
    let Input::Op(op) = input;
    // Events before the turn (the init line) are written at once.
    while let Ok(event) = handle.events.try_recv() {
        summary.observe(&event);
        if let Format::StreamJson { .. } = format {
            write_lines(&mapper.lines(&event));
        }
    }
    let early: Vec<_> = notices
        .iter()
        .map(|n| {
            let mut line = crate::stream_json::lines::notice_line(summary.session_id(), n);
            crate::stream_json::lines::stamp(&mut line, summary.session_id());
            line
        })
        .collect();
    write_lines(&early);
    let approver = match approver {
        Some(Err(e)) => {
            // A usage error before the turn: stderr, or in stream-json
            // mode a `system` error line after the init line.
            if streaming {
                let sid = summary.session_id();
                let mut line = crate::stream_json::lines::system(sid, "error", &e.to_string());
                crate::stream_json::lines::stamp(&mut line, sid);
                write_lines(&[line]);
            } else {
                eprintln!("error: {e}");
            }
            handle.shutdown().await;
            return exit::USAGE;
        }
        Some(Ok(a)) => Some(a),
        None => None,
    };
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
        if let Format::StreamJson { .. } = format {
            write_lines(&mapper.lines(&event));
        }
        if let Some(approver) = &approver {
            approver.handle(&event, &ops);
        }
        if event.agent.is_root()
            && let wright_protocol::EventKind::TurnCompleted { reason: end, .. } = event.kind
        {
            reason = end;
            break;
        }
    }
    let mut result = summary.result(reason);
    crate::stream_json::lines::stamp(&mut result, summary.session_id());
    write_lines(&[result]);
    let code = stop.exit_code(reason);
    handle.shutdown().await;
    code
}
