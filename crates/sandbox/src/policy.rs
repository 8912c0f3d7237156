//! What a sandboxed command may do: the mode (one definition, in
//! `wright_protocol`, shared with the config), the writable roots and the
//! network switch, plus the exact set of paths the helper makes writable.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::SandboxError;

pub use wright_protocol::SandboxMode;

/// Device files every mode may write, since ordinary tools need them
/// (`2>/dev/null`, progress on a terminal). Missing ones are skipped.
pub const DEVICE_PATHS: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
];

/// What a sandboxed command may do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SandboxPolicy {
    /// How much it may change.
    pub mode: SandboxMode,
    /// Where it may write in [`SandboxMode::WorkspaceWrite`]: the workspace and
    /// configured extra roots. The temp dir is added by the helper.
    #[serde(default)]
    pub writable_roots: Vec<PathBuf>,
    /// Whether it may open IP sockets.
    #[serde(default)]
    pub network: bool,
    /// The project and its additional roots, a subset of the writable roots
    /// (which add caches and extra dirs): where policy files are protected
    /// and secrets searched. Empty means the writable roots.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub workspace_roots: Vec<PathBuf>,
    /// Secret files found by wright's once-per-session search, hidden on top
    /// of what the helper's own bounded search finds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden: Vec<PathBuf>,
    /// Unix sockets outside the workspace that stay reachable with the
    /// network off (a user's rootless Podman socket, say). Every other
    /// socket of the host is hidden then.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow_sockets: Vec<PathBuf>,
}

impl SandboxPolicy {
    /// No sandbox at all.
    pub fn full() -> Self {
        Self {
            mode: SandboxMode::Full,
            writable_roots: Vec::new(),
            network: true,
            workspace_roots: Vec::new(),
            hidden: Vec::new(),
            allow_sockets: Vec::new(),
        }
    }

    /// Reads everywhere, writes nowhere, no network.
    pub fn read_only() -> Self {
        Self {
            mode: SandboxMode::ReadOnly,
            writable_roots: Vec::new(),
            network: false,
            workspace_roots: Vec::new(),
            hidden: Vec::new(),
            allow_sockets: Vec::new(),
        }
    }

    /// Writes in `roots` (and the temp dir), no network.
    pub fn workspace_write(roots: Vec<PathBuf>) -> Self {
        Self {
            mode: SandboxMode::WorkspaceWrite,
            writable_roots: roots,
            network: false,
            workspace_roots: Vec::new(),
            hidden: Vec::new(),
            allow_sockets: Vec::new(),
        }
    }

    /// Encodes the policy as the helper's single JSON argument.
    pub fn to_json(&self) -> Result<String, SandboxError> {
        serde_json::to_string(self).map_err(|e| SandboxError::Policy(e.to_string()))
    }

    /// Decodes the helper's JSON argument.
    pub fn from_json(s: &str) -> Result<Self, SandboxError> {
        serde_json::from_str(s).map_err(|e| SandboxError::Policy(e.to_string()))
    }

    /// The project roots: [`Self::workspace_roots`], or the writable roots
    /// when none were named.
    pub fn project_roots(&self) -> &[PathBuf] {
        if self.workspace_roots.is_empty() {
            &self.writable_roots
        } else {
            &self.workspace_roots
        }
    }

    /// Every directory the command may write beneath (device files not
    /// included): nothing in read-only mode; the roots, the temp dir, `/tmp`
    /// and `/dev/shm` in workspace-write mode.
    pub fn effective_writable_roots(&self) -> Vec<PathBuf> {
        match self.mode {
            SandboxMode::ReadOnly | SandboxMode::Full => Vec::new(),
            SandboxMode::WorkspaceWrite => {
                let mut roots = self.writable_roots.clone();
                for extra in [
                    std::env::temp_dir(),
                    PathBuf::from("/tmp"),
                    PathBuf::from("/dev/shm"),
                ] {
                    if !roots.contains(&extra) {
                        roots.push(extra);
                    }
                }
                roots
            }
        }
    }

    /// Whether a write to `path` (absolute) is allowed by this policy.
    pub fn allows_write(&self, path: &Path) -> bool {
        if self.mode == SandboxMode::Full {
            return true;
        }
        if DEVICE_PATHS.iter().any(|d| path.starts_with(d)) {
            return true;
        }
        self.effective_writable_roots()
            .iter()
            .any(|root| path.starts_with(root) || canonical_starts_with(path, root))
    }
}

/// The package managers' caches commands may write, of those that exist:
/// cargo's locks and global cache, and the content-addressed stores of npm
/// (`_cacache`, plus its logs), pip (`http`, `wheels`) and uv (`wheels-*`,
/// `sdists-*`, `simple-*`), where every entry is checked against its hash
/// when used. What runs later outside any sandbox stays read-only: cargo's
/// registry sources (`build.rs`), npx's installed packages (`_npx`, an
/// MCP server started at every launch), uv's tool environments and its
/// `archive-v0` (hard-linked into them), pre-commit's hook repositories,
/// and the rest of `~/.cache`.
pub fn writable_caches(home: &Path, cargo_home: &Path, cache_home: &Path) -> Vec<PathBuf> {
    let mut out = vec![
        cargo_home.join(".package-cache"),
        cargo_home.join(".package-cache-mutate"),
        cargo_home.join(".global-cache"),
        home.join(".npm/_cacache"),
        home.join(".npm/_logs"),
        cache_home.join("pip/http"),
        cache_home.join("pip/http-v2"),
        cache_home.join("pip/wheels"),
    ];
    if let Ok(entries) = std::fs::read_dir(cache_home.join("uv")) {
        out.extend(
            entries
                .flatten()
                .filter(|e| {
                    let name = e.file_name();
                    let name = name.to_string_lossy();
                    ["wheels-v", "sdists-v", "simple-v"]
                        .iter()
                        .any(|p| name.starts_with(p))
                        && e.file_type().is_ok_and(|t| t.is_dir())
                })
                .map(|e| e.path()),
        );
    }
    out.retain(|p| p.exists());
    out.sort();
    out
}

/// Compares with symlinks resolved (e.g. `/tmp` → `/private/tmp`), best effort.
fn canonical_starts_with(path: &Path, root: &Path) -> bool {
    let Ok(root) = root.canonicalize() else {
        return false;
    };
    // The path itself may not exist (it was not created); resolve its parent.
    let resolved = path.canonicalize().or_else(|_| {
        let parent = path.parent().unwrap_or(path).canonicalize()?;
        Ok::<_, std::io::Error>(parent.join(path.file_name().unwrap_or_default()))
    });
    resolved.is_ok_and(|p| p.starts_with(&root))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trips() {
        let p = SandboxPolicy {
            mode: SandboxMode::WorkspaceWrite,
            writable_roots: vec!["/ws".into(), "/a b/\"q\"".into()],
            network: true,
            workspace_roots: vec!["/ws".into()],
            hidden: vec!["/ws/.env".into()],
            allow_sockets: vec!["/run/user/1000/podman/podman.sock".into()],
        };
        assert_eq!(SandboxPolicy::from_json(&p.to_json().unwrap()).unwrap(), p);
        assert!(SandboxPolicy::from_json("{").is_err());
        let minimal = SandboxPolicy::from_json(r#"{"mode":"read-only"}"#).unwrap();
        assert_eq!(minimal, SandboxPolicy::read_only());
    }

    #[test]
    fn only_content_addressed_caches_are_writable() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        let cache = home.join(".cache");
        for d in [
            ".npm/_cacache",
            ".npm/_npx",
            ".cache/uv/wheels-v5",
            ".cache/uv/archive-v0",
            ".cache/uv/sdists-v9",
            ".cache/pip/http-v2",
            ".cache/pre-commit",
            ".cargo/registry",
        ] {
            std::fs::create_dir_all(home.join(d)).unwrap();
        }
        let got = writable_caches(home, &home.join(".cargo"), &cache);
        let want: Vec<PathBuf> = [
            ".cache/pip/http-v2",
            ".cache/uv/sdists-v9",
            ".cache/uv/wheels-v5",
            ".npm/_cacache",
        ]
        .iter()
        .map(|d| home.join(d))
        .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn writable_roots_by_mode() {
        let ws = SandboxPolicy::workspace_write(vec!["/ws".into()]);
        let roots = ws.effective_writable_roots();
        assert!(roots.contains(&PathBuf::from("/ws")));
        assert!(roots.contains(&std::env::temp_dir()));
        assert!(ws.allows_write(Path::new("/ws/src/a.rs")));
        assert!(ws.allows_write(Path::new("/dev/null")));
        assert!(!ws.allows_write(Path::new("/etc/passwd")));

        let mut ro = SandboxPolicy::read_only();
        ro.writable_roots = vec!["/ws".into()];
        assert!(ro.effective_writable_roots().is_empty());
        assert!(!ro.allows_write(Path::new("/ws/a")));
        assert!(SandboxPolicy::full().allows_write(Path::new("/etc/passwd")));
    }
}
