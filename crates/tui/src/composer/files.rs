//! The project's files for `@path` completion: walked once, on first use,
//! in a background thread with the `ignore` crate (so `.gitignore`d files
//! are left out) up to a cap, and ranked per keystroke with
//! `nucleo-matcher`. A keypress never waits for the walk: it matches what
//! has been found so far.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

/// Paths indexed by default before the walk stops.
pub const DEFAULT_FILE_CAP: usize = 50_000;

/// Paths handed from the walker to the index at a time (fewer locks).
const BATCH: usize = 256;

/// Where `@path` completions come from. Cheap to clone; clones share one
/// index.
#[derive(Debug, Clone)]
pub struct FileSource {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    root: Option<PathBuf>,
    cap: usize,
    started: AtomicBool,
    index: Mutex<Index>,
}

#[derive(Debug, Default)]
struct Index {
    /// Relative paths with `/` separators; directories end with `/`.
    paths: Vec<String>,
    done: bool,
}

impl FileSource {
    /// The files under `root`, walked on first use (or [`Self::start`]).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self::build(Some(root.into()), Vec::new(), false)
    }

    /// A fixed list of paths (relative, `/`-separated; directories ending
    /// with `/`), for tests or an app that already has the list.
    pub fn from_paths(paths: Vec<String>) -> Self {
        Self::build(None, paths, true)
    }

    fn build(root: Option<PathBuf>, paths: Vec<String>, done: bool) -> Self {
        Self {
            inner: Arc::new(Inner {
                root,
                cap: DEFAULT_FILE_CAP,
                started: AtomicBool::new(done),
                index: Mutex::new(Index { paths, done }),
            }),
        }
    }

    /// The same source with at most `cap` paths indexed. Only before the
    /// walk starts; later it returns the source unchanged.
    pub fn with_cap(self, cap: usize) -> Self {
        match Arc::try_unwrap(self.inner) {
            Ok(mut inner) => {
                inner.cap = cap;
                Self {
                    inner: Arc::new(inner),
                }
            }
            Err(inner) => Self { inner },
        }
    }

    /// Starts the background walk if it has not started yet.
    pub fn start(&self) {
        if self.inner.started.swap(true, Ordering::SeqCst) {
            return;
        }
        let inner = Arc::clone(&self.inner);
        let spawned = std::thread::Builder::new()
            .name("wright-file-index".into())
            .spawn(move || walk(&inner));
        if spawned.is_err() {
            self.lock().done = true;
        }
    }

    /// Whether the walk has finished (or hit its cap).
    pub fn is_ready(&self) -> bool {
        self.lock().done
    }

    /// Paths indexed so far.
    pub fn len(&self) -> usize {
        self.lock().paths.len()
    }

    /// Whether no path is indexed (yet).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The best `limit` paths for `query`, best first (fuzzy, smart case;
    /// ties go to the shorter path). An empty query lists the shallowest
    /// paths. Starts the walk on first use.
    pub fn best_matches(&self, query: &str, limit: usize) -> Vec<String> {
        self.start();
        let index = self.lock();
        let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
        let mut matcher = Matcher::new(Config::DEFAULT.match_paths());
        let mut buf = Vec::new();
        let mut scored: Vec<(u32, &String)> = index
            .paths
            .iter()
            .filter_map(|p| {
                pattern
                    .score(Utf32Str::new(p, &mut buf), &mut matcher)
                    .map(|s| (s, p))
            })
            .collect();
        let depth = |p: &str| p.trim_end_matches('/').matches('/').count();
        scored.sort_by(|(sa, a), (sb, b)| {
            sb.cmp(sa)
                .then_with(|| depth(a).cmp(&depth(b)))
                .then_with(|| a.len().cmp(&b.len()))
                .then_with(|| a.cmp(b))
        });
        scored
            .into_iter()
            .take(limit)
            .map(|(_, p)| p.clone())
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Index> {
        // A panic while holding the lock cannot leave the list half
        // written (pushes are whole), so a poisoned lock is still usable.
        self.inner
            .index
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// Walks the root, feeding the index in batches until done or capped.
fn walk(inner: &Inner) {
    let finish = |batch: &mut Vec<String>| {
        let mut index = inner.index.lock().unwrap_or_else(PoisonError::into_inner);
        index.paths.append(batch);
        index.done = true;
    };
    let mut batch = Vec::new();
    let Some(root) = inner.root.as_deref() else {
        finish(&mut batch);
        return;
    };
    let walker = ignore::WalkBuilder::new(root)
        .hidden(false)
        .require_git(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    let mut count = 0;
    for entry in walker.flatten() {
        let Some(path) = relative(root, entry.path()) else {
            continue;
        };
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        batch.push(if is_dir { format!("{path}/") } else { path });
        count += 1;
        if count >= inner.cap {
            break;
        }
        if batch.len() >= BATCH {
            let mut index = inner.index.lock().unwrap_or_else(PoisonError::into_inner);
            index.paths.append(&mut batch);
        }
    }
    finish(&mut batch);
}

/// `path` relative to `root` with `/` separators; `None` for the root
/// itself and for paths that are not valid UTF-8.
fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    let joined = parts?.join("/");
    (!joined.is_empty()).then_some(joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait_ready(source: &FileSource) {
        // No timing assertion: poll until the walk reports done.
        while !source.is_ready() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    fn project() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (path, body) in [
            (".gitignore", "target/\n*.log\n"),
            ("src/main.rs", ""),
            ("src/composer/mod.rs", ""),
            ("crates/core/src/main_loop.rs", ""),
            ("README.md", ""),
            ("debug.log", ""),
            ("target/debug/main", ""),
            (".github/ci.yml", ""),
            (".git/HEAD", ""),
        ] {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, body).unwrap();
        }
        dir
    }

    #[test]
    fn walks_gitignore_aware_and_ranks_fuzzily() {
        let dir = project();
        let source = FileSource::new(dir.path());
        source.start();
        wait_ready(&source);
        let all = source.best_matches("", 100);
        assert!(all.contains(&"src/main.rs".to_owned()), "{all:?}");
        assert!(all.contains(&"src/".to_owned()), "{all:?}");
        assert!(all.contains(&".github/ci.yml".to_owned()), "{all:?}");
        assert!(
            !all.iter()
                .any(|p| p.starts_with("target") || p.ends_with(".log"))
        );
        assert!(!all.iter().any(|p| p.starts_with(".git/")), "{all:?}");
        let best = source.best_matches("main", 8);
        assert_eq!(best.first().map(String::as_str), Some("src/main.rs"));
        assert!(best.contains(&"crates/core/src/main_loop.rs".to_owned()));
        assert_eq!(source.best_matches("cmpsmod", 1), ["src/composer/mod.rs"]);
        assert!(source.best_matches("zzzz", 8).is_empty());
    }

    #[test]
    fn the_cap_stops_the_walk() {
        let dir = project();
        let source = FileSource::new(dir.path()).with_cap(3);
        source.start();
        wait_ready(&source);
        assert_eq!(source.len(), 3);
    }

    #[test]
    fn fixed_lists_rank_shallow_and_short_first_on_ties() {
        let source = FileSource::from_paths(
            ["b/x/lib.rs", "lib.rs", "a/lib.rs"]
                .map(String::from)
                .to_vec(),
        );
        assert!(source.is_ready());
        assert_eq!(source.best_matches("", 2), ["lib.rs", "a/lib.rs"]);
        let missing = FileSource::new("/nonexistent/wright/root");
        missing.start();
        wait_ready(&missing);
        assert!(missing.is_empty());
    }
}
