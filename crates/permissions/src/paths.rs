//! Path resolution for permission checks and the secret-file guard.
//!
//! Resolution is the shared resolver of the file tools
//! ([`wright_sandbox::fs_resolve`]): `~` and `$HOME` expanded, relative
//! paths joined to the cwd, every component followed through symlinks
//! (chains of any depth, dangling links to where a write would land) before
//! a later `..` is applied. So the check and the tools always agree on
//! which file a path names; the lexical reading is kept only so a secret
//! or protected *name* is refused under either reading.

use std::path::{Path, PathBuf};

use wright_sandbox::fs_resolve;

/// A path as written (normalized lexically) and as it really resolves.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    pub lexical: PathBuf,
    pub real: PathBuf,
}

/// Expands `~`, `~/…`, `$HOME/…` and `${HOME}/…`.
pub(crate) fn expand_home(text: &str, home: Option<&Path>) -> Option<PathBuf> {
    fs_resolve::expand_home(text, home)
}

/// Resolves `text` against `cwd`. A symlink loop has no real location; the
/// name as written stands in for it (opening it fails with ELOOP anyway).
pub(crate) fn resolve(cwd: &Path, text: &str, home: Option<&Path>) -> Resolved {
    let abs = fs_resolve::absolute(cwd, text, home);
    let lexical = fs_resolve::lexical(&abs);
    let real = fs_resolve::resolve_path(&abs).unwrap_or_else(|_| lexical.clone());
    Resolved { lexical, real }
}

/// Removes `.` and `..` without touching the file system (for names only).
pub(crate) fn normalize(path: &Path) -> PathBuf {
    fs_resolve::lexical(path)
}

/// Whether `path` lies inside one of `roots`.
pub(crate) fn inside(path: &Path, roots: &[PathBuf]) -> bool {
    roots.iter().any(|r| path.starts_with(r))
}

fn file_name(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// Why a file name alone marks a secret, if it does: the sandbox's list,
/// so what asks here is what the sandbox hides.
pub(crate) use wright_sandbox::secrets::secret_name;

/// Why `path` is a secret, if it is. `write` adds files that are only
/// dangerous to change (`.git/config`, git hooks).
pub(crate) fn secret_path(path: &Path, write: bool) -> Option<&'static str> {
    if let Some(why) = secret_name(file_name(path)) {
        return Some(why);
    }
    let names: Vec<&str> = path
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    let has = |n: &str| names.contains(&n);
    if has(".ssh") || has(".gnupg") {
        return Some("a file in a key directory");
    }
    let pair = |a: &str, b: &str| names.windows(2).any(|w| w[0] == a && w[1] == b);
    if pair(".aws", "credentials")
        || pair(".docker", "config.json")
        || pair(".kube", "config")
        || pair("gh", "hosts.yml")
    {
        return Some("a credentials file");
    }
    if write && (pair(".git", "config") || pair(".git", "hooks")) {
        return Some("git configuration that can run commands");
    }
    // wright's own settings: an edit there could grant the agent more
    // permissions on the next run.
    if write
        && names
            .windows(2)
            .any(|w| w[0] == ".wright" && (w[1] == "config.toml" || w[1] == "config.local.toml"))
    {
        return Some("wright's permission settings");
    }
    // The rest of the files the tools refuse in every mode (`.mcp.json`,
    // hooks and agents, other agents' settings): one list, shared.
    if write {
        return wright_sandbox::protected_write(path, &[]);
    }
    None
}

/// Why a resolved path is a secret, checking the name as written and the
/// file it really is.
pub(crate) fn secret(r: &Resolved, write: bool) -> Option<&'static str> {
    secret_path(&r.lexical, write).or_else(|| secret_path(&r.real, write))
}

/// Whether an unquoted glob in a shell word could expand to a secret file.
pub(crate) fn glob_may_name_secret(word: &str) -> bool {
    const SAMPLES: &[&str] = &[
        ".env",
        ".env.local",
        ".env.production",
        "id_rsa",
        "id_ed25519",
        "server.pem",
        "server.key",
        "cert.p12",
        "credentials.json",
        ".netrc",
        ".git-credentials",
    ];
    let name = word.rsplit('/').next().unwrap_or(word);
    if name.chars().all(|c| matches!(c, '*' | '?')) {
        // `*` does not match dot files in the shell; plain `*` in a command
        // line is too common to treat as naming a secret.
        return false;
    }
    // Compiling a glob builds a regex, a millisecond per word. The pattern
    // is widened instead to plain `*` and `?` and matched directly: the
    // answer may say "secret" more often than the exact glob would (that
    // only asks), never less.
    let Some(wide) = widen_glob(name) else {
        return true;
    };
    SAMPLES
        .iter()
        .any(|s| wildcard_match(wide.as_bytes(), s.as_bytes()))
}

/// Whether some file name matches both shell globs `a` and `b` (each
/// widened first, so the answer errs on "yes"): the product of the two
/// patterns' automata, walked with a memo (`*` any run, `?` one
/// character, every other byte itself).
pub(crate) fn globs_intersect(a: &str, b: &str) -> bool {
    let (Some(a), Some(b)) = (widen_glob(a), widen_glob(b)) else {
        return true;
    };
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut memo = vec![None; (a.len() + 1) * (b.len() + 1)];
    intersect_at(a, b, 0, 0, &mut memo)
}

fn intersect_at(a: &[u8], b: &[u8], i: usize, j: usize, memo: &mut [Option<bool>]) -> bool {
    let key = i * (b.len() + 1) + j;
    if let Some(v) = memo[key] {
        return v;
    }
    // Mark first: a cycle cannot happen (each step advances i or j), but
    // the default keeps the walk finite whatever the input.
    memo[key] = Some(false);
    let v = match (a.get(i), b.get(j)) {
        (None, None) => true,
        (Some(b'*'), _) => {
            intersect_at(a, b, i + 1, j, memo)
                || (j < b.len() && intersect_at(a, b, i, j + 1, memo))
        }
        (_, Some(b'*')) => {
            intersect_at(a, b, i, j + 1, memo)
                || (i < a.len() && intersect_at(a, b, i + 1, j, memo))
        }
        (Some(&x), Some(&y)) if x == b'?' || y == b'?' || x == y => {
            intersect_at(a, b, i + 1, j + 1, memo)
        }
        _ => false,
    };
    memo[key] = Some(v);
    v
}

/// `pattern` with every construct beyond `*` and `?` replaced by one that
/// matches at least as much: a `[…]` class and an escaped character by
/// `?` (one character), a `{…}` alternation by `*`. `None` when a class
/// or an alternation is not closed (bash would then take it literally; the
/// caller assumes the worst).
fn widen_glob(pattern: &str) -> Option<String> {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next()?;
                out.push('?');
            }
            '[' => {
                // `]` right after `[` or `[!`/`[^` is a member, not the end.
                if matches!(chars.peek(), Some('!' | '^')) {
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    chars.next();
                }
                loop {
                    match chars.next()? {
                        ']' => break,
                        '\\' => {
                            chars.next()?;
                        }
                        _ => {}
                    }
                }
                out.push('?');
            }
            '{' => {
                let mut depth = 1;
                while depth > 0 {
                    match chars.next()? {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        '\\' => {
                            chars.next()?;
                        }
                        _ => {}
                    }
                }
                out.push('*');
            }
            c => out.push(c),
        }
    }
    Some(out)
}

/// Whether `text` matches `pattern` where `*` is any run and `?` any one
/// character, every other byte itself (the greedy algorithm with one
/// backtrack point, linear in practice).
fn wildcard_match(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == b'?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcard_matches_like_globset() {
        let samples = [".env", ".env.local", "id_rsa", "server.pem", "a", ""];
        for pat in [
            "*", "?", "*.*", ".e*", "*env*", "id_*", "*.pem", "?d_rsa", "**a", "a*", "*?*", "",
        ] {
            let m = globset::Glob::new(pat).unwrap().compile_matcher();
            for s in samples {
                assert_eq!(
                    wildcard_match(pat.as_bytes(), s.as_bytes()),
                    m.is_match(s),
                    "{pat} vs {s}"
                );
            }
        }
    }

    #[test]
    fn glob_intersections() {
        for (a, b) in [
            ("priv*", "private"),
            ("*", "*.key"),
            ("*.k?y", "*.key"),
            ("p[ri]ivate", "private"),
            ("*e", "a*"),
            ("", ""),
        ] {
            assert!(globs_intersect(a, b), "{a} {b}");
        }
        for (a, b) in [
            ("*.rs", "*.key"),
            ("src", "private"),
            ("a*", "b*"),
            ("?", ""),
        ] {
            assert!(!globs_intersect(a, b), "{a} {b}");
        }
    }

    #[test]
    fn git_config_is_secret_only_for_writes() {
        let p = Path::new("/w/.git/config");
        assert!(secret_path(p, true).is_some());
        assert!(secret_path(p, false).is_none());
        assert!(secret_path(Path::new("/h/.ssh/known_hosts"), false).is_some());
        assert!(secret_path(Path::new("/h/.aws/credentials"), false).is_some());
    }

    #[cfg(unix)]
    #[test]
    fn resolves_symlinks_before_dotdot() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(root.join("ws")).unwrap();
        std::fs::create_dir_all(root.join("other/deep")).unwrap();
        std::os::unix::fs::symlink(root.join("other/deep"), root.join("ws/link")).unwrap();
        let r = resolve(&root.join("ws"), "link/../x", None);
        assert_eq!(r.real, root.join("other/x"));
        assert_eq!(r.lexical, root.join("ws/x"));
    }

    /// The check follows a chain of dangling links to its end, as the kernel
    /// does when a write creates the file (it used to stop after one).
    #[cfg(unix)]
    #[test]
    fn follows_dangling_chains_to_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(root.join("ws")).unwrap();
        std::os::unix::fs::symlink(root.join("ws/l2"), root.join("ws/l1")).unwrap();
        std::os::unix::fs::symlink(root.join("out/new"), root.join("ws/l2")).unwrap();
        let r = resolve(&root.join("ws"), "l1", None);
        assert_eq!(r.real, root.join("out/new"));
        assert!(!inside(&r.real, &[root.join("ws")]));
    }

    #[test]
    fn protected_files_are_secret_for_writes() {
        for p in [
            "/w/.mcp.json",
            "/w/.claude/settings.json",
            "/w/.wright/agents/a.md",
        ] {
            assert!(secret_path(Path::new(p), true).is_some(), "{p}");
            assert!(secret_path(Path::new(p), false).is_none(), "{p}");
        }
    }

    #[test]
    fn globs_that_name_secrets() {
        assert!(glob_may_name_secret(".e*"));
        assert!(glob_may_name_secret("*.pem"));
        assert!(glob_may_name_secret("id_*"));
        assert!(!glob_may_name_secret("*"));
        assert!(!glob_may_name_secret("*.rs"));
        assert!(glob_may_name_secret("*.ke?"));
        assert!(glob_may_name_secret(".[e]nv"));
        assert!(glob_may_name_secret("*cred*"));
        assert!(!glob_may_name_secret("?.env"));
        assert!(glob_may_name_secret("id_[re]sa"));
        assert!(glob_may_name_secret("server.{pem,key}"));
        assert!(glob_may_name_secret("\\.env"));
        assert!(glob_may_name_secret("[unclosed"));
        assert!(!glob_may_name_secret("file[12].txt"));
        assert!(!glob_may_name_secret("src/{a,b}.rs"));
    }

    /// Widening never loses a match the exact glob has.
    #[test]
    fn a_widened_glob_matches_whatever_the_glob_matches() {
        let samples = [
            ".env",
            ".env.local",
            "id_rsa",
            "server.pem",
            "a]b",
            "x{y}",
            "",
        ];
        for pat in [
            ".[e]nv",
            "id_[!x]sa",
            "*.{pem,key}",
            "a[]]b",
            "\\.env",
            "x{y,{z}}",
            "[^a]d_rsa",
            "*.[pk]e[my]",
        ] {
            let exact = globset::Glob::new(pat).unwrap().compile_matcher();
            let wide = widen_glob(pat).unwrap();
            for s in samples {
                if exact.is_match(s) {
                    assert!(
                        wildcard_match(wide.as_bytes(), s.as_bytes()),
                        "{pat} -> {wide} vs {s}"
                    );
                }
            }
        }
    }
}
