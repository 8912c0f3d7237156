//! Custom slash commands in Claude Code's format: Markdown files whose body
//! is a prompt template, under `<project>/.wright/commands/` and the user's
//! `<user_config_dir>/commands/`.
//!
//! - The name is the file stem; subdirectories namespace it with `:`
//!   (`frontend/component.md` is `/frontend:component`).
//! - YAML frontmatter is optional: `description` (else the body's first
//!   line) and `argument-hint` (shown in completion). Other keys, such as
//!   Claude Code's `allowed-tools` or `model`, are ignored, so Claude Code's
//!   files load unchanged.
//! - [`expand`] fills `$ARGUMENTS` and `$1`…`$9`; without any placeholder
//!   the arguments are appended as `ARGUMENTS: …`, as Claude Code does.
//!
//! A project command replaces a user command of the same name. Files that
//! cannot be used are skipped with a [`Warning`] naming the file and why.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use yaml_serde::Value;

use crate::Warning;
use crate::frontmatter;

/// The project's command directory, relative to the project root.
pub const PROJECT_COMMANDS_DIR: &str = ".wright/commands";
/// The user's command directory, relative to the user config dir.
pub const USER_COMMANDS_DIR: &str = "commands";
/// Largest command file read, in bytes.
pub const MAX_COMMAND_FILE_BYTES: u64 = 256 * 1024;
/// Subdirectory levels searched below a command directory.
const MAX_DEPTH: usize = 4;
/// Longest description taken from a body's first line, in chars.
const MAX_DERIVED_DESCRIPTION: usize = 80;

/// Where a command was defined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandScope {
    /// `<project>/.wright/commands`.
    Project,
    /// `<user_config_dir>/commands`.
    User,
}

impl fmt::Display for CommandScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CommandScope::Project => "project",
            CommandScope::User => "user",
        })
    }
}

/// One custom slash command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomCommand {
    /// The name without its slash, e.g. `review` or `frontend:component`.
    pub name: String,
    /// One line for completion and `/help`.
    pub description: String,
    /// What the arguments look like, e.g. `[pr-number] [priority]`.
    pub argument_hint: Option<String>,
    /// The prompt template (the file's body).
    pub body: String,
    /// Project or user.
    pub scope: CommandScope,
    /// The file it came from.
    pub path: PathBuf,
}

/// Every custom command, sorted by name: the user's (from
/// `<user_config_dir>/commands`, when there is a user config dir) and the
/// project's, a project command replacing a user one of the same name.
/// Missing directories are not an error.
pub fn load(
    project_root: &Path,
    user_config_dir: Option<&Path>,
) -> (Vec<CustomCommand>, Vec<Warning>) {
    let mut warnings = Vec::new();
    let mut commands: Vec<CustomCommand> = Vec::new();
    let dirs = user_config_dir
        .map(|d| (d.join(USER_COMMANDS_DIR), CommandScope::User))
        .into_iter()
        .chain([(
            project_root.join(PROJECT_COMMANDS_DIR),
            CommandScope::Project,
        )]);
    for (dir, scope) in dirs {
        let mut files = Vec::new();
        collect(&dir, &mut Vec::new(), &mut files, &mut warnings);
        for (segments, path) in files {
            match load_file(&path, &segments, scope) {
                Ok(command) => match commands.iter_mut().find(|c| c.name == command.name) {
                    Some(slot) => *slot = command,
                    None => commands.push(command),
                },
                Err(reason) => {
                    warnings.push(Warning::at(path, format!("command skipped: {reason}")))
                }
            }
        }
    }
    commands.sort_by(|a, b| a.name.cmp(&b.name));
    (commands, warnings)
}

/// The prompt for `command` run with `args` (the text after its name).
/// `$ARGUMENTS` is all of it, trimmed; `$1`…`$9` are its words (quotes
/// group words; a missing one is empty). With no placeholder in the body,
/// non-empty arguments are appended on a last `ARGUMENTS:` line.
pub fn expand(command: &CustomCommand, args: &str) -> String {
    let args = args.trim();
    let words = split_words(args);
    let body = &command.body;
    let mut out = String::with_capacity(body.len() + args.len());
    let mut used = false;
    let mut rest = body.as_str();
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(tail) = after.strip_prefix("ARGUMENTS") {
            out.push_str(args);
            rest = tail;
            used = true;
        } else if let Some(d) = after
            .chars()
            .next()
            .and_then(|c| c.to_digit(10))
            .filter(|&d| d > 0)
        {
            let word = usize::try_from(d - 1)
                .ok()
                .and_then(|n| words.get(n))
                .map_or("", String::as_str);
            out.push_str(word);
            rest = &after[1..];
            used = true;
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    if !used && !args.is_empty() {
        let sep = if out.ends_with('\n') { "\n" } else { "\n\n" };
        out.push_str(sep);
        out.push_str("ARGUMENTS: ");
        out.push_str(args);
    }
    out
}

/// Splits arguments into words at whitespace; `"…"` and `'…'` group.
fn split_words(args: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    for c in args.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Appends the `*.md` files under `dir` (sorted, hidden entries skipped)
/// with the directory names leading to them.
fn collect(
    dir: &Path,
    segments: &mut Vec<String>,
    files: &mut Vec<(Vec<String>, PathBuf)>,
    warnings: &mut Vec<Warning>,
) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && segments.is_empty() => return,
        Err(e) => {
            warnings.push(Warning::at(
                dir,
                format!("cannot read commands directory: {e}"),
            ));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        // Follows symlinks, so a linked command or directory works.
        if path.is_dir() {
            if segments.len() + 1 >= MAX_DEPTH {
                warnings.push(Warning::at(
                    &path,
                    "command directory skipped: nested too deep",
                ));
                continue;
            }
            segments.push(name);
            collect(&path, segments, files, warnings);
            segments.pop();
        } else if path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("md"))
        {
            files.push((segments.clone(), path));
        }
    }
}

/// The frontmatter keys used; values stay YAML so a bad one is reported
/// by its key. Unknown keys are ignored.
#[derive(Deserialize, Default)]
struct Frontmatter {
    description: Option<Value>,
    #[serde(rename = "argument-hint", alias = "argument_hint")]
    argument_hint: Option<Value>,
}

/// Reads one command file; `Err` is why it is skipped.
fn load_file(path: &Path, dirs: &[String], scope: CommandScope) -> Result<CustomCommand, String> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or("the file name is not UTF-8")?;
    let mut name = String::new();
    for segment in dirs.iter().map(String::as_str).chain([stem]) {
        check_segment(segment)?;
        if !name.is_empty() {
            name.push(':');
        }
        name.push_str(segment);
    }
    let text = read(path)?;
    let (front, body) = split(&text)?;
    let body = body.trim().to_owned();
    if body.is_empty() {
        return Err("the prompt (the text after the frontmatter) is empty".to_owned());
    }
    let description = match front.description {
        Some(value) => scalar(value, "description")?,
        None => first_line(&body),
    };
    let argument_hint = front.argument_hint.map(hint).transpose()?;
    Ok(CustomCommand {
        name,
        description,
        argument_hint: argument_hint.filter(|h| !h.is_empty()),
        body,
        scope,
        path: path.to_path_buf(),
    })
}

/// A name part: letters, digits, `-`, `_` and `.`.
fn check_segment(segment: &str) -> Result<(), String> {
    let ok = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '.');
    if segment.is_empty() || !segment.chars().all(ok) {
        return Err(format!(
            "`{segment}` cannot be part of a command name (use letters, digits, `-`, `_`, `.`)"
        ));
    }
    Ok(())
}

/// The file's text: a regular UTF-8 file of at most
/// [`MAX_COMMAND_FILE_BYTES`].
fn read(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !meta.is_file() {
        return Err("not a regular file".to_owned());
    }
    if meta.len() > MAX_COMMAND_FILE_BYTES {
        return Err(format!("larger than {} KB", MAX_COMMAND_FILE_BYTES / 1024));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_owned())
}

/// The frontmatter (empty when the file has none) and the body.
fn split(text: &str) -> Result<(Frontmatter, &str), String> {
    let Some((yaml, body)) = frontmatter::split(text) else {
        let opened = text.trim_start_matches('\u{feff}').starts_with("---");
        if opened && text.lines().next().is_some_and(|l| l.trim_end() == "---") {
            return Err("the frontmatter's opening `---` has no closing `---` line".to_owned());
        }
        return Ok((Frontmatter::default(), text));
    };
    if yaml.trim().is_empty() {
        return Ok((Frontmatter::default(), body));
    }
    let front = yaml_serde::from_str(yaml)
        .or_else(|e| {
            // Claude Code's own examples write `argument-hint: [pr] [prio]`,
            // which is not YAML; read such values as plain text instead.
            let relaxed = quote_bracketed(yaml);
            if relaxed == yaml {
                return Err(e);
            }
            yaml_serde::from_str(&relaxed).map_err(|_| e)
        })
        .map_err(|e| format!("invalid frontmatter: {e}"))?;
    Ok((front, body))
}

/// `yaml` with each top-level `key: [...` or `key: {...` value turned into
/// a single-quoted string.
fn quote_bracketed(yaml: &str) -> String {
    let mut out = String::with_capacity(yaml.len() + 16);
    for line in yaml.split_inclusive('\n') {
        let content = line.trim_end_matches(['\r', '\n']);
        let top_level = !content.starts_with([' ', '\t', '#', '-']);
        match content.split_once(": ") {
            Some((key, value)) if top_level && value.trim_start().starts_with(['[', '{']) => {
                let value = value.trim().replace('\'', "''");
                out.push_str(&format!("{key}: '{value}'"));
                out.push_str(&line[content.len()..]);
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// A text value: strings, numbers and booleans as written.
fn scalar(value: Value, key: &str) -> Result<String, String> {
    match value {
        Value::String(s) => Ok(s.trim().to_owned()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Null => Ok(String::new()),
        _ => Err(format!("`{key}` must be text")),
    }
}

/// `argument-hint`. YAML reads the common `[message]` as a list, so a
/// list is shown as its items in brackets again.
fn hint(value: Value) -> Result<String, String> {
    match value {
        Value::Sequence(items) => {
            let items: Result<Vec<String>, String> = items
                .into_iter()
                .map(|v| scalar(v, "argument-hint").map(|s| format!("[{s}]")))
                .collect();
            Ok(items?.join(" "))
        }
        other => scalar(other, "argument-hint"),
    }
}

/// The body's first non-blank line, without Markdown heading marks,
/// shortened with `…`.
fn first_line(body: &str) -> String {
    let line = body
        .lines()
        .map(|l| l.trim().trim_start_matches('#').trim())
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    if line.chars().count() <= MAX_DERIVED_DESCRIPTION {
        return line.to_owned();
    }
    let mut short: String = line.chars().take(MAX_DERIVED_DESCRIPTION - 1).collect();
    short.push('…');
    short
}

#[cfg(test)]
#[path = "commands_tests.rs"]
mod tests;
