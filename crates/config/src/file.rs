//! One config file → a layer of `Assign`s (and `[projects]` entries). Syntax errors, unknown keys,
//! wrong types and out-of-range values all become a [`ConfigError`] that
//! names the file, line, column and dotted key.
//!
//! Parsing runs in three passes over the same text: the spanned document
//! tree (syntax, and the key spans needed to locate later errors), a walk
//! for unknown keys (so every typo is reported at its own line in file
//! order), then types: the plain keys' against their rows (`rows.rs`),
//! the tables of tables' by serde into [`FileDoc`], with the error's span
//! mapped back to the key that holds it. Which keys a table allows and
//! what a key's value must be come from the key table (`keys.rs`), and
//! from `doc_hooks.rs` and `doc_mcp.rs` inside their tables of tables;
//! value checks live in `rows.rs` (the plain keys), `doc.rs`,
//! `doc_hooks.rs` and `doc_mcp.rs`. Keys inside arrays of tables (`[[hooks.Stop]]`,
//! `[[verify.checks]]`) carry their index: `hooks.Stop[0].hooks[1].command`.

use std::ops::Range as Span;
use std::path::Path;

use toml::de::{DeTable, DeValue};

#[cfg(test)]
use crate::assign::Assign;
use crate::assign::{PRICE_EXPECTED, Range};
use crate::doc::{FileDoc, Layer, build};
use crate::doc_hooks;
use crate::doc_mcp;
use crate::error::{ConfigError, Origin, shorten};
use crate::keys;
use crate::rows;
use crate::shell_env;
use crate::toml_text::key_segment;

/// Keys allowed in each `[projects."path"]`.
const PROJECT_KEYS: [&str; 2] = ["trusted", "approved_mcp_servers"];
/// Keys allowed in each `[models."name"]`.
const MODEL_KEYS: [&str; 9] = [
    "context_window",
    "max_output",
    "input_price",
    "output_price",
    "cache_read_price",
    "cache_write_price",
    "developer_role",
    "max_completion_tokens",
    "stream_usage",
];

/// Parses one file's settings; the `[projects]` tables are dropped.
#[cfg(test)]
pub(crate) fn parse_file(
    path: &Path,
    text: &str,
    base_dir: &Path,
) -> Result<Vec<Assign>, ConfigError> {
    parse_layer(path, text, base_dir).map(|layer| layer.assigns)
}

/// Parses one file's text. `base_dir` anchors relative paths in it.
pub(crate) fn parse_layer(path: &Path, text: &str, base_dir: &Path) -> Result<Layer, ConfigError> {
    let at = |offset: usize| {
        let (line, column) = position(text, offset);
        Origin::File {
            path: path.to_path_buf(),
            line,
            column,
        }
    };
    let tree = DeTable::parse(text).map_err(|e| {
        let (line, column) = position(text, e.span().map_or(0, |s| s.start));
        ConfigError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            message: e.message().to_owned(),
        }
    })?;
    if let Some((key, span, expected)) = first_unknown_key(tree.get_ref()) {
        let (line, column) = position(text, span.start);
        return Err(ConfigError::UnknownKey {
            path: path.to_path_buf(),
            line,
            column,
            key,
            expected: format!("expected one of: {}", expected.join(", ")),
        });
    }
    // The first value of a wrong type wins, whether it is a plain key's
    // (checked against its row) or one inside a table of tables (serde's).
    let root = tree.get_ref();
    let wrong = rows::mismatch(root);
    let doc: Result<FileDoc, _> = toml::from_str(text);
    let serde_first = match (&wrong, &doc) {
        (Some(m), Err(e)) => e.span().is_some_and(|s| s.start < m.span.start),
        (None, _) => true,
        (Some(_), Ok(_)) => false,
    };
    if let (Some(m), false) = (wrong, serde_first) {
        return Err(ConfigError::Invalid {
            origin: at(m.span.start),
            value: shorten(text.get(m.span.clone()).unwrap_or("")),
            message: format!("{}, found {}", expected_for(&m.path), m.found),
            key: m.path.join("."),
        });
    }
    let doc: FileDoc = doc.map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        match locate(tree.get_ref(), offset, &[]) {
            Some(found) => ConfigError::Invalid {
                origin: at(found.value_span.start),
                value: shorten(text.get(found.value_span.clone()).unwrap_or("")),
                message: format!(
                    "{}, found {}",
                    expected_for(&keys_of(&found.path)),
                    found.found
                ),
                key: found.key(),
            },
            None => {
                let (line, column) = position(text, offset);
                ConfigError::Parse {
                    path: path.to_path_buf(),
                    line,
                    column,
                    message: e.message().to_owned(),
                }
            }
        }
    })?;
    build(doc, root, path, base_dir, &at)
}

/// One step of a path into the document: a key, or an element of an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// The keys of `path` without its indexes: what the schema is matched on.
fn keys_of<'a>(path: &[Seg<'a>]) -> Vec<&'a str> {
    path.iter()
        .filter_map(|s| match s {
            Seg::Key(k) => Some(*k),
            Seg::Index(_) => None,
        })
        .collect()
}

/// The path as the user would name it: keys joined with dots (each quoted
/// when TOML needs it), indexes as `[i]`.
fn dotted_path(path: &[Seg<'_>]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&key_segment(k));
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// The keys allowed in the table at `path` (keys only, unquoted); `None`
/// where any key is allowed (model names) or nothing is a table.
fn allowed_keys(path: &[&str]) -> Option<&'static [&'static str]> {
    match path {
        [] => Some(keys::TOP_KEYS.as_slice()),
        ["models", _] => Some(&MODEL_KEYS),
        ["projects", _] => Some(&PROJECT_KEYS),
        // `[hooks]` also holds the events, so its module answers first.
        _ => doc_hooks::allowed_keys(path)
            .or_else(|| doc_mcp::allowed_keys(path))
            .or_else(|| shell_env::allowed_keys(path))
            .or_else(|| match path {
                [table] => keys::members(table),
                _ => None,
            }),
    }
}

type Unknown = (String, Span<usize>, &'static [&'static str]);

/// Every unknown key of a file that parses as TOML, in file order, each
/// with the lines to set aside to look past it (the key's line; a whole
/// table's lines up to the next header for a table).
pub(crate) fn unknown_keys(path: &Path, text: &str) -> Vec<(ConfigError, Vec<usize>)> {
    let Ok(tree) = DeTable::parse(text) else {
        return Vec::new();
    };
    let mut unknown = Vec::new();
    collect_unknown(tree.get_ref(), &mut Vec::new(), &mut unknown);
    unknown.sort_by_key(|(_, span, _)| span.start);
    unknown
        .into_iter()
        .map(|(key, span, expected)| {
            let (line, column) = position(text, span.start);
            let header = text
                .lines()
                .nth(line - 1)
                .is_some_and(|l| l.trim_start().starts_with('['));
            let mut lines = vec![line];
            if header {
                lines.extend(
                    text.lines()
                        .enumerate()
                        .skip(line)
                        .take_while(|(_, l)| !l.trim_start().starts_with('['))
                        .map(|(i, _)| i + 1),
                );
            }
            let error = ConfigError::UnknownKey {
                path: path.to_path_buf(),
                line,
                column,
                key,
                expected: format!("expected one of: {}", expected.join(", ")),
            };
            (error, lines)
        })
        .collect()
}

/// The unknown key that comes first in the file, with the keys valid there.
fn first_unknown_key(root: &DeTable<'_>) -> Option<Unknown> {
    let mut unknown = Vec::new();
    collect_unknown(root, &mut Vec::new(), &mut unknown);
    unknown.into_iter().min_by_key(|(_, span, _)| span.start)
}

/// Walks the tables the schema knows (top, its tables, `models` and each
/// model, the tables in the arrays of `[hooks]` and `[verify]`), recording
/// every key not allowed where it stands.
fn collect_unknown<'a>(table: &'a DeTable<'_>, path: &mut Vec<Seg<'a>>, out: &mut Vec<Unknown>) {
    let allowed = allowed_keys(&keys_of(path));
    for (key, value) in table.iter() {
        let name: &str = key.get_ref();
        path.push(Seg::Key(name));
        if let Some(allowed) = allowed
            && !allowed.contains(&name)
        {
            out.push((dotted_path(path), key.span(), allowed));
            path.pop();
            continue;
        }
        // Only tables the schema describes are searched; deeper values are
        // left to serde, which reports them as the wrong type.
        let keys = keys_of(path);
        match value.get_ref() {
            DeValue::Table(inner)
                if allowed_keys(&keys).is_some()
                    || matches!(keys.as_slice(), ["models" | "projects" | "mcp_servers"]) =>
            {
                collect_unknown(inner, path, out);
            }
            DeValue::Array(items) if doc_hooks::is_table_array(&keys) => {
                for (i, item) in items.iter().enumerate() {
                    if let DeValue::Table(inner) = item.get_ref() {
                        path.push(Seg::Index(i));
                        collect_unknown(inner, path, out);
                        path.pop();
                    }
                }
            }
            _ => {}
        }
        path.pop();
    }
}

/// The value holding a serde error, found by its span.
struct Located<'a> {
    path: Vec<Seg<'a>>,
    value_span: Span<usize>,
    found: String,
}

impl Located<'_> {
    fn key(&self) -> String {
        dotted_path(&self.path)
    }
}

/// Finds the innermost key whose key or value span contains `offset`.
fn locate<'a>(table: &'a DeTable<'_>, offset: usize, prefix: &[Seg<'a>]) -> Option<Located<'a>> {
    for (key, value) in table.iter() {
        let mut path = prefix.to_vec();
        path.push(Seg::Key(key.get_ref()));
        // A `[table]`'s span covers only its header, not its body, so
        // tables (and the tables of an array) are searched whatever their
        // span says.
        match value.get_ref() {
            DeValue::Table(inner) => {
                if let Some(found) = locate(inner, offset, &path) {
                    return Some(found);
                }
            }
            DeValue::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if let DeValue::Table(inner) = item.get_ref() {
                        let mut at = path.clone();
                        at.push(Seg::Index(i));
                        if let Some(found) = locate(inner, offset, &at) {
                            return Some(found);
                        }
                    }
                }
            }
            _ => {}
        }
        if !key.span().contains(&offset) && !value.span().contains(&offset) {
            continue;
        }
        let found = match value.get_ref() {
            DeValue::Array(items) => items
                .iter()
                .find(|item| item.span().contains(&offset))
                .map(|item| format!("{} in the array", item.get_ref().type_str()))
                .unwrap_or_else(|| "array".to_owned()),
            other => other.type_str().to_owned(),
        };
        return Some(Located {
            path,
            value_span: value.span(),
            found,
        });
    }
    None
}

/// "expected …" for a key (keys only, unquoted), used when its value has
/// the wrong type: the key table's for its rows, the table modules' for
/// what is inside `[[hooks.…]]`, `[[verify.checks]]` and `[mcp_servers.…]`.
fn expected_for(path: &[&str]) -> String {
    if let Some(key) = keys::at(path) {
        return key.kind.expected();
    }
    if let Some(message) = doc_hooks::expected_for(path)
        .or_else(|| doc_mcp::expected_for(path))
        .or_else(|| shell_env::expected_for(path))
    {
        return message;
    }
    match path {
        ["projects", _, "trusted"] => "expected true or false".to_owned(),
        ["projects", _, "approved_mcp_servers"] => {
            "expected a table of server names and fingerprints".to_owned()
        }
        ["models", _, "context_window"] => Range::CONTEXT_WINDOW.describe(),
        ["models", _, "max_output"] => Range::POSITIVE_U32.describe(),
        ["models", _, _] => PRICE_EXPECTED.to_owned(),
        [table] if keys::members(table).is_some() || *table == "projects" => {
            "expected a table".to_owned()
        }
        ["models" | "projects", _] => "expected a table".to_owned(),
        _ => "expected a string".to_owned(),
    }
}

/// 1-based line and character column of a byte offset.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
#[path = "file_tests.rs"]
mod tests;
