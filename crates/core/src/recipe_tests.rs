//! The recipe for a new built-in tool, proved: `Stamp` below is defined in
//! this file alone and registered with one line, and because its
//! `touches` names the path it writes, it gets the workspace check, the
//! secret-file check and the path rules with no line anywhere else (no
//! name match in the permission engine, dispatch or hooks).

use futures::future::BoxFuture;
use serde_json::json;
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};
use wright_tools::{Tool, ToolContext, ToolError, ToolOutput};

use super::*;

/// Writes `stamped` into the file its `target` argument names, with no
/// checks of its own: whatever stops it is the shared policy.
struct Stamp;

impl Tool for Stamp {
    fn name(&self) -> &str {
        "Stamp"
    }

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "Stamp".into(),
            description: "Stamp a file.".into(),
            input_schema: json!({
                "type": "object",
                "properties": {"target": {"type": "string"}},
                "required": ["target"]
            })
            .into(),
        }
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Edit
    }

    fn touches(&self, args: &serde_json::Value) -> Touches {
        match args.get("target").and_then(|t| t.as_str()) {
            Some(target) => Touches::write(target),
            None => Touches::of(ToolKind::Edit),
        }
    }

    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let target = args["target"].as_str().unwrap_or_default();
            std::fs::write(ctx.cwd.join(target), "stamped")
                .map_err(|e| ToolError::Failed(e.to_string()))?;
            Ok(ToolOutput {
                content: "stamped".into(),
                images: Vec::new(),
                display: ToolDisplay::default(),
            })
        })
    }
}

/// Runs one `Stamp` call of `target` in bypass mode (nothing asks on the
/// strength of the mode) with `deny` rules; returns the result text and the
/// workspace's parent (where an escape would land).
async fn stamp(target: &str, deny: &[&str]) -> (String, tempfile::TempDir) {
    let outer = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir_in(outer.path()).unwrap();
    std::fs::create_dir_all(dir.path().join("private")).unwrap();
    let args = json!({ "target": target }).to_string();
    let tools = ToolRegistry::builtin().with(Box::new(Stamp));
    let rules = wright_permissions::RuleSet::parse(&[] as &[&str], &[] as &[&str], deny).unwrap();
    let mut h = start_with_tools(
        dir,
        vec![calls(&[("s", "Stamp", &args)]), text("done")],
        (PermissionMode::Bypass, 5),
        |o| o.policy.rules = rules,
        super::super::Persistence::default(),
        tools,
    );
    let (_, reason) = turn(&mut h, "go").await;
    assert_eq!(reason, TurnEndReason::Completed);
    let result = {
        let requests = h.requests.lock().unwrap();
        requests[1].messages[2]
            .content
            .iter()
            .find_map(|b| match b {
                ContentBlock::ToolResult { content, .. } => Some(content.clone()),
                _ => None,
            })
            .unwrap()
    };
    // The effect, not only the words: a refused call wrote nothing.
    let written = h._dir.path().join(target).exists();
    assert_eq!(written, result == "stamped", "{result}");
    (result, outer)
}

#[tokio::test]
async fn a_plain_path_inside_the_workspace_runs() {
    let (result, _) = stamp("notes.txt", &[]).await;
    assert_eq!(result, "stamped");
}

#[tokio::test]
async fn a_path_outside_the_workspace_is_refused_by_the_guard() {
    let (result, outer) = stamp("../escaped.txt", &[]).await;
    assert!(result.starts_with("Blocked by guard"), "{result}");
    assert!(result.contains("outside the workspace"), "{result}");
    assert!(!outer.path().join("escaped.txt").exists());
}

#[tokio::test]
async fn a_secret_file_needs_a_rule_naming_it() {
    let (result, _) = stamp(".env", &[]).await;
    assert!(
        result.contains("secret files need an allow rule"),
        "{result}"
    );
}

#[tokio::test]
async fn edit_rules_apply_to_it_by_what_it_writes() {
    let (result, _) = stamp("private/key.txt", &["Edit(private/**)"]).await;
    assert!(result.starts_with("Permission denied"), "{result}");
    assert!(result.contains("Edit(private/**)"), "{result}");
}
