use super::*;
use pretty_assertions::assert_eq;

fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
    move |name| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| (*v).to_owned())
    }
}

fn no_env(_: &str) -> Option<String> {
    None
}

fn file() -> ConfigSource {
    ConfigSource::File(PathBuf::from("/p/.mcp.json"))
}

#[test]
fn parses_stdio_and_http_servers_sorted_ignoring_unknown_keys() {
    let text = r#"{"mcpServers": {
        "web": {"type": "http", "url": "https://x.test/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}, "oauth": {}},
        "fs": {"command": "npx", "args": ["-y", "srv", "${HOME}/x"], "env": {"DEBUG": "1"}, "comment": "hi"}
    }, "other": 1}"#;
    let env = env_of(&[("TOKEN", "t0k"), ("HOME", "/h")]);
    let servers = parse(text, file(), &env).unwrap();
    assert_eq!(
        servers,
        vec![
            McpServer {
                name: "fs".into(),
                config: McpServerConfig::Stdio {
                    command: "npx".into(),
                    args: vec!["-y".into(), "srv".into(), "/h/x".into()],
                    env: BTreeMap::from([("DEBUG".into(), "1".into())]),
                },
                source: file(),
            },
            McpServer {
                name: "web".into(),
                config: McpServerConfig::Http {
                    url: "https://x.test/mcp".into(),
                    headers: BTreeMap::from([("Authorization".into(), "Bearer t0k".into())]),
                },
                source: file(),
            },
        ]
    );
}

#[test]
fn sse_type_parses_and_says_its_transport() {
    let text = r#"{"mcpServers": {"old": {"type": "sse", "url": "http://127.0.0.1:9/sse"}}}"#;
    let servers = parse(text, ConfigSource::CommandLine, &no_env).unwrap();
    assert_eq!(servers[0].config.transport(), "sse");
    assert_eq!(servers[0].source.to_string(), "command line");
}

#[test]
fn expansion_with_defaults_and_errors() {
    let env = env_of(&[("A", "1"), ("EMPTY", "")]);
    assert_eq!(expand("x${A}y", &env).unwrap(), "x1y");
    assert_eq!(expand("${B:-dflt}", &env).unwrap(), "dflt");
    assert_eq!(expand("${EMPTY:-d}", &env).unwrap(), "d");
    assert_eq!(expand("${EMPTY}", &env).unwrap(), "");
    assert_eq!(expand("$A and $$", &env).unwrap(), "$A and $$");
    let err = expand("${MISSING}", &env).unwrap_err();
    assert!(err.contains("MISSING"), "{err}");
    assert!(expand("${A", &env).unwrap_err().contains("unterminated"));
    assert!(expand("${A B}", &env).unwrap_err().contains("invalid"));
}

#[test]
fn provider_keys_are_never_expanded() {
    let env = env_of(&[("ANTHROPIC_API_KEY", "sk-secret")]);
    let err = expand("${ANTHROPIC_API_KEY}", &env).unwrap_err();
    assert!(err.contains("provider API keys"), "{err}");
    assert!(!err.contains("sk-secret"));
}

#[test]
fn unset_variable_error_names_file_server_and_variable() {
    let text = r#"{"mcpServers": {"gh": {"command": "srv", "env": {"T": "${GH_TOKEN}"}}}}"#;
    let err = parse(text, file(), &no_env).unwrap_err().to_string();
    assert!(err.contains("/p/.mcp.json"), "{err}");
    assert!(err.contains("\"gh\""), "{err}");
    assert!(err.contains("GH_TOKEN"), "{err}");
}

#[test]
fn refused_env_keys() {
    for key in [
        "PATH",
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "LD_AUDIT",
        "DYLD_INSERT_LIBRARIES",
        "BASH_ENV",
        "ENV",
        "NODE_OPTIONS",
        "PYTHONPATH",
        "Path",
        "PYTHONWARNINGS",
        "BROWSER",
        "npm_config_registry",
        "GIT_CONFIG_COUNT",
        "GIT_SSH_COMMAND",
        "JAVA_TOOL_OPTIONS",
        "NODE_PATH",
        "PIP_INDEX_URL",
        "UV_INDEX_URL",
        "LD_BIND_NOW",
    ] {
        let text =
            format!(r#"{{"mcpServers": {{"s": {{"command": "c", "env": {{"{key}": "x"}}}}}}}}"#);
        let err = parse(&text, file(), &no_env).unwrap_err().to_string();
        assert!(
            err.contains(key) && err.contains("may not set"),
            "{key}: {err}"
        );
    }
    let text = r#"{"mcpServers": {"s": {"command": "c", "env": {"OPENAI_API_KEY": "x"}}}}"#;
    let err = parse(text, file(), &no_env).unwrap_err().to_string();
    assert!(err.contains("provider API keys"), "{err}");
    for fine in [
        "DEBUG",
        "NODE_ENV",
        "PYTHONUNBUFFERED",
        "GITHUB_TOKEN",
        "LOG_LEVEL",
    ] {
        assert!(!is_refused_env(fine), "{fine}");
    }
}

#[test]
fn server_names_are_validated() {
    assert!(validate_server_name("git-hub_2").is_ok());
    assert!(validate_server_name("").is_err());
    assert!(validate_server_name("context7.com").is_ok());
    assert!(validate_server_name(".hidden").is_err());
    assert!(validate_server_name("..").is_err());
    assert!(validate_server_name("a/b").is_err());
    for bad in ["github__x", "_x", "x_", "a___b"] {
        assert!(validate_server_name(bad).is_err(), "{bad}");
    }
    assert!(validate_server_name("my_server").is_ok());
    assert!(validate_server_name("ünï").is_err());
    let err = parse(
        r#"{"mcpServers": {"a b": {"command": "c"}}}"#,
        file(),
        &no_env,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("\"a b\"") && err.contains("letters"), "{err}");
}

#[test]
fn shape_errors_are_clear() {
    let cases = [
        ("not json", "not valid JSON"),
        ("{}", "no \"mcpServers\""),
        (r#"{"mcpServers": []}"#, "not an object"),
        (r#"{"mcpServers": {"s": {}}}"#, "no \"command\""),
        (
            r#"{"mcpServers": {"s": {"url": "http://x"}}}"#,
            "\"type\": \"http\"",
        ),
        (
            r#"{"mcpServers": {"s": {"type": "ws", "url": "x"}}}"#,
            "unknown \"type\"",
        ),
        (r#"{"mcpServers": {"s": {"type": "http"}}}"#, "no \"url\""),
        (
            r#"{"mcpServers": {"s": {"type": "http", "url": "ftp://x"}}}"#,
            "http://",
        ),
        (
            r#"{"mcpServers": {"s": {"command": "c", "args": "x"}}}"#,
            "\"args\"",
        ),
        (
            r#"{"mcpServers": {"s": {"command": "c", "args": [1]}}}"#,
            "\"args\"",
        ),
        (
            r#"{"mcpServers": {"s": {"command": "c", "env": {"A": 1}}}}"#,
            "\"env\".A",
        ),
    ];
    for (text, want) in cases {
        let err = parse(text, file(), &no_env).unwrap_err().to_string();
        assert!(err.contains(want), "{text}: {err}");
        assert!(err.starts_with("/p/.mcp.json"), "{text}: {err}");
    }
}

#[test]
fn flag_value_is_json_or_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("servers.json");
    std::fs::write(&path, r#"{"mcpServers": {"f": {"command": "c"}}}"#).unwrap();
    let from_file = load_flag(path.to_str().unwrap(), &no_env).unwrap();
    assert_eq!(from_file[0].source, ConfigSource::File(path.clone()));
    let inline = load_flag(r#" {"mcpServers": {"i": {"command": "c"}}}"#, &no_env).unwrap();
    assert_eq!(inline[0].source, ConfigSource::CommandLine);
    let missing = load_flag("/nonexistent/x.json", &no_env)
        .unwrap_err()
        .to_string();
    assert!(missing.contains("/nonexistent/x.json") && missing.contains("cannot read"));
}

#[test]
fn describe_leaves_headers_out() {
    let http = McpServerConfig::Http {
        url: "https://x".into(),
        headers: BTreeMap::from([("Authorization".into(), "Bearer s3cret".into())]),
    };
    assert_eq!(http.describe(), "https://x");
    let stdio = McpServerConfig::Stdio {
        command: "npx".into(),
        args: vec!["-y".into(), "pkg".into()],
        env: BTreeMap::new(),
    };
    assert_eq!(stdio.describe(), "npx -y pkg");
}

#[test]
fn sdk_servers_parse_as_the_agent_sdk_writes_them() {
    // The SDK adds "name" (the key again); anything else is ignored too.
    let text = r#"{"mcpServers": {"calc": {"type": "sdk", "name": "calc", "extra": [1]}}}"#;
    let servers = parse(text, ConfigSource::CommandLine, &no_env).unwrap();
    assert_eq!(
        servers,
        vec![McpServer {
            name: "calc".into(),
            config: McpServerConfig::Sdk,
            source: ConfigSource::CommandLine,
        }]
    );
    assert_eq!(servers[0].config.transport(), "sdk");
    assert_eq!(
        servers[0].config.describe(),
        "in the program driving wright"
    );
    // The name is checked as any server's (it becomes mcp__<name>__<tool>).
    let bad = parse(
        r#"{"mcpServers": {"a__b": {"type": "sdk"}}}"#,
        ConfigSource::CommandLine,
        &no_env,
    )
    .unwrap_err();
    assert!(bad.to_string().contains("__"), "{bad}");
}
