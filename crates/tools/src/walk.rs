//! The file walk shared by `glob` and `grep`: parallel, gitignore-aware,
//! hidden files skipped unless asked for, `.git` always skipped, stopping at
//! a result cap, newest files first.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

use globset::{GlobBuilder, GlobMatcher};
use ignore::WalkState;

use crate::{ToolContext, ToolError};

/// A glob applied to a file's name when it has no `/`, else to its path
/// relative to the search root (like a `.gitignore` line).
pub(crate) struct NameGlob {
    matcher: GlobMatcher,
    whole_path: bool,
}

impl NameGlob {
    /// Compiles `pattern`; a bad pattern is the model's mistake.
    pub(crate) fn new(pattern: &str) -> Result<Self, ToolError> {
        let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
        let glob = GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .map_err(|e| ToolError::InvalidArgs(format!("invalid glob: {e}")))?;
        Ok(Self {
            matcher: glob.compile_matcher(),
            whole_path: pattern.contains('/'),
        })
    }

    /// Whether the file at `rel` (relative to the root) matches.
    pub(crate) fn is_match(&self, rel: &Path) -> bool {
        if self.whole_path {
            self.matcher.is_match(rel)
        } else {
            rel.file_name().is_some_and(|n| self.matcher.is_match(n))
        }
    }
}

/// Whether a file's name marks it as a key or credentials file.
pub(crate) fn looks_secret(rel: &Path) -> bool {
    let Some(name) = rel.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let lower = name.to_ascii_lowercase();
    let ext = |e: &str| lower.ends_with(e);
    (lower.starts_with(".env")
        && !matches!(
            lower.as_str(),
            ".env.example" | ".env.sample" | ".env.template"
        ))
        || lower.starts_with("id_rsa")
        || lower.starts_with("id_ed25519")
        || lower.starts_with("id_ecdsa")
        || ext(".pem")
        || ext(".key")
        || ext(".p12")
        || ext(".pfx")
        || matches!(
            lower.as_str(),
            "credentials.json"
                | ".git-credentials"
                | ".netrc"
                | ".pgpass"
                | ".pypirc"
                | "credentials"
        )
}

/// What a capped walk found.
pub(crate) struct Found<T> {
    /// The files a visitor kept, with what it said about each, newest
    /// first, then by path.
    pub hits: Vec<(PathBuf, T)>,
    /// Whether the walk stopped at the cap: more files may match.
    pub stopped: bool,
}

/// Runs on one walker thread: given a file's absolute path, says whether
/// the file is a hit (and what about it) and how much of the cap it uses.
pub(crate) type Visitor<'a, T> = Box<dyn FnMut(&Path) -> Option<(T, usize)> + Send + 'a>;

/// Makes one [`Visitor`] per walker thread.
pub(crate) type VisitorFactory<'a, T> = &'a (dyn Fn() -> Visitor<'a, T> + Sync);

/// Walks the files under `root` accepted by `keep` (given the path relative
/// to the root) on all cores, runs a visitor on each, and stops as soon as
/// the hits weigh more than `cap`. Sorting by recency needs only the hits'
/// modification times, so files that are not hits are never stat'ed.
///
/// A walk that stops early returns the hits found so far (sorted the same
/// way): which files they are depends on the walk's order. Finding the
/// newest `cap` of all matches would mean searching (and stat'ing) every
/// file, which is what a capped search is there to avoid.
pub(crate) fn search<T: Send>(
    root: &Path,
    include_hidden: bool,
    keep: &(dyn Fn(&Path) -> bool + Sync),
    visitor: VisitorFactory<'_, T>,
    cap: usize,
) -> Found<T> {
    let walker = ignore::WalkBuilder::new(root)
        .hidden(!include_hidden)
        .require_git(false)
        .filter_entry(|e| e.file_name() != ".git")
        .threads(0)
        .build_parallel();
    let hits: Mutex<Vec<(SystemTime, PathBuf, T)>> = Mutex::new(Vec::new());
    let weight = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    walker.run(|| {
        let mut visit = visitor();
        let (hits, weight, stopped) = (&hits, &weight, &stopped);
        Box::new(move |entry| {
            if stopped.load(Ordering::Relaxed) {
                return WalkState::Quit;
            }
            let Ok(entry) = entry else {
                return WalkState::Continue;
            };
            if !entry.file_type().is_some_and(|t| t.is_file())
                || !keep(entry.path().strip_prefix(root).unwrap_or(entry.path()))
            {
                return WalkState::Continue;
            }
            let Some((value, used)) = visit(entry.path()) else {
                return WalkState::Continue;
            };
            let mtime = entry
                .metadata()
                .ok()
                .and_then(|m| m.modified().ok())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            if let Ok(mut hits) = hits.lock() {
                hits.push((mtime, entry.into_path(), value));
            }
            if weight.fetch_add(used, Ordering::Relaxed) + used > cap {
                stopped.store(true, Ordering::Relaxed);
                return WalkState::Quit;
            }
            WalkState::Continue
        })
    });
    let mut hits = hits.into_inner().unwrap_or_else(PoisonError::into_inner);
    hits.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    Found {
        hits: hits.into_iter().map(|(_, p, v)| (p, v)).collect(),
        stopped: stopped.into_inner(),
    }
}

/// A directory (or file) to search: where it really is (resolved by the
/// shared resolver) and how paths under it are shown.
pub(crate) struct SearchRoot {
    /// The resolved path; the walk starts here.
    pub real: PathBuf,
    written: PathBuf,
    cwd: PathBuf,
}

impl SearchRoot {
    /// A path found under the root, shown under the name the model used.
    pub fn shown(&self, p: &Path) -> String {
        let p = match p.strip_prefix(&self.real) {
            Ok(rel) if rel.as_os_str().is_empty() => self.written.clone(),
            Ok(rel) => self.written.join(rel),
            Err(_) => p.to_path_buf(),
        };
        crate::paths::display(&self.cwd, &p)
    }
}

/// The directory to search, or a failure the model can act on.
pub(crate) fn search_root(ctx: &ToolContext, path: Option<&str>) -> Result<SearchRoot, ToolError> {
    let p = crate::paths::resolve(ctx, path.unwrap_or("."))?;
    if !p.real.exists() {
        return Err(ToolError::Failed(format!("Path not found: {}", p.shown)));
    }
    Ok(SearchRoot {
        real: p.real,
        written: p.written,
        cwd: ctx.cwd.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_glob_matches_name_or_path() {
        let g = NameGlob::new("*.rs").unwrap();
        assert!(g.is_match(Path::new("a/b/c.rs")));
        let g = NameGlob::new("src/*.rs").unwrap();
        assert!(g.is_match(Path::new("src/c.rs")));
        assert!(!g.is_match(Path::new("src/x/c.rs")));
        let g = NameGlob::new("**/*.{ts,tsx}").unwrap();
        assert!(g.is_match(Path::new("a/b.tsx")));
        assert!(NameGlob::new("a[").is_err());
    }
}
