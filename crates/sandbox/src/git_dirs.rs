//! Where git directories are, or would be, in a workspace. A git dir that a
//! command or a file tool plants — a nested `.git`, a bare repository made
//! of `HEAD` and `objects`/`refs`, a `.git` file pointing elsewhere — is
//! read by the user's next plain `git status` (through a gitlink) or by
//! hooks that run git, and its config can run programs (`core.fsmonitor`,
//! filters, hooks). These helpers let the file tools refuse such writes,
//! the sandbox bind the existing ones read-only and the repo guard find
//! the new ones after a command.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

/// Names whose presence beside `HEAD` makes a directory a git dir to git's
/// discovery (`objects` and `refs`, or a `commondir` supplying them).
const GIT_DIR_PARTS: &[&str] = &["head", "objects", "refs", "commondir"];

/// Whether writing the file `path` would make one of its ancestors a git
/// directory (a `HEAD` beside `objects`, `refs` or `commondir`), counting
/// the write itself. Git discovers such a directory as a (bare) repository
/// and reads its `config`; the file tools never create one. Stricter than
/// git (one of the three beside `HEAD` is enough), so a partial plant is
/// refused whichever file comes first. Names compare ASCII
/// case-insensitively, as macOS file systems usually do.
pub fn makes_git_dir(path: &Path) -> bool {
    let mut dir = path.parent();
    let mut rel: Vec<String> = path
        .file_name()
        .map(|n| vec![n.to_string_lossy().to_ascii_lowercase()])
        .unwrap_or_default();
    while let Some(d) = dir {
        // `rel` is `path` below `d`, first component last.
        if let Some(first) = rel.last()
            && GIT_DIR_PARTS.contains(&first.as_str())
        {
            let has = |name: &str| first == name || has_entry(d, name);
            if has("head") && (has("objects") || has("refs") || has("commondir")) {
                return true;
            }
        }
        match d.file_name() {
            Some(n) => rel.push(n.to_string_lossy().to_ascii_lowercase()),
            None => break,
        }
        dir = d.parent();
    }
    false
}

/// Whether `dir` has an entry named `lower` in any case (the file system
/// may be case-insensitive, and git on it would find `head` as `HEAD`).
fn has_entry(dir: &Path, lower: &str) -> bool {
    if dir.join(lower).symlink_metadata().is_ok() {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries
        .flatten()
        .any(|e| e.file_name().to_string_lossy().to_ascii_lowercase() == lower)
}

/// Most directory entries one scan of a root looks at: a bound on the time
/// a command's sweep takes in a huge tree. What lies beyond it is not
/// scanned (and said so by [`Scan::complete`]).
pub const SCAN_LIMIT: usize = 200_000;

/// The `.git` entries (files, directories or links) nested under a root,
/// not the root's own `.git`, found by one walk that never follows links
/// or enters a `.git`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Scan {
    /// Each nested `.git` with the identity of what is there (device and
    /// inode), so a replaced one counts as new.
    pub found: BTreeSet<(PathBuf, u64, u64)>,
    /// Whether the walk saw the whole tree (within [`SCAN_LIMIT`]).
    pub complete: bool,
}

/// Walks `root` for nested `.git` entries and bare git dirs (`HEAD` beside
/// `objects` or `refs`).
pub fn scan_nested(root: &Path) -> Scan {
    let mut scan = Scan {
        complete: true,
        ..Scan::default()
    };
    let mut seen = 0usize;
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut names = Vec::new();
        for e in entries.flatten() {
            seen += 1;
            if seen > SCAN_LIMIT {
                scan.complete = false;
                return scan;
            }
            let name = e.file_name().to_string_lossy().to_ascii_lowercase();
            let path = e.path();
            if name == ".git" {
                if dir != root {
                    insert(&mut scan.found, path);
                }
                continue;
            }
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
            }
            names.push(name);
        }
        let has = |n: &str| names.iter().any(|x| x == n);
        if dir != root && has("head") && (has("objects") || has("refs") || has("commondir")) {
            insert(&mut scan.found, dir);
        }
    }
    scan
}

fn insert(set: &mut BTreeSet<(PathBuf, u64, u64)>, path: PathBuf) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Ok(m) = path.symlink_metadata() {
            set.insert((path, m.dev(), m.ino()));
        }
    }
    #[cfg(not(unix))]
    {
        set.insert((path, 0, 0));
    }
}

/// The `.git` entries of the submodules `root` declares in `.gitmodules`
/// (`path = …`), recursively through theirs: git enters each on the user's
/// `git status`, so each must stay what it is. Paths that leave `root` are
/// skipped.
pub fn submodule_dot_gits(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(text) = std::fs::read_to_string(dir.join(".gitmodules")) else {
            continue;
        };
        for line in text.lines() {
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            if key.trim() != "path" {
                continue;
            }
            let rel = Path::new(value.trim().trim_matches('"'));
            if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
                continue;
            }
            let sub = dir.join(rel);
            let git = sub.join(".git");
            if git.symlink_metadata().is_ok() && out.len() < 1000 {
                out.push(git);
                stack.push(sub);
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "git_dirs_tests.rs"]
mod tests;
