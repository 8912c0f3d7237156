//! The machine formats of print mode: `json` (one result object at the end)
//! and `stream-json` (NDJSON as events happen, result last), with
//! `--input-format stream-json` for multi-turn programs.

use std::io::{BufRead, Write};

use serde_json::{Value, json};
use tokio::sync::mpsc;
use wright_protocol::{Op, TurnEndReason};

use crate::exit;
use crate::setup::Started;
use crate::signals::spawn_interrupt_handler;
use crate::stream_json::StreamJson;
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

/// Where the user turns come from.
pub enum Input {
    /// One prompt.
    Prompt(String),
    /// NDJSON user messages on stdin, one turn each.
    StreamJson,
}

/// Runs the task(s) and returns the exit code.
pub async fn run(started: Started, input: Input, format: Format) -> u8 {
    let Started {
        mut handle,
        notice,
        mcp,
        ..
    } = started;
    if let Some(notice) = notice {
        eprintln!("{notice}");
    }
    // The init line shows real statuses: servers get their start-up
    // timeout before it is written (the core would wait as long anyway
    // before the first model request).
    if let Some(mcp) = &mcp {
        crate::mcp_start::wait_for_servers(mcp, |line| eprintln!("{line}")).await;
    }
    let stop = spawn_interrupt_handler(handle.op_sender());
    let mut summary = RunSummary::new();
    let mut mapper = StreamJson::new(matches!(format, Format::StreamJson { partial: true }))
        .with_mcp(mcp.as_ref().map(|m| std::sync::Arc::clone(&m.manager)));
    let mut turns = match input {
        Input::Prompt(prompt) => {
            let (tx, rx) = mpsc::unbounded_channel();
            let _ = tx.send(Ok(prompt));
            rx
        }
        Input::StreamJson => spawn_ndjson_reader(),
    };
    let mut code = exit::SUCCESS;
    let mut ran_a_turn = false;
    // Events before the first turn (the init line) are written at once.
    while let Ok(event) = handle.events.try_recv() {
        summary.observe(&event);
        if let Format::StreamJson { .. } = format {
            write_lines(&mapper.lines(&event));
        }
    }
    while let Some(next) = turns.recv().await {
        let text = match next {
            Ok(text) => text,
            Err(message) => {
                eprintln!("error: {message}");
                if let Format::StreamJson { .. } = format {
                    write_lines(&[
                        json!({"type": "error", "session_id": summary.session_id(), "message": message}),
                    ]);
                }
                // Reported and skipped: the exit code is the last turn's,
                // or a usage error when no line was usable at all.
                if !ran_a_turn {
                    code = exit::USAGE;
                }
                continue;
            }
        };
        if handle.submit(Op::UserTurn { text }).await.is_err() {
            return exit::ERROR;
        }
        if stop.get().is_some() {
            // Stopped before the turn began: its interrupt found nothing to stop.
            let _ = handle.submit(Op::Interrupt).await;
        }
        ran_a_turn = true;
        let mut reason = TurnEndReason::Failed;
        while let Some(event) = handle.events.recv().await {
            summary.observe(&event);
            if let Format::StreamJson { .. } = format {
                write_lines(&mapper.lines(&event));
            }
            if event.agent.is_root()
                && let wright_protocol::EventKind::TurnCompleted { reason: end, .. } = event.kind
            {
                reason = end;
                break;
            }
        }
        write_lines(&[summary.result(reason)]);
        code = stop.exit_code(reason);
        if reason == TurnEndReason::Interrupted {
            break;
        }
    }
    handle.shutdown().await;
    code
}

fn write_lines(lines: &[Value]) {
    if lines.is_empty() {
        return;
    }
    let mut out = std::io::stdout().lock();
    for line in lines {
        // A closed stdout must not stop the task: the session is still recorded.
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
}

/// Reads `{"type":"user","message":{"role":"user","content":…}}` lines from
/// stdin on a plain thread; each becomes one turn's text.
fn spawn_ndjson_reader() -> mpsc::UnboundedReceiver<Result<String, String>> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for (n, line) in stdin.lock().lines().enumerate() {
            let Ok(line) = line else { break };
            if line.trim().is_empty() {
                continue;
            }
            let parsed = parse_user_line(&line).map_err(|e| format!("stdin line {}: {e}", n + 1));
            if tx.send(parsed).is_err() {
                break;
            }
        }
    });
    rx
}

/// Extracts the text of one stream-json user message.
fn parse_user_line(line: &str) -> Result<String, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
    if value["type"] != "user" {
        return Err(format!(
            "expected a {{\"type\":\"user\",…}} message, got type {}",
            value["type"]
        ));
    }
    let role = &value["message"]["role"];
    if !role.is_null() && role != "user" {
        return Err(format!("expected a user message, got role {role}"));
    }
    let content = &value["message"]["content"];
    let text = match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| b["type"] == "text")
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    };
    if text.trim().is_empty() {
        return Err("the message has no text content".to_owned());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_lines_in_both_content_shapes() {
        assert_eq!(
            parse_user_line(r#"{"type":"user","message":{"role":"user","content":"hi"}}"#).unwrap(),
            "hi"
        );
        let blocks = r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}"#;
        assert_eq!(parse_user_line(blocks).unwrap(), "a\nb");
        assert!(parse_user_line("nope").unwrap_err().contains("not JSON"));
        assert!(parse_user_line(r#"{"type":"assistant"}"#).is_err());
        assert!(
            parse_user_line(r#"{"type":"user","message":{"role":"assistant","content":"x"}}"#)
                .is_err()
        );
        assert!(parse_user_line(r#"{"type":"user","message":{"content":""}}"#).is_err());
    }
}
