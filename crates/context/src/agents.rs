//! Agent definitions: what a `Task` subagent of each type is given. Two
//! are built in ([`builtin_agents`]: `general` and `explore`); more come
//! from Markdown files with Claude Code's YAML frontmatter (`name`,
//! `description`, `tools`, `model`, `permissionMode`, `maxTurns`,
//! `isolation`), whose body is the child's system prompt
//! ([`discover_agents`]).
//!
//! A definition only narrows what a child may do: the caller runs it with
//! the parent's provider and permission settings, never looser, so reading
//! these files needs no trust decision. Keys this crate does not use
//! (Claude Code's `color`, `skills`, `hooks`, …) are ignored, so a file
//! written for Claude Code loads unchanged.

use std::fmt;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use yaml_serde::Value;

use crate::frontmatter;

/// Largest agent file read, in bytes; bigger files are skipped with a
/// warning (a system prompt that size would swamp the child's context).
pub const MAX_AGENT_FILE_BYTES: u64 = 256 * 1024;

/// Name of the built-in agent with every tool.
pub const GENERAL_AGENT: &str = "general";
/// Name of the built-in read-only agent for searching and reading.
pub const EXPLORE_AGENT: &str = "explore";
/// The tools of the built-in `explore` agent: reading and searching only.
/// `Bash` is left out even though read-only commands exist, because the
/// tool itself cannot be limited to them.
pub const EXPLORE_TOOLS: [&str; 4] = ["Read", "Grep", "Glob", "LS"];

/// The model aliases Claude Code accepts besides `inherit`.
pub const MODEL_ALIASES: [&str; 3] = ["sonnet", "opus", "haiku"];

/// `permissionMode` words accepted: Claude Code's, then wright's own
/// config spellings, so either tool's files load.
const PERMISSION_MODES: [&str; 8] = [
    "default",
    "acceptEdits",
    "plan",
    "dontAsk",
    "bypassPermissions",
    "accept-edits",
    "auto",
    "bypass",
];

/// One agent type a `Task` call can start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentDef {
    /// Unique name (letters, digits, `-`, `_`): the `subagent_type`.
    pub name: String,
    /// When to use it; listed in the `Task` tool's description so the
    /// model picks by it.
    pub description: String,
    /// The tools the child may use, as written; `None` means all the
    /// parent's tools (less `Task`, which children never get).
    pub tools: Option<Vec<String>>,
    /// Model for the child: an alias (`sonnet`, `opus`, `haiku`) or a model
    /// name, as written; `None` (also for `inherit`) uses the parent's.
    pub model: Option<String>,
    /// `permissionMode` as written (`plan`, `default`, `acceptEdits`, …);
    /// the caller maps it and never lets it loosen the parent's mode.
    pub permission_mode: Option<String>,
    /// Turn limit for the child; `None` uses `[agents] max_turns`.
    pub max_turns: Option<u32>,
    /// `worktree` to run the child in its own git worktree; `None` uses
    /// `[agents] isolation`.
    pub isolation: Option<String>,
    /// The child's system prompt (the file's body).
    pub prompt: String,
    /// Where the definition came from.
    pub source: AgentSource,
}

/// Where an [`AgentDef`] came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentSource {
    /// Compiled into wright.
    Builtin,
    /// The command line's `--agents` JSON.
    Flag,
    /// A Markdown file with frontmatter.
    File(PathBuf),
}

impl fmt::Display for AgentSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSource::Builtin => f.write_str("built in"),
            AgentSource::Flag => f.write_str("--agents"),
            AgentSource::File(path) => write!(f, "{}", path.display()),
        }
    }
}

const GENERAL_DESCRIPTION: &str = "General-purpose agent for multi-step tasks: researching \
    questions, searching code and making changes. Has all tools.";

const GENERAL_PROMPT: &str = "You are a subagent: another agent has handed you one task. \
Complete it fully with the tools you have, working on your own; nobody can answer questions \
while you work, so make reasonable assumptions and note them.

Your final message is the only thing the agent that started you will see: it does not see your \
tool calls or their output. End with a concise report:
- what you did (files changed, commands run);
- what you found, with file paths (and line numbers where they help);
- anything left undone, failing or uncertain.

Keep the report short and factual. Do not pad it with a restatement of the task.";

const EXPLORE_DESCRIPTION: &str = "Fast read-only agent for exploring a codebase: finds files, \
    searches code and reads it to answer a question. Cannot edit files or run commands.";

const EXPLORE_PROMPT: &str = "You are a read-only exploration subagent: another agent has asked \
you a question about this codebase. Answer it by searching and reading, quickly.

- Start broad: Glob for file names, Grep for identifiers and strings, LS for layout; then Read \
only the parts that matter.
- Search in parallel when the searches do not depend on each other.
- Never create, edit or delete files, and do not try to: you only have reading tools.

Your final message is the only thing the agent that asked will see. Report your findings \
concisely, citing each with its `path:line`, and say plainly what you looked for but did not \
find.";

/// The built-in agents: `general` (every tool) and `explore` (reading and
/// searching tools only).
pub fn builtin_agents() -> Vec<AgentDef> {
    let builtin =
        |name: &str, description: &str, tools: Option<Vec<String>>, prompt: &str| AgentDef {
            name: name.to_owned(),
            description: description.to_owned(),
            tools,
            model: None,
            permission_mode: None,
            max_turns: None,
            isolation: None,
            prompt: prompt.to_owned(),
            source: AgentSource::Builtin,
        };
    vec![
        builtin(GENERAL_AGENT, GENERAL_DESCRIPTION, None, GENERAL_PROMPT),
        builtin(
            EXPLORE_AGENT,
            EXPLORE_DESCRIPTION,
            Some(EXPLORE_TOOLS.iter().map(|t| (*t).to_owned()).collect()),
            EXPLORE_PROMPT,
        ),
    ]
}

/// The built-in agents, then the `*.md` files of each dir in order (sorted
/// by file name within a dir). A later definition with the same name
/// replaces an earlier one in place, so a project may redefine `explore`.
/// A missing dir is not an error. Every file that cannot be used is
/// skipped with a warning naming it.
pub fn discover_agents(dirs: &[PathBuf]) -> (Vec<AgentDef>, Vec<String>) {
    let mut agents = builtin_agents();
    let mut warnings = Vec::new();
    for dir in dirs {
        // Names defined by this dir so far: a clash inside one dir is
        // likely a copy-paste slip, while one across dirs is an override.
        let mut here: Vec<(String, PathBuf)> = Vec::new();
        for path in agent_files(dir, &mut warnings) {
            let agent = match load_agent(&path) {
                Ok(agent) => agent,
                Err(message) => {
                    warnings.push(format!("{}: agent skipped: {message}", path.display()));
                    continue;
                }
            };
            if let Some((_, first)) = here.iter().find(|(n, _)| *n == agent.name) {
                warnings.push(format!(
                    "{}: agent `{}` is also defined in {}; this file replaces it",
                    path.display(),
                    agent.name,
                    first.display()
                ));
            }
            here.push((agent.name.clone(), path));
            match agents.iter_mut().find(|a| a.name == agent.name) {
                Some(slot) => *slot = agent,
                None => agents.push(agent),
            }
        }
    }
    (agents, warnings)
}

/// The `*.md` entries of `dir`, sorted by file name. Hidden files are
/// left out: editors leave lock and swap files there (`.#x.md`).
fn agent_files(dir: &Path, warnings: &mut Vec<String>) -> Vec<PathBuf> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => {
            warnings.push(format!(
                "{}: cannot read agents directory: {e}",
                dir.display()
            ));
            return Vec::new();
        }
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "md")
                && p.file_name()
                    .is_some_and(|n| !n.to_string_lossy().starts_with('.'))
        })
        .collect();
    files.sort();
    files
}

/// Agent types from Claude Code's `--agents` JSON:
/// `{"name": {"description": …, "prompt": …, "tools": [...], "model": …}}`
/// (also `permissionMode`, `maxTurns`, `isolation`), each checked like a
/// file's frontmatter. `Err` says what is wrong, naming the agent.
pub fn agents_from_json(text: &str) -> Result<Vec<AgentDef>, String> {
    // JSON is YAML, so the frontmatter checks apply unchanged; parsing as
    // JSON first keeps the error messages about JSON.
    let json: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    let serde_json::Value::Object(map) = json else {
        return Err("expected a JSON object of agents by name".to_owned());
    };
    let mut agents = Vec::new();
    for (key, value) in map {
        if !value.is_object() {
            return Err(format!("agent `{key}`: expected an object"));
        }
        let entry: AgentJson = yaml_serde::to_value(&value)
            .and_then(yaml_serde::from_value)
            .map_err(|e| format!("agent `{key}`: {e}"))?;
        let def = (|| {
            Ok::<_, String>(AgentDef {
                name: name(Some(Value::String(key.clone())))?,
                description: required_text(entry.description, "description")?,
                tools: entry.tools.map(tools).transpose()?,
                model: entry.model.map(model).transpose()?.flatten(),
                permission_mode: entry.permission_mode.map(permission_mode).transpose()?,
                max_turns: entry.max_turns.map(max_turns).transpose()?,
                isolation: entry.isolation.map(isolation).transpose()?,
                prompt: required_text(entry.prompt, "prompt")?,
                source: AgentSource::Flag,
            })
        })()
        .map_err(|e| format!("agent `{key}`: {}", e.replace("frontmatter needs", "needs")))?;
        agents.push(def);
    }
    Ok(agents)
}

/// One `--agents` entry: the frontmatter keys plus its `prompt`.
#[derive(Deserialize)]
struct AgentJson {
    description: Option<Value>,
    prompt: Option<Value>,
    tools: Option<Value>,
    model: Option<Value>,
    #[serde(rename = "permissionMode", alias = "permission_mode")]
    permission_mode: Option<Value>,
    #[serde(rename = "maxTurns", alias = "max_turns")]
    max_turns: Option<Value>,
    isolation: Option<Value>,
}

/// Reads and parses one file; `Err` is the reason it is skipped.
fn load_agent(path: &Path) -> Result<AgentDef, String> {
    let text = read_limited(path)?;
    parse_agent(path, &text)
}

/// Parses the text of the agent file at `path`; `Err` is why it is skipped.
pub fn parse_agent(path: &Path, text: &str) -> Result<AgentDef, String> {
    let (front, body) = frontmatter::parse::<Frontmatter>(text)?;
    Ok(AgentDef {
        name: name(front.name)?,
        description: required_text(front.description, "description")?,
        tools: front.tools.map(tools).transpose()?,
        model: front.model.map(model).transpose()?.flatten(),
        permission_mode: front.permission_mode.map(permission_mode).transpose()?,
        max_turns: front.max_turns.map(max_turns).transpose()?,
        isolation: front.isolation.map(isolation).transpose()?,
        prompt: body.trim_end().to_owned(),
        source: AgentSource::File(path.to_path_buf()),
    })
}

/// The file's text, refusing anything but a regular file of at most
/// [`MAX_AGENT_FILE_BYTES`]. The read itself is bounded too, so a file
/// growing after the size check cannot make it unbounded.
fn read_limited(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !meta.is_file() {
        return Err("not a regular file".to_owned());
    }
    let too_big = || format!("larger than {} KB", MAX_AGENT_FILE_BYTES / 1024);
    if meta.len() > MAX_AGENT_FILE_BYTES {
        return Err(too_big());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_AGENT_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_AGENT_FILE_BYTES {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|_| "cannot read: not UTF-8 text".to_owned())
}

/// The frontmatter keys used. Values are kept as YAML so each bad one is
/// reported by its key rather than as a generic type error; unknown keys
/// are ignored.
#[derive(Deserialize)]
struct Frontmatter {
    name: Option<Value>,
    description: Option<Value>,
    tools: Option<Value>,
    model: Option<Value>,
    #[serde(rename = "permissionMode", alias = "permission_mode")]
    permission_mode: Option<Value>,
    #[serde(rename = "maxTurns", alias = "max_turns")]
    max_turns: Option<Value>,
    isolation: Option<Value>,
}

/// A string value, trimmed and non-empty.
fn required_text(value: Option<Value>, key: &str) -> Result<String, String> {
    match value {
        None => Err(format!("frontmatter needs a non-empty `{key}`")),
        Some(v) => text(v, key),
    }
}

fn text(value: Value, key: &str) -> Result<String, String> {
    match value {
        Value::String(s) if !s.trim().is_empty() => Ok(s.trim().to_owned()),
        Value::String(_) => Err(format!("frontmatter needs a non-empty `{key}`")),
        _ => Err(format!("`{key}` must be a string")),
    }
}

fn name(value: Option<Value>) -> Result<String, String> {
    let name = required_text(value, "name")?;
    let valid = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if valid {
        Ok(name)
    } else {
        Err(format!(
            "invalid `name` {name:?}: use letters, digits, `-` and `_` only"
        ))
    }
}

/// `tools: Read, Grep` (Claude Code's comma list) or a YAML list. Each
/// entry is a tool name, optionally followed by a parenthesised argument
/// (`Task(explore)`); duplicates are dropped, keeping the first.
fn tools(value: Value) -> Result<Vec<String>, String> {
    let items: Vec<String> = match value {
        Value::String(s) => split_tool_list(&s),
        Value::Sequence(seq) => seq
            .into_iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.trim().to_owned()),
                _ => Err("invalid `tools`: every entry must be a tool name".to_owned()),
            })
            .collect::<Result<_, _>>()?,
        _ => {
            return Err(
                "invalid `tools`: expected a comma-separated list (`Read, Grep`) or a YAML list"
                    .to_owned(),
            );
        }
    };
    let mut out: Vec<String> = Vec::new();
    for item in items {
        if !is_tool_entry(&item) {
            return Err(format!("invalid `tools`: {item:?} is not a tool name"));
        }
        if !out.contains(&item) {
            out.push(item);
        }
    }
    Ok(out)
}

/// Splits at commas outside parentheses, so `Bash(git diff, git log)`
/// stays one entry. An empty string is an empty list (no tools).
fn split_tool_list(s: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut current).trim().to_owned());
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    let last = current.trim();
    if !last.is_empty() || !items.is_empty() {
        items.push(last.to_owned());
    }
    items
}

/// `Name` or `Name(argument)`, where a name is letters, digits, `_`, `-`,
/// `.` and `*` (MCP tools are `mcp__server__tool`).
fn is_tool_entry(item: &str) -> bool {
    let (head, arg) = match item.find('(') {
        Some(i) => (&item[..i], Some(&item[i..])),
        None => (item, None),
    };
    let head_ok = !head.is_empty()
        && head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '*'));
    head_ok && arg.is_none_or(|a| a.len() >= 2 && a.ends_with(')'))
}

/// `inherit` is `None`; an alias or a model name is kept as written.
fn model(value: Value) -> Result<Option<String>, String> {
    let model = text(value, "model")?;
    if model.eq_ignore_ascii_case("inherit") {
        return Ok(None);
    }
    // Model names seen in the wild: `claude-sonnet-4-5@20250929`,
    // `us.anthropic.claude-3-7-sonnet-v1:0`, `openai/gpt-4o`,
    // `qwen2.5-coder:7b`, `sonnet[1m]`. Whitespace or anything else means
    // the value is not a model name (often a sentence in the wrong key).
    let valid = model.chars().all(|c| {
        c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '/' | '@' | '[' | ']')
    });
    if valid {
        Ok(Some(model))
    } else {
        Err(format!(
            "invalid `model` {model:?}: expected inherit, {}, or a model name",
            MODEL_ALIASES.join(", ")
        ))
    }
}

fn permission_mode(value: Value) -> Result<String, String> {
    let mode = text(value, "permissionMode")?;
    if PERMISSION_MODES.contains(&mode.as_str()) {
        Ok(mode)
    } else {
        Err(format!(
            "invalid `permissionMode` {mode:?}: expected one of: {}",
            PERMISSION_MODES.join(", ")
        ))
    }
}

fn max_turns(value: Value) -> Result<u32, String> {
    value
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| *n >= 1)
        .ok_or_else(|| "invalid `maxTurns`: expected a positive integer".to_owned())
}

/// Only `worktree` (Claude Code's one value) is accepted: with a single
/// value the consumer cannot misread what a set field means.
fn isolation(value: Value) -> Result<String, String> {
    let isolation = text(value, "isolation")?;
    if isolation == "worktree" {
        Ok(isolation)
    } else {
        Err(format!(
            "invalid `isolation` {isolation:?}: expected worktree"
        ))
    }
}

#[cfg(test)]
#[path = "agents_tests.rs"]
mod tests;
