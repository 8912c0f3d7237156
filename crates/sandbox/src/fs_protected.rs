//! Files the file tools refuse to write in every mode, even `bypass`:
//! files whose content decides what wright, git or another agent runs or
//! allows next time. Changing them is how a prompt-injected agent would
//! raise its own permissions, so the refusal does not depend on rules or
//! modes being configured right.
//!
//! The list (names compared ASCII case-insensitively, since macOS file
//! systems usually are):
//! - `.wright/config.toml`, `.wright/config.local.toml` (any project),
//!   `.wright/hooks*`, `.wright/agents/**`, `.wright/commands/**`
//! - everything in the user's wright config directory
//!   (`$XDG_CONFIG_HOME/wright/`)
//! - `.mcp.json` (starts programs), `.claude/settings*.json`
//! - `.git/**/hooks/**`, and `config` / `config.worktree` anywhere under
//!   `.git` (covers submodules and worktrees: `core.fsmonitor`,
//!   `core.hooksPath` and filters run programs), and everything else inside
//!   `.git` (`commondir`/`gitdir` redirect git to a planted config)
//! - `.git` itself, anywhere (a file there says where git's directory is;
//!   a directory there is a nested repository with its own config)
//!
//! Not on it: `.gitattributes` (it only picks drivers that `config`
//! defines), `.wright/rules`, `.wright/skills`
//! (instructions, not permissions).

use std::path::{Path, PathBuf};

/// Why writing `path` is refused in every mode, if it is. Call it with both
/// the resolved path and the path as written.
pub fn protected_write(path: &Path, user_config_dirs: &[PathBuf]) -> Option<&'static str> {
    if user_config_dirs.iter().any(|d| path.starts_with(d)) {
        return Some("wright's user settings");
    }
    let names: Vec<String> = path
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(n) => Some(n.to_string_lossy().to_ascii_lowercase()),
            _ => None,
        })
        .collect();
    let last = names.last().map(String::as_str).unwrap_or("");
    let after = |dir: &str| -> &[String] {
        match names.iter().position(|n| n == dir) {
            Some(i) => &names[i + 1..],
            None => &[],
        }
    };
    let wright = after(".wright");
    if let Some(first) = wright.first() {
        if wright.len() == 1 && (first == "config.toml" || first == "config.local.toml") {
            return Some("wright's permission settings");
        }
        if first.starts_with("hooks") {
            return Some("wright's hooks");
        }
        if first == "agents" || first == "commands" {
            return Some("wright's agent and command definitions");
        }
    }
    if last == ".mcp.json" {
        return Some("MCP server configuration, which starts programs");
    }
    let claude = after(".claude");
    if claude.len() == 1 && claude[0].starts_with("settings") && claude[0].ends_with(".json") {
        return Some("Claude Code settings, which hold hooks and permissions");
    }
    // Where Claude Code's documentation puts the scripts its hooks run:
    // changing one changes what a trusted hook does, outside the sandbox.
    if claude.first().is_some_and(|d| d == "hooks") {
        return Some("Claude Code hook scripts, which run outside the sandbox");
    }
    if last == ".git" {
        return Some("a repository's git link or directory, which decides whose config git runs");
    }
    let git = after(".git");
    if git.iter().any(|n| n == "hooks") {
        return Some("git hooks, which run on the next git command");
    }
    if !git.is_empty() && (last == "config" || last == "config.worktree") {
        return Some("git configuration, which can run programs");
    }
    // The rest of git's own directory too: `commondir` or `gitdir` would
    // point git at a planted config, and nothing there is the model's to
    // edit by hand (git commands change it).
    if !git.is_empty() {
        return Some("git's internal files (use git commands instead)");
    }
    None
}

/// Every place the user's wright config directory may be:
/// `$XDG_CONFIG_HOME/wright`, `~/.config/wright`, and on macOS
/// `~/Library/Application Support/wright`. All are protected, so it does
/// not matter which one the config loader picked.
pub fn user_config_dirs(xdg_config_home: Option<&Path>, home: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(x) = xdg_config_home.filter(|x| x.is_absolute()) {
        dirs.push(x.join("wright"));
    }
    if let Some(h) = home {
        dirs.push(h.join(".config/wright"));
        if cfg!(target_os = "macos") {
            dirs.push(h.join("Library/Application Support/wright"));
        }
    }
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list() {
        let user = [PathBuf::from("/h/.config/wright")];
        for p in [
            "/w/.wright/config.toml",
            "/w/.wright/config.local.toml",
            "/w/sub/.WRIGHT/Config.Local.Toml",
            "/w/.wright/hooks.toml",
            "/w/.wright/agents/x.md",
            "/w/.wright/commands/a/b.md",
            "/h/.config/wright/config.toml",
            "/h/.config/wright/other",
            "/w/.mcp.json",
            "/w/.claude/settings.json",
            "/w/.claude/settings.local.json",
            "/w/.claude/hooks/validate.py",
            "/w/.git/hooks/pre-commit",
            "/w/.git/modules/m/hooks/post-checkout",
            "/w/.git/config",
            "/w/.git/worktrees/x/config.worktree",
            "/w/.git/commondir",
            "/w/.git/gitdir",
            "/w/.git/info/attributes",
            "/w/.git",
            "/w/sub/.Git",
            "/w/.git/modules/x/config",
            "/w/.git/worktrees/x/gitdir",
        ] {
            assert!(protected_write(Path::new(p), &user).is_some(), "{p}");
        }
        for p in [
            "/w/src/config.toml",
            "/w/.wright/rules/a.md",
            "/w/.wright/skills/s/SKILL.md",
            "/w/.gitattributes",
            "/w/config",
            "/w/.claude/agents/x.md",
            "/w/hooks/pre-commit",
            "/w/.github/x",
            "/w/x.git",
        ] {
            assert!(protected_write(Path::new(p), &user).is_none(), "{p}");
        }
    }

    #[test]
    fn user_dir() {
        let d = user_config_dirs(Some(Path::new("/x")), Some(Path::new("/h")));
        assert_eq!(
            d[..2],
            [PathBuf::from("/x/wright"), "/h/.config/wright".into()]
        );
        let d = user_config_dirs(Some(Path::new("rel")), Some(Path::new("/h")));
        assert_eq!(d[0], PathBuf::from("/h/.config/wright"));
    }
}
