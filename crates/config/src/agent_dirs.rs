//! Which directories hold agent definitions ([`agent_dirs`]), from the
//! `[agents]` switches and the project's and user's config directories.

use std::path::{Path, PathBuf};

use crate::agent_settings::AGENTS_DIR;
use crate::loader::PROJECT_DIR;
use crate::settings::Settings;

/// The directories agent definitions are read from, lowest precedence
/// first (a later definition of a name replaces an earlier one): the
/// user's `<user_config_dir>/agents` (only with `agents.user_agents` and a
/// user config dir), `<project>/.claude/agents` (only with
/// `agents.import_claude_agents`), then `<project>/.wright/agents`. The
/// project's own wright definitions come last so they win.
pub fn agent_dirs(
    settings: &Settings,
    project_root: &Path,
    user_config_dir: Option<&Path>,
) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if settings.agents.user_agents
        && let Some(user) = user_config_dir
    {
        dirs.push(user.join(AGENTS_DIR));
    }
    if settings.agents.import_claude_agents {
        dirs.push(project_root.join(".claude").join(AGENTS_DIR));
    }
    dirs.push(project_root.join(PROJECT_DIR).join(AGENTS_DIR));
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dirs_follow_the_switches_in_precedence_order() {
        let mut s = Settings::default();
        let root = Path::new("/p");
        let user = Some(Path::new("/u/wright"));
        assert_eq!(
            agent_dirs(&s, root, user),
            [PathBuf::from("/p/.wright/agents")]
        );
        s.agents.user_agents = true;
        s.agents.import_claude_agents = true;
        assert_eq!(
            agent_dirs(&s, root, user),
            [
                PathBuf::from("/u/wright/agents"),
                PathBuf::from("/p/.claude/agents"),
                PathBuf::from("/p/.wright/agents"),
            ]
        );
        assert_eq!(
            agent_dirs(&s, root, None),
            [
                PathBuf::from("/p/.claude/agents"),
                PathBuf::from("/p/.wright/agents"),
            ]
        );
    }
}
