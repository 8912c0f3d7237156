//! `wright init` (a starter `.wright/config.toml` and `AGENTS.md`, and the
//! personal config file in `.gitignore`) and `wright config edit` (the
//! config file in the user's editor).
//!
//! Files in the project are created through [`Beneath`] rooted at the
//! project: a repository can ship `AGENTS.md` or `.wright` as a (dangling)
//! symlink pointing outside, and wright must not create the target.

use std::path::{Path, PathBuf};

use wright_config::ConfigLoader;
use wright_sandbox::{Beneath, OpenError};

use crate::exit;
use crate::exit::SetupError;

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

/// The line `init` puts in `.gitignore`: personal settings stay out of
/// the repository.
const LOCAL_CONFIG_IGNORE: &str = ".wright/config.local.toml";

/// Writes the starter files that do not exist yet (an `AGENTS.md` filled
/// with the build and test commands found in the project's manifests) and
/// makes `.gitignore` ignore the personal config file.
pub fn init(project_root: &Path) -> Result<u8, SetupError> {
    let agents = crate::init_detect::starter_agents(&crate::init_detect::detect(project_root));
    let files = [
        (
            project_root.join(".wright").join("config.toml"),
            STARTER_CONFIG.to_owned(),
        ),
        (project_root.join("AGENTS.md"), agents),
    ];
    for (path, text) in files {
        if kept(&path) {
            continue;
        }
        create_in_project(project_root, &path, text.as_bytes())?;
        eprintln!("wrote {}", path.display());
    }
    ignore_local_config(project_root)?;
    Ok(exit::SUCCESS)
}

/// Whether `path` exists (a dangling symlink too), saying it is kept.
fn kept(path: &Path) -> bool {
    // symlink_metadata: a dangling symlink exists too, and is kept.
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            eprintln!(
                "kept {} (a symbolic link; not following it)",
                path.display()
            );
            true
        }
        Ok(_) => {
            eprintln!("kept {} (it exists)", path.display());
            true
        }
        Err(_) => false,
    }
}

/// Adds [`LOCAL_CONFIG_IGNORE`] to the project's `.gitignore` (creating it)
/// unless a line already names it.
fn ignore_local_config(project_root: &Path) -> Result<(), SetupError> {
    let path = project_root.join(".gitignore");
    let existing = match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            eprintln!(
                "kept {} (a symbolic link; add {LOCAL_CONFIG_IGNORE} to it yourself)",
                path.display()
            );
            return Ok(());
        }
        Ok(_) => std::fs::read_to_string(&path)
            .map_err(|e| SetupError(format!("cannot read {}: {e}", path.display())))?,
        Err(_) => String::new(),
    };
    let listed = existing.lines().any(|line| {
        let line = line.trim().trim_start_matches('/');
        line == LOCAL_CONFIG_IGNORE || line == ".wright/" || line == ".wright"
    });
    if listed {
        return Ok(());
    }
    let mut text = existing;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(LOCAL_CONFIG_IGNORE);
    text.push('\n');
    create_in_project(project_root, &path, text.as_bytes())?;
    eprintln!("added {LOCAL_CONFIG_IGNORE} to {}", path.display());
    Ok(())
}

/// Writes `path` (inside `project_root`) without following any symlink
/// below the root, creating missing directories.
fn create_in_project(project_root: &Path, path: &Path, bytes: &[u8]) -> Result<(), SetupError> {
    let cannot = |why: String| SetupError(format!("cannot write {}: {why}", path.display()));
    let beneath = Beneath::new([project_root.to_path_buf()]);
    let root = beneath
        .roots()
        .first()
        .cloned()
        .ok_or_else(|| cannot("the project directory cannot be resolved".to_owned()))?;
    let rel = path
        .strip_prefix(project_root)
        .map_err(|_| cannot("it is outside the project".to_owned()))?;
    let target: PathBuf = root.join(rel);
    beneath.write(&target, bytes).map_err(|e| match e {
        OpenError::Symlink(_) | OpenError::Escape(_) => cannot(
            "a symbolic link is in the way (refusing to follow it out of the project)".to_owned(),
        ),
        other => cannot(other.to_string()),
    })
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
    let wright_dir = loader.project_root.join(wright_config::PROJECT_DIR);
    if !user && std::fs::symlink_metadata(&wright_dir).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(SetupError(format!(
            "{} is a symbolic link; refusing to edit through it",
            wright_dir.display()
        )));
    }
    match std::fs::symlink_metadata(&path) {
        // The user's own config may be a dotfiles symlink; a project's may
        // not, since the editor would follow it out of the project.
        Ok(meta) if meta.file_type().is_symlink() && !user => {
            return Err(SetupError(format!(
                "{} is a symbolic link; refusing to edit through it",
                path.display()
            )));
        }
        Ok(_) => {}
        Err(_) if user => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| SetupError(format!("cannot create {}: {e}", dir.display())))?;
            }
            wright_config::replace_file(&path, b"")
                .map_err(|e| SetupError(format!("cannot create {}: {e}", path.display())))?;
        }
        Err(_) => create_in_project(&loader.project_root, &path, b"")?,
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
