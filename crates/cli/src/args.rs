//! Command-line arguments (the contract in CLI.md).

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use wright_config::{Overrides, PermissionMode, Provider};

/// wright: a coding agent for the terminal.
#[derive(Debug, Parser)]
#[command(name = "wright", version, about, long_about = None)]
pub struct Args {
    /// Run one task and exit. The prompt may also come from stdin; with both,
    /// stdin is appended to the prompt as context.
    #[arg(short = 'p', long = "print", value_name = "PROMPT", num_args = 0..=1, default_missing_value = "")]
    pub print: Option<String>,

    /// Wire protocol of the model server.
    #[arg(long, value_enum, global = true)]
    pub provider: Option<ProviderArg>,

    /// Server base URL (Anthropic: without /v1; OpenAI: including /v1).
    #[arg(long, value_name = "URL", global = true)]
    pub base_url: Option<String>,

    /// Model name.
    #[arg(long, global = true)]
    pub model: Option<String>,

    /// Output token cap per model request.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), global = true)]
    pub max_tokens: Option<u32>,

    /// Model requests allowed per task.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), global = true)]
    pub max_turns: Option<u32>,

    /// What may run without asking.
    #[arg(long, value_enum, value_name = "MODE", global = true)]
    pub permission_mode: Option<ModeArg>,

    /// Replace the built-in system prompt.
    #[arg(
        long,
        value_name = "TEXT",
        conflicts_with = "system_prompt_file",
        global = true
    )]
    pub system_prompt: Option<String>,

    /// Replace the built-in system prompt with a file's contents.
    #[arg(long, value_name = "PATH", global = true)]
    pub system_prompt_file: Option<PathBuf>,

    /// Text appended to the system prompt.
    #[arg(long, value_name = "TEXT", global = true)]
    pub append_system_prompt: Option<String>,

    /// Show more detail about tool calls on stderr.
    #[arg(long)]
    pub verbose: bool,

    /// Print-mode output: text, one JSON result, or NDJSON events.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text")]
    pub output_format: OutputFormat,

    /// Print-mode input: the prompt as text, or NDJSON user messages on stdin.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text")]
    pub input_format: InputFormat,

    /// With stream-json output, also emit streaming deltas.
    #[arg(long)]
    pub include_partial_messages: bool,

    /// Stop when the session's cost passes this many US dollars.
    #[arg(long, value_name = "USD")]
    pub max_budget_usd: Option<f64>,

    /// A subcommand instead of a task.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show or check the configuration.
    Config {
        /// What to do.
        #[command(subcommand)]
        action: ConfigAction,
    },
    /// Check the installation: config, provider, key, sandbox, tools.
    Doctor {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
}

/// `wright config …`
#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Print the merged configuration with the source of each value.
    Show,
    /// Print the configuration files wright reads, in order.
    Path,
    /// Check every configuration file and report problems.
    Validate {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
}

/// `--output-format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// The answer as text on stdout; activity on stderr.
    Text,
    /// One JSON result object.
    Json,
    /// NDJSON events, result last.
    StreamJson,
}

/// `--input-format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// A prompt.
    Text,
    /// NDJSON user messages.
    StreamJson,
}

/// `--provider` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ProviderArg {
    /// Anthropic Messages API.
    Anthropic,
    /// OpenAI Chat Completions (and compatible servers).
    OpenaiChat,
    /// OpenAI Responses API.
    OpenaiResponses,
}

/// `--permission-mode` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ModeArg {
    /// Reads run; edits and commands need approval.
    Default,
    /// Reads and edits run; commands need approval.
    AcceptEdits,
    /// Read-only.
    Plan,
    /// Everything runs except what is dangerous.
    Auto,
    /// Everything runs; guards still apply.
    Bypass,
}

impl Args {
    /// The flag layer of the configuration.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            provider: self.provider.map(|p| match p {
                ProviderArg::Anthropic => Provider::Anthropic,
                ProviderArg::OpenaiChat => Provider::OpenaiChat,
                ProviderArg::OpenaiResponses => Provider::OpenaiResponses,
            }),
            model: self.model.clone(),
            base_url: self.base_url.clone(),
            max_tokens: self.max_tokens,
            max_turns: self.max_turns,
            permission_mode: self.permission_mode.map(|m| match m {
                ModeArg::Default => PermissionMode::Default,
                ModeArg::AcceptEdits => PermissionMode::AcceptEdits,
                ModeArg::Plan => PermissionMode::Plan,
                ModeArg::Auto => PermissionMode::Auto,
                ModeArg::Bypass => PermissionMode::Bypass,
            }),
            system_prompt: self.system_prompt.clone(),
            system_prompt_file: self.system_prompt_file.clone(),
            append_system_prompt: self.append_system_prompt.clone(),
            ..Overrides::default()
        }
    }
}
