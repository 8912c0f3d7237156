//! `wright config validate`'s full check of one file: every problem, not
//! only the first. Loading stops at the first error (a run must not start
//! on a half-read file); a check goes on: every unknown key is reported,
//! then each bad value in turn, its line commented out before looking
//! again (so line numbers stay true). Near-miss keys and values get a
//! "did you mean".

use std::path::Path;

use crate::error::ConfigError;
use crate::file::{parse_layer, unknown_keys};
use crate::suggest::closest;

/// Most value errors looked for in one file (each costs a parse).
const MAX_VALUE_ERRORS: usize = 50;

/// Every problem of one file's text, in the order found; empty when it is fine.
pub(crate) fn check_file(path: &Path, text: &str, base_dir: &Path) -> Vec<ConfigError> {
    let first = match parse_layer(path, text, base_dir) {
        Ok(_) => return Vec::new(),
        Err(e) => e,
    };
    if matches!(first, ConfigError::Parse { .. }) {
        return vec![first];
    }
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut problems = Vec::new();
    for (error, span_lines) in unknown_keys(path, text) {
        for line in span_lines {
            comment_out(&mut lines, line);
        }
        problems.push(with_suggestion(error));
    }
    for _ in 0..MAX_VALUE_ERRORS {
        let current = lines.join("\n");
        match parse_layer(path, &current, base_dir) {
            Ok(_) => break,
            // An artifact of commenting out part of a multi-line value.
            Err(ConfigError::Parse { .. }) => break,
            Err(e) => {
                let line = error_line(&e);
                problems.push(with_suggestion(e));
                match line {
                    Some(line) if line >= 1 && line <= lines.len() => {
                        comment_out(&mut lines, line);
                    }
                    _ => break,
                }
            }
        }
    }
    if problems.is_empty() {
        problems.push(with_suggestion(first));
    }
    problems
}

/// Turns 1-based `line` into a comment.
fn comment_out(lines: &mut [String], line: usize) {
    if let Some(text) = line.checked_sub(1).and_then(|i| lines.get_mut(i))
        && !text.trim_start().starts_with('#')
    {
        text.insert(0, '#');
    }
}

/// The 1-based line an error points at, when it names one.
fn error_line(e: &ConfigError) -> Option<usize> {
    match e {
        ConfigError::UnknownKey { line, .. } | ConfigError::Parse { line, .. } => Some(*line),
        ConfigError::Invalid {
            origin: crate::error::Origin::File { line, .. },
            ..
        } => Some(*line),
        _ => None,
    }
}

/// The error with "did you mean `x`?" when its key or value is one edit
/// or so from a valid one.
fn with_suggestion(e: ConfigError) -> ConfigError {
    match e {
        ConfigError::UnknownKey {
            path,
            line,
            column,
            key,
            expected,
        } => {
            let last = key.rsplit('.').next().unwrap_or(&key);
            let guess = expected
                .strip_prefix("expected one of: ")
                .and_then(|list| closest(last, list.split(", ")).map(str::to_owned));
            let expected = match guess {
                Some(guess) => format!("did you mean `{guess}`? {expected}"),
                None => expected,
            };
            ConfigError::UnknownKey {
                path,
                line,
                column,
                key,
                expected,
            }
        }
        ConfigError::Invalid {
            origin,
            key,
            value,
            message,
        } => {
            let word = value.trim_matches('"');
            let guess = message
                .split_once("expected one of: ")
                .and_then(|(_, list)| {
                    let list = list.split(", found").next().unwrap_or(list);
                    closest(word, list.split(", ")).map(str::to_owned)
                });
            let message = match guess {
                Some(guess) => format!("{message}; did you mean `{guess}`?"),
                None => message,
            };
            ConfigError::Invalid {
                origin,
                key,
                value,
                message,
            }
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_problem_is_listed_with_suggestions() {
        let text = "modle = \"x\"\nprovider = \"antropic\"\nmax_turns = 0\n\n[tols]\nbash_timeout_secs = 5\n\n[context]\nauto_compactt = true\n";
        let problems: Vec<String> = check_file(Path::new("/p/c.toml"), text, Path::new("/p"))
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(problems.len(), 5, "{problems:#?}");
        assert!(
            problems[0].contains("unknown key `modle` (did you mean `model`?"),
            "{problems:#?}"
        );
        assert!(
            problems[1].contains("unknown key `tols` (did you mean `tools`?"),
            "{problems:#?}"
        );
        assert!(
            problems[2].contains("`context.auto_compactt` (did you mean `auto_compact`?"),
            "{problems:#?}"
        );
        assert!(problems[3].starts_with("/p/c.toml:2:"), "{problems:#?}");
        assert!(
            problems[3].contains("did you mean `anthropic`?"),
            "{problems:#?}"
        );
        assert!(problems[4].starts_with("/p/c.toml:3:"), "{problems:#?}");
    }

    #[test]
    fn a_good_file_and_a_syntax_error() {
        assert!(check_file(Path::new("/c.toml"), "model = \"m\"\n", Path::new("/")).is_empty());
        let problems = check_file(Path::new("/c.toml"), "model = \n", Path::new("/"));
        assert_eq!(problems.len(), 1);
    }
}
