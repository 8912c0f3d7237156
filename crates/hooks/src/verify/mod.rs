//! The same-turn verifier: after the model edits files, the checker for
//! their language runs and the diagnostics *for those files* are appended to
//! the edit's tool result, so the model sees them in the same turn.
//!
//! This module owns the decisions and the text, not the process: [`Verifier::plan`]
//! says which checks to run for one model response's edits, the core runs each
//! [`CheckRun`] inside wright's OS sandbox (stdout and stderr merged, with a
//! timeout), and [`report_output`] (or [`parse`] then [`report`]) turns the
//! captured text into a short note for the tool result.

mod parse;
mod paths;
mod plan;
mod report;

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use parse::parse;
pub use plan::{CheckRun, Verifier};
pub use report::{Report, ReportLimits, failure_note, report, report_output, timeout_note};

/// How long a check may run when neither the check nor the settings say.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// The shape of a checker's output, which decides how it is parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// `cargo … --message-format=json`: one JSON object per line.
    CargoJson,
    /// `file:line:col: severity: message`, which also covers clang, ruff's
    /// concise output and `go vet`.
    Gcc,
    /// `tsc --pretty false`: `file(line,col): error TS2322: message`.
    Tsc,
    /// Any text: each line that names an edited file is an error.
    Lines,
}

impl Format {
    /// Every format, in the order they are documented.
    pub const ALL: [Format; 4] = [Format::CargoJson, Format::Gcc, Format::Tsc, Format::Lines];

    /// The name used in configuration.
    pub fn name(self) -> &'static str {
        match self {
            Format::CargoJson => "cargo-json",
            Format::Gcc => "gcc",
            Format::Tsc => "tsc",
            Format::Lines => "lines",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that is not one of [`Format::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown checker output format `{0}` (expected one of: cargo-json, gcc, tsc, lines)")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s.trim())
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

/// One user-configured check: which files it covers and how it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckSpec {
    /// A glob; without `/` it matches the file name at any depth (`*.ts`),
    /// with `/` it matches the path relative to the workspace root.
    pub glob: String,
    /// A `bash -c` script; `{files}` is replaced by the shell-quoted edited
    /// files relative to the workspace root.
    pub command: String,
    /// How the command's output is read.
    pub format: Format,
    /// Overrides [`VerifySettings::timeout`] for this check.
    pub timeout: Option<Duration>,
    /// Where the check was configured (a file and key), for warnings.
    pub source: String,
}

/// The verifier's configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifySettings {
    /// When false, [`Verifier::plan`] never plans anything.
    pub enabled: bool,
    /// How long a check may run unless it sets its own timeout.
    pub timeout: Duration,
    /// User checks, tried in order before the built-in presets.
    pub checks: Vec<CheckSpec>,
}

impl Default for VerifySettings {
    fn default() -> Self {
        VerifySettings {
            enabled: true,
            timeout: DEFAULT_TIMEOUT,
            checks: Vec::new(),
        }
    }
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The code is wrong.
    Error,
    /// The code is suspicious.
    Warning,
    /// Extra context, shown only under an error.
    Note,
}

impl Severity {
    /// The lowercase word checkers print.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One finding from a checker, attributed to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Absolute, canonical where the file exists.
    pub file: PathBuf,
    /// 1-based; 0 when the checker gave no line.
    pub line: u32,
    /// 1-based, when the checker gave one.
    pub column: Option<u32>,
    /// How serious it is.
    pub severity: Severity,
    /// The checker's code for it (`E0308`, `F401`, `TS2322`).
    pub code: Option<String>,
    /// The one-line (sometimes few-line) message.
    pub message: String,
    /// The checker's own multi-line rendering, when it gives one (cargo).
    pub rendered: Option<String>,
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod format_tests;
