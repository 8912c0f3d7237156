//! Runs the tool calls of one model response: validates arguments, applies
//! the permission policy, runs read-only calls concurrently and everything
//! else one at a time in order, and returns exactly one result per call.
//! Each result is recorded to the session the moment it exists (one
//! message per result; loading joins them), so a kill during a later call
//! of the same response loses none of the finished ones.

use std::sync::Arc;
use std::time::Instant;

use futures::future::join_all;
use tokio_util::sync::CancellationToken;
use wright_permissions::HookVerdict;
use wright_protocol::{
    ContentBlock, Item, ItemDelta, ItemKind, Message, Role, ToolCallStatus, ToolKind, Touches,
};
use wright_tools::{Tool, ToolContext, ToolError, ToolOutput};

use crate::approval::{Refusal, Request};
use crate::context::TurnContext;
use crate::emitter::Emitter;
use crate::{tool_hooks, verify_step};

/// One call ready to run.
struct Runnable {
    index: usize,
    call_id: String,
    arguments: String,
    item_id: String,
    tool: Arc<dyn Tool>,
    args: serde_json::Value,
    /// What the call touches, as its tool said for `args`.
    touches: Touches,
    /// Context a `PreToolUse` hook asked to give the model with the result.
    hook_context: Option<String>,
}

/// A call that passed the checks: the tool, the arguments it runs with,
/// what they touch, and the `PreToolUse` hooks' context.
type Prepared = (Arc<dyn Tool>, serde_json::Value, Touches, Option<String>);

/// A tool call the model asked for, announced to the front end.
pub(crate) struct PendingCall {
    item_id: String,
    /// The response hit the output limit: broken arguments are explained so.
    cut_off: bool,
    call_id: String,
    name: String,
    arguments: String,
    /// What the model's arguments touch (shown with the item).
    touches: Option<Touches>,
}

/// Emits an `ItemStarted` for every tool call of a finished response, so
/// front ends see the whole response before any tool runs.
pub(crate) fn announce_tool_calls(
    ctx: &TurnContext,
    message: &Message,
    cut_off: bool,
) -> Vec<PendingCall> {
    // Only the last call can have been cut: any before it were complete
    // when the next block began.
    let last = message.tool_calls().count().saturating_sub(1);
    message
        .tool_calls()
        .enumerate()
        .map(|(n, (call_id, name, arguments))| {
            let item_id = ctx.emitter.next_item_id();
            let tool = ctx.tools.lookup(name);
            let touches = touches_of(tool.as_deref(), name, arguments);
            let call = PendingCall {
                item_id,
                cut_off: cut_off && n == last,
                call_id: call_id.to_owned(),
                name: name.to_owned(),
                arguments: arguments.to_owned(),
                touches,
            };
            announce(ctx, &call, tool.as_deref());
            call
        })
        .collect()
}

/// What a call touches, as its tool says for the model's arguments (after
/// the same renames [`prepare`] makes); `None` for an unknown tool or
/// arguments that are not an object.
fn touches_of(tool: Option<&dyn Tool>, name: &str, arguments: &str) -> Option<Touches> {
    let args = parse_arguments(arguments).ok()?;
    Some(tool?.touches(&wright_tools::claude_names(name, args)))
}

/// Emits the `ItemStarted` of a call about to be checked and run.
fn announce(ctx: &TurnContext, call: &PendingCall, tool: Option<&dyn Tool>) {
    ctx.emitter.item_started(Item {
        id: call.item_id.clone(),
        kind: tool_item(&call.shown(tool), ToolCallStatus::InProgress),
    });
}

impl PendingCall {
    fn shown<'a>(&'a self, tool: Option<&'a dyn Tool>) -> Shown<'a> {
        Shown {
            item_id: &self.item_id,
            call_id: &self.call_id,
            name: &self.name,
            tool,
            arguments: &self.arguments,
            touches: self.touches.as_ref(),
        }
    }
}

impl Runnable {
    fn shown(&self) -> Shown<'_> {
        Shown {
            item_id: &self.item_id,
            call_id: &self.call_id,
            name: self.tool.name(),
            tool: Some(self.tool.as_ref()),
            arguments: &self.arguments,
            touches: Some(&self.touches),
        }
    }
}

/// Runs the announced calls and returns the tool-result blocks in call order.
pub(crate) async fn run_tool_calls(
    ctx: &TurnContext,
    calls: Vec<PendingCall>,
    cancel: &CancellationToken,
) -> Vec<ContentBlock> {
    let mut results: Vec<Option<Vec<ContentBlock>>> = vec![None; calls.len()];
    let mut batch: Vec<Runnable> = Vec::new();
    let pending = verify_step::Pending::new(calls.iter().map(|c| c.name.as_str()));
    for (index, call) in calls.into_iter().enumerate() {
        let tool = ctx.tools.lookup(&call.name);
        if let Some(reason) = ctx.stop.peek() {
            flush(ctx, &mut batch, &mut results, &pending, cancel).await;
            let text = format!("Not run: a hook stopped the turn ({reason}).");
            let tool = tool.as_deref();
            results[index] = Some(refuse(ctx, &call, tool, ToolCallStatus::Cancelled, text));
            continue;
        }
        if ctx.presented_plan.is_set() {
            flush(ctx, &mut batch, &mut results, &pending, cancel).await;
            let text = "Not run: the run ended at the plan (ExitPlanMode) for the user to review."
                .to_owned();
            let tool = tool.as_deref();
            results[index] = Some(refuse(ctx, &call, tool, ToolCallStatus::Cancelled, text));
            continue;
        }
        if cancel.is_cancelled() {
            let text = "Cancelled by user before it ran.".to_owned();
            let tool = tool.as_deref();
            results[index] = Some(refuse(ctx, &call, tool, ToolCallStatus::Cancelled, text));
            continue;
        }
        match prepare(ctx, &call, tool.clone(), false, cancel).await {
            Err((status, mut text)) => {
                // A refused last edit still has the response's earlier edits checked.
                let tool_ctx = tool_context(ctx, cancel);
                if let Some(report) =
                    verify_step::after_call(ctx, &pending, index, &tool_ctx, cancel).await
                {
                    text.push_str("\n\n");
                    text.push_str(&report);
                }
                results[index] = Some(refuse(ctx, &call, tool.as_deref(), status, text));
            }
            Ok((tool, args, touches, hook_context)) => {
                let read_only = tool.kind() == ToolKind::ReadOnly;
                let runnable = Runnable {
                    index,
                    call_id: call.call_id,
                    arguments: call.arguments,
                    item_id: call.item_id,
                    tool,
                    args,
                    touches,
                    hook_context,
                };
                if read_only {
                    batch.push(runnable);
                } else {
                    flush(ctx, &mut batch, &mut results, &pending, cancel).await;
                    let (index, block) = execute(ctx, runnable, &pending, cancel).await;
                    results[index] = Some(block);
                }
            }
        }
    }
    flush(ctx, &mut batch, &mut results, &pending, cancel).await;
    results.into_iter().flatten().flatten().collect()
}

/// The result of a call that does not run, shown and recorded like any other.
fn refuse(
    ctx: &TurnContext,
    call: &PendingCall,
    tool: Option<&dyn Tool>,
    status: ToolCallStatus,
    text: String,
) -> Vec<ContentBlock> {
    settle(ctx, refused(ctx, call, tool, status, text))
}

/// Runs the pending read-only calls concurrently.
async fn flush(
    ctx: &TurnContext,
    batch: &mut Vec<Runnable>,
    results: &mut [Option<Vec<ContentBlock>>],
    pending: &verify_step::Pending,
    cancel: &CancellationToken,
) {
    let running = batch.drain(..).map(|r| execute(ctx, r, pending, cancel));
    for (index, block) in join_all(running).await {
        results[index] = Some(block);
    }
}

/// Checks the tool exists, its arguments parse, and the policy (with the
/// `PreToolUse` hooks in their place) allows it, asking the user when it
/// says so. Returns the arguments to run with and the hooks' context.
/// `by_user`: the user typed the command (`!cmd`); it runs without the
/// approval the mode would ask for, as a hook's allow would (guards, deny
/// and ask rules, secret files, plan mode and unconfined commands still
/// apply, and a hook's own answer wins).
async fn prepare(
    ctx: &TurnContext,
    call: &PendingCall,
    tool: Option<Arc<dyn Tool>>,
    by_user: bool,
    cancel: &CancellationToken,
) -> Result<Prepared, Refusal> {
    let (name, arguments) = (call.name.as_str(), call.arguments.as_str());
    let Some(tool) = tool else {
        return Err((
            ToolCallStatus::Failed,
            format!(
                "Unknown tool `{name}`. Available tools: {}.",
                ctx.tools.names().join(", ")
            ),
        ));
    };
    if call.cut_off {
        // Even arguments that happen to parse may be a prefix of what the
        // model meant: a cut call is never run.
        let why = ToolError::InvalidArgs(format!(
            "the response was cut off at the output limit ({} tokens) before this call was complete, \
             so it was not run. Retry with a smaller step: several edits, or a shorter file written in parts.",
            ctx.options.max_tokens
        ));
        return Err((ToolCallStatus::Failed, why.to_string()));
    }
    let args = parse_arguments(arguments).map_err(|e| (ToolCallStatus::Failed, e.to_string()))?;
    let args = wright_tools::claude_names(name, args);
    let hooks = tool_hooks::before(ctx, &call.call_id, name, args, cancel).await;
    let raw_args = if hooks.rewritten {
        hooks.args.to_string()
    } else {
        arguments.to_owned()
    };
    // Asked once per call; again only for input a hook or an approval rewrote.
    let touches = match (&call.touches, hooks.rewritten) {
        (Some(touches), false) => touches.clone(),
        _ => tool.touches(&hooks.args),
    };
    let verdict = match &hooks.verdict {
        HookVerdict::None if by_user => &HookVerdict::Allow,
        v => v,
    };
    let request = Request {
        call_id: &call.call_id,
        tool: name,
        describes: tool.as_ref(),
        touches: &touches,
        args: &hooks.args,
        raw_args: &raw_args,
        cwd: &ctx.options.cwd,
        on_behalf_of: None,
    };
    let rewritten = ctx
        .gate
        .decide(&request, &ctx.emitter, ctx, verdict, cancel)
        .await?;
    if let Some(updated) = &rewritten {
        ctx.emitter.notice(format!(
            "The approval (a PermissionRequest hook or the program asked) changed the input of {name} to: {}",
            crate::text::cap_hook_text(&updated.to_string())
        ));
    }
    let (args, touches) = match rewritten {
        Some(updated) => {
            let touches = tool.touches(&updated);
            (updated, touches)
        }
        None => (hooks.args, touches),
    };
    Ok((tool, args, touches, hooks.context))
}

/// The context a tool runs with in this session.
pub(crate) fn tool_context(ctx: &TurnContext, cancel: &CancellationToken) -> ToolContext {
    let mut tool_ctx = ToolContext::new(&ctx.options.cwd, &ctx.options.spill_dir);
    tool_ctx.cancel = cancel.clone();
    tool_ctx.limits = ctx.options.limits;
    tool_ctx.roots = ctx.options.policy.workspace_roots.clone();
    tool_ctx.jobs = ctx.options.jobs.clone();
    tool_ctx.editor = ctx.options.editor.clone();
    tool_ctx.sandbox = ctx.gate.sandbox_for_commands(ctx.options.sandbox.as_ref());
    tool_ctx
}

/// Parses the model's raw argument text. Empty text means "no arguments",
/// which some servers send for tools without parameters.
fn parse_arguments(raw: &str) -> Result<serde_json::Value, ToolError> {
    if raw.trim().is_empty() {
        return Ok(serde_json::Value::Object(serde_json::Map::new()));
    }
    match serde_json::from_str::<serde_json::Value>(raw) {
        Ok(value @ serde_json::Value::Object(_)) => Ok(value),
        Ok(_) => Err(ToolError::InvalidArgs(
            "expected a JSON object of named arguments".to_owned(),
        )),
        Err(e) => Err(ToolError::InvalidArgs(format!(
            "the arguments are not valid JSON ({e}); send one JSON object that matches the tool's schema"
        ))),
    }
}

async fn execute(
    ctx: &TurnContext,
    r: Runnable,
    pending: &verify_step::Pending,
    cancel: &CancellationToken,
) -> (usize, Vec<ContentBlock>) {
    let index = r.index;
    let blocks = run_runnable(ctx, r, pending, cancel).await;
    (index, settle(ctx, blocks))
}

/// Runs one allowed call (unless interrupted first) and emits its result;
/// the caller records it.
async fn run_runnable(
    ctx: &TurnContext,
    r: Runnable,
    pending: &verify_step::Pending,
    cancel: &CancellationToken,
) -> Vec<ContentBlock> {
    let name = r.tool.name();
    if cancel.is_cancelled() {
        let outcome = Outcome::refused(
            ToolCallStatus::Cancelled,
            "Cancelled by user before it ran.".to_owned(),
        );
        return finish(&ctx.emitter, &r.shown(), outcome);
    }
    let sink_emitter = ctx.emitter.clone();
    let sink_item = r.item_id.clone();
    let mut tool_ctx = tool_context(ctx, cancel);
    tool_ctx.output = Some(Arc::new(move |chunk: &str| {
        sink_emitter.item_delta(&sink_item, ItemDelta::ToolOutput(chunk.to_owned()));
    }));
    if r.tool.kind() != ToolKind::ReadOnly {
        ctx.recorder.sync(&ctx.emitter).await;
    }
    // The same resolver the tool uses, so each snapshot is of a file it
    // writes; sorted, so two calls that lock the same files lock them in
    // one order.
    let mut changed: Vec<std::path::PathBuf> = r
        .touches
        .writes
        .iter()
        .filter_map(|path| wright_tools::paths::resolve(&tool_ctx, path).ok())
        .map(|resolved| resolved.real)
        .collect();
    changed.sort();
    changed.dedup();
    for path in &changed {
        ctx.checkpoints
            .checkpoint(&ctx.emitter, path, &tool_ctx.roots)
            .await;
    }
    // Subagents run side by side: two that edit one file take turns, so
    // neither writes over the other's read-modify-write.
    let mut _write_locks = Vec::with_capacity(changed.len());
    for path in &changed {
        _write_locks.push(ctx.file_locks.lock(path).await);
    }
    let started = Instant::now();
    let result = match ctx.tools.agents() {
        // A subagent needs the session, which a tool does not get.
        Some(agents) if name == crate::task::NAME => {
            crate::task::run(ctx, agents, &r.call_id, r.args.clone(), cancel).await
        }
        // A question needs the front end, which a tool does not reach.
        _ if ctx.tools.interactive() && crate::interaction::is_interaction(name) => {
            crate::interaction::run(ctx, name, &r.call_id, r.args.clone(), cancel).await
        }
        _ => r.tool.run(r.args.clone(), &tool_ctx).await,
    };
    let mut outcome = Outcome::from_result(result, started);
    if outcome.status == ToolCallStatus::Completed && verify_step::Pending::is_verified(name) {
        for path in changed {
            pending.edited(path);
        }
    }
    let post = tool_hooks::after(
        ctx,
        (&r.call_id, name, &r.args, &r.touches),
        outcome.status,
        &outcome.content,
        &outcome.display,
        cancel,
    )
    .await;
    let report = verify_step::after_call(ctx, pending, r.index, &tool_ctx, cancel).await;
    for extra in [r.hook_context.clone(), post, report].into_iter().flatten() {
        outcome.content.push_str("\n\n");
        outcome.content.push_str(&extra);
    }
    finish(&ctx.emitter, &r.shown(), outcome)
}

/// Runs a command the user typed (`!cmd`) exactly as the model's `Bash`
/// call would run: the same `PreToolUse` hooks, permission check (asking
/// when it says so, on the user's behalf), sandbox and `PostToolUse` hooks,
/// shown as a `Bash` tool-call item. Nothing is recorded here. Returns the
/// command as it ran and its result text, or `None` when it did not run
/// (refused, interrupted before it started, no `Bash` tool in this session).
pub(crate) async fn run_user_command(
    ctx: &TurnContext,
    command: &str,
    cancel: &CancellationToken,
) -> Option<(String, String)> {
    let tool = ctx.tools.lookup(BASH);
    let item_id = ctx.emitter.next_item_id();
    let call = PendingCall {
        call_id: format!("user_{item_id}"),
        item_id,
        cut_off: false,
        name: BASH.to_owned(),
        arguments: serde_json::json!({ "command": command }).to_string(),
        touches: None,
    };
    let call = PendingCall {
        touches: touches_of(tool.as_deref(), &call.name, &call.arguments),
        ..call
    };
    announce(ctx, &call, tool.as_deref());
    let prepared = match &tool {
        // `--tools`/`--disallowed-tools` took Bash away: the user's command
        // is refused as the model's would be.
        None => Err((
            ToolCallStatus::Denied,
            "Not run: the Bash tool is not available in this session.".to_owned(),
        )),
        Some(_) => prepare(ctx, &call, tool.clone(), true, cancel).await,
    };
    let (tool, args, touches, hook_context) = match prepared {
        Ok(prepared) if !cancel.is_cancelled() => prepared,
        Ok(_) => {
            let text = "Cancelled by user before it ran.".to_owned();
            refused(ctx, &call, tool.as_deref(), ToolCallStatus::Cancelled, text);
            return None;
        }
        Err((status, text)) => {
            refused(ctx, &call, tool.as_deref(), status, text);
            return None;
        }
    };
    let ran = args
        .get("command")
        .and_then(|c| c.as_str())
        .unwrap_or(command)
        .to_owned();
    let pending = verify_step::Pending::new(std::iter::once(BASH));
    let runnable = Runnable {
        index: 0,
        call_id: call.call_id,
        arguments: call.arguments,
        item_id: call.item_id,
        tool,
        args,
        touches,
        hook_context,
    };
    let blocks = run_runnable(ctx, runnable, &pending, cancel).await;
    let text = blocks.into_iter().find_map(|b| match b {
        ContentBlock::ToolResult { content, .. } => Some(content),
        _ => None,
    })?;
    Some((ran, text))
}

/// The name of the shell tool `!cmd` runs through.
const BASH: &str = "Bash";

/// Shows a call that does not run and returns its result, unrecorded.
fn refused(
    ctx: &TurnContext,
    call: &PendingCall,
    tool: Option<&dyn Tool>,
    status: ToolCallStatus,
    text: String,
) -> Vec<ContentBlock> {
    finish(
        &ctx.emitter,
        &call.shown(tool),
        Outcome::refused(status, text),
    )
}

/// Records one call's result to the session as soon as it exists and
/// hands it back for the in-memory conversation.
fn settle(ctx: &TurnContext, blocks: Vec<ContentBlock>) -> Vec<ContentBlock> {
    let message = Message {
        role: Role::User,
        content: blocks,
    };
    ctx.recorder.message(&ctx.emitter, &message);
    message.content
}

/// What became of a call.
struct Outcome {
    status: ToolCallStatus,
    content: String,
    /// Images sent after the result (only a completed call has any).
    images: Vec<wright_tools::ToolImage>,
    display: wright_protocol::ToolDisplay,
}

impl Outcome {
    fn refused(status: ToolCallStatus, content: String) -> Self {
        let summary = content.lines().next().unwrap_or_default().to_owned();
        Self {
            status,
            content,
            images: Vec::new(),
            display: wright_protocol::ToolDisplay {
                summary,
                ..Default::default()
            },
        }
    }

    fn from_result(result: Result<ToolOutput, ToolError>, started: Instant) -> Self {
        let elapsed = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        match result {
            Ok(output) => {
                let mut display = output.display;
                if display.duration_ms == 0 {
                    display.duration_ms = elapsed;
                }
                Self {
                    status: ToolCallStatus::Completed,
                    content: output.content,
                    images: output.images,
                    display,
                }
            }
            Err(err) => {
                let status = match err {
                    ToolError::Blocked(_) | ToolError::Denied(_) => ToolCallStatus::Denied,
                    ToolError::Cancelled => ToolCallStatus::Cancelled,
                    ToolError::InvalidArgs(_) | ToolError::Failed(_) => ToolCallStatus::Failed,
                };
                let mut outcome = Self::refused(status, err.to_string());
                outcome.display.duration_ms = elapsed;
                outcome
            }
        }
    }
}

/// The item of a call: what it is, what it touches and where it stands.
struct Shown<'a> {
    item_id: &'a str,
    call_id: &'a str,
    name: &'a str,
    tool: Option<&'a dyn Tool>,
    arguments: &'a str,
    touches: Option<&'a Touches>,
}

fn tool_item(shown: &Shown<'_>, status: ToolCallStatus) -> ItemKind {
    ItemKind::ToolCall {
        call_id: shown.call_id.to_owned(),
        name: shown.name.to_owned(),
        tool_kind: shown.tool.map(|t| t.kind()),
        arguments: shown.arguments.to_owned(),
        touches: shown.touches.cloned(),
        status,
        output: None,
        display: None,
    }
}

/// Emits the completed item and builds the result block for the model.
fn finish(emitter: &Emitter, shown: &Shown<'_>, outcome: Outcome) -> Vec<ContentBlock> {
    let mut kind = tool_item(shown, outcome.status);
    if let ItemKind::ToolCall {
        output, display, ..
    } = &mut kind
    {
        *output = Some(outcome.content.clone());
        *display = Some(outcome.display);
    }
    emitter.item_completed(Item {
        id: shown.item_id.to_owned(),
        kind,
    });
    let result = ContentBlock::ToolResult {
        call_id: shown.call_id.to_owned(),
        content: outcome.content,
        is_error: outcome.status != ToolCallStatus::Completed,
    };
    // Images follow their result; the wire adapters place them where each
    // protocol wants them (inside Anthropic's tool_result, in a user
    // message after OpenAI's tool outputs).
    std::iter::once(result)
        .chain(outcome.images.into_iter().map(|i| ContentBlock::Image {
            media_type: i.media_type,
            data: i.data,
        }))
        .collect()
}
