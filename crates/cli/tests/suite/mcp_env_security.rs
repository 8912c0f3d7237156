//! A project's MCP server `env` cannot change which code the server runs:
//! only plain application settings reach a server a repository defines
//! (`.mcp.json` or project config); `HOME`, `XDG_*`, `GIT_*`, exported
//! bash functions, `PERLLIB`, every loader's and runtime's namespace and
//! every name that says it picks a program are dropped with a warning that
//! names the server and the variable, never the value. A generator of
//! variants asserts the effect: the server's own dump of its environment
//! holds none of the project's values (and does hold the plain settings);
//! the same variables from the user's own `--mcp-config` do reach it.

use serde_json::{Value, json};
use wright_mcp::project_env::{EXACT, PREFIXES, WORDS};
use wright_test_support::{MockResponse, MockServer, anthropic, mcp_test_server_bin};

use super::{Env, stderr};

/// The names a project may not set: the reported ones, every namespace,
/// every exact name, every code word in each position, and spellings
/// that are not plain setting names. Names every source is refused (a
/// hard error, covered by `mcp_config`) are left out: they stop the
/// server instead of being dropped.
fn refused_names() -> Vec<String> {
    let mut names: Vec<String> = [
        "HOME",
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "XDG_CACHE_HOME",
        "XDG_DATA_DIRS",
        "XDG_RUNTIME_DIR",
        "GIT_EXTERNAL_DIFF",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_TEMPLATE_DIR",
        "BASH_FUNC_ls%%",
        "BASH_FUNC_git%%",
        "BASH_FUNC_x()",
        "PERLLIB",
        "PERL5DB",
        "npm_config_registry",
        "Home",
        "home",
        "xdg_config_home",
        "KUBECONFIG",
        "GNUPGHOME",
        "MANPATH",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    names.extend(EXACT.iter().map(|s| (*s).to_owned()));
    names.extend(PREFIXES.iter().map(|p| format!("{p}X")));
    for w in WORDS {
        names.extend([format!("APP_{w}"), format!("{w}_APP"), format!("APP_{w}_X")]);
    }
    names.sort();
    names.dedup();
    names.retain(|n| {
        !wright_mcp::config::is_refused_env(n) && !wright_mcp::config::is_provider_key(n)
    });
    names
}

/// Plain settings a project may set: the control that `env` is passed.
const PLAIN: &[&str] = &[
    "LOG_LEVEL",
    "MEMORY_FILE_PATH",
    "DATABASE_URL",
    "SLACK_TEAM_ID",
    "NODE_ENV",
    "PYTHONUNBUFFERED",
];

/// A value per name, unique, so a dump can be searched for it.
fn values(names: &[String]) -> Vec<(String, String)> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), format!("zq-project-value-{i}-qz")))
        .collect()
}

/// The server's environment as it dumped it.
fn dumped(env: &Env) -> Vec<(String, String)> {
    let bytes = std::fs::read(env.path("server_env")).unwrap_or_else(|e| {
        panic!("the server did not start (no dump): {e}");
    });
    bytes
        .split(|b| *b == 0)
        .filter(|e| !e.is_empty())
        .map(|e| {
            let text = String::from_utf8_lossy(e);
            let (k, v) = text.split_once('=').unwrap_or((&text, ""));
            (k.to_owned(), v.to_owned())
        })
        .collect()
}

fn server_json(env: &Env, vars: &[(String, String)]) -> Value {
    let env_map: serde_json::Map<String, Value> = vars
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    json!({"mcpServers": {"proj": {
        "command": mcp_test_server_bin().unwrap().display().to_string(),
        "args": ["--env-dump", env.path("server_env").display().to_string()],
        "env": env_map,
    }}})
}

fn run(env: &Env, args: &[&str]) -> std::process::Output {
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("done"))]).unwrap();
    env.wright_p("anthropic", &server.url(), "go")
        .args(["--permission-mode", "bypass"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn generator_a_projects_server_env_gets_only_plain_settings() {
    let refused = values(&refused_names());
    let plain = values(&PLAIN.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
    let plain: Vec<_> = plain
        .into_iter()
        .map(|(k, v)| (k, v.replace("project", "plain")))
        .collect();
    let all: Vec<_> = refused.iter().chain(&plain).cloned().collect();
    let env = Env::new();
    env.write(".mcp.json", &server_json(&env, &all).to_string());
    let out = run(&env, &["--allow", "mcp__proj"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let seen = dumped(&env);
    for (name, value) in &refused {
        assert!(
            !seen.iter().any(|(_, v)| v == value),
            "{name} from the project reached the server"
        );
    }
    for (name, value) in &plain {
        assert!(
            seen.iter().any(|(k, v)| k == name && v == value),
            "{name} (a plain setting) did not reach the server"
        );
    }
    let err = stderr(&out);
    assert!(!err.contains("zq-project-value"), "a value reached stderr");
    for (name, _) in &refused {
        assert!(
            err.lines().any(|l| l.contains("MCP server proj (from ")
                && l.contains(".mcp.json")
                && l.contains(&format!("not passing {name} "))),
            "no warning for {name}: {err}"
        );
    }
    for (name, _) in &plain {
        assert!(
            !err.contains(&format!("not passing {name} ")),
            "{name} was warned about"
        );
    }
}

/// The same definition in project config (`.wright/config.toml`) is
/// filtered the same way.
#[test]
fn a_project_config_server_is_filtered_too() {
    let env = Env::new();
    let dump = env.path("server_env").display().to_string();
    env.write(
        ".wright/config.toml",
        &format!(
            "[mcp_servers.proj]\ncommand = {:?}\nargs = [\"--env-dump\", {dump:?}]\n\
             env = {{ HOME = \"zq-project-home-qz\", GIT_EXTERNAL_DIFF = \"zq-project-diff-qz\", \
             LOG_LEVEL = \"zq-plain-level-qz\" }}\n",
            mcp_test_server_bin().unwrap().display().to_string()
        ),
    );
    let out = run(&env, &["--allow", "mcp__proj"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let seen = dumped(&env);
    assert!(!seen.iter().any(|(_, v)| v.starts_with("zq-project-")));
    assert!(
        seen.iter()
            .any(|(k, v)| k == "LOG_LEVEL" && v == "zq-plain-level-qz")
    );
    let home = seen
        .iter()
        .find(|(k, _)| k == "HOME")
        .map(|(_, v)| v.clone());
    assert_eq!(
        home.as_deref(),
        Some(env.home.path().to_str().unwrap()),
        "the server keeps the inherited HOME"
    );
    let err = stderr(&out);
    assert!(err.contains("not passing HOME "), "{err}");
    assert!(err.contains("not passing GIT_EXTERNAL_DIFF "), "{err}");
}

/// The user's own servers keep full control of their `env`.
#[test]
fn the_users_own_server_env_is_passed_whole() {
    let vars = values(&refused_names());
    let env = Env::new();
    let config = server_json(&env, &vars).to_string();
    let out = run(&env, &["--mcp-config", &config]);
    assert!(out.status.success(), "{}", stderr(&out));
    let seen = dumped(&env);
    for (name, value) in &vars {
        assert!(
            seen.iter().any(|(k, v)| k == name && v == value),
            "{name} from the user's own config did not reach the server"
        );
    }
    assert!(!stderr(&out).contains("not passing"), "{}", stderr(&out));
}
