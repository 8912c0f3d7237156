//! Project directory names: readable, short, and unique per working directory.

use std::path::{Path, PathBuf};

/// Longest readable part of a slug, in bytes; the tail of the path is kept
/// because it is the part that tells projects apart.
const READABLE_MAX: usize = 48;

/// The directory name for sessions run in `cwd`: the path's components
/// joined by `-` (non-alphanumerics folded), then an 8-hex-digit hash of the
/// full path so distinct paths never share a directory, e.g.
/// `home-me-src-app-1a2b3c4d`.
pub fn project_slug(cwd: &Path) -> String {
    let raw = cwd.to_string_lossy();
    let mut readable = String::with_capacity(raw.len());
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
            readable.push(c);
        } else if !readable.ends_with('-') {
            readable.push('-');
        }
    }
    let trimmed = readable.trim_matches(|c| c == '-' || c == '.');
    let tail_start = trimmed.len().saturating_sub(READABLE_MAX);
    // The readable string is ASCII, so any byte index is a char boundary.
    let tail = trimmed[tail_start..].trim_start_matches(['-', '.']);
    let hash = fnv1a(raw.as_bytes()) as u32;
    if tail.is_empty() {
        format!("root-{hash:08x}")
    } else {
        format!("{tail}-{hash:08x}")
    }
}

/// The path sessions are filed under: canonical when it exists, so a
/// symlinked checkout and its target share their sessions.
pub(crate) fn normalize_cwd(cwd: &Path) -> PathBuf {
    std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf())
}

/// 64-bit FNV-1a: stable across releases and platforms, unlike `DefaultHasher`.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_is_readable_and_hashed() {
        let slug = project_slug(Path::new("/home/me/src/app"));
        assert!(slug.starts_with("home-me-src-app-"), "{slug}");
        assert_eq!(slug.len(), "home-me-src-app-".len() + 8);
        assert_eq!(slug, project_slug(Path::new("/home/me/src/app")));
    }

    #[test]
    fn distinct_paths_get_distinct_slugs() {
        assert_ne!(
            project_slug(Path::new("/a/b-c")),
            project_slug(Path::new("/a/b/c"))
        );
    }

    #[test]
    fn long_and_odd_paths_stay_short() {
        let long = format!("/{}", "x/".repeat(200));
        assert!(project_slug(Path::new(&long)).len() <= READABLE_MAX + 9);
        assert!(project_slug(Path::new("/")).starts_with("root-"));
        assert!(!project_slug(Path::new("/tmp/ünï cødé")).contains(' '));
    }
}
