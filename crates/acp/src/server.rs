//! The ACP connection on stdio: answers `initialize`, `authenticate`,
//! `session/new|load|prompt|set_mode` and `session/cancel`, runs one event
//! pump per session that turns core events into `session/update`s and
//! `session/request_permission` questions, and answers a prompt when its
//! turn ends.
//!
//! Handlers run inside the SDK's dispatch loop, which waits for each: work
//! that waits on the core or on the editor runs in spawned tasks, so a
//! `session/cancel` or a permission answer is never stuck behind it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    AgentCapabilities, AuthMethod, AuthMethodAgent, AuthenticateRequest, AuthenticateResponse,
    AvailableCommand, AvailableCommandsUpdate, CancelNotification, Implementation,
    InitializeRequest, InitializeResponse, LoadSessionRequest, LoadSessionResponse,
    McpCapabilities, McpServer, NewSessionRequest, NewSessionResponse, PermissionOption,
    PermissionOptionKind, PromptCapabilities, PromptRequest, PromptResponse,
    RequestPermissionOutcome, RequestPermissionRequest, SessionNotification, SessionUpdate,
    SetSessionModeRequest, SetSessionModeResponse, ToolCallStatus, ToolCallUpdate,
    ToolCallUpdateFields,
};
use agent_client_protocol::{Agent, Client, Error, Stdio};
use tokio::sync::{mpsc, oneshot};
use wright_protocol::{ApprovalDecision, Event, EventKind, Op};

use crate::backend::{AuthState, Backend, BackendError, McpServerSpec, SessionRequest};
use crate::modes;
use crate::prompt;
use crate::replay;
use crate::updates::{Action, EventMapper, TurnOutcome};

/// Permission option ids (answers map back through these).
const ALLOW_ONCE: &str = "allow_once";
const ALLOW_ALWAYS: &str = "allow_always";
const REJECT: &str = "reject";

/// The auth method offered when no key is configured.
const AUTH_METHOD: &str = "wright-env";

/// The connection ended with an error.
#[derive(Debug, thiserror::Error)]
#[error("ACP connection failed: {0}")]
pub struct ServeError(String);

/// One live session.
struct LiveSession {
    ops: mpsc::Sender<Op>,
    /// The running prompt's answer channel; `Some` while a turn runs.
    turn: Mutex<Option<oneshot::Sender<TurnOutcome>>>,
}

/// What every handler shares.
struct Shared {
    backend: Arc<dyn Backend>,
    sessions: Mutex<HashMap<String, Arc<LiveSession>>>,
}

impl Shared {
    fn session(&self, id: &str) -> Result<Arc<LiveSession>, Error> {
        self.sessions
            .lock()
            .ok()
            .and_then(|s| s.get(id).cloned())
            .ok_or_else(|| {
                agent_client_protocol::v1::schema::Error::session_not_found(id.to_owned()).into()
            })
    }
}

/// Serves ACP on stdin/stdout until the editor closes the connection;
/// then asks every session to shut down.
pub async fn serve_stdio(backend: Arc<dyn Backend>) -> Result<(), ServeError> {
    let shared = Arc::new(Shared {
        backend,
        sessions: Mutex::new(HashMap::new()),
    });
    let result = connection(Arc::clone(&shared)).await;
    let live: Vec<Arc<LiveSession>> = shared
        .sessions
        .lock()
        .map(|mut s| s.drain().map(|(_, v)| v).collect())
        .unwrap_or_default();
    for session in live {
        let _ = session.ops.send(Op::Shutdown).await;
    }
    result.map_err(|e| ServeError(e.to_string()))
}

async fn connection(shared: Arc<Shared>) -> Result<(), Error> {
    let s_init = Arc::clone(&shared);
    let s_auth = Arc::clone(&shared);
    let s_new = Arc::clone(&shared);
    let s_load = Arc::clone(&shared);
    let s_prompt = Arc::clone(&shared);
    let s_mode = Arc::clone(&shared);
    let s_cancel = Arc::clone(&shared);
    Agent
        .v1()
        .name("wright")
        .on_receive_request(
            async move |req: InitializeRequest, responder, _cx| {
                responder.respond(initialize(&s_init, &req))
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |_req: AuthenticateRequest, responder, _cx| match s_auth.backend.auth() {
                AuthState::Ready => responder.respond(AuthenticateResponse::default()),
                AuthState::Missing { hint } => {
                    responder.respond_with_error(Error::auth_required().data(hint))
                }
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |req: NewSessionRequest, responder, cx| {
                let shared = Arc::clone(&s_new);
                let request = SessionRequest {
                    cwd: req.cwd.clone(),
                    mcp_servers: mcp_specs(&req.mcp_servers),
                    resume: None,
                };
                cx.clone().spawn(async move {
                    match open_session(&shared, request, &cx).await {
                        Ok(opened) => {
                            let id = opened.id.clone();
                            responder.respond(
                                NewSessionResponse::new(id.clone())
                                    .modes(modes::state(&opened.mode)),
                            )?;
                            announce_commands(&cx, &id)
                        }
                        Err(e) => responder.respond_with_error(e),
                    }
                })
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |req: LoadSessionRequest, responder, cx| {
                let shared = Arc::clone(&s_load);
                let requested = req.session_id.to_string();
                let request = SessionRequest {
                    cwd: req.cwd.clone(),
                    mcp_servers: mcp_specs(&req.mcp_servers),
                    resume: Some(requested),
                };
                cx.clone().spawn(async move {
                    match open_session(&shared, request, &cx).await {
                        Ok(opened) => {
                            responder.respond(
                                LoadSessionResponse::new().modes(modes::state(&opened.mode)),
                            )?;
                            announce_commands(&cx, &opened.id)
                        }
                        Err(e) => responder.respond_with_error(e),
                    }
                })
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |req: PromptRequest, responder, cx| {
                let id = req.session_id.to_string();
                let session = match s_prompt.session(&id) {
                    Ok(s) => s,
                    Err(e) => return responder.respond_with_error(e),
                };
                let op = match prompt_op(&req) {
                    Ok(op) => op,
                    Err(e) => return responder.respond_with_error(e),
                };
                let (tx, rx) = oneshot::channel();
                {
                    let Ok(mut turn) = session.turn.lock() else {
                        return responder.respond_with_error(Error::internal_error());
                    };
                    if turn.is_some() {
                        return responder.respond_with_error(
                            Error::invalid_request()
                                .data("a prompt is already running in this session"),
                        );
                    }
                    *turn = Some(tx);
                }
                cx.spawn(async move {
                    if session.ops.send(op).await.is_err() {
                        clear_turn(&session);
                        return responder.respond_with_error(
                            Error::internal_error().data("the session has ended"),
                        );
                    }
                    match rx.await {
                        Ok(TurnOutcome::Stopped(reason)) => {
                            responder.respond(PromptResponse::new(reason))
                        }
                        Ok(TurnOutcome::Failed(message)) => {
                            responder.respond_with_error(Error::internal_error().data(message))
                        }
                        Err(_) => responder.respond_with_error(
                            Error::internal_error().data("the session ended during the turn"),
                        ),
                    }
                })
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |req: SetSessionModeRequest, responder, cx| {
                let session = match s_mode.session(&req.session_id.to_string()) {
                    Ok(s) => s,
                    Err(e) => return responder.respond_with_error(e),
                };
                let Some(mode) = modes::normalize(&req.mode_id.to_string()) else {
                    return responder.respond_with_error(
                        Error::invalid_params().data(format!("unknown mode {}", req.mode_id)),
                    );
                };
                cx.spawn(async move {
                    let op = Op::SetPermissionMode {
                        mode: mode.to_owned(),
                    };
                    match session.ops.send(op).await {
                        Ok(()) => responder.respond(SetSessionModeResponse::default()),
                        Err(_) => responder.respond_with_error(
                            Error::internal_error().data("the session has ended"),
                        ),
                    }
                })
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_notification(
            async move |n: CancelNotification, _cx| {
                if let Ok(session) = s_cancel.session(&n.session_id.to_string()) {
                    // Bounded queue: a full one means the core is busy
                    // with ops already, and an interrupt must not wait.
                    let _ = session.ops.try_send(Op::Interrupt);
                }
                Ok(())
            },
            agent_client_protocol::on_receive_notification!(),
        )
        .connect_to(Stdio::new())
        .await
}

fn initialize(shared: &Shared, req: &InitializeRequest) -> InitializeResponse {
    let version = std::cmp::min(
        req.protocol_version,
        agent_client_protocol::schema::ProtocolVersion::LATEST,
    );
    let auth_methods = match shared.backend.auth() {
        AuthState::Ready => Vec::new(),
        AuthState::Missing { hint } => vec![AuthMethod::Agent(
            AuthMethodAgent::new(AUTH_METHOD, "Model credentials").description(hint),
        )],
    };
    InitializeResponse::new(version)
        .agent_capabilities(
            AgentCapabilities::new()
                .load_session(true)
                .prompt_capabilities(
                    PromptCapabilities::new()
                        .image(false)
                        .audio(false)
                        .embedded_context(true),
                )
                .mcp_capabilities(McpCapabilities::new().http(true).sse(true)),
        )
        .auth_methods(auth_methods)
        .agent_info(Implementation::new("wright", env!("CARGO_PKG_VERSION")))
}

/// A started session, registered and pumping.
struct Opened {
    id: String,
    mode: String,
}

/// Starts or resumes a session, replays a resumed one's history, and
/// starts its event pump.
async fn open_session(
    shared: &Arc<Shared>,
    request: SessionRequest,
    cx: &ConnectionTo<Client>,
) -> Result<Opened, Error> {
    let cwd = request.cwd.clone();
    if !cwd.is_absolute() {
        return Err(Error::invalid_params().data("cwd must be an absolute path"));
    }
    let requested = request.resume.clone();
    if let Some(id) = &requested
        && shared.session(id).is_ok()
    {
        return Err(Error::invalid_request().data(format!("session {id} is already open")));
    }
    let mut started = shared.backend.start(request).await.map_err(|e| match e {
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
    let mut early = Vec::new();
    while let Ok(event) = started.events.try_recv() {
        if let EventKind::SessionConfigured {
            permission_mode, ..
        } = &event.kind
        {
            mode = modes::normalize(permission_mode.as_str())
                .unwrap_or("default")
                .to_owned();
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
    for update in replay::replay(&started.history, &cwd) {
        notify(cx, &id, update)?;
    }
    let live = Arc::new(LiveSession {
        ops: started.ops.clone(),
        turn: Mutex::new(None),
    });
    if let Ok(mut sessions) = shared.sessions.lock() {
        sessions.insert(id.clone(), Arc::clone(&live));
    }
    let pump = Pump {
        id: id.clone(),
        live,
        cx: cx.clone(),
        mapper: EventMapper::new(cwd).with_context_window(started.context_window),
    };
    cx.spawn(pump.run(early, started.events))?;
    Ok(Opened { id, mode })
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
fn clear_turn(live: &LiveSession) {
    if let Ok(mut turn) = live.turn.lock() {
        turn.take();
    }
}

fn notify(cx: &ConnectionTo<Client>, id: &str, update: SessionUpdate) -> Result<(), Error> {
    cx.send_notification(SessionNotification::new(id.to_owned(), update))
}

/// The slash commands a prompt may start with.
fn announce_commands(cx: &ConnectionTo<Client>, id: &str) -> Result<(), Error> {
    let commands = vec![AvailableCommand::new(
        "compact",
        "Summarize older turns to free context (optionally: what to keep)",
    )];
    notify(
        cx,
        id,
        SessionUpdate::AvailableCommandsUpdate(AvailableCommandsUpdate::new(commands)),
    )
}

/// The op for a prompt: `/compact [focus]`, or a user turn.
fn prompt_op(req: &PromptRequest) -> Result<Op, Error> {
    let text =
        prompt::to_text(&req.prompt).map_err(|e| Error::invalid_params().data(e.to_string()))?;
    let trimmed = text.trim();
    if let Some(rest) = trimmed.strip_prefix("/compact")
        && (rest.is_empty() || rest.starts_with(char::is_whitespace))
    {
        let focus = rest.trim();
        return Ok(Op::Compact {
            focus: (!focus.is_empty()).then(|| focus.to_owned()),
        });
    }
    Ok(Op::UserTurn { text })
}

/// The editor's MCP servers in the backend's terms.
fn mcp_specs(servers: &[McpServer]) -> Vec<McpServerSpec> {
    let pairs = |v: &[(String, String)]| v.to_vec();
    servers
        .iter()
        .filter_map(|s| match s {
            McpServer::Stdio(s) => Some(McpServerSpec::Stdio {
                name: s.name.clone(),
                command: s.command.display().to_string(),
                args: s.args.clone(),
                env: pairs(
                    &s.env
                        .iter()
                        .map(|e| (e.name.clone(), e.value.clone()))
                        .collect::<Vec<_>>(),
                ),
            }),
            McpServer::Http(s) => Some(McpServerSpec::Http {
                name: s.name.clone(),
                url: s.url.clone(),
                headers: s
                    .headers
                    .iter()
                    .map(|h| (h.name.clone(), h.value.clone()))
                    .collect(),
            }),
            McpServer::Sse(s) => Some(McpServerSpec::Sse {
                name: s.name.clone(),
                url: s.url.clone(),
                headers: s
                    .headers
                    .iter()
                    .map(|h| (h.name.clone(), h.value.clone()))
                    .collect(),
            }),
            _ => None,
        })
        .collect()
}
