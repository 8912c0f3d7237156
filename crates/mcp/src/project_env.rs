//! Which variables of a *project's* MCP server `env` reach the server.
//!
//! A repository's `.mcp.json` (or project config) names a server the user
//! approves by its command line; its `env` must not change which code that
//! command runs. The code-loading variables every source is refused
//! ([`crate::config::REFUSED_ENV`]) are not enough against a project:
//! `HOME` moves Python's user site (a `.pth` runs code), `XDG_CONFIG_HOME`
//! moves every tool's config, `GIT_EXTERNAL_DIFF` names a program git runs,
//! `BASH_FUNC_name%%` defines a bash function. A list of what is refused
//! is never complete, so a project's variable is passed only when it looks
//! like a plain application setting (an allow list by shape):
//!
//! 1. its name is `[A-Z][A-Z0-9_]*`: lowercase names (`npm_config_*`, which
//!    npm reads as its config, `http_proxy`) and exported functions
//!    (`BASH_FUNC_x%%`) are not settings an application defines;
//! 2. it is not one of the names, or in one of the namespaces, that shells,
//!    loaders, language runtimes, package managers, git, ssh, TLS and the
//!    desktop read ([`EXACT`], [`PREFIXES`]);
//! 3. none of its `_`-separated words says it names a program, its options,
//!    a search path for code or a configuration/home directory ([`WORDS`],
//!    and words ending in `PATH`, `HOME` or `CONFIG` such as `MANPATH`);
//! 4. a few settings inside those namespaces are known to change no code
//!    ([`HARMLESS`]: `NODE_ENV`, `PYTHONUNBUFFERED`, …) and pass.
//!
//! A refused variable is dropped (the server still starts, with the
//! inherited value) and the caller warns with the server and the name,
//! never the value. The user's own servers (user config, `--mcp-config`)
//! are not filtered: what they set is the user's choice.

/// Names inside a refused namespace that change no code and pass.
pub const HARMLESS: &[&str] = &[
    "NODE_ENV",
    "NODE_NO_WARNINGS",
    "PYTHONUNBUFFERED",
    "PYTHONIOENCODING",
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONUTF8",
    "PYTHONHASHSEED",
    "PYTHONFAULTHANDLER",
];

/// Exact names a project may not set (beyond [`PREFIXES`]): homes and
/// temp dirs (where programs find config and caches they trust), shell
/// state (`PS4` and `PROMPT_COMMAND` run code, `SHELLOPTS` turns on
/// xtrace), programs run by name (`LESSOPEN` too), and libc's data paths.
pub const EXACT: &[&str] = &[
    "HOME",
    "USERPROFILE",
    "APPDATA",
    "LOCALAPPDATA",
    "PROGRAMDATA",
    "TMPDIR",
    "TMP",
    "TEMP",
    "PATH",
    "PATHEXT",
    "COMSPEC",
    "SHELL",
    "SHELLOPTS",
    "BASHOPTS",
    "ENV",
    "IFS",
    "PS1",
    "PS2",
    "PS4",
    "PROMPT_COMMAND",
    "CDPATH",
    "GLOBIGNORE",
    "INPUTRC",
    "ZDOTDIR",
    "EDITOR",
    "VISUAL",
    "PAGER",
    "MANPAGER",
    "BROWSER",
    "TERMINFO",
    "TERMINFO_DIRS",
    "LOCPATH",
    "NLSPATH",
    "HOSTALIASES",
    "RES_OPTIONS",
    "LOCALDOMAIN",
    "MAGIC",
    "LESS",
    "LESSOPEN",
    "LESSCLOSE",
    "LESSKEY",
    "GOFLAGS",
    "GOPATH",
    "GOROOT",
    "GOPROXY",
    "GOTOOLCHAIN",
    "GOENV",
    "GOBIN",
    "GOCACHE",
    "GOMODCACHE",
    "GOWORK",
    "GOSUMDB",
    "GONOSUMDB",
    "GOPRIVATE",
    "GONOPROXY",
    "GOINSECURE",
    "GOEXPERIMENT",
    "RUSTFLAGS",
    "RUSTDOCFLAGS",
    "RUSTC",
    "RUSTC_WRAPPER",
    "CLASSPATH",
];

/// Namespaces a project may not set: the shell's and loaders' own, git's
/// (`GIT_EXTERNAL_DIFF`, `GIT_DIR`, …), the XDG base directories, each
/// language runtime and package manager (an index or registry of the
/// project's choosing, or a preloaded module, is its code), ssh and gpg
/// (agents and askpass), TLS (`OPENSSL_CONF` loads engines; a trust
/// anchor lets a fetched package be replaced), glibc tunables, GUI module
/// paths, container and cluster
/// clients (their config runs credential helpers) and wright's own.
pub const PREFIXES: &[&str] = &[
    "BASH_",
    "ZSH",
    "XDG_",
    "GIT_",
    "LD_",
    "DYLD_",
    "GLIBC_",
    "MALLOC_",
    "GCONV_",
    "PYTHON",
    "PIP_",
    "PIPX_",
    "UV_",
    "POETRY_",
    "CONDA",
    "VIRTUAL_ENV",
    "PYENV",
    "PERL",
    "RUBY",
    "GEM_",
    "BUNDLE_",
    "NODE_",
    "NPM_",
    "NPX_",
    "YARN_",
    "PNPM_",
    "BUN_",
    "DENO_",
    "COREPACK_",
    "NVM_",
    "VOLTA_",
    "ELECTRON_",
    "JAVA",
    "JDK_",
    "MAVEN_",
    "GRADLE_",
    "SBT_",
    "CARGO_",
    "RUSTUP_",
    "DOTNET_",
    "COMPLUS_",
    "CORECLR_",
    "MONO_",
    "PHP",
    "COMPOSER_",
    "LUA_",
    "ERL_",
    "ELIXIR_",
    "MIX_",
    "R_",
    "TCL",
    "GUILE_",
    "OCAML",
    "OPAM",
    "SSH_",
    "GNUPG",
    "GPG_",
    "SSL_",
    "OPENSSL_",
    "REQUESTS_CA",
    "CURL_CA",
    "GTK_",
    "GIO_",
    "GST_",
    "QT_",
    "DBUS_",
    "DOCKER_",
    "KUBE",
    "CLOUDSDK_",
    "WRIGHT_",
];

/// Words (between `_`) that say a variable names a program to run, its
/// options, where code or configuration is found, or a home directory:
/// `PUPPETEER_EXECUTABLE_PATH`, `CHROME_ARGS`, `AWS_CONFIG_FILE`,
/// `JAVA_HOME`-style homes of any tool.
pub const WORDS: &[&str] = &[
    "OPTS",
    "OPTIONS",
    "FLAGS",
    "ARGS",
    "COMMAND",
    "CMD",
    "EXEC",
    "EXECUTABLE",
    "EXE",
    "BIN",
    "BINARY",
    "PROGRAM",
    "PROG",
    "SHELL",
    "PRELOAD",
    "PLUGIN",
    "PLUGINS",
    "MODULE",
    "MODULES",
    "LIB",
    "LIBS",
    "LIBRARY",
    "LIBRARIES",
    "LIBDIR",
    "HOOK",
    "HOOKS",
    "EDITOR",
    "PAGER",
    "ASKPASS",
    "INTERPRETER",
    "LAUNCHER",
    "WRAPPER",
    "STARTUP",
    "RC",
    "CONFIG",
    "CONF",
    "CFG",
    "HOME",
];

/// Why a project's server may not set `key` (a short reason for the
/// warning), or `None` when it passes. See the module doc for the rules.
pub fn refusal(key: &str) -> Option<&'static str> {
    let mut chars = key.chars();
    let plain = chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if key.starts_with("BASH_FUNC_") {
        return Some("it defines a shell function");
    }
    if !plain {
        return Some("only plain setting names (A-Z, 0-9 and _) are passed");
    }
    if HARMLESS.contains(&key) {
        return None;
    }
    if EXACT.contains(&key) || PREFIXES.iter().any(|p| key.starts_with(p)) {
        return Some("it is read by the shell, a loader, a runtime or a tool the server may run");
    }
    let names_code = key.split('_').any(|word| {
        WORDS.contains(&word)
            || (word.len() > 4 && word.ends_with("PATH"))
            || (word.len() > 4 && word.ends_with("HOME"))
            || (word.len() > 6 && word.ends_with("CONFIG"))
    });
    if names_code {
        return Some("its name says it chooses a program, its options or where code is found");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reported_classes_are_refused() {
        for key in [
            "HOME",
            "XDG_CONFIG_HOME",
            "XDG_DATA_DIRS",
            "GIT_EXTERNAL_DIFF",
            "GIT_DIR",
            "GIT_PAGER",
            "BASH_FUNC_ls%%",
            "BASH_FUNC_x()",
            "PERLLIB",
            "PERL5LIB",
            "npm_config_registry",
            "http_proxy",
            "Home",
            "SHELLOPTS",
            "PS4",
            "TMPDIR",
            "OPENSSL_CONF",
            "SSL_CERT_FILE",
            "KUBECONFIG",
            "AWS_CONFIG_FILE",
            "PUPPETEER_EXECUTABLE_PATH",
            "CHROME_ARGS",
            "JAVA_HOME",
            "GNUPGHOME",
            "MANPATH",
            "LESSOPEN",
            "GLIBC_TUNABLES",
            "NODE_EXTRA_CA_CERTS",
            "NODE_TLS_REJECT_UNAUTHORIZED",
            "PYTHONSTARTUP",
            "GOFLAGS",
            "DOCKER_HOST",
            "1X",
            "",
        ] {
            assert!(refusal(key).is_some(), "{key} passed");
        }
    }

    #[test]
    fn plain_application_settings_pass() {
        for key in [
            "GITHUB_PERSONAL_ACCESS_TOKEN",
            "BRAVE_API_KEY",
            "SLACK_TEAM_ID",
            "DATABASE_URL",
            "POSTGRES_URL",
            "LOG_LEVEL",
            "DEBUG",
            "MEMORY_FILE_PATH",
            "ALLOWED_DIRECTORIES",
            "NODE_ENV",
            "PYTHONUNBUFFERED",
            "GOOGLE_API_KEY",
            "TZ",
            "LANG",
            "HTTPS_PROXY",
            "AWS_REGION",
            "AWS_PROFILE",
        ] {
            assert_eq!(refusal(key), None, "{key}");
        }
    }
}
