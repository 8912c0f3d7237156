//! The `edit` tool: replace an exact `old_string` with `new_string`,
//! preserving the file's BOM and line endings; matching rules live in
//! [`crate::edit_match`]. The file is read and replaced through
//! [`wright_sandbox::Beneath`] at the path resolved once (see
//! [`crate::paths`]), or through an attached editor (see [`crate::editor`]).

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Deserialize;
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};

use crate::edit_match::{self, MatchError, MatchKind};
use crate::output::blocking;
use crate::{Tool, ToolContext, ToolError, ToolOutput, args, diff, paths};

const BOM: &str = "\u{feff}";

/// Arguments of `edit`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct EditArgs {
    /// File path, absolute or relative to the working directory.
    file_path: String,
    /// Exact text to replace (empty creates a new file).
    old_string: String,
    /// Replacement text.
    new_string: String,
    /// Replace every occurrence instead of requiring a unique one.
    #[serde(default)]
    replace_all: Option<bool>,
}

/// Replaces text in a file.
#[derive(Debug, Default, Clone, Copy)]
pub struct EditTool;

impl Tool for EditTool {
    fn name(&self) -> &str {
        "Edit"
    }

    fn spec(&self) -> ToolSpec {
        args::spec::<EditArgs>(
            self.name(),
            "Replace old_string with new_string in a file. old_string must match the file \
             exactly (without Read's line-number prefix) and be unique; include surrounding \
             lines to make it unique, or set replace_all. An empty old_string creates a new file.",
        )
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Edit
    }

    fn touches(&self, args: &serde_json::Value) -> Touches {
        match args::text_arg(args, "file_path") {
            Some(path) => Touches::write(path),
            None => Touches::of(ToolKind::Edit),
        }
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
            paths::check_write(ctx, &path, &beneath)?;
            let mut base = crate::editor::base(ctx, &path, &beneath).await?;
            let bytes = std::mem::take(&mut base.bytes);
            let shown = path.clone();
            let (text, mut out) = blocking(move || edit_text(&shown, bytes, &a)).await?;
            base.write(&beneath, &path, text).await?;
            if base.unsaved {
                out.content.push_str(" (in the editor's unsaved text)");
            }
            Ok(out)
        })
    }
}

/// Parses the arguments and refuses an edit that changes nothing.
pub(crate) fn checked_args(args: serde_json::Value) -> Result<EditArgs, ToolError> {
    let a: EditArgs = args::parse(args)?;
    if a.old_string == a.new_string {
        return Err(ToolError::InvalidArgs(
            "old_string and new_string are identical; nothing to change".into(),
        ));
    }
    Ok(a)
}

/// The file's new text and the tool's output, from its current `bytes`
/// (`None`: the file does not exist).
fn edit_text(
    path: &paths::ToolPath,
    bytes: Option<Vec<u8>>,
    a: &EditArgs,
) -> Result<(String, ToolOutput), ToolError> {
    let shown = path.shown.as_str();
    if a.old_string.is_empty() {
        return create(path, bytes.as_deref(), &a.new_string);
    }
    let Some(bytes) = bytes else {
        let mut msg = format!("File not found: {shown}");
        if let Some(s) = paths::similar_name(&path.real) {
            msg.push_str(&format!(". Did you mean {}?", s.display()));
        }
        return Err(ToolError::Failed(msg));
    };
    if content_inspector::inspect(&bytes[..bytes.len().min(8192)]).is_binary() {
        return Err(ToolError::Failed(format!("{shown} is a binary file")));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| ToolError::Failed(format!("{shown} is not valid UTF-8 text")))?;
    let (bom, body) = match text.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => ("", text.as_str()),
    };
    let crlf = is_crlf(body);
    let body_lf = if crlf {
        body.replace("\r\n", "\n")
    } else {
        body.to_owned()
    };
    let old = a.old_string.replace("\r\n", "\n");
    let old = old.strip_prefix(BOM).unwrap_or(&old);
    let new = a.new_string.replace("\r\n", "\n");
    let replace_all = a.replace_all.unwrap_or(false);

    let applied = edit_match::apply(&body_lf, old, &new, replace_all).map_err(|e| match e {
        MatchError::NotUnique { count, kind } => {
            let how = match kind {
                MatchKind::Exact => "",
                MatchKind::Whitespace => " (ignoring whitespace differences)",
            };
            ToolError::Failed(format!(
                "Found {count} matches of old_string in {shown}{how}. Add surrounding lines \
                 to make it unique, or set replace_all to change every match."
            ))
        }
        MatchError::NoMatch { closest } => {
            let mut msg = format!("old_string was not found in {shown}.");
            match closest {
                Some(region) => msg.push_str(&format!(
                    " The most similar region is:\n{region}Copy the exact text from the file \
                     (without the line-number prefix) into old_string."
                )),
                None => msg.push_str(" Nothing similar either; read the file again."),
            }
            ToolError::Failed(msg)
        }
    })?;

    let new_body = if crlf {
        applied.text.replace('\n', "\r\n")
    } else {
        applied.text.clone()
    };
    let plural = if applied.count == 1 { "" } else { "s" };
    let mut content = format!(
        "Edited {shown}: replaced {} occurrence{plural}",
        applied.count
    );
    if applied.kind == MatchKind::Whitespace {
        content.push_str(" (matched after normalizing whitespace)");
    }
    let change = diff::change(shown, &body_lf, &applied.text);
    let out = ToolOutput {
        images: Vec::new(),
        content,
        display: ToolDisplay {
            summary: format!("+{} -{}", change.added, change.removed),
            diff: Some(change.text),
            ..ToolDisplay::default()
        },
    };
    Ok((format!("{bom}{new_body}"), out))
}

/// CRLF when most line breaks are CRLF; mixed files are then written all-CRLF.
fn is_crlf(text: &str) -> bool {
    let crlf = text.matches("\r\n").count();
    let lf = text.matches('\n').count();
    crlf > 0 && crlf * 2 >= lf
}

fn create(
    path: &paths::ToolPath,
    existing: Option<&[u8]>,
    content: &str,
) -> Result<(String, ToolOutput), ToolError> {
    let shown = path.shown.as_str();
    if existing.is_some_and(|b| !b.iter().all(u8::is_ascii_whitespace)) {
        return Err(ToolError::Failed(format!(
            "{shown} already exists and is not empty; give the text to replace in old_string, \
             or use write to overwrite the whole file"
        )));
    }
    let out = ToolOutput {
        images: Vec::new(),
        content: format!("Created {shown} ({} lines)", content.lines().count()),
        display: ToolDisplay {
            summary: format!("+{}", content.lines().count()),
            diff: Some(diff::change(shown, "", content).text),
            ..ToolDisplay::default()
        },
    };
    Ok((content.to_owned(), out))
}

#[cfg(test)]
#[path = "edit_tests.rs"]
mod tests;
