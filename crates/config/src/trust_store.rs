//! Recording trust in the user's config file: `wright trust`, the
//! interactive trust question and "always allow in this project" write
//! `[projects."<canonical root>"] trusted = true` there, and approving a
//! project's MCP server writes
//! `[projects."<canonical root>".approved_mcp_servers] NAME = "<fingerprint>"`,
//! keeping the rest of the file (comments, order, other keys) as it was.

use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, Item, Table};

use crate::error::ConfigError;
use crate::loader::CONFIG_FILE;
use crate::projects::canonical_root;
use crate::read::read_optional;

/// What to record about a project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustChange {
    /// Mark it trusted.
    Trust,
    /// Remove every entry for it, so it is untrusted again.
    Revoke,
}

/// Records `change` for the project at `project_root` in
/// `<user_config_dir>/config.toml`, creating the file and directory as
/// needed. Returns the file written. A file that does not parse is left
/// untouched and reported.
pub fn record_trust(
    user_config_dir: &Path,
    project_root: &Path,
    change: TrustChange,
) -> Result<PathBuf, ConfigError> {
    edit_project_entry(
        user_config_dir,
        project_root,
        |projects, key, root, not_table| {
            match change {
                TrustChange::Trust => {
                    project_entry(projects, key, not_table)?
                        .insert("trusted", toml_edit::value(true));
                }
                TrustChange::Revoke => {
                    let matching: Vec<String> = projects
                        .iter()
                        .map(|(k, _)| k.to_owned())
                        .filter(|k| canonical_root(Path::new(k)) == root)
                        .collect();
                    for k in matching {
                        projects.remove(&k);
                    }
                }
            }
            Ok(())
        },
    )
}

/// Records that the user approved the MCP server `name` of the project at
/// `project_root` as defined with `fingerprint` (or, with `None`, forgets
/// every approval of that name), in `<user_config_dir>/config.toml`.
/// Returns the file written. A file that does not parse is left untouched
/// and reported.
pub fn record_mcp_approval(
    user_config_dir: &Path,
    project_root: &Path,
    name: &str,
    fingerprint: Option<&str>,
) -> Result<PathBuf, ConfigError> {
    edit_project_entry(
        user_config_dir,
        project_root,
        |projects, key, root, not_table| {
            match fingerprint {
                Some(fingerprint) => {
                    let entry = project_entry(projects, key, not_table)?;
                    let approved = entry
                        .entry("approved_mcp_servers")
                        .or_insert_with(|| Item::Table(Table::new()))
                        .as_table_like_mut()
                        .ok_or_else(not_table)?;
                    approved.insert(name, toml_edit::value(fingerprint));
                }
                None => {
                    let matching: Vec<String> = projects
                        .iter()
                        .map(|(k, _)| k.to_owned())
                        .filter(|k| canonical_root(Path::new(k)) == root)
                        .collect();
                    for k in matching {
                        if let Some(approved) = projects
                            .get_mut(&k)
                            .and_then(|e| e.as_table_like_mut())
                            .and_then(|e| e.get_mut("approved_mcp_servers"))
                            .and_then(Item::as_table_like_mut)
                        {
                            approved.remove(name);
                        }
                    }
                }
            }
            Ok(())
        },
    )
}

type NotTable<'a> = &'a dyn Fn() -> ConfigError;

/// The `[projects."<key>"]` table, created when missing.
fn project_entry<'a>(
    projects: &'a mut dyn toml_edit::TableLike,
    key: &str,
    not_table: NotTable<'_>,
) -> Result<&'a mut dyn toml_edit::TableLike, ConfigError> {
    projects
        .entry(key)
        .or_insert_with(|| {
            let mut t = Table::new();
            // No empty `[projects."/p"]` above `[projects."/p".approved_mcp_servers]`.
            t.set_implicit(true);
            Item::Table(t)
        })
        .as_table_like_mut()
        .ok_or_else(not_table)
}

/// Reads the user file, lets `edit` change its `[projects]` table (given
/// the project's key, its canonical root and the error for a value that is
/// not a table), and writes it back atomically.
fn edit_project_entry(
    user_config_dir: &Path,
    project_root: &Path,
    edit: impl FnOnce(
        &mut dyn toml_edit::TableLike,
        &str,
        &Path,
        NotTable<'_>,
    ) -> Result<(), ConfigError>,
) -> Result<PathBuf, ConfigError> {
    let mut file = user_config_dir.join(CONFIG_FILE);
    // A dotfiles setup often symlinks the config; write the target so
    // the link survives.
    if let Ok(real) = file.canonicalize() {
        file = real;
    }
    let io = |e: std::io::Error| ConfigError::Io {
        path: file.clone(),
        message: e.to_string(),
    };
    let text = read_optional(&file)?.unwrap_or_default();
    let mut doc: DocumentMut =
        text.parse()
            .map_err(|e: toml_edit::TomlError| ConfigError::Parse {
                path: file.clone(),
                line: 1,
                column: 1,
                message: e.message().to_owned(),
            })?;
    let root = canonical_root(project_root);
    let key = root.to_string_lossy().into_owned();
    let not_table = || ConfigError::Invalid {
        origin: crate::error::Origin::File {
            path: file.clone(),
            line: 1,
            column: 1,
        },
        key: "projects".to_owned(),
        value: String::new(),
        message: "expected a table".to_owned(),
    };
    let projects = doc
        .entry("projects")
        .or_insert_with(|| {
            let mut t = Table::new();
            // `[projects."/p"]` headers rather than an empty `[projects]`.
            t.set_implicit(true);
            Item::Table(t)
        })
        .as_table_like_mut()
        .ok_or_else(not_table)?;
    edit(projects, &key, &root, &not_table)?;
    std::fs::create_dir_all(user_config_dir).map_err(io)?;
    // Written beside and renamed so a crash never leaves a torn config; the
    // temp file is exclusive and unpredictable, and a new file is 0600.
    crate::write::replace_file(&file, doc.to_string().as_bytes()).map_err(io)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trust_then_revoke_keeps_the_rest_of_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let user = tmp.path().join("wright");
        let project = tmp.path().join("proj");
        std::fs::create_dir_all(&project).unwrap();
        let file = record_trust(&user, &project, TrustChange::Trust).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        let key = project.canonicalize().unwrap().display().to_string();
        assert!(
            text.contains(&format!("[projects.\"{key}\"]\ntrusted = true")),
            "{text}"
        );
        assert!(!text.contains("[projects]\n"), "{text}");

        std::fs::write(&file, format!("# mine\nmodel = \"m\"\n\n{text}")).unwrap();
        record_trust(&user, &project, TrustChange::Trust).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(text.matches("trusted = true").count(), 1, "{text}");
        assert!(text.starts_with("# mine\nmodel = \"m\"\n"), "{text}");

        record_trust(&user, &project, TrustChange::Revoke).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(!text.contains("trusted"), "{text}");
        assert!(text.starts_with("# mine\nmodel = \"m\"\n"), "{text}");
    }

    #[test]
    fn approvals_are_kept_per_project_and_forgotten_by_name() {
        let tmp = tempfile::tempdir().unwrap();
        let user = tmp.path().join("wright");
        let project = tmp.path().join("proj");
        std::fs::create_dir_all(&project).unwrap();
        record_trust(&user, &project, TrustChange::Trust).unwrap();
        let file = record_mcp_approval(&user, &project, "gh", Some("sha256:ab")).unwrap();
        record_mcp_approval(&user, &project, "db", Some("sha256:cd")).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        let key = project.canonicalize().unwrap().display().to_string();
        assert!(
            text.contains(&format!(
                "[projects.\"{key}\".approved_mcp_servers]\ngh = \"sha256:ab\"\ndb = \"sha256:cd\""
            )),
            "{text}"
        );
        assert!(text.contains("trusted = true"), "{text}");
        record_mcp_approval(&user, &project, "gh", None).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(!text.contains("gh ="), "{text}");
        assert!(text.contains("db = "), "{text}");
        // And the loader reads them back for this project only.
        let loader = crate::ConfigLoader {
            user_config_dir: Some(user.clone()),
            project_root: project.clone(),
            env: Default::default(),
        };
        let resolved = loader.load(&crate::Overrides::default()).unwrap();
        assert_eq!(
            resolved.mcp_approvals.get("db").map(String::as_str),
            Some("sha256:cd")
        );
        let elsewhere = crate::ConfigLoader {
            project_root: tmp.path().to_path_buf(),
            ..loader
        };
        let resolved = elsewhere.load(&crate::Overrides::default()).unwrap();
        assert!(resolved.mcp_approvals.is_empty());
    }

    #[test]
    fn a_broken_user_file_is_reported_not_overwritten() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join(CONFIG_FILE);
        std::fs::write(&file, "model = \n").unwrap();
        assert!(record_trust(tmp.path(), tmp.path(), TrustChange::Trust).is_err());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "model = \n");
        std::fs::write(&file, "projects = 3\n").unwrap();
        assert!(record_trust(tmp.path(), tmp.path(), TrustChange::Trust).is_err());
    }
}
