//! [`Builder`]: the value checks every table of a config file shares
//! (non-empty text, integer ranges, enum words, string and path lists),
//! each failure a [`ConfigError`] at the value's position, and
//! [`resolve_path`] for the paths files name.

use std::ops::Range as Span;
use std::path::{Path, PathBuf};

use toml::Spanned;

use crate::assign::{Assign, Range, check_text};
use crate::error::{ConfigError, Origin, shorten};
use crate::source::Source;

/// How every typed table of a config file holds a key: absent, or a value
/// with the span it was read from (for errors at its position).
pub(crate) type S<T> = Option<Spanned<T>>;

/// Validates one file's values; `at` maps a byte offset to a file position,
/// `base_dir` anchors relative paths and `source` is the file, for the
/// values that remember it.
pub(crate) struct Builder<'a> {
    pub(crate) at: &'a dyn Fn(usize) -> Origin,
    pub(crate) base_dir: &'a Path,
    pub(crate) source: Source,
    /// Dotted keys accepted but not applied (the Codex-only keys of
    /// `[mcp_servers.NAME]`), in file order.
    pub(crate) not_applied: Vec<String>,
    out: Vec<Assign>,
}

impl<'a> Builder<'a> {
    pub(crate) fn new(at: &'a dyn Fn(usize) -> Origin, base_dir: &'a Path, source: Source) -> Self {
        Builder {
            at,
            base_dir,
            source,
            not_applied: Vec::new(),
            out: Vec::new(),
        }
    }

    /// The assignments pushed so far, in order.
    pub(crate) fn into_assigns(self) -> Vec<Assign> {
        self.out
    }

    pub(crate) fn invalid(
        &self,
        key: &str,
        span: Span<usize>,
        value: &str,
        message: String,
    ) -> ConfigError {
        ConfigError::Invalid {
            origin: (self.at)(span.start),
            key: key.to_owned(),
            value: shorten(value),
            message,
        }
    }

    pub(crate) fn text(&self, key: &str, v: Spanned<String>) -> Result<String, ConfigError> {
        let span = v.span();
        let v = v.into_inner();
        check_text(key, &v).map_err(|m| self.invalid(key, span, &v, m))?;
        Ok(v)
    }

    fn int(&self, key: &str, v: Spanned<i64>, range: Range) -> Result<i64, ConfigError> {
        let span = v.span();
        let n = v.into_inner();
        range
            .check(n)
            .map_err(|m| self.invalid(key, span, &n.to_string(), m))
    }

    /// An integer setting narrowed to its Rust type; the range already
    /// excludes values the type cannot hold, so the fallback is unreachable.
    pub(crate) fn num<T: TryFrom<i64> + Default>(
        &self,
        key: &str,
        v: Spanned<i64>,
        range: Range,
    ) -> Result<T, ConfigError> {
        self.int(key, v, range)
            .map(|n| T::try_from(n).unwrap_or_default())
    }

    pub(crate) fn word<T>(
        &self,
        key: &str,
        v: Spanned<String>,
        parse: fn(&str) -> Result<T, String>,
        expected: fn() -> String,
    ) -> Result<T, ConfigError> {
        let span = v.span();
        let v = v.into_inner();
        parse(&v).map_err(|_| self.invalid(key, span, &v, expected()))
    }

    pub(crate) fn strings(
        &self,
        key: &str,
        v: Spanned<Vec<String>>,
    ) -> Result<Vec<String>, ConfigError> {
        let span = v.span();
        let items = v.into_inner();
        if let Some(bad) = items.iter().find(|f| f.trim().is_empty()) {
            return Err(self.invalid(
                key,
                span,
                &format!("{bad:?}"),
                "expected an array of non-empty strings".to_owned(),
            ));
        }
        Ok(items)
    }

    pub(crate) fn paths(
        &self,
        key: &str,
        v: Spanned<Vec<String>>,
    ) -> Result<Vec<PathBuf>, ConfigError> {
        let span = v.span();
        self.strings(key, v)?
            .iter()
            .map(|raw| {
                resolve_path(raw, self.base_dir)
                    .map_err(|m| self.invalid(key, span.clone(), raw, m))
            })
            .collect()
    }

    pub(crate) fn push(&mut self, assign: Assign) {
        self.out.push(assign);
    }
}

/// A path from a file: `~` and `~/…` are under the home directory, other
/// relative paths under `base_dir`, absolute paths are kept.
pub(crate) fn resolve_path(raw: &str, base_dir: &Path) -> Result<PathBuf, String> {
    if raw == "~" || raw.starts_with("~/") {
        let home =
            dirs::home_dir().ok_or_else(|| "cannot expand `~`: no home directory".to_owned())?;
        return Ok(match raw.strip_prefix("~/") {
            Some(rest) => home.join(rest),
            None => home,
        });
    }
    Ok(base_dir.join(raw))
}
