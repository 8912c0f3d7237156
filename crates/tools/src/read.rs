//! The `read` tool: a text file with `cat -n` style line numbers, a window
//! chosen by `offset`/`limit`, streamed so huge files are never loaded whole.
//! The file is opened through [`wright_sandbox::Beneath`] at the path the
//! shared resolver gives (see [`crate::paths`]).

use std::io::{BufRead, BufReader};

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Deserialize;
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};

use crate::output::{self, blocking, cut_line};
use crate::truncate::Keep;
use crate::{OutputLimits, Tool, ToolContext, ToolError, ToolOutput, args, editor, paths};

const DEFAULT_LIMIT: usize = 2000;
const MAX_LINE_CHARS: usize = 2000;
const SNIFF_BYTES: usize = 8192;
const NOTE_RESERVE: usize = 120;

/// Arguments of `read`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct ReadArgs {
    /// File path, absolute or relative to the working directory.
    file_path: String,
    /// 1-based line to start at.
    #[serde(default)]
    offset: Option<usize>,
    /// Number of lines to read (default 2000).
    #[serde(default)]
    limit: Option<usize>,
}

/// Reads a text file with line numbers.
#[derive(Debug, Default, Clone, Copy)]
pub struct ReadTool;

impl Tool for ReadTool {
    fn name(&self) -> &str {
        "Read"
    }

    fn spec(&self) -> ToolSpec {
        args::spec::<ReadArgs>(
            self.name(),
            "Read a text file. Lines are numbered like `cat -n`. Reads up to 2000 lines; \
             use offset/limit for more. Read a file before editing it.",
        )
    }

    fn kind(&self) -> ToolKind {
        ToolKind::ReadOnly
    }

    fn touches(&self, args: &serde_json::Value) -> Touches {
        Touches::read(args::text_arg(args, "file_path").unwrap_or_else(|| ".".to_owned()))
    }

    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let a = checked_args(args)?;
            let path = paths::resolve(ctx, &a.file_path)?;
            let beneath = paths::beneath(ctx);
            let limits = ctx.limits;
            let (p, b, args) = (path.clone(), beneath.clone(), a.clone());
            let from_disk = blocking(move || read_file(&b, &p, &args, &limits)).await?;
            let Some(editor) = ctx.editor.as_deref() else {
                return Ok(from_disk);
            };
            // Only after wright's own open succeeded: the editor is asked
            // about the file wright reached, never about another path.
            let p = path.clone();
            let disk = blocking(move || crate::paths::read_existing(&beneath, &p)).await?;
            let disk = disk.unwrap_or_default();
            match editor::unsaved_text(Some(editor), &path.real, &disk).await {
                Some(text) => {
                    let mut out = render(text.as_bytes(), &path.shown, &a, &limits)?;
                    out.content.push_str(&format!(
                        "[the editor has unsaved changes to {}: this is its text, not the file on disk]\n",
                        path.shown
                    ));
                    out.display.summary.push_str(" · unsaved editor text");
                    Ok(out)
                }
                None => Ok(from_disk),
            }
        })
    }
}

/// Parses the arguments; `offset` and `limit` count from 1.
pub(crate) fn checked_args(args: serde_json::Value) -> Result<ReadArgs, ToolError> {
    let a: ReadArgs = args::parse(args)?;
    if a.offset == Some(0) {
        return Err(ToolError::InvalidArgs("offset is 1-based".into()));
    }
    if a.limit == Some(0) {
        return Err(ToolError::InvalidArgs("limit must be at least 1".into()));
    }
    Ok(a)
}

fn read_file(
    beneath: &wright_sandbox::Beneath,
    path: &paths::ToolPath,
    a: &ReadArgs,
    limits: &OutputLimits,
) -> Result<ToolOutput, ToolError> {
    let shown = path.shown.as_str();
    let file = match beneath.open_read(&path.real) {
        Ok(f) => f,
        Err(e) if e.is_not_found() => {
            let mut msg = format!("File not found: {shown}");
            if let Some(s) = paths::similar_name(&path.real) {
                msg.push_str(&format!(". Did you mean {}?", s.display()));
            }
            return Err(ToolError::Failed(msg));
        }
        Err(e) => return Err(paths::open_failure("read", path, &e)),
    };
    let meta = file
        .metadata()
        .map_err(|e| ToolError::Failed(format!("Cannot read {shown}: {e}")))?;
    if meta.is_dir() {
        return Err(ToolError::Failed(format!(
            "{shown} is a directory; use the ls tool to list it"
        )));
    }
    if !meta.is_file() {
        // A device or FIFO could block or never end.
        return Err(ToolError::Failed(format!(
            "{shown} is not a regular file (a device, FIFO or socket); it cannot be read as text"
        )));
    }
    let mut reader = BufReader::with_capacity(64 * 1024, file);
    let head = reader
        .fill_buf()
        .map_err(|e| ToolError::Failed(format!("Cannot read {shown}: {e}")))?;
    let sniff = &head[..head.len().min(SNIFF_BYTES)];
    if content_inspector::inspect(sniff).is_binary() {
        return Err(ToolError::Failed(format!(
            "{shown} is a binary file ({} bytes); it cannot be shown as text",
            meta.len()
        )));
    }
    render(reader, shown, a, limits)
}

/// Numbers the lines of `reader` in the window `a` asks for.
fn render(
    mut reader: impl BufRead,
    shown: &str,
    a: &ReadArgs,
    limits: &OutputLimits,
) -> Result<ToolOutput, ToolError> {
    let offset = a.offset.unwrap_or(1);
    let limit = a
        .limit
        .unwrap_or(DEFAULT_LIMIT)
        .min(limits.max_lines.max(1));
    let mut out = String::new();
    let mut buf = Vec::new();
    let mut line_no = 0usize;
    let mut shown_lines = 0usize;
    let mut last_shown = 0usize;
    let mut stopped_by_bytes = false;
    loop {
        buf.clear();
        let n = reader
            .by_ref()
            .read_until(b'\n', &mut buf)
            .map_err(|e| ToolError::Failed(format!("Cannot read {shown}: {e}")))?;
        if n == 0 {
            break;
        }
        line_no += 1;
        if line_no < offset || shown_lines >= limit || stopped_by_bytes {
            continue;
        }
        let raw = String::from_utf8_lossy(&buf);
        let line = raw.trim_end_matches('\n').trim_end_matches('\r');
        let numbered = format!("{line_no:>6}\t{}\n", cut_line(line, MAX_LINE_CHARS));
        // Room is kept for the note, so the final truncation never eats it.
        if out.len() + numbered.len() + NOTE_RESERVE > limits.max_bytes && shown_lines > 0 {
            stopped_by_bytes = true;
            continue;
        }
        out.push_str(&numbered);
        shown_lines += 1;
        last_shown = line_no;
    }
    let total = line_no;
    if total == 0 {
        return Ok(done(format!("({shown} is empty)\n"), "empty".into()));
    }
    if offset > total {
        return Ok(done(
            format!("({shown} has {total} lines; offset {offset} is past the end)\n"),
            format!("{total} lines"),
        ));
    }
    let remaining = total - last_shown;
    if remaining > 0 {
        let why = if stopped_by_bytes {
            format!("; output capped at {} bytes", limits.max_bytes)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "[... {remaining} more lines{why}; use offset={} to continue]\n",
            last_shown + 1
        ));
    }
    let summary = format!("{shown_lines} lines");
    let finished = output::finish(&out, limits, Keep::Head, None);
    Ok(done(finished.content, summary))
}

fn done(content: String, summary: String) -> ToolOutput {
    ToolOutput {
        images: Vec::new(),
        content,
        display: ToolDisplay {
            summary,
            ..ToolDisplay::default()
        },
    }
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
