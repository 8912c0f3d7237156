//! What an editor shows for one of wright's tool calls: ACP kind, title,
//! file locations and content (diffs for edits from the call's own
//! arguments, so the permission dialog can show them before anything runs),
//! and `TodoWrite` lists as plans. Pure functions of the call: its name,
//! arguments and what its tool said it touches.

use std::path::{Path, PathBuf};

use agent_client_protocol::v1::schema::{
    ContentBlock, Diff, PlanEntry, PlanEntryPriority, PlanEntryStatus, TextContent,
    ToolCallContent, ToolCallLocation, ToolKind,
};
use serde_json::Value;
use wright_protocol::{ToolKind as WrightKind, Touches};

/// Outputs longer than this are cut for display (the model got its own copy).
const MAX_SHOWN_OUTPUT: usize = 20_000;

/// How a tool call is presented.
#[derive(Debug, Clone, PartialEq)]
pub struct Presentation {
    /// ACP's coarse category (icons, grouping).
    pub kind: ToolKind,
    /// One line for the call.
    pub title: String,
    /// Files it touches, absolute.
    pub locations: Vec<ToolCallLocation>,
    /// What to show before it runs (diffs of edits).
    pub content: Vec<ToolCallContent>,
}

/// The ACP kind for one of wright's (Claude Code's) tool names; unknown
/// tools fall back on the effect class the core reports.
pub fn kind_of(name: &str, wright_kind: Option<WrightKind>) -> ToolKind {
    match name {
        "Read" | "NotebookRead" => ToolKind::Read,
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => ToolKind::Edit,
        "Bash" | "BashOutput" | "KillShell" | "KillBash" => ToolKind::Execute,
        "Grep" | "Glob" | "LS" | "ToolSearch" => ToolKind::Search,
        "WebFetch" | "WebSearch" => ToolKind::Fetch,
        "Task" | "TodoWrite" => ToolKind::Think,
        "ExitPlanMode" => ToolKind::SwitchMode,
        _ => match wright_kind {
            Some(WrightKind::ReadOnly) => ToolKind::Read,
            Some(WrightKind::Edit) => ToolKind::Edit,
            Some(WrightKind::Exec) => ToolKind::Execute,
            Some(WrightKind::Network) => ToolKind::Fetch,
            Some(WrightKind::Interaction | WrightKind::Other) | None => ToolKind::Other,
        },
    }
}

/// Kind, title, locations and pre-run content of a call. The file a call
/// reads or writes is the one its tool named in `touches` (the item's).
pub fn present(
    name: &str,
    wright_kind: Option<WrightKind>,
    arguments: &str,
    touches: Option<&Touches>,
    cwd: &Path,
) -> Presentation {
    let args: Value = serde_json::from_str(arguments).unwrap_or(Value::Null);
    let s = |key: &str| args.get(key).and_then(Value::as_str).unwrap_or("");
    let path = |key: &str| {
        let p = s(key);
        (!p.is_empty()).then(|| absolute(cwd, p))
    };
    let file = touches
        .and_then(Touches::subject_path)
        .filter(|p| !p.is_empty())
        .map(|p| absolute(cwd, p))
        .or_else(|| path("notebook_path"));
    let shown = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
    let mut locations: Vec<ToolCallLocation> = Vec::new();
    let mut content = Vec::new();
    let title = match name {
        "Read" => {
            if let Some(f) = &file {
                let line = args
                    .get("offset")
                    .and_then(Value::as_u64)
                    .and_then(|n| u32::try_from(n).ok());
                locations.push(ToolCallLocation::new(f.clone()).line(line));
            }
            format!("Read {}", shown(&file).unwrap_or_default())
        }
        "Write" => {
            if let Some(f) = &file {
                locations.push(ToolCallLocation::new(f.clone()));
                // Overwriting shows what goes: a diff without old text
                // would read as a new file in the editor's dialog.
                let diff = Diff::new(f.clone(), s("content")).old_text(current_text(f));
                content.push(ToolCallContent::Diff(diff));
            }
            format!("Write {}", shown(&file).unwrap_or_default())
        }
        "Edit" => {
            if let Some(f) = &file {
                locations.push(ToolCallLocation::new(f.clone()));
                content.push(edit_diff(f, s("old_string"), s("new_string")));
            }
            format!("Edit {}", shown(&file).unwrap_or_default())
        }
        "MultiEdit" => {
            if let Some(f) = &file {
                locations.push(ToolCallLocation::new(f.clone()));
                for edit in args
                    .get("edits")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let get = |k: &str| edit.get(k).and_then(Value::as_str).unwrap_or("");
                    content.push(edit_diff(f, get("old_string"), get("new_string")));
                }
            }
            format!("Edit {}", shown(&file).unwrap_or_default())
        }
        "Bash" => {
            let command = s("command");
            match s("description") {
                "" => format!("`{}`", one_line(command)),
                d => format!("{d}: `{}`", one_line(command)),
            }
        }
        "Grep" => {
            let dir = path("path");
            if let Some(d) = &dir {
                locations.push(ToolCallLocation::new(d.clone()));
            }
            match shown(&dir) {
                Some(d) => format!("grep \"{}\" {d}", s("pattern")),
                None => format!("grep \"{}\"", s("pattern")),
            }
        }
        "Glob" => format!("Find {}", s("pattern")),
        "LS" => {
            let dir = path("path");
            if let Some(d) = &dir {
                locations.push(ToolCallLocation::new(d.clone()));
            }
            format!("List {}", shown(&dir).unwrap_or_else(|| ".".to_owned()))
        }
        "WebFetch" => format!("Fetch {}", s("url")),
        "WebSearch" => format!("Search the web: {}", s("query")),
        "Task" => match s("description") {
            "" => "Task".to_owned(),
            d => format!("Task: {d}"),
        },
        "TodoWrite" => "Update the plan".to_owned(),
        "ExitPlanMode" => {
            content.push(text_content(s("plan").to_owned()));
            "The plan is ready: carry it out?".to_owned()
        }
        "AskUserQuestion" => {
            let questions: Vec<&str> = args
                .get("questions")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|q| q.get("question").and_then(Value::as_str))
                .collect();
            format!("Question: {}", questions.join(" · "))
        }
        other => match other.strip_prefix("mcp__").and_then(|r| r.split_once("__")) {
            Some((server, tool)) => format!("{tool} ({server} MCP)"),
            None => other.to_owned(),
        },
    };
    Presentation {
        kind: kind_of(name, wright_kind),
        title,
        locations,
        content,
    }
}

/// A diff of one replacement: the editor shows it in context.
fn edit_diff(file: &Path, old: &str, new: &str) -> ToolCallContent {
    let diff = Diff::new(file.to_path_buf(), new);
    // An empty `old_string` creates the file: there is no old text.
    let diff = if old.is_empty() {
        diff
    } else {
        diff.old_text(old.to_owned())
    };
    ToolCallContent::Diff(diff)
}

/// Output (or an error message) as display content; commands in a fenced
/// block so editors keep their layout.
pub fn output_content(name: &str, output: &str) -> Vec<ToolCallContent> {
    if output.trim().is_empty() {
        return Vec::new();
    }
    let mut shown = output;
    let mut cut = "";
    if shown.len() > MAX_SHOWN_OUTPUT {
        let mut end = MAX_SHOWN_OUTPUT;
        while !shown.is_char_boundary(end) {
            end -= 1;
        }
        shown = &shown[..end];
        cut = "\n…";
    }
    let text = match name {
        "Bash" | "BashOutput" => format!("```\n{}{cut}\n```", shown.trim_end()),
        _ => format!("{shown}{cut}"),
    };
    vec![text_content(text)]
}

/// A text block as tool-call content.
pub fn text_content(text: String) -> ToolCallContent {
    ToolCallContent::Content(agent_client_protocol::v1::schema::Content::new(
        ContentBlock::Text(TextContent::new(text)),
    ))
}

/// Whether a tool's output is worth showing after it ran: a file's text is
/// already in the editor, and an edit's diff was shown before it ran.
pub fn shows_output(name: &str) -> bool {
    !matches!(name, "Read" | "Write" | "Edit" | "MultiEdit" | "TodoWrite")
}

/// `TodoWrite`'s list as plan entries (`todos: [{content, status, …}]`).
pub fn plan_entries(arguments: &str) -> Option<Vec<PlanEntry>> {
    let args: Value = serde_json::from_str(arguments).ok()?;
    let todos = args.get("todos")?.as_array()?;
    Some(
        todos
            .iter()
            .map(|t| {
                let get = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or("");
                let status = match get("status") {
                    "in_progress" => PlanEntryStatus::InProgress,
                    "completed" => PlanEntryStatus::Completed,
                    _ => PlanEntryStatus::Pending,
                };
                let priority = match get("priority") {
                    "high" => PlanEntryPriority::High,
                    "low" => PlanEntryPriority::Low,
                    _ => PlanEntryPriority::Medium,
                };
                PlanEntry::new(get("content"), priority, status)
            })
            .collect(),
    )
}

fn absolute(cwd: &Path, p: &str) -> PathBuf {
    let path = Path::new(p);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    }
}

/// The first line of a command, shortened for a title.
fn one_line(command: &str) -> String {
    let first = command.lines().next().unwrap_or("");
    let mut line: String = first.chars().take(80).collect();
    if line.len() < command.len() {
        line.push('…');
    }
    line
}

#[cfg(test)]
#[path = "tool_map_tests.rs"]
mod tests;

/// Most bytes of an existing file shown as a Write's old text.
const OLD_TEXT_CAP: u64 = 1024 * 1024;

/// The text a Write would replace: `None` for a missing, binary or very
/// large file (the editor then shows it as new or as a plain write). Shown
/// to the user only, never to the model.
fn current_text(path: &std::path::Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > OLD_TEXT_CAP {
        return None;
    }
    String::from_utf8(std::fs::read(path).ok()?).ok()
}
