//! The `TodoWrite` tool, in Claude Code's shape: the model sends its whole
//! task list (`{"todos": [{"content", "status", "activeForm"}]}`) every time
//! it changes. The tool keeps no state: the list lives in the call's
//! arguments, which the session records and front ends render from (see
//! [`parse_todos`]). It only checks the list and confirms it.

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};

use crate::{Tool, ToolContext, ToolError, ToolOutput, args};

/// Most items of one list.
pub const MAX_TODOS: usize = 100;
/// Most characters of one item's `content`, `activeForm` or `id`.
pub const MAX_TODO_CHARS: usize = 2_000;

const DESCRIPTION: &str = "\
Write your task list so you and the user can follow progress; each call sends the whole list, \
replacing the last. Use it for multi-step work (3+ distinct steps or several requests), adding \
steps found along the way; not for one trivial step or a plain question. Mark a task \
in_progress before starting it, with exactly one in_progress at a time, and completed right \
after finishing it (not in batches later). Only mark completed what is fully done (tests \
pass, no errors); otherwise keep it in_progress and add a task for the blocker. Remove tasks \
that no longer apply. content is imperative (\"Run tests\"), activeForm present continuous \
(\"Running tests\").";

/// The state of one task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    /// Not started.
    Pending,
    /// Being worked on (at most one at a time).
    InProgress,
    /// Finished.
    Completed,
}

/// A plain string enum: derived, the variants' docs would turn it into a
/// `oneOf` of `const`s, which small models handle worse.
impl JsonSchema for TodoStatus {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TodoStatus".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "enum": ["pending", "in_progress", "completed"]
        })
    }
}

/// One task of the list, checked, with `active_form` filled in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TodoItem {
    /// What to do, imperative: "Run the tests".
    pub content: String,
    /// Where the task stands.
    pub status: TodoStatus,
    /// Present continuous shown while in progress: "Running the tests"
    /// (the `content` when the model sent none).
    #[serde(rename = "activeForm")]
    pub active_form: String,
    /// The id older Claude Code versions sent with each item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// Arguments of `TodoWrite`.
#[derive(Debug, Deserialize, JsonSchema)]
struct TodoWriteArgs {
    /// The whole updated task list.
    todos: Vec<RawTodo>,
}

// One task as the model sends it (a comment: a doc would go into the schema).
#[derive(Debug, Deserialize, JsonSchema)]
struct RawTodo {
    /// The task, imperative form: "Run the tests".
    content: String,
    status: TodoStatus,
    /// The task, present continuous form: "Running the tests".
    #[serde(rename = "activeForm")]
    #[schemars(required)]
    active_form: Option<String>,
    /// Older Claude Code versions sent an id per item; accepted, not asked for.
    #[serde(default, deserialize_with = "id_string")]
    #[schemars(skip)]
    id: Option<String>,
}

/// An id as a string or a number (models send both).
fn id_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    use serde_json::Value;
    match Option::<Value>::deserialize(d)? {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(other) => Err(serde::de::Error::custom(format!(
            "invalid type for id: {other}, expected a string"
        ))),
    }
}

/// Parses and checks `TodoWrite` arguments: what the tool does, and what a
/// front end calls to render the list from a recorded tool call.
pub fn parse_todos(args: serde_json::Value) -> Result<Vec<TodoItem>, ToolError> {
    let a: TodoWriteArgs = args::parse(args)?;
    if a.todos.len() > MAX_TODOS {
        return Err(ToolError::InvalidArgs(format!(
            "{} todos; the list holds at most {MAX_TODOS}: merge or drop some",
            a.todos.len()
        )));
    }
    let items = a
        .todos
        .into_iter()
        .enumerate()
        .map(|(i, raw)| check(i + 1, raw))
        .collect::<Result<Vec<_>, _>>()?;
    let active: Vec<String> = items
        .iter()
        .enumerate()
        .filter(|(_, t)| t.status == TodoStatus::InProgress)
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    if active.len() > 1 {
        return Err(ToolError::InvalidArgs(format!(
            "{} todos are in_progress (items {}); exactly one task should be in progress at a \
             time: keep the one you are working on in_progress and set the others to pending \
             or completed",
            active.len(),
            active.join(", ")
        )));
    }
    Ok(items)
}

fn check(n: usize, raw: RawTodo) -> Result<TodoItem, ToolError> {
    let text = |field: &str, value: &str| {
        if value.trim().is_empty() {
            return Err(ToolError::InvalidArgs(format!(
                "todo {n}: {field} must not be empty"
            )));
        }
        let chars = value.chars().count();
        if chars > MAX_TODO_CHARS {
            return Err(ToolError::InvalidArgs(format!(
                "todo {n}: {field} has {chars} characters; at most {MAX_TODO_CHARS}"
            )));
        }
        Ok(())
    };
    text("content", &raw.content)?;
    let active_form = raw.active_form.unwrap_or_else(|| raw.content.clone());
    text("activeForm", &active_form)?;
    if let Some(id) = &raw.id {
        text("id", id)?;
    }
    Ok(TodoItem {
        content: raw.content,
        status: raw.status,
        active_form,
        id: raw.id,
    })
}

/// The one-line display summary: "4 todos: 1 done, 1 in progress, 2 pending".
pub fn summarize_todos(todos: &[TodoItem]) -> String {
    let count = |s: TodoStatus| todos.iter().filter(|t| t.status == s).count();
    format!(
        "{} todo{}: {} done, {} in progress, {} pending",
        todos.len(),
        if todos.len() == 1 { "" } else { "s" },
        count(TodoStatus::Completed),
        count(TodoStatus::InProgress),
        count(TodoStatus::Pending)
    )
}

/// Writes the model's task list (checks it; nothing is stored or changed).
#[derive(Debug, Default, Clone, Copy)]
pub struct TodoWriteTool;

impl Tool for TodoWriteTool {
    fn name(&self) -> &str {
        "TodoWrite"
    }

    fn spec(&self) -> ToolSpec {
        args::spec::<TodoWriteArgs>(self.name(), DESCRIPTION)
    }

    fn kind(&self) -> ToolKind {
        // Nothing on disk changes: never worth a permission prompt.
        ToolKind::ReadOnly
    }

    fn touches(&self, _args: &serde_json::Value) -> Touches {
        Touches::of(ToolKind::ReadOnly)
    }

    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        _ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let todos = parse_todos(args)?;
            Ok(ToolOutput {
                content: confirmation(&todos),
                images: Vec::new(),
                display: ToolDisplay {
                    summary: summarize_todos(&todos),
                    ..ToolDisplay::default()
                },
            })
        })
    }
}

fn confirmation(todos: &[TodoItem]) -> String {
    let open = todos.iter().any(|t| t.status != TodoStatus::Completed);
    let mut s = String::from("Todo list saved. ");
    if todos.is_empty() || !open {
        s.push_str(
            "Nothing is left open on it; start a new list if more multi-step work comes up.",
        );
    } else {
        s.push_str(
            "Keep it current as you go: set a task in_progress before starting it and completed \
             as soon as it is done. Carry on with the task at hand.",
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn item(content: &str, status: &str) -> serde_json::Value {
        json!({"content": content, "status": status, "activeForm": format!("{content}ing")})
    }

    fn invalid(args: serde_json::Value) -> String {
        match parse_todos(args) {
            Err(ToolError::InvalidArgs(m)) => m,
            other => panic!("expected InvalidArgs, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn valid_list_is_confirmed_and_summarized() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = ToolContext::new(dir.path(), dir.path().join(".spill"));
        let args = json!({"todos": [
            item("Read", "completed"),
            item("Build", "in_progress"),
            item("Test", "pending"),
            item("Ship", "pending"),
        ]});
        let out = TodoWriteTool.run(args, &ctx).await.unwrap();
        assert_eq!(
            out.display.summary,
            "4 todos: 1 done, 1 in progress, 2 pending"
        );
        assert!(out.content.contains("in_progress"), "{}", out.content);
        assert!(out.images.is_empty());
        // Nothing is written anywhere.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let todos = parse_todos(json!({"todos": [item("Build", "in_progress")]})).unwrap();
        assert_eq!(
            todos,
            [TodoItem {
                content: "Build".into(),
                status: TodoStatus::InProgress,
                active_form: "Building".into(),
                id: None,
            }]
        );
        assert_eq!(
            summarize_todos(&todos),
            "1 todo: 0 done, 1 in progress, 0 pending"
        );
    }

    #[tokio::test]
    async fn empty_and_finished_lists_are_fine() {
        let ctx = ToolContext::new("/", "/tmp");
        let out = TodoWriteTool.run(json!({"todos": []}), &ctx).await.unwrap();
        assert_eq!(
            out.display.summary,
            "0 todos: 0 done, 0 in progress, 0 pending"
        );
        let done = json!({"todos": [item("A", "completed"), item("B", "completed")]});
        let out = TodoWriteTool.run(done, &ctx).await.unwrap();
        assert!(
            out.content.contains("Nothing is left open"),
            "{}",
            out.content
        );
        // Arguments sent as a JSON string, as some models do.
        let text = json!({"todos": [item("A", "pending")]}).to_string();
        assert_eq!(parse_todos(json!(text)).unwrap().len(), 1);
    }

    #[test]
    fn two_in_progress_are_refused() {
        let m = invalid(json!({"todos": [
            item("A", "in_progress"),
            item("B", "pending"),
            item("C", "in_progress"),
        ]}));
        assert!(m.contains("exactly one task should be in progress"), "{m}");
        assert!(m.contains("items 1, 3"), "{m}");
        let err =
            parse_todos(json!({"todos": [item("A", "in_progress"), item("B", "in_progress")]}))
                .unwrap_err();
        assert!(err.to_string().starts_with("Invalid arguments:"), "{err}");
    }

    #[test]
    fn bad_status_is_refused() {
        let m = invalid(json!({"todos": [item("A", "done")]}));
        assert!(m.contains("done") && m.contains("in_progress"), "{m}");
        let m = invalid(json!({"todos": [{"content": "A", "activeForm": "Aing"}]}));
        assert!(m.contains("status"), "{m}");
    }

    #[test]
    fn empty_text_is_refused() {
        let m = invalid(json!({"todos": [item("A", "pending"), item("  ", "pending")]}));
        assert_eq!(m, "todo 2: content must not be empty");
        let m =
            invalid(json!({"todos": [{"content": "A", "status": "pending", "activeForm": ""}]}));
        assert_eq!(m, "todo 1: activeForm must not be empty");
        let m = invalid(json!({"todos": [{"status": "pending", "activeForm": "Aing"}]}));
        assert!(m.contains("content"), "{m}");
        let m = invalid(json!({"items": []}));
        assert!(m.contains("todos"), "{m}");
    }

    #[test]
    fn missing_active_form_is_filled_and_id_accepted() {
        let todos = parse_todos(json!({"todos": [
            {"content": "Run tests", "status": "pending", "id": "1"},
            {"content": "Fix bug", "status": "completed", "activeForm": null, "id": 2},
        ]}))
        .unwrap();
        assert_eq!(todos[0].active_form, "Run tests");
        assert_eq!(todos[0].id.as_deref(), Some("1"));
        assert_eq!(todos[1].active_form, "Fix bug");
        assert_eq!(todos[1].id.as_deref(), Some("2"));
        let out = serde_json::to_value(&todos[1]).unwrap();
        assert_eq!(
            out,
            json!({"content": "Fix bug", "status": "completed", "activeForm": "Fix bug", "id": "2"})
        );
    }

    #[test]
    fn too_many_items_or_chars_are_refused() {
        let many: Vec<_> = (0..=MAX_TODOS)
            .map(|i| item(&format!("T{i}"), "pending"))
            .collect();
        let m = invalid(json!({ "todos": many }));
        assert!(m.contains("at most 100"), "{m}");
        let mut max: Vec<_> = many;
        max.pop();
        assert_eq!(
            parse_todos(json!({ "todos": max })).unwrap().len(),
            MAX_TODOS
        );
        let long = "é".repeat(MAX_TODO_CHARS);
        let fits = json!({"todos": [{"content": long, "status": "pending", "activeForm": long}]});
        assert!(parse_todos(fits).is_ok());
        let m = invalid(
            json!({"todos": [{"content": "A", "status": "pending", "activeForm": long + "x"}]}),
        );
        assert!(m.contains("activeForm has 2001 characters"), "{m}");
    }

    #[test]
    fn schema_has_claude_codes_shape() {
        let spec = TodoWriteTool.spec();
        assert_eq!(spec.name, "TodoWrite");
        assert_eq!(TodoWriteTool.kind(), ToolKind::ReadOnly);
        let s = &spec.input_schema;
        assert_eq!(s["type"], "object");
        assert_eq!(s["required"], json!(["todos"]));
        let todos = &s["properties"]["todos"];
        assert_eq!(todos["type"], "array");
        let item = &todos["items"];
        assert_eq!(item["type"], "object");
        assert_eq!(item["properties"]["content"]["type"], "string");
        assert_eq!(item["properties"]["activeForm"]["type"], "string");
        assert_eq!(item["properties"]["status"]["type"], "string");
        assert_eq!(
            item["properties"]["status"]["enum"],
            json!(["pending", "in_progress", "completed"])
        );
        let mut required: Vec<&str> = item["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        required.sort_unstable();
        assert_eq!(required, ["activeForm", "content", "status"]);
        assert!(item["properties"].get("id").is_none(), "{s}");
        let text = s.to_string();
        for noise in ["$ref", "$defs", "anyOf", "null", "oneOf"] {
            assert!(!text.contains(noise), "{noise} in {text}");
        }
        assert!(spec.description.contains("in_progress"));
    }
}
