//! The `remember` tool: saves a memory note when the user asks the model to
//! remember something. Notes land in the project's `.wright/memory/` and are
//! listed in the system prompt from the next turn on.

use futures::future::BoxFuture;
use serde::Deserialize;
use serde_json::json;
use wright_context::{MemoryScope, MemoryStore, MemoryType, NewNote};
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};
use wright_tools::{Tool, ToolContext, ToolError, ToolOutput};

/// Writes memory notes to one store.
pub struct RememberTool {
    store: MemoryStore,
}

impl RememberTool {
    /// A tool writing to `store`'s project directory.
    pub fn new(store: MemoryStore) -> Self {
        Self { store }
    }
}

#[derive(Deserialize)]
struct Args {
    name: String,
    description: String,
    #[serde(rename = "type", default = "default_type")]
    kind: String,
    body: String,
}

fn default_type() -> String {
    "project".to_owned()
}

impl Tool for RememberTool {
    fn name(&self) -> &str {
        "remember"
    }

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "remember".to_owned(),
            description: "Save a note to the project's memory. Only when the user explicitly asks you to remember something.".to_owned(),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "Short unique name"},
                    "description": {"type": "string", "description": "One line: when this note matters"},
                    "type": {"type": "string", "enum": ["user", "feedback", "project", "reference"]},
                    "body": {"type": "string", "description": "The note, in Markdown"}
                },
                "required": ["name", "description", "body"]
            }).into(),
        }
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Edit
    }

    fn touches(&self, _args: &serde_json::Value) -> Touches {
        // The note goes to the memory store, not a workspace path: asked
        // for like an edit, checked by the store itself.
        Touches::of(ToolKind::Edit)
    }

    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        _ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let a: Args =
                serde_json::from_value(args).map_err(|e| ToolError::InvalidArgs(e.to_string()))?;
            let kind: MemoryType = serde_json::from_value(json!(a.kind)).map_err(|_| {
                ToolError::InvalidArgs(format!(
                    "type `{}` is not one of user, feedback, project, reference",
                    a.kind
                ))
            })?;
            let path = self
                .store
                .add(&NewNote {
                    name: a.name.clone(),
                    description: a.description,
                    kind,
                    body: a.body,
                    scope: MemoryScope::Project,
                })
                .map_err(|e| ToolError::Failed(e.to_string()))?;
            Ok(ToolOutput {
                images: Vec::new(),
                content: format!("Saved memory note `{}` to {}.", a.name, path.display()),
                display: ToolDisplay {
                    summary: format!("saved {}", path.display()),
                    ..ToolDisplay::default()
                },
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(dir: &std::path::Path) -> RememberTool {
        RememberTool::new(MemoryStore::new(dir.join("memory"), None))
    }

    #[tokio::test]
    async fn saves_a_note_and_rejects_bad_input() {
        let dir = tempfile::tempdir().unwrap();
        let t = tool(dir.path());
        let ctx = ToolContext::new(dir.path(), dir.path());
        let ok = t
            .run(
                json!({"name": "tabs", "description": "Indent with tabs", "body": "Use tabs."}),
                &ctx,
            )
            .await
            .unwrap();
        assert!(ok.content.contains("tabs"));
        assert_eq!(t.store.list().0.len(), 1);
        let missing = t.run(json!({"name": "x"}), &ctx).await.unwrap_err();
        assert!(matches!(missing, ToolError::InvalidArgs(_)));
        let bad_type = t
            .run(
                json!({"name": "y", "description": "d", "body": "b", "type": "nonsense"}),
                &ctx,
            )
            .await
            .unwrap_err();
        assert!(bad_type.to_string().contains("nonsense"));
        let duplicate = t
            .run(
                json!({"name": "tabs", "description": "d", "body": "b"}),
                &ctx,
            )
            .await
            .unwrap_err();
        assert!(matches!(duplicate, ToolError::Failed(_)));
    }
}
