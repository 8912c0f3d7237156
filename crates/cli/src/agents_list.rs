//! `wright agents list [--json]`: every agent type a `Task` call here could
//! start (the built-in ones, then the definition files config opts into),
//! with where each came from, so the user can tell which file a name
//! resolves to when a project redefines one. Files that cannot be used are
//! reported on stderr with their path; they never make the command fail.
//! The text form also lists the worktrees isolated subagents kept with
//! their changes.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};
use wright_config::{ConfigLoader, Settings, agent_dirs};
use wright_context::agents::{AgentDef, AgentSource};

use crate::args::AgentsAction;
use crate::exit;
use crate::render::escape_controls;

/// Prints the agents found from `project_root` with `settings`; warnings go
/// to stderr in both formats, so `--json` output stays one parseable array.
pub fn list(
    loader: &ConfigLoader,
    settings: &Settings,
    project_root: &Path,
    action: &AgentsAction,
) -> u8 {
    let AgentsAction::List { json: as_json } = action;
    let dirs = agent_dirs(settings, project_root, loader.user_config_dir.as_deref());
    let (agents, warnings) = wright_context::discover_agents(&dirs);
    let registry = crate::setup::tool_registry(settings, project_root);
    let tool_warnings = agents
        .iter()
        .filter_map(|a| wright_core::tool_list_warning(a, &registry));
    for warning in warnings.iter().cloned().chain(tool_warnings) {
        eprintln!("warning: {}", escape_controls(&warning));
    }
    if *as_json {
        println!("{}", to_json(&agents));
    } else {
        print!("{}", render(&agents));
        let kept = kept_worktrees(project_root);
        if !kept.is_empty() {
            println!("\nKept worktrees (subagents' changes, not in your working tree):");
            for (branch, path) in &kept {
                println!(
                    "  {}  {}",
                    escape_controls(branch),
                    escape_controls(&path.display().to_string())
                );
            }
        }
    }
    exit::SUCCESS
}

/// The worktrees isolated subagents left with changes: this repository's
/// worktrees on a `wright/…` branch, with their paths. Empty outside a
/// git repository or when git cannot say.
fn kept_worktrees(project_root: &Path) -> Vec<(String, std::path::PathBuf)> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(project_root)
        // wright's own git run: nothing of the repository's may run.
        .args([
            "-c",
            "core.fsmonitor=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .args(["worktree", "list", "--porcelain"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output();
    match out {
        Ok(out) if out.status.success() => wright_worktrees(&String::from_utf8_lossy(&out.stdout)),
        _ => Vec::new(),
    }
}

/// `git worktree list --porcelain` output → the `wright/…` branches with
/// their worktree paths.
fn wright_worktrees(porcelain: &str) -> Vec<(String, std::path::PathBuf)> {
    porcelain
        .split("\n\n")
        .filter_map(|block| {
            let path = block.lines().find_map(|l| l.strip_prefix("worktree "))?;
            let branch = block
                .lines()
                .find_map(|l| l.strip_prefix("branch refs/heads/"))?;
            branch
                .starts_with("wright/")
                .then(|| (branch.to_owned(), std::path::PathBuf::from(path)))
        })
        .collect()
}

/// `builtin` or the file's path.
fn source_value(source: &AgentSource) -> Value {
    match source {
        AgentSource::Builtin => Value::String("builtin".to_owned()),
        AgentSource::Flag => Value::String("--agents".to_owned()),
        AgentSource::File(path) => Value::String(path.display().to_string()),
    }
}

/// One object per agent. `tools` and `model` are `null` for "all tools"
/// and "the parent's model", matching the definition's own fields.
fn to_json(agents: &[AgentDef]) -> Value {
    Value::Array(
        agents
            .iter()
            .map(|a| {
                json!({
                    "name": a.name,
                    "source": source_value(&a.source),
                    "tools": a.tools,
                    "model": a.model,
                    "description": a.description,
                    "permission_mode": a.permission_mode,
                    "max_turns": a.max_turns,
                    "isolation": a.isolation,
                })
            })
            .collect(),
    )
}

/// The first non-blank line: descriptions written for Claude Code often
/// carry pages of examples after it.
fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// ```text
/// explore                  Fast read-only agent for exploring a codebase: …
///                          tools: Read, Grep, Glob, LS · model: inherit · built in
/// ```
fn render(agents: &[AgentDef]) -> String {
    let mut out = String::new();
    for a in agents {
        let tools = match &a.tools {
            None => "all".to_owned(),
            Some(t) if t.is_empty() => "none".to_owned(),
            Some(t) => t.join(", "),
        };
        let mut details = vec![
            format!("tools: {tools}"),
            format!("model: {}", a.model.as_deref().unwrap_or("inherit")),
        ];
        if let Some(mode) = &a.permission_mode {
            details.push(format!("permission mode: {mode}"));
        }
        if let Some(turns) = a.max_turns {
            details.push(format!("max turns: {turns}"));
        }
        if let Some(isolation) = &a.isolation {
            details.push(format!("isolation: {isolation}"));
        }
        details.push(a.source.to_string());
        // Definitions may come from files the user did not write (a
        // cloned project's); they must not drive the terminal.
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "{:<24} {}\n{:<24} {}",
            escape_controls(&a.name),
            escape_controls(first_line(&a.description)),
            "",
            escape_controls(&details.join(" · "))
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_wright_branches_count_as_kept_worktrees() {
        let porcelain = "worktree /p\nHEAD abc\nbranch refs/heads/main\n\n\
                         worktree /d/coder-1-x\nHEAD def\nbranch refs/heads/wright/coder-1-x\n\n\
                         worktree /d/detached\nHEAD 123\ndetached\n";
        assert_eq!(
            wright_worktrees(porcelain),
            [(
                "wright/coder-1-x".to_owned(),
                std::path::PathBuf::from("/d/coder-1-x")
            )]
        );
        assert!(wright_worktrees("").is_empty());
    }

    fn file_agent() -> AgentDef {
        AgentDef {
            name: "reviewer".into(),
            description: "\nReviews code.\nExamples: …".into(),
            tools: Some(vec!["Read".into(), "Grep".into()]),
            model: Some("haiku".into()),
            permission_mode: Some("plan".into()),
            max_turns: Some(5),
            isolation: Some("worktree".into()),
            prompt: "p".into(),
            source: AgentSource::File("/p/.wright/agents/r.md".into()),
        }
    }

    #[test]
    fn text_shows_first_line_tools_model_and_source() {
        let mut agents = wright_context::builtin_agents();
        agents.truncate(1);
        agents.push(file_agent());
        let text = render(&agents);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].starts_with("general "), "{text}");
        assert!(
            lines[1].ends_with("tools: all · model: inherit · built in"),
            "{text}"
        );
        assert!(lines[2].starts_with("reviewer"), "{text}");
        assert!(lines[2].ends_with(" Reviews code."), "{text}");
        assert!(
            lines[3].ends_with(
                "tools: Read, Grep · model: haiku · permission mode: plan · max turns: 5 \
                 · isolation: worktree · /p/.wright/agents/r.md"
            ),
            "{text}"
        );
    }

    #[test]
    fn json_has_every_field() {
        let mut agents = wright_context::builtin_agents();
        agents.truncate(1);
        agents.push(file_agent());
        let v = to_json(&agents);
        assert_eq!(v[0]["source"], "builtin");
        assert_eq!(v[0]["tools"], Value::Null);
        assert_eq!(v[0]["model"], Value::Null);
        assert_eq!(v[1]["source"], "/p/.wright/agents/r.md");
        assert_eq!(v[1]["tools"], json!(["Read", "Grep"]));
        assert_eq!(v[1]["model"], "haiku");
        assert_eq!(v[1]["permission_mode"], "plan");
        assert_eq!(v[1]["max_turns"], 5);
        assert_eq!(v[1]["isolation"], "worktree");
        assert_eq!(v[1]["description"], "\nReviews code.\nExamples: …");
    }

    #[test]
    fn control_characters_are_shown_not_sent() {
        let mut agent = file_agent();
        agent.description = "x\x1b[2Jgone".into();
        assert!(!render(&[agent]).contains('\x1b'));
    }
}
