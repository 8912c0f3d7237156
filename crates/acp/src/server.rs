//! The ACP connection on stdio: answers `initialize`, `authenticate`,
//! `session/new|load|prompt|set_mode|set_config_option` and
//! `session/cancel`, and answers a prompt when its turn ends (the sessions
//! themselves and their event pumps live in `session`).
//!
//! Handlers run inside the SDK's dispatch loop, which waits for each: work
//! that waits on the core or on the editor runs in spawned tasks, so a
//! `session/cancel` or a permission answer is never stuck behind it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    AgentCapabilities, AuthMethod, AuthMethodAgent, AuthenticateRequest, AuthenticateResponse,
    AvailableCommand, AvailableCommandInput, AvailableCommandsUpdate, CancelNotification,
    Implementation, InitializeRequest, InitializeResponse, LoadSessionRequest, LoadSessionResponse,
    McpCapabilities, McpServer, NewSessionRequest, NewSessionResponse, PromptCapabilities,
    PromptRequest, PromptResponse, SessionConfigOptionValue, SessionUpdate,
    SetSessionConfigOptionRequest, SetSessionConfigOptionResponse, SetSessionModeRequest,
    SetSessionModeResponse, UnstructuredCommandInput,
};
use agent_client_protocol::{Agent, Client, Error, Stdio};
use tokio::sync::oneshot;
use wright_protocol::Op;

use crate::backend::{AuthState, Backend, CustomCommand, McpServerSpec, SessionRequest};
use crate::editor_fs::EditorFs;
use crate::model_option;
use crate::modes;
use crate::prompt;
use crate::session::{self, LiveSession, Sessions, clear_turn, flush_notices, notify};
use crate::updates::TurnOutcome;

/// Longest wait, once the editor has gone, for the sessions to stop.
const SHUTDOWN_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The auth method offered when no key is configured.
const AUTH_METHOD: &str = "wright-env";

/// The connection ended with an error.
#[derive(Debug, thiserror::Error)]
#[error("ACP connection failed: {0}")]
pub struct ServeError(String);

/// What every handler shares.
struct Shared {
    backend: Arc<dyn Backend>,
    sessions: Sessions,
    /// The editor said at `initialize` that it serves `fs/read_text_file`.
    editor_reads: AtomicBool,
    /// The editor said at `initialize` that it serves `fs/write_text_file`.
    editor_writes: AtomicBool,
}

impl Shared {
    /// A handle on the editor's buffers for a new session, when offered.
    fn editor(&self, cx: &ConnectionTo<Client>) -> Option<EditorFs> {
        let reads = self.editor_reads.load(Ordering::SeqCst);
        let writes = self.editor_writes.load(Ordering::SeqCst);
        (reads || writes).then(|| EditorFs::new(cx.clone(), reads, writes))
    }

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
        editor_reads: AtomicBool::new(false),
        editor_writes: AtomicBool::new(false),
    });
    let result = connection(Arc::clone(&shared)).await;
    let live: Vec<Arc<LiveSession>> = shared
        .sessions
        .lock()
        .map(|mut s| s.drain().map(|(_, v)| v).collect())
        .unwrap_or_default();
    // Each session interrupts and records its turn in flight and stops its
    // commands before the process exits; its actor drops the op receiver
    // when it is done. A session that does not stop in time is left to the
    // process's exit (which kills the command groups it still holds).
    let stopped = futures::future::join_all(live.iter().map(|session| async move {
        if session.ops.send(Op::Shutdown).await.is_ok() {
            session.ops.closed().await;
        }
    }));
    let _ = tokio::time::timeout(SHUTDOWN_WAIT, stopped).await;
    match result {
        // The editor hung up while a last update was on its way: that is
        // how a connection ends, not a failure worth a line on stderr.
        Err(e) if e.to_string().contains("Broken pipe") => Ok(()),
        other => other.map_err(|e| ServeError(e.to_string())),
    }
}

async fn connection(shared: Arc<Shared>) -> Result<(), Error> {
    let s_init = Arc::clone(&shared);
    let s_auth = Arc::clone(&shared);
    let s_new = Arc::clone(&shared);
    let s_load = Arc::clone(&shared);
    let s_prompt = Arc::clone(&shared);
    let s_mode = Arc::clone(&shared);
    let s_cancel = Arc::clone(&shared);
    let s_config = Arc::clone(&shared);
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
                    model: None,
                    editor: shared.editor(&cx),
                };
                cx.clone().spawn(async move {
                    let opened =
                        session::open_session(&*shared.backend, &shared.sessions, request, &cx)
                            .await;
                    match opened {
                        Ok(opened) => {
                            let id = opened.id.clone();
                            responder.respond(
                                NewSessionResponse::new(id.clone())
                                    .modes(modes::state(&opened.mode))
                                    .config_options(vec![opened.live.model_option()]),
                            )?;
                            announce_commands(&cx, &id, &opened.live.commands)
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
                    model: None,
                    editor: shared.editor(&cx),
                };
                cx.clone().spawn(async move {
                    let opened =
                        session::open_session(&*shared.backend, &shared.sessions, request, &cx)
                            .await;
                    match opened {
                        Ok(opened) => {
                            responder.respond(
                                LoadSessionResponse::new()
                                    .modes(modes::state(&opened.mode))
                                    .config_options(vec![opened.live.model_option()]),
                            )?;
                            announce_commands(&cx, &opened.id, &opened.live.commands)
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
                let op = match prompt_op(&req, &session.commands) {
                    Ok(op) => op,
                    Err(e) => return responder.respond_with_error(e),
                };
                // A prompt sent right behind a cancel waits (briefly) for
                // the cancelled turn to wind down instead of being refused.
                if session.cancel_requested.load(Ordering::SeqCst) {
                    for _ in 0..CANCEL_WAIT_STEPS {
                        if session.turn.lock().is_ok_and(|t| t.is_none()) {
                            break;
                        }
                        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    }
                }
                let (tx, rx) = oneshot::channel();
                {
                    let Ok(mut turn) = session.turn.lock() else {
                        return responder.respond_with_error(Error::internal_error());
                    };
                    if turn.is_some() || session.running.load(Ordering::SeqCst) {
                        // A prompt sent while one runs goes into it, with
                        // the results of its next step, and is answered
                        // when the turn it reached ends.
                        let text = match &op {
                            Op::UserTurn { text } | Op::UserTurnWithImages { text, .. } => {
                                text.clone()
                            }
                            _ => String::new(),
                        };
                        let Some(steer) = steer_op(op) else {
                            return responder.respond_with_error(
                                Error::invalid_request()
                                    .data("a prompt is already running in this session"),
                            );
                        };
                        if let Ok(mut steered) = session.steered.lock() {
                            steered.push(crate::session::SteeredPrompt {
                                text,
                                answer: tx,
                                delivered: false,
                            });
                        }
                        drop(turn);
                        // Sent here, in the order the editor sent it: a
                        // cancel right behind it must find it in the turn
                        // (and withdraw it), not overtake it.
                        let late = match session.ops.try_send(steer) {
                            Ok(()) => None,
                            Err(tokio::sync::mpsc::error::TrySendError::Full(op)) => Some(op),
                            Err(tokio::sync::mpsc::error::TrySendError::Closed(_)) => {
                                return responder.respond_with_error(
                                    Error::internal_error().data("the session has ended"),
                                );
                            }
                        };
                        return cx.spawn(async move {
                            if let Some(op) = late
                                && session.ops.send(op).await.is_err()
                            {
                                return responder.respond_with_error(
                                    Error::internal_error().data("the session has ended"),
                                );
                            }
                            match rx.await {
                                Ok(TurnOutcome::Stopped(reason)) => {
                                    responder.respond(PromptResponse::new(reason))
                                }
                                Ok(TurnOutcome::Failed(message)) => responder
                                    .respond_with_error(Error::internal_error().data(message)),
                                Err(_) => responder.respond_with_error(
                                    Error::internal_error()
                                        .data("the session ended during the turn"),
                                ),
                            }
                        });
                    }
                    *turn = Some(tx);
                }
                // In the dispatch order: a cancel that follows this prompt
                // sets the flag after this.
                session.cancel_requested.store(false, Ordering::SeqCst);
                session.prompts.fetch_add(1, Ordering::SeqCst);
                flush_notices(&cx, &id, &session)?;
                cx.spawn(async move {
                    if session.ops.send(op).await.is_err() {
                        clear_turn(&session);
                        return responder.respond_with_error(
                            Error::internal_error().data("the session has ended"),
                        );
                    }
                    // The cancel may have reached the core before the turn
                    // did (and been dropped there as idle).
                    if session.cancel_requested.load(Ordering::SeqCst) {
                        let _ = session.ops.send(Op::Interrupt).await;
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
                        Ok(()) => {
                            if let Ok(mut current) = session.mode.lock() {
                                *current = mode.to_owned();
                            }
                            responder.respond(SetSessionModeResponse::default())
                        }
                        Err(_) => responder.respond_with_error(
                            Error::internal_error().data("the session has ended"),
                        ),
                    }
                })
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |req: SetSessionConfigOptionRequest, responder, cx| {
                let model = match (&req.value, req.config_id.to_string().as_str()) {
                    (SessionConfigOptionValue::ValueId { value }, model_option::MODEL_OPTION) => {
                        value.to_string()
                    }
                    _ => {
                        return responder.respond_with_error(
                            Error::invalid_params()
                                .data(format!("unknown option {} or value", req.config_id)),
                        );
                    }
                };
                let shared = Arc::clone(&s_config);
                let id = req.session_id.to_string();
                cx.clone().spawn(async move {
                    match session::set_model(&shared.sessions, &id, &model).await {
                        Ok(option) => {
                            responder.respond(SetSessionConfigOptionResponse::new(vec![option]))
                        }
                        Err(e) => responder.respond_with_error(e),
                    }
                })
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_notification(
            async move |n: CancelNotification, _cx| {
                if let Ok(session) = s_cancel.session(&n.session_id.to_string()) {
                    session.cancel_requested.store(true, Ordering::SeqCst);
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

/// How many 20 ms steps a prompt waits for a cancelled turn to end (3 s).
const CANCEL_WAIT_STEPS: u32 = 150;

fn initialize(shared: &Shared, req: &InitializeRequest) -> InitializeResponse {
    shared
        .editor_reads
        .store(req.client_capabilities.fs.read_text_file, Ordering::SeqCst);
    shared
        .editor_writes
        .store(req.client_capabilities.fs.write_text_file, Ordering::SeqCst);
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
                        .image(true)
                        .audio(false)
                        .embedded_context(true),
                )
                .mcp_capabilities(McpCapabilities::new().http(true)),
        )
        .auth_methods(auth_methods)
        .agent_info(Implementation::new("wright", env!("CARGO_PKG_VERSION")))
}

/// The slash commands a prompt may start with: `/compact` and the
/// session's custom commands.
fn announce_commands(
    cx: &ConnectionTo<Client>,
    id: &str,
    custom: &[CustomCommand],
) -> Result<(), Error> {
    let mut commands = vec![AvailableCommand::new(
        "compact",
        "Summarize older turns to free context (optionally: what to keep)",
    )];
    for c in custom.iter().filter(|c| c.name != "compact") {
        let mut command = AvailableCommand::new(c.name.clone(), c.description.clone());
        if let Some(hint) = &c.hint {
            command = command.input(AvailableCommandInput::Unstructured(
                UnstructuredCommandInput::new(hint.clone()),
            ));
        }
        commands.push(command);
    }
    notify(
        cx,
        id,
        SessionUpdate::AvailableCommandsUpdate(AvailableCommandsUpdate::new(commands)),
    )
}

/// The op for a prompt: `/compact [focus]`, a custom command's expansion
/// (`/name args`), or a user turn.
/// The steering op for a prompt sent while a turn runs (`None` for a
/// `/compact`, which waits its turn).
fn steer_op(op: Op) -> Option<Op> {
    match op {
        Op::UserTurn { text } => Some(Op::Steer {
            text,
            images: Vec::new(),
            uuid: None,
        }),
        Op::UserTurnWithImages {
            text, images, uuid, ..
        } => Some(Op::Steer { text, images, uuid }),
        _ => None,
    }
}

fn prompt_op(req: &PromptRequest, custom: &[CustomCommand]) -> Result<Op, Error> {
    let (text, images) =
        prompt::to_turn(&req.prompt).map_err(|e| Error::invalid_params().data(e.to_string()))?;
    let trimmed = text.trim();
    let text = match trimmed
        .strip_prefix('/')
        .map(|rest| rest.split_once(char::is_whitespace).unwrap_or((rest, "")))
    {
        Some((name, args)) if name != "compact" => custom
            .iter()
            .find(|c| c.name == name)
            .map_or(text.clone(), |c| (c.expand)(args.trim())),
        _ => text.clone(),
    };
    if let Some(rest) = trimmed.strip_prefix("/compact")
        && images.is_empty()
        && (rest.is_empty() || rest.starts_with(char::is_whitespace))
    {
        let focus = rest.trim();
        return Ok(Op::Compact {
            focus: (!focus.is_empty()).then(|| focus.to_owned()),
        });
    }
    if images.is_empty() {
        Ok(Op::UserTurn { text })
    } else {
        Ok(Op::UserTurnWithImages {
            text,
            images,
            uuid: None,
            typed: None,
        })
    }
}

/// The editor's MCP servers in the backend's terms.
fn mcp_specs(servers: &[McpServer]) -> Vec<McpServerSpec> {
    servers
        .iter()
        .filter_map(|s| match s {
            McpServer::Stdio(s) => Some(McpServerSpec::Stdio {
                name: s.name.clone(),
                command: s.command.display().to_string(),
                args: s.args.clone(),
                env: s
                    .env
                    .iter()
                    .map(|e| (e.name.clone(), e.value.clone()))
                    .collect(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use agent_client_protocol::v1::schema::{
        ContentBlock, EnvVariable, McpServerHttp, McpServerStdio, TextContent,
    };

    fn prompt(text: &str) -> PromptRequest {
        PromptRequest::new("s", vec![ContentBlock::Text(TextContent::new(text))])
    }

    #[test]
    fn compact_is_a_command_and_anything_else_a_turn() {
        assert_eq!(
            prompt_op(&prompt("/compact"), &[]).unwrap(),
            Op::Compact { focus: None }
        );
        assert_eq!(
            prompt_op(&prompt("/compact the API design"), &[]).unwrap(),
            Op::Compact {
                focus: Some("the API design".into())
            }
        );
        assert_eq!(
            prompt_op(&prompt("/compactness please"), &[]).unwrap(),
            Op::UserTurn {
                text: "/compactness please".into()
            }
        );
        assert!(prompt_op(&prompt(""), &[]).is_err());
    }

    #[test]
    fn a_custom_command_prompt_is_its_expansion() {
        let review = CustomCommand {
            name: "review".into(),
            description: "Review a file".into(),
            hint: Some("[file]".into()),
            expand: Box::new(|args| format!("Review {args} carefully.")),
        };
        let custom = [review];
        assert_eq!(
            prompt_op(&prompt("/review src/a.rs"), &custom).unwrap(),
            Op::UserTurn {
                text: "Review src/a.rs carefully.".into()
            }
        );
        assert_eq!(
            prompt_op(&prompt("/reviewer x"), &custom).unwrap(),
            Op::UserTurn {
                text: "/reviewer x".into()
            }
        );
    }

    #[test]
    fn editor_mcp_servers_keep_their_transport() {
        let servers = vec![
            McpServer::Stdio(
                McpServerStdio::new("fs", "/bin/fs")
                    .args(vec!["-v".into()])
                    .env(vec![EnvVariable::new("K", "V")]),
            ),
            McpServer::Http(McpServerHttp::new("web", "http://127.0.0.1:1/mcp")),
        ];
        assert_eq!(
            mcp_specs(&servers),
            vec![
                McpServerSpec::Stdio {
                    name: "fs".into(),
                    command: "/bin/fs".into(),
                    args: vec!["-v".into()],
                    env: vec![("K".into(), "V".into())],
                },
                McpServerSpec::Http {
                    name: "web".into(),
                    url: "http://127.0.0.1:1/mcp".into(),
                    headers: Vec::new(),
                },
            ]
        );
    }
}
