//! The subcommands (`config`, `mcp`, `sessions`, `skills`, …) and their
//! own arguments.

use clap::{Subcommand, ValueEnum};

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show or check the configuration.
    Config {
        /// What to do.
        #[command(subcommand)]
        action: ConfigAction,
    },
    /// Print everything the model sees, part by part, with sources and sizes.
    Context {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// What a subagent of this type would be given instead (its system
        /// prompt and tools).
        #[arg(long, value_name = "NAME")]
        agent: Option<String>,
    },
    /// Summarize the older turns of a session now (the latest of this directory by default).
    Compact {
        /// Session id or prefix.
        id: Option<String>,
        /// What the summary should keep in particular.
        #[arg(long)]
        focus: Option<String>,
    },
    /// List known models with context window, output limit and prices.
    Models {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Skills found in .wright/skills and configured directories.
    Skills {
        /// What to do.
        #[command(subcommand)]
        action: SkillsAction,
    },
    /// Hooks a session here would run, from wright's config and Claude Code settings.
    Hooks {
        /// What to do.
        #[command(subcommand)]
        action: HooksAction,
    },
    /// Agent types a Task call can start: built in and from .wright/agents.
    Agents {
        /// What to do.
        #[command(subcommand)]
        action: AgentsAction,
    },
    /// Notes the model can read: list, show, add, remove.
    Memory {
        /// What to do.
        #[command(subcommand)]
        action: MemoryAction,
    },
    /// List, show, search, export or remove recorded sessions.
    Sessions {
        /// What to do.
        #[command(subcommand)]
        action: SessionsAction,
    },
    /// Go back to before an earlier turn: restore edited files and the conversation.
    Rewind {
        /// Session id or prefix (default: the latest of this directory).
        id: Option<String>,
        /// The user turn to return to (before it); without it, list the turns.
        #[arg(long, value_name = "N")]
        to: Option<usize>,
        /// Restore files only; the conversation goes on where it is.
        #[arg(long, conflicts_with = "conversation_only")]
        files_only: bool,
        /// Rewind the conversation only; files stay as they are.
        #[arg(long)]
        conversation_only: bool,
        /// Do not ask before overwriting or deleting files.
        #[arg(long, short = 'y')]
        yes: bool,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Write a starter .wright/config.toml and AGENTS.md (existing files are kept).
    Init,
    /// Check the installation: config, provider, key, sandbox, tools.
    Doctor {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// MCP servers: list, show, add, remove, log in and out.
    Mcp {
        /// What to do.
        #[command(subcommand)]
        action: McpAction,
    },
    /// Trust this project: let its .wright/ config loosen safety (bypass
    /// mode, allow rules, extra roots, sandbox, hooks, checks, its MCP
    /// servers and [mcp] trust settings), and run your own MCP servers in
    /// it. Remembered in your user config.
    Trust {
        /// Stop trusting it.
        #[arg(long)]
        revoke: bool,
    },
    /// Serve the Agent Client Protocol on stdio, for editors (Zed,
    /// JetBrains, Neovim, Emacs): configure the editor to run `wright acp`.
    Acp,
}

impl Command {
    /// Whether the command only prints a report: it ends quietly when the
    /// reader of its output goes away (`wright sessions list | head`)
    /// instead of failing on a closed pipe.
    pub fn is_report(&self) -> bool {
        matches!(
            self,
            Self::Sessions { .. }
                | Self::Doctor { .. }
                | Self::Agents { .. }
                | Self::Config { .. }
                | Self::Context { .. }
                | Self::Models { .. }
                | Self::Skills { .. }
                | Self::Memory { .. }
                | Self::Hooks { .. }
        )
    }
}

/// `wright config …`
#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Print the merged configuration with the source of each value.
    Show {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Print the configuration files wright reads, in order.
    Path {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Open the project's config file (or the user's, with --user) in $VISUAL/$EDITOR.
    Edit {
        /// The user config instead of the project's.
        #[arg(long)]
        user: bool,
    },
    /// Check every configuration file and report problems.
    Validate {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
}

/// `wright mcp …`
#[derive(Debug, Subcommand)]
pub enum McpAction {
    /// Every configured server: source, transport, target, status and tools
    /// (each approved server is started to find out, with the start-up timeout).
    List {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// One server in detail, with its tools' names and descriptions.
    Get {
        /// Server name.
        name: String,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Add a server: `wright mcp add NAME -- CMD ARGS…`,
    /// `wright mcp add NAME --url URL` or
    /// `wright mcp add --transport http NAME URL`.
    Add {
        /// Server name (letters, digits, `_` and `-`).
        name: String,
        /// The command and its arguments (stdio), or the URL (http, sse).
        #[arg(required_unless_present = "url", num_args = 1.., trailing_var_arg = true, allow_hyphen_values = true, value_name = "COMMAND_OR_URL")]
        target: Vec<String>,
        /// The server's URL: a streamable HTTP server unless
        /// `--transport sse`.
        #[arg(long, value_name = "URL")]
        url: Option<String>,
        /// Where to write it: local (.wright/config.local.toml), project
        /// (.mcp.json) or user (your user config).
        #[arg(short, long, value_enum, default_value = "local")]
        scope: McpScopeArg,
        /// How to reach the server (default: http with `--url` or a lone
        /// http(s) URL, stdio otherwise).
        #[arg(short, long, value_enum)]
        transport: Option<McpTransportArg>,
        /// An environment variable for a stdio server (repeatable).
        #[arg(short, long = "env", value_name = "KEY=VALUE")]
        env: Vec<String>,
        /// A header for an http or sse server (repeatable).
        #[arg(short = 'H', long = "header", value_name = "'Key: Value'")]
        header: Vec<String>,
    },
    /// Log in to an HTTP server that asks for OAuth: opens the browser
    /// (and prints the URL), and keeps the tokens in your data directory.
    Login {
        /// Server name.
        name: String,
        /// The loopback port the browser is sent back to (0 picks a free
        /// one); fix it to forward it over ssh.
        #[arg(long, default_value_t = 0)]
        redirect_port: u16,
    },
    /// Forget the tokens `wright mcp login` stored for a server.
    Logout {
        /// Server name.
        name: String,
    },
    /// Remove a server from where it is defined.
    Remove {
        /// Server name.
        name: String,
        /// Which definition, when more than one scope has one.
        #[arg(short, long, value_enum)]
        scope: Option<McpScopeArg>,
    },
}

/// `wright mcp add|remove --scope` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum McpScopeArg {
    /// `.wright/config.local.toml` (yours, in this project).
    Local,
    /// The project's `.mcp.json` (shared with the repository).
    Project,
    /// Your user config (every project).
    User,
}

/// `wright mcp add --transport` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum McpTransportArg {
    /// A local program speaking MCP on stdin and stdout.
    Stdio,
    /// Streamable HTTP.
    Http,
    /// The legacy HTTP + SSE transport.
    Sse,
}

/// `wright skills …`
#[derive(Debug, Subcommand)]
pub enum SkillsAction {
    /// Name, description and path of each skill.
    List {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
}

/// `wright agents …`
#[derive(Debug, Subcommand)]
pub enum AgentsAction {
    /// Name, source, tools, model and description of each agent type.
    List {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
}

/// `wright hooks …`
#[derive(Debug, Subcommand)]
pub enum HooksAction {
    /// Every hook by event, with matcher, command, timeout and source.
    List {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
}

/// `wright memory …`
#[derive(Debug, Subcommand)]
pub enum MemoryAction {
    /// Every note with its type and description.
    List {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// One note in full.
    Show {
        /// Note name.
        name: String,
    },
    /// Write a new note (the body is read from --body or stdin).
    Add {
        /// Note name.
        name: String,
        /// One line saying when the note matters.
        #[arg(long)]
        description: String,
        /// user, feedback, project or reference.
        #[arg(long = "type", default_value = "project")]
        kind: String,
        /// The note's text.
        #[arg(long)]
        body: Option<String>,
        /// Store in the user's notes instead of the project's.
        #[arg(long)]
        user: bool,
    },
    /// Delete a note.
    Rm {
        /// Note name.
        name: String,
    },
}

/// `wright sessions …`
#[derive(Debug, Subcommand)]
pub enum SessionsAction {
    /// Sessions of this directory (or all), newest first.
    List {
        /// Every project's sessions.
        #[arg(long)]
        all: bool,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// A readable transcript of one session, then the tree of its subagents.
    Show {
        /// Session id or prefix.
        id: String,
        /// The transcript as JSON.
        #[arg(long)]
        json: bool,
        /// Show this subagent's transcript instead (`root/explore-1` or `explore-1`).
        #[arg(long, value_name = "PATH")]
        agent: Option<String>,
    },
    /// Find text in sessions.
    Search {
        /// Text to find (case-insensitive).
        text: String,
        /// Search every project's sessions.
        #[arg(long)]
        all: bool,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Write a transcript to stdout.
    Export {
        /// Session id or prefix.
        id: String,
        /// Transcript format.
        #[arg(long, value_enum, default_value = "markdown")]
        format: ExportFormatArg,
    },
    /// Delete a session and its blobs.
    Rm {
        /// Session id or prefix.
        id: String,
    },
}

/// `sessions export --format` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExportFormatArg {
    /// Readable transcript.
    Markdown,
    /// Entries as JSON.
    Json,
}
