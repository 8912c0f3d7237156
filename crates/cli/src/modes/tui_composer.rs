//! What the terminal UI's prompt editor is given by this process: the
//! commands it completes (built-in, MCP prompts known at start, the custom
//! commands of `.wright/commands` and the user's commands directory), the
//! project's prompt history file and the project's files for `@path`; and
//! the expansion of a custom command into the turn it starts.

use std::path::{Path, PathBuf};

use wright_context::commands::{self, CustomCommand};
use wright_tui::composer::{CommandEntry, FileSource, History};

/// The custom commands and what loading them reported.
pub struct CustomCommands {
    /// Sorted by name; a project command replaces a user one.
    pub commands: Vec<CustomCommand>,
    /// A line per file that could not be used.
    pub warnings: Vec<String>,
}

impl CustomCommands {
    /// Loads the project's and the user's commands.
    pub fn load(project_root: &Path) -> Self {
        let user_dir = wright_config::default_user_config_dir();
        let (commands, problems) = commands::load(project_root, user_dir.as_deref());
        Self {
            commands,
            warnings: problems
                .iter()
                .map(|w| match &w.path {
                    Some(path) => format!("warning: {}: {}", path.display(), w.message),
                    None => format!("warning: {}", w.message),
                })
                .collect(),
        }
    }

    /// The prompt a typed `/name args` starts, `None` when no custom
    /// command has that name.
    pub fn expand(&self, command: &str, args: &str) -> Option<String> {
        let name = command.strip_prefix('/')?;
        let found = self.commands.iter().find(|c| c.name == name)?;
        Some(commands::expand(found, args))
    }

    /// `/help` lines, one per command.
    pub fn help(&self) -> String {
        self.commands
            .iter()
            .map(|c| {
                let hint = c.argument_hint.as_deref().unwrap_or("");
                format!("/{} {hint} — {} ({})\n", c.name, c.description, c.scope)
            })
            .collect()
    }

    /// Completion entries.
    fn entries(&self) -> Vec<CommandEntry> {
        self.commands
            .iter()
            .map(|c| CommandEntry {
                name: format!("/{}", c.name),
                description: c.description.clone(),
            })
            .collect()
    }
}

/// Everything to complete: the UI's own commands, then MCP prompts, then
/// custom commands (a custom command named like a built-in never runs: the
/// built-in is matched first, so it is not offered twice).
pub fn command_entries(
    custom: &CustomCommands,
    mcp_prompts: &[wright_mcp::McpPrompt],
) -> Vec<CommandEntry> {
    let mut entries = wright_tui::command_entries();
    entries.extend(mcp_prompts.iter().map(|p| {
        CommandEntry {
            name: format!("/{}", p.exposed),
            description: p
                .description
                .as_deref()
                .and_then(|d| d.lines().next())
                .unwrap_or("MCP prompt")
                .to_owned(),
        }
    }));
    for entry in custom.entries() {
        if !entries.iter().any(|e| e.name == entry.name) {
            entries.push(entry);
        }
    }
    entries
}

/// The project's prompt history: `<data_dir>/wright/history/<project>.jsonl`,
/// named like the project's sessions directory.
pub fn history_path(cwd: &Path) -> Option<PathBuf> {
    let store = crate::sessions::store().ok()?;
    let project = store.project_dir(cwd);
    let slug = project.file_name()?;
    let data = store.root().parent()?;
    let mut file = data.join("history").join(slug);
    file.set_extension("jsonl");
    Some(file)
}

/// The composer's history, in memory when there is no data directory.
pub fn history(cwd: &Path) -> History {
    history_path(cwd).map_or_else(History::in_memory, History::open)
}

/// The project's files for `@path`, indexed in the background.
pub fn files(project_root: &Path) -> FileSource {
    let source = FileSource::new(project_root);
    source.start();
    source
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_commands_complete_after_the_built_ins_and_expand() {
        let dir = tempfile::tempdir().unwrap();
        let commands = dir.path().join(".wright/commands");
        std::fs::create_dir_all(&commands).unwrap();
        std::fs::write(
            commands.join("review.md"),
            "---\ndescription: Review a PR\n---\nReview PR $ARGUMENTS carefully.\n",
        )
        .unwrap();
        std::fs::write(commands.join("help.md"), "shadowed\n").unwrap();
        let custom = CustomCommands::load(dir.path());
        let entries = command_entries(&custom, &[]);
        assert_eq!(entries.iter().filter(|e| e.name == "/help").count(), 1);
        assert!(
            entries
                .iter()
                .any(|e| e.name == "/review" && e.description == "Review a PR")
        );
        assert_eq!(
            custom.expand("/review", "42").as_deref(),
            Some("Review PR 42 carefully.")
        );
        assert_eq!(custom.expand("/nope", ""), None);
        assert!(custom.help().contains("/review"));
    }
}
