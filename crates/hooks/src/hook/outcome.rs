//! What became of one hook's run: how it ended ([`HookResult`]) and the
//! record of it ([`HookOutcome`]) that the UI shows and the fold reads.

use std::fmt;
use std::time::Duration;

use super::HookEvent;

/// How one hook ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookResult {
    /// Exit 0. `stdout` is read as a JSON reply or as plain text.
    Success {
        /// What the hook printed (at most [`OUTPUT_CAP`](super::OUTPUT_CAP) bytes).
        stdout: String,
    },
    /// Exit 2: a blocking error; stdout is ignored, `stderr` is the reason.
    Blocked {
        /// What the hook printed on stderr.
        stderr: String,
    },
    /// Any other exit, or death by a signal (`code` is `None` then).
    Failed {
        /// The exit code.
        code: Option<i32>,
        /// What the hook printed on stderr.
        stderr: String,
    },
    /// The hook outlived its timeout; its process group was killed.
    TimedOut,
    /// The caller cancelled; the hook's process group was killed.
    Cancelled,
    /// The hook could not be started at all.
    SpawnError(String),
}

impl HookResult {
    /// The one-word outcome shown in the UI.
    pub fn word(&self) -> &'static str {
        match self {
            HookResult::Success { .. } => "ok",
            HookResult::Blocked { .. } => "blocked",
            HookResult::Failed { .. } => "failed",
            HookResult::TimedOut => "timeout",
            HookResult::Cancelled => "cancelled",
            HookResult::SpawnError(_) => "error",
        }
    }
}

/// One hook's run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookOutcome {
    /// The event it ran for.
    pub event: HookEvent,
    /// Its command line.
    pub command: String,
    /// Where it was configured.
    pub source: String,
    /// How long it ran.
    pub duration: Duration,
    /// How it ended.
    pub result: HookResult,
}

impl fmt::Display for HookOutcome {
    /// `PreToolUse hook "./check.sh" 12ms: ok`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} hook \"{}\" {}: {}",
            self.event,
            self.command,
            short_duration(self.duration),
            self.result.word()
        )
    }
}

pub(crate) fn short_duration(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{}ms", d.as_millis())
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}
