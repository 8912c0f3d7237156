//! The `write` tool: create or overwrite a file, creating parent
//! directories, and show the change as a unified diff.

use std::path::Path;

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Deserialize;
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec};

use crate::output::blocking;
use crate::{Tool, ToolContext, ToolError, ToolOutput, args, diff, paths};

/// Arguments of `write`.
#[derive(Debug, Deserialize, JsonSchema)]
struct WriteArgs {
    /// File path, absolute or relative to the working directory.
    path: String,
    /// The complete new content of the file.
    content: String,
}

/// Creates or overwrites a file.
#[derive(Debug, Default, Clone, Copy)]
pub struct WriteTool;

impl Tool for WriteTool {
    fn name(&self) -> &'static str {
        "write"
    }

    fn spec(&self) -> ToolSpec {
        args::spec::<WriteArgs>(
            self.name(),
            "Create a file or overwrite it with new content; parent directories are created. \
             Prefer edit for changing part of an existing file.",
        )
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Edit
    }

    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let a: WriteArgs = args::parse(args)?;
            let path = paths::resolve(&ctx.cwd, &a.path);
            let shown = paths::display(&ctx.cwd, &path);
            blocking(move || write_file(&path, &shown, &a.content)).await
        })
    }
}

fn write_file(path: &Path, shown: &str, content: &str) -> Result<ToolOutput, ToolError> {
    if path.is_dir() {
        return Err(ToolError::Failed(format!("{shown} is a directory")));
    }
    let old = match std::fs::read(path) {
        Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(ToolError::Failed(format!("Cannot read {shown}: {e}"))),
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| ToolError::Failed(format!("Cannot create {}: {e}", parent.display())))?;
    }
    std::fs::write(path, content)
        .map_err(|e| ToolError::Failed(format!("Cannot write {shown}: {e}")))?;
    let lines = content.lines().count();
    let old_text = old.as_deref().unwrap_or("");
    let (added, removed) = diff::stats(old_text, content);
    let message = match old {
        None => format!("Created {shown} ({lines} lines)"),
        Some(_) => format!("Wrote {lines} lines to {shown}"),
    };
    Ok(ToolOutput {
        content: message,
        display: ToolDisplay {
            summary: format!("+{added} -{removed}"),
            diff: Some(diff::unified(shown, old_text, content)),
            ..ToolDisplay::default()
        },
    })
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
            .run(json!({"path": "a/b/c.txt", "content": "x\ny\n"}), &ctx)
            .await
            .unwrap();
        assert_eq!(out.content, "Created a/b/c.txt (2 lines)");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a/b/c.txt")).unwrap(),
            "x\ny\n"
        );
        let out = WriteTool
            .run(json!({"path": "a/b/c.txt", "content": "x\nz\n"}), &ctx)
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
            .run(json!({"path": ".", "content": ""}), &ctx)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("is a directory"));
        let err = WriteTool.run(json!({"path": "x"}), &ctx).await.unwrap_err();
        assert!(matches!(err, ToolError::InvalidArgs(m) if m.contains("content")));
    }
}
