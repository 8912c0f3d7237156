//! wright's layered configuration.
//!
//! Layers, lowest first; a higher layer overrides a lower one key by key
//! (except the lists and model tables described below):
//!
//! 1. built-in defaults ([`Settings::default`]);
//! 2. the user file, `$XDG_CONFIG_HOME/wright/config.toml` (else the
//!    platform config dir, see [`default_user_config_dir`]);
//! 3. `<project>/.wright/config.toml` (committed);
//! 4. `<project>/.wright/config.local.toml` (not committed);
//! 5. the environment: `WRIGHT_PROVIDER`, `WRIGHT_MODEL`, `WRIGHT_MAX_TURNS`,
//!    `WRIGHT_MAX_TOKENS`, `WRIGHT_PERMISSION_MODE`, `WRIGHT_SYSTEM_PROMPT`,
//!    `WRIGHT_SYSTEM_PROMPT_FILE`, `WRIGHT_REASONING_EFFORT`,
//!    `WRIGHT_FALLBACK_MODEL`, `WRIGHT_SANDBOX`, Claude Code's `MCP_TIMEOUT`
//!    and `MCP_TOOL_TIMEOUT` (milliseconds), and the base URL: `ANTHROPIC_BASE_URL`
//!    only when the provider (after flags) is `anthropic`, `OPENAI_BASE_URL`
//!    only when it is `openai-chat` or `openai-responses`. With no
//!    provider named anywhere, a set base URL variable (or the shape of
//!    the `base_url` in force) names it: see [`Inference`] and `infer.rs`
//!    for the rules. Empty values count as unset;
//! 6. command-line flags ([`Overrides`]; `--no-verify` sets
//!    `verify.enabled = false`).
//!
//! The project root is the nearest ancestor of the working directory that
//! holds `.wright/` or `.git` ([`find_project_root`]). A project's `.env` is
//! never read, and credentials (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`) are
//! not config: this crate never reads them.
//!
//! A project's own two files cannot loosen safety until the user trusts
//! the project (`[projects."/abs/root"] trusted = true` in the user file,
//! or [`Overrides::trust_project`]): their loosening values are left out
//! and listed in [`Resolved::ignored`]; see [`Trust`] for the rules and
//! [`Settings::project_trusted`] for the question later features ask.
//! Files are read only when they are regular files of at most
//! [`MAX_CONFIG_BYTES`].
//!
//! Every resolved value remembers its [`Source`]; [`Resolved::render`] and
//! [`Resolved::entries`] back `wright config show`.
//!
//! Every key is one row of the key table (`keys.rs`): its dotted name,
//! what it holds (type, range or words), what it does, and how its value
//! is read. [`KEYS`], the keys each plain table allows, the messages for a
//! value of the wrong type, the ranges numbers are checked against,
//! [`Settings::get`] and `docs/config-keys.md` ([`key_reference`]) all
//! come from it.
//!
//! # File format
//!
//! Every key is optional, except that a hook group needs `hooks`, a hook
//! `type` and `command`, and a check `glob` and `command`:
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
//! reasoning_effort = "medium"       # low | medium | high
//! thinking_budget = 8000            # tokens, >= 1024
//! fallback_model = "claude-haiku-4-5"
//!
//! [tools]
//! bash_timeout_secs = 120           # 1..=600
//!
//! [stream]                          # env WRIGHT_STREAM_*_TIMEOUT_MS, in milliseconds
//! idle_timeout_secs = 60            # 1..=3600: silence mid-response that counts as a drop
//! first_byte_timeout_secs = 60      # 1..=3600: wait for a response to begin
//!
//! [permissions]                     # every list is appended across layers
//! allow = ["Bash(npm run test:*)"]
//! ask = []
//! deny = ["Read(.env*)"]
//! additional_roots = ["../shared"]  # extra workspace roots
//!
//! [sandbox]
//! mode = "workspace-write"          # read-only | workspace-write | full
//! network = false
//! writable_roots = []               # appended across layers
//! allow_sockets = []                # host sockets reachable with the network off
//!
//! [context]
//! instruction_files = ["AGENTS.md", "CLAUDE.md"]
//! instruction_budget = 40000        # characters, >= 1000
//! user_instruction_files = ["~/.config/wright/AGENTS.md"]
//! skill_dirs = ["~/.config/wright/skills"]
//! user_memory = false
//! auto_compact = true
//! keep_recent_tokens = 20000        # >= 1000; unset = derived from the window
//! compact_margin_percent = 10       # 0..=50
//!
//! [hooks]                           # Claude Code's hook layout
//! import_claude_settings = false    # the caller also reads <project>/.claude/settings.json
//!
//! [[hooks.PreToolUse]]              # any event: PreToolUse, PostToolUse, PostToolUseFailure,
//!                                   # PermissionRequest, UserPromptSubmit, Stop, SubagentStop,
//!                                   # SessionStart, SessionEnd, PreCompact, Notification
//! matcher = "Edit|Write"            # optional; Claude Code's regex, passed on uncompiled
//! hooks = [{ type = "command", command = "./scripts/check.sh", timeout = 60 }]
//!                                   # type must be "command"; timeout: seconds, >= 1, optional
//!
//! [verify]                          # the same-turn verifier
//! enabled = true
//! timeout_secs = 120                # per check without its own, 1..=1800
//!
//! [[verify.checks]]
//! glob = "*.ts"                     # passed on uncompiled
//! command = "npx tsc --noEmit --pretty false"
//! format = "tsc"                    # cargo-json | gcc | tsc | lines (the default)
//! timeout_secs = 300                # optional, 1..=1800
//!
//! [mcp]                             # MCP servers
//! trust_project_servers = false     # a trusted project's own servers start without asking
//! tool_search = "auto"              # auto | on | off: defer tool schemas behind a search tool
//! startup_timeout_secs = 30         # 1..=3600 (env MCP_TIMEOUT, in milliseconds)
//! tool_timeout_secs = 600           # 1..=86400 (env MCP_TOOL_TIMEOUT, in milliseconds)
//! trust_read_only_hints = false     # a tool's readOnlyHint lets it run where reads do
//!
//! [mcp_servers.github]              # a `.mcp.json` entry in TOML; the name is [A-Za-z0-9_-]+
//! command = "npx"                   # stdio (the default type): command, args, env
//! args = ["-y", "@modelcontextprotocol/server-github"]
//! env = { GITHUB_TOKEN = "${GITHUB_TOKEN}" }   # ${VAR} and ${VAR:-default} expanded at start
//!
//! [mcp_servers.docs]
//! type = "http"                     # http | sse: url, headers
//! url = "https://example.com/mcp"
//! headers = { Authorization = "Bearer ${DOCS_TOKEN}" }
//!
//! [agents]                          # `Task` subagents
//! max_turns = 30                    # a child's turn limit when its definition sets none, >= 1
//! max_concurrent = 4                # children of one response running at once, 1..=16
//! isolation = "none"                # none | worktree: a child's own git worktree
//! import_claude_agents = false      # also read <project>/.claude/agents/
//! user_agents = false               # also read <user config dir>/agents/
//!
//! [projects."/home/me/src/app"]     # user file only; keyed by the real path
//! trusted = true
//! approved_mcp_servers = { github = "sha256:…" }   # written by wright when you approve one
//!
//! [shell_environment]               # user file only; what commands, hooks and servers inherit
//! include = ["NPM_TOKEN"]           # names or globs let through (default: none of *KEY*,
//!                                   # *SECRET*, *TOKEN*, *PASSWORD*, *PASSWD*, *CREDENTIAL*)
//! exclude = ["CORP_*"]              # names or globs also withheld; wins over include
//!
//! [models."my-local-model"]         # overrides or adds a catalog entry
//! context_window = 32768            # >= 1024
//! max_output = 4096                 # >= 1
//! input_price = 0.0                 # USD per million tokens, >= 0
//! output_price = 0.0
//! cache_read_price = 0.0
//! cache_write_price = 0.0
//! ```
//!
//! - `permissions.allow`, `.ask`, `.deny`, `.additional_roots`,
//!   `sandbox.writable_roots` and `.allow_sockets` are appended layer after layer (user,
//!   project, local, then `--allow` / `--deny`), duplicates dropped keeping
//!   the first. Their [`Source`] is the highest layer that added an item.
//! - `[[hooks.<Event>]]` groups and `[[verify.checks]]` are appended the
//!   same way (user, project, local; identical ones kept once), and each
//!   remembers the file it came from ([`HookGroupSetting::source`],
//!   named by [`Resolved::describe_source`]). `hooks.import_claude_settings`,
//!   `verify.enabled` and `verify.timeout_secs` are replaced like any
//!   scalar. Commands are kept as written; regex matchers and globs are
//!   not compiled here, so their consumers must report bad ones.
//! - From a project that is not trusted, every hook group and verify check
//!   is left out, as are `import_claude_settings = true` and
//!   `verify.enabled = true` when they would turn something on.
//!   `import_claude_settings` only says the user wants the project's
//!   `.claude/settings.json` read; that file is the project's, so its
//!   hooks need [`Settings::project_trusted`] too.
//! - A `[mcp_servers.NAME]` in a higher layer replaces a lower layer's
//!   server of that name; [`Settings::mcp_servers`] is ordered by name and
//!   each server remembers its file. From an untrusted project, servers,
//!   `mcp.trust_project_servers = true` and `mcp.trust_read_only_hints =
//!   true` are held back ([`Resolved::held_mcp_servers`]). `config show`
//!   hides env and header values. Whether a project's server may start
//!   (approval) is the caller's decision, helped by
//!   [`Resolved::mcp_approvals`] and [`record_mcp_approval`].
//! - A server table pasted from Codex's `config.toml` loads: a `url`
//!   without `type` is streamable HTTP, `http_headers` is `headers`,
//!   `bearer_token_env_var = "V"` adds `Authorization = "Bearer ${V}"`,
//!   `env_vars = ["A"]` adds `A = "${A}"` to `env`, and `enabled = false`
//!   leaves the server out. Codex's per-server `startup_timeout_sec`,
//!   `startup_timeout_ms`, `tool_timeout_sec`, `cwd`, `enabled_tools` and
//!   `disabled_tools` are accepted but not applied: each is listed in
//!   [`Resolved::ignored`] ([`IgnoreReason::CodexSetting`]) and warned
//!   about by [`Resolved::warnings`].
//! - The `[agents]` keys are scalars replaced like any other, and none
//!   needs trust: an agent definition runs with the parent's permissions,
//!   never looser, so reading more definitions loosens nothing.
//!   [`agent_dirs`] lists where definitions are read from.
//! - A `[models."name"]` table in a higher layer overrides only the fields
//!   it sets; [`Settings::models`] is ordered by name, and the source of
//!   `models` is the highest layer that wrote any model table.
//! - Paths in `additional_roots`, `writable_roots`, `user_instruction_files`
//!   and `skill_dirs`: `~` and `~/…` are under the home directory; other
//!   relative paths resolve like `system_prompt_file` below.
//! - A relative `system_prompt_file` in a project file resolves against
//!   the project root (not `.wright/`), so it names the same file as it
//!   would from a shell at the root; in the user file it resolves against
//!   the user config dir. From the environment or a flag it is kept as
//!   given, i.e. relative to the working directory.
//! - `system_prompt` and `system_prompt_file` exclude each other: both in
//!   one layer is an error, and a layer setting one clears the other from
//!   the layers below.
//! - Unknown keys, wrong types, out-of-range values and missing required
//!   keys are errors ([`ConfigError`]) naming the file, line, column and
//!   key; a bad enum word (or event name) lists the valid ones. Keys inside
//!   arrays of tables carry a 0-based index: `hooks.Stop[1].hooks[0].command`.

mod agent_dirs;
mod agent_settings;
mod assign;
mod builder;
mod check;
mod doc;
mod doc_hooks;
mod doc_mcp;
mod env;
mod error;
mod file;
mod flag_settings;
mod hook_settings;
mod infer;
mod keys;
mod kinds;
mod loader;
mod mcp_edit;
mod mcp_settings;
mod overrides;
mod parsed;
mod projects;
mod read;
mod resolved;
mod rows;
mod settings;
mod shell_env;
mod source;
mod suggest;
mod toml_text;
mod trust;
mod trust_store;
mod write;

pub use agent_dirs::agent_dirs;
pub use agent_settings::{
    AGENTS_DIR, AgentSettings, DEFAULT_AGENT_MAX_CONCURRENT, DEFAULT_AGENT_MAX_TURNS,
    MAX_AGENT_CONCURRENT,
};
pub use env::ENV_VARS;
pub use error::{ConfigError, Origin};
pub use flag_settings::{FlagSettings, SettingSources};
pub use hook_settings::{
    DEFAULT_VERIFY_TIMEOUT_SECS, HookCommandSetting, HookGroupSetting, HookSettings,
    MAX_VERIFY_TIMEOUT_SECS, VerifyCheckSetting, VerifySettings,
};
pub use infer::{Inference, LOCAL_SERVER_PORTS, provider_for_url};
pub use keys::{KEYS, reference as key_reference};
pub use kinds::{
    AgentIsolation, CheckFormat, HookEvent, McpToolSearch, PermissionMode, Provider,
    ReasoningEffort, SandboxMode, TuiNotify,
};
pub use loader::{
    CONFIG_FILE, ConfigLoader, LOCAL_CONFIG_FILE, LayerCheck, PROJECT_DIR, default_user_config_dir,
    find_project_root,
};
pub use mcp_edit::{McpEditError, remove_mcp_server, set_mcp_server};
pub use mcp_settings::{
    DEFAULT_MCP_STARTUP_TIMEOUT_MS, DEFAULT_MCP_TOOL_TIMEOUT_MS, McpServerSetting, McpSettings,
    McpTransport,
};
pub use overrides::Overrides;
pub use projects::{Trust, TrustSource, canonical_root};
pub use read::{MAX_CONFIG_BYTES, read_text_file};
pub use resolved::{Entry, Resolved};
pub use settings::{
    ContextSettings, DEFAULT_BASH_TIMEOUT_SECS, DEFAULT_COMPACT_MARGIN_PERCENT,
    DEFAULT_INSTRUCTION_BUDGET, DEFAULT_INSTRUCTION_FILE, DEFAULT_MAX_TURNS, MAX_BASH_TIMEOUT_SECS,
    ModelOverride, PermissionSettings, SandboxSettings, Settings,
};
pub use shell_env::ShellEnvironment;
pub use source::Source;
pub use suggest::closest;
pub use trust::{IgnoreReason, Ignored, describe_ignored};
pub use trust_store::{TrustChange, record_mcp_approval, record_trust};
pub use write::{NEW_FILE_MODE, replace_file};
