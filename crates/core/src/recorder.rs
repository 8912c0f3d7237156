//! Writes the session to its append-only store as the turn progresses. A
//! failing disk must not end the session: the first failure is announced,
//! later ones are quiet, and the conversation goes on in memory.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use wright_protocol::{Message, Usage};
use wright_store::{
    EntryBody, RestoredFile, RewindOutcome, RewindPoint, RewindScope, SessionWriter, StoreError,
    UserTurn,
};

use crate::emitter::Emitter;

/// The session's writer, if it has one.
pub(crate) struct Recorder {
    inner: Arc<Inner>,
}

/// What a blocking thread needs to write for the recorder.
struct Inner {
    writer: Mutex<Option<SessionWriter>>,
    warned: AtomicBool,
}

impl Recorder {
    pub(crate) fn new(writer: Option<SessionWriter>) -> Self {
        Self {
            inner: Arc::new(Inner {
                writer: Mutex::new(writer),
                warned: AtomicBool::new(false),
            }),
        }
    }

    /// Another handle on the same session file.
    pub(crate) fn share(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
        }
    }

    pub(crate) fn message(&self, emitter: &Emitter, message: &Message) {
        self.with(emitter, |w| w.append_message(message).map(|_| ()));
    }

    pub(crate) fn usage(&self, emitter: &Emitter, usage: Usage, model: &str, cost_usd: f64) {
        let body = EntryBody::Usage {
            usage,
            model: model.to_owned(),
            cost_usd: (cost_usd > 0.0).then_some(cost_usd),
        };
        self.with(emitter, |w| w.append(&body).map(|_| ()));
    }

    /// Makes everything so far durable before a tool with side effects
    /// runs. The fsync runs on a blocking thread, off the async workers.
    pub(crate) async fn sync(&self, emitter: &Emitter) {
        self.with_blocking(emitter, SessionWriter::sync).await;
    }

    /// Keeps the previous content of a file the model is about to change,
    /// so `wright rewind` can restore it. `path` is the resolved path the
    /// tool will open; it is read beneath `roots` without following
    /// symlinks or blocking (a FIFO or device is not snapshotted). The
    /// read and write run on a blocking thread, off the async workers.
    pub(crate) async fn checkpoint(&self, emitter: &Emitter, path: &Path, roots: &[PathBuf]) {
        let (path, roots) = (path.to_path_buf(), roots.to_vec());
        self.with_blocking(emitter, move |w| {
            w.record_file_before_edit_within(&path, &roots).map(|_| ())
        })
        .await;
    }

    /// Records a compaction: the summary and the number of messages it replaced.
    pub(crate) fn append(&self, emitter: &Emitter, body: &EntryBody) {
        self.with(emitter, |w| w.append(body).map(|_| ()));
    }

    /// The session file, when the session is recorded.
    pub(crate) fn path(&self) -> Option<PathBuf> {
        let guard = self.inner.writer.lock().ok()?;
        guard.as_ref().map(|w| w.path().to_path_buf())
    }

    /// The session's user turns, or `None` when it is not recorded.
    pub(crate) fn user_turns(&self) -> Option<Result<Vec<UserTurn>, StoreError>> {
        let guard = self.inner.writer.lock().ok()?;
        guard.as_ref().map(SessionWriter::user_turns)
    }

    /// What a rewind would do to files, or `None` when not recorded.
    pub(crate) fn rewind_preview(
        &self,
        point: &RewindPoint,
        scope: RewindScope,
    ) -> Option<Result<Vec<RestoredFile>, StoreError>> {
        let guard = self.inner.writer.lock().ok()?;
        guard.as_ref().map(|w| w.rewind_preview(point, scope))
    }

    /// Rewinds files and conversation, or `None` when not recorded.
    pub(crate) fn rewind(
        &self,
        point: &RewindPoint,
        scope: RewindScope,
    ) -> Option<Result<RewindOutcome, StoreError>> {
        let mut guard = self.inner.writer.lock().ok()?;
        guard.as_mut().map(|w| w.rewind(point, scope))
    }

    fn with(
        &self,
        emitter: &Emitter,
        f: impl FnOnce(&mut SessionWriter) -> Result<(), StoreError>,
    ) {
        self.inner.with(emitter, f);
    }

    /// [`Self::with`] on a blocking thread, for file work that may wait on
    /// the disk (fsync, reading a file to snapshot it).
    async fn with_blocking(
        &self,
        emitter: &Emitter,
        f: impl FnOnce(&mut SessionWriter) -> Result<(), StoreError> + Send + 'static,
    ) {
        let inner = Arc::clone(&self.inner);
        let emitter = emitter.clone();
        let _ = tokio::task::spawn_blocking(move || inner.with(&emitter, f)).await;
    }
}

impl Inner {
    fn with(
        &self,
        emitter: &Emitter,
        f: impl FnOnce(&mut SessionWriter) -> Result<(), StoreError>,
    ) {
        let Ok(mut guard) = self.writer.lock() else {
            return;
        };
        let Some(writer) = guard.as_mut() else {
            return;
        };
        if let Err(e) = f(writer)
            && !self.warned.swap(true, Ordering::SeqCst)
        {
            emitter.warning(format!(
                "Could not write the session file {}: {e}. The session goes on, but may not resume completely.",
                writer.path().display()
            ));
        }
    }
}
