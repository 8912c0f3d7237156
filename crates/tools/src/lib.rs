//! The tools the model calls (`read`, `write`, `edit`, `bash`, `glob`,
//! `grep`, `ls`): the [`Tool`] trait, the context a run gets, the error
//! kinds the model is told about, and the [`ToolRegistry`] of built-ins.
//!
//! Safety policy (permissions, sandbox, workspace bounds) lives in the core;
//! the only policy here is the destructive-command [`guard`], which the
//! `bash` tool applies in every mode.

mod args;
mod bash;
mod bash_proc;
mod diff;
mod edit;
mod edit_match;
mod glob;
mod grep;
pub mod guard;
mod guard_lex;
mod ls;
mod output;
pub mod paths;
mod read;
mod registry;
pub mod shell_lex;
pub mod truncate;
mod walk;
mod write;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec};

pub use bash::BashTool;
pub use edit::EditTool;
pub use glob::GlobTool;
pub use grep::GrepTool;
pub use ls::LsTool;
pub use read::ReadTool;
pub use registry::ToolRegistry;
pub use write::WriteTool;

/// A tool the model can call.
pub trait Tool: Send + Sync {
    /// The name the model calls it by.
    fn name(&self) -> &'static str;
    /// Name, description and JSON Schema of the arguments, as sent to the model.
    fn spec(&self) -> ToolSpec;
    /// The effect class, used by permissions and the scheduler.
    fn kind(&self) -> ToolKind;
    /// Runs the tool with the model's arguments.
    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>>;
}

/// Receives output chunks of a running command as they arrive.
pub type OutputSink = Arc<dyn Fn(&str) + Send + Sync>;

/// Everything a tool run may use besides its arguments.
#[derive(Clone)]
pub struct ToolContext {
    /// Workspace root / session cwd; relative paths resolve against it.
    pub cwd: PathBuf,
    /// Cancelled when the user interrupts the turn.
    pub cancel: CancellationToken,
    /// Where `bash` streams output chunks as they arrive.
    pub output: Option<OutputSink>,
    /// Where full outputs too large for the model are written.
    pub spill_dir: PathBuf,
    /// Size limits of what goes back to the model.
    pub limits: OutputLimits,
    /// The OS sandbox `bash` runs commands under; `None` runs them directly.
    pub sandbox: Option<wright_sandbox::SandboxContext>,
}

impl ToolContext {
    /// A context with default limits, a fresh cancel token and no sink.
    pub fn new(cwd: impl Into<PathBuf>, spill_dir: impl Into<PathBuf>) -> Self {
        Self {
            cwd: cwd.into(),
            cancel: CancellationToken::new(),
            output: None,
            spill_dir: spill_dir.into(),
            limits: OutputLimits::default(),
            sandbox: None,
        }
    }
}

impl std::fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolContext")
            .field("cwd", &self.cwd)
            .field("cancelled", &self.cancel.is_cancelled())
            .field("output", &self.output.is_some())
            .field("spill_dir", &self.spill_dir)
            .field("limits", &self.limits)
            .field("sandbox", &self.sandbox)
            .finish()
    }
}

/// Size limits of tool output sent to the model, and command timeouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputLimits {
    /// Most lines of one result.
    pub max_lines: usize,
    /// Most bytes of one result (a truncation note may add a few more).
    pub max_bytes: usize,
    /// `bash` timeout when the model gives none.
    pub bash_default_timeout: Duration,
    /// Largest `bash` timeout the model may ask for; larger requests are clamped.
    pub bash_max_timeout: Duration,
}

impl Default for OutputLimits {
    fn default() -> Self {
        Self {
            max_lines: 2000,
            max_bytes: 50_000,
            bash_default_timeout: Duration::from_secs(120),
            bash_max_timeout: Duration::from_secs(600),
        }
    }
}

/// The result of a successful run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolOutput {
    /// What goes back to the model.
    pub content: String,
    /// What a front end shows.
    pub display: ToolDisplay,
}

/// Why a run produced no normal result. The message goes back to the model,
/// worded so it can tell a refusal from a failure.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The arguments did not parse or make no sense.
    #[error("Invalid arguments: {0}")]
    InvalidArgs(String),
    /// The destructive-command guard refused.
    #[error("Blocked by guard: {0}")]
    Blocked(String),
    /// A permission rule or the user refused.
    #[error("Permission denied: {0}")]
    Denied(String),
    /// The tool ran and failed.
    #[error("{0}")]
    Failed(String),
    /// The user interrupted the run.
    #[error("Cancelled by user")]
    Cancelled,
}
