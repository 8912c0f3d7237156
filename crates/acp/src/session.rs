//! One editor session's life: starting it through the backend (replaying
//! a loaded one), the event pump that moves its core events to the editor
//! and its permission questions to the core, and switching its model.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    ContentBlock, ContentChunk, CurrentModeUpdate, PermissionOption, PermissionOptionKind,
    RequestPermissionOutcome, RequestPermissionRequest, SessionConfigOption, SessionNotification,
    SessionUpdate, TextContent, ToolCallStatus, ToolCallUpdate, ToolCallUpdateFields,
};
use agent_client_protocol::{Client, Error};
use tokio::sync::{mpsc, oneshot};
use wright_protocol::{ApprovalDecision, Event, EventKind, Op};

use crate::ask;
use crate::backend::{Backend, BackendError, CustomCommand, SessionRequest};
use crate::model_option;
use crate::modes;
use crate::replay;
use crate::updates::{Action, EventMapper, TurnOutcome};

/// Permission option ids (answers map back through these).
const ALLOW_ONCE: &str = "allow_once";
const ALLOW_ALWAYS: &str = "allow_always";
const REJECT: &str = "reject";

/// A prompt steered into a running turn, waiting for its answer.
pub struct SteeredPrompt {
    /// The message as sent.
    pub text: String,
    /// Where its `session/prompt` response goes.
    pub answer: oneshot::Sender<TurnOutcome>,
    /// The model got it (a `Steered` event named it).
    pub delivered: bool,
}

/// One live session.
pub struct LiveSession {
    /// Ops into the core.
    pub ops: mpsc::Sender<Op>,
    /// The running prompt's answer channel; `Some` while a turn runs.
    pub turn: Mutex<Option<oneshot::Sender<TurnOutcome>>>,
    /// Prompts the editor sent while a turn ran, steered into it: each
    /// with its text and whether the model got it yet. One is answered when
    /// the turn it reached ends (the running one, or its own when that one
    /// ended first); a withdrawn one is answered `cancelled`.
    pub steered: Mutex<Vec<SteeredPrompt>>,
    /// A turn runs in the core (the editor's prompt or a steered one).
    pub running: AtomicBool,
    /// The permission mode last chosen.
    pub mode: Mutex<String>,
    /// Prompts started so far: tells a late answer it belongs to an
    /// earlier turn.
    pub prompts: AtomicU64,
    /// The editor cancelled the running prompt; the prompt's task sends
    /// the interrupt again once its turn is queued, so a cancel that
    /// overtook the prompt on its way to the core is not lost.
    pub cancel_requested: AtomicBool,
    /// Warnings that arrived while no prompt ran (a server that failed to
    /// start), shown at the start of the next prompt: editors show only
    /// updates, and keep the agent's stderr in a log nobody reads.
    pub notices: Mutex<Vec<String>>,
    /// The model in use and the ones the editor may pick.
    model: Mutex<String>,
    models: Vec<String>,
    /// The custom slash commands a prompt may start with.
    pub commands: Vec<CustomCommand>,
}

impl LiveSession {
    /// The model option with its current value.
    pub fn model_option(&self) -> SessionConfigOption {
        let model = self.model.lock().map(|m| m.clone()).unwrap_or_default();
        model_option::option(&model, &self.models)
    }
}

/// The live sessions by the id the editor uses.
pub type Sessions = Mutex<HashMap<String, Arc<LiveSession>>>;

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
    cx: &ConnectionTo<Client>,
) -> Result<Opened, Error> {
    let cwd = request.cwd.clone();
    if !cwd.is_absolute() {
        return Err(Error::invalid_params().data("cwd must be an absolute path"));
    }
    let requested = request.resume.clone();
    if let Some(id) = &requested
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
    if let Some(editor) = &request.editor {
        editor.bind(&id);
    }
    for update in replay::replay(&started.history, &cwd, &*started.touches_of) {
        notify(cx, &id, update)?;
    }
    let models = model_option::choices(&model, &provider, &started.models);
    let live = Arc::new(LiveSession {
        ops: started.ops.clone(),
        turn: Mutex::new(None),
        steered: Mutex::new(Vec::new()),
        running: AtomicBool::new(false),
        mode: Mutex::new(mode.clone()),
        prompts: AtomicU64::new(0),
        cancel_requested: AtomicBool::new(false),
        notices: Mutex::new(
            started
                .notice
                .iter()
                .flat_map(|n| n.lines().map(str::to_owned))
                .collect(),
        ),
        model: Mutex::new(model),
        models,
        commands: std::mem::take(&mut started.commands),
    });
    if let Ok(mut sessions) = sessions.lock() {
        sessions.insert(id.clone(), Arc::clone(&live));
    }
    let pump = Pump {
        id: id.clone(),
        live: Arc::clone(&live),
        cx: cx.clone(),
        mapper: EventMapper::new(cwd).with_context_window(started.context_window),
    };
    cx.spawn(pump.run(early, started.events))?;
    Ok(Opened { id, mode, live })
}

/// Switches a session to `model` from its next model request on (the
/// core's `SetModel`; a running turn goes on with the model it has).
pub async fn set_model(
    sessions: &Sessions,
    id: &str,
    model: &str,
) -> Result<SessionConfigOption, Error> {
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
    let op = Op::SetModel {
        model: Some(model.to_owned()),
    };
    live.ops
        .send(op)
        .await
        .map_err(|_| Error::internal_error().data("the session has ended"))?;
    if let Ok(mut current) = live.model.lock() {
        *current = model.to_owned();
    }
    Ok(live.model_option())
}

/// Moves one session's events to the editor.
struct Pump {
    id: String,
    live: Arc<LiveSession>,
    cx: ConnectionTo<Client>,
    mapper: EventMapper,
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
        Ok(())
    }

    fn handle(&mut self, event: &Event) -> Result<(), Error> {
        // Retries are for the agent's log (stderr); warnings (a server
        // that failed to start, a skipped hook) are also the user's: shown
        // in the running turn, or at the start of the next one.
        match &event.kind {
            EventKind::Warning { message } => {
                eprintln!("warning: {message}");
                let running = self.live.turn.lock().is_ok_and(|t| t.is_some());
                if running {
                    notify(&self.cx, &self.id, notice_update(message))?;
                } else if let Ok(mut notices) = self.live.notices.lock() {
                    notices.push(format!("warning: {message}"));
                }
            }
            EventKind::Retrying { reason, .. } => eprintln!("retrying: {reason}"),
            _ => {}
        }
        if event.agent.is_root() {
            match &event.kind {
                EventKind::TurnStarted => self.live.running.store(true, Ordering::SeqCst),
                // A steered prompt the turn did not take starts the next
                // one: the session still counts as running until then.
                EventKind::TurnCompleted { .. } => {
                    let pending = self
                        .live
                        .steered
                        .lock()
                        .is_ok_and(|s| s.iter().any(|p| !p.delivered));
                    self.live.running.store(pending, Ordering::SeqCst);
                }
                EventKind::Steered { text } => {
                    if let Ok(mut steered) = self.live.steered.lock()
                        && let Some(p) =
                            steered.iter_mut().find(|p| !p.delivered && p.text == *text)
                    {
                        p.delivered = true;
                    }
                }
                EventKind::SteeringWithdrawn { texts } => {
                    if let Ok(mut steered) = self.live.steered.lock() {
                        let (gone, kept) = std::mem::take(&mut *steered)
                            .into_iter()
                            .partition(|p| !p.delivered && texts.contains(&p.text));
                        *steered = kept;
                        if !steered.iter().any(|p| !p.delivered) {
                            self.live.running.store(false, Ordering::SeqCst);
                        }
                        let gone: Vec<SteeredPrompt> = gone;
                        for p in gone {
                            let _ = p.answer.send(TurnOutcome::Stopped(
                                agent_client_protocol::v1::schema::StopReason::Cancelled,
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
        // The core says so when the mode changes (an approved plan leaves
        // plan mode): the editor's mode picker follows.
        if let EventKind::ModeChanged { mode } = &event.kind
            && event.agent.is_root()
            && let Some(mode) = modes::normalize(mode)
        {
            if let Ok(mut current) = self.live.mode.lock() {
                *current = mode.to_owned();
            }
            notify(
                &self.cx,
                &self.id,
                SessionUpdate::CurrentModeUpdate(CurrentModeUpdate::new(mode)),
            )?;
        }
        for action in self.mapper.map(event) {
            match action {
                Action::Update(update) => notify(&self.cx, &self.id, update)?,
                Action::AskPermission {
                    approval_id,
                    tool_call,
                    form: Some((form, arguments)),
                    ..
                } => self.ask_form(approval_id, tool_call, form, arguments)?,
                Action::AskPermission {
                    approval_id,
                    tool_call,
                    announced,
                    always,
                    form: None,
                } => self.ask(approval_id, tool_call, announced, always)?,
                Action::TurnEnded(outcome) => {
                    let delivered: Vec<SteeredPrompt> = match self.live.steered.lock() {
                        Ok(mut s) => {
                            let (done, waiting) = std::mem::take(&mut *s)
                                .into_iter()
                                .partition(|p| p.delivered);
                            *s = waiting;
                            done
                        }
                        Err(_) => Vec::new(),
                    };
                    for p in delivered {
                        let _ = p.answer.send(outcome.clone());
                    }
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
    fn ask(
        &self,
        approval_id: String,
        tool_call: ToolCallUpdate,
        announced: bool,
        always: Option<String>,
    ) -> Result<(), Error> {
        let cx = self.cx.clone();
        let ops = self.live.ops.clone();
        let live = Arc::clone(&self.live);
        let asked_in = self.live.prompts.load(Ordering::SeqCst);
        let id = self.id.clone();
        let call_id = tool_call.tool_call_id.clone();
        let mut options = vec![PermissionOption::new(
            ALLOW_ONCE,
            "Allow",
            PermissionOptionKind::AllowOnce,
        )];
        if let Some(label) = always {
            options.push(PermissionOption::new(
                ALLOW_ALWAYS,
                label,
                PermissionOptionKind::AllowAlways,
            ));
        }
        options.push(PermissionOption::new(
            REJECT,
            "Reject",
            PermissionOptionKind::RejectOnce,
        ));
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
            // Only a call the editor knows, in the turn that asked: a late
            // answer after a cancel must not reopen a failed call.
            let same_turn = live.prompts.load(Ordering::SeqCst) == asked_in
                && live.turn.lock().is_ok_and(|t| t.is_some());
            if announced && same_turn && !matches!(decision, ApprovalDecision::Deny { .. }) {
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

impl Pump {
    /// Asks the editor about a plan or the model's questions in a task of
    /// its own: a plan's answer may switch the mode first; each question
    /// is a request of its own, and one left unanswered refuses the call.
    fn ask_form(
        &self,
        approval_id: String,
        tool_call: ToolCallUpdate,
        form: ask::Form,
        arguments: String,
    ) -> Result<(), Error> {
        let cx = self.cx.clone();
        let ops = self.live.ops.clone();
        let id = self.id.clone();
        self.cx.spawn(async move {
            let chosen = |request: RequestPermissionRequest| {
                let cx = cx.clone();
                async move {
                    match cx
                        .send_request(request)
                        .block_task()
                        .await
                        .map(|r| r.outcome)
                    {
                        Ok(RequestPermissionOutcome::Selected(s)) => Some(s.option_id.to_string()),
                        Ok(_) => None,
                        Err(e) => {
                            eprintln!("wright acp: permission request failed: {e}");
                            None
                        }
                    }
                }
            };
            let decision = match form {
                ask::Form::Plan => {
                    let request =
                        RequestPermissionRequest::new(id.clone(), tool_call, ask::plan_options());
                    let option = chosen(request).await;
                    let (mode, decision) = ask::plan_answer(option.as_deref());
                    if let Some(mode) = mode {
                        let _ = ops
                            .send(Op::SetPermissionMode {
                                mode: mode.to_owned(),
                            })
                            .await;
                    }
                    decision
                }
                ask::Form::Questions(questions) => {
                    let mut answers = Some(serde_json::Map::new());
                    for question in &questions {
                        let mut call = tool_call.clone();
                        call.fields.title = Some(question.text.clone());
                        let request =
                            RequestPermissionRequest::new(id.clone(), call, question.options());
                        match question.answer(chosen(request).await.as_deref()) {
                            Some(label) => {
                                if let Some(map) = answers.as_mut() {
                                    map.insert(question.text.clone(), label.into());
                                }
                            }
                            None => {
                                answers = None;
                                break;
                            }
                        }
                    }
                    ask::answered(&arguments, answers)
                }
            };
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

/// A notice as a quoted message paragraph of its own (a warning marked).
pub fn notice_update(text: &str) -> SessionUpdate {
    let (mark, text) = match text.strip_prefix("warning: ") {
        Some(rest) => ("⚠ ", rest),
        None => ("", text),
    };
    let quoted = text.trim_end().replace('\n', "\n> ");
    SessionUpdate::AgentMessageChunk(ContentChunk::new(ContentBlock::Text(TextContent::new(
        format!("> {mark}{quoted}\n\n"),
    ))))
}

/// Sends the warnings held since the last prompt.
pub fn flush_notices(cx: &ConnectionTo<Client>, id: &str, live: &LiveSession) -> Result<(), Error> {
    let held: Vec<String> = live
        .notices
        .lock()
        .map(|mut n| n.drain(..).collect())
        .unwrap_or_default();
    for notice in held {
        notify(cx, id, notice_update(&notice))?;
    }
    Ok(())
}

/// Sends one `session/update`.
pub fn notify(cx: &ConnectionTo<Client>, id: &str, update: SessionUpdate) -> Result<(), Error> {
    cx.send_notification(SessionNotification::new(id.to_owned(), update))
}
