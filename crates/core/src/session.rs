//! The session actor: owns the conversation, takes `Op`s, runs one user turn
//! at a time, and keeps listening for `Interrupt` while a turn runs.

use std::collections::VecDeque;
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use wright_hooks::hook::HookPayload;
use wright_llm::ModelClient;
use wright_permissions::Mode;
use wright_protocol::{AgentPath, ContentBlock, Event, EventKind, Message, Op};
use wright_store::SessionWriter;
use wright_tools::ToolRegistry;

use crate::approval::Gate;
use crate::context::{StopRequest, Totals, TurnContext};
use crate::emitter::Emitter;
use crate::hook_points;
use crate::manual::{compact_now, rewind, rewind_files};
use crate::options::SessionOptions;
use crate::recorder::Recorder;
use crate::turn::{Conversation, Prompt, run_turn};
use crate::user_shell::run_user_shell;

/// Longest wait for a session to stop its background commands at the end.
const SHUTDOWN_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The front end's side of a running session.
pub struct SessionHandle {
    ops: mpsc::Sender<Op>,
    /// Events from the core, lossless and in order.
    pub events: mpsc::UnboundedReceiver<Event>,
}

impl SessionHandle {
    /// Sends an op; fails only when the session has ended.
    pub async fn submit(&self, op: Op) -> Result<(), SessionEnded> {
        self.ops.send(op).await.map_err(|_| SessionEnded)
    }

    /// Ends the session and waits (a bounded time) until it has stopped
    /// what it still runs, such as background commands; later events are
    /// dropped.
    pub async fn shutdown(&mut self) {
        if self.ops.send(Op::Shutdown).await.is_err() {
            return;
        }
        let drained = async { while self.events.recv().await.is_some() {} };
        let _ = tokio::time::timeout(SHUTDOWN_WAIT, drained).await;
    }

    /// A sender for ops, for tasks such as a Ctrl-C handler.
    pub fn op_sender(&self) -> mpsc::Sender<Op> {
        self.ops.clone()
    }
}

/// The session has stopped and takes no more ops.
#[derive(Debug, thiserror::Error)]
#[error("the session has ended")]
pub struct SessionEnded;

/// Where a session is recorded and what it already holds (for a resume).
#[derive(Default)]
pub struct Persistence {
    /// The session file's writer; `None` keeps the session in memory only.
    pub writer: Option<SessionWriter>,
    /// The conversation so far, exactly as last sent.
    pub history: Vec<Message>,
    /// Usage recorded so far (a resumed session's budget counts it).
    pub usage: wright_protocol::Usage,
    /// Cost recorded so far in USD.
    pub cost_usd: f64,
}

/// Starts a session actor on the current Tokio runtime.
pub fn spawn_session(
    options: SessionOptions,
    client: Arc<dyn ModelClient>,
    tools: Arc<ToolRegistry>,
    persistence: Persistence,
) -> SessionHandle {
    let (op_tx, op_rx) = mpsc::channel(64);
    let (ev_tx, ev_rx) = mpsc::unbounded_channel();
    let emitter = Emitter::new(options.session_id.clone(), AgentPath::root(), ev_tx);
    let tools = crate::toolbox::ToolBox::new(
        tools,
        options.extensions.mcp.clone(),
        options.extensions.agents.clone(),
    );
    emitter.emit(EventKind::SessionConfigured {
        model: options.model.clone(),
        provider: client.provider().to_owned(),
        cwd: options.cwd.display().to_string(),
        tools: tools.names(),
        permission_mode: options.policy.mode.as_str().to_owned(),
        context_window: options.compaction.context_window,
    });
    let model = options.model.clone();
    let gate = Arc::new(Gate::new(
        options.policy.clone(),
        options.local_config.clone(),
    ));
    let mut writer = persistence.writer;
    if let Some(w) = writer.as_mut() {
        // A rewind restores only beneath this run's roots, whatever root
        // an entry of the (editable) session file names.
        w.set_roots(options.policy.workspace_roots.iter().cloned());
    }
    let recorder = Recorder::new(writer);
    let actor = Actor {
        ctx: TurnContext {
            gate,
            checkpoints: recorder.share(),
            recorder,
            options,
            client,
            tools,
            emitter,
            totals: Arc::new(std::sync::Mutex::new(Totals {
                usage: persistence.usage,
                cost_usd: persistence.cost_usd,
            })),
            own: std::sync::Mutex::default(),
            role: crate::context::Role::Root,
            child_gates: Arc::default(),
            file_locks: Arc::default(),
            stop: StopRequest::default(),
            presented_plan: Default::default(),
            steering: Default::default(),
            pending_context: std::sync::Mutex::default(),
            live: std::sync::Mutex::default(),
        },
        conversation: Conversation {
            messages: Arc::new(persistence.history),
            model,
            ..Conversation::default()
        },
    };
    tokio::spawn(actor.run(op_rx));
    SessionHandle {
        ops: op_tx,
        events: ev_rx,
    }
}

fn set_mode(ctx: &TurnContext, mode: &str) {
    match Mode::parse(mode) {
        Ok(mode) => {
            ctx.gate.set_mode(mode);
            ctx.emitter.mode_changed(mode.as_str());
        }
        Err(e) => ctx.emitter.error(e),
    }
}

/// Records a model or thinking change for the next model request (the
/// turn loop applies a model switch before each request) and says so.
fn set_live(ctx: &TurnContext, op: Op) {
    let Ok(mut live) = ctx.live.lock() else {
        ctx.emitter
            .error("cannot change the model settings now".to_owned());
        return;
    };
    match op {
        Op::SetModel { model } => {
            let model = model.map(|m| m.trim().to_owned()).filter(|m| !m.is_empty());
            let name = model.clone().unwrap_or_else(|| ctx.options.model.clone());
            live.model = Some(model);
            ctx.emitter.notice(format!(
                "Model is now `{name}` (from the next model request)."
            ));
            // A typo is said now, not found at the next request.
            if !ctx.options.catalog.lookup(&name).is_known() {
                let known = ctx.options.catalog.list();
                let near = wright_config::closest(&name, known.iter().map(|m| m.name.as_str()))
                    .map(|n| format!(" Did you mean `{n}`?"))
                    .unwrap_or_default();
                ctx.emitter.warning(format!(
                    "`{name}` is not a model wright knows: its window and prices are assumed.{near}"
                ));
            }
        }
        Op::SetMaxThinkingTokens { tokens } => {
            let tokens = tokens.filter(|n| *n > 0).map(|n| {
                // The smallest budget providers accept.
                n.max(MIN_THINKING_TOKENS)
            });
            live.thinking = Some(tokens);
            let text = match tokens {
                Some(n) => {
                    format!("Thinking budget is now {n} tokens (from the next model request).")
                }
                None => "Thinking is now off (from the next model request).".to_owned(),
            };
            ctx.emitter.notice(text);
        }
        _ => {}
    }
}

/// Anthropic's smallest extended-thinking budget.
const MIN_THINKING_TOKENS: u32 = 1024;

struct Actor {
    ctx: TurnContext,
    conversation: Conversation,
}

/// Work that runs one at a time, in order.
enum Work {
    /// Text, images, and the program's id of the prompt.
    Turn(String, Vec<ContentBlock>, Option<String>),
    Compact(Option<String>),
    Rewind(Option<u32>, bool),
    /// A program's user message id, and whether only to preview.
    RewindFiles(String, bool),
    /// `!cmd`: a command the user typed.
    Shell(String),
    /// A steering message whose turn ended before it was delivered.
    Steered(Prompt),
    /// A prompt with images, a program's id or the form it was typed in.
    Prompt(Prompt),
}

impl Actor {
    async fn run(mut self, mut ops: mpsc::Receiver<Op>) {
        let mut queued: VecDeque<Work> = VecDeque::new();
        let start = self.ctx.options.extensions.start;
        hook_points::session_start(&self.ctx, start, &CancellationToken::new()).await;
        loop {
            let work = match queued.pop_front() {
                Some(work) => work,
                None => match ops.recv().await {
                    Some(Op::Interrupt | Op::ResolveApproval { .. }) => continue,
                    Some(Op::SetPermissionMode { mode }) => {
                        set_mode(&self.ctx, &mode);
                        continue;
                    }
                    Some(op @ (Op::SetModel { .. } | Op::SetMaxThinkingTokens { .. })) => {
                        set_live(&self.ctx, op);
                        continue;
                    }
                    Some(Op::Shutdown) | None => break,
                    Some(op) => match work_of(op) {
                        Some(work) => work,
                        None => continue,
                    },
                },
            };
            let cancel = CancellationToken::new();
            let mut shutdown = false;
            {
                let job = run_work(&self.ctx, &mut self.conversation, work, cancel.clone());
                tokio::pin!(job);
                loop {
                    tokio::select! {
                        () = &mut job => break,
                        op = ops.recv(), if !shutdown => match op {
                            Some(Op::Interrupt) => cancel.cancel(),
                            Some(Op::ResolveApproval { id, decision }) => {
                                crate::context::resolve_approval(&self.ctx, &id, decision);
                            }
                            Some(Op::SetPermissionMode { mode }) => set_mode(&self.ctx, &mode),
                            Some(op @ (Op::SetModel { .. } | Op::SetMaxThinkingTokens { .. })) => {
                                set_live(&self.ctx, op);
                            }
                            Some(Op::Shutdown) | None => {
                                cancel.cancel();
                                shutdown = true;
                            }
                            Some(Op::Steer { text, images, uuid }) => {
                                if let Ok(mut steering) = self.ctx.steering.lock() {
                                    steering.push(Prompt {
                                        text,
                                        images: only_images(images),
                                        uuid,
                                        typed: None,
                                    });
                                }
                            }
                            Some(op) => queued.extend(work_of(op)),
                        },
                    }
                }
            }
            if shutdown {
                break;
            }
            settle_steering(&self.ctx, &mut queued, cancel.is_cancelled());
        }
        // Background commands never outlive the session, and are gone (with
        // anything they planted in .git) before the user's hooks run
        // unsandboxed, however long those take.
        // MCP servers are closed alongside (stdin EOF, then their group is
        // killed after a grace period).
        let mcp = async {
            if let Some(mcp) = self.ctx.tools.mcp() {
                mcp.manager.shutdown().await;
            }
        };
        tokio::join!(self.ctx.options.jobs.kill_all(), mcp);
        let end = HookPayload::SessionEnd {
            reason: "other".to_owned(),
        };
        if hook_points::any(&self.ctx, &end) {
            hook_points::run(&self.ctx, end, &CancellationToken::new()).await;
        }
    }
}

fn only_images(blocks: Vec<ContentBlock>) -> Vec<ContentBlock> {
    blocks
        .into_iter()
        .filter(|b| matches!(b, ContentBlock::Image { .. }))
        .collect()
}

/// After a turn: its undelivered steering messages start the next turns,
/// in order, before anything queued; an interrupted turn withdraws them.
fn settle_steering(ctx: &TurnContext, queued: &mut VecDeque<Work>, interrupted: bool) {
    let pending: Vec<Prompt> = ctx
        .steering
        .lock()
        .map(|mut s| std::mem::take(&mut *s))
        .unwrap_or_default();
    if pending.is_empty() {
        return;
    }
    if interrupted {
        ctx.emitter.emit(EventKind::SteeringWithdrawn {
            texts: pending.into_iter().map(|p| p.text).collect(),
        });
        return;
    }
    for prompt in pending.into_iter().rev() {
        queued.push_front(Work::Steered(prompt));
    }
}

fn work_of(op: Op) -> Option<Work> {
    match op {
        Op::UserTurn { text } => Some(Work::Turn(text, Vec::new(), None)),
        Op::UserTurnWithImages {
            text,
            images,
            uuid,
            typed,
        } => Some(Work::Prompt(Prompt {
            text,
            images: only_images(images),
            uuid,
            typed,
        })),
        // Nothing runs to steer: the message starts a turn of its own.
        Op::Steer { text, images, uuid } => Some(Work::Steered(Prompt {
            text,
            images: only_images(images),
            uuid,
            typed: None,
        })),
        Op::Compact { focus } => Some(Work::Compact(focus)),
        Op::Rewind { turn, dry_run } => Some(Work::Rewind(turn, dry_run)),
        Op::RewindFiles {
            user_message_id,
            dry_run,
        } => Some(Work::RewindFiles(user_message_id, dry_run)),
        Op::UserShell { command } => Some(Work::Shell(command)),
        Op::Interrupt
        | Op::ResolveApproval { .. }
        | Op::SetPermissionMode { .. }
        | Op::SetModel { .. }
        | Op::SetMaxThinkingTokens { .. }
        | Op::Shutdown => None,
    }
}

async fn run_work(
    ctx: &TurnContext,
    conv: &mut Conversation,
    work: Work,
    cancel: CancellationToken,
) {
    match work {
        Work::Turn(text, images, uuid) => {
            let prompt = Prompt {
                text,
                images,
                uuid,
                typed: None,
            };
            run_turn(ctx, conv, prompt, cancel).await;
        }
        Work::Prompt(prompt) => {
            run_turn(ctx, conv, prompt, cancel).await;
        }
        Work::Steered(prompt) => {
            ctx.emitter.emit(EventKind::Steered {
                text: prompt.text.clone(),
            });
            run_turn(ctx, conv, prompt, cancel).await;
        }
        Work::Compact(focus) => compact_now(ctx, conv, focus, cancel).await,
        Work::Rewind(turn, dry_run) => rewind(ctx, conv, turn, dry_run),
        Work::RewindFiles(id, dry_run) => rewind_files(ctx, &id, dry_run),
        Work::Shell(command) => run_user_shell(ctx, conv, command, cancel).await,
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
