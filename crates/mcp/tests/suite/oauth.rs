//! OAuth login against the loopback mock: the browser is a task that GETs
//! the authorization URL and follows the mock's redirect to the loopback
//! redirect URI.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use wright_mcp::auth::{self, BrowserOpener, LoginOptions, TokenStore};
use wright_mcp::{
    ConfigSource, McpError, McpManager, McpServer, McpServerConfig, ServerStatus, StartOptions,
};

use wright_test_support::oauth_server::OAuthServer;

use super::quick_options;

fn http_server(name: &str, url: &str) -> McpServer {
    McpServer {
        name: name.into(),
        config: McpServerConfig::Http {
            url: url.into(),
            headers: BTreeMap::new(),
        },
        source: ConfigSource::CommandLine,
    }
}

/// A "browser" that follows the authorization server's redirect to the
/// loopback listener, optionally replacing `state`; `opens` is what it
/// reports about opening.
fn browser(forge_state: bool, opens: bool) -> BrowserOpener {
    Box::new(move |url: &str| {
        let url = url.to_owned();
        tokio::spawn(async move {
            let client = reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap();
            let answer = client.get(&url).send().await.unwrap();
            assert_eq!(answer.status(), 302, "the mock refused {url}");
            let mut location =
                reqwest::Url::parse(answer.headers()["location"].to_str().unwrap()).unwrap();
            if forge_state {
                let kept: Vec<(String, String)> = location
                    .query_pairs()
                    .filter(|(k, _)| k != "state")
                    .map(|(k, v)| (k.into_owned(), v.into_owned()))
                    .collect();
                location
                    .query_pairs_mut()
                    .clear()
                    .extend_pairs(kept)
                    .append_pair("state", "forged");
            }
            let _ = client.get(location).send().await;
        });
        if opens {
            Ok(())
        } else {
            Err("no display".to_owned())
        }
    })
}

fn options(browser: BrowserOpener) -> LoginOptions {
    LoginOptions {
        open_browser: browser,
        ..LoginOptions::default()
    }
}

fn store_in(dir: &Path) -> TokenStore {
    TokenStore::new(dir.join("wright").join("mcp-auth"))
}

async fn start_with(server: McpServer, store: &TokenStore) -> McpManager {
    let options = StartOptions {
        auth_store: Some(store.clone()),
        ..quick_options()
    };
    McpManager::start(vec![server], options).await
}

fn failure(manager: &McpManager) -> String {
    match &manager.statuses()[0].status {
        ServerStatus::Failed { reason } => reason.clone(),
        other => panic!("expected a failure, got {other:?}"),
    }
}

fn read_record(store: &TokenStore, name: &str, url: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(store.path_for(name, url)).unwrap()).unwrap()
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_connect_refresh_and_logout() {
    let mock = OAuthServer::start().await.unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let store = store_in(tmp.path());
    let server = http_server("web", &mock.mcp_url);

    // Before logging in: the 401 says what to do.
    let mcp = start_with(server.clone(), &store).await;
    let reason = failure(&mcp);
    assert!(reason.starts_with(&auth::needs_login("web")), "{reason}");
    assert!(reason.contains("wright mcp login web"), "{reason}");
    assert!(reason.contains(wright_mcp::AUTH_REQUIRED), "{reason}");

    // The browser cannot be "opened", but the URL went to the caller and the
    // redirect still completes the login.
    let outcome = auth::login(&server, &store, options(browser(false, false)))
        .await
        .unwrap();
    assert!(!outcome.browser_opened);
    assert_eq!(outcome.scopes, vec!["mcp".to_owned()]);
    assert_eq!(outcome.expires_in, Some(Duration::from_secs(3600)));
    assert!(outcome.refreshable);
    assert_eq!(outcome.token_file, store.path_for("web", &mock.mcp_url));
    assert!(store.has_token("web", &mock.mcp_url));
    #[cfg(unix)]
    {
        assert_eq!(mode(&outcome.token_file), 0o600);
        assert_eq!(mode(store.dir()), 0o700);
    }
    let record = read_record(&store, "web", &mock.mcp_url);
    let first = record["credentials"]["token_response"]["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    // Nothing about the login shows a token.
    let shown = format!("{outcome:?} {store:?} {:?}", options(browser(false, true)));
    assert!(!shown.contains("at-") && !shown.contains("rt-"), "{shown}");

    // Connecting sends the stored token.
    let mcp = start_with(server.clone(), &store).await;
    assert!(
        matches!(mcp.statuses()[0].status, ServerStatus::Connected { .. }),
        "{:?}",
        mcp.statuses()[0].status
    );
    let echo = mcp
        .call(
            "mcp__web__echo",
            json!({"text": "authorized"}),
            Duration::from_secs(30),
            &CancellationToken::new(),
            None,
        )
        .await
        .unwrap();
    assert_eq!(echo.text, "authorized");
    mcp.shutdown().await;
    let bearer_first = format!("Bearer {first}");
    assert!(
        mock.seen_authorization()
            .iter()
            .any(|h| h.as_deref() == Some(bearer_first.as_str()))
    );

    // An expired token is refreshed on connect and the new one saved.
    let mut record = read_record(&store, "web", &mock.mcp_url);
    record["credentials"]["token_received_at"] = json!(1);
    std::fs::write(store.path_for("web", &mock.mcp_url), record.to_string()).unwrap();
    let mcp = start_with(server.clone(), &store).await;
    assert!(
        matches!(mcp.statuses()[0].status, ServerStatus::Connected { .. }),
        "{:?}",
        mcp.statuses()[0].status
    );
    mcp.shutdown().await;
    assert_eq!(mock.refreshes(), 1);
    let refreshed = read_record(&store, "web", &mock.mcp_url);
    let second = refreshed["credentials"]["token_response"]["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(first, second);
    assert_ne!(refreshed["credentials"]["token_received_at"], json!(1));
    let bearer_second = format!("Bearer {second}");
    assert!(
        mock.seen_authorization()
            .iter()
            .any(|h| h.as_deref() == Some(bearer_second.as_str()))
    );
    #[cfg(unix)]
    assert_eq!(mode(&store.path_for("web", &mock.mcp_url)), 0o600);

    // Logout forgets it; the server needs a login again.
    assert!(auth::logout("web", &store).unwrap());
    assert!(!store.path_for("web", &mock.mcp_url).exists());
    assert!(!auth::logout("web", &store).unwrap());
    let mcp = start_with(server, &store).await;
    assert!(failure(&mcp).starts_with(&auth::needs_login("web")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_with_another_state_is_rejected() {
    let mock = OAuthServer::start().await.unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let store = store_in(tmp.path());
    let server = http_server("web", &mock.mcp_url);
    let err = auth::login(&server, &store, options(browser(true, true)))
        .await
        .unwrap_err();
    let McpError::Auth {
        server: name,
        message,
    } = &err
    else {
        panic!("{err:?}");
    };
    assert_eq!(name, "web");
    assert!(message.contains("state did not match"), "{message}");
    // The error names no code, and nothing was stored.
    assert!(!format!("{err} {err:?}").contains("code-"));
    assert!(!store.has_token("web", &mock.mcp_url));
    assert!(!store.path_for("web", &mock.mcp_url).exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_for_one_url_is_not_sent_to_another() {
    let a = OAuthServer::start().await.unwrap();
    let b = OAuthServer::start().await.unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let store = store_in(tmp.path());
    auth::login(
        &http_server("web", &a.mcp_url),
        &store,
        options(browser(false, true)),
    )
    .await
    .unwrap();

    // Same name, another URL: no token goes out, and it needs its own login.
    let mcp = start_with(http_server("web", &b.mcp_url), &store).await;
    assert!(failure(&mcp).starts_with(&auth::needs_login("web")));
    let seen = b.seen_authorization();
    assert!(!seen.is_empty());
    assert!(seen.iter().all(Option::is_none), "{seen:?}");
    assert!(!store.has_token("web", &b.mcp_url));
    assert!(store.has_token("web", &a.mcp_url));
}

#[tokio::test]
async fn login_refuses_servers_it_cannot_log_in_to() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store_in(tmp.path());
    let stdio = McpServer {
        name: "local".into(),
        config: McpServerConfig::Stdio {
            command: "true".into(),
            args: Vec::new(),
            env: BTreeMap::new(),
        },
        source: ConfigSource::CommandLine,
    };
    let err = auth::login(&stdio, &store, LoginOptions::default())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("only HTTP servers"), "{err}");
    let mut with_header = http_server("hdr", "http://127.0.0.1:9/mcp");
    if let McpServerConfig::Http { headers, .. } = &mut with_header.config {
        headers.insert("Authorization".into(), "Bearer mine".into());
    }
    let err = auth::login(&with_header, &store, LoginOptions::default())
        .await
        .unwrap_err();
    assert!(!err.to_string().contains("mine"), "{err}");
    assert!(auth::logout("../evil", &store).is_err());
}
