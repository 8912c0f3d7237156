//! The interactive line mode (when stdin or stdout is not a terminal, or
//! `WRIGHT_LINE_MODE=1`): one prompt per line, streamed answers, `/exit`
//! or end of input to leave. Ctrl-C stops a running turn; at the prompt it
//! leaves. An approval is answered only by a number on a line of its own,
//! typed after the question showed: lines typed before it (the person's
//! next prompts, typed while the answer streamed) stay prompts.

use std::collections::VecDeque;
use std::io::{BufRead, IsTerminal, Write};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use wright_protocol::{ApprovalDecision, EventKind, Op};
use wright_tools::JobInfo;

use super::line_ask;
use crate::render::{Detail, Renderer, escape_controls};
use crate::setup::Started;
use crate::signals::{SIGHUP, SIGINT, Signals};
use crate::summary::RunSummary;
use crate::trust::ProjectTrust;

/// Runs the read–eval loop until the user leaves; returns the exit code.
/// `trust` is told when the user approves a call for the whole project.
pub async fn run(started: Started, detail: Detail, trust: ProjectTrust) -> u8 {
    let Started {
        mut handle,
        notices,
        resumed,
        view,
        jobs,
        mcp,
        mcp_not_started,
        structured: _,
        api_key_source: _,
    } = started;
    let mut last_request_tokens = 0u64;
    let mut renderer = Renderer::new(detail);
    let mut summary = RunSummary::new();
    for line in notices.iter().chain(resumed.iter()) {
        renderer.err_line(line);
    }
    renderer.err_line("wright — type a task, /exit to leave.");
    let mut lines = spawn_line_reader();
    let mut signals = Signals::new();
    // SIGTERM or SIGHUP: finish (interrupt) the turn, then leave with 128 + it.
    let mut stopped_by: Option<i32> = None;
    loop {
        prompt();
        let line = tokio::select! {
            line = lines.recv() => line,
            sig = signals.next() => {
                if sig != SIGINT {
                    stopped_by = Some(sig);
                }
                None
            }
        };
        let Some(line) = line else {
            // End of input is Ctrl-D, or the terminal going away.
            if lines.hung_up() {
                stopped_by.get_or_insert(SIGHUP);
            }
            break;
        };
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let op = match text
            .split_once(' ')
            .map_or((text, ""), |(c, rest)| (c, rest.trim()))
        {
            ("/exit" | "/quit", _) => break,
            ("/help", _) => {
                renderer.err_line(HELP);
                if let Some(m) = &mcp {
                    // Prompts are known once their servers are up: give
                    // servers still starting a few seconds.
                    let wait = m.startup_timeout.min(std::time::Duration::from_secs(5));
                    if !m.manager.wait_started(wait).await {
                        renderer.err_line("(some MCP servers are still starting: /help again lists their prompts once they are up)");
                    }
                    let prompts = crate::mcp_prompts::help(m);
                    if !prompts.is_empty() {
                        renderer.err_line(prompts.trim_end());
                    }
                }
                continue;
            }
            ("/context", _) => {
                let window = view.as_ref().map_or(0, |v| v.window);
                if let Some(view) = &view {
                    let context = wright_context::assemble(&view.inputs);
                    let used = (last_request_tokens > 0).then_some((last_request_tokens, window));
                    renderer.err_line(&wright_context::render_report(&context, &view.tools, used));
                    renderer.err_line(&view.extensions);
                }
                if let Some(report) = jobs_report(&jobs.list()) {
                    renderer.err_line(&report);
                }
                continue;
            }
            ("/mcp", _) => {
                // Statuses once settled (within the start-up timeout),
                // not a snapshot of servers still starting.
                if let Some(m) = &mcp {
                    m.manager.wait_started(m.startup_timeout).await;
                }
                renderer.err_line(&crate::mcp_start::report(
                    mcp.as_ref().map(|m| m.manager.as_ref()),
                    &mcp_not_started,
                ));
                continue;
            }
            ("/mode", mode) => Op::SetPermissionMode {
                mode: mode.to_owned(),
            },
            ("/rewind", "") => Op::Rewind {
                turn: None,
                dry_run: false,
            },
            // A preview first; the rewind itself once the user agrees.
            ("/rewind", n) => match n.parse() {
                Ok(turn) => Op::Rewind {
                    turn: Some(turn),
                    dry_run: true,
                },
                Err(_) => {
                    renderer.err_line("usage: /rewind [N]");
                    continue;
                }
            },
            ("/compact", focus) => Op::Compact {
                focus: (!focus.is_empty()).then(|| focus.to_owned()),
            },
            (command, rest) if command.starts_with("/mcp__") => {
                let expanded = match &mcp {
                    Some(m) => crate::mcp_prompts::expand(m, command, rest).await,
                    None => None,
                };
                match expanded {
                    Some(Ok(text)) => Op::UserTurn { text },
                    Some(Err(why)) => {
                        renderer.err_line(&format!("{command}: {why}"));
                        continue;
                    }
                    None => {
                        renderer.err_line(&format!(
                            "unknown command {command}; /help lists the MCP prompts"
                        ));
                        continue;
                    }
                }
            }
            // A path such as /usr/bin/foo is a prompt, not a command.
            (command, _)
                if command
                    .strip_prefix('/')
                    .is_some_and(|c| !c.is_empty() && !c.contains('/')) =>
            {
                renderer.err_line(&format!("unknown command {command}; /help lists them"));
                continue;
            }
            // `!cmd`: run through the Bash tool's permission path; the
            // model sees it with the next prompt.
            _ if text.starts_with('!') => Op::UserShell {
                command: text[1..].trim().to_owned(),
            },
            _ => Op::UserTurn {
                text: text.to_owned(),
            },
        };
        // These answer at once with one notice, confirmation or error.
        let single_answer = matches!(op, Op::SetPermissionMode { .. } | Op::Rewind { .. });
        if handle.submit(op).await.is_err() {
            break;
        }
        let mut interrupted = false;
        if single_answer {
            // Events already queued (the session's first) come before the answer.
            while let Some(event) = handle.events.recv().await {
                if let EventKind::RewindPreview {
                    turn,
                    prompt,
                    files,
                } = &event.kind
                {
                    if !confirm_rewind(*turn, prompt, files, &mut lines, &mut signals).await {
                        renderer.err_line("not rewound; nothing changed");
                        stopped_by = stopped_by.or(stop_reason(&signals, &lines));
                        break;
                    }
                    let op = Op::Rewind {
                        turn: Some(*turn),
                        dry_run: false,
                    };
                    if handle.submit(op).await.is_err() {
                        break;
                    }
                    continue;
                }
                let answered = matches!(
                    event.kind,
                    EventKind::Notice { .. } | EventKind::Warning { .. } | EventKind::Error { .. }
                );
                renderer.event(&event);
                if answered {
                    break;
                }
            }
            if stopped_by.is_some() {
                break;
            }
            continue;
        }
        loop {
            let event = tokio::select! {
                event = handle.events.recv() => event,
                // The terminal went away while the turn ran (end of input
                // alone is typed-ahead input running out, not a stop).
                () = lines.hangup.cancelled(), if !interrupted => {
                    interrupted = true;
                    stopped_by.get_or_insert(SIGHUP);
                    let _ = handle.submit(Op::Interrupt).await;
                    continue;
                }
                sig = signals.next() => {
                    // The first Ctrl-C stops the turn; a second one while it
                    // winds down leaves at once. SIGTERM and SIGHUP stop the
                    // turn and then leave.
                    if interrupted {
                        std::process::exit(i32::from(crate::signals::exit_for(sig)));
                    }
                    interrupted = true;
                    if sig != SIGINT {
                        stopped_by = Some(sig);
                    }
                    let _ = handle.submit(Op::Interrupt).await;
                    continue;
                }
            };
            let Some(event) = event else {
                return 1;
            };
            summary.observe(&event);
            if let EventKind::Usage { request, .. } = &event.kind {
                last_request_tokens = request.total_input() + request.output_tokens;
            }
            if let EventKind::ApprovalRequested {
                id,
                tool,
                arguments,
                ..
            } = &event.kind
                && let Some((mode, decision)) =
                    ask_form(tool, arguments, &mut lines, &mut signals, &mut renderer).await
            {
                if let Some(stop) = stop_reason(&signals, &lines)
                    && !interrupted
                {
                    interrupted = true;
                    stopped_by.get_or_insert(stop);
                    let _ = handle.submit(Op::Interrupt).await;
                }
                if let Some(mode) = mode {
                    let _ = handle.submit(Op::SetPermissionMode { mode }).await;
                }
                let id = id.clone();
                let _ = handle.submit(Op::ResolveApproval { id, decision }).await;
                continue;
            }
            if let EventKind::ApprovalRequested { id, .. } = &event.kind {
                renderer.event(&event);
                if let Some(caveat) = trust.always_caveat() {
                    let line = renderer.dim(&format!("  3 (always, in this project): {caveat}"));
                    renderer.err_line(&line);
                }
                let decision = ask_approval(&mut lines, &mut signals, &mut renderer).await;
                // Refused because wright is to stop (a signal other than
                // Ctrl-C, the terminal gone): the turn ends here too.
                if let Some(stop) = stop_reason(&signals, &lines)
                    && !interrupted
                {
                    interrupted = true;
                    stopped_by.get_or_insert(stop);
                    let _ = handle.submit(Op::Interrupt).await;
                }
                if decision == ApprovalDecision::AllowProject
                    && let Some(line) = trust.on_project_approval()
                {
                    renderer.err_line(&line);
                }
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
        if stopped_by.is_some() {
            break;
        }
    }
    handle.shutdown().await;
    let line = renderer.dim(&summary.process_usage_line());
    renderer.err_line(&line);
    stopped_by.map_or(0, crate::signals::exit_for)
}

const HELP: &str = "/mode default|accept-edits|plan|auto|bypass — change what runs without asking\n\
/context — what the model sees, with sources and sizes, the window used, hooks, verifier and background commands\n\
/mcp — MCP servers with their status and tools\n\
/compact [focus] — summarize older turns now\n\
/rewind [N] — list the turns, or go back to before turn N (edited files and conversation)\n\
!cmd — run cmd as the model's Bash would (same permissions and sandbox); the model sees it and its output with your next prompt\n\
/exit — leave (also Ctrl-D; Ctrl-C stops a running turn)";

/// The background commands for `/context`, running ones first; `None`
/// when the session started none.
pub(crate) fn jobs_report(jobs: &[JobInfo]) -> Option<String> {
    if jobs.is_empty() {
        return None;
    }
    let mut sorted: Vec<&JobInfo> = jobs.iter().collect();
    // Stable, so each half stays oldest first.
    sorted.sort_by_key(|j| !j.status.is_running());
    let lines: Vec<String> = sorted
        .iter()
        .map(|j| {
            format!(
                "  {}  {}  {}  {}\n      output: {}",
                j.id,
                j.status,
                runtime(j.runtime),
                // The model wrote the command; it must not drive the terminal.
                escape_controls(&j.command),
                j.output_path.display()
            )
        })
        .collect();
    Some(format!("background commands:\n{}", lines.join("\n")))
}

/// `4.2s`, `3m 07s`, `1h 02m`.
fn runtime(d: Duration) -> String {
    let secs = d.as_secs();
    match secs {
        0..60 => format!("{:.1}s", d.as_secs_f64()),
        60..3600 => format!("{}m {:02}s", secs / 60, secs % 60),
        _ => format!("{}h {:02}m", secs / 3600, secs % 3600 / 60),
    }
}

/// Reads the answer to an approval request from the user's next line.
/// Shows what `/rewind N` would overwrite and asks; `true` to go on. Asks
/// nothing when no file would change.
async fn confirm_rewind(
    turn: u32,
    prompt: &str,
    files: &[wright_protocol::RewindFilePreview],
    lines: &mut Lines,
    signals: &mut Signals,
) -> bool {
    use wright_protocol::RewindFileAction;
    let changing = files
        .iter()
        .filter(|f| !matches!(f.action, RewindFileAction::Skip { .. }))
        .count();
    if changing == 0 {
        return true;
    }
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "rewinding to before turn {turn} ({}) will change {changing} file(s):",
        crate::render::strip_controls(prompt)
    );
    for f in files {
        let what = match &f.action {
            RewindFileAction::Overwrite => "overwritten with its earlier content".to_owned(),
            RewindFileAction::Delete => "deleted (it did not exist then)".to_owned(),
            RewindFileAction::Skip { reason } => format!("left alone: {reason}"),
        };
        let _ = writeln!(err, "  {}: {what}", f.path.display());
    }
    let _ = write!(err, "rewind? [y/N] › ");
    let _ = err.flush();
    drop(err);
    let line = tokio::select! {
        line = lines.recv() => line,
        _ = signals.next() => None,
    };
    line.is_some_and(|l| matches!(l.trim().to_ascii_lowercase().as_str(), "y" | "yes"))
}

/// How long after an approval question shows a line still counts as typed
/// before it (the person was finishing their next prompt, not answering);
/// also how long after each such line. As `wright_tui`'s guard for the menu.
const APPROVAL_GUARD: Duration = Duration::from_millis(500);

/// Asks for an approval until a line answers it (end of input or a signal
/// refuses). Lines that arrived before the question showed, or within
/// [`APPROVAL_GUARD`] of it or of another such line, and lines that are no
/// answer, are kept as the next prompts.
async fn ask_approval(
    lines: &mut Lines,
    signals: &mut Signals,
    renderer: &mut Renderer,
) -> ApprovalDecision {
    let prompt = "  allow? 1 yes, once · 2 yes, for this session · 3 always, in this project · \
                  4 no (4: why) — the number, then Enter › ";
    ask_line(lines, signals, renderer, prompt, approval_answer)
        .await
        .unwrap_or(ApprovalDecision::Deny { note: None })
}

/// Asks with `prompt` until a line `parse` takes, under the same rules as
/// an approval; `None` when the input ended or a signal came first.
async fn ask_line<T>(
    lines: &mut Lines,
    signals: &mut Signals,
    renderer: &mut Renderer,
    prompt: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Option<T> {
    let mut quiet_from = Instant::now();
    loop {
        {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "{prompt}");
            let _ = err.flush();
        }
        let line = tokio::select! {
            line = lines.rx.recv() => line,
            _ = signals.next() => None,
        };
        let (at, line) = line?;
        let early = at < quiet_from + APPROVAL_GUARD;
        match parse(&line) {
            Some(answer) if !early => return Some(answer),
            _ if line.trim().is_empty() => {}
            _ => {
                quiet_from = quiet_from.max(at);
                renderer.err_line(&format!(
                    "  (kept for after this turn: {}; answer with a number)",
                    escape_controls(line.trim())
                ));
                lines.kept.push_back(line);
            }
        }
    }
}

/// A plan or the model's questions asked on lines (`None`: an ordinary
/// approval, asked as one). Ending the input or a signal refuses.
async fn ask_form(
    tool: &str,
    arguments: &str,
    lines: &mut Lines,
    signals: &mut Signals,
    renderer: &mut Renderer,
) -> Option<line_ask::Answer> {
    let refused = (None, ApprovalDecision::Deny { note: None });
    match tool {
        "ExitPlanMode" => {
            renderer.err_line(&line_ask::plan_text(arguments));
            let prompt = line_ask::PLAN_PROMPT;
            let answer = ask_line(lines, signals, renderer, prompt, line_ask::plan_answer).await;
            Some(answer.unwrap_or(refused))
        }
        "AskUserQuestion" => {
            let questions = line_ask::questions(arguments);
            if questions.is_empty() {
                return None;
            }
            let mut answers = serde_json::Map::new();
            for q in &questions {
                renderer.err_line(&q.text());
                let prompt = q.prompt();
                let Some(answer) =
                    ask_line(lines, signals, renderer, &prompt, |l| q.answer(l)).await
                else {
                    return Some(refused);
                };
                answers.insert(q.question().to_owned(), serde_json::Value::String(answer));
            }
            Some((None, line_ask::answered(arguments, answers)))
        }
        _ => None,
    }
}

/// The decision a line answers: `1`–`4` alone, or `4: why` (the note for
/// the model); anything else, a word such as `yes` included, is no answer.
fn approval_answer(line: &str) -> Option<ApprovalDecision> {
    let (number, note) = line
        .trim()
        .split_once(':')
        .map_or((line.trim(), None), |(n, why)| (n.trim(), Some(why.trim())));
    match (number, note) {
        ("1", None) => Some(ApprovalDecision::AllowOnce),
        ("2", None) => Some(ApprovalDecision::AllowSession),
        ("3", None) => Some(ApprovalDecision::AllowProject),
        ("4", note) => Some(ApprovalDecision::Deny {
            note: note.filter(|n| !n.is_empty()).map(str::to_owned),
        }),
        _ => None,
    }
}

fn prompt() {
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\n› ");
    let _ = err.flush();
}

/// The person's lines: read from stdin, plus those an approval question
/// set aside, which come first.
struct Lines {
    /// Each line with when it arrived.
    rx: mpsc::UnboundedReceiver<(Instant, String)>,
    /// Lines typed for the prompt while an approval was asked, in order.
    kept: VecDeque<String>,
    /// Cancelled when stdin, a terminal, hung up or failed (not on Ctrl-D).
    hangup: CancellationToken,
}

impl Lines {
    /// Whether the terminal went away (rather than the person typing Ctrl-D).
    fn hung_up(&self) -> bool {
        self.hangup.is_cancelled()
    }

    /// The next line for the prompt.
    async fn recv(&mut self) -> Option<String> {
        match self.kept.pop_front() {
            Some(line) => Some(line),
            None => self.rx.recv().await.map(|(_, line)| line),
        }
    }
}

/// Reads stdin lines on a plain thread: stdin reads block and cannot be
/// cancelled, so they stay off the runtime. Each line carries when it
/// arrived, so an approval can tell lines typed before it showed.
fn spawn_line_reader() -> Lines {
    let (tx, rx) = mpsc::unbounded_channel();
    let hangup = CancellationToken::new();
    let hung_up = hangup.clone();
    let was_terminal = std::io::stdin().is_terminal();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        // Each read ends on a line, end of input or an error: a dead
        // terminal ends the loop, never spins it.
        let failed = loop {
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) => break false,
                Ok(_) => {}
                // A line that is not UTF-8 is dropped (it was read).
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::Interrupted | std::io::ErrorKind::InvalidData
                    ) =>
                {
                    continue;
                }
                Err(_) => break true,
            }
            if line.ends_with('\n') {
                line.pop();
                if line.ends_with('\r') {
                    line.pop();
                }
            }
            if tx.send((Instant::now(), line)).is_err() {
                return;
            }
        };
        if failed || (was_terminal && wright_tui::tty::stdin_hung_up()) {
            hung_up.cancel();
        }
    });
    Lines {
        rx,
        kept: VecDeque::new(),
        hangup,
    }
}

/// Why wright is to stop, if it is: a stop signal other than Ctrl-C, or
/// the terminal gone.
fn stop_reason(signals: &Signals, lines: &Lines) -> Option<i32> {
    signals
        .stopped()
        .or_else(|| lines.hung_up().then_some(SIGHUP))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use wright_tools::JobStatus;

    use super::*;

    fn job(id: &str, status: JobStatus, secs: u64) -> JobInfo {
        JobInfo {
            id: id.to_owned(),
            command: "npm run dev".to_owned(),
            pid: 42,
            status,
            runtime: Duration::from_secs(secs),
            output_path: PathBuf::from(format!("/tmp/{id}.log")),
        }
    }

    #[test]
    fn only_a_number_answers_an_approval() {
        for word in [
            "y",
            "yes",
            "a",
            "always",
            "s",
            "n",
            "yes and always",
            "1 and",
            "13",
            "0",
            "5",
            "",
            "3: why",
        ] {
            assert_eq!(approval_answer(word), None, "{word:?}");
        }
        assert_eq!(approval_answer(" 1 "), Some(ApprovalDecision::AllowOnce));
        assert_eq!(approval_answer("2"), Some(ApprovalDecision::AllowSession));
        assert_eq!(approval_answer("3"), Some(ApprovalDecision::AllowProject));
        assert_eq!(
            approval_answer("4"),
            Some(ApprovalDecision::Deny { note: None })
        );
        assert_eq!(
            approval_answer("4: use the other file"),
            Some(ApprovalDecision::Deny {
                note: Some("use the other file".to_owned())
            })
        );
    }

    #[test]
    fn no_jobs_no_report() {
        assert_eq!(jobs_report(&[]), None);
    }

    #[test]
    fn running_jobs_come_first_with_status_runtime_and_output() {
        let report = jobs_report(&[
            job("bash_1", JobStatus::Exited(0), 75),
            job("bash_2", JobStatus::Running, 3),
            job("bash_3", JobStatus::Killed, 4000),
        ])
        .unwrap();
        assert_eq!(
            report,
            "background commands:\n\
             \x20 bash_2  running  3.0s  npm run dev\n      output: /tmp/bash_2.log\n\
             \x20 bash_1  exited with code 0  1m 15s  npm run dev\n      output: /tmp/bash_1.log\n\
             \x20 bash_3  killed  1h 06m  npm run dev\n      output: /tmp/bash_3.log"
        );
    }
}
