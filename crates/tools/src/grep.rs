//! The `grep` tool: regex search over a parallel gitignore-aware walk with
//! ripgrep's engine, listing files, counts, or matching lines with context;
//! the walk stops once the result cap is reached.

use futures::future::BoxFuture;
use grep_regex::RegexMatcherBuilder;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkMatch};
use std::path::Path;

use schemars::JsonSchema;
use serde::Deserialize;
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};

use crate::output::{self, blocking, cut_line};
use crate::truncate::Keep;
use crate::walk::{self, NameGlob};
use crate::{Tool, ToolContext, ToolError, ToolOutput, args};

const MAX_FILES: usize = 200;
const MAX_LINES: usize = 500;
const MAX_LINE_CHARS: usize = 500;

/// What `grep` prints: file paths, `path:line:text` lines, or `path:count`.
// Variants carry no doc comments so the schema is a plain string enum.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum OutputMode {
    #[default]
    FilesWithMatches,
    Content,
    Count,
}

/// Arguments of `Grep` (Claude Code's names: ripgrep's short flags).
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct GrepArgs {
    /// Regular expression (Rust regex syntax).
    pattern: String,
    /// File or directory to search (default: working directory).
    #[serde(default)]
    path: Option<String>,
    /// Only search files matching this glob, e.g. `*.rs` or `*.{ts,tsx}`.
    #[serde(default)]
    glob: Option<String>,
    /// Only search files of this type (ripgrep's names: rust, py, js, ts, go, …).
    #[serde(default, rename = "type")]
    file_type: Option<String>,
    /// files_with_matches (default), content, or count.
    #[serde(default)]
    output_mode: Option<OutputMode>,
    /// Ignore case.
    #[serde(default, rename = "-i", alias = "case_insensitive")]
    case_insensitive: Option<bool>,
    /// Show line numbers (content mode; default true).
    #[serde(default, rename = "-n")]
    line_numbers: Option<bool>,
    /// Lines of context after each match (content mode).
    #[serde(default, rename = "-A")]
    after: Option<usize>,
    /// Lines of context before each match (content mode).
    #[serde(default, rename = "-B")]
    before: Option<usize>,
    /// Lines of context around each match (content mode).
    #[serde(default, rename = "-C", alias = "context")]
    context: Option<usize>,
    /// Keep only the first N lines or entries of the result.
    #[serde(default)]
    head_limit: Option<usize>,
    /// Let `.` match newlines and patterns span lines.
    #[serde(default)]
    multiline: Option<bool>,
}

/// Searches file contents.
#[derive(Debug, Default, Clone, Copy)]
pub struct GrepTool;

impl Tool for GrepTool {
    fn name(&self) -> &str {
        "Grep"
    }

    fn spec(&self) -> ToolSpec {
        args::spec::<GrepArgs>(
            self.name(),
            "Search file contents with a regex (ripgrep engine), honouring .gitignore. \
             Lists matching files newest first unless output_mode asks for lines or counts.",
        )
    }

    fn kind(&self) -> ToolKind {
        ToolKind::ReadOnly
    }

    fn touches(&self, args: &serde_json::Value) -> Touches {
        Touches::read(args::text_arg(args, "path").unwrap_or_else(|| ".".to_owned()))
    }

    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let a: GrepArgs = args::parse(args)?;
            let ctx = ctx.clone();
            blocking(move || grep(&a, &ctx)).await
        })
    }
}

/// What the arguments compile to before any file is read: the regex, the
/// file-name glob and the file-type filter.
pub(crate) struct Compiled {
    matcher: grep_regex::RegexMatcher,
    glob: Option<NameGlob>,
    types: Option<ignore::types::Types>,
}

/// Compiles the arguments; a bad regex, glob or type is the model's mistake.
pub(crate) fn compile(a: &GrepArgs) -> Result<Compiled, ToolError> {
    let multiline = a.multiline.unwrap_or(false);
    let matcher = RegexMatcherBuilder::new()
        .case_insensitive(a.case_insensitive.unwrap_or(false))
        .multi_line(multiline)
        .dot_matches_new_line(multiline)
        .build(&a.pattern)
        .map_err(|e| ToolError::InvalidArgs(format!("invalid regex: {e}")))?;
    let glob = a.glob.as_deref().map(NameGlob::new).transpose()?;
    let types = a.file_type.as_deref().map(file_types).transpose()?;
    Ok(Compiled {
        matcher,
        glob,
        types,
    })
}

fn grep(a: &GrepArgs, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
    let multiline = a.multiline.unwrap_or(false);
    let Compiled {
        matcher,
        glob,
        types,
    } = compile(a)?;
    let search = walk::search_root(ctx, a.path.as_deref())?;
    let root = search.real.clone();
    let mode = a.output_mode.unwrap_or_default();
    let (before, after) = match mode {
        OutputMode::Content => {
            let around = a.context.unwrap_or(0);
            (
                a.before.unwrap_or(around).min(20),
                a.after.unwrap_or(around).min(20),
            )
        }
        OutputMode::FilesWithMatches | OutputMode::Count => (0, 0),
    };
    let context = before.max(after);
    let numbers = a.line_numbers.unwrap_or(true);
    let head_limit = a.head_limit.filter(|n| *n > 0);
    let max_lines = head_limit.map_or(MAX_LINES, |n| n.min(MAX_LINES));
    let max_files = head_limit.map_or(MAX_FILES, |n| n.min(MAX_FILES));
    let builder = {
        let mut b = SearcherBuilder::new();
        b.binary_detection(BinaryDetection::quit(0))
            .line_number(true)
            .multi_line(multiline)
            .before_context(before)
            .after_context(after);
        b
    };
    let first_only = mode == OutputMode::FilesWithMatches;
    // One searcher per walker thread; a hit's weight against the cap is a
    // file, or its lines in content mode.
    let visitor = || -> walk::Visitor<'_, Collect> {
        let mut searcher = builder.build();
        let matcher = matcher.clone();
        Box::new(move |file| {
            let mut sink = Collect::new(first_only);
            if searcher.search_path(&matcher, file, &mut sink).is_err() || sink.matches == 0 {
                return None;
            }
            let used = match mode {
                OutputMode::Content => sink.lines.len(),
                OutputMode::FilesWithMatches | OutputMode::Count => 1,
            };
            Some((sink, used))
        })
    };
    let cap = match mode {
        OutputMode::Content => max_lines,
        OutputMode::FilesWithMatches | OutputMode::Count => max_files,
    };
    let found = if root.is_file() {
        let hit = visitor()(&root);
        walk::Found {
            hits: hit.into_iter().map(|(c, _)| (root.clone(), c)).collect(),
            stopped: false,
        }
    } else {
        // Key and credential files are only searched when named directly
        // (and then the permission layer decides): a broad search must not
        // print a private key.
        let keep = |rel: &Path| {
            !walk::looks_secret(rel)
                && glob.as_ref().is_none_or(|g| g.is_match(rel))
                && types
                    .as_ref()
                    .is_none_or(|t| t.matched(rel, false).is_whitelist())
        };
        walk::search(&root, false, &keep, &visitor, cap)
    };

    let mut text = String::new();
    let mut files_matched = 0usize;
    let mut total_matches = 0u64;
    let mut lines_out = 0usize;
    let mut capped = false;
    for (file, sink) in &found.hits {
        files_matched += 1;
        total_matches += sink.matches;
        if capped {
            continue;
        }
        let shown = search.shown(file);
        match mode {
            OutputMode::FilesWithMatches => text.push_str(&format!("{shown}\n")),
            OutputMode::Count => text.push_str(&format!("{shown}:{}\n", sink.matches)),
            OutputMode::Content => {
                if context > 0 && lines_out > 0 {
                    text.push_str("--\n");
                }
                for line in &sink.lines {
                    match line {
                        Line::Break => text.push_str("--\n"),
                        Line::Text {
                            number,
                            matched,
                            text: t,
                        } => {
                            if lines_out >= max_lines {
                                break;
                            }
                            let sep = if *matched { ':' } else { '-' };
                            let line = cut_line(t, MAX_LINE_CHARS);
                            if numbers {
                                text.push_str(&format!("{shown}{sep}{number}{sep}{line}\n"));
                            } else {
                                text.push_str(&format!("{shown}{sep}{line}\n"));
                            }
                        }
                    }
                    lines_out += 1;
                }
            }
        }
        capped = match mode {
            OutputMode::Content => lines_out >= max_lines,
            OutputMode::FilesWithMatches | OutputMode::Count => files_matched >= max_files,
        };
    }
    if files_matched == 0 {
        return Ok(ToolOutput {
            images: Vec::new(),
            content: format!("No matches for {}", a.pattern),
            display: ToolDisplay {
                summary: "0 matches".into(),
                ..ToolDisplay::default()
            },
        });
    }
    // A walk that stopped at the cap knows only what it found so far.
    let so_far = if found.stopped {
        "found before the search stopped at the cap"
    } else {
        "in all"
    };
    if capped && head_limit.is_none() {
        text.push_str(&format!(
            "[results capped: {total_matches} matching lines in {files_matched} files {so_far}; \
             narrow the pattern, path or glob]\n"
        ));
    }
    let plus = if found.stopped { "+" } else { "" };
    let plural = |n: u64, one: &str, many: &str| {
        format!(
            "{n}{plus} {}",
            if n == 1 && plus.is_empty() { one } else { many }
        )
    };
    let summary = match mode {
        OutputMode::FilesWithMatches => plural(files_matched as u64, "file", "files"),
        OutputMode::Content | OutputMode::Count => plural(total_matches, "match", "matches"),
    };
    Ok(ToolOutput {
        images: Vec::new(),
        content: output::finish(&text, &ctx.limits, Keep::Head, None).content,
        display: ToolDisplay {
            summary,
            ..ToolDisplay::default()
        },
    })
}

/// ripgrep's file-type table, selecting `name` (`rust`, `py`, `ts`, …).
fn file_types(name: &str) -> Result<ignore::types::Types, ToolError> {
    let mut builder = ignore::types::TypesBuilder::new();
    builder.add_defaults();
    builder.select(name);
    let known = builder.definitions().iter().any(|d| d.name() == name);
    if !known {
        return Err(ToolError::InvalidArgs(format!(
            "unknown file type `{name}` (ripgrep's names, e.g. rust, py, js, ts, go, java, c, cpp, md)"
        )));
    }
    builder
        .build()
        .map_err(|e| ToolError::InvalidArgs(format!("file type `{name}`: {e}")))
}

enum Line {
    Text {
        number: u64,
        matched: bool,
        text: String,
    },
    Break,
}

/// Collects matching and context lines of one file.
struct Collect {
    first_only: bool,
    matches: u64,
    lines: Vec<Line>,
}

impl Collect {
    fn new(first_only: bool) -> Self {
        Self {
            first_only,
            matches: 0,
            lines: Vec::new(),
        }
    }

    fn push(&mut self, number: Option<u64>, matched: bool, bytes: &[u8]) {
        if self.lines.len() > MAX_LINES {
            return;
        }
        let text = String::from_utf8_lossy(bytes);
        self.lines.push(Line::Text {
            number: number.unwrap_or(0),
            matched,
            text: text.trim_end_matches(['\n', '\r']).to_owned(),
        });
    }
}

impl Sink for Collect {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        self.matches += 1;
        if self.first_only {
            return Ok(false);
        }
        self.push(mat.line_number(), true, mat.bytes());
        Ok(true)
    }

    fn context(&mut self, _: &Searcher, ctx: &SinkContext<'_>) -> Result<bool, Self::Error> {
        self.push(ctx.line_number(), false, ctx.bytes());
        Ok(true)
    }

    fn context_break(&mut self, _: &Searcher) -> Result<bool, Self::Error> {
        self.lines.push(Line::Break);
        Ok(true)
    }
}

#[cfg(test)]
#[path = "grep_tests.rs"]
mod tests;
