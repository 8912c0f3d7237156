//! The user's `[projects."<root>"]` tables as the loader reads them
//! ([`ProjectEntry`]), and what they decide: whether the project is trusted
//! ([`Trust`], and who said so) and which of its MCP servers the user
//! approved. The settings carry the verdict; `trust.rs` applies it.

use std::path::{Path, PathBuf};

/// Whether the project's own config may loosen safety.
///
/// Untrusted, the project's files cannot set a looser `permission_mode`
/// (`plan` < `default` < `accept-edits` < `auto` < `bypass`) or
/// `sandbox.mode`, `sandbox.network = true`, `permissions.allow`,
/// `permissions.additional_roots`, `sandbox.writable_roots`, a
/// `system_prompt_file` outside the project, `provider`, `base_url`,
/// `[models]` tables, hook groups, verify checks,
/// `hooks.import_claude_settings = true`, `verify.enabled = true`, MCP
/// servers, `mcp.trust_project_servers = true` or
/// `mcp.trust_read_only_hints = true`; everything else applies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Trust {
    /// Loosening settings from the project apply.
    Trusted(TrustSource),
    /// Loosening settings from the project are ignored.
    #[default]
    Untrusted,
}

/// Who said the project is trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrustSource {
    /// `[projects."<root>"] trusted = true` in this user config file.
    UserConfig(PathBuf),
    /// `--trust-project` on the command line.
    Flag,
}

impl Trust {
    /// True when the project's config may loosen safety.
    pub fn is_trusted(&self) -> bool {
        matches!(self, Trust::Trusted(_))
    }

    /// A short phrase for `wright doctor` and `wright trust`.
    pub fn describe(&self) -> String {
        match self {
            Trust::Trusted(TrustSource::UserConfig(file)) => {
                format!("trusted (in {})", file.display())
            }
            Trust::Trusted(TrustSource::Flag) => "trusted (--trust-project)".to_owned(),
            Trust::Untrusted => "not trusted".to_owned(),
        }
    }
}

/// The key a project is trusted under: its root with symlinks resolved
/// (as given when it cannot be resolved).
pub fn canonical_root(root: &Path) -> PathBuf {
    root.canonicalize().unwrap_or_else(|_| root.to_path_buf())
}

/// The MCP approvals the user file's `[projects]` entries hold for
/// `root` (canonical); a later entry's approval of a name wins.
pub(crate) fn approvals_from_entries(
    entries: &[ProjectEntry],
    root: &Path,
) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    for e in entries.iter().filter(|e| canonical_root(&e.path) == root) {
        out.extend(e.mcp_approvals.clone());
    }
    out
}

/// Trust as the user file's `[projects]` entries say for `root`
/// (canonical); the last matching entry wins.
pub(crate) fn trust_from_entries(entries: &[ProjectEntry], root: &Path, user_file: &Path) -> Trust {
    let verdict = entries
        .iter()
        .rev()
        .find(|e| canonical_root(&e.path) == root)
        .map(|e| e.trusted);
    match verdict {
        Some(true) => Trust::Trusted(TrustSource::UserConfig(user_file.to_path_buf())),
        Some(false) | None => Trust::Untrusted,
    }
}

/// One `[projects."<path>"]` table of a config file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProjectEntry {
    /// The project root as written (absolute, `~` expanded).
    pub(crate) path: PathBuf,
    /// Its `trusted` value; a table without it counts as not trusted.
    pub(crate) trusted: bool,
    /// `approved_mcp_servers`: server name → fingerprint of the
    /// definition the user approved.
    pub(crate) mcp_approvals: std::collections::BTreeMap<String, String>,
}
