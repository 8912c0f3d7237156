//! [`Parsed`]: a file's value for one row of the key table, already
//! checked against the row's kind (type, range, non-empty, paths
//! resolved), on its way to the row's `set`, which turns it into the
//! assignment. The accessors give `None` for a value of another kind, so
//! a row whose `set` asks for the wrong one sets nothing rather than
//! something wrong, and a word no choice spells is told apart the same way.

use std::path::PathBuf;

/// A checked value of one key.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Parsed {
    /// A string: text, a URL or a word (words are parsed by the row).
    Text(String),
    /// A file, resolved against the file that names it.
    Path(PathBuf),
    /// An integer within the row's range.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// Non-empty strings.
    Strings(Vec<String>),
    /// Paths, `~/` expanded and relative ones resolved.
    Paths(Vec<PathBuf>),
}

impl Parsed {
    /// The string.
    pub(crate) fn text(self) -> Option<String> {
        match self {
            Parsed::Text(s) => Some(s),
            _ => None,
        }
    }

    /// The string as one of a closed set of words; `None` when `parse`
    /// knows no such word.
    pub(crate) fn word<T>(self, parse: fn(&str) -> Result<T, String>) -> Option<T> {
        self.text().and_then(|s| parse(&s).ok())
    }

    /// The file.
    pub(crate) fn path(self) -> Option<PathBuf> {
        match self {
            Parsed::Path(p) => Some(p),
            _ => None,
        }
    }

    /// The integer narrowed to the setting's type (the row's range keeps
    /// it within the type, so narrowing does not fail for a checked value).
    pub(crate) fn int<T: TryFrom<i64>>(self) -> Option<T> {
        match self {
            Parsed::Int(n) => T::try_from(n).ok(),
            _ => None,
        }
    }

    /// The switch.
    pub(crate) fn bool(self) -> Option<bool> {
        match self {
            Parsed::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The strings.
    pub(crate) fn strings(self) -> Option<Vec<String>> {
        match self {
            Parsed::Strings(v) => Some(v),
            _ => None,
        }
    }

    /// The paths.
    pub(crate) fn paths(self) -> Option<Vec<PathBuf>> {
        match self {
            Parsed::Paths(v) => Some(v),
            _ => None,
        }
    }
}
