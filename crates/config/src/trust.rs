//! Project trust: whether a project's own config files may loosen safety.
//!
//! A repository can carry `.wright/config.toml` (and `config.local.toml`,
//! which wright itself writes but a repository can just as well check
//! in). Until the user trusts the project, the settings in those files
//! that would loosen safety are ignored and reported ([`Ignored`]);
//! settings that tighten it always apply. What counts as loosening, given
//! the value already in force from the layers below ([`loosening`]):
//!
//! - `permission_mode` more permissive than the current one, in the order
//!   `plan` < `default` < `accept-edits` < `auto` < `bypass`;
//! - `sandbox.mode` more open than the current one (`read-only` <
//!   `workspace-write` < `full`), and `sandbox.network = true` when it is off;
//! - any `permissions.allow` rule, `permissions.additional_roots`,
//!   `sandbox.writable_roots` or `sandbox.allow_sockets` entry;
//! - a `system_prompt_file` outside the project (it would send a file of
//!   the user's to the model);
//! - `provider` and `base_url` (the project's server would run the session
//!   and receive the user's files), and any `[models."…"]` table (prices
//!   and windows that would defeat `--max-budget-usd`);
//! - any `[[hooks.<Event>]]` group or `[[verify.checks]]` check (they run
//!   the project's commands on the user's machine, outside any approval),
//!   `hooks.import_claude_settings = true` and `verify.enabled = true`
//!   when they are off;
//! - any `[mcp_servers.NAME]` server (it runs a program or reaches a URL
//!   with the user's rights), `mcp.trust_project_servers = true` and
//!   `mcp.trust_read_only_hints = true` when they are off. Held-back
//!   servers stay in [`crate::Resolved::held_mcp_servers`], one
//!   [`Ignored`] each, so the user can still approve one by name.
//!
//! Separately, and trusted or not, a project's `context.instruction_files`
//! may only name files inside the project: an absolute name or one with
//! `..` is dropped with [`IgnoreReason::OutsideProject`].
//!
//! `permissions.ask`, `permissions.deny`, `plan`, `read-only`,
//! `network = false`, `import_claude_settings = false` and
//! `verify.enabled = false` always apply. Trust comes from the user's config
//! (`[projects."/abs/path"] trusted = true`, keyed by the canonical project
//! root) or from `--trust-project` ([`Trust`]); the environment and flags
//! are the user's own and are never screened.
//!
//! Later features that read project files (`.mcp.json`, hooks, agents,
//! commands) ask [`crate::Settings::project_trusted`].

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use crate::assign::Assign;
use crate::hook_settings::HookGroupSetting;
use crate::kinds::{HookEvent, PermissionMode, SandboxMode};
use crate::mcp_settings::McpServerSetting;
use crate::projects::canonical_root;
use crate::settings::Settings;
use crate::toml_text::{key_segment, quote};

/// Why a value from a config file was not applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum IgnoreReason {
    /// It would loosen safety and the project is not trusted.
    UntrustedProject,
    /// Only the user's own config may set it (`projects`,
    /// `shell_environment`).
    UserConfigOnly,
    /// It names a file outside the project (`context.instruction_files`);
    /// never applied, trusted or not.
    OutsideProject,
    /// A per-server setting of Codex's `[mcp_servers.NAME]` that wright
    /// accepts (so a pasted Codex block loads) but has no equivalent for;
    /// from any file. The value is the dotted key.
    CodexSetting,
}

impl IgnoreReason {
    /// The reason as `wright config show` prints it.
    pub fn describe(self) -> &'static str {
        match self {
            IgnoreReason::UntrustedProject => {
                "untrusted project; run `wright trust` or pass --trust-project to apply it"
            }
            IgnoreReason::UserConfigOnly => "only your user config can set it",
            IgnoreReason::OutsideProject => {
                "a project's config may only name instruction files inside the project"
            }
            IgnoreReason::CodexSetting => "a Codex setting wright does not apply",
        }
    }
}

/// One value a project file set that was not applied.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Ignored {
    /// The file that set it.
    pub file: PathBuf,
    /// The key, as in TOML (`permission_mode`, `permissions.allow`, `projects`).
    pub key: &'static str,
    /// The value as shown to the user: `permission_mode = "bypass"`,
    /// `permissions.allow (2 rules)`.
    pub value: String,
    /// Why it was not applied.
    pub reason: IgnoreReason,
}

/// How permissive a mode is; higher is looser.
fn mode_rank(mode: PermissionMode) -> u8 {
    match mode {
        PermissionMode::Plan => 0,
        PermissionMode::Default => 1,
        PermissionMode::AcceptEdits => 2,
        PermissionMode::Auto => 3,
        PermissionMode::Bypass => 4,
    }
}

/// How open a sandbox mode is; higher is looser.
fn sandbox_rank(mode: SandboxMode) -> u8 {
    match mode {
        SandboxMode::ReadOnly => 0,
        SandboxMode::WorkspaceWrite => 1,
        SandboxMode::Full => 2,
    }
}

/// If applying `assign` on top of `current` would loosen safety, the value
/// as shown in the warning; `None` when it is neutral or tightens.
/// `project_root` bounds where a project's `system_prompt_file` may be.
pub(crate) fn loosening(
    assign: &Assign,
    current: &Settings,
    project_root: &Path,
) -> Option<String> {
    match assign {
        Assign::PermissionMode(m) if mode_rank(*m) > mode_rank(current.permission_mode) => {
            Some(format!("permission_mode = {}", quote(m.as_str())))
        }
        Assign::SandboxMode(m) if sandbox_rank(*m) > sandbox_rank(current.sandbox.mode) => {
            Some(format!("sandbox.mode = {}", quote(m.as_str())))
        }
        Assign::SandboxNetwork(true) if !current.sandbox.network => {
            Some("sandbox.network = true".to_owned())
        }
        Assign::Allow(rules) if !rules.is_empty() => Some(format!(
            "permissions.allow ({})",
            count(rules.len(), "rule")
        )),
        Assign::AdditionalRoots(roots) if !roots.is_empty() => Some(format!(
            "permissions.additional_roots = {}",
            path_list(roots)
        )),
        Assign::WritableRoots(roots) if !roots.is_empty() => {
            Some(format!("sandbox.writable_roots = {}", path_list(roots)))
        }
        Assign::AllowSockets(sockets) if !sockets.is_empty() => {
            Some(format!("sandbox.allow_sockets = {}", path_list(sockets)))
        }
        Assign::SystemPromptFile(file) if !is_inside(file, project_root) => Some(format!(
            "system_prompt_file = {} (outside the project)",
            quote(&file.to_string_lossy())
        )),
        Assign::Provider(p) if current.provider != Some(*p) => {
            Some(format!("provider = {}", quote(p.as_str())))
        }
        Assign::BaseUrl(url) if current.base_url.as_deref() != Some(url.as_str()) => {
            Some(format!("base_url = {}", quote(url)))
        }
        Assign::ModelOverride(m) => Some(format!("models.{}", quote(&m.name))),
        Assign::HookGroups(groups) if !groups.is_empty() => Some(describe_groups(groups)),
        Assign::VerifyChecks(checks) if !checks.is_empty() => {
            let commands: Vec<String> = checks.iter().map(|c| quote(&c.command)).collect();
            Some(format!(
                "verify.checks ({}: {})",
                count(checks.len(), "check"),
                commands.join(" · ")
            ))
        }
        Assign::ImportClaudeSettings(true) if !current.hooks.import_claude_settings => {
            Some("hooks.import_claude_settings = true".to_owned())
        }
        Assign::VerifyEnabled(true) if !current.verify.enabled => {
            Some("verify.enabled = true".to_owned())
        }
        Assign::McpTrustProjectServers(true) if !current.mcp.trust_project_servers => {
            Some("mcp.trust_project_servers = true".to_owned())
        }
        Assign::McpTrustReadOnlyHints(true) if !current.mcp.trust_read_only_hints => {
            Some("mcp.trust_read_only_hints = true".to_owned())
        }
        Assign::McpServers(servers) if !servers.is_empty() => Some(
            servers
                .iter()
                .map(describe_server)
                .collect::<Vec<_>>()
                .join(", "),
        ),
        _ => None,
    }
}

/// `mcp_servers.NAME`, the start of every [`describe_server`] line.
pub(crate) fn describe_server_name(name: &str) -> String {
    format!("mcp_servers.{}", key_segment(name))
}

/// `mcp_servers.github (stdio: "npx -y server")`: trusting the project
/// runs it, so the user sees what it runs.
pub(crate) fn describe_server(server: &McpServerSetting) -> String {
    format!(
        "{} ({}: {})",
        describe_server_name(&server.name),
        server.transport.transport(),
        quote(&server.transport.describe())
    )
}

/// `hooks.PreToolUse (2 groups: "./check.sh", "make lint")`, one item per
/// event present: trusting the project runs these commands, so the user
/// sees them, not just how many there are.
fn describe_groups(groups: &[HookGroupSetting]) -> String {
    HookEvent::ALL
        .iter()
        .filter_map(|event| {
            let of_event: Vec<&HookGroupSetting> =
                groups.iter().filter(|g| g.event == *event).collect();
            (!of_event.is_empty()).then(|| {
                let commands: Vec<String> = of_event
                    .iter()
                    .flat_map(|g| g.hooks.iter())
                    .map(|h| quote(&h.command))
                    .collect();
                format!(
                    "hooks.{event} ({}: {})",
                    count(of_event.len(), "group"),
                    commands.join(" · ")
                )
            })
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `1 group`, `2 groups`.
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn path_list(paths: &[PathBuf]) -> String {
    let items: Vec<String> = paths.iter().map(|p| quote(&p.to_string_lossy())).collect();
    format!("[{}]", items.join(", "))
}

/// Whether `path` stays under `root`: by its real location when it
/// exists (symlinks followed), else lexically, with any `..` counting as
/// an escape.
fn is_inside(path: &Path, root: &Path) -> bool {
    let canonical = canonical_root(root);
    if let Ok(real) = path.canonicalize() {
        return real.starts_with(&canonical);
    }
    !path.components().any(|c| matches!(c, Component::ParentDir))
        && (path.starts_with(root) || path.starts_with(&canonical))
}

/// `file: a, b; file2: c` for the ignored values of one reason, in the
/// order they were found, grouped by file.
pub fn describe_ignored(ignored: &[Ignored], reason: IgnoreReason) -> String {
    let mut out = String::new();
    let mut current: Option<&Path> = None;
    for item in ignored.iter().filter(|i| i.reason == reason) {
        if current == Some(item.file.as_path()) {
            out.push_str(", ");
        } else {
            if current.is_some() {
                out.push_str("; ");
            }
            // Writing to a String cannot fail.
            let _ = write!(out, "{}: ", item.file.display());
            current = Some(item.file.as_path());
        }
        out.push_str(&item.value);
    }
    out
}

/// Splits a project file's `context.instruction_files` into the names
/// that stay inside the project and the ones that do not (absolute, or
/// with a `..` component), for [`IgnoreReason::OutsideProject`].
pub(crate) fn split_instruction_files(names: Vec<String>) -> (Vec<String>, Vec<String>) {
    names.into_iter().partition(|name| {
        let p = Path::new(name);
        !p.has_root()
            && p.components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    })
}

/// The warnings for `ignored`, one line per reason present, then one per
/// Codex setting not applied.
pub(crate) fn warnings(ignored: &[Ignored]) -> Vec<String> {
    let mut out = Vec::new();
    if ignored
        .iter()
        .any(|i| i.reason == IgnoreReason::OutsideProject)
    {
        out.push(format!(
            "warning: ignoring instruction files outside the project named by {}: a project's config may only name files inside the project",
            describe_ignored(ignored, IgnoreReason::OutsideProject)
        ));
    }
    if ignored
        .iter()
        .any(|i| i.reason == IgnoreReason::UntrustedProject)
    {
        out.push(format!(
            "warning: ignoring settings from untrusted project {}; run `wright trust` or pass --trust-project to apply them",
            describe_ignored(ignored, IgnoreReason::UntrustedProject)
        ));
    }
    // One line per user-only table, each saying what only the user decides.
    for (key, what) in [
        ("projects", "mark projects as trusted"),
        (
            crate::shell_env::TABLE,
            "change which environment variables commands get",
        ),
    ] {
        let of_key: Vec<Ignored> = ignored
            .iter()
            .filter(|i| i.reason == IgnoreReason::UserConfigOnly && i.key == key)
            .cloned()
            .collect();
        if !of_key.is_empty() {
            out.push(format!(
                "warning: ignoring {}: only your user config can {what}",
                describe_ignored(&of_key, IgnoreReason::UserConfigOnly)
            ));
        }
    }
    for item in ignored
        .iter()
        .filter(|i| i.reason == IgnoreReason::CodexSetting)
    {
        out.push(format!(
            "warning: {}: {}",
            item.file.display(),
            crate::doc_mcp::codex_warning(&item.value)
        ));
    }
    out
}

#[cfg(test)]
#[path = "trust_tests.rs"]
mod tests;
