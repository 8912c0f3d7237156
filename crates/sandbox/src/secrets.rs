//! Which files hold secrets, and which of them a confined command must not
//! see. The sandbox hides them (an empty file or directory mounted over
//! each), so no indirection (`cd`, variables, globs, `git show`, a script
//! the model wrote) can read them; the permission layer uses the same names
//! to decide when to ask.

use std::path::{Path, PathBuf};

/// Why a file name alone marks a secret, if it does.
pub fn secret_name(name: &str) -> Option<&'static str> {
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

/// Credential files and key directories under `home`, relative to it.
/// Directories are hidden whole; `~/.ssh` keeps `known_hosts` and `config`
/// (its private keys are matched by name), so `ssh` through an agent works.
pub const HOME_SECRETS: &[&str] = &[
    ".gnupg",
    ".aws/credentials",
    ".aws/sso/cache",
    ".docker/config.json",
    ".kube/config",
    ".config/gh/hosts.yml",
    ".config/gcloud",
    ".azure",
    ".netrc",
    ".git-credentials",
    ".pgpass",
    ".pypirc",
    ".cargo/credentials.toml",
    ".cargo/credentials",
];

/// Directories never searched for secrets: large, generated, or not ours
/// (a `.env` inside `node_modules` belongs to a package, not the user).
const SKIP_DIRS: &[&str] = &[
    ".git",
    "node_modules",
    "target",
    "vendor",
    "dist",
    "build",
    ".venv",
    "venv",
    "__pycache__",
    ".cache",
];

/// How many entries the search of the workspaces reads: secrets sit near
/// the top of a project, and a command must not wait on a huge tree. The
/// search is breadth-first, so a flood of files deep down (or in one
/// directory) cannot push a secret near the root out of the budget.
const MAX_ENTRIES: usize = 20_000;

/// Every existing secret path a command should not see: the home secrets
/// plus private keys in `~/.ssh`, and secret-named files in `roots`
/// (searched breadth-first within a budget), including symlinks whose name
/// or target's name marks a secret.
pub fn paths_to_hide(home: Option<&Path>, roots: &[PathBuf]) -> Vec<PathBuf> {
    paths_to_hide_within(home, roots, MAX_ENTRIES)
}

/// How many entries wright's once-per-session search reads: enough for any
/// real project, so files a command adds later (a flood made to exhaust the
/// per-command budget) cannot un-hide a secret that was there at the start.
pub const SESSION_SCAN_ENTRIES: usize = 1_000_000;

/// The secret files found once for a session (on first use, off the async
/// runtime), passed to every command's sandbox on top of the helper's own
/// bounded search, which catches files that appear later.
#[derive(Debug, Default)]
pub struct KnownSecrets {
    found: std::sync::OnceLock<Vec<PathBuf>>,
}

impl KnownSecrets {
    /// The secrets in `roots` and `home`, searched the first time only.
    pub fn get_or_scan(&self, home: Option<&Path>, roots: &[PathBuf]) -> &[PathBuf] {
        self.found
            .get_or_init(|| paths_to_hide_within(home, roots, SESSION_SCAN_ENTRIES))
    }
}

/// [`paths_to_hide`] reading at most `budget` workspace entries.
pub fn paths_to_hide_within(home: Option<&Path>, roots: &[PathBuf], budget: usize) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(home) = home {
        out.extend(
            HOME_SECRETS
                .iter()
                .map(|rel| home.join(rel))
                .filter(|p| p.symlink_metadata().is_ok()),
        );
        scan(std::slice::from_ref(&home.join(".ssh")), 256, &mut out);
    }
    scan(roots, budget, &mut out);
    out.sort();
    out.dedup();
    out
}

fn scan(roots: &[PathBuf], mut budget: usize, out: &mut Vec<PathBuf>) {
    let mut queue: std::collections::VecDeque<PathBuf> = roots.iter().cloned().collect();
    while let Some(dir) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if budget == 0 {
                return;
            }
            budget -= 1;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if !SKIP_DIRS.contains(&name.as_ref()) {
                    queue.push_back(entry.path());
                }
            } else if (kind.is_file() && secret_name(&name).is_some())
                || (kind.is_symlink() && links_to_secret(&entry.path(), &name))
            {
                out.push(entry.path());
            }
        }
    }
}

/// Whether a symlink leads (followed to the end) to a regular file that is
/// a secret by its own name or by the link's. Links to directories are
/// never hidden: a link named `x.key` must not hide `/usr/bin`.
fn links_to_secret(link: &Path, link_name: &str) -> bool {
    std::fs::canonicalize(link).is_ok_and(|t| {
        t.is_file()
            && (secret_name(link_name).is_some()
                || t.file_name()
                    .is_some_and(|n| secret_name(&n.to_string_lossy()).is_some()))
    })
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
    fn finds_secrets_in_home_and_workspace_but_not_in_skipped_dirs() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let ws = dir.path().join("ws");
        for d in [
            home.join(".ssh"),
            home.join(".aws"),
            ws.join("app/config"),
            ws.join("node_modules/x"),
        ] {
            std::fs::create_dir_all(d).unwrap();
        }
        for f in [
            home.join(".ssh/id_ed25519"),
            home.join(".ssh/id_ed25519.pub"),
            home.join(".ssh/known_hosts"),
            home.join(".aws/credentials"),
            ws.join(".env"),
            ws.join("app/config/server.key"),
            ws.join("node_modules/x/.env"),
            ws.join("main.rs"),
        ] {
            std::fs::write(f, "x").unwrap();
        }
        let found = paths_to_hide(Some(&home), std::slice::from_ref(&ws));
        let want = [
            home.join(".aws/credentials"),
            home.join(".ssh/id_ed25519"),
            ws.join(".env"),
            ws.join("app/config/server.key"),
        ];
        for w in &want {
            assert!(found.contains(w), "{w:?} not in {found:?}");
        }
        assert_eq!(found.len(), want.len(), "{found:?}");
    }
}
