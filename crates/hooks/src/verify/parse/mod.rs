//! Reading checker output into [`Diagnostic`]s, one submodule per
//! [`Format`]. Parsing is tolerant: output is whatever the checker printed
//! (merged with stderr, possibly cut off by a timeout), so a line that does
//! not fit is skipped, never an error.

mod cargo;
mod gcc;
mod lines;
mod tsc;

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use super::paths::FileSet;
use super::{Diagnostic, Format};

/// What a parser found, plus what cargo said about the build as a whole.
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// `Some(false)` when cargo's `build-finished` line said it failed.
    pub(crate) build_succeeded: Option<bool>,
}

/// Reads a checker's `output` (run in `cwd`) in `format`. `edited` is the
/// run's edited files: cargo attributes a diagnostic that touches several
/// files to an edited one, and the `lines` format looks only for them.
/// Diagnostics keep the checker's order.
pub fn parse(format: Format, output: &str, cwd: &Path, edited: &[PathBuf]) -> Vec<Diagnostic> {
    parse_detailed(format, output, cwd, edited).diagnostics
}

pub(crate) fn parse_detailed(
    format: Format,
    output: &str,
    cwd: &Path,
    edited_files: &[PathBuf],
) -> Parsed {
    let edited = FileSet::new(edited_files);
    match format {
        Format::CargoJson => cargo::parse(output, cwd, &edited),
        Format::Gcc => Parsed {
            diagnostics: gcc::parse(output, cwd),
            build_succeeded: None,
        },
        Format::Tsc => Parsed {
            diagnostics: tsc::parse(output, cwd),
            build_succeeded: None,
        },
        Format::Lines => Parsed {
            diagnostics: lines::parse(output, cwd, edited_files),
            build_succeeded: None,
        },
    }
}

/// Compiles a pattern written in this module. The patterns are constants
/// covered by tests, so `None` cannot happen in practice; parsers treat it
/// as "nothing matches" rather than panicking.
pub(crate) fn pattern(source: &str) -> Option<Regex> {
    Regex::new(source).ok()
}

static ANSI: LazyLock<Option<Regex>> = LazyLock::new(|| pattern(r"\x1b\[[0-9;?]*[A-Za-z]"));

/// Drops terminal colour codes, which some checkers print even into a pipe.
pub(crate) fn strip_ansi(text: &str) -> std::borrow::Cow<'_, str> {
    match ANSI.as_ref() {
        Some(re) if text.contains('\x1b') => re.replace_all(text, ""),
        _ => std::borrow::Cow::Borrowed(text),
    }
}

/// A line or column number, or `None` for one too large to be real.
pub(crate) fn number(text: &str) -> Option<u32> {
    text.parse().ok()
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod parse_tests;

#[cfg(test)]
#[path = "cargo_tests.rs"]
pub(crate) mod cargo_tests;
