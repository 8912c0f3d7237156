//! The file walk shared by `glob` and `grep`: gitignore-aware, hidden files
//! skipped unless asked for, `.git` always skipped, newest files first.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use globset::{GlobBuilder, GlobMatcher};

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

/// Files under `root` accepted by `keep` (given the path relative to the
/// root), newest first, then by path.
pub(crate) fn files(
    root: &Path,
    include_hidden: bool,
    keep: impl Fn(&Path) -> bool,
) -> Vec<PathBuf> {
    let walker = ignore::WalkBuilder::new(root)
        .hidden(!include_hidden)
        .require_git(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    let mut found: Vec<(SystemTime, PathBuf)> = walker
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter(|e| keep(e.path().strip_prefix(root).unwrap_or(e.path())))
        .map(|e| {
            let mtime = e
                .metadata()
                .ok()
                .and_then(|m| m.modified().ok())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            (mtime, e.into_path())
        })
        .collect();
    found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    found.into_iter().map(|(_, p)| p).collect()
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
