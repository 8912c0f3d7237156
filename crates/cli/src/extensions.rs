//! User hooks and the same-turn verifier, as the session gets them: the
//! config's `[hooks]` groups and `[verify]` checks turned into the hooks
//! crate's types, plus the hooks of the project's Claude Code settings when
//! the user opted in and trusts the project. Nothing here fails a start:
//! every problem becomes a warning, because one broken hook or check must
//! not keep the user from working.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use wright_config::{CheckFormat, Resolved};
use wright_core::Extensions;
use wright_hooks::hook::{self, HookDef, HookEnv, Hooks, SessionStartSource};
use wright_hooks::verify::{self, CheckSpec, Format, Verifier};

/// The Claude Code settings files read when `hooks.import_claude_settings`
/// is on, relative to the project root, in the order Claude Code layers them.
pub const CLAUDE_SETTINGS_FILES: [&str; 2] =
    [".claude/settings.json", ".claude/settings.local.json"];

/// The merged hooks with what loading them had to say.
#[derive(Debug, Clone)]
pub struct LoadedHooks {
    /// wright's own hooks (config order), then the imported Claude Code
    /// ones; those with a bad matcher are left out.
    pub hooks: Hooks,
    /// Skipped entries, unreadable files, an import that needs trust.
    pub warnings: Vec<String>,
    /// The Claude Code settings files that were consulted (whether or not
    /// they exist); empty when the import is off or the project untrusted.
    pub claude_files: Vec<PathBuf>,
    /// The import is on and an untrusted project has settings files it
    /// would load: trusting the project would run their hooks.
    pub held_back: bool,
}

/// Everything the session's [`Extensions`] are made of except how it
/// starts, which is only known once the session file is opened.
#[derive(Debug, Clone)]
pub struct ExtensionPlan {
    /// The merged hooks.
    pub hooks: Arc<Hooks>,
    /// Where hooks run and which variables they must not see.
    pub hook_env: HookEnv,
    /// The verifier; `None` when it is off.
    pub verifier: Option<Arc<Verifier>>,
    /// Warnings to show once before the session starts.
    pub warnings: Vec<String>,
    /// Trusting the project would start running its Claude Code hooks.
    pub held_back: bool,
    /// The MCP servers, already connecting; `None` when none start.
    pub mcp: Option<wright_core::McpSetup>,
    /// Configured project servers that were not started, for `/mcp`.
    pub mcp_not_started: Vec<String>,
    /// The agent types the `Task` tool starts.
    pub agents: Option<Arc<wright_core::Agents>>,
}

impl ExtensionPlan {
    /// The session's extensions for a session that starts as `start`.
    pub fn extensions(&self, start: SessionStartSource) -> Extensions {
        Extensions {
            hooks: Arc::clone(&self.hooks),
            hook_env: self.hook_env.clone(),
            start,
            verifier: self.verifier.clone(),
            mcp: self.mcp.clone(),
            agents: self.agents.clone(),
            transcripts: None,
        }
    }

    /// One line for `/context`: how many hooks run on which event, and
    /// whether the verifier is on.
    pub fn summary(&self) -> String {
        let counts: Vec<String> = hook::HookEvent::ALL
            .iter()
            .filter_map(|event| {
                let n = self.hooks.defs().filter(|d| d.event == *event).count();
                (n > 0).then(|| format!("{event} {n}"))
            })
            .collect();
        let hooks = if counts.is_empty() {
            "none".to_owned()
        } else {
            counts.join(", ")
        };
        let verifier = if self.verifier.is_some() { "on" } else { "off" };
        format!("hooks: {hooks} · verifier: {verifier}")
    }
}

/// Builds the hooks and the verifier from the resolved config, and
/// installs the user's environment policy before any of them (or a
/// command, or a server) can start. Hooks run in `project_root` without
/// the credentials every child is denied.
pub fn plan(resolved: &Resolved, project_root: &Path) -> ExtensionPlan {
    let policy_warning = crate::env_policy::install(resolved);
    let loaded = load_hooks(resolved, project_root);
    let mut warnings = loaded.warnings;
    warnings.extend(policy_warning);
    let verifier = resolved.settings.verify.enabled.then(|| {
        let (verifier, verify_warnings) = Verifier::new(verify_settings(resolved), |program| {
            crate::which::which(program).is_some()
        });
        warnings.extend(verify_warnings);
        Arc::new(verifier)
    });
    ExtensionPlan {
        hooks: Arc::new(loaded.hooks),
        hook_env: HookEnv {
            set_vars: git_safety_vars(),
            project_dir: project_root.to_path_buf(),
            // The credentials every child is denied are removed by the
            // hooks crate itself (`wright_sandbox::scrub_env`).
            remove_vars: Vec::new(),
            callbacks: None,
        },
        verifier,
        warnings,
        held_back: loaded.held_back,
        mcp: None,
        mcp_not_started: Vec::new(),
        agents: None,
    }
}

/// Git settings forced for every git a hook runs, whatever the repository's
/// config says (command-line config outranks it): no fsmonitor program,
/// and no descent into submodules (a nested repository a command planted
/// runs its own config when git enters it). A sandboxed command can race a
/// planted `.git/commondir` or nested repository (swept, but a loop can
/// re-plant it) into a hook's git; this keeps that config from running a
/// program through the most direct doors. The user's hook scripts are
/// theirs, so the repository's own hooks and attributes stay on for them
/// (commands cannot change those: they are bound read-only). Appended after
/// any `GIT_CONFIG_COUNT` entries the user already set.
fn git_safety_vars() -> Vec<(String, String)> {
    let start: usize = std::env::var("GIT_CONFIG_COUNT")
        .ok()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    let forced = [
        ("core.fsmonitor", "false"),
        ("diff.ignoreSubmodules", "all"),
        ("submodule.recurse", "false"),
        ("fetch.recurseSubmodules", "false"),
        ("push.recurseSubmodules", "no"),
    ];
    let mut vars = Vec::new();
    for (i, (key, value)) in forced.iter().enumerate() {
        vars.push((format!("GIT_CONFIG_KEY_{}", start + i), (*key).to_owned()));
        vars.push((
            format!("GIT_CONFIG_VALUE_{}", start + i),
            (*value).to_owned(),
        ));
    }
    vars.push((
        "GIT_CONFIG_COUNT".to_owned(),
        (start + forced.len()).to_string(),
    ));
    vars
}

/// wright's configured hooks, then those of the project's Claude Code
/// settings when `hooks.import_claude_settings` is on and the project is
/// trusted (that file is the project's own, so it could run anything).
pub fn load_hooks(resolved: &Resolved, project_root: &Path) -> LoadedHooks {
    let settings = &resolved.settings;
    let mut defs: Vec<HookDef> = settings
        .hooks
        .groups
        .iter()
        .flat_map(|group| {
            let source = resolved.describe_source(&group.source);
            group.hooks.iter().map(move |h| {
                HookDef::new(
                    group.event,
                    group.matcher.clone(),
                    h.command.clone(),
                    h.timeout_secs,
                    source.clone(),
                )
            })
        })
        .collect();
    let mut warnings = Vec::new();
    let mut claude_files = Vec::new();
    let mut held_back = false;
    if settings.hooks.import_claude_settings {
        // `--setting-sources` decides for Claude Code's files as for wright's.
        let sources = resolved.setting_sources;
        let files: Vec<PathBuf> = CLAUDE_SETTINGS_FILES
            .iter()
            .zip([sources.project, sources.local])
            .filter(|(_, wanted)| *wanted)
            .map(|(f, _)| project_root.join(f))
            .collect();
        if settings.project_trusted() {
            for file in &files {
                import_claude_file(file, &mut defs, &mut warnings);
            }
            claude_files = files;
        } else {
            let found: Vec<String> = files
                .iter()
                .filter(|f| f.exists())
                .map(|f| f.display().to_string())
                .collect();
            // Said only when there is something to load, so a user who
            // opted in globally is not nagged in every untrusted checkout.
            if !found.is_empty() {
                held_back = true;
                warnings.push(format!(
                    "hooks.import_claude_settings is on, but the hooks in {} were not loaded: \
                     this project is not trusted (run `wright trust`, or pass --trust-project \
                     for one run)",
                    found.join(" and ")
                ));
            }
        }
    }
    // `--settings` is the user's own input, trusted like their config.
    if let Some(flag) = &resolved.flag_settings
        && let Some(text) = &flag.hooks_json
    {
        match hook::hooks_from_claude_settings(text, &flag.origin) {
            Ok((found, file_warnings)) => {
                defs.extend(found);
                warnings.extend(file_warnings);
            }
            Err(e) => warnings.push(format!("{e}; its hooks are not loaded")),
        }
    }
    let (hooks, hook_warnings) = Hooks::new(defs);
    warnings.extend(hook_warnings);
    LoadedHooks {
        hooks,
        warnings,
        claude_files,
        held_back,
    }
}

/// Appends the hooks of one Claude Code settings file. A missing file is
/// normal (most projects have none); an unreadable or malformed one is a
/// warning naming it.
fn import_claude_file(file: &Path, defs: &mut Vec<HookDef>, warnings: &mut Vec<String>) {
    match std::fs::metadata(file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
        _ => {}
    }
    let source = format!("Claude Code settings ({})", file.display());
    // Same limits as a config file: a regular file of at most 1 MB, opened
    // so that a FIFO planted in the repository cannot hang the start.
    let text = match wright_config::read_text_file(file) {
        Ok(text) => text,
        Err(wright_config::ConfigError::Io { message, .. }) => {
            warnings.push(format!(
                "cannot read {}: {message}; its hooks are not loaded",
                file.display()
            ));
            return;
        }
        Err(e) => {
            warnings.push(format!("{e}; its hooks are not loaded"));
            return;
        }
    };
    match hook::hooks_from_claude_settings(&text, &source) {
        Ok((found, file_warnings)) => {
            defs.extend(found);
            warnings.extend(file_warnings);
        }
        Err(e) => warnings.push(format!("{e}; its hooks are not loaded")),
    }
}

/// The config's output format as the verifier's.
fn check_format(format: CheckFormat) -> Format {
    match format {
        CheckFormat::CargoJson => Format::CargoJson,
        CheckFormat::Gcc => Format::Gcc,
        CheckFormat::Tsc => Format::Tsc,
        CheckFormat::Lines => Format::Lines,
    }
}

fn verify_settings(resolved: &Resolved) -> verify::VerifySettings {
    let verify = &resolved.settings.verify;
    verify::VerifySettings {
        enabled: verify.enabled,
        timeout: Duration::from_secs(verify.timeout_secs),
        checks: verify
            .checks
            .iter()
            .map(|check| CheckSpec {
                glob: check.glob.clone(),
                command: check.command.clone(),
                format: check_format(check.format),
                timeout: Some(Duration::from_secs(verify.check_timeout_secs(check))),
                source: resolved.describe_source(&check.source),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_format_maps_to_the_same_name() {
        for format in CheckFormat::ALL {
            assert_eq!(check_format(format).name(), format.as_str());
        }
    }
}
