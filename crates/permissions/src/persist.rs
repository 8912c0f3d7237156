//! Writing "allow always for this project" into `.wright/config.local.toml`,
//! keeping the rest of the file (comments, order, other keys) as it was.
//!
//! The project is attacker-controlled input: a repository can ship
//! `.wright` or `config.local.toml` (or any temp name next to it) as a
//! symlink to `~/.bashrc`. So the file is read and replaced through
//! [`Beneath`], rooted at the project: no symlink anywhere below the root
//! is followed, and the new contents go to an exclusively created temp
//! file renamed over the target.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use wright_sandbox::{Beneath, OpenError};

use toml_edit::{Array, DocumentMut, Item, Table, Value};

use crate::rule::Rule;

/// Appends `rule` to `[permissions] allow` in the TOML file at
/// `config_local_path`, creating the file, its directory, the table or the
/// array as needed. A rule already listed is not added twice.
///
/// `config_local_path` is `<project>/.wright/config.local.toml`; a symlink
/// at the file, at `.wright` or at any temp name beside it is refused or
/// ignored, never written through.
pub fn append_allow_rule(config_local_path: &Path, rule: &Rule) -> io::Result<()> {
    let (beneath, target) = beneath_project(config_local_path)?;
    let text = read_existing(&beneath, &target)?;
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {}", config_local_path.display(), e.message()),
        )
    })?;
    let invalid = |what: &str| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {what}", config_local_path.display()),
        )
    };
    let perms = doc
        .entry("permissions")
        .or_insert_with(|| Item::Table(Table::new()))
        .as_table_like_mut()
        .ok_or_else(|| invalid("`permissions` is not a table"))?;
    let allow = perms
        .entry("allow")
        .or_insert(Item::Value(Value::Array(Array::new())))
        .as_array_mut()
        .ok_or_else(|| invalid("`permissions.allow` is not an array"))?;
    if !allow.iter().any(|v| v.as_str() == Some(rule.as_str())) {
        allow.push(rule.as_str());
    }
    // Beneath writes beside and renames, so a crash never leaves a torn
    // config, and creates `.wright` if missing.
    beneath
        .write(&target, doc.to_string().as_bytes())
        .map_err(refused)
}

/// Largest `config.local.toml` read back before appending (as for any
/// config file wright reads).
const MAX_BYTES: u64 = wright_config::MAX_CONFIG_BYTES;

/// The project root (two levels above the file) as a [`Beneath`] root and
/// the file's path below the resolved root.
fn beneath_project(path: &Path) -> io::Result<(Beneath, PathBuf)> {
    let bad = || {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: expected <project>/.wright/<file>", path.display()),
        )
    };
    let name = path.file_name().ok_or_else(bad)?;
    let dir = path.parent().ok_or_else(bad)?;
    let dir_name = dir.file_name().ok_or_else(bad)?;
    let project = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::env::current_dir()?,
    };
    let beneath = Beneath::new([project.clone()]);
    let root = beneath.roots().first().cloned().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            format!("project directory {} not found", project.display()),
        )
    })?;
    let target = root.join(dir_name).join(name);
    Ok((beneath, target))
}

/// The file's text, empty when it does not exist yet.
fn read_existing(beneath: &Beneath, target: &Path) -> io::Result<String> {
    let file = match beneath.open_read(target) {
        Ok(f) => f,
        Err(e) if e.is_not_found() => return Ok(String::new()),
        Err(e) => return Err(refused(e)),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a regular file", target.display()),
        ));
    }
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is larger than 1 MB", target.display()),
        ));
    }
    String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// An [`OpenError`] as the `io::Error` callers report, with a message that
/// says a symlink was refused.
fn refused(e: OpenError) -> io::Error {
    let kind = match &e {
        OpenError::Io { source, .. } => source.kind(),
        OpenError::Symlink(_) | OpenError::Escape(_) => io::ErrorKind::PermissionDenied,
        _ => io::ErrorKind::InvalidInput,
    };
    let message = match &e {
        OpenError::Symlink(p) | OpenError::Escape(p) => format!(
            "{}: refusing to write through a symbolic link in the project's .wright directory",
            p.display()
        ),
        other => other.to_string(),
    };
    io::Error::new(kind, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_and_appends_preserving_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".wright/config.local.toml");
        let rule: Rule = "Bash(npm run test:*)".parse().unwrap();
        append_allow_rule(&path, &rule).unwrap();
        append_allow_rule(&path, &rule).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches("npm run test").count(), 1, "{text}");

        std::fs::write(&path, "# mine\nmodel = \"x\" # keep\n\n[permissions]\nallow = [\"Read\"]\ndeny = [\"Bash(rm:*)\"]\n").unwrap();
        append_allow_rule(&path, &"Edit(/src/a.rs)".parse().unwrap()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# mine\nmodel = \"x\" # keep\n"), "{text}");
        let v: toml_edit::DocumentMut = text.parse().unwrap();
        let allow: Vec<_> = v["permissions"]["allow"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(allow, vec!["Read", "Edit(/src/a.rs)"]);
        assert!(text.contains("deny = [\"Bash(rm:*)\"]"));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_planted_by_a_repository_are_never_written_through() {
        use std::os::unix::fs::symlink;
        let rule: Rule = "Bash(ls:*)".parse().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("bashrc");
        std::fs::write(&victim, "original\n").unwrap();

        // The old fixed temp name, shipped as a symlink.
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".wright")).unwrap();
        symlink(&victim, dir.path().join(".wright/config.local.toml.tmp")).unwrap();
        let path = dir.path().join(".wright/config.local.toml");
        append_allow_rule(&path, &rule).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "original\n");
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .contains("Bash(ls:*)")
        );

        // The file itself a symlink: refused with a clear error.
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".wright")).unwrap();
        let path = dir.path().join(".wright/config.local.toml");
        symlink(&victim, &path).unwrap();
        let e = append_allow_rule(&path, &rule).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "original\n");

        // `.wright` itself a symlink to a directory outside.
        let dir = tempfile::tempdir().unwrap();
        symlink(outside.path(), dir.path().join(".wright")).unwrap();
        let path = dir.path().join(".wright/config.local.toml");
        let e = append_allow_rule(&path, &rule).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert!(!outside.path().join("config.local.toml").exists());
    }

    #[test]
    fn bad_shapes_are_errors_not_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".wright")).unwrap();
        let path = dir.path().join(".wright/c.toml");
        std::fs::write(&path, "permissions = 3\n").unwrap();
        assert!(append_allow_rule(&path, &"Read".parse().unwrap()).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "permissions = 3\n");
    }
}
