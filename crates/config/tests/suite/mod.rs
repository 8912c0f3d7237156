//! Test modules and shared fixtures.

mod errors;
mod hooks;
mod keys;
mod layers;
mod root;
mod trust;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tempfile::TempDir;
use wright_config::ConfigLoader;

/// A user config dir and a project root, both empty, in one temp dir.
pub struct Fixture {
    _tmp: TempDir,
    pub user: PathBuf,
    pub project: PathBuf,
}

impl Fixture {
    pub fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let user = tmp.path().join("xdg").join("wright");
        let project = tmp.path().join("proj");
        std::fs::create_dir_all(&user).unwrap();
        std::fs::create_dir_all(project.join(".wright")).unwrap();
        Fixture {
            _tmp: tmp,
            user,
            project,
        }
    }

    pub fn user_file(&self) -> PathBuf {
        self.user.join("config.toml")
    }

    pub fn project_file(&self) -> PathBuf {
        self.project.join(".wright/config.toml")
    }

    pub fn local_file(&self) -> PathBuf {
        self.project.join(".wright/config.local.toml")
    }

    pub fn write(&self, path: &Path, text: &str) {
        std::fs::write(path, text).unwrap();
    }

    pub fn loader(&self, env: &[(&str, &str)]) -> ConfigLoader {
        ConfigLoader {
            user_config_dir: Some(self.user.clone()),
            project_root: self.project.clone(),
            env: env
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect::<HashMap<_, _>>(),
        }
    }
}

/// Overrides that trust the project, for tests about layering of keys a
/// project may set only once trusted (`provider`, `base_url`, `[models]`).
pub fn trusted() -> wright_config::Overrides {
    wright_config::Overrides {
        trust_project: true,
        ..wright_config::Overrides::default()
    }
}
