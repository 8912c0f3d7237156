//! `[shell_environment]`: the user's adjustments to which of wright's
//! environment variables the processes it starts inherit (commands, the
//! verifier, hooks, MCP servers). The filter itself is the sandbox's
//! (`wright_sandbox::EnvPolicy`): by default every provider key and every
//! name containing `KEY`, `SECRET`, `TOKEN`, `PASSWORD`, `PASSWD` or
//! `CREDENTIAL` is withheld; `include` lets names back through, `exclude`
//! withholds more. Both take names or globs (`*`, `?`), case-insensitive,
//! as Codex's `shell_environment_policy` does.
//!
//! ```toml
//! [shell_environment]
//! include = ["NPM_TOKEN", "MY_*_TOKEN"]
//! exclude = ["CORP_*"]
//! ```
//!
//! Only the user's own file is read: an `include` from a repository would
//! hand the user's tokens to the model, and even its `exclude` is ignored
//! so that what commands get never depends on the repository. The loader
//! reports a project's table as [`crate::IgnoreReason::UserConfigOnly`].
//! Kept in a file of its own (not in the key table) because it is one
//! user-only table with two lists, read by one caller.

use serde::Deserialize;
use toml::Spanned;

use crate::builder::Builder;
use crate::error::ConfigError;

/// The table's name in a file.
pub(crate) const TABLE: &str = "shell_environment";

/// Keys allowed in `[shell_environment]`.
const KEYS: [&str; 2] = ["include", "exclude"];

/// `[shell_environment]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShellEnvDoc {
    include: Option<Spanned<Vec<String>>>,
    exclude: Option<Spanned<Vec<String>>>,
}

/// The user's `[shell_environment]`: patterns of variable names let
/// through to, or withheld from, every process wright starts. Empty
/// lists (the default) leave the built-in rule as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ShellEnvironment {
    /// Names or globs let through although the built-in rule withholds
    /// them (wright's own model keys excepted).
    pub include: Vec<String>,
    /// Names or globs withheld besides the built-in rule; an exclude wins
    /// over an include.
    pub exclude: Vec<String>,
}

/// Validates the table: each list holds names or globs, none empty or
/// with `=`, NUL or whitespace (no variable name does).
pub(crate) fn shell_environment(
    b: &Builder<'_>,
    doc: ShellEnvDoc,
) -> Result<ShellEnvironment, ConfigError> {
    let list = |key: &'static str, v: Option<Spanned<Vec<String>>>| match v {
        None => Ok(Vec::new()),
        Some(v) => {
            let dotted = format!("{TABLE}.{key}");
            let span = v.span();
            let items = b.strings(&dotted, v)?;
            match items.iter().find(|p| !is_name_pattern(p)) {
                Some(bad) => Err(b.invalid(
                    &dotted,
                    span,
                    &format!("{bad:?}"),
                    "expected variable names or globs (`*`, `?`) without `=` or spaces".to_owned(),
                )),
                None => Ok(items),
            }
        }
    };
    Ok(ShellEnvironment {
        include: list("include", doc.include)?,
        exclude: list("exclude", doc.exclude)?,
    })
}

/// Whether `p` could match a variable name (the sandbox checks the same
/// when it builds its policy; checked here so the error has a position).
fn is_name_pattern(p: &str) -> bool {
    !p.is_empty() && !p.contains(['=', '\0']) && !p.chars().any(char::is_whitespace)
}

/// The keys allowed at `path`, when it is this table.
pub(crate) fn allowed_keys(path: &[&str]) -> Option<&'static [&'static str]> {
    matches!(path, [TABLE]).then_some(&KEYS[..])
}

/// "expected …" for a key of this table whose value has the wrong type.
pub(crate) fn expected_for(path: &[&str]) -> Option<String> {
    match path {
        [TABLE] => Some("expected a table".to_owned()),
        [TABLE, _] => Some("expected an array of strings".to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::file::parse_layer;

    fn parse(text: &str) -> Result<super::ShellEnvironment, String> {
        parse_layer(Path::new("/u/config.toml"), text, Path::new("/u"))
            .map(|l| l.shell_environment.unwrap_or_default())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn both_lists_are_read() {
        let got = parse(
            "[shell_environment]\ninclude = [\"MY_TOKEN\", \"NPM_*\"]\nexclude = [\"CORP_*\"]\n",
        )
        .unwrap();
        assert_eq!(got.include, ["MY_TOKEN", "NPM_*"]);
        assert_eq!(got.exclude, ["CORP_*"]);
        assert_eq!(parse("").unwrap(), super::ShellEnvironment::default());
    }

    #[test]
    fn bad_values_and_keys_are_located_errors() {
        let err = parse("[shell_environment]\ninclude = [\"A B\"]\n").unwrap_err();
        assert!(
            err.contains("2:11") && err.contains("shell_environment.include"),
            "{err}"
        );
        let err = parse("[shell_environment]\nexclude = [\"\"]\n").unwrap_err();
        assert!(err.contains("shell_environment.exclude"), "{err}");
        let err = parse("[shell_environment]\ninherit = \"all\"\n").unwrap_err();
        assert!(
            err.contains("unknown key `shell_environment.inherit`")
                && err.contains("include, exclude"),
            "{err}"
        );
        let err = parse("[shell_environment]\ninclude = \"MY_TOKEN\"\n").unwrap_err();
        assert!(err.contains("expected an array of strings"), "{err}");
    }
}
