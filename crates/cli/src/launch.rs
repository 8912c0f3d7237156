//! The agent session a run without a subcommand starts (and the one
//! `wright compact` resumes): checks the run's flags, starts the MCP servers
//! and the agent types early, and hands the session to the front end the
//! flags and the terminal ask for (print, JSON, stream-json, the SDK's
//! stream, the full UI or its line mode).

use std::io::{IsTerminal, Read};
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use wright_config::ConfigLoader;
use wright_context::agents::AgentDef;

use crate::args::{self, Args, InputFormat, OutputFormat};
use crate::exit::{SetupError, UsageError};
use crate::modes::headless::{Format, Input};
use crate::render::{self, Detail};
use crate::run_config::RunConfig;
use crate::{claude_flags, extensions, mcp_servers, mcp_start, modes, notices};
use crate::{sdk, sessions, setup, trust};

/// A session's inputs, checked: what both a new session and `wright
/// compact` need before they start.
pub struct Prepared {
    /// The run's configuration.
    config: RunConfig,
    /// How the session starts.
    launch: setup::Launch,
    /// How much the text front ends show.
    detail: Detail,
    /// `--agents`, parsed.
    flag_agents: Vec<AgentDef>,
}

/// Checks the flags that shape a session and loads its configuration;
/// every mistake is reported before anything starts.
pub fn prepare(args: &Args, loader: &ConfigLoader, cwd: &Path) -> anyhow::Result<Prepared> {
    let json_schema = claude_flags::json_schema_flag(args)?;
    let flag_agents = match &args.agents {
        Some(json) => wright_context::agents_from_json(json)
            .map_err(|e| UsageError(format!("--agents: {e}")))?,
        None => Vec::new(),
    };
    let mut config = RunConfig::load(loader, args, cwd)?;
    let detail = if args.verbose {
        Detail::Verbose
    } else {
        Detail::Normal
    };
    if let Some(budget) = args.max_budget_usd
        && !(budget.is_finite() && budget > 0.0)
    {
        return Err(UsageError(format!(
            "--max-budget-usd must be a positive number, got {budget}"
        ))
        .into());
    }
    let resolved = &config.resolved;
    let launch = setup::Launch {
        tools: args.tool_names(),
        json_schema,
        max_budget_usd: args.max_budget_usd,
        can_ask: wright_permissions::CanAsk::No,
        session: sessions::SessionChoice {
            continue_latest: args.continue_latest,
            // `-r` alone picks a session in the UI (below).
            resume: args.resume.clone().filter(|id| !id.is_empty()),
            fork: args.fork_session,
            session_id: args.session_id.clone(),
        },
        editor: None,
        setting_sources: resolved.setting_sources,
        // A trusted project's server gets the key; an untrusted one's does not.
        base_url_from_project: resolved
            .untrusted_project_source("base_url")
            .map(Path::to_path_buf),
        extensions: Some({
            let plan = extensions::plan(resolved, &config.project_root);
            if plan.held_back {
                config.trust.hold_for_hooks();
            }
            plan
        }),
        provider_notice: resolved
            .inferred
            .as_ref()
            .map(wright_config::Inference::notice),
        base_url_from: resolved.source("base_url").map(ToString::to_string),
    };
    if args.session_id.is_some() && (args.continue_latest || args.resume.is_some()) {
        return Err(UsageError(
            "--session-id names a new session; it cannot be combined with --continue or --resume"
                .to_owned(),
        )
        .into());
    }
    if args.fork_session && !args.continue_latest && args.resume.is_none() {
        return Err(UsageError("--fork-session needs --continue or --resume ID".to_owned()).into());
    }
    Ok(Prepared {
        config,
        launch,
        detail,
        flag_agents,
    })
}

/// `wright compact [ID] [FOCUS]`: compacts the named session, or this
/// project's latest, and prints what the compaction said.
pub async fn compact(
    prepared: Prepared,
    cwd: &Path,
    id: Option<String>,
    focus: Option<String>,
) -> anyhow::Result<u8> {
    let Prepared {
        config,
        mut launch,
        detail,
        ..
    } = prepared;
    if id.is_none() && sessions::store()?.latest_for_project(cwd).is_none() {
        return Err(SetupError(format!(
            "no session to compact: none for {} yet (name one with `wright compact ID`, \
             see `wright sessions list --all`)",
            cwd.display()
        ))
        .into());
    }
    launch.session = sessions::SessionChoice {
        continue_latest: id.is_none(),
        resume: id,
        fork: false,
        session_id: None,
    };
    let started = setup::start(&config.settings, &launch, cwd, &config.project_root).await?;
    let op = wright_protocol::Op::Compact { focus };
    Ok(modes::print::run_op(started, op, detail, None).await)
}

/// A session on the prompt of `-p` and stdin, on the SDK's stream, or in
/// the terminal when there is no prompt.
pub async fn run(
    prepared: Prepared,
    args: &Args,
    loader: &ConfigLoader,
    cwd: &Path,
) -> anyhow::Result<u8> {
    let Prepared {
        config,
        mut launch,
        detail,
        flag_agents,
    } = prepared;
    let RunConfig {
        resolved,
        trust: project_trust,
        settings,
        project_root,
    } = config;
    // wright's requests to a program driving it over stream-json; made
    // now, so the MCP servers can reach the program's in-process ones.
    let sdk_peer = Arc::new(sdk::Peer::default());
    let sdk_relay =
        (args.input_format == InputFormat::StreamJson).then(|| sdk::ProgramRelay::over(&sdk_peer));
    // Started before the prompt is read and the session is set up, so the
    // servers connect while the rest of start-up goes on.
    if let Some(plan) = launch.extensions.as_mut() {
        let asking = if trust::is_interactive(args) {
            mcp_start::Asking::Ask
        } else {
            mcp_start::Asking::Skip
        };
        let collected =
            mcp_servers::collect(&resolved, &project_root, &args.mcp_flags(), sdk_relay)?;
        let decided = mcp_start::decide(
            collected,
            asking,
            loader.user_config_dir.as_deref(),
            &project_root,
        );
        for warning in &decided.warnings {
            notices::say(warning);
        }
        plan.mcp = mcp_start::spawn(&decided, &settings, &project_root);
        plan.mcp_not_started = decided.not_started;
        let agents = agent_types(loader, &settings, &project_root, flag_agents);
        // `--tools` without `Task` offers no subagents, as in Claude Code.
        let task_offered = launch
            .tools
            .as_ref()
            .is_none_or(|names| names.iter().any(|n| n == "Task" || n == "Agent"));
        plan.agents = task_offered.then(|| Arc::new(agents));
    }
    // `stdio` asks the program on stream-json; any other name is an MCP
    // tool, checked once the servers are up. `dontAsk` asks nobody.
    let dont_ask = matches!(args.permission_mode, Some(args::ModeArg::DontAsk));
    let prompt_tool = args.permission_prompt_tool.as_deref().filter(|_| !dont_ask);
    match prompt_tool {
        None => {}
        Some("stdio") if args.input_format == InputFormat::StreamJson => {}
        Some("stdio") => {
            return Err(UsageError(
                "--permission-prompt-tool stdio needs --input-format stream-json (the program answers on stdin)".to_owned(),
            )
            .into());
        }
        Some(_) => launch.can_ask = wright_permissions::CanAsk::Yes,
    }
    let pick_session = args.resume.as_deref() == Some("");
    let headless = args.print.is_some()
        || args.input_format == InputFormat::StreamJson
        || !std::io::stdin().is_terminal();
    if pick_session && headless {
        return Err(UsageError(
            "--resume without an ID picks a session in the terminal UI; a headless run names one \
             (see `wright sessions list`)"
                .to_owned(),
        )
        .into());
    }
    if args.input_format == InputFormat::StreamJson {
        if args.output_format != OutputFormat::StreamJson {
            return Err(UsageError(
                "--input-format stream-json needs --output-format stream-json".to_owned(),
            )
            .into());
        }
        let options = sdk::SdkOptions {
            partial: args.include_partial_messages,
            prompt_tool: prompt_tool.map(str::to_owned),
            replay_user_messages: args.replay_user_messages,
        };
        return sdk::run(&settings, launch, cwd, &project_root, options, sdk_peer).await;
    }
    let stdin_is_terminal = std::io::stdin().is_terminal();
    let prompt = match (&args.print, stdin_is_terminal) {
        (Some(prompt), true) => Some(prompt.clone()),
        (Some(prompt), false) => Some(join_prompt(prompt, &read_stdin()?)),
        (None, false) => Some(read_stdin()?),
        (None, true) => None,
    };
    let Some(prompt) = prompt else {
        if args.output_format != OutputFormat::Text {
            return Err(UsageError(
                "--output-format json|stream-json needs a prompt (-p \"…\" or stdin)".to_owned(),
            )
            .into());
        }
        let dont_ask = match args.permission_mode {
            Some(mode) => matches!(mode, args::ModeArg::DontAsk),
            None => resolved.flag_settings.as_ref().is_some_and(|f| f.dont_ask),
        };
        if !dont_ask {
            launch.can_ask = wright_permissions::CanAsk::Yes;
        }
        let resumed = launch.session.continue_latest || launch.session.resume.is_some();
        // The full UI needs a terminal both ways; otherwise the line mode.
        let line_mode = !std::io::stdout().is_terminal()
            || std::env::var_os("WRIGHT_LINE_MODE").is_some_and(|v| !v.is_empty() && v != "0");
        if pick_session && line_mode {
            return Err(UsageError(
                "--resume without an ID picks a session in the terminal UI; name one \
                 (see `wright sessions list`)"
                    .to_owned(),
            )
            .into());
        }
        let started = setup::start(&settings, &launch, cwd, &project_root).await?;
        if line_mode {
            return Ok(modes::interactive::run(started, detail, project_trust).await);
        }
        let tui = modes::tui_mode::TuiLaunch {
            cwd: cwd.to_path_buf(),
            project_root: project_root.clone(),
            resumed,
            pick_session,
            models: crate::models::catalog(&settings)
                .list()
                .iter()
                .map(|m| m.name.clone())
                .collect(),
            notify: match settings.tui_notify {
                wright_config::TuiNotify::Bell => wright_tui::host::Notify::Bell,
                wright_config::TuiNotify::Osc9 => wright_tui::host::Notify::Osc9,
                wright_config::TuiNotify::Off => wright_tui::host::Notify::Off,
            },
        };
        return Ok(modes::tui_mode::run(started, project_trust, tui).await);
    };
    if prompt.trim().is_empty() {
        return Err(
            UsageError("no prompt: pass one with -p \"…\" or pipe it on stdin".to_owned()).into(),
        );
    }
    // A prompt may be one of the slash commands the init line lists.
    let (commands, warnings) = sdk::SlashCommands::load(&project_root, launch.setting_sources);
    for w in &warnings {
        notices::say(w);
    }
    let init = sdk::init_extras(&launch, &commands);
    let op = commands.op(prompt, Vec::new(), None);
    let started = setup::start(&settings, &launch, cwd, &project_root).await?;
    Ok(match args.output_format {
        OutputFormat::Text => modes::print::run_op(started, op, detail, prompt_tool).await,
        OutputFormat::Json => {
            modes::headless::run(started, Input::Op(op), Format::Json, init, prompt_tool).await
        }
        OutputFormat::StreamJson => {
            let format = Format::StreamJson {
                partial: args.include_partial_messages,
            };
            modes::headless::run(started, Input::Op(op), format, init, prompt_tool).await
        }
    })
}

/// The agent types of the session: the discovered definitions, then
/// `--agents`, each checked against the tools the session has.
fn agent_types(
    loader: &ConfigLoader,
    settings: &wright_config::Settings,
    project_root: &Path,
    flag_agents: Vec<AgentDef>,
) -> wright_core::Agents {
    let dirs = wright_config::agent_dirs(settings, project_root, loader.user_config_dir.as_deref());
    let (mut defs, warnings) = wright_context::agents::discover_agents(&dirs);
    for warning in &warnings {
        notices::say(&format!("warning: {warning}"));
    }
    // `--agents` comes last: it replaces a definition of the same name.
    for def in flag_agents {
        match defs.iter_mut().find(|d| d.name == def.name) {
            Some(slot) => *slot = def,
            None => defs.push(def),
        }
    }
    let registry = setup::tool_registry(settings, project_root);
    for def in &defs {
        if let Some(w) = wright_core::tool_list_warning(def, &registry) {
            notices::say(&format!("warning: {}", render::escape_controls(&w)));
        }
    }
    setup::agent_types(defs, settings, project_root)
}

/// `-p` prompt plus piped stdin: stdin is context for the prompt.
fn join_prompt(prompt: &str, stdin: &str) -> String {
    match (prompt.trim().is_empty(), stdin.trim().is_empty()) {
        (true, _) => stdin.to_owned(),
        (false, true) => prompt.to_owned(),
        (false, false) => format!("{prompt}\n\n<stdin>\n{}\n</stdin>", stdin.trim_end()),
    }
}

fn read_stdin() -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .context("cannot read stdin")?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
