//! The tools the model calls (`read`, `write`, `edit`, `bash`, `glob`,
//! `grep`, `ls`, `BashOutput`/`KillShell` over `bash`'s background
//! [`jobs`], and the stateless `TodoWrite` task list): the [`Tool`] trait,
//! the context a run gets, the error kinds the model is told about, and the
//! [`ToolRegistry`] of built-ins.
//!
//! Safety policy (permissions, sandbox) lives in the core; the policy here
//! applies in every mode: the destructive-command [`guard`] of `bash`, and
//! in [`paths`] the protected files and workspace bounds of `write`/`edit`.

mod args;
mod bash;
mod bash_proc;
mod check;
mod diff;
mod edit;
mod edit_match;
pub mod editor;
mod glob;
mod grep;
pub mod guard;
mod guard_view;
mod job_tools;
pub mod jobs;
mod ls;
pub mod output;
pub mod paths;
mod read;
mod registry;
mod script;
mod todo;
pub mod truncate;
mod walk;
mod write;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec};

pub use args::parse as parse_args;
pub use bash::BashTool;
pub use check::{CHECKED_TOOLS, check_args};
pub use edit::EditTool;
pub use editor::EditorBuffers;
pub use glob::GlobTool;
pub use grep::GrepTool;
pub use job_tools::{BashOutputTool, KillShellTool};
pub use jobs::{BackgroundJobs, JobInfo, JobStatus};
pub use ls::LsTool;
pub use read::ReadTool;
pub use registry::ToolRegistry;
pub use script::{ScriptEnd, ScriptRun, run_script};
pub use todo::{
    MAX_TODO_CHARS, MAX_TODOS, TodoItem, TodoStatus, TodoWriteTool, parse_todos, summarize_todos,
};
pub use write::WriteTool;

/// A tool the model can call.
pub trait Tool: Send + Sync {
    /// The name the model calls it by.
    fn name(&self) -> &str;
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
    /// Workspace roots: files inside are opened beneath them, and the edit
    /// tools write nowhere else unless `outside_writes` allows it.
    pub roots: Vec<PathBuf>,
    /// The user's home, for `~/` in paths.
    pub home: Option<PathBuf>,
    /// Directories the edit tools never write into (the user's wright
    /// config directory), on top of the fixed protected names.
    pub protected_dirs: Vec<PathBuf>,
    /// Whether `write`/`edit` may write outside every root.
    pub outside_writes: OutsideWrites,
    /// The session's background jobs (`bash` with `run_in_background`,
    /// `BashOutput`, `KillShell`): one table per session, shared by every
    /// call's context; `ToolContext::new` makes a fresh one.
    pub jobs: Arc<BackgroundJobs>,
    /// The attached editor's unsaved buffers (ACP), seen by `read` and
    /// guarded against by `write`/`edit`; `None` outside an editor.
    pub editor: Option<Arc<dyn EditorBuffers>>,
}

/// Whether the edit tools may write outside every workspace root.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutsideWrites {
    /// Refused by the tool itself, whatever the permission check said (the
    /// check and the tool could otherwise see different files if a link is
    /// swapped in between).
    #[default]
    Refuse,
    /// Allowed (the caller approved this write); still opened with every
    /// symlink refused.
    Allow,
}

impl ToolContext {
    /// A context with default limits, a fresh cancel token and no sink;
    /// the cwd is the only root, and home and the user's config directory
    /// come from `$HOME` and `$XDG_CONFIG_HOME`.
    pub fn new(cwd: impl Into<PathBuf>, spill_dir: impl Into<PathBuf>) -> Self {
        let cwd = cwd.into();
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let xdg = std::env::var_os("XDG_CONFIG_HOME").map(PathBuf::from);
        Self {
            roots: vec![cwd.clone()],
            protected_dirs: wright_sandbox::user_config_dirs(xdg.as_deref(), home.as_deref()),
            home,
            outside_writes: OutsideWrites::Refuse,
            cwd,
            cancel: CancellationToken::new(),
            output: None,
            spill_dir: spill_dir.into(),
            limits: OutputLimits::default(),
            sandbox: None,
            jobs: Arc::new(BackgroundJobs::new()),
            editor: None,
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
            .field("roots", &self.roots)
            .field("home", &self.home)
            .field("protected_dirs", &self.protected_dirs)
            .field("outside_writes", &self.outside_writes)
            .field("jobs", &self.jobs)
            .field("editor", &self.editor)
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
    /// Images that go back to the model with `content` (an MCP tool's
    /// screenshot), as image blocks after the result.
    pub images: Vec<ToolImage>,
    /// What a front end shows.
    pub display: ToolDisplay,
}

/// An image of a tool's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolImage {
    /// MIME type such as `image/png`.
    pub media_type: String,
    /// The image bytes, base64.
    pub data: String,
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
