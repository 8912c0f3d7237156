//! The `ls` tool: list one directory, directories marked with a trailing `/`.

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Deserialize;
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};

use crate::output::{self, blocking};
use crate::truncate::Keep;
use crate::{Tool, ToolContext, ToolError, ToolOutput, args, paths};

const MAX_ENTRIES: usize = 500;

/// Arguments of `ls`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct LsArgs {
    /// Directory to list (default: working directory).
    #[serde(default)]
    path: Option<String>,
}

/// Lists a directory.
#[derive(Debug, Default, Clone, Copy)]
pub struct LsTool;

impl Tool for LsTool {
    fn name(&self) -> &str {
        "LS"
    }

    fn spec(&self) -> ToolSpec {
        args::spec::<LsArgs>(
            self.name(),
            "List a directory's entries, sorted; directories end with `/`.",
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
            let a: LsArgs = args::parse(args)?;
            let ctx = ctx.clone();
            blocking(move || ls(&a, &ctx)).await
        })
    }
}

fn ls(a: &LsArgs, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
    let target = paths::resolve(ctx, a.path.as_deref().unwrap_or("."))?;
    let (dir, shown) = (target.real, target.shown);
    if dir.is_file() {
        return Err(ToolError::Failed(format!(
            "{shown} is a file; use the Read tool to see it"
        )));
    }
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut msg = format!("Directory not found: {shown}");
            if let Some(s) = paths::similar_name(&dir) {
                msg.push_str(&format!(". Did you mean {}?", s.display()));
            }
            return Err(ToolError::Failed(msg));
        }
        Err(e) => return Err(ToolError::Failed(format!("Cannot list {shown}: {e}"))),
    };
    let mut names: Vec<String> = entries
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            // Follows symlinks, so a link to a directory is shown as one.
            if e.path().is_dir() {
                format!("{name}/")
            } else {
                name
            }
        })
        .collect();
    names.sort();
    let total = names.len();
    if total == 0 {
        return Ok(ToolOutput {
            images: Vec::new(),
            content: format!("({shown} is empty)"),
            display: ToolDisplay {
                summary: "0 entries".into(),
                ..ToolDisplay::default()
            },
        });
    }
    let mut text: String = names
        .iter()
        .take(MAX_ENTRIES)
        .map(|n| format!("{n}\n"))
        .collect();
    if total > MAX_ENTRIES {
        text.push_str(&format!(
            "[... {} more entries not shown; use glob to narrow]\n",
            total - MAX_ENTRIES
        ));
    }
    Ok(ToolOutput {
        images: Vec::new(),
        content: output::finish(&text, &ctx.limits, Keep::Head, None).content,
        display: ToolDisplay {
            summary: format!("{total} entries"),
            ..ToolDisplay::default()
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn lists_sorted_with_dir_marks() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("b.txt"), "").unwrap();
        std::fs::write(dir.path().join(".env"), "").unwrap();
        let ctx = ToolContext::new(dir.path(), dir.path().join(".spill"));
        let out = LsTool.run(json!({}), &ctx).await.unwrap();
        assert_eq!(out.content, ".env\nb.txt\nsub/\n");
        let out = LsTool.run(json!({"path": "sub"}), &ctx).await.unwrap();
        assert_eq!(out.content, "(sub is empty)");
    }

    #[tokio::test]
    async fn caps_and_errors() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..505 {
            std::fs::write(dir.path().join(format!("f{i:03}")), "").unwrap();
        }
        let ctx = ToolContext::new(dir.path(), dir.path().join(".spill"));
        let out = LsTool.run(json!({"path": "."}), &ctx).await.unwrap();
        assert!(out.content.contains("5 more entries not shown"));
        assert_eq!(out.display.summary, "505 entries");
        let err = LsTool.run(json!({"path": "f001"}), &ctx).await.unwrap_err();
        assert!(err.to_string().contains("use the Read tool"));
        let err = LsTool
            .run(json!({"path": "f1000"}), &ctx)
            .await
            .unwrap_err();
        assert!(err.to_string().starts_with("Directory not found: f1000"));
        let err = LsTool.run(json!({"path": 5}), &ctx).await.unwrap_err();
        assert!(matches!(err, ToolError::InvalidArgs(_)));
    }
}
