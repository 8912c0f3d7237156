//! Subagents: the `Task` tool. A call starts a child agent inside this
//! session: its own conversation, system prompt (the agent definition's
//! body), tools (the definition's list, never `Task`: no recursion) and
//! turn limit; the parent's model client, permissions (never looser) and
//! budget (the totals are shared). Its events go to the same front end,
//! stamped with its agent path (`root/explore-1`) and the parent's call id,
//! so what it does is visible as it happens. Its final answer is the call's
//! result, with its turns, tokens, cost and time in the display details.

use std::sync::Arc;
use std::time::Instant;

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;
use wright_context::agents::AgentDef;
use wright_permissions::Mode;
use wright_protocol::{
    ContentBlock, Role, ToolDisplay, ToolKind, ToolSpec, Touches, TurnEndReason,
};
use wright_tools::{Tool, ToolContext, ToolError, ToolOutput};

use crate::approval::Gate;
use crate::context::{Role as AgentRole, StopRequest, Totals, TurnContext};
use crate::recorder::Recorder;
use crate::turn::{Conversation, Prompt, run_turn};

/// The tool's name (Claude Code's).
pub(crate) const NAME: &str = "Task";

/// The agents a session may start, and how many at once.
#[derive(Debug)]
pub struct Agents {
    /// The definitions, built-in ones first.
    pub defs: Vec<AgentDef>,
    /// A child's request limit when its definition sets none.
    pub max_turns: u32,
    /// Children running at the same time (more calls wait for a slot).
    slots: tokio::sync::Semaphore,
    /// Numbers children per type: `explore-1`, `explore-2`, …
    started: std::sync::Mutex<std::collections::HashMap<String, u64>>,
    /// Where isolated children's worktrees go; `None`: no isolation.
    worktrees: Option<std::path::PathBuf>,
    /// Isolate children whose definition says nothing (`[agents] isolation`).
    isolate_by_default: bool,
}

impl Agents {
    /// `defs` with a default turn limit and a cap on concurrent children.
    pub fn new(defs: Vec<AgentDef>, max_turns: u32, max_concurrent: usize) -> Self {
        Self {
            defs,
            max_turns,
            slots: tokio::sync::Semaphore::new(max_concurrent.max(1)),
            started: std::sync::Mutex::default(),
            worktrees: None,
            isolate_by_default: false,
        }
    }

    /// The next child's name for agent type `kind`: `explore-1`, then
    /// `explore-2`, whatever other types ran in between.
    fn next_name(&self, kind: &str) -> String {
        let n = match self.started.lock() {
            Ok(mut started) => {
                let n = started.entry(kind.to_owned()).or_insert(0);
                *n += 1;
                *n
            }
            // Poisoned only by a panic elsewhere; a repeated name is
            // still told apart by its call id.
            Err(_) => 0,
        };
        format!("{kind}-{n}")
    }

    /// Worktree isolation: isolated children work in git worktrees under
    /// `dir`; `by_default` isolates those whose definition says nothing.
    #[must_use]
    pub fn with_worktrees(mut self, dir: std::path::PathBuf, by_default: bool) -> Self {
        self.worktrees = Some(dir);
        self.isolate_by_default = by_default;
        self
    }
}

#[derive(serde::Deserialize)]
struct Args {
    #[serde(default)]
    description: String,
    prompt: String,
    #[serde(default)]
    subagent_type: Option<String>,
    #[serde(default)]
    model: Option<String>,
}

/// The `Task` tool's spec: the agent types with their descriptions, so the
/// model picks by description.
pub(crate) fn spec(agents: &Agents) -> ToolSpec {
    let mut description = String::from(
        "Starts a subagent to carry out a task on its own and report back. Use it for \
         searches and investigations that would fill your context, or independent pieces of \
         work; start several in one response to run them in parallel. The subagent does not \
         see this conversation: give it a complete, self-contained prompt, and say what to \
         report. Its final answer comes back as the result. Agent types:\n",
    );
    for def in &agents.defs {
        let first = def.description.lines().next().unwrap_or_default();
        description.push_str(&format!("- {}: {first}\n", def.name));
    }
    ToolSpec {
        name: NAME.to_owned(),
        description,
        input_schema: serde_json::json!({
            "type": "object",
            "properties": {
                "description": {"type": "string", "description": "A short (3-5 word) label for the task"},
                "prompt": {"type": "string", "description": "The task, complete and self-contained"},
                "subagent_type": {"type": "string", "description": "Which agent type to use (default general)"},
                "model": {"type": "string", "description": "A model for this agent (default: its definition's, or yours)"}
            },
            "required": ["description", "prompt"]
        }).into(),
    }
}

/// The registry entry: the spec, and a run that only the core performs
/// (it needs the session, which a tool does not get).
pub(crate) struct TaskTool {
    pub(crate) spec: ToolSpec,
}

impl Tool for TaskTool {
    fn name(&self) -> &str {
        NAME
    }

    fn spec(&self) -> ToolSpec {
        self.spec.clone()
    }

    /// Children run side by side (their own calls are checked one by one).
    fn kind(&self) -> ToolKind {
        ToolKind::ReadOnly
    }

    fn touches(&self, _args: &serde_json::Value) -> Touches {
        Touches::of(ToolKind::ReadOnly)
    }

    fn run<'a>(
        &'a self,
        _args: serde_json::Value,
        _ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async {
            Err(ToolError::Failed(
                "Task runs only inside a session".to_owned(),
            ))
        })
    }
}

/// How strict a mode is, for "never looser than the parent".
fn strictness(mode: Mode) -> u8 {
    match mode {
        Mode::Plan => 4,
        Mode::Default => 3,
        Mode::AcceptEdits => 2,
        Mode::Auto => 1,
        Mode::Bypass => 0,
    }
}

/// Runs one `Task` call to its end.
pub(crate) async fn run(
    ctx: &TurnContext,
    agents: &Agents,
    call_id: &str,
    args: serde_json::Value,
    cancel: &CancellationToken,
) -> Result<ToolOutput, ToolError> {
    let args: Args = wright_tools::parse_args(args)?;
    if args.prompt.trim().is_empty() {
        return Err(ToolError::InvalidArgs("`prompt` is empty".to_owned()));
    }
    let wanted = args.subagent_type.as_deref().unwrap_or("general");
    let Some(def) = agents.defs.iter().find(|d| d.name == wanted) else {
        let names: Vec<&str> = agents.defs.iter().map(|d| d.name.as_str()).collect();
        return Err(ToolError::InvalidArgs(format!(
            "no agent type `{wanted}`; available: {}",
            names.join(", ")
        )));
    };
    let model = args
        .model
        .as_deref()
        .or(def.model.as_deref())
        .map(|m| resolve_model(m, &ctx.options.model))
        .unwrap_or_else(|| ctx.options.model.clone());
    // A model without a known price costs "0" in the totals: under a budget
    // that would let a child spend without limit.
    let priced = ctx.options.catalog.lookup(&model).info().pricing.is_some();
    if !priced && model != ctx.options.model {
        if ctx.options.max_budget_usd.is_some() {
            return Err(ToolError::InvalidArgs(format!(
                "the model `{model}` has no known price, so a subagent on it could not be held \
                 to the session's budget; leave `model` out to use the session's model"
            )));
        }
        ctx.emitter.warning(format!(
            "The subagent's model `{model}` has no known price: its cost counts as 0."
        ));
    }
    let _slot = tokio::select! {
        slot = agents.slots.acquire() => slot.map_err(|e| ToolError::Failed(e.to_string()))?,
        () = cancel.cancelled() => return Err(ToolError::Cancelled),
    };
    let name = agents.next_name(&def.name);
    let agent = ctx.emitter.agent().child(&name);
    let isolate = match def.isolation.as_deref() {
        Some("worktree") => true,
        Some(_) => false,
        None => agents.isolate_by_default,
    };
    let worktree = match (isolate, &agents.worktrees) {
        (false, _) => None,
        (true, None) => {
            return Err(ToolError::Failed(
                "worktree isolation is not available in this session".to_owned(),
            ));
        }
        (true, Some(dir)) => Some(
            crate::task_worktree::create(
                &ctx.options.cwd,
                dir,
                &name,
                crate::task_worktree::sandbox_helper(ctx.options.sandbox.as_ref()),
            )
            .await
            .map_err(ToolError::Failed)?,
        ),
    };
    let child = child_context(ctx, agents, def, model, &agent, call_id, worktree.as_ref());
    let model = child.options.model.clone();
    let started = Instant::now();
    let mut conv = Conversation {
        model,
        ..Conversation::default()
    };
    // Boxed: a child's turn runs tool calls, one of which started it.
    let prompt = Prompt {
        text: args.prompt,
        images: Vec::new(),
        uuid: None,
        typed: None,
    };
    let reason = Box::pin(run_turn(&child, &mut conv, prompt, cancel.child_token())).await;
    let own = child.own.lock().map(|t| *t).unwrap_or_default();
    let requests = conv
        .messages
        .iter()
        .filter(|m| m.role == Role::Assistant)
        .count();
    let mut answer = final_text(&conv);
    let mut kept = None;
    if let Some(wt) = &worktree {
        let message = format!("wright: {} ({})", agent.0, args.description);
        let done = crate::task_worktree::finish(wt, &message).await;
        answer = format!("{answer}\n\n[{}]", done.report);
        kept = done.kept;
    }
    let mut summary = format!(
        "{}{} · {requests} request{} · {} tokens · ${:.4} · {:.1}s",
        agent.0,
        if args.description.is_empty() {
            String::new()
        } else {
            format!(" ({})", args.description)
        },
        if requests == 1 { "" } else { "s" },
        own.usage.input_tokens + own.usage.output_tokens,
        own.cost_usd,
        started.elapsed().as_secs_f64()
    );
    // The user must learn where the child's work went, not only the model.
    if let Some(branch) = kept {
        summary.push_str(&format!(" · changes on branch {branch}"));
    }
    match reason {
        TurnEndReason::Completed => Ok(ToolOutput {
            content: if answer.trim().is_empty() {
                "(the subagent finished without a final answer)".to_owned()
            } else {
                answer
            },
            display: ToolDisplay {
                summary,
                duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
                ..ToolDisplay::default()
            },
            ..ToolOutput::default()
        }),
        // An interrupted worktree child's work is kept on its branch: the
        // result must say where.
        TurnEndReason::Interrupted if worktree.is_some() => Err(ToolError::Failed(format!(
            "Cancelled by user. {}",
            answer.trim()
        ))),
        TurnEndReason::Interrupted => Err(ToolError::Cancelled),
        other => {
            let why = match other {
                TurnEndReason::MaxTurns => "it reached its request limit".to_owned(),
                TurnEndReason::MaxBudget => "the session's budget is spent".to_owned(),
                _ => match child.emitter.last_error() {
                    Some(error) => format!("it failed: {error}"),
                    None => "it failed".to_owned(),
                },
            };
            let tail = if answer.trim().is_empty() {
                String::new()
            } else {
                format!(" Its last words:\n{answer}")
            };
            Err(ToolError::Failed(format!(
                "The subagent {} stopped: {why} ({summary}).{tail}",
                agent.0
            )))
        }
    }
}

/// Points a child's settings at its worktree: its cwd (the same
/// subdirectory the user works in), its only workspace root (the edit
/// tools and the permission check), and, in the sandbox, the worktree
/// written where the project was.
fn isolate_in(
    options: &mut crate::SessionOptions,
    project_roots: &[std::path::PathBuf],
    wt: &crate::task_worktree::Worktree,
) {
    let sub = options
        .cwd
        .strip_prefix(&wt.repo)
        .ok()
        .map(|r| wt.path.join(r));
    options.cwd = sub
        .filter(|d| d.is_dir())
        .unwrap_or_else(|| wt.path.clone());
    options.policy.workspace_roots = vec![wt.path.clone()];
    if let Some(sandbox) = &mut options.sandbox {
        let policy = &mut sandbox.policy;
        policy
            .writable_roots
            .retain(|r| !project_roots.iter().any(|p| p == r));
        policy.writable_roots.push(wt.path.clone());
        policy.workspace_roots = vec![wt.path.clone()];
    }
}

/// A subagent's own permission state, registered so the front end's
/// answers reach it. Its approval ids carry its name.
fn own_gate(ctx: &TurnContext, options: &crate::SessionOptions, agent: &str) -> Arc<Gate> {
    let prefix: String = agent
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let gate = Arc::new(Gate::named(
        options.policy.clone(),
        options.local_config.clone(),
        &prefix,
    ));
    if let Ok(mut children) = ctx.child_gates.lock() {
        children.push(Arc::downgrade(&gate));
    }
    gate
}

/// The text of the child's last answer.
fn final_text(conv: &Conversation) -> String {
    conv.messages
        .iter()
        .rev()
        .find(|m| m.role == Role::Assistant)
        .map(|m| {
            m.content
                .iter()
                .filter_map(|b| match b {
                    ContentBlock::Text { text } => Some(text.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// The child's context: the parent's services and settings, its own
/// conversation limits, prompt, tools and (when its definition asks for a
/// stricter mode, or it works in a worktree) its own permission state.
fn child_context(
    parent: &TurnContext,
    agents: &Agents,
    def: &AgentDef,
    model: String,
    agent: &wright_protocol::AgentPath,
    call_id: &str,
    worktree: Option<&crate::task_worktree::Worktree>,
) -> TurnContext {
    let mut options = parent.options.clone();
    options.model = model;
    options.max_turns = def.max_turns.unwrap_or(agents.max_turns);
    // The schema is for the session's final answer, not a child's report.
    options.json_schema = None;
    // A thinking budget changed mid-session applies to children started since.
    options.thinking_budget = parent.thinking_budget();
    // The parent's mode now (the user may have changed it since start-up),
    // or the definition's when that is stricter.
    let parent_mode = parent.gate.mode();
    let stricter = def
        .permission_mode
        .as_deref()
        .and_then(|m| Mode::parse(m).ok())
        .filter(|m| strictness(*m) > strictness(parent_mode));
    options.policy.mode = stricter.unwrap_or(parent_mode);
    if let Some(wt) = worktree {
        isolate_in(&mut options, &parent.options.policy.workspace_roots, wt);
    }
    options.system_prompt = crate::SystemPrompt::Fixed(subagent_prompt(def, &options.cwd));
    let gate = if stricter.is_none() && worktree.is_none() {
        // The parent's state: its grants and the user's answers apply, and
        // an approval the child asks for reaches the same front end.
        Arc::clone(&parent.gate)
    } else {
        // Its own state (stricter, or checking against the worktree),
        // asking through the same front end.
        own_gate(parent, &options, &agent.0)
    };
    let prompt = match &options.system_prompt {
        crate::SystemPrompt::Fixed(text) => text.clone(),
        crate::SystemPrompt::Assembled(_) => String::new(),
    };
    let writer = parent
        .options
        .extensions
        .transcripts
        .as_ref()
        .and_then(|open| {
            (open.0)(&crate::SubagentStart {
                agent: agent.0.clone(),
                parent_call_id: call_id.to_owned(),
                agent_type: def.name.clone(),
                system_prompt: prompt,
                model: options.model.clone(),
            })
        });
    let recorder = Recorder::new(writer);
    let checkpoints = match worktree {
        None => parent.checkpoints.share(),
        Some(_) => recorder.share(),
    };
    TurnContext {
        gate,
        recorder,
        checkpoints,
        client: Arc::clone(&parent.client),
        tools: parent.tools.for_subagent(def.tools.as_deref()),
        emitter: parent.emitter.child(agent.clone(), call_id),
        totals: Arc::clone(&parent.totals),
        own: std::sync::Mutex::new(Totals::default()),
        role: AgentRole::Subagent,
        child_gates: Arc::clone(&parent.child_gates),
        file_locks: Arc::clone(&parent.file_locks),
        stop: StopRequest::default(),
        presented_plan: Default::default(),
        steering: Default::default(),
        pending_context: std::sync::Mutex::default(),
        live: std::sync::Mutex::default(),
        options,
    }
}

/// A warning naming the entries of `def`'s tool list that no child of it
/// could be given, or `None` when every entry is usable. Usable: a tool of
/// `registry` (wright's own) or an MCP-side name (`mcp__…`, the resource
/// tools, `ToolSearch`). Not usable: `Task` (children never start
/// children), arguments (`Bash(git diff:*)`: the list takes names, not
/// permission rules) and names wright does not have (a typo, or another
/// agent's tool). Such entries are ignored, which only narrows the child,
/// so this warns rather than refuses the definition.
pub fn tool_list_warning(def: &AgentDef, registry: &wright_tools::ToolRegistry) -> Option<String> {
    let names = def.tools.as_ref()?;
    let usable = |n: &str| {
        n != NAME
            && (registry.get(n).is_some()
                || n.starts_with("mcp__")
                || matches!(
                    n,
                    crate::mcp_resources::LIST
                        | crate::mcp_resources::READ
                        | crate::tool_search::NAME
                ))
    };
    let ignored: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !usable(n))
        .collect();
    if ignored.is_empty() {
        return None;
    }
    let kept = names.len() - ignored.len();
    Some(format!(
        "{}: agent `{}`: ignoring tools {}, which are not tool names a subagent can have; it gets {}",
        def.source,
        def.name,
        ignored
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", "),
        if kept == 0 {
            "no tools".to_owned()
        } else {
            format!("the other {kept}")
        }
    ))
}

/// Claude Code's model aliases, within the parent's provider family: the
/// model a child asking for `wanted` gets under a parent on `parent`.
pub fn resolve_model(wanted: &str, parent: &str) -> String {
    let family = |alias: &str| match alias {
        "sonnet" => Some("claude-sonnet-4-5"),
        "opus" => Some("claude-opus-4-1"),
        "haiku" => Some("claude-haiku-4-5"),
        _ => None,
    };
    match (wanted, family(wanted)) {
        ("inherit", _) => parent.to_owned(),
        // An alias only means something for Claude models.
        (_, Some(model)) if parent.starts_with("claude") => model.to_owned(),
        (_, Some(_)) => parent.to_owned(),
        (name, None) => name.to_owned(),
    }
}

/// What a subagent of type `def` working in `cwd` is told, exactly
/// (`wright context --agent` prints it): the parts of
/// [`subagent_prompt_parts`] joined by a blank line.
pub fn subagent_prompt(def: &AgentDef, cwd: &std::path::Path) -> String {
    subagent_prompt_parts(def, cwd)
        .into_iter()
        .map(|(_, text)| text)
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The parts of a subagent's system prompt, each with where it comes
/// from: the definition's body (its file, or `built in`), then wright's
/// note on its situation.
pub fn subagent_prompt_parts(def: &AgentDef, cwd: &std::path::Path) -> Vec<(String, String)> {
    vec![
        (def.source.to_string(), def.prompt.trim().to_owned()),
        (
            "wright (the subagent's situation)".to_owned(),
            format!(
                "You are the subagent `{}` of a coding agent, working in {}. The user does not \
                 see your messages: only your final answer goes back to the agent that started \
                 you, so end with a complete, concise report.",
                def.name,
                cwd.display()
            ),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_aliases_map_within_the_claude_family_and_inherit_keeps_the_parents() {
        let parent = "claude-sonnet-4-5";
        assert_eq!(resolve_model("haiku", parent), "claude-haiku-4-5");
        assert_eq!(resolve_model("opus", parent), "claude-opus-4-1");
        assert_eq!(resolve_model("sonnet", parent), "claude-sonnet-4-5");
        assert_eq!(resolve_model("inherit", parent), parent);
        assert_eq!(resolve_model("claude-opus-4-1", parent), "claude-opus-4-1");
        // An alias means nothing to another provider's model: the parent's.
        assert_eq!(resolve_model("haiku", "gpt-5"), "gpt-5");
        assert_eq!(resolve_model("inherit", "gpt-5"), "gpt-5");
        assert_eq!(resolve_model("gpt-5-mini", "gpt-5"), "gpt-5-mini");
    }

    fn def_with_tools(tools: &[&str]) -> AgentDef {
        let mut def = wright_context::agents::builtin_agents().remove(0);
        def.name = "mine".into();
        def.tools = Some(tools.iter().map(|t| (*t).to_owned()).collect());
        def
    }

    #[test]
    fn tool_lists_warn_about_entries_no_child_can_have() {
        let registry = wright_tools::ToolRegistry::builtin();
        let ok = def_with_tools(&["Read", "Grep", "mcp__git__status", "ToolSearch"]);
        assert_eq!(tool_list_warning(&ok, &registry), None);
        let all = wright_context::agents::builtin_agents().remove(0);
        assert_eq!(tool_list_warning(&all, &registry), None);
        let bad = def_with_tools(&["Read", "Bash(git diff:*)", "Task", "Frobnicate"]);
        let warning = tool_list_warning(&bad, &registry).unwrap();
        assert!(
            warning.contains(
                "agent `mine`: ignoring tools `Bash(git diff:*)`, `Task`, `Frobnicate`, which"
            ),
            "{warning}"
        );
        assert!(warning.ends_with("it gets the other 1"), "{warning}");
        let none = def_with_tools(&["read"]);
        let warning = tool_list_warning(&none, &registry).unwrap();
        assert!(warning.ends_with("it gets no tools"), "{warning}");
    }

    #[test]
    fn children_are_numbered_per_type() {
        let agents = Agents::new(Vec::new(), 30, 4);
        assert_eq!(agents.next_name("general"), "general-1");
        assert_eq!(agents.next_name("explore"), "explore-1");
        assert_eq!(agents.next_name("explore"), "explore-2");
        assert_eq!(agents.next_name("general"), "general-2");
    }

    #[test]
    fn a_definitions_mode_only_ever_tightens() {
        let order = [
            Mode::Bypass,
            Mode::Auto,
            Mode::AcceptEdits,
            Mode::Default,
            Mode::Plan,
        ];
        for pair in order.windows(2) {
            assert!(strictness(pair[0]) < strictness(pair[1]), "{pair:?}");
        }
    }
}
