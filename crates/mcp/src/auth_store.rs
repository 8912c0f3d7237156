//! Where OAuth tokens live: [`TokenStore`], one JSON file per server name
//! and URL in the user's data dir (files 0600, the dir 0700, written
//! atomically), and [`FileCredentialStore`], the view of one such file that
//! rmcp's `AuthorizationManager` loads, refreshes and saves through.
//!
//! A record is only ever handed out for the exact URL it was issued for, so
//! a token obtained for one server URL is never sent to another.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use rmcp::transport::auth::{
    AuthError, AuthorizationMetadata, CredentialRefreshGuard, CredentialStore, StoredCredentials,
};
use serde::{Deserialize, Serialize};

/// The record format's version, bumped when its shape changes incompatibly.
pub(crate) const RECORD_VERSION: u32 = 1;

/// The user's stored MCP OAuth tokens: a directory with one file per
/// server name and URL (the caller passes e.g. `$XDG_DATA_HOME/wright/mcp-auth`;
/// never a project directory).
#[derive(Clone, PartialEq, Eq)]
pub struct TokenStore {
    dir: PathBuf,
}

impl fmt::Debug for TokenStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenStore")
            .field("dir", &self.dir)
            .finish()
    }
}

/// Everything kept for one server: the metadata discovered at login (so a
/// connection refreshes without rediscovering), the registered client's
/// secret if the server issued one, and rmcp's credentials.
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct TokenRecord {
    pub version: u32,
    pub server: String,
    pub url: String,
    pub metadata: AuthorizationMetadata,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    pub credentials: StoredCredentials,
}

impl fmt::Debug for TokenRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenRecord")
            .field("server", &self.server)
            .field("url", &self.url)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "[REDACTED]"),
            )
            // rmcp's own Debug redacts the token response.
            .field("credentials", &self.credentials)
            .finish_non_exhaustive()
    }
}

impl TokenStore {
    /// A store in `dir` (created, mode 0700, on the first save).
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file for `server` at `url`: the name (which cannot hold a dot,
    /// see [`crate::config::validate_server_name`]) and a hash of the URL,
    /// so two URLs of one name never share a file.
    pub fn path_for(&self, server: &str, url: &str) -> PathBuf {
        self.dir
            .join(format!("{server}.{:016x}.json", fnv1a(url.as_bytes())))
    }

    /// Whether a token is stored for `server` at exactly `url`.
    pub fn has_token(&self, server: &str, url: &str) -> bool {
        matches!(self.load(server, url), Ok(Some(r)) if r.credentials.token_response.is_some())
    }

    /// The record for `server` at `url`; `None` when there is none, or the
    /// file names another server or URL (a hash collision or a hand edit).
    pub(crate) fn load(&self, server: &str, url: &str) -> io::Result<Option<TokenRecord>> {
        let path = self.path_for(server, url);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        // serde's message may quote the file's content: keep it out.
        let record: TokenRecord = serde_json::from_str(&text).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{} is not a valid token file", path.display()),
            )
        })?;
        Ok(
            (record.version == RECORD_VERSION && record.server == server && record.url == url)
                .then_some(record),
        )
    }

    /// Writes the record atomically (a 0600 temporary file renamed over the
    /// old one), creating the directory with mode 0700.
    pub(crate) fn save(&self, record: &TokenRecord) -> io::Result<PathBuf> {
        create_private_dir(&self.dir)?;
        let path = self.path_for(&record.server, &record.url);
        let json = serde_json::to_vec_pretty(record).map_err(io::Error::other)?;
        let tmp = self.dir.join(format!(
            ".{}.{}.tmp",
            path.file_name().and_then(|n| n.to_str()).unwrap_or("token"),
            std::process::id()
        ));
        // A temporary left by a crashed process with the same id.
        let _ = fs::remove_file(&tmp);
        let written = (|| {
            let mut file = private_file(&tmp, true)?;
            file.write_all(&json)?;
            file.sync_all()?;
            fs::rename(&tmp, &path)
        })();
        if written.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        written.map(|()| path)
    }

    /// Removes every file of `server`, whatever its URL; whether any existed.
    pub fn remove_server(&self, server: &str) -> io::Result<bool> {
        let entries = match fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(e),
        };
        let prefix = format!("{server}.");
        let mut existed = false;
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let Some(rest) = name.strip_prefix(&prefix) else {
                continue;
            };
            // `<hash>.json` or `<hash>.json.lock`; a longer server name
            // sharing the prefix would leave a `-` or letters before the dot.
            let is_ours = rest.split_once('.').is_some_and(|(hash, tail)| {
                hash.len() == 16
                    && hash.bytes().all(|b| b.is_ascii_hexdigit())
                    && (tail == "json" || tail == "json.lock")
            });
            if !is_ours {
                continue;
            }
            if rest.ends_with(".json") {
                existed = true;
            }
            fs::remove_file(entry.path())?;
        }
        Ok(existed)
    }
}

/// rmcp's credential store backed by one [`TokenStore`] file: loads and
/// saves go to disk each time, so a token refreshed by another wright
/// process is picked up, and refreshes are serialized by a lock file.
pub(crate) struct FileCredentialStore {
    store: TokenStore,
    /// The record whose credentials each save replaces.
    base: TokenRecord,
}

impl FileCredentialStore {
    pub(crate) fn new(store: TokenStore, base: TokenRecord) -> Self {
        Self { store, base }
    }
}

fn store_error(e: impl fmt::Display) -> AuthError {
    AuthError::CredentialStoreError(format!("MCP token store: {e}"))
}

#[async_trait::async_trait]
impl CredentialStore for FileCredentialStore {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        let record = self
            .store
            .load(&self.base.server, &self.base.url)
            .map_err(store_error)?;
        Ok(record.map(|r| r.credentials))
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        // The metadata and client of this login or connection win over
        // whatever an older login left in the file.
        let mut record = self.base.clone();
        record.credentials = credentials;
        self.store.save(&record).map(|_| ()).map_err(store_error)
    }

    async fn clear(&self) -> Result<(), AuthError> {
        match fs::remove_file(self.store.path_for(&self.base.server, &self.base.url)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(store_error(e)),
            _ => Ok(()),
        }
    }

    async fn acquire_refresh_guard(&self) -> Result<Option<CredentialRefreshGuard>, AuthError> {
        // Two sessions refreshing one rotating refresh token at once would
        // have the second rejected; an exclusive lock lets it see the first's.
        create_private_dir(self.store.dir()).map_err(store_error)?;
        let mut lock_path = self
            .store
            .path_for(&self.base.server, &self.base.url)
            .into_os_string();
        lock_path.push(".lock");
        let file = tokio::task::spawn_blocking(move || {
            let file = private_file(Path::new(&lock_path), false)?;
            file.lock()?;
            Ok::<_, io::Error>(file)
        })
        .await
        .map_err(store_error)?
        .map_err(store_error)?;
        Ok(Some(CredentialRefreshGuard::new(file)))
    }
}

/// Creates `dir` (and parents) and makes it 0700.
fn create_private_dir(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Opens `path` for writing with mode 0600 (`fresh`: it must not exist,
/// and it is truncated).
fn private_file(path: &Path, fresh: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true);
    if fresh {
        options.create_new(true);
    } else {
        options.create(true).truncate(false);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

/// 64-bit FNV-1a: a stable file-name hash (not a security boundary: the
/// file itself names its URL, which [`TokenStore::load`] checks).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(server: &str, url: &str) -> TokenRecord {
        let credentials: StoredCredentials = serde_json::from_value(serde_json::json!({
            "client_id": "client-1",
            "token_response": {
                "access_token": "secret-access",
                "token_type": "bearer",
                "refresh_token": "secret-refresh"
            }
        }))
        .unwrap();
        TokenRecord {
            version: RECORD_VERSION,
            server: server.into(),
            url: url.into(),
            metadata: AuthorizationMetadata::default(),
            client_secret: Some("secret-client".into()),
            credentials,
        }
    }

    #[test]
    fn records_are_bound_to_their_name_and_url() {
        let tmp = tempfile::tempdir().unwrap();
        let store = TokenStore::new(tmp.path().join("auth"));
        store.save(&record("web", "https://a.example/mcp")).unwrap();
        assert!(store.has_token("web", "https://a.example/mcp"));
        assert!(!store.has_token("web", "https://b.example/mcp"));
        assert!(!store.has_token("web2", "https://a.example/mcp"));
        // A file copied under another URL's name is not handed out.
        std::fs::copy(
            store.path_for("web", "https://a.example/mcp"),
            store.path_for("web", "https://b.example/mcp"),
        )
        .unwrap();
        assert!(
            store
                .load("web", "https://b.example/mcp")
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn logout_removes_only_that_server() {
        let tmp = tempfile::tempdir().unwrap();
        let store = TokenStore::new(tmp.path().join("auth"));
        store.save(&record("web", "https://a.example/mcp")).unwrap();
        store.save(&record("web", "https://b.example/mcp")).unwrap();
        store
            .save(&record("web-2", "https://a.example/mcp"))
            .unwrap();
        assert!(store.remove_server("web").unwrap());
        assert!(!store.has_token("web", "https://a.example/mcp"));
        assert!(!store.has_token("web", "https://b.example/mcp"));
        assert!(store.has_token("web-2", "https://a.example/mcp"));
        assert!(!store.remove_server("web").unwrap());
        assert!(
            !TokenStore::new(tmp.path().join("none"))
                .remove_server("web")
                .unwrap()
        );
    }

    #[test]
    fn debug_output_is_redacted() {
        let shown = format!("{:?}", record("web", "https://a.example/mcp"));
        assert!(!shown.contains("secret-"), "{shown}");
    }

    #[test]
    fn a_corrupt_file_is_an_error_that_quotes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let store = TokenStore::new(tmp.path().to_path_buf());
        std::fs::write(
            store.path_for("web", "https://a.example/mcp"),
            "{\"access_token\": \"secret-x\"",
        )
        .unwrap();
        let err = store.load("web", "https://a.example/mcp").unwrap_err();
        assert!(!err.to_string().contains("secret"), "{err}");
    }
}
