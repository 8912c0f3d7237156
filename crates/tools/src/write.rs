//! The `write` tool: create or overwrite a file, creating parent
//! directories, and show the change as a unified diff. The path is resolved
//! once and the file is read and replaced through [`wright_sandbox::Beneath`]
//! (see [`crate::paths`]), or through an attached editor (see
//! [`crate::editor`]).

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Deserialize;
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};

use crate::{Tool, ToolContext, ToolError, ToolOutput, args, diff, paths};

/// Arguments of `write`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct WriteArgs {
    /// File path, absolute or relative to the working directory.
    file_path: String,
    /// The complete new content of the file.
    content: String,
}

/// Creates or overwrites a file.
#[derive(Debug, Default, Clone, Copy)]
pub struct WriteTool;

impl Tool for WriteTool {
    fn name(&self) -> &str {
        "Write"
    }

    fn spec(&self) -> ToolSpec {
        args::spec::<WriteArgs>(
            self.name(),
            "Create a file or overwrite it with new content; parent directories are created. \
             Prefer Edit for changing part of an existing file.",
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
            let a: WriteArgs = args::parse(args)?;
            let path = paths::resolve(ctx, &a.file_path)?;
            let beneath = paths::beneath(ctx);
            paths::check_write(ctx, &path, &beneath)?;
            let mut base = crate::editor::base(ctx, &path, &beneath).await?;
            let old = std::mem::take(&mut base.bytes);
            let mut out = output(&path, old, &a.content);
            base.write(&beneath, &path, a.content).await?;
            if base.unsaved {
                out.content
                    .push_str(" (replacing the editor's unsaved text)");
            }
            Ok(out)
        })
    }
}

/// What the tool reports for replacing `old` (`None`: a new file).
fn output(path: &paths::ToolPath, old: Option<Vec<u8>>, content: &str) -> ToolOutput {
    let shown = path.shown.as_str();
    let old = old.map(|b| String::from_utf8_lossy(&b).into_owned());
    let lines = content.lines().count();
    let old_text = old.as_deref().unwrap_or("");
    let change = diff::change(shown, old_text, content);
    let message = match old {
        None => format!("Created {shown} ({lines} lines)"),
        Some(_) => format!("Wrote {lines} lines to {shown}"),
    };
    ToolOutput {
        images: Vec::new(),
        content: message,
        display: ToolDisplay {
            summary: format!("+{} -{}", change.added, change.removed),
            diff: Some(change.text),
            ..ToolDisplay::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn creates_with_parents_then_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = ToolContext::new(dir.path(), dir.path().join(".spill"));
        let out = WriteTool
            .run(json!({"file_path": "a/b/c.txt", "content": "x\ny\n"}), &ctx)
            .await
            .unwrap();
        assert_eq!(out.content, "Created a/b/c.txt (2 lines)");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a/b/c.txt")).unwrap(),
            "x\ny\n"
        );
        let out = WriteTool
            .run(json!({"file_path": "a/b/c.txt", "content": "x\nz\n"}), &ctx)
            .await
            .unwrap();
        assert_eq!(out.content, "Wrote 2 lines to a/b/c.txt");
        let d = out.display.diff.unwrap();
        assert!(d.contains("-y\n") && d.contains("+z\n"), "{d}");
        assert_eq!(out.display.summary, "+1 -1");
    }

    #[tokio::test]
    async fn refuses_directory_and_bad_args() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = ToolContext::new(dir.path(), dir.path().join(".spill"));
        let err = WriteTool
            .run(json!({"file_path": ".", "content": ""}), &ctx)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("is a directory"));
        let err = WriteTool
            .run(json!({"file_path": "x"}), &ctx)
            .await
            .unwrap_err();
        assert!(matches!(err, ToolError::InvalidArgs(m) if m.contains("content")));
    }
}
