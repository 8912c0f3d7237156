//! User hooks in Claude Code's contract: the events, the matchers, the JSON
//! written to a hook's stdin, running hook commands (own process group,
//! timeout, cancel), reading their exit codes and JSON replies, and folding
//! the replies of all hooks of one event into a single [`HookRun`]. The core
//! decides what to do with a `HookRun`; nothing here touches the session.
//!
//! Hooks come from wright's own config (through [`HookDef::new`]) and from
//! Claude Code's `.claude/settings.json` files
//! ([`claude_settings::hooks_from_claude_settings`]).

mod aggregate;
mod callback;
pub mod claude_settings;
mod input;
mod matcher;
mod outcome;
mod output;
mod run;

use std::time::Duration;

pub use aggregate::HookRun;
pub use callback::{CallbackChannel, HookCallbacks};
pub use claude_settings::{HookConfigError, hooks_from_claude_settings};
pub use input::{CompactTrigger, HookCommon, HookPayload, SessionStartSource, input_json};
pub use matcher::Hooks;
pub use outcome::{HookOutcome, HookResult};
pub use output::{
    HookJson, HookSpecificOutput, JsonDecision, PermissionBehavior, PermissionDecision,
    PermissionRequestDecision,
};
pub use run::{DEFAULT_TIMEOUT, HookEnv, OUTPUT_CAP};
pub use wright_protocol::{HookEvent, MatcherTarget, UnknownHookEvent};

/// One configured hook: run `command` on `event` when `matcher` matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookDef {
    /// The event the hook runs on.
    pub event: HookEvent,
    /// The matcher over the event's matcher target, as in Claude Code:
    /// absent, empty or `*` matches everything; only letters, digits, `_`
    /// and `|` is an exact match against one of the `|`-separated names;
    /// anything else is a regex matched unanchored (see [`Hooks::new`]).
    pub matcher: Option<String>,
    /// The command line, run as `bash -c <command>`.
    pub command: String,
    /// How long the hook may run; [`DEFAULT_TIMEOUT`] when absent.
    pub timeout: Option<Duration>,
    /// Where the hook was configured, for messages, e.g.
    /// `user config (~/.config/wright/config.toml)`.
    pub source: String,
    /// Set for a hook registered by the program driving wright (the Agent
    /// SDK): the callback id to call instead of running `command`.
    pub callback: Option<String>,
}

impl HookDef {
    /// Builds a hook from the parts a config file holds. `timeout_secs` is in
    /// seconds as in Claude Code's settings; `0` means the default, since a
    /// hook that may not run at all is never what was meant.
    pub fn new(
        event: HookEvent,
        matcher: Option<String>,
        command: impl Into<String>,
        timeout_secs: Option<u64>,
        source: impl Into<String>,
    ) -> Self {
        HookDef {
            event,
            matcher,
            command: command.into(),
            timeout: timeout_secs.filter(|s| *s > 0).map(Duration::from_secs),
            source: source.into(),
            callback: None,
        }
    }

    /// A hook that calls `callback` in the program driving wright; it is
    /// shown as `sdk callback <id>`.
    pub fn callback(
        event: HookEvent,
        matcher: Option<String>,
        callback: impl Into<String>,
        timeout_secs: Option<u64>,
    ) -> Self {
        let callback = callback.into();
        let mut def = HookDef::new(
            event,
            matcher,
            format!("sdk callback {callback}"),
            timeout_secs,
            "the program driving wright (initialize)",
        );
        def.callback = Some(callback);
        def
    }

    /// The time limit this hook runs under.
    pub fn effective_timeout(&self) -> Duration {
        self.timeout.unwrap_or(DEFAULT_TIMEOUT)
    }
}

#[cfg(test)]
#[path = "contract_tests.rs"]
mod contract_tests;
#[cfg(test)]
mod test_fx;
