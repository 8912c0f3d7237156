//! Permission rules in Claude Code's syntax: a tool pattern and an optional
//! specifier, e.g. `Bash(npm run test:*)`, `Edit(src/**)`, `Read(.env*)`,
//! `WebFetch(domain:example.com)`, `mcp__github__*`, `bash`.
//!
//! Tool names are case-insensitive; Claude Code's names map onto wright's
//! tools (`Bash`→`bash`, `LS`→`ls`, …). `Edit(…)` rules also cover `write`,
//! and `Read(…)` rules cover every read-only file tool (`read`, `grep`,
//! `glob`, `ls`).
//!
//! Path specifiers follow Claude Code: `//abs/path` is absolute, `~/x` is
//! under the home directory, `/x` and `a/b` are relative to the workspace
//! root, and a pattern without a slash (`.env*`) matches a file or directory
//! name at any depth.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use std::sync::OnceLock;

use globset::{Glob, GlobBuilder, GlobMatcher};

use crate::shell::{Word, lex};

/// Why a rule could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The rule is empty.
    #[error("empty permission rule")]
    Empty,
    /// Parentheses do not pair up.
    #[error("rule `{0}`: unbalanced parentheses; expected `Tool` or `Tool(specifier)`")]
    Unbalanced(String),
    /// The tool name has characters a tool name cannot have.
    #[error("rule `{0}`: `{1}` is not a tool name")]
    BadTool(String, String),
    /// A specifier was given to a tool that takes none.
    #[error(
        "rule `{0}`: tool `{1}` takes no specifier (only Bash, Read, Edit, Write, Glob, Grep, LS and WebFetch do)"
    )]
    NoSpecifier(String, String),
    /// `Tool()`.
    #[error("rule `{0}`: empty specifier; write the bare tool name to match every call")]
    EmptySpecifier(String),
    /// A path pattern is not a valid glob.
    #[error("rule `{0}`: invalid path pattern: {1}")]
    BadGlob(String, String),
    /// A command specifier is not one plain command.
    #[error("rule `{0}`: {1}")]
    BadCommand(String, String),
    /// A WebFetch specifier is not `domain:HOST`.
    #[error("rule `{0}`: WebFetch rules take `domain:HOST` (e.g. `WebFetch(domain:example.com)`)")]
    BadDomain(String),
}

/// A parsed permission rule.
#[derive(Debug, Clone)]
pub struct Rule {
    text: String,
    tool: ToolPat,
    spec: Option<Spec>,
}

#[derive(Debug, Clone)]
enum ToolPat {
    /// A wright tool name, lower case.
    Name(String),
    /// `mcp__server__*`-style pattern, lower case, `*` matches anything.
    Glob(String),
    /// `mcp__server`: every tool of that server.
    McpServer(String),
}

/// What a specifier restricts.
#[derive(Debug, Clone)]
pub(crate) enum Spec {
    Command(CommandPat),
    Path(PathPat),
    Domain(String),
}

/// A command specifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CommandPat {
    /// `Bash(git diff)`: exactly these words.
    Exact(Vec<String>),
    /// `Bash(npm run test:*)`: these words, then anything.
    Prefix(Vec<String>),
    /// `Bash(npm * --save)`: `*` matches any text; a trailing ` *` is optional.
    Wildcard(String),
}

/// Where a path pattern is anchored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Anchor {
    Absolute,
    Home,
    Root,
    Anywhere,
}

/// A path specifier.
#[derive(Debug, Clone)]
pub(crate) struct PathPat {
    pub anchor: Anchor,
    /// `None` matches nothing (a suggestion whose path could not be escaped).
    glob: Option<Box<LazyGlob>>,
}

/// A parsed glob whose matcher is compiled on its first use. Compiling
/// builds a regex automaton, far more work than parsing; most rules of a
/// run never meet a path their tool would check, so start-up (and the
/// rule-parsing fuzz target) should not pay for it.
#[derive(Debug, Clone)]
struct LazyGlob {
    glob: Glob,
    matcher: OnceLock<GlobMatcher>,
}

impl LazyGlob {
    fn new(glob: Glob) -> Box<Self> {
        Box::new(LazyGlob {
            glob,
            matcher: OnceLock::new(),
        })
    }

    fn is_match(&self, path: impl AsRef<Path>) -> bool {
        self.matcher
            .get_or_init(|| self.glob.compile_matcher())
            .is_match(path)
    }
}

/// Claude Code's display name for a wright tool, when it has one.
fn display_name(tool: &str) -> Option<&'static str> {
    Some(match tool {
        "bash" => "Bash",
        "read" => "Read",
        "edit" => "Edit",
        "write" => "Write",
        "glob" => "Glob",
        "grep" => "Grep",
        "ls" => "LS",
        "webfetch" => "WebFetch",
        _ => return None,
    })
}

/// wright's name for a tool name as written in a rule or a call.
pub(crate) fn canonical_tool(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "web_fetch" | "fetch" => "webfetch".to_owned(),
        "multiedit" | "notebookedit" => "edit".to_owned(),
        _ => lower,
    }
}

impl FromStr for Rule {
    type Err = RuleError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() {
            return Err(RuleError::Empty);
        }
        let (tool_text, spec_text) = match s.find('(') {
            Some(open) if s.ends_with(')') => (&s[..open], Some(s[open + 1..s.len() - 1].trim())),
            Some(_) => return Err(RuleError::Unbalanced(s.to_owned())),
            None if s.contains(')') => return Err(RuleError::Unbalanced(s.to_owned())),
            None => (s, None),
        };
        let tool_text = tool_text.trim();
        if tool_text.is_empty()
            || !tool_text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '*' | '.'))
        {
            return Err(RuleError::BadTool(s.to_owned(), tool_text.to_owned()));
        }
        let tool = canonical_tool(tool_text);
        let pat = if tool.contains('*') {
            ToolPat::Glob(tool.clone())
        } else if let Some(server) = tool.strip_prefix("mcp__")
            && !server.contains("__")
        {
            ToolPat::McpServer(format!("{tool}__"))
        } else {
            ToolPat::Name(tool.clone())
        };
        let shown = display_name(&tool).map_or_else(|| tool_text.to_owned(), str::to_owned);
        let spec = match spec_text {
            None => None,
            Some("") => return Err(RuleError::EmptySpecifier(s.to_owned())),
            Some("*") => None,
            Some(text) => Some(parse_spec(s, &tool, text)?),
        };
        let text = match (spec_text, &spec) {
            (Some(t), Some(_)) => format!("{shown}({t})"),
            _ => shown,
        };
        Ok(Rule {
            text,
            tool: pat,
            spec,
        })
    }
}

fn parse_spec(rule: &str, tool: &str, text: &str) -> Result<Spec, RuleError> {
    match tool {
        "bash" => parse_command(rule, text).map(Spec::Command),
        "read" | "edit" | "write" | "glob" | "grep" | "ls" => parse_path(text)
            .map(Spec::Path)
            .map_err(|e| RuleError::BadGlob(rule.to_owned(), e)),
        "webfetch" => match text.strip_prefix("domain:").map(str::trim) {
            Some(d) if !d.is_empty() && !d.contains(['/', ' ']) => {
                Ok(Spec::Domain(d.to_ascii_lowercase()))
            }
            _ => Err(RuleError::BadDomain(rule.to_owned())),
        },
        _ => Err(RuleError::NoSpecifier(rule.to_owned(), tool.to_owned())),
    }
}

fn parse_command(rule: &str, text: &str) -> Result<CommandPat, RuleError> {
    let bad = |why: &str| RuleError::BadCommand(rule.to_owned(), why.to_owned());
    let (body, prefix) = match text.strip_suffix(":*") {
        Some(b) => (b.trim(), true),
        None => (text, false),
    };
    if !prefix && body.contains('*') {
        return Ok(CommandPat::Wildcard(
            body.split_whitespace().collect::<Vec<_>>().join(" "),
        ));
    }
    let lexed = lex(body);
    if !lexed.unknown.is_empty() {
        return Err(bad(
            "a rule names one plain command the checker fully understands",
        ));
    }
    if !lexed.nested.is_empty() {
        return Err(bad("a rule cannot contain `$(…)` or backticks"));
    }
    let [cmd] = lexed.commands.as_slice() else {
        return Err(bad(
            "a rule names one command; write one rule per command instead of chaining with ;, &&, || or |",
        ));
    };
    if !cmd.redirects.is_empty() {
        return Err(bad("a rule cannot contain redirections"));
    }
    if cmd.words.iter().any(|w| w.dynamic) {
        return Err(bad("a rule cannot contain `$` expansions"));
    }
    let words: Vec<String> = cmd.words.iter().map(|w| w.text.clone()).collect();
    if words.is_empty() {
        return Err(bad("empty command"));
    }
    Ok(if prefix {
        CommandPat::Prefix(words)
    } else {
        CommandPat::Exact(words)
    })
}

fn parse_path(text: &str) -> Result<PathPat, String> {
    let (anchor, mut pat) = if let Some(abs) = text.strip_prefix("//") {
        (Anchor::Absolute, format!("/{abs}"))
    } else if let Some(rest) = text.strip_prefix("~/") {
        (Anchor::Home, rest.to_owned())
    } else if let Some(rest) = text.strip_prefix('/') {
        (Anchor::Root, rest.to_owned())
    } else if let Some(rest) = text.strip_prefix("./") {
        (Anchor::Root, rest.to_owned())
    } else if text.trim_end_matches('/').contains('/') {
        (Anchor::Root, text.to_owned())
    } else {
        (Anchor::Anywhere, text.trim_end_matches('/').to_owned())
    };
    if pat.ends_with('/') {
        pat.push_str("**");
    }
    let glob = GlobBuilder::new(&pat)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(|e| e.to_string())?;
    Ok(PathPat {
        anchor,
        glob: Some(LazyGlob::new(glob)),
    })
}

impl PathPat {
    /// The pattern's glob text, anchored as [`PathPat::anchor`] says.
    pub(crate) fn glob_text(&self) -> Option<&str> {
        self.glob.as_ref().map(|g| g.glob.glob())
    }

    /// Whether the absolute path `abs` matches, given the workspace roots and home.
    pub(crate) fn matches(
        &self,
        abs: &Path,
        roots: &[std::path::PathBuf],
        home: Option<&Path>,
    ) -> bool {
        let Some(glob) = &self.glob else {
            return false;
        };
        match self.anchor {
            Anchor::Absolute => glob.is_match(abs),
            Anchor::Home => home
                .and_then(|h| abs.strip_prefix(h).ok())
                .is_some_and(|rel| glob.is_match(rel)),
            Anchor::Root => roots
                .iter()
                .filter_map(|r| abs.strip_prefix(r).ok())
                .any(|rel| glob.is_match(rel)),
            Anchor::Anywhere => abs.components().any(|c| glob.is_match(c.as_os_str())),
        }
    }
}

impl CommandPat {
    /// The literal words the pattern starts with (a wildcard's words before
    /// its first `*`).
    pub(crate) fn literal_words(&self) -> Vec<&str> {
        match self {
            CommandPat::Exact(ws) | CommandPat::Prefix(ws) => {
                ws.iter().map(String::as_str).collect()
            }
            CommandPat::Wildcard(p) => {
                let head = p.split('*').next().unwrap_or_default();
                let mut ws: Vec<&str> = head.split_whitespace().collect();
                if !head.ends_with(' ') {
                    ws.pop(); // a partial word (`git di*`) says nothing
                }
                ws
            }
        }
    }

    /// Whether the words of one simple command match.
    pub(crate) fn matches(&self, words: &[Word]) -> bool {
        let same = |w: &Word, r: &String| !w.dynamic && w.text == *r;
        match self {
            CommandPat::Exact(ws) => {
                words.len() == ws.len() && words.iter().zip(ws).all(|(w, r)| same(w, r))
            }
            CommandPat::Prefix(ws) => {
                words.len() >= ws.len() && words.iter().zip(ws).all(|(w, r)| same(w, r))
            }
            CommandPat::Wildcard(p) => {
                let text = words
                    .iter()
                    .map(|w| w.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                wildcard(p, &text)
                    || p.strip_suffix(" *")
                        .is_some_and(|head| !head.contains('*') && head == text)
            }
        }
    }
}

/// Quotes a word for a rule when the shell would split or expand it.
fn quote(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c))
    {
        w.to_owned()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// `*` matches any run of characters (including none and spaces).
fn wildcard(pat: &str, text: &str) -> bool {
    let mut pieces = pat.split('*');
    let Some(first) = pieces.next() else {
        return text.is_empty();
    };
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    let Some((last, middle)) = pieces.split_last() else {
        return rest.is_empty();
    };
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

impl Rule {
    /// Whether the rule applies to calls of `tool` (a wright tool name).
    pub fn covers_tool(&self, tool: &str) -> bool {
        let tool = canonical_tool(tool);
        match &self.tool {
            ToolPat::Name(n) => match n.as_str() {
                "edit" => tool == "edit" || tool == "write",
                "read" => matches!(tool.as_str(), "read" | "grep" | "glob" | "ls"),
                _ => *n == tool,
            },
            ToolPat::Glob(p) => wildcard(p, &tool),
            ToolPat::McpServer(prefix) => tool.starts_with(prefix.as_str()),
        }
    }

    /// The specifier, if the rule has one.
    pub(crate) fn spec(&self) -> Option<&Spec> {
        self.spec.as_ref()
    }

    /// Whether the rule names a path-reading tool (Read, Grep, Glob, LS).
    pub(crate) fn is_read_rule(&self) -> bool {
        matches!(&self.tool, ToolPat::Name(n) if matches!(n.as_str(), "read" | "grep" | "glob" | "ls"))
    }

    /// A rule for exactly one file: `Edit(/src/a.rs)` inside a root,
    /// `Edit(//abs/path)` outside. `tool` is `Read` or `Edit`.
    pub(crate) fn exact_path(tool: &str, path: &Path, roots: &[std::path::PathBuf]) -> Rule {
        let (anchor, shown) = match roots.iter().find_map(|r| path.strip_prefix(r).ok()) {
            Some(rel) => (Anchor::Root, format!("/{}", rel.display())),
            None => (Anchor::Absolute, format!("/{}", path.display())),
        };
        let glob_text = match anchor {
            Anchor::Root => globset::escape(&shown[1..]),
            _ => globset::escape(&path.display().to_string()),
        };
        let glob = GlobBuilder::new(&glob_text)
            .literal_separator(true)
            .build()
            .ok()
            .map(LazyGlob::new);
        Rule {
            text: format!("{tool}({shown})"),
            tool: ToolPat::Name(canonical_tool(tool)),
            spec: Some(Spec::Path(PathPat { anchor, glob })),
        }
    }

    /// A Bash rule for commands starting with `words` (`Bash(npm run test:*)`),
    /// or exactly `words` when `exact`.
    pub(crate) fn command(words: Vec<String>, exact: bool) -> Rule {
        let shown = words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ");
        let (text, pat) = if exact {
            (format!("Bash({shown})"), CommandPat::Exact(words))
        } else {
            (format!("Bash({shown}:*)"), CommandPat::Prefix(words))
        };
        Rule {
            text,
            tool: ToolPat::Name("bash".into()),
            spec: Some(Spec::Command(pat)),
        }
    }

    /// A rule naming only `tool` (`mcp__github__create_issue`), or
    /// `WebFetch(domain:HOST)` for a fetch.
    pub(crate) fn tool_only(tool: &str, domain: Option<String>) -> Rule {
        let canon = canonical_tool(tool);
        let shown = display_name(&canon).map_or_else(|| tool.to_owned(), str::to_owned);
        match domain {
            Some(d) => Rule {
                text: format!("{shown}(domain:{d})"),
                tool: ToolPat::Name(canon),
                spec: Some(Spec::Domain(d)),
            },
            None => Rule {
                text: shown,
                tool: ToolPat::Name(canon),
                spec: None,
            },
        }
    }

    /// The rule as it should be written back into a config file.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl PartialEq for Rule {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for Rule {}

impl std::hash::Hash for Rule {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

#[cfg(test)]
#[path = "rule_tests.rs"]
mod tests;
