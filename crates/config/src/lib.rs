//! wright's layered configuration.
//!
//! Layers, lowest first; a higher layer overrides a lower one key by key:
//!
//! 1. built-in defaults ([`Settings::default`]);
//! 2. the user file, `$XDG_CONFIG_HOME/wright/config.toml` (else the
//!    platform config dir, see [`default_user_config_dir`]);
//! 3. `<project>/.wright/config.toml` (committed);
//! 4. `<project>/.wright/config.local.toml` (not committed);
//! 5. the environment: `WRIGHT_PROVIDER`, `WRIGHT_MODEL`, `WRIGHT_MAX_TURNS`,
//!    `WRIGHT_MAX_TOKENS`, `WRIGHT_PERMISSION_MODE`, `WRIGHT_SYSTEM_PROMPT`,
//!    `WRIGHT_SYSTEM_PROMPT_FILE`, and the base URL: `ANTHROPIC_BASE_URL`
//!    only when the provider (after flags) is `anthropic`, `OPENAI_BASE_URL`
//!    only when it is `openai-chat` or `openai-responses`. Empty values
//!    count as unset;
//! 6. command-line flags ([`Overrides`]).
//!
//! The project root is the nearest ancestor of the working directory that
//! holds `.wright/` or `.git` ([`find_project_root`]). A project's `.env` is
//! never read, and credentials (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`) are
//! not config: this crate never reads them.
//!
//! Every resolved value remembers its [`Source`]; [`Resolved::render`] and
//! [`Resolved::entries`] back `wright config show`.
//!
//! # File format
//!
//! Every key is optional:
//!
//! ```toml
//! provider = "anthropic"            # anthropic | openai-chat | openai-responses
//! model = "claude-sonnet-4-5"
//! base_url = "http://localhost:11434/v1"
//! max_tokens = 8192                 # >= 1
//! max_turns = 50                    # >= 1
//! permission_mode = "default"       # default | accept-edits | plan | auto | bypass
//! system_prompt_file = "prompts/system.md"
//! append_system_prompt = "Answer briefly."
//!
//! [tools]
//! bash_timeout_secs = 120           # 1..=600
//!
//! [context]
//! instruction_files = ["AGENTS.md", "CLAUDE.md"]
//! ```
//!
//! - A relative `system_prompt_file` in a project file resolves against
//!   the project root (not `.wright/`), so it names the same file as it
//!   would from a shell at the root; in the user file it resolves against
//!   the user config dir. From the environment or a flag it is kept as
//!   given, i.e. relative to the working directory.
//! - `system_prompt` and `system_prompt_file` exclude each other: both in
//!   one layer is an error, and a layer setting one clears the other from
//!   the layers below.
//! - Unknown keys, wrong types and out-of-range values are errors
//!   ([`ConfigError`]) naming the file, line, column and key; a bad enum
//!   word lists the valid ones.

mod env;
mod error;
mod file;
mod kinds;
mod loader;
mod overrides;
mod resolved;
mod settings;
mod source;

pub use env::ENV_VARS;
pub use error::{ConfigError, Origin};
pub use kinds::{PermissionMode, Provider};
pub use loader::{
    CONFIG_FILE, ConfigLoader, LOCAL_CONFIG_FILE, LayerCheck, PROJECT_DIR, default_user_config_dir,
    find_project_root,
};
pub use overrides::Overrides;
pub use resolved::{Entry, Resolved};
pub use settings::{
    DEFAULT_BASH_TIMEOUT_SECS, DEFAULT_INSTRUCTION_FILE, DEFAULT_MAX_TURNS, KEYS,
    MAX_BASH_TIMEOUT_SECS, Settings,
};
pub use source::Source;
