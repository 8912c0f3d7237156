//! `wright init` (a starter `.wright/config.toml` and `AGENTS.md`) and
//! `wright config edit` (the config file in the user's editor).

use std::path::Path;

use wright_config::ConfigLoader;

use crate::exit;
use crate::setup::SetupError;

const STARTER_CONFIG: &str = r#"# wright project settings (shared with the team; personal overrides go in
# .wright/config.local.toml). `wright config show` prints the merged result.

# permission_mode = "default"   # default | accept-edits | plan | auto | bypass

[permissions]
# allow = ["Bash(cargo test:*)", "Edit(src/**)"]
# deny = ["Read(.env*)"]

[sandbox]
# mode = "workspace-write"      # read-only | workspace-write | full
# network = false

[context]
# instruction_files = ["AGENTS.md"]
"#;

const STARTER_AGENTS: &str = "# Instructions for coding agents

## Build and test
- Build: <command>
- Test: <command>

## Conventions
- <how code in this project is written and organized>
";

/// Writes the starter files that do not exist yet.
pub fn init(project_root: &Path) -> Result<u8, SetupError> {
    let files = [
        (
            project_root.join(".wright").join("config.toml"),
            STARTER_CONFIG,
        ),
        (project_root.join("AGENTS.md"), STARTER_AGENTS),
    ];
    for (path, text) in files {
        if path.exists() {
            eprintln!("kept {} (it exists)", path.display());
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| SetupError(format!("cannot create {}: {e}", dir.display())))?;
        }
        std::fs::write(&path, text)
            .map_err(|e| SetupError(format!("cannot write {}: {e}", path.display())))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(exit::SUCCESS)
}

/// Opens the project's (or with `user`, the user's) config file in
/// `$VISUAL` / `$EDITOR` (default `vi`), creating it empty if needed, then
/// checks it.
pub fn edit(loader: &ConfigLoader, user: bool) -> Result<u8, SetupError> {
    let path = if user {
        loader.user_file().ok_or_else(|| {
            SetupError("no user config directory (set XDG_CONFIG_HOME)".to_owned())
        })?
    } else {
        loader.project_file()
    };
    if !path.exists() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| SetupError(format!("cannot create {}: {e}", dir.display())))?;
        }
        std::fs::write(&path, "")
            .map_err(|e| SetupError(format!("cannot create {}: {e}", path.display())))?;
    }
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .unwrap_or_else(|_| "vi".to_owned());
    // The editor setting may carry arguments (`code --wait`).
    let mut words = shlex::split(&editor).unwrap_or_else(|| vec![editor.clone()]);
    if words.is_empty() {
        words.push("vi".to_owned());
    }
    let status = std::process::Command::new(&words[0])
        .args(&words[1..])
        .arg(&path)
        .status()
        .map_err(|e| SetupError(format!("cannot start the editor `{editor}`: {e}")))?;
    if !status.success() {
        return Err(SetupError(format!(
            "the editor `{editor}` failed ({status})"
        )));
    }
    match loader.load(&wright_config::Overrides::default()) {
        Ok(_) => {
            eprintln!("{} is valid", path.display());
            Ok(exit::SUCCESS)
        }
        Err(e) => Err(SetupError(e.to_string())),
    }
}
