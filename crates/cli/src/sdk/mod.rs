//! `--input-format stream-json`: wright driven by a program over stdin and
//! stdout, as the Claude Agent SDK drives Claude Code. User messages are
//! turns (queued while one runs); control requests are answered at once,
//! even mid-turn (`interrupt`, `set_permission_mode`, `mcp_status`, …);
//! wright's own requests go the other way: `can_use_tool` for every
//! approval when `--permission-prompt-tool stdio` is given, and
//! `hook_callback` for the hooks the program registered at `initialize`.
//! The session starts after `initialize` (when the program sends one
//! first), so its hooks are part of the session from the first turn.

mod commands;
pub(crate) mod control;
mod mcp_relay;
pub(crate) mod peer;
mod rewind;
mod session_control;
mod wire;

pub use commands::SlashCommands;
pub use mcp_relay::ProgramRelay;
pub use peer::Peer;

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::mpsc;
use wright_config::Settings;
use wright_protocol::{ContentBlock, EventKind, Op, TurnEndReason};

use crate::approver::Approver;
use crate::exit;
use crate::setup::{self, Launch};
use crate::signals::spawn_interrupt_handler;
use crate::stream_json::lines::{stamp, system};
use crate::stream_json::{InitExtras, StreamJson};
use crate::summary::RunSummary;
use peer::{respond, write_line, write_lines};
use wire::Incoming;

/// How the program drives the run.
#[derive(Debug, Clone, Default)]
pub struct SdkOptions {
    /// `--include-partial-messages`.
    pub partial: bool,
    /// `--permission-prompt-tool`: `stdio` asks the program, any other
    /// name is an MCP tool.
    pub prompt_tool: Option<String>,
    /// `--replay-user-messages`: each user message is echoed back.
    pub replay_user_messages: bool,
}

/// What the init line lists beyond the core's events: the slash commands
/// and the agent types of this launch.
pub fn init_extras(launch: &Launch, commands: &SlashCommands) -> InitExtras {
    InitExtras {
        slash_commands: commands.names(),
        agents: launch
            .extensions
            .as_ref()
            .and_then(|p| p.agents.as_ref())
            .map(|a| a.defs.iter().map(|d| d.name.clone()).collect())
            .unwrap_or_default(),
        api_key_source: String::new(),
    }
}

/// Runs the session until stdin closes and the last turn ended; returns
/// the exit code. `peer` carries wright's requests to the program; it
/// exists before the session so the MCP servers, which start earlier, can
/// reach the program's own servers through it ([`ProgramRelay`]).
pub async fn run(
    settings: &Settings,
    mut launch: Launch,
    cwd: &Path,
    project_root: &Path,
    options: SdkOptions,
    peer: Arc<Peer>,
) -> anyhow::Result<u8> {
    let mut input = wire::spawn_reader(Arc::clone(&peer));
    let mut queue: VecDeque<(String, Vec<ContentBlock>, Value)> = VecDeque::new();
    let mut bad_before_start = false;
    // What went wrong before the session existed: written, with its id,
    // right after the init line.
    let mut early: Vec<Value> = Vec::new();
    // The program's `initialize` comes first when it sends one; nothing
    // else may start the session before it, or its hooks would miss it.
    let mut initialize: Option<String> = None;
    let mut closed = false;
    loop {
        match input.recv().await {
            None => {
                closed = true;
                break;
            }
            Some(Incoming::Control { id, request }) if request["subtype"] == "initialize" => {
                let (defs, warnings) = control::hooks_of(&request);
                for w in &warnings {
                    early.push(system("", "warning", w));
                }
                if !defs.is_empty() && launch.extensions.is_none() {
                    early.push(system(
                        "",
                        "warning",
                        "this run has no hooks; the program's hook callbacks are not registered",
                    ));
                }
                if !defs.is_empty()
                    && let Some(plan) = launch.extensions.as_mut()
                {
                    let mut all: Vec<_> = plan.hooks.defs().cloned().collect();
                    all.extend(defs);
                    let (hooks, warnings) = wright_hooks::hook::Hooks::new(all);
                    for w in &warnings {
                        early.push(system("", "warning", w));
                    }
                    plan.hooks = Arc::new(hooks);
                    plan.hook_env.callbacks = Some(wright_hooks::hook::CallbackChannel(Arc::new(
                        peer::SdkHooks(Arc::clone(&peer)),
                    )));
                }
                if request["agents"].is_object()
                    && let Some(plan) = launch.extensions.as_mut()
                    && let Some(current) = &plan.agents
                {
                    match wright_context::agents_from_json(&request["agents"].to_string()) {
                        Ok(added) => {
                            let mut defs = current.defs.clone();
                            for def in added {
                                match defs.iter_mut().find(|d| d.name == def.name) {
                                    Some(slot) => *slot = def,
                                    None => defs.push(def),
                                }
                            }
                            plan.agents = Some(Arc::new(crate::setup::agent_types(
                                defs,
                                settings,
                                project_root,
                            )));
                        }
                        Err(e) => {
                            let e = format!("initialize: agents: {e}");
                            respond(&id, Err(e.clone()));
                            return Err(crate::exit::UsageError(e).into());
                        }
                    }
                }
                initialize = Some(id);
                break;
            }
            Some(Incoming::Control { id, request }) => respond(
                &id,
                Err(format!(
                    "{} before the session started: send initialize or a user message first",
                    request["subtype"]
                )),
            ),
            Some(Incoming::User { text, images, line }) => {
                queue.push_back((text, images, line));
                break;
            }
            Some(Incoming::Bad(why)) => {
                eprintln!("error: {why}");
                early.push(system("", "error", &why));
                bad_before_start = true;
            }
        }
    }
    if options.prompt_tool.is_some() {
        launch.can_ask = wright_permissions::CanAsk::Yes;
    }
    let started = match setup::start(settings, &launch, cwd, project_root).await {
        Ok(started) => started,
        Err(e) => {
            if let Some(id) = &initialize {
                respond(id, Err(format!("{e:#}")));
            }
            return Err(e.into());
        }
    };
    let setup::Started {
        mut handle,
        notices,
        mcp,
        view,
        jobs,
        api_key_source,
        ..
    } = started;
    // The last model request's usage, for `get_context_usage`.
    let mut last_usage: Option<wright_protocol::Usage> = None;
    // Notices become `system` lines after the init line: nothing goes to
    // stderr as plain text in stream-json mode.
    early.extend(
        notices
            .iter()
            .map(|n| crate::stream_json::lines::notice_line("", n)),
    );
    if let Some(mcp) = &mcp {
        crate::mcp_start::wait_for_servers(mcp, |line| {
            early.push(crate::stream_json::lines::notice_line("", line));
        })
        .await;
    }
    let approver = match options.prompt_tool.as_deref() {
        None => None,
        Some("stdio") => Some(Approver::program(Arc::clone(&peer))),
        Some(tool) => match Approver::for_tool(tool, mcp.as_ref()) {
            Ok(a) => Some(a),
            Err(e) => {
                if let Some(id) = &initialize {
                    respond(id, Err(e.clone()));
                }
                handle.shutdown().await;
                return Err(crate::exit::UsageError(e).into());
            }
        },
    };
    let stop = spawn_interrupt_handler(handle.op_sender());
    let ops = handle.op_sender();
    let mut summary = RunSummary::new();
    let (commands, command_warnings) = SlashCommands::load(project_root, launch.setting_sources);
    early.extend(
        command_warnings
            .iter()
            .map(|w| crate::stream_json::lines::notice_line("", w)),
    );
    let mut extras = init_extras(&launch, &commands);
    extras.api_key_source = api_key_source.unwrap_or("none").to_owned();
    let mut mapper = StreamJson::new(options.partial)
        .with_mcp(mcp.as_ref().map(|m| Arc::clone(&m.manager)))
        .with_init(extras.clone());
    // The init line comes out before anything else of the session.
    while let Ok(event) = handle.events.try_recv() {
        summary.observe(&event);
        write_lines(&mapper.lines(&event));
    }
    for mut line in early {
        stamp(&mut line, summary.session_id());
        write_line(&line);
    }
    if let Some(id) = initialize.take() {
        respond(
            &id,
            Ok(control::initialize_reply(
                commands.described(),
                summary.model(),
                &extras.api_key_source,
            )),
        );
    }
    let mut code = if bad_before_start {
        exit::USAGE
    } else {
        exit::SUCCESS
    };
    let mut running = false;
    let mut ran_a_turn = false;
    // Messages sent into the running turn and not yet delivered: an
    // interrupt gives them back, and they run as turns of their own.
    let mut steered: Vec<(String, Vec<ContentBlock>, Value)> = Vec::new();
    // `rewind_files` requests the core is working on, oldest first.
    let mut rewinds: VecDeque<rewind::PendingRewind> = VecDeque::new();
    loop {
        if !running && let Some((text, images, line)) = queue.pop_front() {
            let sid = summary.session_id().to_owned();
            let mut echo = line;
            echo["isReplay"] = json!(true);
            echo["parent_tool_use_id"] = Value::Null;
            echo["session_id"] = json!(sid);
            stamp(&mut echo, &sid);
            if options.replay_user_messages {
                write_line(&echo);
            }
            // The message's uuid is recorded with the prompt, for
            // `rewind_files` now or after a resume.
            let uuid = echo["uuid"].as_str().map(str::to_owned);
            let op = commands.op(text, images, uuid);
            if handle.submit(op).await.is_err() {
                return Ok(exit::ERROR);
            }
            if stop.get().is_some() {
                let _ = handle.submit(Op::Interrupt).await;
            }
            running = true;
            ran_a_turn = true;
        }
        // A rewind still being done is answered before the end.
        // Messages steered into a turn that ended first run as turns of
        // their own: they are waited for too.
        if !running && closed && rewinds.is_empty() && steered.is_empty() {
            break;
        }
        tokio::select! {
            next = input.recv(), if !closed => match next {
                None => closed = true,
                // A message sent while a turn runs goes into it, with the
                // results of its next step (a `/compact` waits for it).
                Some(Incoming::User { text, images, line })
                    if running && queue.is_empty() && !text.trim_start().starts_with('/') =>
                {
                    let sid = summary.session_id().to_owned();
                    let mut echo = line.clone();
                    echo["isReplay"] = json!(true);
                    echo["parent_tool_use_id"] = Value::Null;
                    echo["session_id"] = json!(sid);
                    stamp(&mut echo, &sid);
                    if options.replay_user_messages {
                        write_line(&echo);
                    }
                    let uuid = echo["uuid"].as_str().map(str::to_owned);
                    let op = Op::Steer { text: text.clone(), images: images.clone(), uuid };
                    steered.push((text, images, line));
                    if handle.submit(op).await.is_err() {
                        return Ok(exit::ERROR);
                    }
                }
                Some(Incoming::User { text, images, line }) => {
                    queue.push_back((text, images, line));
                }
                Some(Incoming::Bad(why)) => {
                    eprintln!("error: {why}");
                    let mut line = system(summary.session_id(), "error", &why);
                    stamp(&mut line, summary.session_id());
                    write_line(&line);
                    if !ran_a_turn {
                        code = exit::USAGE;
                    }
                }
                Some(Incoming::Control { id, request }) => {
                    let answer = match request["subtype"].as_str().unwrap_or("") {
                        "rewind_files" => match rewind::start(&id, &request, running, &ops).await {
                            // Answered once the core has done it.
                            Ok(pending) => {
                                rewinds.push_back(pending);
                                continue;
                            }
                            Err(e) => Err(e),
                        },
                        // These may take as long as a server's start-up or a
                        // command's grace period: answered from a task so
                        // the session's events keep flowing meanwhile.
                        "mcp_reconnect" | "mcp_toggle" | "stop_task" => {
                            let (mcp, jobs) = (mcp.clone(), Arc::clone(&jobs));
                            tokio::spawn(async move {
                                let answer = match request["subtype"].as_str() {
                                    Some("mcp_reconnect") => session_control::mcp_reconnect(&request, mcp.as_ref()).await,
                                    Some("mcp_toggle") => session_control::mcp_toggle(&request, mcp.as_ref()).await,
                                    _ => session_control::stop_task(&request, &jobs).await,
                                };
                                respond(&id, answer);
                            });
                            continue;
                        }
                        "get_context_usage" => Ok(session_control::context_usage(
                            &session_control::ContextUse {
                                view: view.as_ref(),
                                last: last_usage.as_ref(),
                                model: summary.model(),
                                auto_compact: settings.context.auto_compact,
                            },
                        )),
                        _ => answer_control(&request, running, &ops, mcp.as_ref()).await,
                    };
                    respond(&id, answer);
                }
            },
            event = handle.events.recv() => {
                let Some(event) = event else { break };
                summary.observe(&event);
                if let EventKind::Usage { request, .. } = &event.kind
                    && event.agent.is_root()
                {
                    last_usage = Some(*request);
                }
                write_lines(&mapper.lines(&event));
                for later in rewinds.iter_mut().skip(1) {
                    later.arm(&event);
                }
                if let Some(answer) = rewinds.front_mut().and_then(|r| r.answer(&event))
                    && let Some(done) = rewinds.pop_front()
                {
                    respond(&done.request_id, answer);
                }
                if let Some(approver) = &approver {
                    approver.handle(&event, &ops);
                }
                match &event.kind {
                    // A steered message's own turn (its turn ended first).
                    EventKind::TurnStarted if event.agent.is_root() => running = true,
                    // Delivered into the running turn, or starting its own.
                    EventKind::Steered { text } => {
                        if let Some(i) = steered.iter().position(|(t, _, _)| t == text) {
                            steered.remove(i);
                        }
                        running = true;
                    }
                    EventKind::SteeringWithdrawn { texts } => {
                        let (back, kept): (Vec<_>, Vec<_>) =
                            steered.drain(..).partition(|(t, _, _)| texts.contains(t));
                        steered = kept;
                        for message in back.into_iter().rev() {
                            queue.push_front(message);
                        }
                    }
                    EventKind::TurnCompleted { reason, .. } if event.agent.is_root() => {
                        let mut result = summary.result(*reason);
                        stamp(&mut result, summary.session_id());
                        write_line(&result);
                        code = stop.exit_code(*reason);
                        running = false;
                        if stop.get().is_some() && *reason == TurnEndReason::Interrupted {
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    handle.shutdown().await;
    Ok(code)
}

/// Answers one control request of the program's.
async fn answer_control(
    request: &Value,
    running: bool,
    ops: &mpsc::Sender<Op>,
    mcp: Option<&wright_core::McpSetup>,
) -> Result<Value, String> {
    let subtype = request["subtype"].as_str().unwrap_or("");
    let send = |op: Op| async move {
        ops.send(op)
            .await
            .map_err(|_| "the session has ended".to_owned())
    };
    match subtype {
        "initialize" => Err(
            "initialize must come first: the session already started (on the first user message or an earlier initialize)"
                .to_owned(),
        ),
        "interrupt" => {
            if running {
                send(Op::Interrupt).await?;
            }
            Ok(json!({}))
        }
        "set_permission_mode" => {
            let asked = request["mode"].as_str().unwrap_or("");
            let mode = control::wright_mode(asked).ok_or_else(|| {
                format!("unknown permission mode \"{asked}\" (default, acceptEdits, plan, bypassPermissions, dontAsk)")
            })?;
            send(Op::SetPermissionMode {
                mode: mode.to_owned(),
            })
            .await?;
            Ok(json!({}))
        }
        "set_model" => {
            // `null` or "default" goes back to the configured model.
            let model = request["model"]
                .as_str()
                .filter(|m| !m.is_empty() && *m != "default")
                .map(str::to_owned);
            send(Op::SetModel { model }).await?;
            Ok(json!({}))
        }
        "set_max_thinking_tokens" => {
            let tokens = match &request["max_thinking_tokens"] {
                Value::Null => None,
                v => Some(
                    v.as_u64()
                        .and_then(|n| u32::try_from(n).ok())
                        .ok_or_else(|| {
                            format!("max_thinking_tokens must be a whole number, got {v}")
                        })?,
                ),
            };
            send(Op::SetMaxThinkingTokens { tokens }).await?;
            Ok(json!({}))
        }
        "mcp_status" => {
            let servers: Vec<Value> = mcp
                .map(|m| {
                    m.manager
                        .statuses()
                        .iter()
                        .map(|s| json!({"name": s.name, "status": crate::stream_json::lines::status_word(&s.status)}))
                        .collect()
                })
                .unwrap_or_default();
            Ok(json!({"mcpServers": servers}))
        }
        "" => Err("the control request has no subtype".to_owned()),
        other => Err(format!(
            "wright does not support the control request \"{other}\""
        )),
    }
}
