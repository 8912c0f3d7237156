//! One MCP server tool as a model tool: [`McpCallTool`] runs a call through
//! the session's [`McpManager`] (timeout, interrupt, progress lines) and
//! turns the server's result into a tool result: text truncated and
//! spilled like any other tool's output, images kept as image blocks, and
//! `isError` or a failed call as an error the model sees.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use wright_mcp::{McpError, McpManager, McpProgress, McpTool, McpToolResult, ProgressSink};
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};
use wright_tools::output;
use wright_tools::truncate::Keep;
use wright_tools::{Tool, ToolContext, ToolError, ToolImage, ToolOutput};

use crate::options::HintTrust;

/// A server tool under its exposed name (`mcp__<server>__<tool>`).
pub(crate) struct McpCallTool {
    manager: Arc<McpManager>,
    tool: McpTool,
    kind: ToolKind,
    timeout: Duration,
}

impl McpCallTool {
    pub(crate) fn new(
        manager: Arc<McpManager>,
        tool: McpTool,
        hints: HintTrust,
        timeout: Duration,
    ) -> Self {
        let kind = kind_of(&tool, hints);
        Self {
            manager,
            tool,
            kind,
            timeout,
        }
    }
}

/// What the permission check treats the tool as. A server's hints are its
/// own claims, so they count only when the user said to believe them.
pub(crate) fn kind_of(tool: &McpTool, hints: HintTrust) -> ToolKind {
    let read_only = tool.hints.read_only == Some(true) && tool.hints.destructive != Some(true);
    match hints {
        HintTrust::Trust if read_only => ToolKind::ReadOnly,
        HintTrust::Trust | HintTrust::Ignore => ToolKind::Other,
    }
}

/// The spec the model gets for a server tool: the server's description
/// (with its title when the description does not start with it) and its
/// schema.
pub fn spec_of(tool: &McpTool) -> ToolSpec {
    let description = match (&tool.title, &tool.description) {
        (Some(title), Some(d)) if !d.starts_with(title.as_str()) => format!("{title}: {d}"),
        (_, Some(d)) => d.clone(),
        (Some(title), None) => title.clone(),
        (None, None) => format!("Tool `{}` of MCP server `{}`.", tool.tool, tool.server),
    };
    ToolSpec {
        name: tool.name.clone(),
        description,
        input_schema: tool.input_schema.clone().into(),
    }
}

impl Tool for McpCallTool {
    fn name(&self) -> &str {
        &self.tool.name
    }

    fn spec(&self) -> ToolSpec {
        spec_of(&self.tool)
    }

    fn kind(&self) -> ToolKind {
        self.kind
    }

    fn touches(&self, _args: &serde_json::Value) -> Touches {
        // A server's tool says nothing wright can check; its effects are
        // unknown unless the user believes its read-only annotation.
        Touches::of(self.kind)
    }

    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let started = Instant::now();
            // Progress goes to the front end as output lines of the call.
            let progress = ctx.output.clone().map(|out| -> ProgressSink {
                Arc::new(move |p: McpProgress| out(&progress_line(&p)))
            });
            let result = self
                .manager
                .call(&self.tool.name, args, self.timeout, &ctx.cancel, progress)
                .await;
            let result = match result {
                Ok(result) => result,
                Err(McpError::Cancelled { .. }) => return Err(ToolError::Cancelled),
                Err(e) => return Err(ToolError::Failed(e.to_string())),
            };
            finish_result(result, ctx, started, &self.tool.server)
        })
    }
}

/// One progress notification as a line: `[progress 3/10] message`.
fn progress_line(p: &McpProgress) -> String {
    let amount = match p.total {
        Some(total) if total > 0.0 => format!("{}/{}", p.progress, total),
        _ => format!("{}", p.progress),
    };
    match p.message.as_deref().map(str::trim) {
        Some(m) if !m.is_empty() => format!("[progress {amount}] {m}\n"),
        _ => format!("[progress {amount}]\n"),
    }
}

/// A server's answer as a tool result (an `isError` answer as a failure
/// with the server's text, so the model sees it as one).
pub(crate) fn finish_result(
    result: McpToolResult,
    ctx: &ToolContext,
    started: Instant,
    server: &str,
) -> Result<ToolOutput, ToolError> {
    let spill_prefix = format!("mcp-{server}");
    let finished = output::finish(
        &result.text,
        &ctx.limits,
        Keep::Head,
        Some((&ctx.spill_dir, &spill_prefix)),
    );
    if result.is_error {
        let text = if finished.content.trim().is_empty() {
            format!("The MCP server `{server}` reported an error without a message.")
        } else {
            finished.content
        };
        return Err(ToolError::Failed(text));
    }
    let images: Vec<ToolImage> = result
        .images
        .into_iter()
        .map(|i| ToolImage {
            media_type: i.mime_type,
            data: i.data,
        })
        .collect();
    let mut content = finished.content;
    if content.trim().is_empty() {
        content = if images.is_empty() {
            "(the tool returned no content)".to_owned()
        } else {
            String::new()
        };
    }
    let lines = content.lines().count();
    let mut summary = format!("{lines} lines");
    if !images.is_empty() {
        summary.push_str(&format!(", {} image(s)", images.len()));
    }
    Ok(ToolOutput {
        content,
        images,
        display: ToolDisplay {
            summary,
            full_output_path: finished.spill_path.map(|p| p.display().to_string()),
            duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            ..ToolDisplay::default()
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wright_mcp::{McpImage, ToolHints};

    fn tool(read_only: Option<bool>, destructive: Option<bool>) -> McpTool {
        McpTool {
            name: "mcp__s__t".into(),
            server: "s".into(),
            tool: "t".into(),
            title: Some("Title".into()),
            description: Some("Does t.".into()),
            input_schema: serde_json::json!({"type": "object", "properties": {}}),
            hints: ToolHints {
                read_only,
                destructive,
                ..ToolHints::default()
            },
        }
    }

    #[test]
    fn hints_count_only_when_trusted() {
        let ro = tool(Some(true), None);
        assert_eq!(kind_of(&ro, HintTrust::Ignore), ToolKind::Other);
        assert_eq!(kind_of(&ro, HintTrust::Trust), ToolKind::ReadOnly);
        let both = tool(Some(true), Some(true));
        assert_eq!(kind_of(&both, HintTrust::Trust), ToolKind::Other);
        assert_eq!(
            kind_of(&tool(None, None), HintTrust::Trust),
            ToolKind::Other
        );
    }

    #[test]
    fn spec_joins_title_and_description() {
        let spec = spec_of(&tool(None, None));
        assert_eq!(spec.name, "mcp__s__t");
        assert_eq!(spec.description, "Title: Does t.");
        let mut bare = tool(None, None);
        bare.title = None;
        bare.description = None;
        assert!(spec_of(&bare).description.contains("MCP server `s`"));
    }

    #[test]
    fn results_become_outputs() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = ToolContext::new(dir.path(), dir.path().join("spill"));
        let ok = McpToolResult {
            text: "hello".into(),
            images: vec![McpImage {
                mime_type: "image/png".into(),
                data: "AAAA".into(),
            }],
            is_error: false,
        };
        let out = finish_result(ok, &ctx, Instant::now(), "s").unwrap();
        assert_eq!(out.content, "hello");
        assert_eq!(out.images.len(), 1);
        assert_eq!(out.images[0].media_type, "image/png");
        assert!(out.display.summary.contains("1 image"));

        let err = finish_result(McpToolResult::error("boom"), &ctx, Instant::now(), "s");
        assert!(matches!(err, Err(ToolError::Failed(m)) if m == "boom"));
        let empty = finish_result(McpToolResult::error(""), &ctx, Instant::now(), "s");
        assert!(matches!(empty, Err(ToolError::Failed(m)) if m.contains("without a message")));

        let nothing = McpToolResult::default();
        let out = finish_result(nothing, &ctx, Instant::now(), "s").unwrap();
        assert!(out.content.contains("no content"));
    }

    #[test]
    fn progress_lines() {
        let p = |progress, total, message: Option<&str>| McpProgress {
            progress,
            total,
            message: message.map(str::to_owned),
        };
        assert_eq!(
            progress_line(&p(3.0, Some(10.0), Some("copying"))),
            "[progress 3/10] copying\n"
        );
        assert_eq!(progress_line(&p(0.5, None, None)), "[progress 0.5]\n");
        assert_eq!(
            progress_line(&p(1.0, Some(0.0), Some("  "))),
            "[progress 1]\n"
        );
    }

    #[test]
    fn large_results_are_spilled() {
        let dir = tempfile::tempdir().unwrap();
        let mut ctx = ToolContext::new(dir.path(), dir.path().join("spill"));
        ctx.limits.max_lines = 10;
        let text: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let result = McpToolResult {
            text: text.clone(),
            ..McpToolResult::default()
        };
        let out = finish_result(result, &ctx, Instant::now(), "s").unwrap();
        let spilled = out.display.full_output_path.unwrap();
        assert_eq!(std::fs::read_to_string(spilled).unwrap(), text);
        assert!(out.content.lines().count() < 20);
    }
}
