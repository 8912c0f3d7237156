//! `wright acp`: the binary's side of the ACP server. Implements
//! [`wright_acp::Backend`]: each editor session gets the configuration of
//! its own directory, the editor's MCP servers (started as `--mcp-config`
//! servers: the user chose them in the editor) and a core session, built
//! the way print and interactive mode build theirs.

use std::path::Path;
use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;
use serde_json::{Map, Value, json};
use wright_acp::{
    AuthState, Backend, BackendError, BackendSession, CustomCommand, McpServerSpec, ModelChoice,
    SessionRequest,
};
use wright_config::{ConfigLoader, find_project_root};

use crate::args::Args;
use crate::sessions::{self, SessionChoice};
use crate::{exit, extensions, mcp_servers, mcp_start, setup, trust};

/// Serves ACP on stdio until the editor disconnects.
pub async fn run(args: Args) -> u8 {
    let auth = auth_state(&args);
    let backend = WrightBackend {
        args: Arc::new(args),
        auth,
    };
    match wright_acp::serve_stdio(Arc::new(backend)).await {
        Ok(()) => exit::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            exit::ERROR
        }
    }
}

struct WrightBackend {
    /// The flags `wright acp` was started with apply to every session.
    args: Arc<Args>,
    auth: AuthState,
}

impl Backend for WrightBackend {
    fn start(
        &self,
        request: SessionRequest,
    ) -> BoxFuture<'static, Result<BackendSession, BackendError>> {
        let args = Arc::clone(&self.args);
        async move { start_session(&args, request).await }.boxed()
    }

    fn auth(&self) -> AuthState {
        self.auth.clone()
    }
}

/// Credentials are read once at start-up (they come from the environment
/// the editor launched wright with); a configured server may need none.
fn auth_state(args: &Args) -> AuthState {
    let keys = crate::provider::Keys::from_env();
    let configured_server = std::env::current_dir()
        .ok()
        .and_then(|cwd| {
            ConfigLoader::from_environment(&cwd)
                .load(&args.overrides())
                .ok()
        })
        .is_some_and(|r| r.settings.base_url.is_some());
    if keys.anthropic.is_some() || keys.openai.is_some() || configured_server {
        AuthState::Ready
    } else {
        AuthState::Missing {
            hint: "Set ANTHROPIC_API_KEY or OPENAI_API_KEY in the environment the editor \
                   starts `wright acp` with, or configure a local server (base_url and \
                   provider in ~/.config/wright/config.toml), then restart the agent."
                .to_owned(),
        }
    }
}

/// One editor session: config for its cwd, MCP servers, agents, the core.
async fn start_session(
    args: &Args,
    request: SessionRequest,
) -> Result<BackendSession, BackendError> {
    let failed = |e: &dyn std::fmt::Display| BackendError::Failed(e.to_string());
    let cwd = request.cwd.clone();
    if !cwd.is_dir() {
        return Err(BackendError::Failed(format!(
            "{} is not a directory",
            cwd.display()
        )));
    }
    let loader = ConfigLoader::from_environment(&cwd);
    let (resolved, _trust) = trust::load(&loader, args).map_err(|e| failed(&e))?;
    let mut settings = resolved.settings.clone();
    if let Some(model) = &request.model {
        settings.model = Some(model.clone());
    }
    // As in the other modes: a cloned repository's config may not make
    // wright read files outside it.
    for key in crate::run_config::USER_ONLY_KEYS {
        if crate::run_config::project_file_source(&resolved, &loader, key).is_some() {
            eprintln!("warning: ignoring {key} from the project's config");
            match key {
                "context.user_instruction_files" => settings.context.user_instruction_files.clear(),
                _ => settings.context.skill_dirs.clear(),
            }
        }
    }
    let project_root = find_project_root(&cwd);
    let (resume, history) = match &request.resume {
        Some(id) => {
            let (id, history) = recorded(id, &cwd)?;
            (Some(id), history)
        }
        None => (None, Vec::new()),
    };
    let mut plan = extensions::plan(&resolved, &project_root);
    let mut flags = args.mcp_flags();
    if !request.mcp_servers.is_empty() {
        flags
            .configs
            .push(mcp_config_json(&request.mcp_servers).to_string());
    }
    let collected =
        mcp_servers::collect(&resolved, &project_root, &flags, None).map_err(|e| failed(&e))?;
    let decided = mcp_start::decide(
        collected,
        mcp_start::Asking::Skip,
        loader.user_config_dir.as_deref(),
        &project_root,
    );
    // Shown to the user at the first prompt (and logged then).
    let mcp_warnings = decided.warnings.clone();
    plan.mcp = mcp_start::spawn(&decided, &settings, &project_root);
    plan.mcp_not_started = decided.not_started;
    plan.agents = Some(agents(&settings, &loader, &project_root));
    let launch = setup::Launch {
        max_budget_usd: args.max_budget_usd,
        // The editor answers approval requests, unless the user chose
        // Claude Code's `dontAsk` (refuse what no rule allows), as in
        // interactive mode.
        can_ask: if matches!(args.permission_mode, Some(crate::args::ModeArg::DontAsk)) {
            wright_permissions::CanAsk::No
        } else {
            wright_permissions::CanAsk::Yes
        },
        session: SessionChoice {
            resume,
            ..SessionChoice::default()
        },
        base_url_from_project: resolved
            .untrusted_project_source("base_url")
            .map(Path::to_path_buf),
        extensions: Some(plan),
        editor: request
            .editor
            .clone()
            .map(|fs| Arc::new(EditorBuffers(fs)) as Arc<dyn wright_tools::EditorBuffers>),
        provider_notice: resolved
            .inferred
            .as_ref()
            .map(wright_config::Inference::notice),
        base_url_from: resolved.source("base_url").map(ToString::to_string),
        ..setup::Launch::default()
    };
    let started = setup::start(&settings, &launch, &cwd, &project_root)
        .await
        .map_err(|e| {
            let message = e.to_string();
            if message.starts_with("No API key") || message.starts_with("No model provider") {
                BackendError::AuthRequired(message)
            } else {
                BackendError::Failed(message)
            }
        })?;
    let setup::Started {
        handle,
        notices,
        view,
        ..
    } = started;
    let ops = handle.op_sender();
    let events = handle.events;
    let (custom, command_problems) = wright_context::commands::load(
        &project_root,
        wright_config::default_user_config_dir().as_deref(),
    );
    for problem in command_problems {
        eprintln!("warning: {}", problem.message);
    }
    let commands = custom
        .into_iter()
        .map(|c| CustomCommand {
            name: c.name.clone(),
            description: c.description.clone(),
            hint: c.argument_hint.clone(),
            expand: Box::new(move |args| wright_context::commands::expand(&c, args)),
        })
        .collect();
    let tools = wright_tools::ToolRegistry::builtin();
    Ok(BackendSession {
        commands,
        touches_of: Box::new(move |name, arguments| {
            let args = serde_json::from_str(arguments).ok()?;
            Some(
                tools
                    .get(name)?
                    .touches(&wright_tools::claude_names(name, args)),
            )
        }),
        // The core's first event names a new session's id.
        id: launch.session.resume.clone().unwrap_or_default(),
        ops,
        events,
        history,
        notice: join_notices(notices, mcp_warnings),
        context_window: view.map(|v| v.window),
        models: crate::models::catalog(&settings)
            .list()
            .into_iter()
            .map(|m| ModelChoice {
                name: m.name.clone(),
                provider: m.provider.to_owned(),
            })
            .collect(),
    })
}

/// A recorded session's full id and conversation.
fn recorded(
    prefix: &str,
    cwd: &Path,
) -> Result<(String, Vec<wright_protocol::Message>), BackendError> {
    let store = sessions::store().map_err(|e| BackendError::Failed(e.to_string()))?;
    let found = store
        .resolve_id(prefix, Some(cwd))
        .map_err(|e| BackendError::NotFound(e.to_string()))?;
    let loaded = store
        .load(&found.id)
        .map_err(|e| BackendError::NotFound(e.to_string()))?;
    // The recorded conversation talks about its own directory's files: run
    // in another one, the model would edit the wrong tree.
    let same_dir = |a: &Path, b: &Path| {
        a == b || std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok()
    };
    if !same_dir(&loaded.header.cwd, cwd) {
        return Err(BackendError::Failed(format!(
            "session {} was recorded in {}, not in {}; open that directory to load it",
            found.id,
            loaded.header.cwd.display(),
            cwd.display()
        )));
    }
    Ok((found.id, loaded.history()))
}

/// Subagent definitions and limits, as the other modes set them up.
fn agents(
    settings: &wright_config::Settings,
    loader: &ConfigLoader,
    project_root: &Path,
) -> Arc<wright_core::Agents> {
    let dirs = wright_config::agent_dirs(settings, project_root, loader.user_config_dir.as_deref());
    let (defs, warnings) = wright_context::agents::discover_agents(&dirs);
    for warning in &warnings {
        eprintln!("warning: {warning}");
    }
    Arc::new(crate::setup::agent_types(defs, settings, project_root))
}

/// The editor's servers in `.mcp.json`'s shape, for `--mcp-config`.
fn mcp_config_json(servers: &[McpServerSpec]) -> Value {
    let pairs = |v: &[(String, String)]| {
        Value::Object(
            v.iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect::<Map<String, Value>>(),
        )
    };
    let mut all = Map::new();
    for server in servers {
        let (name, entry) = match server {
            McpServerSpec::Stdio {
                name,
                command,
                args,
                env,
            } => (
                name,
                json!({"command": command, "args": args, "env": pairs(env)}),
            ),
            McpServerSpec::Http { name, url, headers } => (
                name,
                json!({"type": "http", "url": url, "headers": pairs(headers)}),
            ),
            McpServerSpec::Sse { name, url, headers } => (
                name,
                json!({"type": "sse", "url": url, "headers": pairs(headers)}),
            ),
        };
        all.insert(name.clone(), entry);
    }
    json!({ "mcpServers": all })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editor_servers_become_an_mcp_config() {
        let servers = vec![
            McpServerSpec::Stdio {
                name: "fs".into(),
                command: "/bin/fs-server".into(),
                args: vec!["--root".into(), "/p".into()],
                env: vec![("TOKEN".into(), "t".into())],
            },
            McpServerSpec::Http {
                name: "web".into(),
                url: "http://127.0.0.1:9/mcp".into(),
                headers: vec![("Authorization".into(), "Bearer x".into())],
            },
        ];
        assert_eq!(
            mcp_config_json(&servers),
            json!({"mcpServers": {
                "fs": {"command": "/bin/fs-server", "args": ["--root", "/p"], "env": {"TOKEN": "t"}},
                "web": {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer x"}},
            }})
        );
    }
}

/// The editor's `fs/read_text_file` and `fs/write_text_file` as the file
/// tools' view of unsaved buffers and their way into them.
#[derive(Debug)]
struct EditorBuffers(wright_acp::EditorFs);

impl wright_tools::EditorBuffers for EditorBuffers {
    fn text<'a>(&'a self, path: &'a Path) -> BoxFuture<'a, Option<String>> {
        Box::pin(self.0.read_text(path))
    }

    fn takes_writes(&self) -> bool {
        self.0.takes_writes()
    }

    fn write<'a>(&'a self, path: &'a Path, text: &'a str) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(self.0.write_text(path, text))
    }
}

/// Start-up notes and MCP set-up warnings as one notice.
fn join_notices(notices: Vec<String>, warnings: Vec<String>) -> Option<String> {
    let all: Vec<String> = notices.into_iter().chain(warnings).collect();
    (!all.is_empty()).then(|| all.join("\n"))
}
