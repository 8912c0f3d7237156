//! Tool search: when the MCP tools' schemas would crowd the context window,
//! each request carries only their names and one-line descriptions (in the
//! [`ToolSearchTool`]'s description) and the tool loads the full schemas of
//! the ones the model asks for, which are then sent with every later
//! request of the session.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use wright_mcp::{McpManager, McpTool};
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};
use wright_tools::{Tool, ToolContext, ToolError, ToolOutput};

use crate::mcp_call::spec_of;

/// The tool's name (Claude Code's); `MCPSearch` is accepted as well.
pub(crate) const NAME: &str = "ToolSearch";
/// The older name some prompts and hooks use.
pub(crate) const ALIAS: &str = "MCPSearch";
/// Most tools one search returns.
const DEFAULT_RESULTS: usize = 5;
/// Longest one-line description in the index.
const LINE_CHARS: usize = 100;

/// The names whose full schemas the model has loaded, shared by the tool
/// and the request builder.
pub(crate) type Loaded = Arc<Mutex<BTreeSet<String>>>;

/// Loads deferred MCP tools' schemas by exact name or by keywords.
pub(crate) struct ToolSearchTool {
    pub(crate) manager: Arc<McpManager>,
    pub(crate) loaded: Loaded,
}

#[derive(serde::Deserialize)]
struct Args {
    query: String,
    #[serde(default)]
    max_results: Option<usize>,
}

/// The spec, listing every deferred tool by name and first line.
pub(crate) fn spec(deferred: &[McpTool]) -> ToolSpec {
    let mut description = String::from(
        "Loads the full definitions of MCP tools that are listed here by name only, so you can \
         call them. Use `select:name1,name2` to load tools by exact name, or keywords to find \
         tools by name and description. Loaded tools can be called from then on. Tools listed \
         by name only:\n",
    );
    for tool in deferred {
        description.push_str("- ");
        description.push_str(&tool.name);
        let line = first_line(tool);
        if !line.is_empty() {
            description.push_str(": ");
            description.push_str(&line);
        }
        description.push('\n');
    }
    ToolSpec {
        name: NAME.to_owned(),
        description,
        input_schema: serde_json::json!({
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "`select:<name>[,<name>…]` for exact names, or keywords"
                },
                "max_results": {
                    "type": "integer",
                    "description": "Most tools to load for a keyword search (default 5)"
                }
            },
            "required": ["query"]
        })
        .into(),
    }
}

fn first_line(tool: &McpTool) -> String {
    let text = tool
        .description
        .as_deref()
        .or(tool.title.as_deref())
        .unwrap_or_default();
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let line = line.trim();
    if line.chars().count() <= LINE_CHARS {
        return line.to_owned();
    }
    let cut: String = line.chars().take(LINE_CHARS).collect();
    format!("{cut}…")
}

/// The tools a query picks, best first.
fn pick<'a>(tools: &'a [McpTool], query: &str, max: usize) -> Result<Vec<&'a McpTool>, String> {
    if let Some(names) = query.trim().strip_prefix("select:") {
        let mut picked = Vec::new();
        let mut missing = Vec::new();
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match tools.iter().find(|t| t.name == name) {
                Some(t) => picked.push(t),
                None => missing.push(name),
            }
        }
        if !missing.is_empty() {
            return Err(format!("no MCP tool named {}", missing.join(", ")));
        }
        return Ok(picked);
    }
    let terms: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect();
    if terms.is_empty() {
        return Err("the query has no words to search for".to_owned());
    }
    let mut scored: Vec<(usize, &McpTool)> = tools
        .iter()
        .filter_map(|t| {
            let name = t.name.to_lowercase();
            let text = format!(
                "{} {}",
                t.title.as_deref().unwrap_or_default(),
                t.description.as_deref().unwrap_or_default()
            )
            .to_lowercase();
            let whole = query.trim().to_lowercase();
            // The tool's own name given whole beats any number of word hits.
            let exact = name == whole || name.ends_with(&format!("__{whole}"));
            let score: usize = usize::from(exact) * 100
                + terms
                    .iter()
                    .map(|term| {
                        usize::from(name.contains(term.as_str())) * 3
                            + usize::from(text.contains(term.as_str()))
                    })
                    .sum::<usize>();
            (score > 0).then_some((score, t))
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.name.cmp(&b.1.name)));
    Ok(scored.into_iter().take(max).map(|(_, t)| t).collect())
}

impl Tool for ToolSearchTool {
    fn name(&self) -> &str {
        NAME
    }

    fn spec(&self) -> ToolSpec {
        spec(&self.manager.tools())
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
        _ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let args: Args = wright_tools::parse_args(args)?;
            let max = args.max_results.unwrap_or(DEFAULT_RESULTS).clamp(1, 50);
            let tools = self.manager.tools();
            let picked = pick(&tools, &args.query, max).map_err(ToolError::InvalidArgs)?;
            if picked.is_empty() {
                return Ok(ToolOutput {
                    content: format!("No MCP tool matches `{}`.", args.query),
                    display: ToolDisplay {
                        summary: "no match".to_owned(),
                        ..ToolDisplay::default()
                    },
                    ..ToolOutput::default()
                });
            }
            if let Ok(mut loaded) = self.loaded.lock() {
                loaded.extend(picked.iter().map(|t| t.name.clone()));
            }
            let defs: Vec<serde_json::Value> = picked
                .iter()
                .map(|t| {
                    let s = spec_of(t);
                    serde_json::json!({
                        "name": s.name,
                        "description": s.description,
                        "input_schema": s.input_schema,
                    })
                })
                .collect();
            let names: Vec<&str> = picked.iter().map(|t| t.name.as_str()).collect();
            let content = format!(
                "Loaded {} tool(s); they can be called now: {}\n\n{}",
                picked.len(),
                names.join(", "),
                serde_json::to_string_pretty(&defs).unwrap_or_default()
            );
            Ok(ToolOutput {
                content,
                display: ToolDisplay {
                    summary: format!("loaded {}", names.join(", ")),
                    ..ToolDisplay::default()
                },
                ..ToolOutput::default()
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wright_mcp::ToolHints;

    fn tool(name: &str, description: &str) -> McpTool {
        McpTool {
            name: name.into(),
            server: "s".into(),
            tool: name.into(),
            title: None,
            description: Some(description.into()),
            input_schema: serde_json::json!({"type": "object", "properties": {}}),
            hints: ToolHints::default(),
        }
    }

    #[test]
    fn select_picks_exact_names_and_reports_missing() {
        let tools = [tool("mcp__s__a", "A"), tool("mcp__s__b", "B")];
        let picked = pick(&tools, "select:mcp__s__b, mcp__s__a", 5).unwrap();
        let names: Vec<&str> = picked.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["mcp__s__b", "mcp__s__a"]);
        let err = pick(&tools, "select:mcp__s__a,nope", 5).unwrap_err();
        assert!(err.contains("nope"), "{err}");
    }

    #[test]
    fn keywords_rank_name_hits_first() {
        let tools = [
            tool("mcp__gh__list_issues", "Lists issues"),
            tool("mcp__gh__create_issue", "Creates an issue"),
            tool("mcp__db__query", "Runs SQL; not about issues"),
            tool("mcp__db__schema", "Shows tables"),
        ];
        let picked = pick(&tools, "create issue", 2).unwrap();
        assert_eq!(picked[0].name, "mcp__gh__create_issue");
        assert_eq!(picked.len(), 2);
        assert!(pick(&tools, "zzz", 5).unwrap().is_empty());
        let many: Vec<McpTool> = (0..200)
            .map(|i| tool(&format!("mcp__s__tool_{i}"), "A tool"))
            .collect();
        assert_eq!(
            pick(&many, "tool_17", 1).unwrap()[0].name,
            "mcp__s__tool_17"
        );
        assert!(pick(&tools, " ,; ", 5).is_err());
    }

    #[test]
    fn spec_lists_first_lines_cut() {
        let long = "x".repeat(300);
        let spec = spec(&[
            tool("mcp__s__a", "First line\nsecond"),
            tool("mcp__s__b", &long),
        ]);
        assert!(spec.description.contains("- mcp__s__a: First line\n"));
        assert!(!spec.description.contains("second"));
        assert!(spec.description.contains('…'));
        assert_eq!(spec.name, NAME);
    }
}
