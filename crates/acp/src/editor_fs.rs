//! The editor's `fs/read_text_file`, for editors that offer it: lets the
//! file tools see unsaved buffers. Only reads are asked for, and only of
//! files wright has already opened itself (see `wright_tools::editor`);
//! writes stay on wright's own kernel-checked opens.

use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::ReadTextFileRequest;

/// How long a tool waits for the editor before using the disk's text.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// One session's handle on the editor's files.
#[derive(Clone)]
pub struct EditorFs {
    cx: ConnectionTo<Client>,
    /// Known once the session is open; a read before that uses the disk.
    session_id: Arc<OnceLock<String>>,
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
    pub(crate) fn new(cx: ConnectionTo<Client>) -> Self {
        Self {
            cx,
            session_id: Arc::new(OnceLock::new()),
        }
    }

    /// Names the session the reads are for (once; later calls are no-ops).
    pub(crate) fn bind(&self, session_id: &str) {
        let _ = self.session_id.set(session_id.to_owned());
    }

    /// The editor's text of `path`, `None` when it fails or is slow.
    pub async fn read_text(&self, path: &Path) -> Option<String> {
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
}
