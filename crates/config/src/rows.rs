//! The plain keys of a config file (every row of the key table but the
//! tables of tables) read through the table: the file's value for each row
//! is looked up in the parsed document, its type checked against the
//! row's kind ([`mismatch`], which `file.rs` words as "expected …, found
//! …"), its value checked with [`Builder`]'s shared checks and turned into
//! an assignment by the row's `set` ([`read`]). No typed struct spells
//! these keys; what is inside `[[hooks.…]]`, `[[verify.checks]]`,
//! `[mcp_servers.…]` and `[models.…]` is read by their modules.

use std::ops::Range as Span;
use std::path::PathBuf;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::assign::{Assign, check_text};
use crate::builder::Builder;
use crate::error::ConfigError;
use crate::keys::{Key, Kind, TABLE};
use crate::parsed::Parsed;

/// A value of the wrong type for its row, or a table on its way that is
/// no table: the keys leading to it, its span and what it is.
pub(crate) struct Mismatch {
    /// The keys of the value, unquoted (`["tools"]` when `tools = 1`).
    pub(crate) path: Vec<&'static str>,
    /// Where the value is.
    pub(crate) span: Span<usize>,
    /// What the value is, as TOML names types (`integer`, `string in the
    /// array`).
    pub(crate) found: String,
}

/// The first value in the file (by position) whose type is not its row's.
pub(crate) fn mismatch(root: &DeTable<'_>) -> Option<Mismatch> {
    TABLE
        .iter()
        .filter(|key| !matches!(key.kind, Kind::Tables(_)))
        .filter_map(|key| match lookup(root, key) {
            Err(m) => Some(m),
            Ok(None) => None,
            Ok(Some(value)) => found_instead(key.kind, value.get_ref()).map(|found| Mismatch {
                path: key.name.split('.').collect(),
                span: value.span(),
                found,
            }),
        })
        .min_by_key(|m| m.span.start)
}

/// Whether the file sets `key`, and where.
pub(crate) fn span_of(root: &DeTable<'_>, key: &Key) -> Option<Span<usize>> {
    lookup(root, key).ok().flatten().map(Spanned::span)
}

/// Reads the file's value of the plain key `key`, if it sets one, into an
/// assignment; the value's type was checked by [`mismatch`], so the
/// fallbacks for another type are never taken.
pub(crate) fn read(b: &mut Builder<'_>, key: &Key, root: &DeTable<'_>) -> Result<(), ConfigError> {
    let Ok(Some(value)) = lookup(root, key) else {
        return Ok(());
    };
    let name = key.name;
    let span = value.span();
    let v = value.get_ref();
    // The builder's checks take a value with its span, as serde gave them.
    let at = |x| Spanned::new(span.clone(), x);
    let text = || at(v.as_str().unwrap_or_default().to_owned());
    let list = || Spanned::new(span.clone(), strings(v));
    let parsed = match key.kind {
        Kind::Text | Kind::Url => Parsed::Text(b.text(name, text())?),
        // A word is parsed by the row; a word it does not know is told
        // the choices, not that it should be non-empty.
        Kind::Word(_) => Parsed::Text(text().into_inner()),
        Kind::File => Parsed::Path(b.base_dir.join(PathBuf::from(b.text(name, text())?))),
        Kind::Int(range) => {
            let n = Spanned::new(span.clone(), integer(v).unwrap_or_default());
            Parsed::Int(b.num(name, n, range)?)
        }
        Kind::Bool => Parsed::Bool(v.as_bool().unwrap_or_default()),
        Kind::Strings => Parsed::Strings(b.strings(name, list())?),
        Kind::FileNames => {
            let files = strings(v);
            if let Some(bad) = files.iter().find(|f| f.trim().is_empty()) {
                return Err(b.invalid(
                    name,
                    span,
                    &format!("{bad:?}"),
                    "expected an array of non-empty file names".to_owned(),
                ));
            }
            Parsed::Strings(files)
        }
        Kind::Paths => Parsed::Paths(b.paths(name, list())?),
        Kind::Tables(_) => return Ok(()),
    };
    let shown = match &parsed {
        Parsed::Text(s) => s.clone(),
        _ => v.type_str().to_owned(),
    };
    let assign =
        (key.set)(parsed).ok_or_else(|| b.invalid(name, span, &shown, key.kind.expected()))?;
    b.push(assign);
    Ok(())
}

/// A value a row refuses, from a layer without positions (environment,
/// flags): the part at fault as shown, and the "expected …".
#[derive(Debug, PartialEq)]
pub(crate) struct Refused {
    /// The value, or the item of a list, at fault.
    pub(crate) value: String,
    /// What was expected.
    pub(crate) message: String,
}

/// The assignment a value from the environment or a flag makes for the
/// plain key `key`: checked against the row's kind (non-empty text, the
/// range, a known word, non-empty items; files and paths are kept as
/// given, relative to the working directory), then set through the row.
pub(crate) fn assign(key: &Key, value: Parsed) -> Result<Assign, Refused> {
    let refused = |value: &str, message: String| Refused {
        value: value.to_owned(),
        message,
    };
    let shown = match (&value, key.kind) {
        (Parsed::Text(s), Kind::Text | Kind::Url) => {
            check_text(key.name, s).map_err(|m| refused(s, m))?;
            s.clone()
        }
        (Parsed::Int(n), Kind::Int(range)) => {
            range.check(*n).map_err(|m| refused(&n.to_string(), m))?;
            n.to_string()
        }
        (Parsed::Strings(items), _) => {
            for item in items {
                check_text(key.name, item).map_err(|m| refused(item, m))?;
            }
            String::new()
        }
        (Parsed::Text(s), _) => s.clone(),
        _ => String::new(),
    };
    (key.set)(value).ok_or_else(|| refused(&shown, key.kind.expected()))
}

/// [`assign`] for a value typed as text (an environment variable): words
/// and numbers may be padded with spaces, text is taken as it is.
pub(crate) fn assign_text(key: &Key, value: &str) -> Result<Assign, Refused> {
    let parsed = match key.kind {
        Kind::Word(_) => Parsed::Text(value.trim().to_owned()),
        Kind::Int(range) => Parsed::Int(value.trim().parse().map_err(|_| Refused {
            value: value.to_owned(),
            message: range.describe(),
        })?),
        Kind::File => Parsed::Path(PathBuf::from(value)),
        _ => Parsed::Text(value.to_owned()),
    };
    assign(key, parsed)
}

/// The file's value of `key`; `Err` when a table on its way is no table.
fn lookup<'t, 'i>(
    root: &'t DeTable<'i>,
    key: &Key,
) -> Result<Option<&'t Spanned<DeValue<'i>>>, Mismatch> {
    let mut table = root;
    let mut path = Vec::new();
    let mut segments = key.name.split('.').peekable();
    while let Some(segment) = segments.next() {
        path.push(segment);
        let Some((_, value)) = table.iter().find(|(k, _)| k.get_ref() == segment) else {
            return Ok(None);
        };
        if segments.peek().is_none() {
            return Ok(Some(value));
        }
        match value.get_ref() {
            DeValue::Table(inner) => table = inner,
            other => {
                return Err(Mismatch {
                    path,
                    span: value.span(),
                    found: other.type_str().to_owned(),
                });
            }
        }
    }
    Ok(None)
}

/// What `value` is when it is not what `kind` holds; `None` when it is.
fn found_instead(kind: Kind, value: &DeValue<'_>) -> Option<String> {
    let fits = match kind {
        Kind::Text | Kind::Url | Kind::File | Kind::Word(_) => value.is_str(),
        Kind::Int(_) => integer(value).is_some(),
        Kind::Bool => value.is_bool(),
        Kind::Strings | Kind::FileNames | Kind::Paths => {
            if let Some(items) = value.as_array()
                && let Some(bad) = items.iter().find(|item| !item.get_ref().is_str())
            {
                return Some(format!("{} in the array", bad.get_ref().type_str()));
            }
            value.is_array()
        }
        Kind::Tables(_) => true,
    };
    (!fits).then(|| value.type_str().to_owned())
}

/// The integer, when it is one that fits an `i64`.
fn integer(value: &DeValue<'_>) -> Option<i64> {
    let n = value.as_integer()?;
    i64::from_str_radix(n.as_str(), n.radix()).ok()
}

/// The strings of an array whose type was checked.
fn strings(value: &DeValue<'_>) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item.get_ref().as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
#[path = "rows_tests.rs"]
mod tests;
