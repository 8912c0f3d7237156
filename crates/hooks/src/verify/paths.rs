//! Path identity and display for the verifier. Edited files arrive as the
//! core spelled them, checkers print paths relative to their own working
//! directory, and temp dirs are often reached through symlinks (`/tmp` vs
//! `/private/tmp`), so every comparison goes through [`identity`].

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

/// Removes `.` and folds `..` without touching the file system.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                // `/..` is `/`.
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(".."),
            },
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The path two spellings of the same file agree on: canonical where the
/// file exists, else its canonical directory plus its name (a deleted file
/// in a symlinked dir), else the lexically normalized path.
pub(crate) fn identity(path: &Path) -> PathBuf {
    let path = normalize(path);
    if let Ok(canonical) = std::fs::canonicalize(&path) {
        return canonical;
    }
    if let (Some(parent), Some(name)) = (path.parent(), path.file_name())
        && let Ok(parent) = std::fs::canonicalize(parent)
    {
        return parent.join(name);
    }
    path
}

/// A path a checker printed, resolved against the directory it ran in.
pub(crate) fn resolve(cwd: &Path, text: &str) -> PathBuf {
    identity(&cwd.join(text.trim()))
}

/// [`resolve`] with a cache, since one file is named by many diagnostics.
#[derive(Debug)]
pub(crate) struct Resolver<'a> {
    cwd: &'a Path,
    cache: HashMap<String, PathBuf>,
}

impl<'a> Resolver<'a> {
    pub(crate) fn new(cwd: &'a Path) -> Resolver<'a> {
        Resolver {
            cwd,
            cache: HashMap::new(),
        }
    }

    pub(crate) fn resolve(&mut self, text: &str) -> PathBuf {
        if let Some(path) = self.cache.get(text) {
            return path.clone();
        }
        let path = resolve(self.cwd, text);
        self.cache.insert(text.to_string(), path.clone());
        path
    }
}

/// `path` relative to `base`, trying the spellings as given before their
/// identities so the common case costs no system call.
pub(crate) fn relative_to(path: &Path, base: &Path) -> Option<PathBuf> {
    if let Ok(rel) = path.strip_prefix(base) {
        return Some(normalize(rel));
    }
    identity(path)
        .strip_prefix(identity(base))
        .ok()
        .map(Path::to_path_buf)
}

/// How a path is shown to the model: relative to the workspace root when
/// inside it (that is how its tools name files), absolute otherwise.
pub(crate) fn display(path: &Path, root: &Path) -> String {
    match relative_to(path, root) {
        Some(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => path.display().to_string(),
    }
}

/// A set of files compared by [`identity`].
#[derive(Debug, Default)]
pub(crate) struct FileSet(HashSet<PathBuf>);

impl FileSet {
    pub(crate) fn new(files: &[PathBuf]) -> FileSet {
        FileSet(files.iter().map(|f| identity(f)).collect())
    }

    /// `path` must already be an identity (as [`resolve`] returns).
    pub(crate) fn contains_identity(&self, path: &Path) -> bool {
        self.0.contains(path)
    }

    pub(crate) fn contains(&self, path: &Path) -> bool {
        self.0.contains(path) || self.0.contains(&identity(path))
    }
}
