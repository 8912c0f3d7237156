//! Credentials in the environment, end to end through the real binary: the
//! user's tokens and secrets, set in wright's environment, never reach the
//! model through a command's output, whichever way the command is run
//! (Bash in the foreground and the background, the verifier, a hook) and
//! never reach an MCP server unless its own `env` says so. A generator of
//! credential-like names (each word in every position and case) asserts
//! the effect: no value in anything sent to the model, nor in what the
//! children wrote. `[shell_environment] include` lets a name through from
//! the user's config, never from a project's.

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic, mcp_test_server_bin};

use super::scenarios::tool_results;
use super::{Env, stderr};

/// One scripted run: each round is the model's tool calls, then "done".
/// Returns the run and the body of every request the model received.
fn run(
    env: &Env,
    rounds: &[Vec<(&str, &str, Value)>],
    args: &[&str],
    vars: &[(String, String)],
) -> (
    std::process::Output,
    Vec<String>,
    Vec<(String, String, bool)>,
) {
    let mut script: Vec<MockResponse> = rounds
        .iter()
        .map(|list| MockResponse::sse(anthropic::tool_calls(list)))
        .collect();
    script.push(MockResponse::sse(anthropic::text("done")));
    let server = MockServer::start(script).unwrap();
    let mut cmd = env.wright_p("anthropic", &server.url(), "go");
    cmd.args(args);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let requests = server.requests();
    let bodies = requests.iter().map(|r| r.body_text()).collect();
    let results = requests
        .last()
        .map(|r| tool_results("anthropic", r))
        .unwrap_or_default();
    (out, bodies, results)
}

/// The names (and their values) whose values must never be seen.
fn secrets(names: &[&str]) -> Vec<(String, String)> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| ((*n).to_owned(), format!("zq-secret-value-{i}-qz")))
        .collect()
}

/// Asserts no value of `vars` is in `text`, naming the variable (never
/// printing the text, which would hold the value).
fn unseen(vars: &[(String, String)], text: &str, where_: &str) {
    for (name, value) in vars {
        assert!(!text.contains(value.as_str()), "{name} reached {where_}");
    }
}

/// Asserts every value of `vars` is in `text`: the control that the
/// channel really printed its environment.
fn seen(vars: &[(String, String)], text: &str, where_: &str) {
    for (name, value) in vars {
        assert!(
            text.contains(value.as_str()),
            "{name} missing from {where_}"
        );
    }
}

fn read(env: &Env, rel: &str) -> String {
    std::fs::read_to_string(env.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `env` run by the model (foreground and background), by the verifier
/// and by a hook, and the MCP server's view of its environment.
#[test]
fn env_in_a_command_shows_none_of_the_users_tokens_and_secrets() {
    let env = Env::new();
    env.write_user_config(
        "[[hooks.PostToolUse]]\n\
         hooks = [{ type = \"command\", command = \"env > hook_env.txt\" }]\n\
         [verify]\nenabled = true\n\
         [[verify.checks]]\nglob = \"*.txt\"\ncommand = \"env > verify_env.txt\"\n",
    );
    let hidden = secrets(&[
        "GITHUB_TOKEN",
        "MY_PASSWORD",
        "AWS_SECRET_ACCESS_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "NPM_TOKEN",
        "GEMINI_API_KEY",
    ]);
    let plain = vec![(
        "WRIGHT_TEST_PLAIN".to_owned(),
        "zq-plain-value-qz".to_owned(),
    )];
    let vars: Vec<_> = hidden.iter().chain(&plain).cloned().collect();
    let mcp = json!({"mcpServers": {"test": {
        "command": mcp_test_server_bin().unwrap().display().to_string(),
        "env": {"SERVER_OWN_TOKEN": "written-by-the-user"},
    }}})
    .to_string();
    let rounds = vec![
        vec![
            ("c1", "Bash", json!({"command": "env"})),
            (
                "c2",
                "Bash",
                json!({"command": "env > bg_env.txt", "run_in_background": true}),
            ),
            (
                "c3",
                "Write",
                json!({"file_path": "a.txt", "content": "x\n"}),
            ),
            ("c4", "mcp__test__env", json!({"name": "GITHUB_TOKEN"})),
            ("c5", "mcp__test__env", json!({"name": "SERVER_OWN_TOKEN"})),
            ("c6", "mcp__test__env", json!({"name": "WRIGHT_TEST_PLAIN"})),
        ],
        vec![(
            "c7",
            "Bash",
            json!({"command": "for i in $(seq 50); do [ -s bg_env.txt ] && break; sleep 0.1; done; cat bg_env.txt"}),
        )],
    ];
    let (out, bodies, results) = run(
        &env,
        &rounds,
        &["--permission-mode", "bypass", "--mcp-config", &mcp],
        &vars,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    for (i, body) in bodies.iter().enumerate() {
        unseen(&hidden, body, &format!("model request {i}"));
    }
    unseen(&hidden, &stderr(&out), "stderr");
    let by_id = |id: &str| {
        results
            .iter()
            .find(|r| r.0 == id)
            .map(|r| r.1.clone())
            .unwrap_or_else(|| panic!("no result for {id}: {results:?}"))
    };
    seen(&plain, &by_id("c1"), "the foreground command");
    seen(&plain, &by_id("c7"), "the background command");
    for file in ["bg_env.txt", "hook_env.txt", "verify_env.txt"] {
        let text = read(&env, file);
        seen(&plain, &text, file);
        unseen(&hidden, &text, file);
    }
    assert_eq!(by_id("c4"), "unset", "a server inherits no token");
    assert_eq!(by_id("c5"), "set", "a server's own env is the user's");
    assert_eq!(by_id("c6"), "set", "plain variables are inherited");
}

/// The user's own `!cmd` gets the same environment as the model's
/// commands: its output joins the conversation.
#[test]
fn env_in_the_users_bang_command_shows_no_token() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("seen"))]).unwrap();
    let hidden = secrets(&["GITHUB_TOKEN", "MY_PASSWORD", "AWS_SECRET_ACCESS_KEY"]);
    let plain = vec![(
        "WRIGHT_TEST_PLAIN".to_owned(),
        "zq-plain-value-qz".to_owned(),
    )];
    let vars: Vec<_> = hidden.iter().chain(&plain).cloned().collect();
    let Some((ok, shown)) = env.terminal_with(
        &server.url(),
        "--permission-mode bypass",
        "!env\nwhat did it say\n/exit\n",
        &vars,
    ) else {
        return;
    };
    assert!(ok, "the session failed");
    unseen(&hidden, &shown, "the terminal");
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "one question after the command");
    let sent = requests[0].body_text();
    assert!(sent.contains("<bash-input>env</bash-input>"), "no command");
    seen(&plain, &sent, "the conversation");
    unseen(&hidden, &sent, "the conversation");
}

/// Every credential word in every position and case, and every provider
/// key variable: none of their values reaches the model or a child.
#[test]
fn generator_credential_names_never_reach_a_command() {
    let words = ["KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD", "CREDENTIAL"];
    let mut names: Vec<String> = Vec::new();
    for w in words {
        let lower = w.to_ascii_lowercase();
        let mixed: String = w
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i % 2 == 0 {
                    c
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        for form in [w.to_owned(), lower, mixed] {
            names.extend([
                form.clone(),
                format!("{form}_X"),
                format!("X_{form}"),
                format!("X_{form}_Y"),
                format!("X{form}Y"),
                format!("{form}2"),
            ]);
        }
    }
    names.extend(
        wright_sandbox::PROVIDER_KEY_VARS
            .iter()
            .filter(|k| !wright_sandbox::OWN_KEYS.contains(&k.name))
            .map(|k| k.name.to_owned()),
    );
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let hidden = secrets(&refs);
    let plain = vec![("XAUTHORITY".to_owned(), "zq-plain-xauth-qz".to_owned())];
    let vars: Vec<_> = hidden.iter().chain(&plain).cloned().collect();
    let env = Env::new();
    env.write_user_config(
        "[[hooks.PreToolUse]]\nhooks = [{ type = \"command\", command = \"env > hook_env.txt\" }]\n",
    );
    let rounds = vec![vec![(
        "c1",
        "Bash",
        json!({"command": "env; cat /proc/self/environ | tr '\\0' '\\n'"}),
    )]];
    let (out, bodies, results) = run(&env, &rounds, &["--permission-mode", "bypass"], &vars);
    assert!(out.status.success(), "{}", stderr(&out));
    for (i, body) in bodies.iter().enumerate() {
        unseen(&hidden, body, &format!("model request {i}"));
    }
    seen(&plain, &results[0].1, "the command");
    let hook = read(&env, "hook_env.txt");
    seen(&plain, &hook, "the hook");
    unseen(&hidden, &hook, "the hook");
}

/// `[shell_environment] include` in the user's config lets a name through
/// (and `exclude` withholds one more); the same table in a project's
/// config, trusted or not, changes nothing and is reported.
#[test]
fn an_include_lets_a_name_through_but_a_project_cannot_include() {
    let env = Env::new();
    env.write_user_config(
        "[shell_environment]\ninclude = [\"MY_TOKEN\"]\nexclude = [\"CORP_*\"]\n",
    );
    env.write(
        ".wright/config.toml",
        "[shell_environment]\ninclude = [\"GITHUB_TOKEN\", \"CORP_*\"]\n",
    );
    let let_through = secrets(&["MY_TOKEN"]);
    let hidden = vec![
        ("GITHUB_TOKEN".to_owned(), "zq-github-value-qz".to_owned()),
        ("CORP_PROXY_HOST".to_owned(), "zq-corp-value-qz".to_owned()),
    ];
    let vars: Vec<_> = let_through.iter().chain(&hidden).cloned().collect();
    for trust in [false, true] {
        let mut args = vec!["--permission-mode", "bypass"];
        if trust {
            args.push("--trust-project");
        }
        let rounds = vec![vec![("c1", "Bash", json!({"command": "env"}))]];
        let (out, bodies, results) = run(&env, &rounds, &args, &vars);
        assert!(out.status.success(), "{}", stderr(&out));
        seen(&let_through, &results[0].1, "the command");
        for body in &bodies {
            unseen(&hidden, body, "the model");
        }
        assert!(
            stderr(&out).contains("shell_environment: only your user config"),
            "{}",
            stderr(&out)
        );
    }
}

/// `wright doctor` names what is withheld and what is let through, never
/// a value.
#[test]
fn doctor_names_the_withheld_variables_and_never_their_values() {
    let env = Env::new();
    env.write_user_config("[shell_environment]\ninclude = [\"NPM_TOKEN\"]\n");
    let out = env
        .wright()
        .arg("doctor")
        .env("GITHUB_TOKEN", "zq-github-value-qz")
        .env("NPM_TOKEN", "zq-npm-value-qz")
        .env("MY_PASSWORD", "zq-password-value-qz")
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    let line = text
        .lines()
        .find(|l| l.contains("withheld from commands"))
        .unwrap_or_else(|| panic!("no environment line in doctor's report"));
    assert!(
        line.contains("2 variables withheld")
            && line.contains("GITHUB_TOKEN, MY_PASSWORD")
            && line.contains("let through by [shell_environment] include: NPM_TOKEN"),
        "{line}"
    );
    assert!(!text.contains("zq-"), "a value reached doctor's report");
}
