//! The tools the model calls (`Read`, `Write`, `Edit`, `Bash`, `Glob`,
//! `Grep`, `LS`, `BashOutput`/`KillShell` over `Bash`'s background
//! [`jobs`], and the stateless `TodoWrite` task list): the [`Tool`] trait,
//! the context a run gets, the error kinds the model is told about, and the
//! [`ToolRegistry`] of built-ins.
//!
//! Safety is not decided here: `wright-shell` describes commands (and holds
//! the destructive-command guard `Bash` runs first), `wright-permissions`
//! decides on what a call touches, and `wright-sandbox` enforces (the OS
//! sandbox of commands, the path resolver and the beneath-opens [`paths`]
//! uses, so the edit tools write nowhere the check did not see).
//!
//! # Adding a built-in tool
//! 1. One file, `src/<name>.rs`: the argument struct (`Deserialize` +
//!    `JsonSchema`, Claude Code's argument names) and `impl Tool`: `name`,
//!    `spec` ([`args`]' `spec::<Args>`), `kind`, `touches` and `run`.
//!    `touches` is the safety contract: every path the call reads or writes,
//!    its command or its URL. A path named there gets the path rules
//!    (`Read(…)`/`Edit(…)`), the secret-file check and the workspace check,
//!    checkpoints and file locks, with no line anywhere else; a path it
//!    leaves out gets none of them.
//! 2. One line: `mod <name>;` and its `pub use` here, and its entry in
//!    [`ToolRegistry::builtin`].
//! 3. Its schema in `schemas.json` (`WRIGHT_BLESS=1 cargo test -p
//!    wright-tools` writes it).
//! 4. Tests beside it: valid input, missing or invalid arguments, each
//!    error. `crates/core/src/recipe_tests.rs` shows a tool that gets every
//!    path check from its `touches` alone.

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
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};

pub use args::{claude_names, parse as parse_args};
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
    /// The effect class, used by the scheduler (read-only calls of one
    /// response run side by side).
    fn kind(&self) -> ToolKind;
    /// What one call with these arguments reads, writes, runs and fetches.
    /// Dispatch asks once per call and hands the answer to the permission
    /// gate, checkpoints, file locks, hooks, the verifier and the front
    /// ends: a path named here gets the path rules, the secret-file check
    /// and the workspace check without a line elsewhere. Arguments that do
    /// not parse name what they can (the run refuses them anyway).
    fn touches(&self, args: &serde_json::Value) -> Touches;
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
