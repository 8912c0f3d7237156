//! `[mcp]` and `[mcp_servers]` parsed from file text, and how an untrusted
//! project's servers are held back.

use std::collections::BTreeMap;
use std::path::Path;

use super::*;
use crate::file::parse_file;
use crate::kinds::McpToolSearch;
use crate::source::Source;

const FILE: &str = "/p/.wright/config.toml";

fn parse(text: &str) -> Result<Vec<Assign>, ConfigError> {
    parse_file(Path::new(FILE), text, Path::new("/p"))
}

fn err(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn every_mcp_key_parses() {
    let got = parse(
        r#"
[mcp]
trust_project_servers = true
tool_search = "off"
startup_timeout_secs = 5
tool_timeout_secs = 60
trust_read_only_hints = true

[mcp_servers.gh]
command = "npx"
args = ["-y", "server"]
env = { TOKEN = "${GH_TOKEN}" }

[mcp_servers.web]
type = "sse"
url = "https://example.com/sse"
headers = { Authorization = "Bearer x" }
"#,
    )
    .unwrap();
    let source = Source::File(FILE.into());
    assert_eq!(
        got,
        vec![
            Assign::McpTrustProjectServers(true),
            Assign::McpToolSearch(McpToolSearch::Off),
            Assign::McpStartupTimeoutMs(5000),
            Assign::McpToolTimeoutMs(60_000),
            Assign::McpTrustReadOnlyHints(true),
            Assign::McpServers(vec![
                McpServerSetting {
                    name: "gh".into(),
                    transport: McpTransport::Stdio {
                        command: "npx".into(),
                        args: vec!["-y".into(), "server".into()],
                        env: BTreeMap::from([("TOKEN".into(), "${GH_TOKEN}".into())]),
                    },
                    source: source.clone(),
                },
                McpServerSetting {
                    name: "web".into(),
                    transport: McpTransport::Sse {
                        url: "https://example.com/sse".into(),
                        headers: BTreeMap::from([("Authorization".into(), "Bearer x".into())]),
                    },
                    source,
                },
            ]),
        ]
    );
}

#[test]
fn mistakes_name_the_file_and_key() {
    assert_eq!(
        err("[mcp_servers.gh]\ncommand = \"x\"\ncmd = \"y\"\n"),
        "/p/.wright/config.toml:3:1: unknown key `mcp_servers.gh.cmd` \
         (expected one of: type, command, args, env, url, headers, http_headers, \
         bearer_token_env_var, env_vars, enabled, startup_timeout_sec, startup_timeout_ms, \
         tool_timeout_sec, cwd, enabled_tools, disabled_tools)"
    );
    assert_eq!(
        err("[mcp]\ntool_serch = \"on\"\n"),
        "/p/.wright/config.toml:2:1: unknown key `mcp.tool_serch` (expected one of: \
         trust_project_servers, tool_search, startup_timeout_secs, tool_timeout_secs, \
         trust_read_only_hints)"
    );
    assert_eq!(
        err("[mcp]\ntool_search = \"maybe\"\n"),
        "/p/.wright/config.toml:2:15: invalid value `maybe` for `mcp.tool_search`: \
         expected one of: auto, on, off"
    );
    assert_eq!(
        err("[mcp]\nstartup_timeout_secs = 0\n"),
        "/p/.wright/config.toml:2:24: invalid value `0` for `mcp.startup_timeout_secs`: \
         expected an integer from 1 to 3600"
    );
    assert!(
        err("[mcp_servers.gh]\nargs = [\"x\"]\n").contains("missing `mcp_servers.gh.command`"),
        "{}",
        err("[mcp_servers.gh]\nargs = [\"x\"]\n")
    );
    assert!(
        err("[mcp_servers.gh]\ntype = \"stdio\"\nurl = \"http://x\"\n")
            .contains("`url` is for type = \"http\" or \"sse\"")
    );
    assert!(
        err("[mcp_servers.gh]\ntype = \"http\"\nurl = \"ftp://x\"\n")
            .contains("expected an http:// or https:// URL")
    );
    assert!(
        err("[mcp_servers.gh]\ntype = \"http\"\nurl = \"http://x\"\ncommand = \"y\"\n")
            .contains("only a stdio server runs a command")
    );
    assert!(err("[mcp_servers.gh]\ntype = \"ws\"\n").contains("expected one of: stdio, http, sse"));
    // Only the driving program's --mcp-config may define an SDK server.
    assert!(
        err("[mcp_servers.calc]\ntype = \"sdk\"\n")
            .contains("an SDK server can only be defined by the program driving wright")
    );
    assert!(
        err("[mcp_servers.\"a b\"]\ncommand = \"x\"\n")
            .contains("expected a server name of letters, digits")
    );
    assert!(
        err("[mcp_servers.gh]\ncommand = \"x\"\nenv = { A = 1 }\n")
            .contains("`mcp_servers.gh.env.A`")
    );
    assert!(err("[mcp_servers.gh]\ncommand = \"x\"\nargs = \"y\"\n").contains("array of strings"));
}

#[test]
fn approvals_parse_only_under_projects() {
    let layer = crate::file::parse_layer(
        Path::new("/u/config.toml"),
        "[projects.\"/p\"]\ntrusted = true\napproved_mcp_servers = { gh = \"sha256:1\" }\n",
        Path::new("/u"),
    )
    .unwrap();
    assert_eq!(
        layer.projects[0]
            .mcp_approvals
            .get("gh")
            .map(String::as_str),
        Some("sha256:1")
    );
    assert!(
        err("[projects.\"/p\"]\napproved_mcp_servers = { \"a b\" = \"x\" }\n")
            .contains("server name")
    );
}

#[test]
fn an_untrusted_projects_servers_are_held_back_and_can_be_released() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user");
    let root = tmp.path().join("proj");
    std::fs::create_dir_all(root.join(".wright")).unwrap();
    std::fs::create_dir_all(&user).unwrap();
    std::fs::write(
        user.join("config.toml"),
        "[mcp_servers.mine]\ncommand = \"mine\"\n",
    )
    .unwrap();
    std::fs::write(
        root.join(".wright/config.toml"),
        "[mcp]\ntrust_project_servers = true\ntool_search = \"on\"\n\
         [mcp_servers.theirs]\ncommand = \"evil\"\nargs = [\"--x\"]\n\
         [mcp_servers.other]\ncommand = \"other\"\n",
    )
    .unwrap();
    let loader = crate::ConfigLoader {
        user_config_dir: Some(user),
        project_root: root.clone(),
        env: Default::default(),
    };
    let mut r = loader.load(&crate::Overrides::default()).unwrap();
    let names: Vec<&str> = r
        .settings
        .mcp_servers
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, ["mine"]);
    assert!(!r.settings.mcp.trust_project_servers);
    // Neutral settings apply.
    assert_eq!(r.settings.mcp.tool_search, McpToolSearch::On);
    let held: Vec<&str> = r.held_mcp_servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(held, ["other", "theirs"]);
    let warning = r.warnings().join("\n");
    assert!(
        warning.contains("mcp_servers.theirs (stdio: \"evil --x\")")
            && warning.contains("mcp.trust_project_servers = true"),
        "{warning}"
    );
    r.release_mcp_server("theirs");
    let warning = r.warnings().join("\n");
    assert!(!warning.contains("theirs"), "{warning}");
    assert!(warning.contains("mcp_servers.other"), "{warning}");

    let trusted = loader
        .load(&crate::Overrides {
            trust_project: true,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(trusted.settings.mcp_servers.len(), 3);
    assert!(trusted.settings.mcp.trust_project_servers);
    assert!(trusted.held_mcp_servers.is_empty());
    let text = trusted.render();
    assert!(
        text.contains(&format!(
            "mcp_servers.theirs = {{ command = \"evil\", args = [\"--x\"] }}  # {}",
            root.join(".wright/config.toml").display()
        )),
        "{text}"
    );
}

// Codex's `[mcp_servers.NAME]` keys.

fn layer(text: &str) -> crate::doc::Layer {
    crate::file::parse_layer(Path::new(FILE), text, Path::new("/p")).unwrap()
}

/// The servers of a file's text, `[]` when none is left.
fn servers_of(text: &str) -> Vec<McpServerSetting> {
    layer(text)
        .assigns
        .into_iter()
        .find_map(|a| match a {
            Assign::McpServers(list) => Some(list),
            _ => None,
        })
        .unwrap_or_default()
}

fn transport_of(text: &str) -> McpTransport {
    let mut list = servers_of(text);
    assert_eq!(list.len(), 1, "{list:?}");
    list.remove(0).transport
}

fn map(items: &[(&str, &str)]) -> BTreeMap<String, String> {
    items
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn a_url_without_type_is_streamable_http_and_type_still_wins() {
    assert_eq!(
        transport_of("[mcp_servers.docs]\nurl = \"https://example.com/mcp\"\n"),
        McpTransport::Http {
            url: "https://example.com/mcp".into(),
            headers: BTreeMap::new(),
        }
    );
    assert_eq!(
        transport_of("[mcp_servers.docs]\ntype = \"sse\"\nurl = \"https://example.com/sse\"\n"),
        McpTransport::Sse {
            url: "https://example.com/sse".into(),
            headers: BTreeMap::new(),
        }
    );
    assert_eq!(
        err("[mcp_servers.docs]\ncommand = \"x\"\nurl = \"https://example.com/mcp\"\n"),
        "/p/.wright/config.toml:3:7: `mcp_servers.docs.command` and \
         `mcp_servers.docs.url` cannot both be set"
    );
    assert!(
        err("[mcp_servers.docs]\nurl = \"ftp://example.com\"\n")
            .contains("expected an http:// or https:// URL")
    );
}

#[test]
fn http_headers_are_headers_and_both_at_once_are_an_error() {
    assert_eq!(
        transport_of(
            "[mcp_servers.docs]\nurl = \"https://example.com/mcp\"\n\
             http_headers = { \"X-Client\" = \"wright\" }\n"
        ),
        McpTransport::Http {
            url: "https://example.com/mcp".into(),
            headers: map(&[("X-Client", "wright")]),
        }
    );
    assert_eq!(
        err("[mcp_servers.docs]\nurl = \"https://example.com/mcp\"\n\
             headers = { A = \"1\" }\nhttp_headers = { B = \"2\" }\n"),
        "/p/.wright/config.toml:4:16: `mcp_servers.docs.headers` and \
         `mcp_servers.docs.http_headers` cannot both be set"
    );
    assert!(
        err("[mcp_servers.gh]\ncommand = \"x\"\nhttp_headers = { A = \"1\" }\n")
            .contains("`http_headers` is for type = \"http\" or \"sse\"")
    );
    assert!(
        err("[mcp_servers.gh]\nurl = \"https://x\"\nhttp_headers = { A = 1 }\n")
            .contains("`mcp_servers.gh.http_headers.A`")
    );
}

#[test]
fn enabled_false_leaves_the_server_out() {
    let got = servers_of(
        "[mcp_servers.off]\ncommand = \"x\"\nenabled = false\ncwd = \"/tmp\"\n\
         [mcp_servers.on]\ncommand = \"y\"\nenabled = true\n",
    );
    let names: Vec<&str> = got.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["on"]);
    // A switched-off server's other settings are not reported.
    assert!(
        layer("[mcp_servers.off]\ncommand = \"x\"\nenabled = false\ncwd = \"/tmp\"\n")
            .not_applied
            .is_empty()
    );
    // A file whose only server is off sets no servers at all.
    assert!(servers_of("[mcp_servers.off]\nurl = \"https://x\"\nenabled = false\n").is_empty());
    // Still checked.
    assert!(
        err("[mcp_servers.off]\nenabled = false\nargs = [\"x\"]\n")
            .contains("missing `mcp_servers.off.command`")
    );
    assert!(
        err("[mcp_servers.off]\ncommand = \"x\"\nenabled = \"no\"\n")
            .contains("expected true or false")
    );
}

#[test]
fn bearer_token_env_var_becomes_an_authorization_header() {
    assert_eq!(
        transport_of(
            "[mcp_servers.gh]\nurl = \"https://api.example.com/mcp\"\n\
             bearer_token_env_var = \"GH_PAT\"\n"
        ),
        McpTransport::Http {
            url: "https://api.example.com/mcp".into(),
            headers: map(&[("Authorization", "Bearer ${GH_PAT}")]),
        }
    );
    assert_eq!(
        err("[mcp_servers.gh]\nurl = \"https://x\"\n\
             http_headers = { authorization = \"Bearer x\" }\nbearer_token_env_var = \"T\"\n"),
        "/p/.wright/config.toml:4:24: `mcp_servers.gh.http_headers.authorization` and \
         `mcp_servers.gh.bearer_token_env_var` cannot both be set"
    );
    assert!(
        err("[mcp_servers.gh]\nurl = \"https://x\"\nbearer_token_env_var = \"A-B\"\n")
            .contains("expected a variable name of letters, digits and `_`")
    );
    assert!(
        err("[mcp_servers.gh]\ncommand = \"x\"\nbearer_token_env_var = \"T\"\n")
            .contains("`bearer_token_env_var` is for type = \"http\" or \"sse\"")
    );
}

#[test]
fn env_vars_are_checked_and_need_no_entries() {
    assert_eq!(
        transport_of(
            "[mcp_servers.gh]\ncommand = \"x\"\nenv_vars = [\"HOME_DIR\", \"TOKEN\"]\n\
             env = { TOKEN = \"fixed\" }\n"
        ),
        McpTransport::Stdio {
            command: "x".into(),
            args: Vec::new(),
            // Inherited from wright's environment: no entry for HOME_DIR.
            env: map(&[("TOKEN", "fixed")]),
        }
    );
    assert!(
        err("[mcp_servers.gh]\ncommand = \"x\"\nenv_vars = [\"A=B\"]\n")
            .contains("expected variable names of letters, digits and `_`")
    );
    assert!(
        err("[mcp_servers.gh]\nurl = \"https://x\"\nenv_vars = [\"A\"]\n")
            .contains("only a stdio server runs a command")
    );
    assert!(
        err("[mcp_servers.gh]\ncommand = \"x\"\nenv_vars = \"A\"\n")
            .contains("expected an array of strings")
    );
}

#[test]
fn codex_settings_wright_does_not_apply_are_accepted_and_noted() {
    for (text, key) in [
        ("startup_timeout_sec = 20", "startup_timeout_sec"),
        ("startup_timeout_sec = 7.5", "startup_timeout_sec"),
        ("startup_timeout_ms = 20000", "startup_timeout_ms"),
        ("tool_timeout_sec = 45", "tool_timeout_sec"),
        ("cwd = \"/srv\"", "cwd"),
        ("enabled_tools = [\"open\"]", "enabled_tools"),
        ("disabled_tools = [\"screenshot\"]", "disabled_tools"),
    ] {
        let l = layer(&format!("[mcp_servers.gh]\ncommand = \"x\"\n{text}\n"));
        assert_eq!(l.not_applied, [format!("mcp_servers.gh.{key}")], "{text}");
        assert_eq!(
            transport_of(&format!("[mcp_servers.gh]\ncommand = \"x\"\n{text}\n")),
            McpTransport::Stdio {
                command: "x".into(),
                args: Vec::new(),
                env: BTreeMap::new(),
            }
        );
    }
    assert_eq!(
        codex_warning("mcp_servers.gh.startup_timeout_sec"),
        "mcp_servers.gh.startup_timeout_sec is a Codex setting wright does not apply \
         (per-server startup timeout; wright waits mcp.startup_timeout_secs for every server); \
         it is ignored"
    );
    assert!(
        codex_warning("mcp_servers.gh.disabled_tools").contains("\"mcp__gh__TOOL\""),
        "{}",
        codex_warning("mcp_servers.gh.disabled_tools")
    );
    assert!(
        err("[mcp_servers.gh]\ncommand = \"x\"\nstartup_timeout_sec = \"20\"\n")
            .contains("`mcp_servers.gh.startup_timeout_sec`: expected a number of seconds")
    );
    assert!(
        err("[mcp_servers.gh]\ncommand = \"x\"\nstartup_timeout_ms = 1.5\n")
            .contains("expected a whole number of milliseconds")
    );
    assert!(
        err("[mcp_servers.gh]\ncommand = \"x\"\nenabled_tools = \"open\"\n")
            .contains("expected an array of strings")
    );
    // Other keys, Codex's included, are still mistakes.
    assert_eq!(
        err("[mcp_servers.gh]\nurl = \"https://x\"\nrequired = true\n")
            .split(" (expected")
            .next(),
        Some("/p/.wright/config.toml:3:1: unknown key `mcp_servers.gh.required`")
    );
    assert!(
        err("[mcp_servers.gh]\nurl = \"https://x\"\n[mcp_servers.gh.tools.open]\n")
            .contains("unknown key `mcp_servers.gh.tools`")
    );
}

/// A block as written for `~/.codex/config.toml`.
const CODEX_BLOCK: &str = r#"
[mcp_servers.context7]
command = "npx"
args = ["-y", "@upstash/context7-mcp"]
env = { "MY_ENV_VAR" = "MY_ENV_VALUE" }
env_vars = ["HTTPS_PROXY"]
startup_timeout_sec = 20
tool_timeout_sec = 45
cwd = "/Users/me/code"
enabled = true

[mcp_servers.figma]
url = "https://mcp.figma.com/mcp"
bearer_token_env_var = "FIGMA_OAUTH_TOKEN"
http_headers = { "X-Figma-Region" = "us-east-1" }
enabled_tools = ["open", "screenshot"]
disabled_tools = ["screenshot"]

[mcp_servers.old]
command = "old-server"
enabled = false
"#;

#[test]
fn a_pasted_codex_block_loads() {
    let l = layer(CODEX_BLOCK);
    let source = Source::File(FILE.into());
    assert_eq!(
        l.assigns,
        vec![Assign::McpServers(vec![
            McpServerSetting {
                name: "context7".into(),
                transport: McpTransport::Stdio {
                    command: "npx".into(),
                    args: vec!["-y".into(), "@upstash/context7-mcp".into()],
                    env: map(&[("MY_ENV_VAR", "MY_ENV_VALUE")]),
                },
                source: source.clone(),
            },
            McpServerSetting {
                name: "figma".into(),
                transport: McpTransport::Http {
                    url: "https://mcp.figma.com/mcp".into(),
                    headers: map(&[
                        ("Authorization", "Bearer ${FIGMA_OAUTH_TOKEN}"),
                        ("X-Figma-Region", "us-east-1"),
                    ]),
                },
                source,
            },
        ])]
    );
    assert_eq!(
        l.not_applied,
        [
            "mcp_servers.context7.startup_timeout_sec",
            "mcp_servers.context7.tool_timeout_sec",
            "mcp_servers.context7.cwd",
            "mcp_servers.figma.enabled_tools",
            "mcp_servers.figma.disabled_tools",
        ]
    );
}

#[test]
fn codex_settings_not_applied_are_warned_about_and_shown() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user");
    let root = tmp.path().join("proj");
    std::fs::create_dir_all(root.join(".wright")).unwrap();
    std::fs::create_dir_all(&user).unwrap();
    std::fs::write(user.join("config.toml"), CODEX_BLOCK).unwrap();
    std::fs::write(
        root.join(".wright/config.toml"),
        "[mcp_servers.theirs]\ncommand = \"evil\"\ncwd = \"/\"\n",
    )
    .unwrap();
    let loader = crate::ConfigLoader {
        user_config_dir: Some(user.clone()),
        project_root: root.clone(),
        env: Default::default(),
    };
    let mut r = loader.load(&crate::Overrides::default()).unwrap();
    let names: Vec<&str> = r
        .settings
        .mcp_servers
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, ["context7", "figma"]);
    // Trust is unchanged: the project's server is held back, its Codex
    // setting still reported.
    let held: Vec<&str> = r.held_mcp_servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(held, ["theirs"]);
    assert!(r.has_untrusted_ignored());
    assert!(
        r.warnings()[0].contains("untrusted project"),
        "{:?}",
        r.warnings()
    );
    let user_file = user.join("config.toml");
    let project_file = root.join(".wright/config.toml");
    let codex: Vec<String> = r
        .warnings()
        .into_iter()
        .filter(|w| w.contains("Codex"))
        .collect();
    assert_eq!(codex.len(), 6, "{codex:?}");
    assert_eq!(
        codex[0],
        format!(
            "warning: {}: mcp_servers.context7.startup_timeout_sec is a Codex setting wright \
             does not apply (per-server startup timeout; wright waits \
             mcp.startup_timeout_secs for every server); it is ignored",
            user_file.display()
        )
    );
    assert!(codex[2].contains("mcp_servers.context7.cwd is a Codex setting"));
    assert!(
        codex[5].starts_with(&format!(
            "warning: {}: mcp_servers.theirs.cwd",
            project_file.display()
        )),
        "{}",
        codex[5]
    );
    // Approving the held server by name does not hide what it ignores.
    r.release_mcp_server("theirs");
    assert!(
        r.warnings()
            .iter()
            .any(|w| w.contains("mcp_servers.theirs.cwd"))
    );
    assert!(!r.has_untrusted_ignored());

    let text = r.render();
    assert!(
        text.contains(&format!(
            "mcp_servers.figma = {{ type = \"http\", url = \"https://mcp.figma.com/mcp\", \
             headers = {{ Authorization = \"(hidden)\", X-Figma-Region = \"(hidden)\" }} }}  # {}",
            user_file.display()
        )),
        "{text}"
    );
    assert!(
        text.contains("env = { MY_ENV_VAR = \"(hidden)\" }"),
        "{text}"
    );
    assert!(!text.contains("FIGMA_OAUTH_TOKEN") && !text.contains("MY_ENV_VALUE"));
    assert!(
        text.contains(&format!(
            "# ignored: mcp_servers.figma.disabled_tools  # {} (a Codex setting wright does not apply)",
            user_file.display()
        )),
        "{text}"
    );
    let entry = r
        .entries()
        .into_iter()
        .find(|e| e.key == "mcp_servers")
        .unwrap();
    let json = serde_json::to_string(&entry).unwrap();
    assert!(json.contains("\"reason\":\"codex-setting\""), "{json}");
}
