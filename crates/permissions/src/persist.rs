//! Writing "allow always for this project" into `.wright/config.local.toml`,
//! keeping the rest of the file (comments, order, other keys) as it was.

use std::io;
use std::path::Path;

use toml_edit::{Array, DocumentMut, Item, Table, Value};

use crate::rule::Rule;

/// Appends `rule` to `[permissions] allow` in the TOML file at
/// `config_local_path`, creating the file, its directory, the table or the
/// array as needed. A rule already listed is not added twice.
pub fn append_allow_rule(config_local_path: &Path, rule: &Rule) -> io::Result<()> {
    let text = match std::fs::read_to_string(config_local_path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
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
    if let Some(dir) = config_local_path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // Write beside and rename so a crash never leaves a torn config.
    let tmp = config_local_path.with_extension("toml.tmp");
    std::fs::write(&tmp, doc.to_string())?;
    std::fs::rename(&tmp, config_local_path)
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

    #[test]
    fn bad_shapes_are_errors_not_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        std::fs::write(&path, "permissions = 3\n").unwrap();
        assert!(append_allow_rule(&path, &"Read".parse().unwrap()).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "permissions = 3\n");
    }
}
