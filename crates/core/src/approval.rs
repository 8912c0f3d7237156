//! The permission gate between a tool call and its run: asks the permission
//! engine, and when it says "ask", emits `ApprovalRequested` and waits for
//! the front end's `Op::ResolveApproval` (or an interrupt). "Always allow"
//! answers become session grants (one rule per part of a command chain),
//! and project grants are also written to `.wright/config.local.toml` so
//! the next run honours them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use futures::future::BoxFuture;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use wright_hooks::hook::{HookPayload, HookRun, PermissionDecision};
use wright_permissions::{
    AlwaysRules, CallInfo, CanAsk, DeniedBy, Engine, HookVerdict, Mode, PolicyInput, Rule, Verdict,
};
use wright_protocol::{ApprovalDecision, EventKind, ToolCallStatus, ToolKind, Touches};
use wright_tools::Tool;

use wright_sandbox::SandboxContext;

use crate::emitter::Emitter;
use crate::text::cap_hook_text;

/// Why a call may not run: the status for the front end and the text for the model.
pub(crate) type Refusal = (ToolCallStatus, String);

/// The user's hooks as the gate needs them: the `PermissionRequest` hooks
/// for a call that needs approval, and the `Notification` hooks while the
/// user is asked. The turn's hook runner supplies them, so the gate decides
/// what each hook answer means without knowing how hooks are run.
pub(crate) trait ApprovalHooks: Sync {
    /// Whether any hook is configured for the event of `payload` and its target.
    fn any(&self, payload: &HookPayload) -> bool;

    /// Runs the hooks that match `payload` (each run made visible as usual).
    fn run<'a>(
        &'a self,
        payload: HookPayload,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, HookRun>;

    /// A hook said `continue: false` (or `interrupt`): the turn ends.
    fn stop(&self, reason: &str);
}

/// What a `PermissionRequest` hook decided for a call that needed approval.
enum HookAnswer {
    /// Run it (with the input the hook rewrote, if it did).
    Allow(Option<serde_json::Value>),
    /// Refuse it.
    Deny(Refusal),
}

/// Permission state of one session.
pub(crate) struct Gate {
    engine: Mutex<Engine>,
    pending: Mutex<HashMap<String, oneshot::Sender<ApprovalDecision>>>,
    next_id: AtomicU64,
    local_config: PathBuf,
    /// Makes this gate's approval ids unique in the session (a subagent
    /// with a permission state of its own asks through the same front end).
    id_prefix: String,
}

/// One call to decide on.
pub(crate) struct Request<'a> {
    pub(crate) call_id: &'a str,
    pub(crate) tool: &'a str,
    /// The tool that says what input rewritten by an approval touches.
    pub(crate) describes: &'a dyn Tool,
    /// What the call touches, as its tool said once for `args`.
    pub(crate) touches: &'a Touches,
    pub(crate) args: &'a serde_json::Value,
    pub(crate) raw_args: &'a str,
    pub(crate) cwd: &'a Path,
    /// Who wants it when it is not the model (shown with the question).
    pub(crate) on_behalf_of: Option<&'a str>,
}

/// What the front end is asked, as `ApprovalRequested` carries it.
pub(crate) struct Question<'a> {
    pub(crate) tool: &'a str,
    pub(crate) raw_args: &'a str,
    pub(crate) touches: Option<Touches>,
    pub(crate) reason: String,
    /// What "always" would store (empty for a plan or a question).
    pub(crate) suggested_rules: Vec<String>,
    pub(crate) still_asks: Option<String>,
    pub(crate) call_id: &'a str,
    /// The `Notification` hooks' message.
    pub(crate) notification: String,
}

impl Gate {
    pub(crate) fn new(policy: PolicyInput, local_config: PathBuf) -> Self {
        Self {
            engine: Mutex::new(Engine::new(policy)),
            pending: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            local_config,
            id_prefix: String::new(),
        }
    }

    /// A gate whose approval ids start with `prefix` (a subagent's own).
    pub(crate) fn named(policy: PolicyInput, local_config: PathBuf, prefix: &str) -> Self {
        let mut gate = Self::new(policy, local_config);
        gate.id_prefix = format!("{prefix}_");
        gate
    }

    /// The permission mode now (`plan` when the state is unavailable: the
    /// strictest reading).
    pub(crate) fn mode(&self) -> Mode {
        self.engine
            .lock()
            .map_or(Mode::Plan, |engine| engine.mode())
    }

    pub(crate) fn set_mode(&self, mode: Mode) {
        if let Ok(mut engine) = self.engine.lock() {
            engine.set_mode(mode);
        }
    }

    /// The sandbox a command runs under now (the permission engine chooses
    /// it for the mode; plan mode when the state is unavailable).
    pub(crate) fn sandbox_for_commands(
        &self,
        base: Option<&SandboxContext>,
    ) -> Option<SandboxContext> {
        match self.engine.lock() {
            Ok(engine) => engine.command_sandbox(base),
            Err(_) => wright_permissions::command_sandbox(Mode::Plan, base),
        }
    }

    /// Delivers a front end's answer; unknown ids (already cancelled) are ignored.
    pub(crate) fn resolve(&self, id: &str, decision: ApprovalDecision) {
        let sender = self.pending.lock().ok().and_then(|mut p| p.remove(id));
        if let Some(sender) = sender {
            let _ = sender.send(decision);
        }
    }

    /// Decides whether the call may run, with the `PreToolUse` hooks' answer
    /// in its place in the order; a call that needs approval first goes to
    /// the `PermissionRequest` hooks, then to the user when they did not
    /// decide and the run can ask. `emitter` carries the question to the
    /// front end.
    pub(crate) async fn decide(
        &self,
        request: &Request<'_>,
        emitter: &Emitter,
        hooks: &dyn ApprovalHooks,
        hook: &HookVerdict,
        cancel: &CancellationToken,
    ) -> Result<Option<serde_json::Value>, Refusal> {
        let info = CallInfo {
            tool: request.tool,
            touches: request.touches,
            cwd: request.cwd,
        };
        let verdict = match self.engine.lock() {
            Ok(engine) => engine.check_with_hook(&info, hook),
            Err(_) => {
                return Err((
                    ToolCallStatus::Denied,
                    "Permission denied: the permission state is unavailable.".to_owned(),
                ));
            }
        };
        let needs_approval = matches!(
            verdict,
            Verdict::Ask { .. }
                | Verdict::Deny {
                    by: DeniedBy::NoApproval,
                    ..
                }
        );
        if needs_approval && let Some(answer) = permission_hooks(request, hooks, cancel).await {
            return match answer {
                HookAnswer::Deny(refusal) => Err(refusal),
                HookAnswer::Allow(None) => Ok(None),
                HookAnswer::Allow(Some(updated)) => self.recheck(request, updated).map(Some),
            };
        }
        match verdict {
            Verdict::Allow => Ok(None),
            Verdict::Deny { reason, by } => Err(deny(&reason, by)),
            Verdict::Ask { reason, suggestion } => {
                self.ask(request, reason, suggestion, emitter, hooks, cancel)
                    .await
            }
        }
    }

    /// Input a `PermissionRequest` hook rewrote goes through the same check
    /// as the model's (the hook's allow in place of the user's); whatever
    /// would still need approval is refused rather than asked in a loop.
    fn recheck(
        &self,
        request: &Request<'_>,
        updated: serde_json::Value,
    ) -> Result<serde_json::Value, Refusal> {
        let touches = request.describes.touches(&updated);
        let info = CallInfo {
            tool: request.tool,
            touches: &touches,
            cwd: request.cwd,
        };
        let verdict = match self.engine.lock() {
            Ok(engine) => engine.check_with_hook(&info, &HookVerdict::Allow),
            Err(_) => {
                return Err((
                    ToolCallStatus::Denied,
                    "Permission denied: the permission state is unavailable.".to_owned(),
                ));
            }
        };
        match verdict {
            Verdict::Allow => Ok(updated),
            Verdict::Deny { reason, by } => Err(deny(&reason, by)),
            Verdict::Ask { reason, .. } => Err((
                ToolCallStatus::Denied,
                format!(
                    "Permission denied: the input the approval rewrote still needs approval: {reason}"
                ),
            )),
        }
    }

    async fn ask(
        &self,
        request: &Request<'_>,
        reason: String,
        suggestion: Rule,
        emitter: &Emitter,
        hooks: &dyn ApprovalHooks,
        cancel: &CancellationToken,
    ) -> Result<Option<serde_json::Value>, Refusal> {
        let reason = match request.on_behalf_of {
            Some(who) => format!("{who}: {reason}"),
            None => reason,
        };
        let always = self.always_rules(request, &suggestion);
        let question = Question {
            tool: request.tool,
            raw_args: request.raw_args,
            touches: Some(request.touches.clone()),
            reason,
            suggested_rules: always.rules.iter().map(ToString::to_string).collect(),
            still_asks: always.still_asks.clone(),
            call_id: request.call_id,
            notification: format!("wright needs your permission to use {}", request.tool),
        };
        let decision = self.ask_person(question, emitter, hooks, cancel).await;
        match decision {
            None => Err((
                ToolCallStatus::Cancelled,
                "Cancelled by user while waiting for approval.".to_owned(),
            )),
            Some(ApprovalDecision::AllowOnce) => Ok(None),
            Some(ApprovalDecision::AllowWithInput { input }) => {
                match serde_json::from_str::<serde_json::Value>(&input) {
                    // Programs echo the input back unchanged when they only
                    // mean "allow".
                    Ok(v) if v == *request.args => Ok(None),
                    Ok(v) if v.is_object() => self.recheck(request, v).map(Some),
                    _ => Err((
                        ToolCallStatus::Denied,
                        "Permission denied: the approval's updated input is not a JSON object."
                            .to_owned(),
                    )),
                }
            }
            Some(ApprovalDecision::AllowSession) => {
                // "Don't ask again this session" on an edit covers edits
                // (Claude Code's choice): the session moves to accept-edits.
                if request.touches.kind == ToolKind::Edit && self.mode() == Mode::Default {
                    self.set_mode(Mode::AcceptEdits);
                    emitter.mode_changed(Mode::AcceptEdits.as_str());
                }
                for rule in always.rules {
                    self.grant(rule);
                }
                Ok(None)
            }
            Some(ApprovalDecision::AllowProject) => {
                for rule in always.rules {
                    if let Err(e) = wright_permissions::append_allow_rule(&self.local_config, &rule)
                    {
                        emitter.warning(format!(
                            "Could not save `{rule}` to {}: {e}; it is allowed for this session only.",
                            self.local_config.display()
                        ));
                    }
                    self.grant(rule);
                }
                Ok(None)
            }
            Some(ApprovalDecision::Deny { note }) => Err((
                ToolCallStatus::Denied,
                match note {
                    Some(note) if !note.trim().is_empty() => {
                        format!(
                            "Permission denied: the user declined this call. Their note: {note}"
                        )
                    }
                    _ => "Permission denied: the user declined this call.".to_owned(),
                },
            )),
        }
    }

    /// `Ok` when the policy lets this call run without asking anyone (a
    /// file the user @-mentioned is attached only then); otherwise why not.
    pub(crate) fn allows_without_asking(
        &self,
        tool: &str,
        touches: &Touches,
        cwd: &Path,
    ) -> Result<(), String> {
        let info = CallInfo { tool, touches, cwd };
        match self.engine.lock() {
            Ok(engine) => match engine.check(&info) {
                Verdict::Allow => Ok(()),
                Verdict::Deny { reason, .. } => Err(reason),
                Verdict::Ask { reason, .. } => Err(format!("reading it needs approval ({reason})")),
            },
            Err(_) => Err("the permission state is unavailable".to_owned()),
        }
    }

    /// Whether a person can answer a question (an interactive front end,
    /// or a program with a permission callback).
    pub(crate) fn can_ask(&self) -> bool {
        self.engine
            .lock()
            .is_ok_and(|engine| engine.can_ask() == CanAsk::Yes)
    }

    /// Puts `question` to the front end and waits for its answer; `None`
    /// when the turn was interrupted first. The `Notification` hooks run
    /// while the person decides.
    pub(crate) async fn ask_person(
        &self,
        question: Question<'_>,
        emitter: &Emitter,
        hooks: &dyn ApprovalHooks,
        cancel: &CancellationToken,
    ) -> Option<ApprovalDecision> {
        let id = format!(
            "approval_{}{}",
            self.id_prefix,
            self.next_id.fetch_add(1, Ordering::SeqCst)
        );
        let (tx, rx) = oneshot::channel();
        if let Ok(mut pending) = self.pending.lock() {
            pending.insert(id.clone(), tx);
        }
        emitter.emit(EventKind::ApprovalRequested {
            id: id.clone(),
            tool: question.tool.to_owned(),
            arguments: question.raw_args.to_owned(),
            touches: question.touches,
            reason: question.reason,
            suggested_rule: question.suggested_rules.first().cloned(),
            suggested_rules: question.suggested_rules,
            still_asks: question.still_asks,
            call_id: Some(question.call_id.to_owned()),
        });
        // An answer that comes first is not kept waiting for the hooks.
        let notification = HookPayload::Notification {
            message: question.notification,
            notification_type: "permission_prompt".to_owned(),
        };
        let notify = async {
            if hooks.any(&notification) {
                hooks.run(notification.clone(), cancel).await;
            }
            std::future::pending::<()>().await;
        };
        let decision = tokio::select! {
            decision = rx => decision.ok(),
            () = cancel.cancelled() => None,
            () = notify => None,
        };
        if let Ok(mut pending) = self.pending.lock() {
            pending.remove(&id);
        }
        decision
    }

    /// What "always" stores for the call: a rule per part of a command
    /// chain, and whether the call would still ask (nothing is promised
    /// when the permission state is unavailable).
    fn always_rules(&self, request: &Request<'_>, asked: &Rule) -> AlwaysRules {
        let info = CallInfo {
            tool: request.tool,
            touches: request.touches,
            cwd: request.cwd,
        };
        match self.engine.lock() {
            Ok(engine) => engine.always_rules(&info, asked),
            Err(_) => AlwaysRules {
                rules: Vec::new(),
                still_asks: Some("the permission state is unavailable".to_owned()),
            },
        }
    }

    fn grant(&self, rule: Rule) {
        if let Ok(mut engine) = self.engine.lock() {
            engine.grant_session(rule);
        }
    }
}

/// The `PermissionRequest` hooks' answer for a call that needs approval,
/// `None` when none decided.
async fn permission_hooks(
    request: &Request<'_>,
    hooks: &dyn ApprovalHooks,
    cancel: &CancellationToken,
) -> Option<HookAnswer> {
    let payload = HookPayload::PermissionRequest {
        tool_name: request.tool.to_owned(),
        tool_input: request.args.clone(),
        tool_use_id: Some(request.call_id.to_owned()),
    };
    if !hooks.any(&payload) {
        return None;
    }
    let run = hooks.run(payload, cancel).await;
    if let Some(reason) = &run.stop {
        hooks.stop(reason);
    }
    match run.permission {
        Some((PermissionDecision::Allow, _)) => Some(HookAnswer::Allow(
            run.updated_input.filter(serde_json::Value::is_object),
        )),
        Some((PermissionDecision::Deny, reason)) => Some(HookAnswer::Deny((
            ToolCallStatus::Denied,
            format!(
                "Permission denied by a PermissionRequest hook: {}",
                if reason.trim().is_empty() {
                    "no reason given".to_owned()
                } else {
                    cap_hook_text(reason.trim())
                }
            ),
        ))),
        Some((PermissionDecision::Ask, _)) | None => None,
    }
}

fn deny(reason: &str, by: DeniedBy) -> Refusal {
    let prefix = match by {
        DeniedBy::Guard => "Blocked by guard",
        DeniedBy::Hook => "Blocked by hook",
        DeniedBy::Rule | DeniedBy::Mode | DeniedBy::Plan | DeniedBy::NoApproval => {
            "Permission denied"
        }
    };
    (ToolCallStatus::Denied, format!("{prefix}: {reason}"))
}
