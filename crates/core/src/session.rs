//! The session actor: owns the conversation, takes `Op`s, runs one user turn
//! at a time, and keeps listening for `Interrupt` while a turn runs.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use wright_config::PermissionMode;
use wright_llm::ModelClient;
use wright_protocol::{AgentPath, Event, EventKind, Message, Op};
use wright_tools::{OutputLimits, ToolRegistry};

use crate::emitter::Emitter;
use crate::turn::{Totals, TurnContext, run_turn};

/// Everything a session needs besides its services.
#[derive(Debug, Clone)]
pub struct SessionOptions {
    /// Session id (a UUIDv7 string).
    pub session_id: String,
    /// Model name sent with each request.
    pub model: String,
    /// Working directory; tools resolve relative paths against it.
    pub cwd: PathBuf,
    /// The assembled system prompt.
    pub system_prompt: String,
    /// Output token cap per request.
    pub max_tokens: u32,
    /// Model requests allowed per user turn.
    pub max_turns: u32,
    /// Stop before the next request once the session has cost this much (USD).
    pub max_budget_usd: Option<f64>,
    /// Permission mode in force.
    pub permission_mode: PermissionMode,
    /// Output limits and timeouts for tools.
    pub limits: OutputLimits,
    /// Where tools spill outputs too large for the model.
    pub spill_dir: PathBuf,
}

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

    /// A sender for ops, for tasks such as a Ctrl-C handler.
    pub fn op_sender(&self) -> mpsc::Sender<Op> {
        self.ops.clone()
    }
}

/// The session has stopped and takes no more ops.
#[derive(Debug, thiserror::Error)]
#[error("the session has ended")]
pub struct SessionEnded;

/// Starts a session actor on the current Tokio runtime.
pub fn spawn_session(
    options: SessionOptions,
    client: Arc<dyn ModelClient>,
    tools: Arc<ToolRegistry>,
) -> SessionHandle {
    let (op_tx, op_rx) = mpsc::channel(64);
    let (ev_tx, ev_rx) = mpsc::unbounded_channel();
    let emitter = Emitter::new(options.session_id.clone(), AgentPath::root(), ev_tx);
    emitter.emit(EventKind::SessionConfigured {
        model: options.model.clone(),
        provider: client.provider().to_owned(),
        cwd: options.cwd.display().to_string(),
        tools: tools.names().iter().map(|n| (*n).to_owned()).collect(),
        permission_mode: options.permission_mode.as_str().to_owned(),
    });
    let actor = Actor {
        ctx: TurnContext {
            options,
            client,
            tools,
            emitter,
            totals: std::sync::Mutex::new(Totals::default()),
        },
        history: Vec::new(),
    };
    tokio::spawn(actor.run(op_rx));
    SessionHandle {
        ops: op_tx,
        events: ev_rx,
    }
}

struct Actor {
    ctx: TurnContext,
    history: Vec<Message>,
}

impl Actor {
    async fn run(mut self, mut ops: mpsc::Receiver<Op>) {
        let mut queued: VecDeque<String> = VecDeque::new();
        loop {
            let text = match queued.pop_front() {
                Some(text) => text,
                None => match ops.recv().await {
                    Some(Op::UserTurn { text }) => text,
                    Some(Op::Interrupt | Op::ResolveApproval { .. }) => continue,
                    Some(Op::Shutdown) | None => return,
                },
            };
            let cancel = CancellationToken::new();
            let mut shutdown = false;
            {
                let turn = run_turn(&self.ctx, &mut self.history, text, cancel.clone());
                tokio::pin!(turn);
                loop {
                    tokio::select! {
                        () = &mut turn => break,
                        op = ops.recv(), if !shutdown => match op {
                            Some(Op::UserTurn { text }) => queued.push_back(text),
                            Some(Op::Interrupt) => cancel.cancel(),
                            Some(Op::ResolveApproval { .. }) => {}
                            Some(Op::Shutdown) | None => {
                                cancel.cancel();
                                shutdown = true;
                            }
                        },
                    }
                }
            }
            if shutdown {
                return;
            }
        }
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
