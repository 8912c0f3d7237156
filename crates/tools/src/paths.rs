//! Resolving the paths the model gives (absolute, relative to the session
//! cwd, or `~/…`) and showing paths back to it as briefly as possible.

use std::path::{Component, Path, PathBuf};

/// Resolves `path` against `cwd`, expanding a leading `~/` and removing `.`
/// and `..` lexically (the path need not exist, and symlinks are kept).
pub fn resolve(cwd: &Path, path: &str) -> PathBuf {
    let expanded = match path.strip_prefix("~/") {
        Some(rest) => std::env::var_os("HOME").map(|h| PathBuf::from(h).join(rest)),
        None if path == "~" => std::env::var_os("HOME").map(PathBuf::from),
        None => None,
    };
    let p = expanded.unwrap_or_else(|| PathBuf::from(path));
    normalize(&if p.is_absolute() { p } else { cwd.join(p) })
}

/// Removes `.` and `..` components without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` relative to `cwd` when it lies under it, else as given.
pub fn display(cwd: &Path, path: &Path) -> String {
    match path.strip_prefix(cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
        Ok(rel) => rel.display().to_string(),
        Err(_) => path.display().to_string(),
    }
}

/// A name in `path`'s directory that looks like `path`'s file name (same name
/// in another case, same stem with another extension, or a small typo).
pub fn similar_name(path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?;
    let wanted = path.file_name()?.to_string_lossy().to_lowercase();
    let wanted_stem = path.file_stem()?.to_string_lossy().to_lowercase();
    let mut best: Option<(usize, String)> = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten().take(5000) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let lower = name.to_lowercase();
        let stem = Path::new(&lower)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let score = if lower == wanted {
            0
        } else if stem == wanted_stem {
            1
        } else {
            let d = levenshtein(&lower, &wanted);
            if d > 2 || d * 3 > wanted.len() {
                continue;
            }
            1 + d
        };
        if best.as_ref().is_none_or(|(s, n)| (score, &name) < (*s, n)) {
            best = Some((score, name));
        }
    }
    best.map(|(_, name)| dir.join(name))
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_and_dots() {
        let cwd = Path::new("/work/proj");
        assert_eq!(
            resolve(cwd, "src/a.rs"),
            PathBuf::from("/work/proj/src/a.rs")
        );
        assert_eq!(resolve(cwd, "./x/../b"), PathBuf::from("/work/proj/b"));
        assert_eq!(resolve(cwd, "/etc/hosts"), PathBuf::from("/etc/hosts"));
        assert_eq!(resolve(cwd, "../other"), PathBuf::from("/work/other"));
    }

    #[test]
    fn displays_relative_when_inside() {
        let cwd = Path::new("/w");
        assert_eq!(display(cwd, Path::new("/w/a/b")), "a/b");
        assert_eq!(display(cwd, Path::new("/w")), ".");
        assert_eq!(display(cwd, Path::new("/x/y")), "/x/y");
    }

    #[test]
    fn finds_similar_names() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("main.rs"), "").unwrap();
        std::fs::write(dir.path().join("README.md"), "").unwrap();
        let s = similar_name(&dir.path().join("mian.rs")).unwrap();
        assert!(s.ends_with("main.rs"));
        let s = similar_name(&dir.path().join("readme.md")).unwrap();
        assert!(s.ends_with("README.md"));
        let s = similar_name(&dir.path().join("main.py")).unwrap();
        assert!(s.ends_with("main.rs"));
        assert!(similar_name(&dir.path().join("zzzzzz.toml")).is_none());
    }

    #[test]
    fn levenshtein_basics() {
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("", "ab"), 2);
    }
}
