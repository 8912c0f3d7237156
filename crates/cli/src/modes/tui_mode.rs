//! The interactive terminal UI: runs `wright-tui` on a thread of its own
//! (it owns the terminal: keys in, frames out) and serves it from here —
//! core events forwarded to it, its ops submitted to the session, and the
//! requests needing this process's state (`/context`, `/mcp`, MCP prompts,
//! the sessions list) answered.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc as std_mpsc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use wright_protocol::{ApprovalDecision, Op};
use wright_tui::host::{Action, HostReply, HostRequest, Input, SessionEntry, Startup};
use wright_tui::tty::HANGUP_EXIT;

use super::tui_composer::{self, CustomCommands};
use crate::render::{Detail, Renderer};
use crate::setup::Started;
use crate::signals::{SIGHUP, SIGINT, Signals};
use crate::summary::RunSummary;
use crate::trust::ProjectTrust;

/// How long a stop signal waits for the UI to restore the terminal.
const UI_GRACE: Duration = Duration::from_millis(500);

/// What the UI needs from the command line besides the session.
pub struct TuiLaunch {
    /// The working directory (its sessions fill the `/resume` picker).
    pub cwd: PathBuf,
    /// The project root (its git branch shows in the status line).
    pub project_root: PathBuf,
    /// `--continue` or `--resume`: say which session this is.
    pub resumed: bool,
    /// How the UI rings when it waits for the person (`tui.notify`).
    pub notify: wright_tui::host::Notify,
    /// `--resume` without an ID: open the session picker first.
    pub pick_session: bool,
    /// The model names `/model` completes.
    pub models: Vec<String>,
}

/// Runs the UI until the user leaves; returns the exit code.
pub async fn run(started: Started, trust: ProjectTrust, launch: TuiLaunch) -> u8 {
    let Started {
        mut handle,
        notices: started_notices,
        view,
        jobs,
        mcp,
        mcp_not_started,
        structured: _,
        api_key_source: _,
        resumed,
    } = started;
    let custom = CustomCommands::load(&launch.project_root);
    let mut notices = started_notices;
    // Which session `--continue`/`--resume` picked up, with its last exchange.
    let said_resumed = resumed.is_some();
    notices.extend(resumed);
    notices.extend(custom.warnings.iter().cloned());
    let startup = Startup {
        model: String::new(),
        mode: "default".to_owned(),
        window: view.as_ref().map_or(0, |v| v.window),
        branch: git_branch(&launch.project_root),
        notices,
        always_caveat: trust.always_caveat().map(str::to_owned),
        notify: launch.notify,
    };
    let prompts = mcp
        .as_ref()
        .map(|m| m.manager.prompts())
        .unwrap_or_default();
    let entries = tui_composer::command_entries(&custom, &prompts);
    let history = tui_composer::history(&launch.cwd);
    let files = tui_composer::files(&launch.project_root);
    let pick_session = launch.pick_session;
    let models = launch.models.clone();
    let (input_tx, input_rx) = std_mpsc::channel::<Input>();
    let (action_tx, mut actions) = mpsc::unbounded_channel::<Action>();
    let (done_tx, mut done) = oneshot::channel::<std::io::Result<u8>>();
    // Named, so a profiler (or bench/tui_pty.py) can tell the UI's CPU apart.
    let spawned = std::thread::Builder::new()
        .name("wright-tui".to_owned())
        .spawn(move || {
            let result = wright_tui::terminal::run(
                startup,
                &input_rx,
                |action| {
                    let _ = action_tx.send(action);
                },
                move |app| {
                    if pick_session {
                        app.pick_session();
                    }
                    let composer = app.composer_mut();
                    composer.set_models(models);
                    composer.set_commands(entries);
                    composer.set_history(history);
                    composer.set_file_source(files);
                },
            );
            let _ = done_tx.send(result);
        });
    if let Err(e) = spawned {
        eprintln!("error: cannot start the terminal UI: {e}");
        handle.shutdown().await;
        return 1;
    }
    let send = |input: Input| {
        let _ = input_tx.send(input);
    };
    let mut summary = RunSummary::new();
    let mut signals = Signals::new();
    let mut stopped_by: Option<i32> = None;
    let mut session_id: Option<String> = None;
    let mut last_request_tokens = 0u64;
    let mut events_open = true;
    // `/clear` (`None`) or `/resume ID`: start again on that session.
    let mut restart: Option<Option<String>> = None;
    let code = loop {
        tokio::select! {
            result = &mut done => {
                break match result {
                    // The terminal went away: as a SIGHUP would end it.
                    Ok(Ok(HANGUP_EXIT)) => {
                        stopped_by = Some(SIGHUP);
                        HANGUP_EXIT
                    }
                    Ok(Ok(code)) => code,
                    Ok(Err(e)) => {
                        eprintln!("error: the terminal UI failed: {e}");
                        1
                    }
                    Err(_) => 1,
                };
            }
            event = handle.events.recv(), if events_open => {
                let Some(event) = event else {
                    events_open = false;
                    send(Input::Closed);
                    continue;
                };
                if session_id.is_none() {
                    session_id = Some(event.session_id.clone());
                    if launch.resumed && !said_resumed {
                        send(Input::Reply(HostReply::Text(format!("resumed session {}", event.session_id))));
                    }
                }
                summary.observe(&event);
                if let wright_protocol::EventKind::Usage { request, .. } = &event.kind
                    && event.agent.is_root()
                {
                    last_request_tokens = request.total_input() + request.output_tokens;
                }
                send(Input::Core(Box::new(event)));
            }
            action = actions.recv() => {
                let Some(action) = action else { continue };
                match action {
                    Action::Op(op) => {
                        if let Op::ResolveApproval { decision: ApprovalDecision::AllowProject, .. } = &op
                            && let Some(line) = trust.on_project_approval()
                        {
                            send(Input::Reply(HostReply::Text(line)));
                        }
                        let _ = handle.submit(op).await;
                    }
                    Action::Host(request) => {
                        let reply = match request {
                            HostRequest::Help => {
                                let mut lines = mcp.as_ref().map(crate::mcp_prompts::help).unwrap_or_default();
                                lines.push_str(&custom.help());
                                (!lines.trim().is_empty()).then(|| HostReply::Text(lines.trim_end().to_owned()))
                            }
                            HostRequest::Custom { command, args } => Some(match custom.expand(&command, &args) {
                                Some(text) => {
                                    // Titles and turn lists show it as typed.
                                    let typed = format!("{command} {args}").trim_end().to_owned();
                                    let op = Op::UserTurnWithImages { text, images: Vec::new(), uuid: None, typed: Some(typed) };
                                    let _ = handle.submit(op).await;
                                    HostReply::TurnStarted
                                }
                                // `/usr/bin/foo is broken` is a prompt, not a command.
                                None if command.get(1..).is_some_and(|c| c.contains('/')) => {
                                    let text = if args.is_empty() { command } else { format!("{command} {args}") };
                                    let _ = handle.submit(Op::UserTurn { text }).await;
                                    HostReply::TurnStarted
                                }
                                None => HostReply::Error(format!("unknown command {command}; /help lists them")),
                            }),
                            HostRequest::Context => Some(HostReply::Text(context_report(
                                view.as_ref(), &jobs.list(), last_request_tokens))),
                            HostRequest::Mcp => {
                                if let Some(m) = &mcp {
                                    m.manager.wait_started(m.startup_timeout).await;
                                }
                                Some(HostReply::Text(crate::mcp_start::report(
                                    mcp.as_ref().map(|m| m.manager.as_ref()),
                                    &mcp_not_started,
                                )))
                            }
                            HostRequest::McpPrompt { command, args } => {
                                let expanded = match &mcp {
                                    Some(m) => crate::mcp_prompts::expand(m, &command, &args).await,
                                    None => None,
                                };
                                Some(match expanded {
                                    Some(Ok(text)) => {
                                        let _ = handle.submit(Op::UserTurn { text }).await;
                                        HostReply::TurnStarted
                                    }
                                    Some(Err(why)) => HostReply::Error(format!("{command}: {why}")),
                                    None => HostReply::Error(format!(
                                        "unknown command {command}; /help lists the MCP prompts"
                                    )),
                                })
                            }
                            HostRequest::Sessions => Some(sessions(&launch.cwd, session_id.as_deref())),
                            HostRequest::Resume { id } => {
                                restart = Some(Some(id));
                                Some(HostReply::Leave)
                            }
                            HostRequest::Clear => {
                                restart = Some(None);
                                Some(HostReply::Leave)
                            }
                        };
                        if let Some(reply) = reply {
                            send(Input::Reply(reply));
                        }
                    }
                }
            }
            sig = signals.next() => {
                // Raw mode turns Ctrl-C into a key; a signal here came from outside.
                if sig != SIGINT {
                    stopped_by = Some(sig);
                }
                let _ = handle.submit(Op::Interrupt).await;
                send(Input::Closed);
                // The UI restores the terminal as it leaves; on a terminal
                // that is gone it may never get to, and is not waited for.
                break match tokio::time::timeout(UI_GRACE, &mut done).await {
                    Ok(Ok(Ok(code))) => code,
                    _ => 1,
                };
            }
        }
    };
    handle.shutdown().await;
    if stopped_by != Some(SIGHUP) {
        let renderer = Renderer::new(Detail::Normal);
        // Not `eprintln!`: it panics when stderr fails.
        let _ = writeln!(
            std::io::stderr(),
            "{}",
            renderer.dim(&summary.process_usage_line())
        );
    }
    if let Some(session) = restart
        && stopped_by.is_none()
    {
        // The transcript stays in the scrollback; the new run starts below
        // it with the same flags, on the chosen (or a new) session.
        let args = restart_args(std::env::args_os().skip(1), session.as_deref());
        let err = match std::env::current_exe() {
            Ok(exe) => exec_restart(std::process::Command::new(exe).args(args)),
            Err(e) => e,
        };
        eprintln!("error: cannot restart wright: {err}");
        return 1;
    }
    stopped_by.map_or(code, crate::signals::exit_for)
}

/// Replaces this process with `cmd`; returns only on failure. Windows
/// cannot replace a process: the new run is waited for and its status
/// passed on.
fn exec_restart(cmd: &mut std::process::Command) -> std::io::Error {
    #[cfg(unix)]
    {
        std::os::unix::process::CommandExt::exec(cmd)
    }
    #[cfg(not(unix))]
    {
        match cmd.status() {
            Ok(status) => std::process::exit(status.code().unwrap_or(1)),
            Err(e) => e,
        }
    }
}

/// This run's arguments without its session choice, plus `--resume ID`
/// when one is given.
fn restart_args(
    args: impl Iterator<Item = std::ffi::OsString>,
    resume: Option<&str>,
) -> Vec<std::ffi::OsString> {
    let mut out = Vec::new();
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        match text.as_ref() {
            "-c" | "--continue" | "--fork-session" => {}
            // `-r` may come alone (the picker): an option after it is kept.
            "-r" | "--resume" => {
                if args
                    .peek()
                    .is_some_and(|a| !a.to_string_lossy().starts_with('-'))
                {
                    args.next();
                }
            }
            "--session-id" => {
                args.next();
            }
            t if t.starts_with("--resume=") || t.starts_with("--session-id=") => {}
            _ => out.push(arg),
        }
    }
    if let Some(id) = resume {
        out.push("--resume".into());
        out.push(id.into());
    }
    out
}

/// The `/context` report, as the line mode shows it.
fn context_report(
    view: Option<&crate::setup::ContextView>,
    jobs: &[wright_tools::JobInfo],
    last_request_tokens: u64,
) -> String {
    let mut parts = Vec::new();
    if let Some(view) = view {
        let context = wright_context::assemble(&view.inputs);
        let used = (last_request_tokens > 0).then_some((last_request_tokens, view.window));
        parts.push(wright_context::render_report(&context, &view.tools, used));
        parts.push(view.extensions.clone());
    }
    if let Some(report) = super::interactive::jobs_report(jobs) {
        parts.push(report);
    }
    parts.join("\n")
}

/// This directory's sessions for the `/resume` picker, newest first,
/// without the one running.
fn sessions(cwd: &Path, current: Option<&str>) -> HostReply {
    let store = match crate::sessions::store() {
        Ok(store) => store,
        Err(e) => return HostReply::Error(e.to_string()),
    };
    let now = chrono::Utc::now();
    let entries = store
        .list(Some(cwd))
        .into_iter()
        .filter(|s| Some(s.id.as_str()) != current)
        .map(|s| SessionEntry {
            age: chrono::DateTime::parse_from_rfc3339(&s.updated)
                .map(|t| age(now.signed_duration_since(t.with_timezone(&chrono::Utc))))
                .unwrap_or_else(|_| s.updated.clone()),
            size: format!("{} turn{}", s.turns, if s.turns == 1 { "" } else { "s" }),
            first_prompt: s.title,
            id: s.id,
        })
        .collect();
    HostReply::Sessions(entries)
}

/// `just now`, `5m ago`, `3h ago`, `2d ago`.
fn age(d: chrono::TimeDelta) -> String {
    let mins = d.num_minutes();
    match mins {
        ..1 => "just now".to_owned(),
        1..60 => format!("{mins}m ago"),
        60..1440 => format!("{}h ago", mins / 60),
        _ => format!("{}d ago", mins / 1440),
    }
}

/// The branch checked out in `root`, read from `.git/HEAD` (a worktree's
/// `.git` file points to its git dir); `None` outside git or detached.
pub fn git_branch(root: &Path) -> Option<String> {
    let dot_git = root.join(".git");
    let git_dir = if dot_git.is_file() {
        let text = std::fs::read_to_string(&dot_git).ok()?;
        let dir = text.strip_prefix("gitdir:")?.trim();
        root.join(dir)
    } else {
        dot_git
    };
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    head.trim()
        .strip_prefix("ref: refs/heads/")
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branch_from_head_or_a_worktree_pointer() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(git_branch(dir.path()), None);
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        std::fs::write(dir.path().join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        assert_eq!(git_branch(dir.path()).as_deref(), Some("main"));
        let wt = tempfile::tempdir().unwrap();
        std::fs::write(
            wt.path().join(".git"),
            format!("gitdir: {}\n", dir.path().join(".git").display()),
        )
        .unwrap();
        assert_eq!(git_branch(wt.path()).as_deref(), Some("main"));
    }

    #[test]
    fn restarts_drop_the_old_session_choice() {
        let args = [
            "--model",
            "m",
            "-c",
            "--resume",
            "abc",
            "--fork-session",
            "--session-id=x",
        ]
        .map(std::ffi::OsString::from);
        let out = restart_args(args.clone().into_iter(), Some("def"));
        assert_eq!(
            out,
            ["--model", "m", "--resume", "def"].map(std::ffi::OsString::from)
        );
        let out = restart_args(args.into_iter(), None);
        assert_eq!(out, ["--model", "m"].map(std::ffi::OsString::from));
        let picked = ["-r", "--model", "m"].map(std::ffi::OsString::from);
        let out = restart_args(picked.into_iter(), Some("def"));
        assert_eq!(
            out,
            ["--model", "m", "--resume", "def"].map(std::ffi::OsString::from)
        );
    }

    #[test]
    fn ages_read_naturally() {
        assert_eq!(age(chrono::TimeDelta::seconds(20)), "just now");
        assert_eq!(age(chrono::TimeDelta::minutes(125)), "2h ago");
        assert_eq!(age(chrono::TimeDelta::days(3)), "3d ago");
    }
}
