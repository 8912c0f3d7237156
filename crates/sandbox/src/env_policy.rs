//! Which of wright's environment variables the processes it starts get:
//! Bash commands (foreground and background), the verifier's checks, the
//! user's `!cmd`, hooks and MCP stdio servers all inherit wright's
//! environment minus the credentials named here, so a command that prints
//! its environment (`env`, a crash dump, a build log) cannot put the user's
//! tokens into the model's context.
//!
//! The rule follows Codex CLI's `shell_environment_policy`: names are
//! matched, never values, case-insensitively, against glob patterns (`*`
//! any run of characters, `?` one). Withheld by default: every provider's
//! credential variable ([`PROVIDER_KEY_VARS`]) and every name matching
//! [`DEFAULT_EXCLUDES`] (`*KEY*`, `*SECRET*`, `*TOKEN*`, `*PASSWORD*`,
//! `*PASSWD*`, `*CREDENTIAL*`). The user's policy ([`EnvPolicy`], from
//! `[shell_environment]` in the user's config only) adds `exclude`
//! patterns and lets `include` patterns back through; an exclude wins
//! over an include, and wright's own model keys ([`OWN_KEYS`]) never leave
//! it whatever the policy says.
//!
//! The process applies one policy, installed once at start
//! ([`install_env_policy`]); until then, and in tests, the default holds,
//! which is the strictest one a user can have.

use std::ffi::OsString;
use std::sync::OnceLock;

/// `ANTHROPIC_API_KEY`: one of wright's own keys ([`OWN_KEYS`]).
pub const ANTHROPIC_API_KEY: &str = "ANTHROPIC_API_KEY";

/// `OPENAI_API_KEY`: one of wright's own keys ([`OWN_KEYS`]).
pub const OPENAI_API_KEY: &str = "OPENAI_API_KEY";

/// The keys wright itself reads to reach its model: wiped from wright's
/// environment block at start and never passed to a child, not even when
/// the user's policy includes them.
pub const OWN_KEYS: [&str; 2] = [ANTHROPIC_API_KEY, OPENAI_API_KEY];

/// What a provider credential gives access to, which decides where else
/// it is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// A model API key (an agent's key): besides being withheld, an MCP
    /// server's configuration may neither set it nor expand it, so no
    /// server, the project's included, receives it.
    ModelApi,
    /// A cloud account's credential: withheld, but a server whose `env`
    /// the user wrote may be given one.
    Cloud,
}

/// One provider credential variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyVar {
    /// The variable's name, upper case.
    pub name: &'static str,
    /// What it gives access to.
    pub kind: KeyKind,
}

const fn model(name: &'static str) -> KeyVar {
    KeyVar {
        name,
        kind: KeyKind::ModelApi,
    }
}

const fn cloud(name: &'static str) -> KeyVar {
    KeyVar {
        name,
        kind: KeyKind::Cloud,
    }
}

/// Every provider's credential variables, the one list of them in wright:
/// withheld from every child by name (whether or not a pattern would also
/// catch it), refused in MCP servers' configuration when a model key, and
/// never accepted from `--settings`.
pub const PROVIDER_KEY_VARS: &[KeyVar] = &[
    model(ANTHROPIC_API_KEY),
    model("ANTHROPIC_AUTH_TOKEN"),
    model(OPENAI_API_KEY),
    model("AZURE_OPENAI_API_KEY"),
    model("OPENROUTER_API_KEY"),
    model("GEMINI_API_KEY"),
    model("GOOGLE_API_KEY"),
    model("XAI_API_KEY"),
    model("GROQ_API_KEY"),
    model("MISTRAL_API_KEY"),
    model("DEEPSEEK_API_KEY"),
    cloud("AWS_ACCESS_KEY_ID"),
    cloud("AWS_SECRET_ACCESS_KEY"),
    cloud("AWS_SESSION_TOKEN"),
    cloud("AWS_BEARER_TOKEN_BEDROCK"),
    cloud("AZURE_CLIENT_SECRET"),
    cloud("GOOGLE_APPLICATION_CREDENTIALS"),
];

/// Name patterns withheld unless the user includes them: Codex's default
/// excludes (`*KEY*`, `*SECRET*`, `*TOKEN*`) and the other words that name
/// credentials (`*PASSWORD*`, `*PASSWD*`, `*CREDENTIAL*`).
pub const DEFAULT_EXCLUDES: &[&str] = &[
    "*KEY*",
    "*SECRET*",
    "*TOKEN*",
    "*PASSWORD*",
    "*PASSWD*",
    "*CREDENTIAL*",
];

/// Names a default pattern catches that hold no secret. Git reads
/// `GIT_CONFIG_KEY_<n>` (an option's *name*) together with
/// `GIT_CONFIG_COUNT` and `GIT_CONFIG_VALUE_<n>`, which pass anyway:
/// withholding the names alone protects nothing and makes every git fail
/// with "missing config key".
const NOT_SECRETS: &[&str] = &["GIT_CONFIG_KEY_*"];

/// Whether `name` is one of [`PROVIDER_KEY_VARS`] (case-insensitive, so a
/// spelling such as `Anthropic_Api_Key` does not slip through on a
/// case-insensitive OS).
pub fn is_provider_key_var(name: &str) -> bool {
    PROVIDER_KEY_VARS
        .iter()
        .any(|k| k.name.eq_ignore_ascii_case(name))
}

/// Whether `name` is a model API key of [`PROVIDER_KEY_VARS`]
/// ([`KeyKind::ModelApi`], case-insensitive).
pub fn is_model_api_key(name: &str) -> bool {
    PROVIDER_KEY_VARS
        .iter()
        .any(|k| k.kind == KeyKind::ModelApi && k.name.eq_ignore_ascii_case(name))
}

/// A pattern the policy cannot use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid variable pattern {pattern:?}: {why}")]
pub struct PatternError {
    /// The pattern as written.
    pub pattern: String,
    /// What is wrong with it.
    pub why: &'static str,
}

/// Checks one pattern of a policy: not empty, no `=`, NUL or whitespace
/// (no variable name holds them, so such a pattern is a mistake).
pub fn check_pattern(pattern: &str) -> Result<(), PatternError> {
    let why = if pattern.is_empty() {
        "it is empty"
    } else if pattern.contains('=') || pattern.contains('\0') {
        "a variable name holds no `=` or NUL"
    } else if pattern.chars().any(char::is_whitespace) {
        "a variable name holds no whitespace"
    } else {
        return Ok(());
    };
    Err(PatternError {
        pattern: pattern.to_owned(),
        why,
    })
}

/// The user's adjustments to what children inherit (`[shell_environment]`
/// in the user's config). The default withholds exactly the provider keys
/// and [`DEFAULT_EXCLUDES`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvPolicy {
    include: Vec<String>,
    exclude: Vec<String>,
}

impl EnvPolicy {
    /// A policy that lets `include` back through and also withholds
    /// `exclude` (both glob patterns on names, case-insensitive).
    pub fn new(include: &[String], exclude: &[String]) -> Result<Self, PatternError> {
        for p in include.iter().chain(exclude) {
            check_pattern(p)?;
        }
        let upper = |list: &[String]| list.iter().map(|p| p.to_ascii_uppercase()).collect();
        Ok(Self {
            include: upper(include),
            exclude: upper(exclude),
        })
    }

    /// Whether a child is denied the variable `name`. In order: wright's
    /// own keys always; the user's excludes; then the user's includes let
    /// the name through; then provider keys and default patterns withhold.
    pub fn withholds(&self, name: &str) -> bool {
        let upper = name.to_ascii_uppercase();
        let any = |patterns: &[String]| patterns.iter().any(|p| glob_match(p, &upper));
        if OWN_KEYS.contains(&upper.as_str()) || any(&self.exclude) {
            return true;
        }
        if any(&self.include) {
            return false;
        }
        if is_provider_key_var(&upper) {
            return true;
        }
        DEFAULT_EXCLUDES.iter().any(|p| glob_match(p, &upper))
            && !NOT_SECRETS.iter().any(|p| glob_match(p, &upper))
    }
}

/// What a child gets of an environment.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ChildEnv {
    /// The variables passed on, in the order given.
    pub kept: Vec<(OsString, OsString)>,
    /// The names withheld, in the order given (never their values).
    pub withheld: Vec<OsString>,
}

/// Splits `vars` (a process environment) into what a child gets and the
/// names it is denied under `policy`. A name that is not UTF-8 is judged
/// by its readable part.
pub fn child_env<I>(vars: I, policy: &EnvPolicy) -> ChildEnv
where
    I: IntoIterator<Item = (OsString, OsString)>,
{
    let mut out = ChildEnv::default();
    for (name, value) in vars {
        if policy.withholds(&name.to_string_lossy()) {
            out.withheld.push(name);
        } else {
            out.kept.push((name, value));
        }
    }
    out
}

/// Variables that point a program at a Unix socket of the user's session:
/// the ssh-agent, D-Bus, Docker and Podman daemons, GnuPG's agent, the
/// display servers, terminal multiplexers and editors that take remote
/// commands. With the network off the helper removes them from the
/// command's environment (the sockets themselves are hidden too), so tools
/// do not try, and fail slowly, to reach them.
pub const SOCKET_VARS: &[&str] = &[
    "SSH_AUTH_SOCK",
    "SSH_AGENT_PID",
    "DBUS_SESSION_BUS_ADDRESS",
    "DBUS_SYSTEM_BUS_ADDRESS",
    "DOCKER_HOST",
    "CONTAINER_HOST",
    "GPG_AGENT_INFO",
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "WAYLAND_SOCKET",
    "TMUX",
    "STY",
    "KITTY_LISTEN_ON",
    "WEZTERM_UNIX_SOCKET",
    "NVIM",
    "NVIM_LISTEN_ADDRESS",
    "VSCODE_IPC_HOOK_CLI",
    "VSCODE_GIT_IPC_HANDLE",
    "SWAYSOCK",
    "I3SOCK",
    "PULSE_SERVER",
    "EMACS_SOCKET_NAME",
];

static POLICY: OnceLock<EnvPolicy> = OnceLock::new();

/// Sets the policy of this process, once, before it starts children
/// (from the user's config; a repository's cannot change it). Returns
/// false when one was already installed, which is then kept: a process
/// has one user and one environment.
pub fn install_env_policy(policy: EnvPolicy) -> bool {
    POLICY.set(policy).is_ok()
}

/// The policy of this process: the installed one, else the default.
pub fn env_policy() -> &'static EnvPolicy {
    POLICY.get_or_init(EnvPolicy::default)
}

/// The names of this process's environment a child is denied under
/// [`env_policy`], sorted.
pub fn withheld_names() -> Vec<String> {
    let names = std::env::vars_os().map(|(k, _)| (k, OsString::new()));
    let mut out: Vec<String> = child_env(names, env_policy())
        .withheld
        .iter()
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// Removes from `cmd`'s environment every variable of this process that
/// [`env_policy`] withholds. A name the caller set on `cmd` itself (before
/// or after) is the caller's decision and is kept: only what the child
/// would inherit is withheld.
pub fn scrub_env(cmd: &mut std::process::Command) {
    scrub_from(cmd, std::env::vars_os().map(|(k, _)| k), env_policy());
}

/// [`scrub_env`] for the inherited names `inherited` under `policy`.
fn scrub_from(
    cmd: &mut std::process::Command,
    inherited: impl Iterator<Item = OsString>,
    policy: &EnvPolicy,
) {
    let set: Vec<OsString> = cmd
        .get_envs()
        .filter(|(_, v)| v.is_some())
        .map(|(k, _)| k.to_owned())
        .collect();
    let names = inherited.map(|k| (k, OsString::new()));
    for name in child_env(names, policy).withheld {
        if !set.contains(&name) {
            cmd.env_remove(&name);
        }
    }
}

/// Whether `text` (upper case) matches `pattern` (upper case): `*` any
/// run of characters, `?` exactly one, everything else itself.
fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // The classic linear matcher: on a mismatch, retry from the last `*`
    // with one more character swallowed by it.
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&c) if c == '?' || c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
#[path = "env_policy_tests.rs"]
mod tests;
