//! Targets for the config loader: a config file's TOML text and the
//! environment variables config reads. Both go through the real
//! [`ConfigLoader`], so layering and the trust screen run too.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use wright_config::{ConfigLoader, ENV_VARS, Overrides, Provider, Resolved};

use crate::select;

/// A directory for this process's scratch files, under the temp dir; see
/// [`scratch_root`]. Created once.
pub(crate) fn scratch_dir(name: &str) -> Option<PathBuf> {
    let dir = scratch_root().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir)
}

/// Where every target keeps scratch files: `$TMPDIR/wright-fuzz`. Remove
/// it after a run ([`remove_scratch`]).
pub fn scratch_root() -> PathBuf {
    std::env::temp_dir().join("wright-fuzz")
}

/// Removes this process's scratch directories.
pub fn remove_scratch() {
    let suffix = format!("-{}", std::process::id());
    if let Ok(entries) = std::fs::read_dir(scratch_root()) {
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().ends_with(&suffix) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

/// The scratch user config dir and project root for [`config_toml`].
fn config_dirs() -> Option<&'static (PathBuf, PathBuf)> {
    static DIRS: OnceLock<Option<(PathBuf, PathBuf)>> = OnceLock::new();
    DIRS.get_or_init(|| {
        let dir = scratch_dir("config")?;
        let user = dir.join("user");
        let project = dir.join("project");
        std::fs::create_dir_all(&user).ok()?;
        std::fs::create_dir_all(project.join(".wright")).ok()?;
        Some((user, project))
    })
    .as_ref()
}

/// Exercises a loaded config's views, as `wright config show` does.
fn views(resolved: &Resolved) {
    let _ = resolved.entries();
    let _ = resolved.warnings();
    let _ = resolved.render();
}

/// A config file's text: the first byte picks the layer (the user file,
/// the project's `config.toml` or its `config.local.toml`).
pub fn config_toml(data: &[u8]) {
    let Some((user, project)) = config_dirs() else {
        return;
    };
    let (selector, text) = select(data);
    let loader = ConfigLoader {
        user_config_dir: Some(user.clone()),
        project_root: project.clone(),
        env: HashMap::new(),
    };
    let files = [
        loader
            .user_file()
            .unwrap_or_else(|| user.join("config.toml")),
        loader.project_file(),
        loader.local_file(),
    ];
    let target = &files[usize::from(selector) % files.len()];
    if std::fs::write(target, text).is_err() {
        return;
    }
    if let Ok(resolved) = loader.load(&Overrides::default()) {
        views(&resolved);
    }
    let _ = loader.validate();
    let _ = std::fs::remove_file(target);
}

/// The environment: line `i` of the input is the value of `ENV_VARS[i]`
/// (an empty line leaves it unset); the first byte picks the provider
/// flag, which decides the base URL variable that applies.
pub fn config_env(data: &[u8]) {
    let (selector, text) = select(data);
    let text = String::from_utf8_lossy(text);
    let env: HashMap<String, String> = ENV_VARS
        .iter()
        .zip(text.split('\n'))
        .filter(|(_, value)| !value.is_empty())
        .map(|(name, value)| ((*name).to_owned(), value.to_owned()))
        .collect();
    let provider = match selector % 4 {
        0 => None,
        1 => Some(Provider::Anthropic),
        2 => Some(Provider::OpenaiChat),
        _ => Some(Provider::OpenaiResponses),
    };
    let loader = ConfigLoader {
        user_config_dir: None,
        project_root: Path::new("/nonexistent/wright-fuzz").to_path_buf(),
        env,
    };
    let overrides = Overrides {
        provider,
        ..Overrides::default()
    };
    if let Ok(resolved) = loader.load(&overrides) {
        views(&resolved);
    }
    let _ = loader.validate();
}
