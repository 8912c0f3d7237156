//! `wright mcp login|logout` end to end through the real binary, against the
//! loopback OAuth authorization server + bearer-protected MCP server of
//! `wright_test_support::oauth_server`: before logging in `mcp list` says
//! the server needs a login (`needs-auth`); `mcp login` prints the authorization URL (no
//! browser on the test machine), the test plays the browser and follows the
//! redirect to wright's loopback listener, and the login stores a 0600 token
//! file whose tokens never show in any output; afterwards the server
//! connects, the model can call its tools in a `-p` run, and `mcp logout`
//! forgets the tokens so the server needs a login again.

use std::io::{BufRead as _, BufReader, Read as _};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use serde_json::{Value, json};
use wright_test_support::oauth_server::{OAuthServer, browse};
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, assert_clean, stderr, stdout};

/// `--mcp-config` with the OAuth server as the HTTP server `web`.
fn mcp_flags(oauth: &OAuthServer) -> [String; 2] {
    let config = json!({"mcpServers": {"web": {"type": "http", "url": oauth.mcp_url}}});
    ["--mcp-config".to_owned(), config.to_string()]
}

/// `$XDG_DATA_HOME/wright/mcp-auth` of `env`.
fn token_dir(env: &Env) -> PathBuf {
    env.home.path().join(".local/share/wright/mcp-auth")
}

/// The files in the token directory (none when it does not exist).
fn token_files(env: &Env) -> Vec<PathBuf> {
    match std::fs::read_dir(token_dir(env)) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    }
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// `wright mcp list --json`: the entry of `web`, and the raw output.
fn list_web(env: &Env, flags: &[String]) -> (Value, Output) {
    let out = env
        .wright()
        .args(["mcp", "list", "--json"])
        .args(flags)
        .output()
        .unwrap();
    assert_clean(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let web = v["servers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "web")
        .unwrap_or_else(|| panic!("web not listed: {v}"))
        .clone();
    (web, out)
}

fn assert_needs_login(web: &Value) {
    // A failed start whose reason is the 401: Claude Code's `needs-auth`.
    assert_eq!(web["status"], "needs-auth", "{web}");
    let reason = web["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("needs login: run `wright mcp login web`"),
        "{web}"
    );
    assert_eq!(web["tools"], json!([]), "{web}");
}

/// Runs `wright mcp login web` and plays the browser: reads stderr up to
/// the authorization URL, follows it to the loopback redirect URI, then
/// waits for the process. Returns its output (all of stderr), the URL and
/// the redirect the browser followed.
fn login(env: &Env, flags: &[String]) -> (Output, String, String) {
    let mut child = env
        .std_wright()
        .args(["mcp", "login", "web"])
        .args(flags)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut shown = String::new();
    let mut prompted = false;
    let url = loop {
        let mut line = String::new();
        if err.read_line(&mut line).unwrap() == 0 {
            let out = child.wait_with_output().unwrap();
            panic!(
                "login ended ({}) before showing a URL: {shown}{}",
                out.status,
                stdout(&out)
            );
        }
        shown.push_str(&line);
        if line.trim_end() == "Open this URL to authorize wright:" {
            prompted = true;
        } else if prompted {
            break line.trim().to_owned();
        }
    };
    let visit = browse(&url).unwrap();
    assert_eq!(
        visit.callback.status, 200,
        "the loopback listener answered {visit:?}"
    );
    err.read_to_string(&mut shown).unwrap();
    let mut out = child.wait_with_output().unwrap();
    out.stderr = shown.into_bytes();
    (out, url, visit.redirect)
}

#[test]
fn login_connects_the_server_its_tools_reach_the_model_and_logout_forgets() {
    let oauth = OAuthServer::start_blocking().unwrap();
    let env = Env::new();
    let flags = mcp_flags(&oauth);

    // Before logging in: failed, and the reason says what to run.
    let (web, _) = list_web(&env, &flags);
    assert_needs_login(&web);
    assert!(token_files(&env).is_empty());
    assert!(oauth.issued_tokens().is_empty());

    // The login: the URL is an S256 authorization request to the server's
    // authorization endpoint, redirecting to a loopback listener.
    let (out, url, redirect) = login(&env, &flags);
    assert_clean(&out);
    let (out_text, err_text) = (stdout(&out), stderr(&out));
    assert!(
        out.status.success(),
        "login failed ({}):\n{out_text}\n{err_text}",
        out.status
    );
    assert!(
        url.starts_with(&format!("{}/authorize?", oauth.base_url)),
        "{url}"
    );
    assert!(url.contains("code_challenge_method=S256"), "{url}");
    assert!(
        url.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"),
        "{url}"
    );
    assert!(
        redirect.starts_with("http://127.0.0.1:") && redirect.contains("/callback?code="),
        "{redirect}"
    );
    assert!(
        err_text.contains(&format!("Logging in to MCP server web ({})", oauth.mcp_url)),
        "{err_text}"
    );
    assert_eq!(oauth.registered_clients(), 1);

    // One 0600 token file in a 0700 directory under the data dir, named
    // on stdout.
    let files = token_files(&env);
    assert_eq!(files.len(), 1, "{files:?}");
    let file = &files[0];
    assert_eq!(mode(file), 0o600);
    assert_eq!(mode(&token_dir(&env)), 0o700);
    assert!(
        out_text.contains("Logged in to web at ")
            && out_text.contains(&oauth.mcp_url)
            && out_text.contains(&file.display().to_string()),
        "{out_text}"
    );
    assert!(out_text.contains("refreshed when it expires"), "{out_text}");

    // The tokens (and the code) are in the file, never in the output.
    let record = std::fs::read_to_string(file).unwrap();
    let issued = oauth.issued_tokens();
    assert_eq!(issued.len(), 2, "{issued:?}");
    for token in &issued {
        assert!(record.contains(&format!("\"{token}\"")), "{token} not kept");
    }
    let code = redirect
        .split(['?', '&'])
        .find_map(|p| p.strip_prefix("code="))
        .unwrap()
        .to_owned();
    let no_secrets = |what: &str, text: &str| {
        assert!(!text.contains(&record), "{what} shows the token file");
        for secret in issued.iter().chain([&code]) {
            assert!(!text.contains(secret.as_str()), "{what} shows {secret}");
        }
    };
    no_secrets("login stdout", &out_text);
    no_secrets("login stderr", &err_text);

    // Logged in: connected with the test server's tools, sending the token.
    let (web, listed) = list_web(&env, &flags);
    assert_eq!(web["status"], "connected", "{web}");
    let tools = web["tools"].as_array().unwrap();
    assert!(tools.contains(&json!("mcp__web__echo")), "{web}");
    no_secrets("mcp list stdout", &stdout(&listed));
    no_secrets("mcp list stderr", &stderr(&listed));
    let bearer = format!("Bearer {}", issued[0]);
    assert!(
        oauth
            .seen_authorization()
            .iter()
            .any(|h| h.as_deref() == Some(bearer.as_str()))
    );

    // A `-p` run: the model calls the server's tool and gets its answer.
    let script = vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "mcp__web__echo",
            json!({"text": "hello through OAuth"}),
        )])),
        MockResponse::sse(anthropic::text("done")),
    ];
    let model = MockServer::start(script).unwrap();
    let out = env
        .wright_p("anthropic", &model.url(), "use the web server")
        .args(&flags)
        .args(["--allow", "mcp__web"])
        .output()
        .unwrap();
    assert_clean(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "done");
    no_secrets("-p stdout", &stdout(&out));
    no_secrets("-p stderr", &stderr(&out));
    let requests = model.requests();
    assert_eq!(requests.len(), 2);
    let offered = requests[0].json()["tools"].clone();
    assert!(
        offered
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "mcp__web__echo"),
        "{offered}"
    );
    let body = requests[1].json();
    let results = body["messages"].as_array().unwrap().last().unwrap()["content"].clone();
    assert_eq!(results[0]["tool_use_id"], "c1", "{results}");
    assert_eq!(results[0]["content"], "hello through OAuth", "{results}");
    for request in &requests {
        no_secrets("a model request", &request.body_text());
    }

    // Logout forgets the tokens; the server needs a login again.
    let out = env
        .wright()
        .args(["mcp", "logout", "web"])
        .output()
        .unwrap();
    assert_clean(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "Forgot the tokens of MCP server web.");
    assert!(token_files(&env).is_empty(), "{:?}", token_files(&env));
    let (web, _) = list_web(&env, &flags);
    assert_needs_login(&web);
    let out = env
        .wright()
        .args(["mcp", "logout", "web"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).trim(),
        "No tokens were stored for MCP server web."
    );
}
