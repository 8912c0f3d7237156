//! Builds a running session from settings: provider client, session file,
//! context inputs, safety policy, catalog, limits, the tools offered and
//! the agent types the `Task` tool starts.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use wright_config::Settings;
use wright_context::{
    BaseOverride, ContextInputs, Environment, GitProbe, GitSnapshot, MemoryStore,
};
use wright_core::{
    CompactionOptions, Extensions, Persistence, RememberTool, SessionHandle, SessionOptions,
    SystemPrompt, spawn_session,
};
use wright_hooks::hook::SessionStartSource;
use wright_llm::{ReasoningEffort, RetryPolicy};
use wright_permissions::CanAsk;
use wright_tools::{BackgroundJobs, OutputLimits, ToolRegistry};

use crate::exit::SetupError;
use crate::extensions::ExtensionPlan;
use crate::models;
use crate::provider;
use crate::safety;
use crate::sessions::{self, SessionChoice};

/// A started session and what the front end should know about it.
pub struct Started {
    /// The session.
    pub handle: SessionHandle,
    /// Where the API key came from (`ANTHROPIC_API_KEY`), for the
    /// stream-json init line's `apiKeySource`; `None` without a key.
    pub api_key_source: Option<&'static str>,
    /// Notices for the user (a detected local server, an inferred
    /// provider), one per entry; warnings start with `warning: `.
    pub notices: Vec<String>,
    /// Which session `--continue`/`--resume` picked up and its last
    /// exchange; print and interactive modes show it on stderr.
    pub resumed: Option<String>,
    /// What `/context` shows.
    pub view: Option<ContextView>,
    /// The session's background commands, for `/context`.
    pub jobs: Arc<BackgroundJobs>,
    /// The session's MCP servers (for the init line and `/mcp`).
    pub mcp: Option<wright_core::McpSetup>,
    /// Configured project servers that were not started, for `/mcp`.
    pub mcp_not_started: Vec<String>,
    /// The final answer must match `--json-schema` (print mode prints the
    /// parsed value instead of streaming the text).
    pub structured: bool,
}

/// The inputs of the system prompt and the model's window, for `/context`.
pub struct ContextView {
    /// Re-assembled on demand.
    pub inputs: ContextInputs,
    /// The model's context window in tokens.
    pub window: u64,
    /// Tool names and schema sizes.
    pub tools: Vec<(String, usize)>,
    /// Which hooks are active and whether the verifier is on, one line.
    pub extensions: String,
}

/// Per-run choices that are flags only, not configuration.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// `--tools`: the built-in tools offered; `None` offers all.
    pub tools: Option<Vec<String>>,
    /// `--json-schema`, already checked.
    pub json_schema: Option<serde_json::Value>,
    /// `--max-budget-usd`.
    pub max_budget_usd: Option<f64>,
    /// Whether a person can answer approval requests (interactive mode).
    pub can_ask: CanAsk,
    /// Which session to write to.
    pub session: SessionChoice,
    /// The project config file that set `base_url`, if one did. A cloned
    /// repository must not be able to send the user's key to its own server.
    pub base_url_from_project: Option<PathBuf>,
    /// Hooks and verifier; `None` runs neither.
    pub extensions: Option<ExtensionPlan>,
    /// The attached editor's unsaved buffers (`wright acp`).
    pub editor: Option<Arc<dyn wright_tools::EditorBuffers>>,
    /// `--setting-sources`: without `project` the project's instruction
    /// files and skills are not read, without `user` the user's are not
    /// (as Claude Code loads CLAUDE.md only with `project`).
    pub setting_sources: wright_config::SettingSources,
    /// The provider config inferred from a base URL, said once
    /// ([`wright_config::Inference::notice`]).
    pub provider_notice: Option<String>,
    /// Where the base URL in force came from (`env OPENAI_BASE_URL`), for
    /// error messages; `None` when none was configured.
    pub base_url_from: Option<String>,
}

/// Resolves the provider, opens the session file and starts the session.
pub async fn start(
    settings: &Settings,
    launch: &Launch,
    cwd: &Path,
    project_root: &Path,
) -> Result<Started, SetupError> {
    let (keys, withheld) = provider::keys_for(launch.base_url_from_project.as_deref());
    let resolved = provider::resolve(settings, &keys, launch.base_url_from.clone()).await?;
    // What was said before the session existed (held in stream-json mode;
    // taken only now, so a failed start still has them to show).
    let mut notice = crate::notices::take();
    notice.extend(launch.provider_notice.iter().cloned());
    notice.extend(withheld);
    let mut inputs = context_inputs(settings, cwd, project_root)?;
    if !launch.setting_sources.project {
        inputs.instructions.file_names.clear();
        inputs
            .skill_dirs
            .retain(|d| !d.starts_with(project_root.join(".wright")));
    }
    if !launch.setting_sources.user {
        inputs.instructions.user_files.clear();
    }
    let safety = safety::build(settings, project_root, launch.can_ask)?;
    let mut catalog = models::catalog(settings);
    notice.extend(resolved.notice);
    notice.extend(safety.warning.map(|w| format!("warning: {w}")));
    // A local server says how much context it runs with.
    let advertised = match resolved.provider {
        wright_config::Provider::OpenaiChat if !catalog.lookup(&resolved.model).is_known() => {
            let ports = crate::provider::local_ports();
            crate::local_window::advertised(&resolved.base_url, &resolved.model, &ports).await
        }
        _ => None,
    };
    match advertised {
        Some((window, source)) => {
            let mut info = catalog.lookup(&resolved.model).info().clone();
            info.name.clone_from(&resolved.model);
            info.context_window = window;
            let half = u32::try_from(window / 2).unwrap_or(u32::MAX);
            info.max_output = info.max_output.min(half).max(1);
            catalog = catalog.with_overrides(vec![info]);
            notice.push(format!(
                "{}: a {window}-token context window, as {source} reports",
                resolved.model
            ));
        }
        None => notice.extend(
            models::unknown_model_warning(&catalog, &resolved.model)
                .map(|w| format!("warning: {w}")),
        ),
    }
    let info = catalog.lookup(&resolved.model).info().clone();
    let opened = sessions::open(
        &launch.session,
        cwd,
        &resolved.model,
        resolved.client.provider(),
    )?;
    let (usage, cost_usd) = opened.usage;
    notice.extend(opened.warnings.iter().map(|w| format!("warning: {w}")));
    let session_id = opened.writer.id().to_owned();
    let resumed = (launch.session.continue_latest || launch.session.resume.is_some())
        && !opened.history.is_empty();
    let resumed_note = if resumed {
        let short =
            sessions::store().map_or_else(|_| session_id.clone(), |s| s.short_id(&session_id));
        crate::resume_note::note(&opened.writer, &short, &opened.turns, &opened.history)
    } else {
        None
    };
    let start = if resumed {
        SessionStartSource::Resume
    } else {
        SessionStartSource::Startup
    };
    let (extensions, extensions_summary) = match &launch.extensions {
        Some(plan) => {
            notice.extend(plan.warnings.iter().map(|w| format!("warning: {w}")));
            let mut extensions = plan.extensions(start);
            if plan.agents.is_some() {
                extensions.transcripts =
                    subagent_transcripts(&session_id, cwd, resolved.client.provider());
            }
            (extensions, plan.summary())
        }
        None => (
            Extensions::none(project_root),
            "hooks: none · verifier: off".to_owned(),
        ),
    };
    let jobs = Arc::new(BackgroundJobs::new());
    let max_tokens = match settings.max_tokens {
        // A known model's limit is a hard one: asking for more is an error
        // at the provider, so cap it and say so.
        Some(asked)
            if advertised.is_none()
                && catalog.lookup(&resolved.model).is_known()
                && asked > info.max_output =>
        {
            notice.push(format!(
                "warning: --max-tokens {asked} is more than {} allows; using {}",
                resolved.model, info.max_output
            ));
            info.max_output
        }
        Some(asked) => asked,
        None => models::default_max_tokens(info.max_output),
    };
    let context = &settings.context;
    let options = SessionOptions {
        max_tokens_chosen: settings.max_tokens.is_some(),
        spill_dir: spill_dir(&session_id),
        jobs: Arc::clone(&jobs),
        extensions,
        session_id,
        model: resolved.model,
        cwd: cwd.to_path_buf(),
        system_prompt: SystemPrompt::Assembled(Box::new(inputs.clone())),
        catalog: Arc::new(catalog),
        retry: retry_policy(),
        fallback_model: settings.fallback_model.clone(),
        reasoning_effort: settings
            .reasoning_effort
            .and_then(|e| e.as_str().parse::<ReasoningEffort>().ok()),
        thinking_budget: settings.thinking_budget,
        compaction: CompactionOptions {
            auto: context.auto_compact,
            context_window: info.context_window,
            keep_recent_tokens: context.keep_recent_tokens.unwrap_or_else(|| {
                wright_context::compaction::keep_recent_for_window(info.context_window)
            }),
            margin_percent: context.compact_margin_percent,
        },
        max_tokens,
        max_turns: settings.max_turns,
        max_budget_usd: launch.max_budget_usd,
        policy: safety.policy,
        local_config: project_root.join(".wright").join("config.local.toml"),
        sandbox: safety.sandbox,
        limits: OutputLimits {
            bash_default_timeout: Duration::from_secs(settings.bash_timeout_secs),
            ..OutputLimits::default()
        },
        json_schema: launch.json_schema.clone(),
        editor: launch.editor.clone(),
    };
    let persistence = Persistence {
        writer: Some(opened.writer),
        history: opened.history,
        usage,
        cost_usd,
    };
    let mut tools = tool_registry(settings, project_root);
    if let Some(names) = &launch.tools {
        let (kept, unknown) = only_tools(&tools, names);
        tools = kept;
        if !unknown.is_empty() {
            notice.push(format!(
                "warning: --tools: wright has no built-in tool named {}; ignored",
                unknown.join(", ")
            ));
        }
    }
    let tools = Arc::new(tools);
    let tool_sizes = spec_sizes(&wright_core::offered_tools(
        Arc::clone(&tools),
        options.extensions.agents.clone(),
        options.policy.mode,
        launch.can_ask == wright_permissions::CanAsk::Yes,
    ));
    let handle = spawn_session(options, resolved.client, tools, persistence);
    Ok(Started {
        handle,
        api_key_source: resolved.key_source,
        notices: notice,
        resumed: resumed_note,
        view: Some(ContextView {
            inputs,
            window: info.context_window,
            tools: tool_sizes,
            extensions: extensions_summary,
        }),
        jobs,
        mcp: launch.extensions.as_ref().and_then(|p| p.mcp.clone()),
        mcp_not_started: launch
            .extensions
            .as_ref()
            .map(|p| p.mcp_not_started.clone())
            .unwrap_or_default(),
        structured: launch.json_schema.is_some(),
    })
}

/// Claude Code's tool names that are not wright tools but are served by
/// something else (`Task` by the subagents), so `--tools` naming them is
/// not a mistake.
const TOOLS_ELSEWHERE: [&str; 2] = ["Task", "Agent"];

/// The registry cut down to `names` (`--tools`), and the names that match
/// no built-in tool. A name may carry an argument as in Claude Code's rule
/// syntax (`Bash(git:*)`); only the name counts.
fn only_tools(registry: &ToolRegistry, names: &[String]) -> (ToolRegistry, Vec<String>) {
    let wanted: Vec<&str> = names
        .iter()
        .map(|n| {
            n.split_once('(')
                .map_or(n.as_str(), |(name, _)| name)
                .trim()
        })
        .collect();
    let have = registry.names();
    let unknown = wanted
        .iter()
        .filter(|n| !have.contains(n) && !TOOLS_ELSEWHERE.contains(n))
        .map(|n| (*n).to_owned())
        .collect();
    (registry.only(|name| wanted.contains(&name)), unknown)
}

/// The default retry policy; `WRIGHT_MAX_RETRIES` changes how many retries
/// (0 turns them off, e.g. for CI runs that should fail fast) and
/// `WRIGHT_RETRY_MAX_DELAY_MS` caps every wait, `Retry-After` included
/// (tests of retries that should not sleep for seconds);
/// `WRIGHT_RETRY_LIMIT_SECS` how long all attempts of one request may take
/// together before no retry starts (default 300).
fn retry_policy() -> RetryPolicy {
    let mut policy = RetryPolicy::default();
    let number = |name: &str| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    if let Some(n) = number("WRIGHT_MAX_RETRIES") {
        policy.max_retries = u32::try_from(n).unwrap_or(u32::MAX);
    }
    if let Some(ms) = number("WRIGHT_RETRY_MAX_DELAY_MS") {
        let cap = std::time::Duration::from_millis(ms);
        policy.max_delay = cap;
        policy.max_retry_after = cap;
        policy.base_delay = policy.base_delay.min(cap);
    }
    if let Some(secs) = number("WRIGHT_RETRY_LIMIT_SECS").filter(|s| *s > 0) {
        policy.total_limit = Duration::from_secs(secs);
    }
    policy
}

/// What the system prompt is assembled from (also used by `wright context`).
pub fn context_inputs(
    settings: &Settings,
    cwd: &Path,
    project_root: &Path,
) -> Result<ContextInputs, SetupError> {
    let base_override = match (&settings.system_prompt, &settings.system_prompt_file) {
        (Some(text), _) => Some(BaseOverride {
            source: "--system-prompt".to_owned(),
            text: text.clone(),
        }),
        (None, Some(path)) => {
            let path = cwd.join(path);
            // Bounded and non-blocking: a FIFO or /dev/zero named here
            // (by a project, a flag or the environment) must not hang
            // wright or fill its memory.
            let text = wright_config::read_text_file(&path).map_err(|e| {
                let why = match e {
                    wright_config::ConfigError::Io { message, .. } => message,
                    other => other.to_string(),
                };
                SetupError(format!(
                    "cannot read the system prompt file {}: {why}",
                    path.display()
                ))
            })?;
            Some(BaseOverride {
                source: path.display().to_string(),
                text,
            })
        }
        (None, None) => None,
    };
    // Git status is taken once per session: a status that changed every turn
    // would change the system prompt and defeat the provider's prompt cache.
    let git = GitSnapshot::probe(
        project_root,
        GitProbe::WithStatus {
            timeout: Duration::from_millis(500),
            sandbox_helper: wright_sandbox::own_helper().ok().map(Path::to_path_buf),
        },
    );
    let date = chrono::Local::now().format("%Y-%m-%d").to_string();
    let mut inputs = ContextInputs::new(
        cwd.to_path_buf(),
        project_root.to_path_buf(),
        Environment::detect(date, git),
    );
    let context = &settings.context;
    inputs.base_override = base_override;
    inputs.append = settings.append_system_prompt.clone();
    inputs.instructions.file_names = settings.instruction_files.clone();
    inputs.instructions.user_files = context.user_instruction_files.clone();
    inputs.instructions.budget_chars = context.instruction_budget;
    inputs.skill_dirs.extend(context.skill_dirs.iter().cloned());
    inputs.memory = Some(memory_store(settings, project_root));
    Ok(inputs)
}

/// Every tool the model is offered.
pub fn tool_registry(settings: &Settings, project_root: &Path) -> ToolRegistry {
    ToolRegistry::builtin().with(Box::new(RememberTool::new(memory_store(
        settings,
        project_root,
    ))))
}

/// Tool names with the size of their schema as sent, for context reports.
pub fn tool_sizes(registry: &ToolRegistry) -> Vec<(String, usize)> {
    spec_sizes(registry.specs())
}

/// Each spec's name and the size of its JSON.
pub fn spec_sizes(specs: &[wright_protocol::ToolSpec]) -> Vec<(String, usize)> {
    specs
        .iter()
        .map(|s| {
            let size = serde_json::to_string(s).map_or(0, |t| t.len());
            (s.name.clone(), size)
        })
        .collect()
}

/// Project memory, plus the user's when config opts in.
pub fn memory_store(settings: &Settings, project_root: &Path) -> MemoryStore {
    let user = settings
        .context
        .user_memory
        .then(|| dirs::data_dir().map(|d| d.join("wright").join("memory")))
        .flatten();
    MemoryStore::new(project_root.join(".wright").join("memory"), user)
}

/// Opens each subagent's transcript beside the session's file (a child
/// that cannot be recorded still runs: the file is a record, not a
/// condition).
fn subagent_transcripts(
    session_id: &str,
    cwd: &Path,
    provider: &str,
) -> Option<wright_core::Transcripts> {
    let store = sessions::store().ok()?;
    let session_id = session_id.to_owned();
    let cwd = cwd.to_path_buf();
    let provider = provider.to_owned();
    Some(wright_core::Transcripts(Arc::new(
        move |start: &wright_core::SubagentStart| {
            let parent = wright_store::SubagentParent {
                session_id: session_id.clone(),
                cwd: cwd.clone(),
                agent: start.agent.clone(),
                parent_call_id: start.parent_call_id.clone(),
                agent_type: start.agent_type.clone(),
                system_prompt: start.system_prompt.clone(),
            };
            let meta = wright_store::SessionMeta {
                cwd: cwd.clone(),
                model: start.model.clone(),
                provider: provider.clone(),
            };
            store.create_subagent(&parent, &meta).ok()
        },
    )))
}

/// Where tools put full outputs too large for the model. Under the user's
/// data dir so it outlives the run (the model may read it later).
fn spill_dir(session_id: &str) -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("wright")
        .join("spill")
        .join(session_id)
}

/// The agent types the `Task` tool starts, from their definitions and the
/// `[agents]` settings.
pub(crate) fn agent_types(
    defs: Vec<wright_context::agents::AgentDef>,
    settings: &wright_config::Settings,
    project_root: &std::path::Path,
) -> wright_core::Agents {
    let mut agents = wright_core::Agents::new(
        defs,
        settings.agents.max_turns,
        usize::try_from(settings.agents.max_concurrent).unwrap_or(1),
    );
    // Isolated children's worktrees live in the data dir: `.wright/`
    // in the project is protected from commands and edits.
    if let Some(data) = dirs::data_dir() {
        let dir = data
            .join("wright")
            .join("worktrees")
            .join(wright_store::project_slug(project_root));
        let by_default = settings.agents.isolation == wright_config::AgentIsolation::Worktree;
        agents = agents.with_worktrees(dir, by_default);
    }
    agents
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_are_cut_to_the_names_given() {
        let registry = ToolRegistry::builtin();
        let (kept, unknown) = only_tools(
            &registry,
            &[
                "Read".into(),
                "Bash(git:*)".into(),
                "Task".into(),
                "WebSearch".into(),
            ],
        );
        assert_eq!(kept.names(), ["Read", "Bash"]);
        assert_eq!(unknown, ["WebSearch"]);
        let (none, unknown) = only_tools(&registry, &[]);
        assert!(none.names().is_empty());
        assert!(unknown.is_empty());
    }
}
