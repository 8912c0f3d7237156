//! One config file → a layer of [`Assign`]s. Syntax errors, unknown keys,
//! wrong types and out-of-range values all become a [`ConfigError`] that
//! names the file, line, column and dotted key.
//!
//! Parsing runs in three passes over the same text: the spanned document
//! tree (syntax, and the key spans needed to locate later errors), a walk
//! for unknown keys (so every typo is reported at its own line in file
//! order), then serde into [`FileDoc`] for types, with the error's span
//! mapped back to the key that holds it.

use std::ops::Range as Span;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::error::{ConfigError, Origin, shorten};
use crate::kinds::{PermissionMode, Provider};
use crate::settings::{Assign, Range, check_text};

/// Keys allowed at the top level of a file.
const TOP_KEYS: [&str; 11] = [
    "provider",
    "model",
    "base_url",
    "max_tokens",
    "max_turns",
    "permission_mode",
    "system_prompt",
    "system_prompt_file",
    "append_system_prompt",
    "tools",
    "context",
];
/// Keys allowed in `[tools]`.
const TOOLS_KEYS: [&str; 1] = ["bash_timeout_secs"];
/// Keys allowed in `[context]`.
const CONTEXT_KEYS: [&str; 1] = ["instruction_files"];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDoc {
    provider: Option<Spanned<String>>,
    model: Option<Spanned<String>>,
    base_url: Option<Spanned<String>>,
    max_tokens: Option<Spanned<i64>>,
    max_turns: Option<Spanned<i64>>,
    permission_mode: Option<Spanned<String>>,
    system_prompt: Option<Spanned<String>>,
    system_prompt_file: Option<Spanned<String>>,
    append_system_prompt: Option<Spanned<String>>,
    tools: Option<ToolsDoc>,
    context: Option<ContextDoc>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolsDoc {
    bash_timeout_secs: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ContextDoc {
    instruction_files: Option<Spanned<Vec<String>>>,
}

/// Parses one file's text. `base_dir` anchors a relative `system_prompt_file`.
pub(crate) fn parse_file(
    path: &Path,
    text: &str,
    base_dir: &Path,
) -> Result<Vec<Assign>, ConfigError> {
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
    let doc: FileDoc = toml::from_str(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        match locate(tree.get_ref(), offset, "") {
            Some(found) => ConfigError::Invalid {
                origin: at(found.value_span.start),
                value: shorten(text.get(found.value_span.clone()).unwrap_or("")),
                message: format!("{}, found {}", expected_for(&found.key), found.found),
                key: found.key,
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
    build(doc, base_dir, &at)
}

/// Validates the typed document and turns it into assignments in key order.
fn build(
    doc: FileDoc,
    base_dir: &Path,
    at: &dyn Fn(usize) -> Origin,
) -> Result<Vec<Assign>, ConfigError> {
    let invalid =
        |key: &str, span: Span<usize>, value: String, message: String| ConfigError::Invalid {
            origin: at(span.start),
            key: key.to_owned(),
            value: shorten(&value),
            message,
        };
    let text = |key: &str, v: Spanned<String>| -> Result<String, ConfigError> {
        let span = v.span();
        let v = v.into_inner();
        match check_text(key, &v) {
            Ok(()) => Ok(v),
            Err(m) => Err(invalid(key, span, v, m)),
        }
    };
    let int = |key: &str, v: Spanned<i64>, range: Range| -> Result<i64, ConfigError> {
        let span = v.span();
        let n = v.into_inner();
        range
            .check(n)
            .map_err(|m| invalid(key, span, n.to_string(), m))
    };
    let to_u32 = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
    let to_u64 = |n: i64| u64::try_from(n).unwrap_or(0);

    if let (Some(p), Some(f)) = (&doc.system_prompt, &doc.system_prompt_file) {
        let (first, second, span) = if p.span().start < f.span().start {
            ("system_prompt", "system_prompt_file", f.span())
        } else {
            ("system_prompt_file", "system_prompt", p.span())
        };
        return Err(ConfigError::Conflict {
            origin: at(span.start),
            first: format!("`{first}`"),
            second: format!("`{second}`"),
        });
    }

    let mut out = Vec::new();
    if let Some(v) = doc.provider {
        let span = v.span();
        let v = v.into_inner();
        let p =
            Provider::parse(&v).map_err(|_| invalid("provider", span, v, Provider::expected()))?;
        out.push(Assign::Provider(p));
    }
    if let Some(v) = doc.model {
        out.push(Assign::Model(text("model", v)?));
    }
    if let Some(v) = doc.base_url {
        out.push(Assign::BaseUrl(text("base_url", v)?));
    }
    if let Some(v) = doc.max_tokens {
        let n = int("max_tokens", v, Range::POSITIVE_U32)?;
        out.push(Assign::MaxTokens(to_u32(n)));
    }
    if let Some(v) = doc.max_turns {
        let n = int("max_turns", v, Range::POSITIVE_U32)?;
        out.push(Assign::MaxTurns(to_u32(n)));
    }
    if let Some(v) = doc.permission_mode {
        let span = v.span();
        let v = v.into_inner();
        let m = PermissionMode::parse(&v)
            .map_err(|_| invalid("permission_mode", span, v, PermissionMode::expected()))?;
        out.push(Assign::PermissionMode(m));
    }
    if let Some(v) = doc.system_prompt {
        out.push(Assign::SystemPrompt(text("system_prompt", v)?));
    }
    if let Some(v) = doc.system_prompt_file {
        let file = PathBuf::from(text("system_prompt_file", v)?);
        out.push(Assign::SystemPromptFile(base_dir.join(file)));
    }
    if let Some(v) = doc.append_system_prompt {
        out.push(Assign::AppendSystemPrompt(text("append_system_prompt", v)?));
    }
    if let Some(v) = doc.tools.and_then(|t| t.bash_timeout_secs) {
        let n = int("tools.bash_timeout_secs", v, Range::BASH_TIMEOUT)?;
        out.push(Assign::BashTimeoutSecs(to_u64(n)));
    }
    if let Some(v) = doc.context.and_then(|c| c.instruction_files) {
        let span = v.span();
        let files = v.into_inner();
        if let Some(bad) = files.iter().find(|f| f.trim().is_empty()) {
            return Err(invalid(
                "context.instruction_files",
                span,
                format!("{bad:?}"),
                "expected an array of non-empty file names".to_owned(),
            ));
        }
        out.push(Assign::InstructionFiles(files));
    }
    Ok(out)
}

/// The unknown key that comes first in the file, with the keys valid there.
fn first_unknown_key(root: &DeTable<'_>) -> Option<(String, Span<usize>, &'static [&'static str])> {
    let mut unknown: Vec<(String, Span<usize>, &'static [&'static str])> = Vec::new();
    for (key, value) in root.iter() {
        let name: &str = key.get_ref();
        if !TOP_KEYS.contains(&name) {
            unknown.push((name.to_owned(), key.span(), &TOP_KEYS));
            continue;
        }
        let allowed: &'static [&'static str] = match name {
            "tools" => &TOOLS_KEYS,
            "context" => &CONTEXT_KEYS,
            _ => continue,
        };
        if let DeValue::Table(table) = value.get_ref() {
            for (sub, _) in table.iter() {
                let sub_name: &str = sub.get_ref();
                if !allowed.contains(&sub_name) {
                    unknown.push((format!("{name}.{sub_name}"), sub.span(), allowed));
                }
            }
        }
    }
    unknown.into_iter().min_by_key(|(_, span, _)| span.start)
}

/// The value holding a serde error, found by its span.
struct Located {
    key: String,
    value_span: Span<usize>,
    found: String,
}

/// Finds the innermost key whose key or value span contains `offset`.
fn locate(table: &DeTable<'_>, offset: usize, prefix: &str) -> Option<Located> {
    for (key, value) in table.iter() {
        let k: &str = key.get_ref();
        let dotted = if prefix.is_empty() {
            k.to_owned()
        } else {
            format!("{prefix}.{k}")
        };
        // A `[table]`'s span covers only its header, not its body, so
        // tables are searched whatever their span says.
        if let DeValue::Table(inner) = value.get_ref()
            && let Some(found) = locate(inner, offset, &dotted)
        {
            return Some(found);
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
            key: dotted,
            value_span: value.span(),
            found,
        });
    }
    None
}

/// "expected …" for a dotted key, used when its value has the wrong type.
fn expected_for(key: &str) -> String {
    match key {
        "provider" => Provider::expected(),
        "permission_mode" => PermissionMode::expected(),
        "max_tokens" | "max_turns" => Range::POSITIVE_U32.describe(),
        "tools.bash_timeout_secs" => Range::BASH_TIMEOUT.describe(),
        "context.instruction_files" => "expected an array of strings".to_owned(),
        "tools" | "context" => "expected a table".to_owned(),
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
