//! The `wright` binary: parses arguments and dispatches them, in one match,
//! to a subcommand or to the agent session (`launch`), whose front end the
//! flags and the terminal choose.

mod acp_mode;
mod agents_list;
mod approver;
mod args;
mod claude_flags;
mod doctor;
mod effective;
mod env_policy;
mod exit;
mod explain;
mod extensions;
mod hooks_list;
mod init;
mod init_detect;
mod inspect;
mod launch;
mod local_window;
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
mod run_config;
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

use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use wright_config::{ConfigLoader, find_project_root};

use crate::args::{Args, Command, ConfigAction, HooksAction, McpAction, OutputFormat};
use crate::exit::{SetupError, UsageError};
use crate::run_config::RunConfig;

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

/// Runs what the arguments ask for: one arm per subcommand, and the agent
/// session when there is none.
async fn run_inner(args: Args) -> anyhow::Result<u8> {
    if args.command.as_ref().is_some_and(Command::is_report) {
        wright_sandbox::end_on_closed_stdout();
    }
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let loader = ConfigLoader::from_environment(&cwd);
    let load = || RunConfig::load(&loader, &args, &cwd);
    match &args.command {
        None => {
            let prepared = launch::prepare(&args, &loader, &cwd)?;
            launch::run(prepared, &args, &loader, &cwd).await
        }
        Some(Command::Compact { id, focus }) => {
            let prepared = launch::prepare(&args, &loader, &cwd)?;
            launch::compact(prepared, &cwd, id.clone(), focus.clone()).await
        }
        // The editor names each session's directory; ACP loads its
        // configuration there.
        Some(Command::Acp) => Ok(acp_mode::run(args).await),
        Some(Command::Config { action }) => config_command(&loader, &args, action),
        Some(Command::Doctor { json }) => Ok(doctor::run(&loader, &args, *json).await),
        Some(Command::Init) => Ok(init::init(&find_project_root(&cwd))?),
        Some(Command::Trust { revoke }) => {
            let change = if *revoke {
                wright_config::TrustChange::Revoke
            } else {
                wright_config::TrustChange::Trust
            };
            Ok(trust::command(&loader, change)?)
        }
        Some(Command::Sessions { action }) => Ok(sessions::command(action, &cwd)?),
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
            // The configured roots without asking about trust (an untrusted
            // project's roots are left out); a config that does not load
            // adds none.
            let roots = loader
                .load(&args.overrides())
                .map(|r| r.settings.permissions.additional_roots)
                .unwrap_or_default();
            let request = sessions::RewindRequest {
                id: id.as_deref(),
                to: *to,
                scope,
                yes: *yes,
                json: *json,
                roots,
            };
            Ok(sessions::rewind(&request, &cwd)?)
        }
        Some(Command::Mcp { action }) => mcp_command(&loader, &args, action, load).await,
        Some(Command::Context {
            json,
            agent: Some(name),
        }) => {
            let run = load()?;
            let dirs = wright_config::agent_dirs(
                &run.settings,
                &run.project_root,
                loader.user_config_dir.as_deref(),
            );
            let (settings, root) = (&run.settings, &run.project_root);
            Ok(inspect::agent_context(
                settings, &cwd, root, &dirs, name, *json,
            )?)
        }
        Some(Command::Context { json, agent: None }) => {
            let run = load()?;
            let flags = args.mcp_flags();
            let mcp = mcp_cmd::tool_sizes(&run.resolved, &run.project_root, &flags).await?;
            Ok(inspect::context(
                &run.settings,
                &cwd,
                &run.project_root,
                mcp,
                *json,
            )?)
        }
        Some(Command::Models { json }) => Ok(models::list(&load()?.settings, *json)),
        Some(Command::Skills { action }) => {
            let run = load()?;
            Ok(inspect::skills(
                &run.settings,
                &cwd,
                &run.project_root,
                action,
            )?)
        }
        Some(Command::Memory { action }) => {
            let run = load()?;
            Ok(inspect::memory(&run.settings, &run.project_root, action)?)
        }
        Some(Command::Hooks {
            action: HooksAction::List { json },
        }) => {
            let run = load()?;
            Ok(hooks_list::list(
                &loader,
                &run.resolved,
                &run.project_root,
                *json,
            ))
        }
        Some(Command::Agents { action }) => {
            let run = load()?;
            Ok(agents_list::list(
                &loader,
                &run.settings,
                &run.project_root,
                action,
            ))
        }
    }
}

/// `wright mcp …`: adding and removing servers and logging out edit files
/// and tokens alone; listing, describing and logging in need the servers
/// the whole configuration names.
async fn mcp_command(
    loader: &ConfigLoader,
    args: &Args,
    action: &McpAction,
    load: impl FnOnce() -> Result<RunConfig, wright_config::ConfigError>,
) -> anyhow::Result<u8> {
    let flags = args.mcp_flags();
    match action {
        McpAction::Add {
            name,
            target,
            url,
            scope,
            transport,
            env,
            header,
        } => {
            let request = mcp_write::AddRequest {
                name,
                target,
                url: url.as_deref(),
                scope: *scope,
                transport: *transport,
                env,
                headers: header,
            };
            Ok(mcp_write::add(loader, &request)?)
        }
        McpAction::Remove { name, scope } => Ok(mcp_write::remove(loader, name, *scope)?),
        McpAction::Logout { name } => Ok(mcp_auth::logout(name)?),
        McpAction::List { json } => {
            let run = load()?;
            Ok(mcp_cmd::list(&run.resolved, &run.project_root, &flags, *json).await?)
        }
        McpAction::Get { name, json } => {
            let run = load()?;
            Ok(mcp_cmd::get(&run.resolved, &run.project_root, &flags, name, *json).await?)
        }
        McpAction::Login {
            name,
            redirect_port,
        } => {
            let run = load()?;
            let port = *redirect_port;
            Ok(mcp_auth::login(&run.resolved, &run.project_root, &flags, name, port).await?)
        }
    }
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
