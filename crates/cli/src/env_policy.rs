//! The user's `[shell_environment]` as the sandbox's policy for the
//! variables every child of wright is denied (commands, the verifier,
//! `!cmd`, hooks, MCP servers): installed once per process, before the
//! first of them starts, and described for `wright doctor` by name only.
//! The table comes from the user's file alone (the config crate ignores a
//! project's), so a repository cannot hand the user's tokens to commands.

use wright_config::Resolved;
use wright_sandbox::EnvPolicy;

/// The policy `resolved` asks for; a pattern the sandbox refuses (the
/// config already checks the same rule, so this is a guard, not a path)
/// leaves the default, stricter policy and says so. The names `--settings`
/// sets in `env` count as included: that file's `env` is the invoker's
/// explicit word that commands get them (names it may not set were never
/// set, so they are not included either).
fn policy(resolved: &Resolved) -> (EnvPolicy, Option<String>) {
    let table = &resolved.shell_environment;
    let mut include = table.include.clone();
    if let Some(settings) = &resolved.flag_settings {
        include.extend(
            settings
                .env
                .iter()
                .map(|(name, _)| name)
                // A name is matched as a pattern: never let one widen.
                .filter(|name| !name.contains(['*', '?']))
                .filter(|name| crate::claude_flags::settings_env_allowed(name))
                .cloned(),
        );
    }
    match EnvPolicy::new(&include, &table.exclude) {
        Ok(policy) => (policy, None),
        Err(e) => (
            EnvPolicy::default(),
            Some(format!(
                "[shell_environment] not applied ({e}); the default rule withholds credentials"
            )),
        ),
    }
}

/// Installs `resolved`'s policy for this process; a warning when its
/// table could not be used. A second call (ACP's next session) keeps the
/// first policy: the user file is the same for every session.
pub(crate) fn install(resolved: &Resolved) -> Option<String> {
    let (policy, warning) = policy(resolved);
    wright_sandbox::install_env_policy(policy);
    warning
}

/// `wright doctor`'s line: the names of this process's environment that
/// children are denied under `resolved`'s policy, and those the user's
/// `include` lets through. Values are never read.
pub(crate) fn doctor_detail(resolved: &Resolved) -> String {
    let (policy, warning) = policy(resolved);
    let names: Vec<String> = std::env::vars_os()
        .map(|(k, _)| k.to_string_lossy().into_owned())
        .collect();
    detail(&names, &policy, warning)
}

fn detail(names: &[String], policy: &EnvPolicy, warning: Option<String>) -> String {
    let mut withheld: Vec<&str> = names
        .iter()
        .filter(|n| policy.withholds(n))
        .map(String::as_str)
        .collect();
    withheld.sort_unstable();
    let mut let_through: Vec<&str> = names
        .iter()
        .filter(|n| !policy.withholds(n) && EnvPolicy::default().withholds(n))
        .map(String::as_str)
        .collect();
    let_through.sort_unstable();
    let mut out = match withheld.len() {
        0 => "no variables withheld from commands, hooks and MCP servers".to_owned(),
        1 => format!(
            "1 variable withheld from commands, hooks and MCP servers: {}",
            withheld[0]
        ),
        n => format!(
            "{n} variables withheld from commands, hooks and MCP servers: {}",
            withheld.join(", ")
        ),
    };
    if !let_through.is_empty() {
        out.push_str(&format!(
            "; let through by [shell_environment] include: {}",
            let_through.join(", ")
        ));
    }
    if let Some(w) = warning {
        out.push_str(&format!(" ({w})"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_line_names_what_is_withheld_and_let_through_sorted() {
        let env = names(&[
            "PATH",
            "NPM_TOKEN",
            "GITHUB_TOKEN",
            "CORP_PROXY",
            "AWS_SECRET_ACCESS_KEY",
        ]);
        assert_eq!(
            detail(&env, &EnvPolicy::default(), None),
            "3 variables withheld from commands, hooks and MCP servers: \
             AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN, NPM_TOKEN"
        );
        let policy = EnvPolicy::new(&names(&["NPM_*"]), &names(&["CORP_*"])).unwrap();
        assert_eq!(
            detail(&env, &policy, None),
            "3 variables withheld from commands, hooks and MCP servers: \
             AWS_SECRET_ACCESS_KEY, CORP_PROXY, GITHUB_TOKEN; \
             let through by [shell_environment] include: NPM_TOKEN"
        );
        assert_eq!(
            detail(&names(&["PATH"]), &EnvPolicy::default(), None),
            "no variables withheld from commands, hooks and MCP servers"
        );
        assert_eq!(
            detail(&names(&["X_KEY"]), &EnvPolicy::default(), None),
            "1 variable withheld from commands, hooks and MCP servers: X_KEY"
        );
    }
}
