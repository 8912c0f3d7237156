//! Assembles the system prompt: the base prompt, the environment, and the
//! project's instruction files, each part labelled with its source so the
//! user can see exactly what the model sees.

use std::path::{Path, PathBuf};

/// The base prompt: who wright is and how it works. Kept short on purpose:
/// every byte is paid for on every request.
pub const BASE_PROMPT: &str = "\
You are wright, a coding agent working in the user's project through tools. \
Read and search before you change anything; make the smallest change that does the job; \
follow the project's conventions and instructions.

Tools:
- Use read, glob, grep and ls to explore; prefer them over shell commands for reading and searching.
- Use edit for changes to existing files (old_string must match the file exactly, including indentation) and write for new files.
- Use bash to build, test and run things. Commands run in the project directory without a terminal; never start interactive programs.
- Several independent reads or searches can be requested in one response.

Rules:
- Stay inside the project unless the user asks otherwise. Never print, copy or commit secrets.
- Do not run destructive commands (deleting outside the project, force-pushing, rewriting history) unless the user asked for exactly that.
- If a tool call is refused (\"Permission denied\", \"Blocked by guard\"), do not retry it in another form; tell the user what you need.
- After a change, verify it (build, test, or re-read) when you can.

Answer concisely. Say what you did and what is left. Refer to code as path:line.";

/// One labelled part of the system prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptPart {
    /// Where it came from: "built-in", "environment", a file path, "--append-system-prompt", …
    pub source: String,
    /// The text.
    pub text: String,
}

/// Inputs to prompt assembly.
#[derive(Debug, Clone)]
pub struct PromptInputs<'a> {
    /// Session working directory.
    pub cwd: &'a Path,
    /// Project root (where `.wright/` or `.git` was found).
    pub project_root: &'a Path,
    /// Replacement for the base prompt, with its source label.
    pub base_override: Option<(String, String)>,
    /// Extra text appended at the end.
    pub append: Option<String>,
    /// Instruction file names to look for (default `AGENTS.md`).
    pub instruction_files: &'a [String],
    /// Today's date, `YYYY-MM-DD`.
    pub date: String,
}

/// Builds the labelled parts in their documented order.
pub fn assemble(inputs: &PromptInputs<'_>) -> Vec<PromptPart> {
    let mut parts = Vec::new();
    match &inputs.base_override {
        Some((source, text)) => parts.push(PromptPart {
            source: source.clone(),
            text: text.clone(),
        }),
        None => parts.push(PromptPart {
            source: "built-in".to_owned(),
            text: BASE_PROMPT.to_owned(),
        }),
    }
    parts.push(PromptPart {
        source: "environment".to_owned(),
        text: format!(
            "Environment:\n- Working directory: {}\n- Platform: {} ({})\n- Date: {}",
            inputs.cwd.display(),
            std::env::consts::OS,
            std::env::consts::ARCH,
            inputs.date
        ),
    });
    for path in instruction_paths(inputs.project_root, inputs.cwd, inputs.instruction_files) {
        // An unreadable instruction file is skipped: it must not stop the session.
        if let Ok(text) = std::fs::read_to_string(&path) {
            let text = text.trim();
            if !text.is_empty() {
                parts.push(PromptPart {
                    text: format!("Project instructions from {}:\n\n{text}", path.display()),
                    source: path.display().to_string(),
                });
            }
        }
    }
    if let Some(append) = &inputs.append {
        parts.push(PromptPart {
            source: "--append-system-prompt".to_owned(),
            text: append.clone(),
        });
    }
    parts
}

/// Joins parts into the text sent as the system prompt.
pub fn render(parts: &[PromptPart]) -> String {
    parts
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// Instruction files from the project root down to `cwd`, outermost first.
fn instruction_paths(root: &Path, cwd: &Path, names: &[String]) -> Vec<PathBuf> {
    let mut dirs: Vec<&Path> = cwd
        .ancestors()
        .take_while(|d| d.starts_with(root))
        .collect();
    if dirs.is_empty() {
        dirs.push(cwd);
    }
    dirs.reverse();
    dirs.iter()
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .filter(|p| p.is_file())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs<'a>(cwd: &'a Path, root: &'a Path, names: &'a [String]) -> PromptInputs<'a> {
        PromptInputs {
            cwd,
            project_root: root,
            base_override: None,
            append: None,
            instruction_files: names,
            date: "2026-11-22".to_owned(),
        }
    }

    #[test]
    fn agents_files_from_root_down_to_cwd_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let sub = root.join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(root.join("AGENTS.md"), "root rules").unwrap();
        std::fs::write(sub.join("AGENTS.md"), "sub rules").unwrap();
        std::fs::write(root.join("CLAUDE.md"), "not listed").unwrap();
        let names = vec!["AGENTS.md".to_owned()];
        let parts = assemble(&inputs(&sub, root, &names));
        let sources: Vec<&str> = parts.iter().map(|p| p.source.as_str()).collect();
        assert_eq!(sources[0], "built-in");
        assert_eq!(sources[1], "environment");
        assert!(sources[2].ends_with("AGENTS.md") && !sources[2].contains("a/b"));
        assert!(sources[3].ends_with("a/b/AGENTS.md"));
        assert_eq!(parts.len(), 4);
        let text = render(&parts);
        assert!(text.contains("root rules") && text.contains("sub rules"));
        assert!(!text.contains("not listed"));
        assert!(text.find("root rules") < text.find("sub rules"));
    }

    #[test]
    fn override_and_append() {
        let dir = tempfile::tempdir().unwrap();
        let names = vec![];
        let mut i = inputs(dir.path(), dir.path(), &names);
        i.base_override = Some(("--system-prompt".to_owned(), "custom".to_owned()));
        i.append = Some("extra".to_owned());
        let parts = assemble(&i);
        assert_eq!(parts[0].text, "custom");
        assert_eq!(parts.last().unwrap().text, "extra");
        assert!(!render(&parts).contains("You are wright"));
    }

    #[test]
    fn base_prompt_is_small() {
        assert!(BASE_PROMPT.len() < 3000);
    }
}
