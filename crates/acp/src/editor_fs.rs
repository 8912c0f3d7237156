//! The editor's `fs/read_text_file` and `fs/write_text_file`, for editors
//! that offer them: the file tools see unsaved buffers, and their writes
//! land in the editor's buffers. Only files wright has already opened
//! itself are asked about, and a write goes through the editor only when
//! no command could race it (see `wright_tools::editor`).

use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{ReadTextFileRequest, WriteTextFileRequest};

/// How long a tool waits for the editor before using the disk's text.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a tool waits for the editor to take a write.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// One session's handle on the editor's files.
#[derive(Clone)]
pub struct EditorFs {
    cx: ConnectionTo<Client>,
    /// Known once the session is open; a read before that uses the disk.
    session_id: Arc<OnceLock<String>>,
    /// The editor offered `fs/read_text_file`.
    reads: bool,
    /// The editor offered `fs/write_text_file`.
    writes: bool,
}

impl std::fmt::Debug for EditorFs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditorFs")
            .field("session_id", &self.session_id.get())
            .finish()
    }
}

impl PartialEq for EditorFs {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.session_id, &other.session_id)
    }
}

impl Eq for EditorFs {}

impl EditorFs {
    pub(crate) fn new(cx: ConnectionTo<Client>, reads: bool, writes: bool) -> Self {
        Self {
            cx,
            session_id: Arc::new(OnceLock::new()),
            reads,
            writes,
        }
    }

    /// Whether the editor takes writes.
    pub fn takes_writes(&self) -> bool {
        self.writes
    }

    /// Names the session the reads are for (once; later calls are no-ops).
    pub(crate) fn bind(&self, session_id: &str) {
        let _ = self.session_id.set(session_id.to_owned());
    }

    /// The editor's text of `path`, `None` when it fails or is slow.
    pub async fn read_text(&self, path: &Path) -> Option<String> {
        if !self.reads {
            return None;
        }
        let id = self.session_id.get()?.clone();
        let request = ReadTextFileRequest::new(id, path.to_path_buf());
        let answer = self.cx.send_request(request).block_task();
        match tokio::time::timeout(READ_TIMEOUT, answer).await {
            Ok(Ok(response)) => Some(response.content),
            Ok(Err(e)) => {
                eprintln!(
                    "wright acp: the editor could not read {}: {e}",
                    path.display()
                );
                None
            }
            Err(_) => None,
        }
    }

    /// Has the editor make `text` the content of `path` (it saves it), or
    /// says why it did not.
    pub async fn write_text(&self, path: &Path, text: &str) -> Result<(), String> {
        let id = self
            .session_id
            .get()
            .ok_or("the editor session is not open yet")?
            .clone();
        let request = WriteTextFileRequest::new(id, path.to_path_buf(), text);
        let answer = self.cx.send_request(request).block_task();
        match tokio::time::timeout(WRITE_TIMEOUT, answer).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {} s", WRITE_TIMEOUT.as_secs())),
        }
    }
}
