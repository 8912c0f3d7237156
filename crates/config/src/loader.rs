//! [`ConfigLoader`]: finds the config files, reads each layer in order
//! (defaults < user file < project file < project local file < environment
//! < flags) and merges them into a [`Resolved`]. The project's two files
//! pass through the trust screen (`trust.rs`) unless the project is trusted.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::assign::Assign;
use crate::check::check_file;
use crate::env::{ENV_VARS, env_base_url, env_layer};
use crate::error::ConfigError;
use crate::file::parse_layer;
use crate::infer::{self, Inference};
use crate::kinds::Provider;
use crate::overrides::Overrides;
use crate::projects::{
    Trust, TrustSource, approvals_from_entries, canonical_root, trust_from_entries,
};
use crate::read::read_optional;
use crate::resolved::Resolved;
use crate::source::Source;
use crate::toml_text::quote;
use crate::trust::{IgnoreReason, Ignored, describe_server, loosening, split_instruction_files};

/// Name of every config file.
pub const CONFIG_FILE: &str = "config.toml";
/// Name of the project's uncommitted overrides file, beside [`CONFIG_FILE`].
pub const LOCAL_CONFIG_FILE: &str = "config.local.toml";
/// The project's config directory, under the project root.
pub const PROJECT_DIR: &str = ".wright";

/// Where config is read from. Every input is a field so tests can point it
/// at temporary directories and a made-up environment.
#[derive(Debug, Clone)]
pub struct ConfigLoader {
    /// Directory holding the user's `config.toml`; `None` skips the user layer.
    pub user_config_dir: Option<PathBuf>,
    /// Project root; its `.wright/` holds the project files.
    pub project_root: PathBuf,
    /// The environment, injected. Only [`ENV_VARS`] are consulted.
    pub env: HashMap<String, String>,
}

impl ConfigLoader {
    /// Real locations: user dir from `$XDG_CONFIG_HOME` or the platform
    /// config dir + `/wright`, project root found from `cwd`, and the
    /// environment variables config uses (credentials are never copied).
    pub fn from_environment(cwd: &Path) -> Self {
        let env = ENV_VARS
            .iter()
            .filter_map(|name| std::env::var(name).ok().map(|v| ((*name).to_owned(), v)))
            .collect();
        ConfigLoader {
            user_config_dir: default_user_config_dir(),
            project_root: find_project_root(cwd),
            env,
        }
    }

    /// The user's config file, if there is a user config dir.
    pub fn user_file(&self) -> Option<PathBuf> {
        self.user_config_dir.as_ref().map(|d| d.join(CONFIG_FILE))
    }

    /// `<project>/.wright/config.toml`, meant to be committed.
    pub fn project_file(&self) -> PathBuf {
        self.project_root.join(PROJECT_DIR).join(CONFIG_FILE)
    }

    /// `<project>/.wright/config.local.toml`, meant to stay uncommitted.
    pub fn local_file(&self) -> PathBuf {
        self.project_root.join(PROJECT_DIR).join(LOCAL_CONFIG_FILE)
    }

    /// The files this loader reads, lowest layer first, with whether each exists.
    pub fn files(&self) -> Vec<(PathBuf, bool)> {
        self.layered_files()
            .into_iter()
            .map(|(path, _)| {
                let exists = path.exists();
                (path, exists)
            })
            .collect()
    }

    /// Reads and merges every layer. A missing file is skipped; any other
    /// problem, in any layer, is an error even if a higher layer would
    /// have overridden the bad value. Unless the project is trusted, the
    /// values of its files that would loosen safety are left out and
    /// listed in [`Resolved::ignored`].
    pub fn load(&self, overrides: &Overrides) -> Result<Resolved, ConfigError> {
        let flags = overrides.layer()?;
        let mut resolved = Resolved::default();
        resolved.project_files = vec![self.project_file(), self.local_file()];
        let root = canonical_root(&self.project_root);
        let mut trust = if overrides.trust_project {
            Trust::Trusted(TrustSource::Flag)
        } else {
            Trust::Untrusted
        };
        let sources = overrides.setting_sources.unwrap_or_default();
        resolved.setting_sources = sources;
        resolved.flag_settings = overrides.settings.clone();
        for (path, base_dir) in self.layered_files() {
            let wanted = if path == self.project_file() {
                sources.project
            } else if path == self.local_file() {
                sources.local
            } else {
                sources.user
            };
            if !wanted {
                continue;
            }
            let Some(text) = read_optional(&path)? else {
                continue;
            };
            let layer = parse_layer(&path, &text, &base_dir)?;
            let from_project = resolved.project_files.contains(&path);
            if !from_project && !overrides.trust_project {
                trust = trust_from_entries(&layer.projects, &root, &path);
            }
            if !from_project {
                resolved.mcp_approvals = approvals_from_entries(&layer.projects, &root);
            }
            for key in layer.not_applied {
                resolved.ignored.push(Ignored {
                    file: path.clone(),
                    key: "mcp_servers",
                    value: key,
                    reason: IgnoreReason::CodexSetting,
                });
            }
            // Only the user's file says which variables commands get.
            match layer.shell_environment {
                Some(_) if from_project => resolved.ignored.push(Ignored {
                    file: path.clone(),
                    key: crate::shell_env::TABLE,
                    value: crate::shell_env::TABLE.to_owned(),
                    reason: IgnoreReason::UserConfigOnly,
                }),
                Some(policy) => resolved.shell_environment = policy,
                None => {}
            }
            if from_project && !layer.projects.is_empty() {
                resolved.ignored.push(Ignored {
                    file: path.clone(),
                    key: "projects",
                    value: "projects".to_owned(),
                    reason: IgnoreReason::UserConfigOnly,
                });
            }
            for assign in layer.assigns {
                let assign = match assign {
                    Assign::InstructionFiles(names) if from_project => {
                        let (inside, outside) = split_instruction_files(names);
                        for name in outside {
                            resolved.ignored.push(Ignored {
                                file: path.clone(),
                                key: "context.instruction_files",
                                value: quote(&name),
                                reason: IgnoreReason::OutsideProject,
                            });
                        }
                        Assign::InstructionFiles(inside)
                    }
                    Assign::McpServers(servers) if from_project && !trust.is_trusted() => {
                        // One entry per server, so approving one by name
                        // releases just that one.
                        for server in servers {
                            resolved.ignored.push(Ignored {
                                file: path.clone(),
                                key: "mcp_servers",
                                value: describe_server(&server),
                                reason: IgnoreReason::UntrustedProject,
                            });
                            resolved.held_mcp_servers.push(server);
                        }
                        continue;
                    }
                    other => other,
                };
                if from_project
                    && !trust.is_trusted()
                    && let Some(value) = loosening(&assign, &resolved.settings, &self.project_root)
                {
                    resolved.ignored.push(Ignored {
                        file: path.clone(),
                        key: assign.key(),
                        value,
                        reason: IgnoreReason::UntrustedProject,
                    });
                    continue;
                }
                resolved.set(assign, Source::File(path.clone()));
            }
            resolved.files.push(path);
        }
        resolved.settings.trust = trust;
        for (assign, source) in env_layer(&self.env)? {
            resolved.set(assign, source);
        }
        // The base URL variable that applies depends on the provider in
        // force after flags, and is irrelevant when `--base-url` is given.
        // With no provider named, the variable that is set names it.
        let provider = overrides.provider.or(resolved.settings.provider);
        if overrides.base_url.is_none() {
            if let Some((assign, source)) = env_base_url(&self.env, provider)? {
                resolved.set(assign, source);
            } else if provider.is_none()
                && let Some((inferred, var, _)) = infer::from_env(&self.env)
                && let Some((assign, source)) = env_base_url(&self.env, Some(inferred))?
            {
                let source_of = Source::Env(var.to_owned());
                resolved.set(Assign::Provider(inferred), source_of);
                resolved.set(assign, source);
                resolved.inferred = Some(Inference {
                    provider: inferred,
                    base_url: resolved.settings.base_url.clone().unwrap_or_default(),
                    from: var.to_owned(),
                    ignored: infer::both_set(&self.env).then_some("OPENAI_BASE_URL"),
                });
            }
        }
        for (assign, source) in flags {
            resolved.set(assign, source);
        }
        if resolved.settings.provider.is_none()
            && let Some(url) = resolved.settings.base_url.clone()
            && let Some(inferred) = infer::provider_for_url(&url)
        {
            let source = resolved
                .source("base_url")
                .cloned()
                .unwrap_or(Source::Default);
            let from = match &source {
                Source::Flag(flag) => flag.clone(),
                other => other.to_string(),
            };
            resolved.set(Assign::Provider(inferred), source);
            resolved.inferred = Some(Inference {
                provider: inferred,
                base_url: url,
                from: format!("the shape of {from}"),
                ignored: None,
            });
        }
        Ok(resolved)
    }

    /// Whether the project is trusted, from the user file and the flag
    /// alone (project files are not parsed). For `wright doctor` and
    /// `wright trust`; a broken user file counts as not trusting.
    pub fn trust(&self, overrides: &Overrides) -> Trust {
        if overrides.trust_project {
            return Trust::Trusted(TrustSource::Flag);
        }
        let Some((path, base_dir)) = self.user_file().zip(self.user_config_dir.clone()) else {
            return Trust::Untrusted;
        };
        match read_optional(&path) {
            Ok(Some(text)) => parse_layer(&path, &text, &base_dir).map_or(Trust::Untrusted, |l| {
                trust_from_entries(&l.projects, &canonical_root(&self.project_root), &path)
            }),
            Ok(None) | Err(_) => Trust::Untrusted,
        }
    }

    /// Checks every layer on its own, so one bad file does not hide the
    /// problems of another. The environment is reported as one entry.
    pub fn validate(&self) -> Vec<LayerCheck> {
        let mut checks: Vec<LayerCheck> = self
            .layered_files()
            .into_iter()
            .map(|(path, base_dir)| {
                let (exists, mut problems) = match read_optional(&path) {
                    Ok(None) => (false, Vec::new()),
                    Ok(Some(text)) => (true, check_file(&path, &text, &base_dir)),
                    Err(e) => (true, vec![e]),
                };
                let error = (!problems.is_empty()).then(|| problems.remove(0));
                LayerCheck {
                    layer: path.display().to_string(),
                    exists,
                    error,
                    more: problems,
                }
            })
            .collect();
        let env_error = env_layer(&self.env)
            .err()
            .or_else(|| env_base_url(&self.env, Some(Provider::Anthropic)).err())
            .or_else(|| env_base_url(&self.env, Some(Provider::OpenaiChat)).err());
        checks.push(LayerCheck {
            layer: "environment".to_owned(),
            exists: true,
            error: env_error,
            more: Vec::new(),
        });
        checks
    }

    /// Each file with the directory its relative paths resolve against:
    /// the user dir for the user file, the project root for project files.
    fn layered_files(&self) -> Vec<(PathBuf, PathBuf)> {
        let mut files = Vec::new();
        if let (Some(dir), Some(file)) = (&self.user_config_dir, self.user_file()) {
            files.push((file, dir.clone()));
        }
        files.push((self.project_file(), self.project_root.clone()));
        files.push((self.local_file(), self.project_root.clone()));
        files
    }
}

/// The outcome of checking one configuration layer.
#[derive(Debug)]
pub struct LayerCheck {
    /// The file path, or `environment`.
    pub layer: String,
    /// Whether the file exists (always true for the environment).
    pub exists: bool,
    /// The first problem found, if any.
    pub error: Option<ConfigError>,
    /// The problems after the first, in the order found.
    pub more: Vec<ConfigError>,
}

/// The user config dir: `$XDG_CONFIG_HOME/wright` when that is set to an
/// absolute path, else the platform config dir + `/wright`.
pub fn default_user_config_dir() -> Option<PathBuf> {
    user_config_dir_from(
        std::env::var_os("XDG_CONFIG_HOME").as_deref(),
        dirs::config_dir(),
    )
}

fn user_config_dir_from(xdg: Option<&OsStr>, platform: Option<PathBuf>) -> Option<PathBuf> {
    // The XDG spec says relative values are invalid and must be ignored.
    let xdg = xdg.map(PathBuf::from).filter(|p| p.is_absolute());
    xdg.or(platform).map(|base| base.join("wright"))
}

/// Nearest ancestor of `cwd` (inclusive) holding `.wright/` or `.git`; else `cwd`.
pub fn find_project_root(cwd: &Path) -> PathBuf {
    cwd.ancestors()
        .find(|dir| dir.join(PROJECT_DIR).is_dir() || dir.join(".git").exists())
        .unwrap_or(cwd)
        .to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xdg_wins_when_absolute() {
        let platform = Some(PathBuf::from("/plat"));
        assert_eq!(
            user_config_dir_from(Some(OsStr::new("/xdg")), platform.clone()),
            Some(PathBuf::from("/xdg/wright"))
        );
        assert_eq!(
            user_config_dir_from(Some(OsStr::new("rel")), platform.clone()),
            Some(PathBuf::from("/plat/wright"))
        );
        assert_eq!(
            user_config_dir_from(None, platform),
            Some(PathBuf::from("/plat/wright"))
        );
        assert_eq!(user_config_dir_from(None, None), None);
    }
}
