//! Project trust at the binary's edge: loading config with the one-time
//! warning (or, in interactive mode, the y/N question), the `wright trust`
//! subcommand, the doctor line, and counting "always allow in this
//! project" as trusting it. The rules themselves live in `wright_config`.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use wright_config::{
    ConfigError, ConfigLoader, IgnoreReason, Resolved, Trust, TrustChange, describe_ignored,
    record_trust,
};

use crate::args::{Args, InputFormat, OutputFormat};

/// Where the project stands after start-up, for the approval flow.
#[derive(Debug, Clone, PartialEq, Eq)]
enum State {
    /// Trusted by the user's config: nothing to record.
    Remembered,
    /// Trusted for this run (`--trust-project` or a config dir that could
    /// not be written): "always allow" records it.
    ForThisRun,
    /// The user said no at start-up: "always allow" must not undo that.
    Declined,
    /// Nothing to trust was found: "always allow" records trust.
    NotAsked,
    /// Trusting would start running the project's Claude Code hooks
    /// outside the sandbox: only an explicit `wright trust` does that.
    HeldForHooks,
}

/// The project's trust as the interactive session needs it.
#[derive(Debug, Clone)]
pub struct ProjectTrust {
    user_config_dir: Option<PathBuf>,
    project_root: PathBuf,
    state: State,
}

impl ProjectTrust {
    /// Called when the user answers "always in this project": wright saves
    /// that approval in `.wright/config.local.toml`, which is honoured only
    /// for trusted projects, so the answer also trusts the project (unless
    /// the user declined that at start-up). Returns a line to show.
    pub fn on_project_approval(&mut self) -> Option<String> {
        match self.state {
            State::Remembered => None,
            State::HeldForHooks => Some(
                "note: the saved approval applies to this session only: trusting this project \
                 would also run the hooks in its .claude/settings files outside the sandbox; \
                 read them, then run `wright trust`"
                    .to_owned(),
            ),
            State::Declined => Some(
                "note: this project is not trusted, so the saved approval applies to this \
                 session only; run `wright trust` to keep it"
                    .to_owned(),
            ),
            State::ForThisRun | State::NotAsked => {
                let dir = self.user_config_dir.as_ref()?;
                match record_trust(dir, &self.project_root, TrustChange::Trust) {
                    Ok(file) => {
                        self.state = State::Remembered;
                        Some(format!(
                            "note: wright now trusts {} (recorded in {}); `wright trust --revoke` undoes it",
                            self.project_root.display(),
                            file.display()
                        ))
                    }
                    Err(e) => Some(format!("warning: could not record trust: {e}")),
                }
            }
        }
    }
}

impl ProjectTrust {
    /// The project has Claude Code hooks that trust would let run: an
    /// "always" answer no longer trusts it on the side.
    pub fn hold_for_hooks(&mut self) {
        if self.state == State::NotAsked {
            self.state = State::HeldForHooks;
        }
    }
}

/// Loads config for a run. Values an untrusted project tried to loosen
/// are reported once: in interactive mode as a y/N question whose yes is
/// remembered, otherwise as one warning on stderr.
pub fn load(loader: &ConfigLoader, args: &Args) -> Result<(Resolved, ProjectTrust), ConfigError> {
    let overrides = args.overrides();
    let mut resolved = loader.load(&overrides)?;
    crate::mcp_servers::release_approved(&mut resolved, &args.approving_rules());
    let mut trust = ProjectTrust {
        user_config_dir: loader.user_config_dir.clone(),
        project_root: loader.project_root.clone(),
        state: match &resolved.settings.trust {
            Trust::Trusted(wright_config::TrustSource::UserConfig(_)) => State::Remembered,
            Trust::Trusted(wright_config::TrustSource::Flag) => State::ForThisRun,
            Trust::Untrusted => State::NotAsked,
        },
    };
    if !resolved.has_untrusted_ignored() || !is_interactive(args) {
        for warning in resolved.warnings() {
            crate::notices::say(&warning);
        }
        return Ok((resolved, trust));
    }
    let question = format!(
        "This project's config would loosen wright's safety settings:\n  {}\n\
         Trust {} and apply them from now on?{} [y/N] ",
        describe_ignored(&resolved.ignored, IgnoreReason::UntrustedProject).replace("; ", "\n  "),
        loader.project_root.display(),
        loader
            .user_file()
            .map(|f| format!(" (remembered in {})", f.display()))
            .unwrap_or_default(),
    );
    match ask_yes_no(&question) {
        Answer::No => {
            trust.state = State::Declined;
            for warning in resolved.warnings() {
                crate::notices::say(&warning);
            }
            Ok((resolved, trust))
        }
        Answer::Yes => {
            let recorded = loader
                .user_config_dir
                .as_ref()
                .map(|dir| record_trust(dir, &loader.project_root, TrustChange::Trust));
            trust.state = match recorded {
                Some(Ok(_)) => State::Remembered,
                Some(Err(e)) => {
                    eprintln!(
                        "warning: could not record trust ({e}); trusting for this session only"
                    );
                    State::ForThisRun
                }
                None => State::ForThisRun,
            };
            let trusted = wright_config::Overrides {
                trust_project: true,
                ..overrides
            };
            let mut resolved = loader.load(&trusted)?;
            crate::mcp_servers::release_approved(&mut resolved, &args.approving_rules());
            for warning in resolved.warnings() {
                crate::notices::say(&warning);
            }
            Ok((resolved, trust))
        }
    }
}

/// Whether this run is the interactive session (the only place a person
/// can be asked): no subcommand, no `-p`, text in and out, stdin a terminal.
pub(crate) fn is_interactive(args: &Args) -> bool {
    args.command.is_none()
        && args.print.is_none()
        && args.input_format == InputFormat::Text
        && args.output_format == OutputFormat::Text
        && std::io::stdin().is_terminal()
}

/// `wright trust [--revoke]`: records (or removes) trust for the project
/// of the working directory in the user's config.
pub fn command(loader: &ConfigLoader, change: TrustChange) -> Result<u8, ConfigError> {
    let Some(dir) = &loader.user_config_dir else {
        eprintln!("error: no user config directory (set XDG_CONFIG_HOME or HOME)");
        return Ok(crate::exit::USAGE);
    };
    let file = record_trust(dir, &loader.project_root, change)?;
    let root = wright_config::canonical_root(&loader.project_root);
    if change == TrustChange::Revoke {
        println!(
            "{} is no longer trusted (updated {})",
            root.display(),
            file.display()
        );
    } else {
        println!(
            "trusted {}: its .wright/ config now applies in full (recorded in {})",
            root.display(),
            file.display()
        );
    }
    Ok(crate::exit::SUCCESS)
}

/// The `wright doctor` line: whether the project is trusted, and what its
/// config would change if it were.
pub fn doctor_detail(loader: &ConfigLoader, args: &Args) -> String {
    let root = wright_config::canonical_root(&loader.project_root);
    let trust = loader.trust(&args.overrides());
    let mut detail = format!("project {}: {}", root.display(), trust.describe());
    if let Ok(mut resolved) = loader.load(&args.overrides())
        && {
            crate::mcp_servers::release_approved(&mut resolved, &args.approving_rules());
            resolved.has_untrusted_ignored()
        }
    {
        detail.push_str(&format!(
            "; ignoring {} (`wright trust` applies them)",
            describe_ignored(&resolved.ignored, IgnoreReason::UntrustedProject)
        ));
    }
    detail
}

/// The answer to a yes/no question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// `y` or `yes`.
    Yes,
    /// Anything else, including end of input: the safe default.
    No,
}

/// Asks `question` on stderr and reads one line from stdin, before the
/// session starts (the line reader does not exist yet, and lines typed
/// after the answer stay buffered for it).
pub fn ask_yes_no(question: &str) -> Answer {
    {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "{question}");
        let _ = err.flush();
    }
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(_) if matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes") => Answer::Yes,
        _ => Answer::No,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn untrusted(dir: &std::path::Path) -> ProjectTrust {
        ProjectTrust {
            user_config_dir: Some(dir.join("config")),
            project_root: dir.join("project"),
            state: State::NotAsked,
        }
    }

    #[test]
    fn an_always_answer_trusts_a_project_only_when_that_runs_no_hooks_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("project")).unwrap();
        let mut held = untrusted(dir.path());
        held.hold_for_hooks();
        let note = held.on_project_approval().unwrap();
        assert!(
            note.contains(".claude/settings") && note.contains("wright trust"),
            "{note}"
        );
        assert_eq!(held.state, State::HeldForHooks);
        assert!(!dir.path().join("config/config.toml").exists());

        let mut plain = untrusted(dir.path());
        let note = plain.on_project_approval().unwrap();
        assert!(note.contains("now trusts"), "{note}");
        assert_eq!(plain.state, State::Remembered);
        // Holding does not undo trust already given.
        plain.hold_for_hooks();
        assert_eq!(plain.state, State::Remembered);
    }
}
