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
        "credentials.json"
        | ".credentials.json"
        | "credentials.tfrc.json"
        | ".git-credentials"
        | ".netrc"
        | "_netrc"
        | ".pgpass"
        | ".pypirc"
        | ".vault-token" => Some("a credentials file"),
        _ => None,
    }
}

/// Credential files and key directories under `home`, relative to it.
/// Directories are hidden whole; `~/.ssh` keeps only [`SSH_VISIBLE`], so
/// `ssh` through an agent works. The file tools' secret check
/// (`wright_permissions`) has its own path list besides the shared
/// [`secret_name`]: keep the two in step.
pub const HOME_SECRETS: &[&str] = &[
    ".gnupg",
    ".npmrc",
    ".codex/auth.json",
    ".claude/.credentials.json",
    ".claude.json",
    ".vault-token",
    ".terraform.d/credentials.tfrc.json",
    ".gem/credentials",
    ".config/hub",
    ".config/glab-cli/config.yml",
    ".config/op",
    ".password-store",
    ".local/share/keyrings",
    ".m2/settings-security.xml",
    ".composer/auth.json",
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

/// Credential files under `$XDG_CONFIG_HOME` (when it is not
/// `~/.config`, which [`HOME_SECRETS`] covers), relative to it.
const XDG_CONFIG_SECRETS: &[&str] = &["gh/hosts.yml", "gcloud", "hub", "glab-cli/config.yml", "op"];

/// What stays visible in `~/.ssh`: what `ssh` reads to connect through an
/// agent. Everything else there (private keys by any name, control
/// sockets of open connections, agent sockets) is hidden.
pub const SSH_VISIBLE: &[&str] = &[
    "known_hosts",
    "known_hosts.old",
    "config",
    "authorized_keys",
];

/// Directories never searched for secrets: large, generated, or not ours
/// (a `.env` inside `node_modules` belongs to a package, not the user).
/// Except `.git` and `node_modules`, their top two levels are still
/// searched for secret names (a `dist/.env`, a `build/config/.env`).
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
        out.extend(ssh_hidden(&home.join(".ssh")));
        if let Some(config) = std::env::var_os("XDG_CONFIG_HOME").map(PathBuf::from)
            && config.is_absolute()
        {
            out.extend(
                XDG_CONFIG_SECRETS
                    .iter()
                    .map(|rel| config.join(rel))
                    .filter(|p| p.symlink_metadata().is_ok()),
            );
        }
        let data = std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|d| d.is_absolute())
            .unwrap_or_else(|| home.join(".local/share"));
        // Subagents' worktrees stay: they are project trees (searched for
        // secrets like any root when one is a workspace), and wright's own
        // sandboxed git reads them with another root as its workspace.
        let wright = data.join("wright");
        let mut keep = roots.to_vec();
        keep.push(wright.join("worktrees"));
        out.extend(hide_except(&wright, &keep));
    }
    scan(roots, budget, &mut out);
    out.sort();
    out.dedup();
    out
}

/// What of `~/.ssh` is hidden: every entry but [`SSH_VISIBLE`] and
/// public keys (`*.pub`).
fn ssh_hidden(ssh: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(ssh) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            !SSH_VISIBLE.contains(&name.as_ref()) && !name.ends_with(".pub")
        })
        .map(|e| e.path())
        .collect()
}

/// `dir` to hide whole, or, where workspace roots lie inside it (a
/// subagent's worktree in wright's data dir), each entry beside the way
/// down to them: wright's data dir holds MCP OAuth tokens and every
/// project's session transcripts.
fn hide_except(dir: &Path, keep: &[PathBuf]) -> Vec<PathBuf> {
    if dir.symlink_metadata().is_err() {
        return Vec::new();
    }
    let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let holds = |d: &Path| {
        keep.iter()
            .any(|k| k.starts_with(d) || k.canonicalize().is_ok_and(|c| c.starts_with(d)))
    };
    if !holds(dir) && !holds(&canonical) {
        return vec![dir.to_path_buf()];
    }
    if keep.iter().any(|k| k == dir || k == &canonical) {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .flat_map(|e| hide_except(&e.path(), keep))
        .collect()
}

fn scan(roots: &[PathBuf], mut budget: usize, out: &mut Vec<PathBuf>) {
    let mut queue: std::collections::VecDeque<PathBuf> = roots.iter().cloned().collect();
    // Skipped directories, searched to two levels after the rest.
    let mut shallow: Vec<(PathBuf, usize)> = Vec::new();
    while let Some(dir) = queue.pop_front() {
        let walked = visit(&dir, &mut budget, |path, name, kind| {
            if kind.is_dir() {
                if !SKIP_DIRS.contains(&name) {
                    queue.push_back(path);
                } else if !matches!(name, ".git" | "node_modules") {
                    shallow.push((path, 0));
                }
            } else if is_secret(&path, name, kind) {
                out.push(path);
            }
        });
        if walked.is_none() {
            return;
        }
    }
    // The skipped directories' top levels, on a budget of their own so a
    // large `target/` cannot take the workspace's.
    let mut budget = SHALLOW_ENTRIES;
    while let Some((dir, level)) = shallow.pop() {
        let walked = visit(&dir, &mut budget, |path, name, kind| {
            if kind.is_dir() && level == 0 && !SKIP_DIRS.contains(&name) {
                shallow.push((path, 1));
            } else if is_secret(&path, name, kind) {
                out.push(path);
            }
        });
        if walked.is_none() {
            return;
        }
    }
}

/// Calls `each` with every entry of `dir` (its path, name and type), one
/// unit of `budget` an entry; `None` once the budget is spent. An entry
/// whose type cannot be read is counted and skipped.
fn visit(
    dir: &Path,
    budget: &mut usize,
    mut each: impl FnMut(PathBuf, &str, std::fs::FileType),
) -> Option<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Some(());
    };
    for entry in entries.flatten() {
        *budget = budget.checked_sub(1)?;
        let name = entry.file_name();
        if let Ok(kind) = entry.file_type() {
            each(entry.path(), &name.to_string_lossy(), kind);
        }
    }
    Some(())
}

/// Whether an entry is a secret file: by its name, or a link to one.
fn is_secret(path: &Path, name: &str, kind: std::fs::FileType) -> bool {
    (kind.is_file() && secret_name(name).is_some())
        || (kind.is_symlink() && links_to_secret(path, name))
}

/// How many entries the shallow search of skipped directories reads.
const SHALLOW_ENTRIES: usize = 5_000;

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
