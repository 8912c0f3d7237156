//! Builds a running session from settings: system prompt, tools, limits,
//! provider client.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use wright_config::Settings;
use wright_core::prompt::{self, PromptInputs};
use wright_core::{SessionHandle, SessionOptions, spawn_session};
use wright_tools::{OutputLimits, ToolRegistry};

use crate::provider::{self, Keys};

/// Default output cap per request when none is configured.
const DEFAULT_MAX_TOKENS: u32 = 8192;

/// A started session and what the front end should know about it.
pub struct Started {
    /// The session.
    pub handle: SessionHandle,
    /// A notice for the user (e.g. a detected local server).
    pub notice: Option<String>,
}

/// A problem the user must fix before a session can start (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// Per-run choices that are flags only, not configuration.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// `--max-budget-usd`.
    pub max_budget_usd: Option<f64>,
}

/// Resolves the provider, assembles the prompt and starts the session.
pub async fn start(
    settings: &Settings,
    launch: &Launch,
    cwd: &Path,
    project_root: &Path,
) -> Result<Started, SetupError> {
    let resolved = provider::resolve(settings, &Keys::from_env())
        .await
        .map_err(|e| SetupError(e.0))?;
    let system_prompt = system_prompt(settings, cwd, project_root)?;
    let session_id = uuid::Uuid::now_v7().to_string();
    let options = SessionOptions {
        spill_dir: spill_dir(&session_id),
        session_id,
        model: resolved.model,
        cwd: cwd.to_path_buf(),
        system_prompt,
        max_tokens: settings.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        max_turns: settings.max_turns,
        max_budget_usd: launch.max_budget_usd,
        permission_mode: settings.permission_mode,
        limits: OutputLimits {
            bash_default_timeout: Duration::from_secs(settings.bash_timeout_secs),
            ..OutputLimits::default()
        },
    };
    let handle = spawn_session(options, resolved.client, Arc::new(ToolRegistry::builtin()));
    Ok(Started {
        handle,
        notice: resolved.notice,
    })
}

fn system_prompt(
    settings: &Settings,
    cwd: &Path,
    project_root: &Path,
) -> Result<String, SetupError> {
    let base_override = match (&settings.system_prompt, &settings.system_prompt_file) {
        (Some(text), _) => Some(("--system-prompt".to_owned(), text.clone())),
        (None, Some(path)) => {
            let path = cwd.join(path);
            let text = std::fs::read_to_string(&path).map_err(|e| {
                SetupError(format!(
                    "cannot read the system prompt file {}: {e}",
                    path.display()
                ))
            })?;
            Some((path.display().to_string(), text))
        }
        (None, None) => None,
    };
    let parts = prompt::assemble(&PromptInputs {
        cwd,
        project_root,
        base_override,
        append: settings.append_system_prompt.clone(),
        instruction_files: &settings.instruction_files,
        date: chrono::Local::now().format("%Y-%m-%d").to_string(),
    });
    Ok(prompt::render(&parts))
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
