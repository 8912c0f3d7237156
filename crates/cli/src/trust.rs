//! Project trust at the binary's edge: loading config with the one-time
//! warning (or, in interactive mode, the y/N question), the `wright trust`
//! subcommand, the doctor line, and what an "always allow in this project"
//! answer means for a project that is not trusted: it never trusts it (a
//! keystroke meant for one command must not switch on the project's hooks,
//! MCP servers and looser settings), so the user is told the saved rule
//! waits for trust. The rules themselves live in `wright_config`.

use std::io::{BufRead, IsTerminal, Write};

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
    /// Trusted for this run only (`--trust-project` or a config dir that
    /// could not be written): later runs need trust again.
    ForThisRun,
    /// The user said no at start-up.
    Declined,
    /// Nothing to trust was found at start-up, so nobody was asked.
    NotAsked,
    /// Trusting would start running the project's Claude Code hooks
    /// outside the sandbox: the note says to read them first.
    HeldForHooks,
}

/// The project's trust as the interactive session needs it.
#[derive(Debug, Clone)]
pub struct ProjectTrust {
    state: State,
}

impl ProjectTrust {
    /// Called when the user answers "always in this project": the core has
    /// saved the rule in `.wright/config.local.toml` and allows it for this
    /// session. That file's allow rules apply in later sessions only to a
    /// trusted project, and this answer never trusts it (trust is its own
    /// question: at start-up, or `wright trust`). Returns the line saying
    /// what that means here; `None` when the project is trusted for good.
    pub fn on_project_approval(&self) -> Option<String> {
        const SAVED: &str = "note: the rule is saved in .wright/config.local.toml and allowed for \
                             this session";
        match self.state {
            State::Remembered => None,
            State::ForThisRun => Some(format!(
                "{SAVED}; this project is trusted for this run only, so later runs apply it \
                 only once it is trusted again (--trust-project, or `wright trust` for good)"
            )),
            State::HeldForHooks => Some(format!(
                "{SAVED}; this project is not trusted, so later sessions ignore it. Trusting \
                 would also run the hooks in its .claude/settings files outside the sandbox: \
                 read them, then run `wright trust` to apply the rule from now on"
            )),
            State::Declined | State::NotAsked => Some(format!(
                "{SAVED}; this project is not trusted, so later sessions ignore it. \
                 `wright trust` applies it from now on, with the rest of the project's \
                 .wright/ config (its hooks, MCP servers and looser settings)"
            )),
        }
    }
}

impl ProjectTrust {
    /// What an "always allow in this project" answer cannot do here, for
    /// the question to say before it is picked; `None` when the project is
    /// trusted for good.
    pub fn always_caveat(&self) -> Option<&'static str> {
        match self.state {
            State::Remembered => None,
            State::ForThisRun => Some("later runs apply it only while the project is trusted"),
            State::Declined | State::NotAsked | State::HeldForHooks => {
                Some("saved, but later sessions ignore it until you run `wright trust`")
            }
        }
    }

    /// The project has Claude Code hooks that trust would let run: the
    /// note after an "always" answer says to read them before trusting.
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

    fn untrusted() -> ProjectTrust {
        ProjectTrust {
            state: State::NotAsked,
        }
    }

    #[test]
    fn an_always_answer_never_trusts_the_project() {
        let mut held = untrusted();
        held.hold_for_hooks();
        let mut declined = untrusted();
        declined.state = State::Declined;
        let mut this_run = untrusted();
        this_run.state = State::ForThisRun;
        for (trust, names) in [
            (untrusted(), "not trusted"),
            (declined, "not trusted"),
            (held, ".claude/settings"),
            (this_run, "this run only"),
        ] {
            assert!(trust.always_caveat().is_some(), "{names}");
            let before = trust.state.clone();
            let note = trust.on_project_approval().unwrap();
            assert!(
                note.contains("config.local.toml")
                    && note.contains(names)
                    && note.contains("wright trust"),
                "{note}"
            );
            // Still untrusted: a later "always" says the same again.
            assert_eq!(trust.state, before, "{note}");
            assert_eq!(trust.on_project_approval(), Some(note));
        }
        let mut remembered = untrusted();
        remembered.state = State::Remembered;
        assert_eq!(remembered.on_project_approval(), None);
        assert_eq!(remembered.always_caveat(), None);
        // Holding does not undo trust already given.
        remembered.hold_for_hooks();
        assert_eq!(remembered.state, State::Remembered);
    }
}
