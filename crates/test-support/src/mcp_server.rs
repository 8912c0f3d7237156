//! The MCP test server behind the `wright-mcp-test-server` binary, built on
//! rmcp's server side. One tool per result kind and failure mode the client
//! must handle: `echo` (text), `image` (a 1×1 PNG), `structured`
//! (`structuredContent` only), `fail` (`isError`), `slow` (sleeps; records a
//! cancellation), `crash` (exits mid-call), `env` (whether a variable is
//! set), `spawn_sleeper` (leaves a grandchild for group-kill tests),
//! `add_tool` / `add_prompt` (register one and send `list_changed`),
//! `progress` (three progress notifications, then the answer), and with
//! `--many N` the catalogue tools of [`many`]. Resources and prompts live in
//! [`content`]; the `initialize` result carries [`INSTRUCTIONS`].
//! Served on stdio ([`serve_stdio`], the binary) or on loopback streamable
//! HTTP in the test process ([`HttpTestServer`]).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    GetPromptRequestParams, GetPromptResponse, ListPromptsResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};

pub mod content;
pub mod many;

/// The `instructions` of the test server's `initialize` result.
pub const INSTRUCTIONS: &str = "Use echo to repeat text; the readme is test://readme.";

/// A 1×1 PNG, base64.
pub const TINY_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/// The test server; clones share the tools and prompts added at run time.
#[derive(Clone, Default)]
pub struct TestServer {
    added: Arc<Mutex<Vec<String>>>,
    added_prompts: Arc<Mutex<Vec<String>>>,
    /// How many catalogue tools ([`many`]) to offer.
    many: usize,
    /// Advertise tools only (no resources, prompts or instructions).
    tools_only: bool,
}

fn schema(properties: Value) -> Map<String, Value> {
    match json!({"type": "object", "properties": properties}) {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn text(s: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(s)])
}

fn arg_str(args: &Map<String, Value>, key: &str) -> String {
    args.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

impl TestServer {
    /// A server with `many` extra catalogue tools.
    pub fn with_many(many: usize) -> Self {
        Self {
            many,
            ..Self::default()
        }
    }

    /// This server advertising tools only, like most real ones.
    pub fn tools_only(self) -> Self {
        Self {
            tools_only: true,
            ..self
        }
    }

    fn prompts_added(&self) -> Vec<String> {
        self.added_prompts
            .lock()
            .map(|a| a.clone())
            .unwrap_or_default()
    }

    fn tools(&self) -> Vec<Tool> {
        let mut tools = vec![
            Tool::new(
                "echo",
                "Echoes its text",
                schema(json!({"text": {"type": "string"}})),
            )
            .with_annotations(ToolAnnotations::new().read_only(true)),
            Tool::new("image", "Returns a tiny PNG", schema(json!({}))),
            Tool::new(
                "structured",
                "Returns structuredContent only",
                schema(json!({})),
            ),
            Tool::new("fail", "Returns isError", schema(json!({}))),
            Tool::new(
                "slow",
                "Sleeps ms milliseconds; writes 'cancelled' to mark if cancelled",
                schema(json!({"ms": {"type": "integer"}, "mark": {"type": "string"}})),
            ),
            Tool::new("crash", "Exits the process mid-call", schema(json!({}))),
            Tool::new(
                "env",
                "Says whether an environment variable is set",
                schema(json!({"name": {"type": "string"}})),
            ),
            Tool::new(
                "spawn_sleeper",
                "Starts a `sleep` child (a grandchild of the client) and returns its pid",
                schema(json!({})),
            ),
            Tool::new(
                "add_tool",
                "Registers a tool and sends tools/list_changed",
                schema(json!({"name": {"type": "string"}})),
            ),
            Tool::new(
                "add_prompt",
                "Registers a prompt and sends prompts/list_changed",
                schema(json!({"name": {"type": "string"}})),
            ),
            Tool::new(
                "progress",
                "Sends three progress notifications, then answers",
                schema(json!({})),
            ),
            Tool::new(
                "approve",
                "A --permission-prompt-tool: allows any call whose input does not mention 'forbidden'",
                schema(json!({"tool_name": {"type": "string"}, "input": {"type": "object"}})),
            ),
        ];
        tools.extend((0..self.many).map(many::tool));
        if let Ok(added) = self.added.lock() {
            for name in added.iter() {
                tools.push(Tool::new(
                    name.clone(),
                    "Added at run time",
                    schema(json!({})),
                ));
            }
        }
        tools
    }

    async fn run(
        &self,
        name: &str,
        args: Map<String, Value>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(match name {
            "echo" => text(arg_str(&args, "text")),
            "approve" => {
                let input = args.get("input").cloned().unwrap_or(Value::Null);
                text(if input.to_string().contains("forbidden") {
                    json!({"behavior": "deny", "message": "the approve tool said no"}).to_string()
                } else {
                    json!({"behavior": "allow", "updatedInput": input}).to_string()
                })
            }
            "image" => CallToolResult::success(vec![
                ContentBlock::text("a tiny image"),
                ContentBlock::image(TINY_PNG, "image/png"),
            ]),
            "structured" => CallToolResult::structured(json!({"answer": 42, "unit": "none"})),
            "fail" => CallToolResult::error(vec![ContentBlock::text("this tool always fails")]),
            "slow" => {
                let ms = args.get("ms").and_then(Value::as_u64).unwrap_or(100);
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(ms)) => text(format!("slept {ms} ms")),
                    () = context.ct.cancelled() => {
                        let mark = arg_str(&args, "mark");
                        if !mark.is_empty() {
                            let _ = std::fs::write(&mark, "cancelled");
                        }
                        text("cancelled")
                    }
                }
            }
            "crash" => {
                eprintln!("test server: crashing on purpose");
                std::process::exit(3);
            }
            "env" => {
                let var = arg_str(&args, "name");
                text(if std::env::var_os(&var).is_some() {
                    "set"
                } else {
                    "unset"
                })
            }
            "spawn_sleeper" => match std::process::Command::new("sleep").arg("1000").spawn() {
                Ok(child) => text(child.id().to_string()),
                Err(e) => CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
            },
            "add_tool" => {
                let new = arg_str(&args, "name");
                if let Ok(mut added) = self.added.lock() {
                    added.push(new.clone());
                }
                let _ = context.peer.notify_tool_list_changed().await;
                text(format!("added {new}"))
            }
            "add_prompt" => {
                let new = arg_str(&args, "name");
                if let Ok(mut added) = self.added_prompts.lock() {
                    added.push(new.clone());
                }
                let _ = context.peer.notify_prompt_list_changed().await;
                text(format!("added prompt {new}"))
            }
            "progress" => {
                let Some(token) = context.meta.get_progress_token() else {
                    return Ok(text("done without a progress token"));
                };
                for step in 1..=3u32 {
                    let note = ProgressNotificationParam::new(token.clone(), f64::from(step))
                        .with_total(3.0)
                        .with_message(format!("step {step}"));
                    let _ = context.peer.notify_progress(note).await;
                }
                text("done")
            }
            other => {
                if let Some(i) = many::index(other, self.many) {
                    return Ok(text(many::run(i, &args)));
                }
                let added = self
                    .added
                    .lock()
                    .map(|a| a.iter().any(|n| n == other))
                    .unwrap_or(false);
                if added {
                    text(format!("{other} ran"))
                } else {
                    return Err(ErrorData::invalid_params(format!("no tool {other}"), None));
                }
            }
        })
    }
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        if self.tools_only {
            return ServerConfig::new(
                ServerCapabilities::builder()
                    .enable_tools()
                    .enable_tool_list_changed()
                    .build(),
            );
        }
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_resources()
                .enable_prompts()
                .enable_prompts_list_changed()
                .build(),
        )
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        content::list_resources(request.as_ref().and_then(|r| r.cursor.as_deref()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        content::read_resource(&request.uri).map(ReadResourceResponse::Complete)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(content::list_prompts(&self.prompts_added()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        content::get_prompt(&request.name, &args, &self.prompts_added())
            .map(GetPromptResponse::Complete)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        self.run(&request.name, args, context)
            .await
            .map(CallToolResponse::Complete)
    }
}

/// Serves `server` on stdin/stdout until the client closes stdin.
pub async fn serve_stdio(server: TestServer) -> Result<(), String> {
    let service = server
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| e.to_string())?;
    service.waiting().await.map_err(|e| e.to_string())?;
    Ok(())
}

/// A [`TestServer`] on streamable HTTP, on loopback, in this process.
pub struct HttpTestServer {
    /// `http://127.0.0.1:PORT/mcp`.
    pub url: String,
    stop: tokio_util::sync::CancellationToken,
}

impl HttpTestServer {
    /// Binds an ephemeral loopback port and serves until dropped. Do not
    /// call `crash` on it: that would exit the test process.
    pub async fn start() -> Result<Self, String> {
        Self::start_with_many(0).await
    }

    /// [`Self::start`] with `many` catalogue tools.
    pub async fn start_with_many(many: usize) -> Result<Self, String> {
        use rmcp::transport::streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
        };
        let stop = tokio_util::sync::CancellationToken::new();
        let service: StreamableHttpService<TestServer, LocalSessionManager> =
            StreamableHttpService::new(
                move || Ok(TestServer::with_many(many)),
                Arc::default(),
                StreamableHttpServerConfig::default()
                    .with_sse_keep_alive(None)
                    .with_cancellation_token(stop.child_token()),
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| e.to_string())?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let token = stop.clone();
        tokio::spawn(async move {
            loop {
                let accepted = tokio::select! {
                    () = token.cancelled() => break,
                    accepted = listener.accept() => accepted,
                };
                let Ok((stream, _)) = accepted else { continue };
                let service = service.clone();
                tokio::spawn(async move {
                    let handler = hyper::service::service_fn(
                        move |req: hyper::Request<hyper::body::Incoming>| {
                            let service = service.clone();
                            async move { Ok::<_, std::convert::Infallible>(service.handle(req).await) }
                        },
                    );
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), handler)
                        .await;
                });
            }
        });
        Ok(Self {
            url: format!("http://{addr}/mcp"),
            stop,
        })
    }
}

impl Drop for HttpTestServer {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}
