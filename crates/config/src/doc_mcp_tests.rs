//! `[mcp]` and `[mcp_servers]` parsed from file text, and how an untrusted
//! project's servers are held back.

use std::collections::BTreeMap;
use std::path::Path;

use super::*;
use crate::file::parse_file;
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
         (expected one of: type, command, args, env, url, headers)"
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
    assert!(err("[mcp_servers.gh]\nurl = \"http://x\"\n").contains("needs type = \"http\""));
    assert!(
        err("[mcp_servers.gh]\ntype = \"http\"\nurl = \"ftp://x\"\n")
            .contains("expected an http:// or https:// URL")
    );
    assert!(
        err("[mcp_servers.gh]\ntype = \"http\"\nurl = \"http://x\"\ncommand = \"y\"\n")
            .contains("only a stdio server runs a command")
    );
    assert!(err("[mcp_servers.gh]\ntype = \"ws\"\n").contains("expected one of: stdio, http, sse"));
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
