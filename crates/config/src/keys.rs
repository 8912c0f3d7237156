//! The one table of config keys ([`TABLE`]): each key's dotted name, what
//! it holds (type, range or allowed words), one line saying what it does,
//! its default, the assignment a file's value makes and how its value is
//! read from [`Settings`]. Everything that lists or
//! describes keys derives from it: [`KEYS`] (the order of `wright config
//! show` and `doctor`), the keys allowed in each plain table, the
//! "expected …" of a value of the wrong type, the range a number is
//! checked against, [`Settings::get`] and the reference table in
//! `docs/config-keys.md` ([`reference`]).
//!
//! Keys that stand for whole tables of tables (`hooks`, `verify.checks`,
//! `mcp_servers`, `models`) are rows too, so they are shown and listed;
//! what is inside them is checked by their own `doc_*.rs` module.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use toml::Value;

use crate::assign::{Assign, Range};
use crate::kinds::{AgentIsolation, McpToolSearch, PermissionMode, Provider, ReasoningEffort};
use crate::kinds::{SandboxMode, SharedWords as _, TuiNotify};
use crate::mcp_settings::{secs_value, servers_value};
use crate::parsed::Parsed;
use crate::settings::Settings;

/// What a key holds, and so what a file may write for it.
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    /// A non-empty string.
    Text,
    /// An `http://` or `https://` URL.
    Url,
    /// A file name, resolved against the file that names it.
    File,
    /// An integer in a range.
    Int(Range),
    /// `true` or `false`.
    Bool,
    /// One of a closed set of words; the function lists them.
    Word(fn() -> String),
    /// An array of strings.
    Strings,
    /// An array of file names, kept as written (they are looked for in
    /// every directory from the repository root down).
    FileNames,
    /// An array of paths (`~/` expanded, relative ones resolved).
    Paths,
    /// Tables of their own, checked by their module; the text is what a
    /// value of another type is told.
    Tables(&'static str),
}

impl Kind {
    /// "expected …" for a value of the wrong type.
    pub(crate) fn expected(self) -> String {
        match self {
            Kind::Text | Kind::Url | Kind::File => "expected a string".to_owned(),
            Kind::Int(range) => range.describe(),
            Kind::Bool => "expected true or false".to_owned(),
            Kind::Word(words) => words(),
            Kind::Strings | Kind::FileNames | Kind::Paths => {
                "expected an array of strings".to_owned()
            }
            Kind::Tables(expected) => expected.to_owned(),
        }
    }

    /// The type column of the reference table.
    fn describe(self) -> String {
        match self {
            Kind::Text => "string".to_owned(),
            Kind::Url => "URL".to_owned(),
            Kind::File => "file".to_owned(),
            Kind::Int(range) => {
                let expected = range.describe();
                expected
                    .strip_prefix("expected ")
                    .unwrap_or(&expected)
                    .to_owned()
            }
            Kind::Bool => "true or false".to_owned(),
            Kind::Word(words) => words().replace("expected ", ""),
            Kind::Strings => "array of strings".to_owned(),
            Kind::FileNames => "array of file names".to_owned(),
            Kind::Paths => "array of paths".to_owned(),
            Kind::Tables(_) => "tables".to_owned(),
        }
    }
}

/// One config key.
pub(crate) struct Key {
    /// As written in TOML, dotted for tables.
    pub(crate) name: &'static str,
    /// What it holds.
    pub(crate) kind: Kind,
    /// What it does, in one line.
    pub(crate) doc: &'static str,
    /// The value it has when nothing sets it, as TOML text; `None` for a
    /// key that stays unset. `Settings::default()` writes the same values
    /// in Rust, and a test keeps the two equal.
    pub(crate) default: Option<&'static str>,
    /// The assignment a file's value makes, once checked against `kind`;
    /// `None` for a word no choice spells, and for the tables of tables,
    /// which their own modules read.
    pub(crate) set: fn(Parsed) -> Option<Assign>,
    /// Its value in `settings`, as TOML; `None` when unset.
    pub(crate) get: fn(&Settings) -> Option<Value>,
}

impl Key {
    /// [`Key::default`] as a TOML value; `None` for a key that stays unset
    /// (the texts are constants, which a test parses).
    pub(crate) fn default_value(&self) -> Option<Value> {
        let text = self.default?;
        let mut doc: toml::Table = toml::from_str(&format!("v = {text}")).ok()?;
        doc.remove("v")
    }
}

/// Every key, in display order.
pub(crate) const TABLE: [Key; 49] = [
    Key {
        name: "provider",
        kind: Kind::Word(Provider::expected),
        doc: "the wire protocol; unset lets wright infer it",
        default: None,
        set: |v| v.word(Provider::parse).map(Assign::Provider),
        get: |s| s.provider.map(|p| word(p.as_str())),
    },
    Key {
        name: "model",
        kind: Kind::Text,
        doc: "the model name",
        default: None,
        set: |v| v.text().map(Assign::Model),
        get: |s| text(s.model.as_ref()),
    },
    Key {
        name: "base_url",
        kind: Kind::Url,
        doc: "the server's base URL",
        default: None,
        set: |v| v.text().map(Assign::BaseUrl),
        get: |s| text(s.base_url.as_ref()),
    },
    Key {
        name: "max_tokens",
        kind: Kind::Int(Range::POSITIVE_U32),
        doc: "output token limit per request",
        default: None,
        set: |v| v.int().map(Assign::MaxTokens),
        get: |s| s.max_tokens.map(int),
    },
    Key {
        name: "max_turns",
        kind: Kind::Int(Range::POSITIVE_U32),
        doc: "model requests per task before stopping",
        default: Some("50"),
        set: |v| v.int().map(Assign::MaxTurns),
        get: |s| Some(int(s.max_turns)),
    },
    Key {
        name: "permission_mode",
        kind: Kind::Word(PermissionMode::expected),
        doc: "how tool calls are approved",
        default: Some(r#""default""#),
        set: |v| v.word(PermissionMode::parse).map(Assign::PermissionMode),
        get: |s| Some(word(s.permission_mode.as_str())),
    },
    Key {
        name: "system_prompt",
        kind: Kind::Text,
        doc: "replaces the base system prompt",
        default: None,
        set: |v| v.text().map(Assign::SystemPrompt),
        get: |s| text(s.system_prompt.as_ref()),
    },
    Key {
        name: "system_prompt_file",
        kind: Kind::File,
        doc: "a file whose text replaces the base system prompt",
        default: None,
        set: |v| v.path().map(Assign::SystemPromptFile),
        get: |s| s.system_prompt_file.as_deref().map(path),
    },
    Key {
        name: "append_system_prompt",
        kind: Kind::Text,
        doc: "text appended to the system prompt",
        default: None,
        set: |v| v.text().map(Assign::AppendSystemPrompt),
        get: |s| text(s.append_system_prompt.as_ref()),
    },
    Key {
        name: "reasoning_effort",
        kind: Kind::Word(ReasoningEffort::expected),
        doc: "how hard models that take one reason",
        default: None,
        set: |v| v.word(ReasoningEffort::parse).map(Assign::ReasoningEffort),
        get: |s| s.reasoning_effort.map(|e| word(e.as_str())),
    },
    Key {
        name: "thinking_budget",
        kind: Kind::Int(Range::THINKING_BUDGET),
        doc: "extended-thinking budget in tokens",
        default: None,
        set: |v| v.int().map(Assign::ThinkingBudget),
        get: |s| s.thinking_budget.map(int),
    },
    Key {
        name: "fallback_model",
        kind: Kind::Text,
        doc: "the model used after repeated overload errors",
        default: None,
        set: |v| v.text().map(Assign::FallbackModel),
        get: |s| text(s.fallback_model.as_ref()),
    },
    Key {
        name: "tools.bash_timeout_secs",
        kind: Kind::Int(Range::BASH_TIMEOUT),
        doc: "default timeout of the Bash tool, in seconds",
        default: Some("120"),
        set: |v| v.int().map(Assign::BashTimeoutSecs),
        get: |s| Some(int(s.bash_timeout_secs)),
    },
    Key {
        name: "stream.idle_timeout_secs",
        kind: Kind::Int(Range::STREAM_TIMEOUT),
        doc: "how long a model stream may send nothing before it counts as dropped (retried once), in seconds",
        default: Some("60"),
        set: |v| {
            v.int()
                .map(|secs: u64| Assign::StreamIdleTimeoutMs(secs * 1000))
        },
        get: |s| Some(secs_value(s.stream_idle_timeout_ms)),
    },
    Key {
        name: "stream.first_byte_timeout_secs",
        kind: Kind::Int(Range::STREAM_TIMEOUT),
        doc: "how long a model request may wait for its response to begin, in seconds",
        default: Some("60"),
        set: |v| {
            v.int()
                .map(|secs: u64| Assign::StreamFirstByteTimeoutMs(secs * 1000))
        },
        get: |s| Some(secs_value(s.stream_first_byte_timeout_ms)),
    },
    Key {
        name: "tui.notify",
        kind: Kind::Word(TuiNotify::expected),
        doc: "how the terminal UI rings when it waits for you (an approval, a question, a plan, the end of a long turn): bell, osc9 or off",
        default: Some(r#""bell""#),
        set: |v| v.word(TuiNotify::parse).map(Assign::TuiNotify),
        get: |s| Some(word(s.tui_notify.as_str())),
    },
    Key {
        name: "context.instruction_files",
        kind: Kind::FileNames,
        doc: "instruction files gathered from the repository root down to the working directory",
        default: Some(r#"["AGENTS.md"]"#),
        set: |v| v.strings().map(Assign::InstructionFiles),
        get: |s| Some(strings(&s.instruction_files)),
    },
    Key {
        name: "context.instruction_budget",
        kind: Kind::Int(Range::INSTRUCTION_BUDGET),
        doc: "characters of project instructions before truncation",
        default: Some("40000"),
        set: |v| v.int().map(Assign::InstructionBudget),
        get: |s| Some(int(s.context.instruction_budget)),
    },
    Key {
        name: "context.user_instruction_files",
        kind: Kind::Paths,
        doc: "user-level instruction files (user config only)",
        default: Some("[]"),
        set: |v| v.paths().map(Assign::UserInstructionFiles),
        get: |s| Some(paths(&s.context.user_instruction_files)),
    },
    Key {
        name: "context.skill_dirs",
        kind: Kind::Paths,
        doc: "user skill directories besides `.wright/skills/` (user config only)",
        default: Some("[]"),
        set: |v| v.paths().map(Assign::SkillDirs),
        get: |s| Some(paths(&s.context.skill_dirs)),
    },
    Key {
        name: "context.user_memory",
        kind: Kind::Bool,
        doc: "whether the user-level memory is loaded",
        default: Some("false"),
        set: |v| v.bool().map(Assign::UserMemory),
        get: |s| Some(Value::Boolean(s.context.user_memory)),
    },
    Key {
        name: "context.auto_compact",
        kind: Kind::Bool,
        doc: "whether the conversation is compacted automatically near the window",
        default: Some("true"),
        set: |v| v.bool().map(Assign::AutoCompact),
        get: |s| Some(Value::Boolean(s.context.auto_compact)),
    },
    Key {
        name: "context.keep_recent_tokens",
        kind: Kind::Int(Range::KEEP_RECENT_TOKENS),
        doc: "tokens of recent turns compaction keeps verbatim; unset derives it from the window",
        default: None,
        set: |v| v.int().map(Assign::KeepRecentTokens),
        get: |s| s.context.keep_recent_tokens.map(int),
    },
    Key {
        name: "context.compact_margin_percent",
        kind: Kind::Int(Range::COMPACT_MARGIN),
        doc: "margin below the window, in percent, at which automatic compaction starts",
        default: Some("10"),
        set: |v| v.int().map(Assign::CompactMarginPercent),
        get: |s| Some(int(s.context.compact_margin_percent)),
    },
    Key {
        name: "permissions.allow",
        kind: Kind::Strings,
        doc: "rules that allow a tool call without asking; appended across layers",
        default: Some("[]"),
        set: |v| v.strings().map(Assign::Allow),
        get: |s| Some(strings(&s.permissions.allow)),
    },
    Key {
        name: "permissions.ask",
        kind: Kind::Strings,
        doc: "rules that always ask; appended across layers",
        default: Some("[]"),
        set: |v| v.strings().map(Assign::Ask),
        get: |s| Some(strings(&s.permissions.ask)),
    },
    Key {
        name: "permissions.deny",
        kind: Kind::Strings,
        doc: "rules that always deny; appended across layers",
        default: Some("[]"),
        set: |v| v.strings().map(Assign::Deny),
        get: |s| Some(strings(&s.permissions.deny)),
    },
    Key {
        name: "permissions.additional_roots",
        kind: Kind::Paths,
        doc: "workspace roots besides the project root; appended across layers",
        default: Some("[]"),
        set: |v| v.paths().map(Assign::AdditionalRoots),
        get: |s| Some(paths(&s.permissions.additional_roots)),
    },
    Key {
        name: "sandbox.mode",
        kind: Kind::Word(SandboxMode::expected),
        doc: "how the OS sandbox confines shell commands",
        default: Some(r#""workspace-write""#),
        set: |v| v.word(SandboxMode::parse).map(Assign::SandboxMode),
        get: |s| Some(word(s.sandbox.mode.as_str())),
    },
    Key {
        name: "sandbox.network",
        kind: Kind::Bool,
        doc: "whether sandboxed commands may use the network",
        default: Some("false"),
        set: |v| v.bool().map(Assign::SandboxNetwork),
        get: |s| Some(Value::Boolean(s.sandbox.network)),
    },
    Key {
        name: "sandbox.writable_roots",
        kind: Kind::Paths,
        doc: "extra directories commands may write; appended across layers",
        default: Some("[]"),
        set: |v| v.paths().map(Assign::WritableRoots),
        get: |s| Some(paths(&s.sandbox.writable_roots)),
    },
    Key {
        name: "sandbox.allow_sockets",
        kind: Kind::Paths,
        doc: "Unix sockets commands may still reach with the network off (a non-empty list also lets commands make Unix sockets where the kernel cannot confine connect, so sockets made later reach them too); appended across layers",
        default: Some("[]"),
        set: |v| v.paths().map(Assign::AllowSockets),
        get: |s| Some(paths(&s.sandbox.allow_sockets)),
    },
    Key {
        name: "hooks.import_claude_settings",
        kind: Kind::Bool,
        doc: "also run the hooks of the project's `.claude/settings.json`",
        default: Some("false"),
        set: |v| v.bool().map(Assign::ImportClaudeSettings),
        get: |s| Some(Value::Boolean(s.hooks.import_claude_settings)),
    },
    Key {
        name: "hooks",
        kind: Kind::Tables("expected a table"),
        doc: "`[[hooks.<Event>]]` groups, Claude Code's layout; appended across layers",
        default: Some("{}"),
        set: |_| None,
        get: |s| Some(s.hooks.to_value()),
    },
    Key {
        name: "verify.enabled",
        kind: Kind::Bool,
        doc: "whether the same-turn verifier runs",
        default: Some("true"),
        set: |v| v.bool().map(Assign::VerifyEnabled),
        get: |s| Some(Value::Boolean(s.verify.enabled)),
    },
    Key {
        name: "verify.timeout_secs",
        kind: Kind::Int(Range::VERIFY_TIMEOUT),
        doc: "timeout of a check without its own, in seconds",
        default: Some("120"),
        set: |v| v.int().map(Assign::VerifyTimeoutSecs),
        get: |s| Some(int(s.verify.timeout_secs)),
    },
    Key {
        name: "verify.checks",
        kind: Kind::Tables("expected an array of tables ([[verify.checks]])"),
        doc: "`[[verify.checks]]`: a glob, a command and its output format; appended across layers",
        default: Some("[]"),
        set: |_| None,
        get: |s| Some(s.verify.checks_value()),
    },
    Key {
        name: "mcp.trust_project_servers",
        kind: Kind::Bool,
        doc: "a trusted project's own MCP servers start without asking",
        default: Some("false"),
        set: |v| v.bool().map(Assign::McpTrustProjectServers),
        get: |s| Some(Value::Boolean(s.mcp.trust_project_servers)),
    },
    Key {
        name: "mcp.tool_search",
        kind: Kind::Word(McpToolSearch::expected),
        doc: "whether MCP tool schemas are deferred behind a search tool",
        default: Some(r#""auto""#),
        set: |v| v.word(McpToolSearch::parse).map(Assign::McpToolSearch),
        get: |s| Some(word(s.mcp.tool_search.as_str())),
    },
    Key {
        name: "mcp.startup_timeout_secs",
        kind: Kind::Int(Range::MCP_STARTUP_TIMEOUT),
        doc: "how long MCP servers may take to start, in seconds",
        default: Some("30"),
        set: |v| {
            v.int()
                .map(|secs: u64| Assign::McpStartupTimeoutMs(secs * 1000))
        },
        get: |s| Some(secs_value(s.mcp.startup_timeout_ms)),
    },
    Key {
        name: "mcp.tool_timeout_secs",
        kind: Kind::Int(Range::MCP_TOOL_TIMEOUT),
        doc: "how long one MCP tool call may take, in seconds",
        default: Some("600"),
        set: |v| {
            v.int()
                .map(|secs: u64| Assign::McpToolTimeoutMs(secs * 1000))
        },
        get: |s| Some(secs_value(s.mcp.tool_timeout_ms)),
    },
    Key {
        name: "mcp.trust_read_only_hints",
        kind: Kind::Bool,
        doc: "an MCP tool's readOnlyHint lets it run where reads do",
        default: Some("false"),
        set: |v| v.bool().map(Assign::McpTrustReadOnlyHints),
        get: |s| Some(Value::Boolean(s.mcp.trust_read_only_hints)),
    },
    Key {
        name: "mcp_servers",
        kind: Kind::Tables("expected a table"),
        doc: "`[mcp_servers.NAME]` tables, `.mcp.json` entries in TOML",
        default: Some("{}"),
        set: |_| None,
        get: |s| Some(servers_value(&s.mcp_servers)),
    },
    Key {
        name: "agents.max_turns",
        kind: Kind::Int(Range::POSITIVE_U32),
        doc: "a subagent's turn limit when its definition sets none",
        default: Some("30"),
        set: |v| v.int().map(Assign::AgentMaxTurns),
        get: |s| Some(int(s.agents.max_turns)),
    },
    Key {
        name: "agents.max_concurrent",
        kind: Kind::Int(Range::AGENT_MAX_CONCURRENT),
        doc: "subagents of one response running at once",
        default: Some("4"),
        set: |v| v.int().map(Assign::AgentMaxConcurrent),
        get: |s| Some(int(s.agents.max_concurrent)),
    },
    Key {
        name: "agents.isolation",
        kind: Kind::Word(AgentIsolation::expected),
        doc: "where subagents run: in place, or in a git worktree of their own",
        default: Some(r#""none""#),
        set: |v| v.word(AgentIsolation::parse).map(Assign::AgentIsolation),
        get: |s| Some(word(s.agents.isolation.as_str())),
    },
    Key {
        name: "agents.import_claude_agents",
        kind: Kind::Bool,
        doc: "also read agent definitions from `<project>/.claude/agents/`",
        default: Some("false"),
        set: |v| v.bool().map(Assign::ImportClaudeAgents),
        get: |s| Some(Value::Boolean(s.agents.import_claude_agents)),
    },
    Key {
        name: "agents.user_agents",
        kind: Kind::Bool,
        doc: "also read agent definitions from `<user config dir>/agents/`",
        default: Some("false"),
        set: |v| v.bool().map(Assign::UserAgents),
        get: |s| Some(Value::Boolean(s.agents.user_agents)),
    },
    Key {
        name: "models",
        kind: Kind::Tables("expected a table"),
        doc: "`[models.\"name\"]` tables overriding or adding model catalog entries",
        default: Some("{}"),
        set: |_| None,
        get: |s| {
            Some(Value::Table(
                s.models
                    .iter()
                    .map(|m| (m.name.clone(), Value::Table(m.to_table())))
                    .collect(),
            ))
        },
    },
];

/// Every setting's key as written in TOML (dotted for tables), in display
/// order. `hooks` stands for every `[[hooks.<Event>]]` group, `models` for
/// the whole `[models."name"]` table of tables and `mcp_servers` for every
/// `[mcp_servers.NAME]` table.
pub const KEYS: [&str; TABLE.len()] = {
    let mut names = [""; TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        names[i] = TABLE[i].name;
        i += 1;
    }
    names
};

/// The row of `name`, if it is a key.
pub(crate) fn find(name: &str) -> Option<&'static Key> {
    TABLE.iter().find(|k| k.name == name)
}

/// The row of the key that `path` (keys only, unquoted) names.
pub(crate) fn at(path: &[&str]) -> Option<&'static Key> {
    let dotted = path.join(".");
    find(&dotted)
}

/// The position of the key `name` in [`TABLE`]. Meant for `const` items
/// and blocks, where a name that is no key stops the build: the layers that
/// name keys in code (environment variables) cannot name one that is not.
pub(crate) const fn index_of(name: &str) -> usize {
    let mut i = 0;
    while i < TABLE.len() {
        if same(TABLE[i].name, name) {
            return i;
        }
        i += 1;
    }
    panic!("not a config key")
}

/// `a == b`, in a `const fn`.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The top-level keys of a file: the first segment of every key, then
/// `projects` (the user file's per-project state, which is no setting) and
/// `shell_environment` (the user file's environment for commands).
pub(crate) static TOP_KEYS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut top: Vec<&'static str> = Vec::new();
    for key in TABLE {
        let first = key.name.split('.').next().unwrap_or(key.name);
        if !top.contains(&first) {
            top.push(first);
        }
    }
    top.push("projects");
    top.push(crate::shell_env::TABLE);
    top
});

/// The keys of each table that has rows (`[tools]`, `[context]`,
/// `[permissions]`, `[sandbox]`, `[verify]`, `[mcp]`, `[agents]`, and
/// `[hooks]` with its one switch, to which `doc_hooks.rs` adds the events),
/// each table's in order.
static MEMBERS: LazyLock<Vec<(&'static str, Vec<&'static str>)>> = LazyLock::new(|| {
    let mut tables: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
    for key in TABLE {
        let Some((table, member)) = key.name.split_once('.') else {
            continue;
        };
        match tables.iter_mut().find(|(t, _)| *t == table) {
            Some((_, members)) => members.push(member),
            None => tables.push((table, vec![member])),
        }
    }
    tables
});

/// The keys of `[table]` that are rows; for every table but `[hooks]`
/// these are all the keys it allows.
pub(crate) fn members(table: &str) -> Option<&'static [&'static str]> {
    MEMBERS
        .iter()
        .find(|(t, _)| *t == table)
        .map(|(_, members)| members.as_slice())
}

impl Settings {
    /// The value of `key` (one of [`KEYS`]) as TOML, `None` when unset or unknown.
    /// `models` is a table of tables keyed by model name; `hooks` a table
    /// of event name → array of groups and `verify.checks` an array of
    /// tables, both as a config file writes them.
    pub fn get(&self, key: &str) -> Option<Value> {
        find(key).and_then(|k| (k.get)(self))
    }
}

/// The reference table of every key (Markdown): name, what it holds, its
/// default and what it does. `docs/config-keys.md` is this text, and a
/// test keeps it so.
pub fn reference() -> String {
    let mut out = String::from(
        "<!-- Generated from the key table in crates/config/src/keys.rs; a test fails when \
         this file differs (`cargo test -p wright-config -- --ignored write_reference` \
         writes it). -->\n\n\
         # Config keys\n\n\
         | Key | Holds | Default | What it does |\n\
         |---|---|---|---|\n",
    );
    for key in TABLE {
        let default = match key.default_value() {
            None => "unset".to_owned(),
            Some(Value::Array(items)) if items.is_empty() => "none".to_owned(),
            Some(Value::Table(items)) if items.is_empty() => "none".to_owned(),
            Some(value) => format!("`{value}`"),
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            key.name,
            key.kind.describe(),
            default,
            key.doc
        ));
    }
    out
}

fn word(w: &str) -> Value {
    Value::String(w.to_owned())
}

fn text(v: Option<&String>) -> Option<Value> {
    v.cloned().map(Value::String)
}

/// TOML integers are i64; values beyond that only come from huge u64
/// settings, which are capped rather than wrapped negative.
fn int(n: impl TryInto<i64>) -> Value {
    Value::Integer(n.try_into().unwrap_or(i64::MAX))
}

fn path(p: &Path) -> Value {
    Value::String(p.to_string_lossy().into_owned())
}

fn strings(items: &[String]) -> Value {
    Value::Array(items.iter().cloned().map(Value::String).collect())
}

fn paths(items: &[PathBuf]) -> Value {
    Value::Array(items.iter().map(|p| path(p)).collect())
}

#[cfg(test)]
#[path = "keys_tests.rs"]
mod tests;
