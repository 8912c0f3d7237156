//! The configuration a run works with, for the subcommands that need the
//! whole of it and for the session itself: the layered config with the
//! project's trust settled, the thinking flags applied, and the keys a
//! project's own config may not set cleared.

use std::path::{Path, PathBuf};

use wright_config::{ConfigError, ConfigLoader, Resolved, Settings, find_project_root};

use crate::args::{self, Args};
use crate::notices;
use crate::trust::{self, ProjectTrust};

/// Keys that make wright read files outside the project: only the user's
/// own config may set them, so a cloned repository cannot.
pub const USER_ONLY_KEYS: [&str; 2] = ["context.user_instruction_files", "context.skill_dirs"];

/// The configuration of one run.
pub struct RunConfig {
    /// Every layer, with where each value came from.
    pub resolved: Resolved,
    /// Whether the project is trusted, and whether to ask.
    pub trust: ProjectTrust,
    /// The settings in force, after the flags of this run.
    pub settings: Settings,
    /// The project the run works in.
    pub project_root: PathBuf,
}

impl RunConfig {
    /// Loads the layers (asking about the project's trust where that is
    /// asked), says their warnings, and applies this run's flags.
    pub fn load(loader: &ConfigLoader, args: &Args, cwd: &Path) -> Result<Self, ConfigError> {
        let (resolved, trust) = trust::load(loader, args)?;
        if let Some(warning) = resolved
            .flag_settings
            .as_ref()
            .and_then(wright_config::FlagSettings::unknown_warning)
        {
            notices::say(&warning);
        }
        let mut settings = resolved.settings.clone();
        apply_thinking(args, &mut settings);
        for key in USER_ONLY_KEYS {
            if let Some(file) = project_file_source(&resolved, loader, key) {
                notices::say(&format!(
                    "warning: ignoring {key} from the project's {}: it may only be set in your user config",
                    file.display()
                ));
                match key {
                    "context.user_instruction_files" => {
                        settings.context.user_instruction_files.clear();
                    }
                    _ => settings.context.skill_dirs.clear(),
                }
            }
        }
        Ok(Self {
            resolved,
            trust,
            settings,
            project_root: find_project_root(cwd),
        })
    }
}

/// `--thinking` and `--max-thinking-tokens` over the configured budget.
fn apply_thinking(args: &Args, settings: &mut Settings) {
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
}

/// The project config file (`.wright/config.toml` or `config.local.toml`)
/// that set `key`, if the value in force came from one.
pub fn project_file_source(
    resolved: &Resolved,
    loader: &ConfigLoader,
    key: &str,
) -> Option<PathBuf> {
    match resolved.source(key)? {
        wright_config::Source::File(path)
            if *path == loader.project_file() || *path == loader.local_file() =>
        {
            Some(path.clone())
        }
        _ => None,
    }
}
