//! OAuth for streamable-HTTP servers: [`login`] (discovery, dynamic client
//! registration, authorization code + PKCE through the browser and a
//! loopback redirect, token exchange), [`logout`], the [`TokenStore`] they
//! keep tokens in, and the authorized HTTP client a connection uses when a
//! token is stored (rmcp's `AuthClient`: bearer header, refresh of an
//! expired token, the refreshed token saved back).
//!
//! The protocol work is rmcp's `AuthorizationManager`; this module decides
//! what is stored where, drives the browser step and words the errors.
//! Nothing here logs or formats a token.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use rmcp::transport::auth::{
    AuthClient, AuthError, AuthorizationManager, AuthorizationRequest, AuthorizationSession,
    OAuthClientConfig, StoredCredentials,
};

use crate::auth_callback::{self, CALLBACK_PATH, Callback};
pub use crate::auth_store::TokenStore;
use crate::auth_store::{FileCredentialStore, RECORD_VERSION, TokenRecord};
use crate::config::{McpServer, McpServerConfig, validate_server_name};
use crate::error::McpError;

/// A server's status when it answered 401 and no usable token is stored;
/// `NAME` stands for the server's name (see [`needs_login`]).
pub const NEEDS_LOGIN: &str = "needs login: run `wright mcp login NAME`";

/// [`NEEDS_LOGIN`] for `server`.
pub fn needs_login(server: &str) -> String {
    NEEDS_LOGIN.replace("NAME", server)
}

/// The client name wright registers under (dynamic client registration).
const CLIENT_NAME: &str = "wright";

/// Opens a URL in the user's browser; `Err` says why it could not.
pub type BrowserOpener = Box<dyn Fn(&str) -> Result<(), String> + Send + Sync>;

/// How [`login`] reaches the user.
pub struct LoginOptions {
    /// Opens the authorization URL in a browser. An `Err` is not fatal: the
    /// login keeps waiting, and the caller (which got the URL) prints it.
    pub open_browser: BrowserOpener,
    /// The longest wait for the browser's redirect.
    pub timeout: Duration,
    /// The loopback port of the redirect URI; 0 picks a free one.
    pub redirect_port: u16,
}

impl Default for LoginOptions {
    fn default() -> Self {
        Self {
            open_browser: Box::new(|_| Err("no browser opener configured".to_owned())),
            timeout: Duration::from_secs(5 * 60),
            redirect_port: 0,
        }
    }
}

impl fmt::Debug for LoginOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LoginOptions")
            .field("timeout", &self.timeout)
            .field("redirect_port", &self.redirect_port)
            .finish_non_exhaustive()
    }
}

/// A completed login (no secrets: the tokens stay in the store).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginOutcome {
    /// The server's name.
    pub server: String,
    /// The URL the token is bound to.
    pub url: String,
    /// The file holding the token.
    pub token_file: PathBuf,
    /// The scopes granted.
    pub scopes: Vec<String>,
    /// The access token's lifetime as issued, when the server said.
    pub expires_in: Option<Duration>,
    /// Whether a refresh token was issued (else the login lasts as long as
    /// the access token).
    pub refreshable: bool,
    /// Whether `open_browser` reported success.
    pub browser_opened: bool,
}

/// Runs the browser login for an HTTP server and stores its tokens: the
/// server's OAuth metadata (RFC 9728 protected resource metadata, RFC 8414
/// authorization server metadata), dynamic client registration, the
/// authorization URL (PKCE S256) handed to `open_browser`, the redirect to
/// 127.0.0.1 (its `state` checked), the token exchange.
pub async fn login(
    server: &McpServer,
    store: &TokenStore,
    options: LoginOptions,
) -> Result<LoginOutcome, McpError> {
    let fail = |message: String| McpError::Auth {
        server: server.name.clone(),
        message,
    };
    validate_server_name(&server.name).map_err(fail)?;
    let url = match &server.config {
        McpServerConfig::Http { url, headers } => {
            if headers
                .keys()
                .any(|k| k.eq_ignore_ascii_case("authorization"))
            {
                return Err(fail(
                    "its configuration sets an Authorization header; remove it to log in with OAuth"
                        .to_owned(),
                ));
            }
            url.clone()
        }
        McpServerConfig::Stdio { .. } => {
            return Err(fail(
                "only HTTP servers log in (this one is stdio)".to_owned(),
            ));
        }
        McpServerConfig::Sse { .. } => {
            return Err(fail(
                "the legacy SSE transport is not supported; use \"type\": \"http\"".to_owned(),
            ));
        }
        McpServerConfig::Sdk => {
            return Err(fail(
                "only HTTP servers log in (this one runs in the program driving wright)".to_owned(),
            ));
        }
    };
    crate::tls::install_crypto_provider();

    let listener = auth_callback::bind(options.redirect_port)
        .await
        .map_err(|e| fail(format!("cannot listen on 127.0.0.1 for the redirect: {e}")))?;
    let port = listener
        .local_addr()
        .map_err(|e| fail(format!("cannot listen on 127.0.0.1 for the redirect: {e}")))?
        .port();
    let redirect_uri = format!("http://127.0.0.1:{port}{CALLBACK_PATH}");

    let mut manager = AuthorizationManager::new(url.as_str())
        .await
        .map_err(|e| fail(describe(&e)))?;
    let resolution = manager
        .resolve_metadata()
        .await
        .map_err(|e| fail(format!("OAuth discovery failed: {}", describe(&e))))?;
    if !resolution.source.is_discovered() {
        // rmcp would guess /authorize and /token; a server that publishes
        // nothing has given no sign that it does OAuth at all.
        return Err(fail(
            "the server publishes no OAuth metadata (RFC 9728 / RFC 8414), so it cannot be logged in to"
                .to_owned(),
        ));
    }
    let metadata = resolution.metadata;
    if metadata.registration_endpoint.is_none() {
        return Err(fail(
            "its authorization server does not offer dynamic client registration, \
             which wright needs to log in"
                .to_owned(),
        ));
    }
    manager.set_metadata(metadata.clone());
    let scopes = manager.select_initial_scopes(&[]).await;
    let scope_refs: Vec<&str> = scopes.iter().map(String::as_str).collect();
    // Registered here rather than inside the session so the client secret,
    // when a server issues one anyway, can be kept for refreshes.
    let client = manager
        .register_client(CLIENT_NAME, &redirect_uri, &scope_refs)
        .await
        .map_err(|e| fail(format!("client registration failed: {}", describe(&e))))?;
    manager.set_credential_store(FileCredentialStore::new(
        store.clone(),
        TokenRecord {
            version: RECORD_VERSION,
            server: server.name.clone(),
            url: url.clone(),
            metadata,
            client_secret: client.client_secret.clone(),
            credentials: StoredCredentials::new(client.client_id.clone(), None, Vec::new(), None),
        },
    ));
    let mut request = AuthorizationRequest::new(redirect_uri)
        .with_client_name(CLIENT_NAME)
        .with_preregistered_client(client.client_id.clone())
        .with_scopes(scopes);
    if let Some(secret) = client.client_secret {
        request = request.with_client_secret(secret);
    }
    let session = AuthorizationSession::new(manager, request)
        .await
        .map_err(|(_, e)| fail(format!("cannot start the authorization: {}", describe(&e))))?;
    let state = reqwest::Url::parse(session.get_authorization_url())
        .ok()
        .and_then(|u| {
            u.query_pairs()
                .find(|(k, _)| k == "state")
                .map(|(_, v)| v.into_owned())
        })
        .ok_or_else(|| fail("the authorization URL carries no state".to_owned()))?;

    let browser_opened = (options.open_browser)(session.get_authorization_url()).is_ok();
    let callback = tokio::time::timeout(
        options.timeout,
        auth_callback::wait_for_callback(listener, &state),
    )
    .await
    .map_err(|_| {
        fail(format!(
            "no redirect from the browser within {} s",
            options.timeout.as_secs()
        ))
    })?;
    let (code, issuer) = match callback {
        Callback::Code { code, issuer } => (code, issuer),
        Callback::Denied(reason) => {
            return Err(fail(format!(
                "the authorization server refused the login: {reason}"
            )));
        }
        Callback::StateMismatch => {
            return Err(fail(
                "the redirect's state did not match this login (a forged or stale redirect); \
                 login aborted"
                    .to_owned(),
            ));
        }
    };
    // Saves the tokens through the FileCredentialStore.
    let token = session
        .handle_callback_with_issuer(&code, &state, issuer.as_deref())
        .await
        .map_err(|e| fail(format!("the token exchange failed: {}", describe(&e))))?;
    let token = serde_json::to_value(&token).unwrap_or_default();
    Ok(LoginOutcome {
        server: server.name.clone(),
        token_file: store.path_for(&server.name, &url),
        url,
        scopes: token
            .get("scope")
            .and_then(serde_json::Value::as_str)
            .map(|s| s.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default(),
        expires_in: token
            .get("expires_in")
            .and_then(serde_json::Value::as_u64)
            .map(Duration::from_secs),
        refreshable: token.get("refresh_token").is_some_and(|t| !t.is_null()),
        browser_opened,
    })
}

/// Forgets every stored token of the server `name` (whatever its URL);
/// whether there was one.
pub fn logout(name: &str, store: &TokenStore) -> Result<bool, McpError> {
    let fail = |message: String| McpError::Auth {
        server: name.to_owned(),
        message,
    };
    validate_server_name(name).map_err(fail)?;
    store
        .remove_server(name)
        .map_err(|e| fail(format!("cannot remove its stored tokens: {e}")))
}

/// The client for a connection to `server` at `url` when a token is stored
/// for exactly that pair: rmcp's `AuthClient` over `http`, which sends the
/// bearer token, refreshes it when expired and saves the new one. `None`
/// when there is no token (the connection goes out without one).
pub(crate) async fn authorized_client(
    server: &str,
    url: &str,
    store: &TokenStore,
    http: reqwest::Client,
) -> Result<Option<AuthClient<reqwest::Client>>, String> {
    let record = match store.load(server, url) {
        Ok(Some(record)) if record.credentials.token_response.is_some() => record,
        Ok(_) => return Ok(None),
        Err(e) => return Err(format!("cannot read its stored OAuth token: {e}")),
    };
    let mut manager = AuthorizationManager::new(url)
        .await
        .map_err(|e| format!("OAuth setup failed: {}", describe(&e)))?;
    // The metadata of the login, so connecting does not rediscover it.
    manager.set_metadata(record.metadata.clone());
    let client_id = record.credentials.client_id.clone();
    let secret = record.client_secret.clone();
    manager.set_credential_store(FileCredentialStore::new(store.clone(), record));
    let loaded = manager
        .initialize_from_store()
        .await
        .map_err(|e| format!("cannot use its stored OAuth token: {}", describe(&e)))?;
    if !loaded {
        return Ok(None);
    }
    if let Some(secret) = secret {
        manager
            .configure_client(OAuthClientConfig::new(client_id, url).with_client_secret(secret))
            .map_err(|e| format!("OAuth setup failed: {}", describe(&e)))?;
    }
    Ok(Some(AuthClient::new(http, manager)))
}

/// rmcp's message for an auth error, kept to one line. rmcp's messages
/// carry endpoints and the server's error text, never a token.
fn describe(error: &AuthError) -> String {
    error
        .to_string()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(500)
        .collect()
}
