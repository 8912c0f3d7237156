//! The `glob` tool: find files by glob pattern, newest first, stopping at
//! the result cap.

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Deserialize;
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};

use crate::output::{self, blocking};
use crate::truncate::Keep;
use crate::walk::{self, NameGlob};
use crate::{Tool, ToolContext, ToolError, ToolOutput, args};

const MAX_RESULTS: usize = 200;

/// Arguments of `glob`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct GlobArgs {
    /// Glob such as `**/*.rs` or `src/*.ts`; without `/` it matches file names anywhere.
    pub(crate) pattern: String,
    /// Directory to search (default: working directory).
    #[serde(default)]
    path: Option<String>,
}

/// Finds files by pattern.
#[derive(Debug, Default, Clone, Copy)]
pub struct GlobTool;

impl Tool for GlobTool {
    fn name(&self) -> &str {
        "Glob"
    }

    fn spec(&self) -> ToolSpec {
        args::spec::<GlobArgs>(
            self.name(),
            "Find files by glob pattern, newest first. Honours .gitignore; skips hidden \
             files unless the pattern names them.",
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
            let a: GlobArgs = args::parse(args)?;
            let ctx = ctx.clone();
            blocking(move || glob(&a, &ctx)).await
        })
    }
}

fn glob(a: &GlobArgs, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
    let search = walk::search_root(ctx, a.path.as_deref())?;
    let root = search.real.clone();
    if !root.is_dir() {
        return Err(ToolError::Failed(format!(
            "{} is not a directory",
            search.shown(&root)
        )));
    }
    // An absolute pattern under the root is made relative to it.
    let root_prefix = format!("{}/", root.display());
    let pattern = a.pattern.strip_prefix(&root_prefix).unwrap_or(&a.pattern);
    let glob = NameGlob::new(pattern)?;
    let hidden = pattern.starts_with('.') || pattern.contains("/.");
    let keep = |rel: &std::path::Path| glob.is_match(rel);
    let visitor = || -> walk::Visitor<'_, ()> { Box::new(|_| Some(((), 1))) };
    let found = walk::search(&root, hidden, &keep, &visitor, MAX_RESULTS);
    if found.hits.is_empty() {
        return Ok(ToolOutput {
            images: Vec::new(),
            content: format!("No files match {pattern} in {}", search.shown(&root)),
            display: ToolDisplay {
                summary: "0 files".into(),
                ..ToolDisplay::default()
            },
        });
    }
    let mut text: String = found
        .hits
        .iter()
        .take(MAX_RESULTS)
        .map(|(p, ())| format!("{}\n", search.shown(p)))
        .collect();
    // The walk stops once more than the cap match: the total is unknown.
    let summary = if found.stopped {
        text.push_str(&format!(
            "[more than {MAX_RESULTS} files match; the search stopped there and shows \
             {MAX_RESULTS} of them, newest first: narrow the pattern or path]\n"
        ));
        format!("{MAX_RESULTS}+ files")
    } else {
        format!("{} files", found.hits.len())
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::{Duration, SystemTime};

    fn touch(path: &std::path::Path, age_secs: u64) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "x").unwrap();
        let t = SystemTime::now() - Duration::from_secs(age_secs);
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }

    #[tokio::test]
    async fn finds_newest_first_and_respects_gitignore() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        touch(&d.join("old.rs"), 1000);
        touch(&d.join("src/new.rs"), 10);
        touch(&d.join("target/gen.rs"), 5);
        touch(&d.join(".hidden/h.rs"), 5);
        touch(&d.join("notes.md"), 5);
        std::fs::write(d.join(".gitignore"), "target/\n").unwrap();
        let ctx = ToolContext::new(d, d.join(".spill"));
        let out = GlobTool
            .run(json!({"pattern": "**/*.rs"}), &ctx)
            .await
            .unwrap();
        assert_eq!(out.content, "src/new.rs\nold.rs\n");
        assert_eq!(out.display.summary, "2 files");
        let out = GlobTool
            .run(json!({"pattern": "*.rs", "path": "src"}), &ctx)
            .await
            .unwrap();
        assert_eq!(out.content, "src/new.rs\n");
        let out = GlobTool
            .run(json!({"pattern": ".hidden/*.rs"}), &ctx)
            .await
            .unwrap();
        assert_eq!(out.content, ".hidden/h.rs\n");
    }

    #[tokio::test]
    async fn caps_results_and_reports_none() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..210 {
            std::fs::write(dir.path().join(format!("f{i}.txt")), "").unwrap();
        }
        let ctx = ToolContext::new(dir.path(), dir.path().join(".spill"));
        let out = GlobTool
            .run(json!({"pattern": "*.txt"}), &ctx)
            .await
            .unwrap();
        // The walk stops past the cap, so the note cannot give a total.
        assert!(out.content.contains("more than 200 files match"));
        assert_eq!(out.content.lines().count(), 201);
        assert_eq!(out.display.summary, "200+ files");
        let out = GlobTool
            .run(json!({"pattern": "*.zig"}), &ctx)
            .await
            .unwrap();
        assert!(out.content.starts_with("No files match"));
    }

    #[tokio::test]
    async fn errors() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = ToolContext::new(dir.path(), dir.path().join(".spill"));
        let err = GlobTool.run(json!({}), &ctx).await.unwrap_err();
        assert!(matches!(err, ToolError::InvalidArgs(_)));
        let err = GlobTool
            .run(json!({"pattern": "a["}), &ctx)
            .await
            .unwrap_err();
        assert!(matches!(err, ToolError::InvalidArgs(_)));
        let err = GlobTool
            .run(json!({"pattern": "*", "path": "nope"}), &ctx)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("Path not found: nope"));
    }
}
