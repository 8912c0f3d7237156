//! The `wright` binary: parses arguments, loads configuration, and runs the
//! chosen front end (print mode, interactive line mode, or a subcommand).

mod acp_mode;
mod agents_list;
mod approver;
mod args;
mod claude_flags;
mod doctor;
mod effective;
mod exit;
mod explain;
mod extensions;
mod hooks_list;
mod init;
mod init_detect;
mod inspect;
mod mcp_auth;
mod mcp_cmd;
mod mcp_prompts;
mod mcp_servers;
mod mcp_start;
mod mcp_write;
mod models;
mod modes;
mod notices;
mod provider;
mod render;
mod resume_note;
mod rewind_confirm;
mod safety;
mod sdk;
mod sessions;
mod sessions_agents;
mod setup;
mod signals;
mod stream_json;
mod summary;
mod trust;
mod which;

use std::io::{IsTerminal, Read};
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use wright_config::{ConfigLoader, find_project_root};

use crate::args::{Args, Command, ConfigAction, HooksAction, InputFormat, McpAction, OutputFormat};
use crate::exit::{SetupError, UsageError};
use crate::modes::headless::{Format, Input};
use crate::render::Detail;

fn main() -> ExitCode {
    // The re-executed sandbox helper confines itself and execs the command;
    // it must run before anything else, while the process has one thread.
    wright_sandbox::maybe_exec_helper();
    // `--version` alone answers before the argument parser is built: the
    // parser of every subcommand costs more than the rest of the process.
    if let Some(code) = version_only() {
        return code;
    }
    // Before any thread starts: keys out of the environment block and the
    // process closed to /proc readers, so no command can obtain them.
    provider::Keys::capture();
    wright_sandbox::protect_process();
    let mut args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => return claude_flags::parse_error(e),
    };
    // From here on, in stream-json mode, nothing goes to stderr as plain
    // text: notices wait for the stream, and errors become `system` lines.
    if args.output_format == OutputFormat::StreamJson && args.command.is_none() {
        notices::hold_for_stream();
    }
    if let Err(message) = claude_flags::read_settings_flags(&mut args) {
        notices::fail(&message);
        return ExitCode::from(exit::USAGE);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::from(exit::ERROR);
        }
    };
    let code = runtime.block_on(run(args));
    // Background tasks (a bash child still draining, a stdin reader) must
    // not keep the process alive after the answer is out.
    runtime.shutdown_background();
    ExitCode::from(code)
}

async fn run(args: Args) -> u8 {
    match run_inner(args).await {
        Ok(code) => code,
        Err(err) => {
            let code = if err.is::<wright_config::ConfigError>()
                || err.is::<SetupError>()
                || err.is::<UsageError>()
            {
                exit::USAGE
            } else {
                exit::ERROR
            };
            notices::fail(&format!("{err:#}"));
            code
        }
    }
}

async fn run_inner(args: Args) -> anyhow::Result<u8> {
    if matches!(args.command, Some(Command::Acp)) {
        return Ok(acp_mode::run(args).await);
    }
    if matches!(
        args.command,
        Some(
            Command::Sessions { .. }
                | Command::Doctor { .. }
                | Command::Agents { .. }
                | Command::Config { .. }
                | Command::Context { .. }
                | Command::Models { .. }
                | Command::Skills { .. }
                | Command::Memory { .. }
                | Command::Hooks { .. }
        )
    ) {
        wright_sandbox::end_on_closed_stdout();
    }
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let loader = ConfigLoader::from_environment(&cwd);
    let json_schema = claude_flags::json_schema_flag(&args)?;
    let flag_agents = match &args.agents {
        Some(json) => wright_context::agents_from_json(json)
            .map_err(|e| UsageError(format!("--agents: {e}")))?,
        None => Vec::new(),
    };
    match &args.command {
        Some(Command::Config { action }) => return config_command(&loader, &args, action),
        Some(Command::Doctor { json }) => return Ok(doctor::run(&loader, &args, *json).await),
        Some(Command::Init) => return Ok(init::init(&find_project_root(&cwd))?),
        Some(Command::Trust { revoke }) => {
            let change = if *revoke {
                wright_config::TrustChange::Revoke
            } else {
                wright_config::TrustChange::Trust
            };
            return Ok(trust::command(&loader, change)?);
        }
        Some(Command::Sessions { action }) => return Ok(sessions::command(action, &cwd)?),
        Some(Command::Mcp {
            action:
                McpAction::Add {
                    name,
                    target,
                    url,
                    scope,
                    transport,
                    env,
                    header,
                },
        }) => {
            let request = mcp_write::AddRequest {
                name,
                target,
                url: url.as_deref(),
                scope: *scope,
                transport: *transport,
                env,
                headers: header,
            };
            return Ok(mcp_write::add(&loader, &request)?);
        }
        Some(Command::Mcp {
            action: McpAction::Remove { name, scope },
        }) => return Ok(mcp_write::remove(&loader, name, *scope)?),
        Some(Command::Mcp {
            action: McpAction::Logout { name },
        }) => return Ok(mcp_auth::logout(name)?),
        Some(Command::Rewind {
            id,
            to,
            files_only,
            conversation_only,
            yes,
            json,
        }) => {
            let scope = if *files_only {
                wright_store::RewindScope::FilesOnly
            } else if *conversation_only {
                wright_store::RewindScope::ConversationOnly
            } else {
                wright_store::RewindScope::FilesAndConversation
            };
            let request = sessions::RewindRequest {
                id: id.as_deref(),
                to: *to,
                scope,
                yes: *yes,
                json: *json,
            };
            return Ok(sessions::rewind(&request, &cwd)?);
        }
        // These need the loaded configuration; handled below.
        Some(
            Command::Context { .. }
            | Command::Models { .. }
            | Command::Skills { .. }
            | Command::Hooks { .. }
            | Command::Agents { .. }
            | Command::Memory { .. }
            | Command::Mcp {
                action: McpAction::List { .. } | McpAction::Get { .. } | McpAction::Login { .. },
            }
            | Command::Compact { .. }
            | Command::Acp,
        )
        | None => {}
    }
    let (resolved, mut project_trust) = trust::load(&loader, &args)?;
    if let Some(warning) = resolved
        .flag_settings
        .as_ref()
        .and_then(wright_config::FlagSettings::unknown_warning)
    {
        notices::say(&warning);
    }
    let mut settings = resolved.settings.clone();
    match args.thinking_choice() {
        args::ThinkingChoice::Off => settings.thinking_budget = None,
        args::ThinkingChoice::Adaptive => {
            settings.thinking_budget = settings
                .thinking_budget
                .or(Some(args::ADAPTIVE_THINKING_BUDGET));
        }
        args::ThinkingChoice::Budget | args::ThinkingChoice::Config => {}
    }
    if let Some(n) = args.max_thinking_tokens
        && (1..args::MIN_THINKING_BUDGET).contains(&n)
    {
        notices::say(&format!(
            "warning: --max-thinking-tokens {n} is below the smallest budget providers take; using {}",
            args::MIN_THINKING_BUDGET
        ));
    }
    // A cloned repository's config may not make wright read files outside it.
    for key in ["context.user_instruction_files", "context.skill_dirs"] {
        if let Some(file) = project_file_source(&resolved, &loader, key) {
            notices::say(&format!(
                "warning: ignoring {key} from the project's {}: it may only be set in your user config",
                file.display()
            ));
            match key {
                "context.user_instruction_files" => settings.context.user_instruction_files.clear(),
                _ => settings.context.skill_dirs.clear(),
            }
        }
    }
    let project_root = find_project_root(&cwd);
    match &args.command {
        Some(Command::Context {
            json,
            agent: Some(name),
        }) => {
            let dirs = wright_config::agent_dirs(
                &settings,
                &project_root,
                loader.user_config_dir.as_deref(),
            );
            return Ok(inspect::agent_context(
                &settings,
                &cwd,
                &project_root,
                &dirs,
                name,
                *json,
            )?);
        }
        Some(Command::Context { json, .. }) => {
            let mcp = mcp_cmd::tool_sizes(&resolved, &project_root, &args.mcp_flags()).await?;
            return Ok(inspect::context(
                &settings,
                &cwd,
                &project_root,
                mcp,
                *json,
            )?);
        }
        Some(Command::Models { json }) => return Ok(models::list(&settings, *json)),
        Some(Command::Skills { action }) => {
            return Ok(inspect::skills(&settings, &cwd, &project_root, action)?);
        }
        Some(Command::Memory { action }) => {
            return Ok(inspect::memory(&settings, &project_root, action)?);
        }
        Some(Command::Hooks {
            action: HooksAction::List { json },
        }) => return Ok(hooks_list::list(&loader, &resolved, &project_root, *json)),
        Some(Command::Agents { action }) => {
            return Ok(agents_list::list(&loader, &settings, &project_root, action));
        }
        Some(Command::Mcp {
            action: McpAction::List { json },
        }) => {
            return Ok(mcp_cmd::list(&resolved, &project_root, &args.mcp_flags(), *json).await?);
        }
        Some(Command::Mcp {
            action: McpAction::Get { name, json },
        }) => {
            let flags = args.mcp_flags();
            return Ok(mcp_cmd::get(&resolved, &project_root, &flags, name, *json).await?);
        }
        Some(Command::Mcp {
            action:
                McpAction::Login {
                    name,
                    redirect_port,
                },
        }) => {
            let flags = args.mcp_flags();
            let port = *redirect_port;
            return Ok(mcp_auth::login(&resolved, &project_root, &flags, name, port).await?);
        }
        Some(
            Command::Mcp {
                action: McpAction::Add { .. } | McpAction::Remove { .. } | McpAction::Logout { .. },
            }
            | Command::Config { .. }
            | Command::Doctor { .. }
            | Command::Sessions { .. }
            | Command::Rewind { .. }
            | Command::Init
            | Command::Trust { .. }
            | Command::Compact { .. }
            | Command::Acp,
        )
        | None => {}
    }
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
    let mut launch = setup::Launch {
        tools: args.tool_names(),
        json_schema,
        max_budget_usd: args.max_budget_usd,
        can_ask: wright_permissions::CanAsk::No,
        session: sessions::SessionChoice {
            continue_latest: args.continue_latest,
            resume: args.resume.clone(),
            fork: args.fork_session,
            session_id: args.session_id.clone(),
        },
        editor: None,
        setting_sources: resolved.setting_sources,
        // A trusted project's server gets the key; an untrusted one's does not.
        base_url_from_project: resolved
            .untrusted_project_source("base_url")
            .map(std::path::Path::to_path_buf),
        extensions: Some({
            let plan = extensions::plan(&resolved, &project_root);
            if plan.held_back {
                project_trust.hold_for_hooks();
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
    if let Some(Command::Compact { id, focus }) = &args.command {
        if id.is_none() && sessions::store()?.latest_for_project(&cwd).is_none() {
            return Err(SetupError(format!(
                "no session to compact: none for {} yet (name one with `wright compact ID`, \
                 see `wright sessions list --all`)",
                cwd.display()
            ))
            .into());
        }
        launch.session = sessions::SessionChoice {
            continue_latest: id.is_none(),
            resume: id.clone(),
            fork: false,
            session_id: None,
        };
        let started = setup::start(&settings, &launch, &cwd, &project_root).await?;
        let op = wright_protocol::Op::Compact {
            focus: focus.clone(),
        };
        return Ok(modes::print::run_op(started, op, detail, None).await);
    }
    // wright's requests to a program driving it over stream-json; made
    // now, so the MCP servers can reach the program's in-process ones.
    let sdk_peer = std::sync::Arc::new(sdk::Peer::default());
    let sdk_relay =
        (args.input_format == InputFormat::StreamJson).then(|| sdk::ProgramRelay::over(&sdk_peer));
    // Started before the prompt is read and the session is set up, so the
    // servers connect while the rest of start-up goes on.
    if let Some(plan) = launch.extensions.as_mut() {
        let asking = if trust::is_interactive(&args) {
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
        let dirs =
            wright_config::agent_dirs(&settings, &project_root, loader.user_config_dir.as_deref());
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
        let registry = setup::tool_registry(&settings, &project_root);
        for def in &defs {
            if let Some(w) = wright_core::tool_list_warning(def, &registry) {
                notices::say(&format!("warning: {}", render::escape_controls(&w)));
            }
        }
        let agents = agent_types(defs, &settings, &project_root);
        // `--tools` without `Task` offers no subagents, as in Claude Code.
        let task_offered = launch
            .tools
            .as_ref()
            .is_none_or(|names| names.iter().any(|n| n == "Task" || n == "Agent"));
        plan.agents = task_offered.then(|| std::sync::Arc::new(agents));
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
        return sdk::run(&settings, launch, &cwd, &project_root, options, sdk_peer).await;
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
        let started = setup::start(&settings, &launch, &cwd, &project_root).await?;
        // The full UI needs a terminal both ways; otherwise the line mode.
        let line_mode = !std::io::stdout().is_terminal()
            || std::env::var_os("WRIGHT_LINE_MODE").is_some_and(|v| !v.is_empty() && v != "0");
        if line_mode {
            return Ok(modes::interactive::run(started, detail, project_trust).await);
        }
        let tui = modes::tui_mode::TuiLaunch {
            cwd: cwd.clone(),
            project_root: project_root.clone(),
            resumed,
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
    let started = setup::start(&settings, &launch, &cwd, &project_root).await?;
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

fn config_command(loader: &ConfigLoader, args: &Args, action: &ConfigAction) -> anyhow::Result<u8> {
    match action {
        ConfigAction::Show { json } => {
            let mut resolved = loader.load(&args.overrides())?;
            let (keys, _) = provider::keys_for(resolved.untrusted_project_source("base_url"));
            effective::fill(&mut resolved, &keys);
            if *json {
                println!("{}", serde_json::to_string(&resolved.entries())?);
            } else {
                print!("{}", resolved.render());
            }
        }
        ConfigAction::Path { json } => {
            if *json {
                let files: Vec<serde_json::Value> = loader
                    .files()
                    .into_iter()
                    .map(|(path, exists)| serde_json::json!({"path": path, "exists": exists}))
                    .collect();
                println!("{}", serde_json::Value::Array(files));
            } else {
                for (path, exists) in loader.files() {
                    let state = if exists { "" } else { "  (not found)" };
                    println!("{}{state}", path.display());
                }
            }
        }
        ConfigAction::Validate { json } => return Ok(doctor::validate(loader, args, *json)),
        ConfigAction::Edit { user } => return Ok(init::edit(loader, *user)?),
    }
    Ok(exit::SUCCESS)
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

/// The project config file (`.wright/config.toml` or `config.local.toml`)
/// that set `key`, if the value in force came from one.
fn project_file_source(
    resolved: &wright_config::Resolved,
    loader: &ConfigLoader,
    key: &str,
) -> Option<std::path::PathBuf> {
    match resolved.source(key)? {
        wright_config::Source::File(path)
            if *path == loader.project_file() || *path == loader.local_file() =>
        {
            Some(path.clone())
        }
        _ => None,
    }
}

/// `-p` prompt plus piped stdin: stdin is context for the prompt.
fn join_prompt(prompt: &str, stdin: &str) -> String {
    match (prompt.trim().is_empty(), stdin.trim().is_empty()) {
        (true, _) => stdin.to_owned(),
        (false, true) => prompt.to_owned(),
        (false, false) => format!("{prompt}\n\n<stdin>\n{}\n</stdin>", stdin.trim_end()),
    }
}

/// `wright --version` / `wright -V` (nothing else): prints what clap would
/// print for it.
fn version_only() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    let flag = args.next()?;
    if args.next().is_some() || !(flag == "--version" || flag == "-V") {
        return None;
    }
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    Some(
        match writeln!(out, "wright {}", env!("WRIGHT_LONG_VERSION")).and_then(|()| out.flush()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::from(exit::ERROR),
        },
    )
}

fn read_stdin() -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .context("cannot read stdin")?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
