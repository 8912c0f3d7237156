//! Path resolution for permission checks and the secret-file guard.
//!
//! Paths are resolved the way the kernel will see them: `~` and `$HOME`
//! expanded, relative paths joined to the cwd, and every existing component
//! followed through symlinks before a later `..` is applied, so neither
//! `link/../x` nor `a/../../x` can hide where a write lands.

use std::path::{Component, Path, PathBuf};

const MAX_LINKS: usize = 32;

/// A path as written (normalized lexically) and as it really resolves.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    pub lexical: PathBuf,
    pub real: PathBuf,
}

/// Expands `~`, `~/…`, `$HOME/…` and `${HOME}/…`.
pub(crate) fn expand_home(text: &str, home: Option<&Path>) -> Option<PathBuf> {
    let home = home?;
    if text == "~" || text == "$HOME" || text == "${HOME}" {
        return Some(home.to_path_buf());
    }
    ["~/", "$HOME/", "${HOME}/"]
        .iter()
        .find_map(|p| text.strip_prefix(p))
        .map(|rest| home.join(rest))
}

/// Resolves `text` against `cwd`.
pub(crate) fn resolve(cwd: &Path, text: &str, home: Option<&Path>) -> Resolved {
    let p = expand_home(text, home).unwrap_or_else(|| PathBuf::from(text));
    let joined = if p.is_absolute() { p } else { cwd.join(p) };
    Resolved {
        lexical: normalize(&joined),
        real: physical(&joined),
    }
}

/// Removes `.` and `..` without touching the file system.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Follows symlinks component by component, applying `..` after them.
pub(crate) fn physical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    let mut links = 0;
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(name) => {
                out.push(name);
                if links < MAX_LINKS
                    && let Ok(meta) = std::fs::symlink_metadata(&out)
                    && meta.file_type().is_symlink()
                {
                    links += 1;
                    out = match std::fs::canonicalize(&out) {
                        Ok(real) => real,
                        // A dangling link: a write creates its target.
                        Err(_) => match std::fs::read_link(&out) {
                            Ok(target) => {
                                let parent =
                                    out.parent().map(Path::to_path_buf).unwrap_or_default();
                                normalize(&parent.join(target))
                            }
                            Err(_) => out,
                        },
                    };
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether `path` lies inside one of `roots`.
pub(crate) fn inside(path: &Path, roots: &[PathBuf]) -> bool {
    roots.iter().any(|r| path.starts_with(r))
}

fn file_name(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// Why a file name alone marks a secret, if it does.
pub(crate) fn secret_name(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    if lower.starts_with(".env")
        && !matches!(
            lower.as_str(),
            ".env.example" | ".env.sample" | ".env.template"
        )
    {
        return Some("an environment file");
    }
    let key_prefixes = ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"];
    if key_prefixes.iter().any(|p| lower.starts_with(p)) && !lower.ends_with(".pub") {
        return Some("a private SSH key");
    }
    let exts = [".pem", ".key", ".p12", ".pfx", ".jks", ".keystore"];
    if exts.iter().any(|e| lower.ends_with(e)) {
        return Some("a key or certificate file");
    }
    match lower.as_str() {
        "credentials.json" | ".git-credentials" | ".netrc" | "_netrc" | ".pgpass" | ".pypirc" => {
            Some("a credentials file")
        }
        _ => None,
    }
}

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
    let Ok(glob) = globset::Glob::new(name) else {
        return true;
    };
    let m = glob.compile_matcher();
    SAMPLES.iter().any(|s| m.is_match(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names() {
        for s in [
            ".env",
            ".env.local",
            ".envrc",
            "id_rsa",
            "id_ed25519_work",
            "a.pem",
            "tls.key",
            "credentials.json",
            ".netrc",
        ] {
            assert!(secret_name(s).is_some(), "{s}");
        }
        for s in [
            ".env.example",
            ".env.sample",
            "id_rsa.pub",
            "main.rs",
            "keys.rs",
            "environment.ts",
        ] {
            assert!(secret_name(s).is_none(), "{s}");
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

    #[test]
    fn globs_that_name_secrets() {
        assert!(glob_may_name_secret(".e*"));
        assert!(glob_may_name_secret("*.pem"));
        assert!(glob_may_name_secret("id_*"));
        assert!(!glob_may_name_secret("*"));
        assert!(!glob_may_name_secret("*.rs"));
    }
}
