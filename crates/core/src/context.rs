//! What a turn runs with: the session's services and settings
//! ([`TurnContext`]), the changes a front end makes while it runs
//! ([`LiveChanges`]), the per-file write locks and the approval routing an
//! agent shares with its subagents, the totals kept across turns, a hook's
//! request to stop, and the usage accounting every model request goes
//! through. Every part of the loop (hooks, tools, verifier, compaction, the
//! turn itself) takes this context; the context holds the session options
//! and the tool box, so it imports those two and nothing else of the loop.

use std::sync::Arc;
use std::time::Instant;

use wright_llm::ModelClient;
use wright_protocol::{EventKind, Usage};

use crate::approval::Gate;
use crate::emitter::Emitter;
use crate::options::SessionOptions;
use crate::recorder::Recorder;

/// The services and settings a turn runs with.
pub(crate) struct TurnContext {
    pub(crate) options: SessionOptions,
    /// Shared with the subagents that run under the parent's permissions.
    pub(crate) gate: Arc<Gate>,
    pub(crate) recorder: Recorder,
    /// Where snapshots of files about to change are kept for `rewind`: the
    /// session's own recorder, which a subagent working in the user's tree
    /// shares (its edits are the session's to undo); an isolated child's
    /// worktree edits stay in its own transcript.
    pub(crate) checkpoints: Recorder,
    pub(crate) client: Arc<dyn ModelClient>,
    /// The built-in and MCP tools.
    pub(crate) tools: crate::toolbox::ToolBox,
    pub(crate) emitter: Emitter,
    /// Session totals across turns, subagents' requests included (shared
    /// with them, so the budget limit counts everything).
    pub(crate) totals: Arc<std::sync::Mutex<Totals>>,
    /// This agent's own share of the totals (a subagent's result reports it).
    pub(crate) own: std::sync::Mutex<Totals>,
    /// Who this context runs for: the session's top agent, or a subagent.
    pub(crate) role: Role,
    /// Per-file write locks, shared with subagents.
    pub(crate) file_locks: Arc<FileLocks>,
    /// Permission states of subagents that have their own (a stricter
    /// mode, a worktree): the front end's answers are delivered to them too.
    pub(crate) child_gates: Arc<std::sync::Mutex<Vec<std::sync::Weak<Gate>>>>,
    /// Set when a hook said `continue: false`.
    pub(crate) stop: StopRequest,
    /// Messages sent for the running turn (`Op::Steer`), not yet delivered.
    pub(crate) steering: std::sync::Mutex<Vec<crate::turn::Prompt>>,
    /// Set when a plan ended a run nobody could approve it in.
    pub(crate) presented_plan: PresentedPlan,
    /// Context from `SessionStart` hooks, sent with the next prompt.
    pub(crate) pending_context: std::sync::Mutex<Vec<String>>,
    /// Model and thinking changes made mid-session (`Op::SetModel`,
    /// `Op::SetMaxThinkingTokens`); a lock because ops arrive while a
    /// turn holds the context.
    pub(crate) live: std::sync::Mutex<LiveChanges>,
}

/// Changes a front end made while the session runs, applied from the next
/// model request on.
#[derive(Debug, Default)]
pub(crate) struct LiveChanges {
    /// A model switch not yet applied: `Some(None)` goes back to the
    /// session's configured model.
    pub(crate) model: Option<Option<String>>,
    /// The thinking budget in force when changed (`Some(None)`: off);
    /// `None` keeps the configured one.
    pub(crate) thinking: Option<Option<u32>>,
}

impl TurnContext {
    /// The thinking budget for the next request.
    pub(crate) fn thinking_budget(&self) -> Option<u32> {
        self.live
            .lock()
            .ok()
            .and_then(|live| live.thinking)
            .unwrap_or(self.options.thinking_budget)
    }
}

/// One lock per file an edit tool writes, shared by an agent and its
/// subagents.
#[derive(Debug, Default)]
pub(crate) struct FileLocks(
    std::sync::Mutex<std::collections::HashMap<std::path::PathBuf, Arc<tokio::sync::Mutex<()>>>>,
);

impl FileLocks {
    /// Waits for `path`'s lock and holds it until the guard is dropped.
    pub(crate) async fn lock(&self, path: &std::path::Path) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = match self.0.lock() {
            Ok(mut map) => {
                // Locks nobody holds or waits for are dropped as we go.
                map.retain(|_, l| Arc::strong_count(l) > 1);
                Arc::clone(map.entry(path.to_path_buf()).or_default())
            }
            Err(_) => Arc::default(),
        };
        lock.lock_owned().await
    }
}

/// Delivers a front end's answer to the gate that asked: the session's,
/// or a running subagent's own.
pub(crate) fn resolve_approval(
    ctx: &TurnContext,
    id: &str,
    decision: wright_protocol::ApprovalDecision,
) {
    if let Ok(mut children) = ctx.child_gates.lock() {
        children.retain(|g| g.strong_count() > 0);
        for gate in children.iter().filter_map(std::sync::Weak::upgrade) {
            gate.resolve(id, decision.clone());
        }
    }
    ctx.gate.resolve(id, decision);
}

/// Whether a context runs the top agent or a subagent: a subagent has no
/// `Task` tool, fires `SubagentStop` instead of `Stop`, and no
/// `UserPromptSubmit` (its prompt is the parent's call, already checked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// The session's own agent.
    Root,
    /// A child started by a `Task` call.
    Subagent,
}

/// Usage and cost summed over the session.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Totals {
    pub(crate) usage: Usage,
    pub(crate) cost_usd: f64,
}

/// A hook's `continue: false`: the turn ends at the next safe point, with
/// the hook's reason shown to the user.
#[derive(Debug, Default)]
pub(crate) struct StopRequest(std::sync::Mutex<Option<String>>);

impl StopRequest {
    /// Asks the turn to stop (the first reason is kept).
    pub(crate) fn request(&self, reason: &str) {
        if let Ok(mut slot) = self.0.lock()
            && slot.is_none()
        {
            *slot = Some(reason.to_owned());
        }
    }

    /// The pending request, if any, left in place.
    pub(crate) fn peek(&self) -> Option<String> {
        self.0.lock().ok().and_then(|slot| slot.clone())
    }

    /// The pending request, cleared.
    pub(crate) fn take(&self) -> Option<String> {
        self.0.lock().ok().and_then(|mut slot| slot.take())
    }
}

/// The slot a headless plan is put in: the turn ends with it as its result.
#[derive(Debug, Default)]
pub(crate) struct PresentedPlan(std::sync::Mutex<Option<String>>);

impl PresentedPlan {
    pub(crate) fn present(&self, plan: &str) {
        if let Ok(mut slot) = self.0.lock()
            && slot.is_none()
        {
            *slot = Some(plan.to_owned());
        }
    }

    /// Whether a plan ended the run (the calls after it do not run).
    pub(crate) fn is_set(&self) -> bool {
        self.0.lock().is_ok_and(|slot| slot.is_some())
    }

    /// The plan, cleared.
    pub(crate) fn take(&self) -> Option<String> {
        self.0.lock().ok().and_then(|mut slot| slot.take())
    }
}

/// Adds one model request's usage and cost to the session totals, records
/// it, and tells the front end.
pub(crate) fn report_usage(ctx: &TurnContext, model: &str, usage: Usage, started: Instant) {
    let (cost_usd, totals) = count_usage(ctx, model, usage);
    ctx.emitter.emit(EventKind::Usage {
        request: usage,
        total: totals.usage,
        cost_usd,
        total_cost_usd: totals.cost_usd,
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        model: model.to_owned(),
    });
}

/// Adds one request's usage to the agent's and the session's totals and
/// records it, without the `Usage` event (which tells front ends a response
/// is complete): for an attempt that broke off and is retried, whose cost
/// the next `Usage` event's totals then include. Returns the request's cost
/// and the new totals.
pub(crate) fn count_usage(ctx: &TurnContext, model: &str, usage: Usage) -> (f64, Totals) {
    let cost_usd = ctx
        .options
        .catalog
        .lookup(model)
        .info()
        .pricing
        .as_ref()
        .map_or(0.0, |p| wright_llm::cost_usd(&usage, p));
    if let Ok(mut own) = ctx.own.lock() {
        own.usage.add(&usage);
        own.cost_usd += cost_usd;
    }
    let totals = match ctx.totals.lock() {
        Ok(mut totals) => {
            totals.usage.add(&usage);
            totals.cost_usd += cost_usd;
            *totals
        }
        Err(_) => Totals { usage, cost_usd },
    };
    ctx.recorder.usage(&ctx.emitter, usage, model, cost_usd);
    (cost_usd, totals)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_writer_per_file_at_a_time() {
        let locks = FileLocks::default();
        let held = locks.lock(std::path::Path::new("/w/a.rs")).await;
        let waiting = locks.lock(std::path::Path::new("/w/a.rs"));
        tokio::pin!(waiting);
        assert!(futures::poll!(&mut waiting).is_pending());
        // Another file is not held up.
        let _other = locks.lock(std::path::Path::new("/w/b.rs")).await;
        drop(held);
        let _next = waiting.await;
    }
}
