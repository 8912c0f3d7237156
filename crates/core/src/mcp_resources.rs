//! MCP resources for the model: the `ListMcpResources` and
//! `ReadMcpResource` tools, and `@server:uri` mentions in a prompt, which
//! attach the resource's content to the prompt the way `@file` mentions do
//! in other agents.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;
use wright_mcp::{McpManager, McpToolResult};
use wright_protocol::{ContentBlock, ToolDisplay, ToolKind, ToolSpec, Touches};
use wright_tools::{Tool, ToolContext, ToolError, ToolOutput};

use crate::mcp_call::finish_result;

/// The listing tool's name.
pub(crate) const LIST: &str = "ListMcpResources";
/// The reading tool's name.
pub(crate) const READ: &str = "ReadMcpResource";
/// Claude Code's names for the same tools, accepted in calls.
pub(crate) const LIST_ALIAS: &str = "ListMcpResourcesTool";
/// See [`LIST_ALIAS`].
pub(crate) const READ_ALIAS: &str = "ReadMcpResourceTool";

/// The two tools' specs.
pub(crate) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: LIST.to_owned(),
            description: "Lists the resources (files, records, documents) that the connected MCP \
                          servers offer, with each one's server and URI. Give `server` to list \
                          one server's only."
                .to_owned(),
            input_schema: serde_json::json!({
                "type": "object",
                "properties": {
                    "server": {"type": "string", "description": "Only this server's resources"}
                }
            })
            .into(),
        },
        ToolSpec {
            name: READ.to_owned(),
            description: "Reads one resource of an MCP server by its URI (as listed by \
                          ListMcpResources)."
                .to_owned(),
            input_schema: serde_json::json!({
                "type": "object",
                "properties": {
                    "server": {"type": "string", "description": "The server's name"},
                    "uri": {"type": "string", "description": "The resource's URI"}
                },
                "required": ["server", "uri"]
            })
            .into(),
        },
    ]
}

/// Lists resources of one or all servers.
pub(crate) struct ListResourcesTool {
    manager: Arc<McpManager>,
    timeout: Duration,
}

impl ListResourcesTool {
    pub(crate) fn new(manager: Arc<McpManager>, timeout: Duration) -> Self {
        Self { manager, timeout }
    }
}

#[derive(serde::Deserialize)]
struct ListArgs {
    #[serde(default)]
    server: Option<String>,
}

impl Tool for ListResourcesTool {
    fn name(&self) -> &str {
        LIST
    }

    fn spec(&self) -> ToolSpec {
        specs().swap_remove(0)
    }

    fn kind(&self) -> ToolKind {
        ToolKind::ReadOnly
    }

    fn touches(&self, _args: &serde_json::Value) -> Touches {
        Touches::of(ToolKind::ReadOnly)
    }

    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let args: ListArgs = wright_tools::parse_args(args)?;
            let resources = self
                .manager
                .resources(args.server.as_deref(), self.timeout, &ctx.cancel)
                .await
                .map_err(|e| ToolError::Failed(e.to_string()))?;
            let mut content = String::new();
            for r in &resources {
                content.push_str(&format!("{}: {}", r.server, r.uri));
                let name = r.title.as_deref().unwrap_or(&r.name);
                if !name.is_empty() {
                    content.push_str(&format!(" ({name})"));
                }
                if let Some(mime) = &r.mime_type {
                    content.push_str(&format!(" [{mime}]"));
                }
                if let Some(d) = r.description.as_deref().and_then(|d| d.lines().next()) {
                    content.push_str(&format!(" - {d}"));
                }
                content.push('\n');
            }
            if resources.is_empty() {
                content = "No MCP server offers resources.".to_owned();
            }
            let output = wright_tools::output::finish(
                &content,
                &ctx.limits,
                wright_tools::truncate::Keep::Head,
                None,
            );
            Ok(ToolOutput {
                content: output.content,
                display: ToolDisplay {
                    summary: format!("{} resources", resources.len()),
                    ..ToolDisplay::default()
                },
                ..ToolOutput::default()
            })
        })
    }
}

/// Reads one resource.
pub(crate) struct ReadResourceTool {
    manager: Arc<McpManager>,
    timeout: Duration,
}

impl ReadResourceTool {
    pub(crate) fn new(manager: Arc<McpManager>, timeout: Duration) -> Self {
        Self { manager, timeout }
    }
}

#[derive(serde::Deserialize)]
struct ReadArgs {
    server: String,
    uri: String,
}

impl Tool for ReadResourceTool {
    fn name(&self) -> &str {
        READ
    }

    fn spec(&self) -> ToolSpec {
        specs().swap_remove(1)
    }

    fn kind(&self) -> ToolKind {
        ToolKind::ReadOnly
    }

    fn touches(&self, _args: &serde_json::Value) -> Touches {
        Touches::of(ToolKind::ReadOnly)
    }

    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let args: ReadArgs = wright_tools::parse_args(args)?;
            let started = Instant::now();
            let result = self
                .manager
                .read_resource(&args.server, &args.uri, self.timeout, &ctx.cancel)
                .await
                .map_err(|e| ToolError::Failed(e.to_string()))?;
            finish_result(result, ctx, started, &args.server)
        })
    }
}

/// A `@server:uri` mention in a prompt.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Mention {
    pub(crate) server: String,
    pub(crate) uri: String,
}

/// The `@server:uri` mentions of `text` that name one of `servers`, in
/// order, without repeats. A mention is a word that starts with `@`;
/// trailing punctuation (`.`, `,`, `)`…) is not part of the URI.
pub(crate) fn mentions(text: &str, servers: &[String]) -> Vec<Mention> {
    let mut found: Vec<Mention> = Vec::new();
    for word in text.split_whitespace() {
        let Some(rest) = word.strip_prefix('@') else {
            continue;
        };
        let Some((server, uri)) = rest.split_once(':') else {
            continue;
        };
        let uri = uri.trim_end_matches(['.', ',', ';', ')', ']', '!', '?', '"', '\'']);
        if uri.is_empty() || !servers.iter().any(|s| s == server) {
            continue;
        }
        let mention = Mention {
            server: server.to_owned(),
            uri: uri.to_owned(),
        };
        if !found.contains(&mention) {
            found.push(mention);
        }
    }
    found
}

/// One attached resource's blocks: its text inside a `<mcp-resource>`
/// element and its images; or, when it cannot be read, why, with a block
/// saying so (the model still learns the mention went nowhere).
pub(crate) type Attached = Result<Vec<ContentBlock>, (String, Vec<ContentBlock>)>;

/// The blocks that attach each mentioned resource to a prompt, in order.
pub(crate) async fn attach(
    manager: &McpManager,
    found: &[Mention],
    timeout: Duration,
    cancel: &CancellationToken,
) -> Vec<Attached> {
    let mut all = Vec::new();
    for m in found {
        let element = |body: &str| ContentBlock::Text {
            text: format!(
                "<mcp-resource server=\"{}\" uri=\"{}\">\n{body}\n</mcp-resource>",
                m.server, m.uri
            ),
        };
        let result = manager
            .read_resource(&m.server, &m.uri, timeout, cancel)
            .await
            .unwrap_or_else(|e| McpToolResult::error(e.to_string()));
        if result.is_error {
            let body = format!("(could not be read: {})", result.text);
            all.push(Err((result.text, vec![element(&body)])));
            continue;
        }
        let mut blocks = vec![element(&result.text)];
        blocks.extend(result.images.into_iter().map(|i| ContentBlock::Image {
            media_type: i.mime_type,
            data: i.data,
        }));
        all.push(Ok(blocks));
    }
    all
}

/// The prompt with the MCP resources its `@server:uri` mentions name
/// attached after the text.
pub(crate) async fn attach_mentions(
    ctx: &crate::context::TurnContext,
    mut prompt: wright_protocol::Message,
    cancel: &CancellationToken,
) -> wright_protocol::Message {
    let Some(mcp) = ctx.tools.mcp() else {
        return prompt;
    };
    let Some(ContentBlock::Text { text }) = prompt.content.first() else {
        return prompt;
    };
    let found = mentions(text, &mcp.manager.server_names());
    if found.is_empty() {
        return prompt;
    }
    mcp.manager.wait_started(mcp.startup_timeout).await;
    let blocks = attach(&mcp.manager, &found, mcp.tool_timeout, cancel).await;
    for (m, read) in found.iter().zip(&blocks) {
        match read {
            Ok(_) => ctx
                .emitter
                .notice(format!("Attached MCP resource {}:{}", m.server, m.uri)),
            Err((why, _)) => ctx.emitter.warning(format!(
                "Could not attach MCP resource {}:{}: {why}",
                m.server, m.uri
            )),
        }
    }
    prompt.content.extend(
        blocks
            .into_iter()
            .flat_map(|r| r.unwrap_or_else(|(_, b)| b)),
    );
    prompt
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_name_known_servers_only() {
        let servers = vec!["docs".to_owned(), "db".to_owned()];
        let text = "see @docs:file:///a/b.md, and @db:table://users. Not @x:y, not a@docs:z, \
                    not @docs: alone, twice @docs:file:///a/b.md";
        assert_eq!(
            mentions(text, &servers),
            [
                Mention {
                    server: "docs".into(),
                    uri: "file:///a/b.md".into()
                },
                Mention {
                    server: "db".into(),
                    uri: "table://users".into()
                },
            ]
        );
        assert!(mentions("@src/main.rs", &servers).is_empty());
    }

    #[test]
    fn specs_are_objects() {
        for spec in specs() {
            assert_eq!(spec.input_schema["type"], "object");
        }
    }
}
