//! The session actor: owns the conversation, takes `Op`s, runs one user turn
//! at a time, and keeps listening for `Interrupt` while a turn runs.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use wright_context::ContextInputs;
use wright_hooks::hook::{HookEnv, HookPayload, Hooks, SessionStartSource};
use wright_hooks::verify::Verifier;
use wright_llm::{Catalog, ModelClient, ReasoningEffort, RetryPolicy};
use wright_permissions::{Mode, PolicyInput};
use wright_protocol::{AgentPath, Event, EventKind, Message, Op};
use wright_sandbox::SandboxContext;
use wright_store::SessionWriter;
use wright_tools::{BackgroundJobs, OutputLimits, ToolRegistry};

use crate::approval::Gate;
use crate::compaction::CompactionOptions;
use crate::emitter::Emitter;
use crate::recorder::Recorder;
use crate::turn::{Conversation, Totals, TurnContext, compact_now, rewind, run_turn};

/// Everything a session needs besides its services.
#[derive(Debug, Clone)]
pub struct SessionOptions {
    /// Session id (a UUIDv7 string).
    pub session_id: String,
    /// Model name sent with each request.
    pub model: String,
    /// Working directory; tools resolve relative paths against it.
    pub cwd: PathBuf,
    /// The system prompt, fixed or re-assembled each turn.
    pub system_prompt: SystemPrompt,
    /// Model prices and windows, for cost.
    pub catalog: Arc<Catalog>,
    /// When to retry a failed request.
    pub retry: RetryPolicy,
    /// Model to switch to after repeated overload errors.
    pub fallback_model: Option<String>,
    /// Reasoning effort for models that take one.
    pub reasoning_effort: Option<ReasoningEffort>,
    /// Extended-thinking budget (Anthropic).
    pub thinking_budget: Option<u32>,
    /// When and how to compact.
    pub compaction: CompactionOptions,
    /// Output token cap per request.
    pub max_tokens: u32,
    /// Model requests allowed per user turn.
    pub max_turns: u32,
    /// Stop before the next request once the session has cost this much (USD).
    pub max_budget_usd: Option<f64>,
    /// Permission mode, rules, workspace roots and whether approvals can be asked.
    pub policy: PolicyInput,
    /// Where "always allow for this project" rules are written.
    pub local_config: PathBuf,
    /// The OS sandbox for shell commands, when one applies.
    pub sandbox: Option<SandboxContext>,
    /// Output limits and timeouts for tools.
    pub limits: OutputLimits,
    /// Where tools spill outputs too large for the model.
    pub spill_dir: PathBuf,
    /// The session's background commands: shared with the front end (for
    /// `/context`), stopped when the session ends.
    pub jobs: Arc<BackgroundJobs>,
    /// User hooks and the verifier.
    pub extensions: Extensions,
}

/// User hooks (Claude Code's contract) and the same-turn verifier.
#[derive(Debug, Clone)]
pub struct Extensions {
    /// The merged hooks; empty runs none.
    pub hooks: Arc<Hooks>,
    /// Where hooks run (the project root) and what they must not see.
    pub hook_env: HookEnv,
    /// How the session started, for `SessionStart` hooks.
    pub start: SessionStartSource,
    /// The checker run after edits; `None` when the verifier is off.
    pub verifier: Option<Arc<Verifier>>,
}

impl Extensions {
    /// No hooks and no verifier, for a session in `project_dir`.
    pub fn none(project_dir: impl Into<PathBuf>) -> Self {
        Self {
            hooks: Arc::default(),
            hook_env: HookEnv::new(project_dir),
            start: SessionStartSource::Startup,
            verifier: None,
        }
    }
}

/// Where the system prompt comes from.
#[derive(Debug, Clone)]
pub enum SystemPrompt {
    /// This text, every turn.
    Fixed(String),
    /// Assembled from these inputs at the start of every turn, so edits to
    /// instruction files take effect.
    Assembled(Box<ContextInputs>),
}

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
    emitter.emit(EventKind::SessionConfigured {
        model: options.model.clone(),
        provider: client.provider().to_owned(),
        cwd: options.cwd.display().to_string(),
        tools: tools.names().iter().map(|n| (*n).to_owned()).collect(),
        permission_mode: options.policy.mode.as_str().to_owned(),
    });
    let model = options.model.clone();
    let gate = Gate::new(options.policy.clone(), options.local_config.clone());
    let tool_specs = tools.specs().to_vec();
    let tool_chars = tool_specs
        .iter()
        .map(|s| s.input_schema.to_string().len() + s.description.len() + s.name.len())
        .sum();
    let actor = Actor {
        ctx: TurnContext {
            gate,
            recorder: Recorder::new(persistence.writer),
            options,
            client,
            tools,
            tool_specs,
            tool_chars,
            emitter,
            totals: std::sync::Mutex::new(Totals {
                usage: persistence.usage,
                cost_usd: persistence.cost_usd,
            }),
            stop: crate::hook_points::StopRequest::default(),
            pending_context: std::sync::Mutex::default(),
        },
        conversation: Conversation {
            messages: persistence.history,
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
            ctx.emitter
                .warning(format!("Permission mode is now `{}`.", mode.as_str()));
        }
        Err(e) => ctx.emitter.error(e),
    }
}

struct Actor {
    ctx: TurnContext,
    conversation: Conversation,
}

/// Work that runs one at a time, in order.
enum Work {
    Turn(String),
    Compact(Option<String>),
    Rewind(Option<u32>),
}

impl Actor {
    async fn run(mut self, mut ops: mpsc::Receiver<Op>) {
        let mut queued: VecDeque<Work> = VecDeque::new();
        let start = self.ctx.options.extensions.start;
        crate::hook_points::session_start(&self.ctx, start, &CancellationToken::new()).await;
        loop {
            let work = match queued.pop_front() {
                Some(work) => work,
                None => match ops.recv().await {
                    Some(Op::Interrupt | Op::ResolveApproval { .. }) => continue,
                    Some(Op::SetPermissionMode { mode }) => {
                        set_mode(&self.ctx, &mode);
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
                                self.ctx.gate.resolve(&id, decision);
                            }
                            Some(Op::SetPermissionMode { mode }) => set_mode(&self.ctx, &mode),
                            Some(Op::Shutdown) | None => {
                                cancel.cancel();
                                shutdown = true;
                            }
                            Some(op) => queued.extend(work_of(op)),
                        },
                    }
                }
            }
            if shutdown {
                break;
            }
        }
        let end = HookPayload::SessionEnd {
            reason: "other".to_owned(),
        };
        if crate::hook_points::any(&self.ctx, &end) {
            crate::hook_points::run(&self.ctx, end, &CancellationToken::new()).await;
        }
        // Background commands never outlive the session.
        self.ctx.options.jobs.kill_all().await;
    }
}

fn work_of(op: Op) -> Option<Work> {
    match op {
        Op::UserTurn { text } => Some(Work::Turn(text)),
        Op::Compact { focus } => Some(Work::Compact(focus)),
        Op::Rewind { turn } => Some(Work::Rewind(turn)),
        Op::Interrupt
        | Op::ResolveApproval { .. }
        | Op::SetPermissionMode { .. }
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
        Work::Turn(text) => run_turn(ctx, conv, text, cancel).await,
        Work::Compact(focus) => compact_now(ctx, conv, focus, cancel).await,
        Work::Rewind(turn) => rewind(ctx, conv, turn),
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
