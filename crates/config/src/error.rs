//! [`ConfigError`]: every way loading config can fail, each displayed as
//! one line that names where (file:line:column, env var or flag) and which
//! key, so the user can fix it without guessing.

use std::fmt;
use std::path::PathBuf;

/// Where a bad value was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A position in a config file (line and column start at 1).
    File {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// An environment variable, by name.
    Env(String),
    /// A command-line flag, with its dashes.
    Flag(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::File { path, line, column } => {
                write!(f, "{}:{line}:{column}", path.display())
            }
            Origin::Env(name) => write!(f, "env {name}"),
            Origin::Flag(name) => write!(f, "flag {name}"),
        }
    }
}

/// Why configuration could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The file is not valid TOML.
    #[error("{}:{line}:{column}: invalid TOML: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// A key wright does not know (often a typo).
    #[error("{}:{line}:{column}: unknown key `{key}` ({expected})", path.display())]
    UnknownKey {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The full dotted key, e.g. `tools.bash`.
        key: String,
        /// "expected one of: …", the keys valid at that place.
        expected: String,
    },
    /// A known key with a value of the wrong type or out of range.
    #[error("{origin}: invalid value `{value}` for `{key}`: {message}")]
    Invalid {
        /// Where it was written.
        origin: Origin,
        /// The full dotted key, e.g. `tools.bash_timeout_secs`.
        key: String,
        /// The value as written (shortened if long).
        value: String,
        /// What was expected.
        message: String,
    },
    /// A table lacks a key it needs (a hook's `command`, a check's `glob`).
    #[error("{origin}: missing `{key}`: {message}")]
    Missing {
        /// Where the table holding it starts.
        origin: Origin,
        /// The full key that is missing, e.g. `hooks.Stop[0].hooks[0].command`.
        key: String,
        /// What was expected.
        message: String,
    },
    /// Two settings that exclude each other were given in the same layer.
    #[error("{origin}: {first} and {second} cannot both be set")]
    Conflict {
        /// Where the second one was written.
        origin: Origin,
        /// Name of the first setting as the user wrote it.
        first: String,
        /// Name of the second setting as the user wrote it.
        second: String,
    },
    /// The file exists but could not be read (a directory, no permission, not UTF-8).
    #[error("{}: cannot read config file: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        message: String,
    },
}

/// Shortens a value for an error message so a huge prompt does not flood
/// the terminal; only the first line is kept.
pub(crate) fn shorten(value: &str) -> String {
    const MAX_CHARS: usize = 60;
    let first_line = value.lines().next().unwrap_or("");
    let mut out: String = first_line.chars().take(MAX_CHARS).collect();
    if out.len() < value.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_are_single_lines_with_location() {
        let e = ConfigError::UnknownKey {
            path: "/p/.wright/config.toml".into(),
            line: 3,
            column: 1,
            key: "modle".into(),
            expected: "expected one of: provider, model".into(),
        };
        assert_eq!(
            e.to_string(),
            "/p/.wright/config.toml:3:1: unknown key `modle` (expected one of: provider, model)"
        );
        let e = ConfigError::Invalid {
            origin: Origin::Env("WRIGHT_MAX_TURNS".into()),
            key: "max_turns".into(),
            value: "abc".into(),
            message: "expected a positive integer".into(),
        };
        assert_eq!(
            e.to_string(),
            "env WRIGHT_MAX_TURNS: invalid value `abc` for `max_turns`: expected a positive integer"
        );
    }

    #[test]
    fn missing_names_the_full_key() {
        let e = ConfigError::Missing {
            origin: Origin::File {
                path: "/u/config.toml".into(),
                line: 4,
                column: 9,
            },
            key: "hooks.Stop[0].hooks[0].command".into(),
            message: "expected a non-empty command line".into(),
        };
        assert_eq!(
            e.to_string(),
            "/u/config.toml:4:9: missing `hooks.Stop[0].hooks[0].command`: \
             expected a non-empty command line"
        );
    }

    #[test]
    fn shorten_keeps_short_values_and_cuts_long_ones() {
        assert_eq!(shorten("abc"), "abc");
        assert_eq!(shorten("a\nb"), "a…");
        let long = "x".repeat(100);
        assert_eq!(shorten(&long).chars().count(), 61);
    }
}
