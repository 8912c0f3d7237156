//! One editor session's life: starting it through the backend (replaying
//! a loaded one), the event pump that moves its core events to the editor
//! and its permission questions to the core, and restarting it on the same
//! record with another model.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    PermissionOption, PermissionOptionKind, RequestPermissionOutcome, RequestPermissionRequest,
    SessionConfigOption, SessionNotification, SessionUpdate, ToolCallStatus, ToolCallUpdate,
    ToolCallUpdateFields,
};
use agent_client_protocol::{Client, Error};
use tokio::sync::{mpsc, oneshot};
use wright_protocol::{ApprovalDecision, Event, EventKind, Op};

use crate::backend::{Backend, BackendError, SessionRequest};
use crate::model_option;
use crate::modes;
use crate::replay;
use crate::updates::{Action, EventMapper, TurnOutcome};

/// Permission option ids (answers map back through these).
const ALLOW_ONCE: &str = "allow_once";
const ALLOW_ALWAYS: &str = "allow_always";
const REJECT: &str = "reject";

/// How long a session being restarted may take to stop.
const STOP_WAIT: Duration = Duration::from_secs(15);

/// One live session.
pub struct LiveSession {
    /// Ops into the core.
    pub ops: mpsc::Sender<Op>,
    /// The running prompt's answer channel; `Some` while a turn runs.
    pub turn: Mutex<Option<oneshot::Sender<TurnOutcome>>>,
    /// What started it (a restart starts it again, resuming its record).
    request: SessionRequest,
    /// The permission mode last chosen (a restart keeps it).
    pub mode: Mutex<String>,
    /// The model in use and the ones the editor may pick.
    model: String,
    models: Vec<String>,
    /// Closed when the pump has seen the core's last event.
    stopped: Mutex<Option<oneshot::Receiver<()>>>,
}

impl LiveSession {
    /// The model option with its current value.
    pub fn model_option(&self) -> SessionConfigOption {
        model_option::option(&self.model, &self.models)
    }
}

/// The live sessions by the id the editor uses.
pub type Sessions = Mutex<HashMap<String, Arc<LiveSession>>>;

/// Whether `session/load`'s history is sent to the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replay {
    /// Stream the recorded conversation first.
    Yes,
    /// The editor already shows it (a restart).
    No,
}

/// A started session, registered and pumping.
pub struct Opened {
    /// The id the editor uses.
    pub id: String,
    /// The permission mode it started in.
    pub mode: String,
    /// The session, as registered.
    pub live: Arc<LiveSession>,
}

/// Starts or resumes a session, replays a resumed one's history, and
/// starts its event pump.
pub async fn open_session(
    backend: &dyn Backend,
    sessions: &Sessions,
    request: SessionRequest,
    replay_history: Replay,
    cx: &ConnectionTo<Client>,
) -> Result<Opened, Error> {
    let cwd = request.cwd.clone();
    if !cwd.is_absolute() {
        return Err(Error::invalid_params().data("cwd must be an absolute path"));
    }
    let requested = request.resume.clone();
    if let Some(id) = &requested
        && replay_history == Replay::Yes
        && sessions.lock().is_ok_and(|s| s.contains_key(id))
    {
        return Err(Error::invalid_request().data(format!("session {id} is already open")));
    }
    let mut started = backend.start(request.clone()).await.map_err(|e| match e {
        BackendError::AuthRequired(m) => Error::auth_required().data(m),
        BackendError::NotFound(m) => {
            Error::from(agent_client_protocol::v1::schema::Error::resource_not_found(None)).data(m)
        }
        BackendError::Failed(m) => Error::internal_error().data(m),
    })?;
    if let Some(notice) = &started.notice {
        eprintln!("{notice}");
    }
    // The core announces itself before anything else, synchronously.
    let mut mode = "default".to_owned();
    let mut model = request.model.clone().unwrap_or_default();
    let mut provider = String::new();
    let mut early = Vec::new();
    while let Ok(event) = started.events.try_recv() {
        if let EventKind::SessionConfigured {
            permission_mode,
            model: m,
            provider: p,
            ..
        } = &event.kind
        {
            mode = modes::normalize(permission_mode.as_str())
                .unwrap_or("default")
                .to_owned();
            model.clone_from(m);
            provider.clone_from(p);
        }
        early.push(event);
    }
    // The editor addresses a loaded session by the id it asked for.
    let id = match (requested, early.first()) {
        (Some(id), _) => id,
        (None, _) if !started.id.is_empty() => started.id.clone(),
        (None, Some(first)) => first.session_id.clone(),
        (None, None) => {
            return Err(Error::internal_error().data("the session did not start"));
        }
    };
    if replay_history == Replay::Yes {
        for update in replay::replay(&started.history, &cwd) {
            notify(cx, &id, update)?;
        }
    }
    let (stopped_tx, stopped_rx) = oneshot::channel();
    let models = model_option::choices(&model, &provider, &started.models);
    let live = Arc::new(LiveSession {
        ops: started.ops.clone(),
        turn: Mutex::new(None),
        request: SessionRequest {
            // A restart continues this session's record.
            resume: Some(id.clone()),
            ..request
        },
        mode: Mutex::new(mode.clone()),
        model,
        models,
        stopped: Mutex::new(Some(stopped_rx)),
    });
    if let Ok(mut sessions) = sessions.lock() {
        sessions.insert(id.clone(), Arc::clone(&live));
    }
    let pump = Pump {
        id: id.clone(),
        live: Arc::clone(&live),
        cx: cx.clone(),
        mapper: EventMapper::new(cwd).with_context_window(started.context_window),
        stopped: stopped_tx,
    };
    cx.spawn(pump.run(early, started.events))?;
    Ok(Opened { id, mode, live })
}

/// Stops a session and starts it again on its record with `model` (the
/// core takes its model at start). Refused while a turn runs.
pub async fn restart_with_model(
    backend: &dyn Backend,
    sessions: &Sessions,
    id: &str,
    model: &str,
    cx: &ConnectionTo<Client>,
) -> Result<Opened, Error> {
    let live = sessions
        .lock()
        .ok()
        .and_then(|s| s.get(id).cloned())
        .ok_or_else(|| {
            Error::from(agent_client_protocol::v1::schema::Error::session_not_found(
                id.to_owned(),
            ))
        })?;
    if !live.models.iter().any(|m| m == model) {
        return Err(Error::invalid_params().data(format!("unknown model {model}")));
    }
    if live.turn.lock().map_or(true, |t| t.is_some()) {
        return Err(Error::invalid_request().data("a prompt is running; change the model after it"));
    }
    let stopped = live.stopped.lock().ok().and_then(|mut s| s.take());
    if let Ok(mut s) = sessions.lock() {
        s.remove(id);
    }
    let _ = live.ops.send(Op::Shutdown).await;
    if let Some(stopped) = stopped {
        // The record's lock is free once the core has stopped.
        let _ = tokio::time::timeout(STOP_WAIT, stopped).await;
    }
    let request = SessionRequest {
        model: Some(model.to_owned()),
        ..live.request.clone()
    };
    let mut opened = match open_session(backend, sessions, request, Replay::No, cx).await {
        Ok(opened) => opened,
        Err(e) => {
            // Keep the session usable on the model it had.
            let back = SessionRequest {
                model: Some(live.model.clone()),
                ..live.request.clone()
            };
            if let Err(again) = open_session(backend, sessions, back, Replay::No, cx).await {
                eprintln!("wright acp: session {id} could not be restarted: {again}");
            }
            return Err(e);
        }
    };
    let mode = live.mode.lock().map(|m| m.clone()).unwrap_or_default();
    if !mode.is_empty() && mode != opened.mode {
        let op = Op::SetPermissionMode { mode: mode.clone() };
        if opened.live.ops.send(op).await.is_ok() {
            if let Ok(mut m) = opened.live.mode.lock() {
                m.clone_from(&mode);
            }
            opened.mode = mode;
        }
    }
    Ok(opened)
}

/// Moves one session's events to the editor.
struct Pump {
    id: String,
    live: Arc<LiveSession>,
    cx: ConnectionTo<Client>,
    mapper: EventMapper,
    /// Dropped when the core's events end.
    stopped: oneshot::Sender<()>,
}

impl Pump {
    async fn run(
        mut self,
        early: Vec<Event>,
        mut events: mpsc::UnboundedReceiver<Event>,
    ) -> Result<(), Error> {
        for event in early {
            self.handle(&event)?;
        }
        while let Some(event) = events.recv().await {
            self.handle(&event)?;
        }
        // The core stopped: a prompt still waiting gets an error, not silence.
        clear_turn(&self.live);
        drop(self.stopped);
        Ok(())
    }

    fn handle(&mut self, event: &Event) -> Result<(), Error> {
        // Warnings (a server that failed to start, a retry) are for the
        // agent's log, which editors read from stderr.
        match &event.kind {
            EventKind::Warning { message } => eprintln!("warning: {message}"),
            EventKind::Retrying { reason, .. } => eprintln!("retrying: {reason}"),
            _ => {}
        }
        for action in self.mapper.map(event) {
            match action {
                Action::Update(update) => notify(&self.cx, &self.id, update)?,
                Action::AskPermission {
                    approval_id,
                    tool_call,
                } => self.ask(approval_id, tool_call)?,
                Action::TurnEnded(outcome) => {
                    let waiting = self.live.turn.lock().ok().and_then(|mut t| t.take());
                    if let Some(tx) = waiting {
                        let _ = tx.send(outcome);
                    }
                }
            }
        }
        Ok(())
    }

    /// Asks the editor in a task of its own (the answer may take minutes)
    /// and passes the answer to the core. A cancelled or failed question
    /// is a refusal.
    fn ask(&self, approval_id: String, tool_call: ToolCallUpdate) -> Result<(), Error> {
        let cx = self.cx.clone();
        let ops = self.live.ops.clone();
        let id = self.id.clone();
        let call_id = tool_call.tool_call_id.clone();
        let options = vec![
            PermissionOption::new(ALLOW_ONCE, "Allow", PermissionOptionKind::AllowOnce),
            PermissionOption::new(
                ALLOW_ALWAYS,
                "Allow for this session",
                PermissionOptionKind::AllowAlways,
            ),
            PermissionOption::new(REJECT, "Reject", PermissionOptionKind::RejectOnce),
        ];
        let request = RequestPermissionRequest::new(id.clone(), tool_call, options);
        self.cx.spawn(async move {
            let answer = cx.send_request(request).block_task().await;
            let decision = match answer.map(|r| r.outcome) {
                Ok(RequestPermissionOutcome::Selected(s)) => match s.option_id.to_string().as_str()
                {
                    ALLOW_ONCE => ApprovalDecision::AllowOnce,
                    ALLOW_ALWAYS => ApprovalDecision::AllowSession,
                    _ => ApprovalDecision::Deny { note: None },
                },
                Ok(_) => ApprovalDecision::Deny { note: None },
                Err(e) => {
                    eprintln!("wright acp: permission request failed: {e}");
                    ApprovalDecision::Deny { note: None }
                }
            };
            if !matches!(decision, ApprovalDecision::Deny { .. }) {
                // Before the core hears the answer, so it cannot overtake
                // the call's own completion update.
                let fields = ToolCallUpdateFields::new().status(ToolCallStatus::InProgress);
                notify(
                    &cx,
                    &id,
                    SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(call_id, fields)),
                )?;
            }
            let _ = ops
                .send(Op::ResolveApproval {
                    id: approval_id,
                    decision,
                })
                .await;
            Ok(())
        })
    }
}

/// Drops a waiting prompt's channel: its task answers with an error.
pub fn clear_turn(live: &LiveSession) {
    if let Ok(mut turn) = live.turn.lock() {
        turn.take();
    }
}

/// Sends one `session/update`.
pub fn notify(cx: &ConnectionTo<Client>, id: &str, update: SessionUpdate) -> Result<(), Error> {
    cx.send_notification(SessionNotification::new(id.to_owned(), update))
}
