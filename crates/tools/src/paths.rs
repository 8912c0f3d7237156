//! Paths the model gives (absolute, relative to the session cwd, or `~/…`):
//! resolved once by the shared resolver ([`wright_sandbox::fs_resolve`],
//! the same one the permission check uses), checked against the files the
//! tools never write (protected names, and files that would make a
//! directory a git repository), and shown back to the model as briefly as
//! possible. Files are then opened through [`wright_sandbox::Beneath`], so
//! the kernel refuses a symlink that appears after the check; nothing here
//! interprets `..` on its own.

use std::io::Read;
use std::path::{Path, PathBuf};

use wright_sandbox::{Beneath, OpenError, fs_resolve};

use crate::{OutsideWrites, ToolContext, ToolError};

/// A path the model gave, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolPath {
    /// The file the kernel reaches (no symlink, `.` or `..` in it).
    pub real: PathBuf,
    /// The path as written, made absolute (`.`/`..` removed lexically);
    /// only for name checks and display.
    pub written: PathBuf,
    /// What the model is shown: `written` relative to the cwd when under it.
    pub shown: String,
}

/// Resolves `text` for a tool run.
pub fn resolve(ctx: &ToolContext, text: &str) -> Result<ToolPath, ToolError> {
    let r = fs_resolve::resolve(&ctx.cwd, text, ctx.home.as_deref())
        .map_err(|e| ToolError::Failed(e.to_string()))?;
    let shown = display(&ctx.cwd, &r.written);
    Ok(ToolPath {
        real: r.real,
        written: r.written,
        shown,
    })
}

/// Where this run opens files from: the workspace roots, resolved.
pub fn beneath(ctx: &ToolContext) -> Beneath {
    Beneath::new(ctx.roots.iter().cloned())
}

/// Refuses a write the tools never make, whatever the mode: a protected
/// file (by the resolved path or the name as written), or a file outside
/// every workspace root unless the run allows that.
pub fn check_write(ctx: &ToolContext, p: &ToolPath, beneath: &Beneath) -> Result<(), ToolError> {
    let mut dirs = ctx.protected_dirs.clone();
    dirs.extend(
        ctx.protected_dirs
            .iter()
            .filter_map(|d| fs_resolve::resolve_path(d).ok()),
    );
    for path in [&p.real, &p.written] {
        if let Some(why) = wright_sandbox::protected_write(path, &dirs) {
            return Err(ToolError::Blocked(format!(
                "{} is {why}{}; the file tools never change it, in any mode. If it must \
                 change, tell the user what to edit",
                p.shown,
                via(p)
            )));
        }
    }
    // A file that makes its directory a git dir (a `HEAD` beside `objects`
    // or `refs`) plants a repository whose config git would run.
    if wright_sandbox::git_dirs::makes_git_dir(&p.real) {
        return Err(ToolError::Blocked(format!(
            "{}{} would make its directory a git repository (a `HEAD` beside `objects`, `refs` \
             or `commondir`), whose config git would run; the file tools never create one, in \
             any mode. Use git commands for repositories",
            p.shown,
            via(p)
        )));
    }
    if ctx.outside_writes == OutsideWrites::Refuse && !beneath.contains(&p.real) {
        let roots: Vec<String> = beneath
            .roots()
            .iter()
            .map(|r| r.display().to_string())
            .collect();
        return Err(ToolError::Blocked(format!(
            "{}{} is outside the workspace ({}); the file tools do not write there. The user \
             can add the directory to `[permissions] additional_roots`",
            p.shown,
            via(p),
            roots.join(", ")
        )));
    }
    Ok(())
}

/// Where symlinks really lead, when that differs from the name as written.
fn via(p: &ToolPath) -> String {
    if p.real == p.written {
        String::new()
    } else {
        format!(" (through symbolic links: {})", p.real.display())
    }
}

/// Words for a failed open or write of `p`, with what to do about it.
pub fn open_failure(verb: &str, p: &ToolPath, e: &OpenError) -> ToolError {
    match e {
        OpenError::IsDirectory(_) => ToolError::Failed(format!("{} is a directory", p.shown)),
        OpenError::Symlink(_) | OpenError::Escape(_) | OpenError::NotResolved(_) => {
            ToolError::Failed(format!("Cannot {verb} {}: {e}", p.shown))
        }
        OpenError::Io { source, .. } => {
            ToolError::Failed(format!("Cannot {verb} {}: {source}", p.shown))
        }
    }
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

/// The current bytes of `path`, `None` when it does not exist.
pub(crate) fn read_existing(
    beneath: &Beneath,
    path: &ToolPath,
) -> Result<Option<Vec<u8>>, ToolError> {
    let mut file = match beneath.open_read(&path.real) {
        Ok(f) => f,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(open_failure("read", path, &e)),
    };
    let failed = |e: std::io::Error| ToolError::Failed(format!("Cannot read {}: {e}", path.shown));
    let meta = file.metadata().map_err(failed)?;
    if meta.is_dir() {
        return Err(ToolError::Failed(format!("{} is a directory", path.shown)));
    }
    if !meta.is_file() {
        return Err(ToolError::Failed(format!(
            "{} is not a regular file (a device, FIFO or socket); the file tools do not change it",
            path.shown
        )));
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(failed)?;
    Ok(Some(bytes))
}

#[cfg(test)]
#[cfg(unix)]
#[path = "paths_tests.rs"]
mod resolve_tests;

#[cfg(test)]
mod tests {
    use super::*;

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
