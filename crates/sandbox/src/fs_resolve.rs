//! The one path resolver shared by the permission check and the file tools.
//!
//! A path the model writes is turned into the file the kernel would reach:
//! `~` expanded, joined to the cwd, and every component resolved in order —
//! symlinks followed (chains of any depth, up to [`MAX_SYMLINKS`]), `..`
//! applied to the *resolved* parent (as the kernel does, so `link/..` is the
//! link target's parent), and a dangling link followed to where a write would
//! create its target. Components that do not exist are kept as written,
//! since a write would create them. The result contains no symlink, `.` or
//! `..`, which is what lets [`crate::fs_open`] open it with every symlink
//! refused: anything that changes between this check and the open makes the
//! open fail instead of landing elsewhere.
//!
//! The lexical reading ([`lexical`]) exists only so a name *as written* can
//! be checked too (a protected name is refused under either reading); it is
//! never used to open anything.

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// Most symlinks followed while resolving one path (Linux's own limit).
pub const MAX_SYMLINKS: usize = 40;

/// Why a path has no single resolved location.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// More than [`MAX_SYMLINKS`] links were followed: a loop, most likely.
    #[error(
        "too many levels of symbolic links at {0} (a symlink loop?); give the path of the real file"
    )]
    Loop(PathBuf),
    /// A symlink that points nowhere (an empty target).
    #[error("{0} is a symbolic link with an empty target; give the path of the real file")]
    EmptyLink(PathBuf),
}

/// A path the model wrote, in the two readings the checks use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPath {
    /// The text as written, absolute, with `.` and `..` removed lexically.
    /// Only for checking names (protected files) and for display.
    pub written: PathBuf,
    /// The file the kernel reaches: no symlink, `.` or `..` left in it.
    pub real: PathBuf,
}

/// Expands `~`, `~/…`, `$HOME/…` and `${HOME}/…` against `home`.
pub fn expand_home(text: &str, home: Option<&Path>) -> Option<PathBuf> {
    let home = home?;
    if text == "~" || text == "$HOME" || text == "${HOME}" {
        return Some(home.to_path_buf());
    }
    ["~/", "$HOME/", "${HOME}/"]
        .iter()
        .find_map(|p| text.strip_prefix(p))
        .map(|rest| home.join(rest))
}

/// The absolute path `text` names from `cwd` (home expanded), unresolved.
pub fn absolute(cwd: &Path, text: &str, home: Option<&Path>) -> PathBuf {
    let p = expand_home(text, home).unwrap_or_else(|| PathBuf::from(text));
    if p.is_absolute() { p } else { cwd.join(p) }
}

/// Resolves `text` (as the model wrote it) against `cwd` and `home`.
pub fn resolve(cwd: &Path, text: &str, home: Option<&Path>) -> Result<ResolvedPath, ResolveError> {
    let abs = absolute(cwd, text, home);
    Ok(ResolvedPath {
        written: lexical(&abs),
        real: resolve_path(&abs)?,
    })
}

/// Removes `.` and `..` without touching the file system. Never use the
/// result to open a file: it disagrees with the kernel about `link/..`.
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                // `/..` is `/`, as for the kernel.
                if out.parent().is_some() {
                    out.pop();
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Resolves an absolute path component by component (a relative one is
/// taken from `/`). See the module docs for the rules.
pub fn resolve_path(path: &Path) -> Result<PathBuf, ResolveError> {
    // Components still to walk, the next one last.
    let mut pending: Vec<OsString> = Vec::new();
    push_components(&mut pending, path);
    let mut out = PathBuf::from("/");
    let mut links = 0usize;
    while let Some(name) = pending.pop() {
        if name == ".." {
            out.pop();
            continue;
        }
        let candidate = out.join(&name);
        let is_link = std::fs::symlink_metadata(&candidate)
            .map(|m| m.file_type().is_symlink())
            .unwrap_or(false);
        if !is_link {
            // Existing, missing (a write creates it), or unreadable (the
            // open will fail the same way): kept as it is.
            out = candidate;
            continue;
        }
        links += 1;
        if links > MAX_SYMLINKS {
            return Err(ResolveError::Loop(candidate));
        }
        let target = match std::fs::read_link(&candidate) {
            Ok(t) => t,
            // Replaced between the two calls: resolve it again.
            Err(_) => {
                pending.push(name);
                continue;
            }
        };
        if target.as_os_str().is_empty() {
            return Err(ResolveError::EmptyLink(candidate));
        }
        if target.is_absolute() {
            out = PathBuf::from("/");
        }
        push_components(&mut pending, &target);
    }
    Ok(out)
}

/// Pushes `path`'s components so that its first is popped next.
fn push_components(pending: &mut Vec<OsString>, path: &Path) {
    let names: Vec<OsString> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            Component::CurDir | Component::RootDir | Component::Prefix(_) => None,
        })
        .collect();
    pending.extend(names.into_iter().rev());
}

/// Whether `path` lies inside one of `roots` (all resolved).
pub fn inside(path: &Path, roots: &[PathBuf]) -> bool {
    roots.iter().any(|r| path.starts_with(r))
}

#[cfg(test)]
#[cfg(unix)]
#[path = "fs_resolve_tests.rs"]
mod tests;
