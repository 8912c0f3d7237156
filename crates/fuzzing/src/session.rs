//! The target for the session loader: a session file's JSONL bytes, torn
//! and corrupt lines included, loaded as `--continue` and `--resume` do.

use std::path::PathBuf;
use std::sync::OnceLock;

use wright_store::{ExportFormat, SessionStore, export_loaded};

use crate::config::scratch_dir;

/// The scratch store and the session file path in it.
fn store() -> Option<&'static (SessionStore, PathBuf)> {
    static STORE: OnceLock<Option<(SessionStore, PathBuf)>> = OnceLock::new();
    STORE
        .get_or_init(|| {
            let dir = scratch_dir("session")?;
            let project = dir.join("wright").join("sessions").join("fuzz");
            std::fs::create_dir_all(&project).ok()?;
            let file = project.join("0190a5d2-0000-7000-8000-000000000000.jsonl");
            Some((SessionStore::new(dir), file))
        })
        .as_ref()
}

/// Loads `data` as a session file and builds every view of it: the
/// conversation the model gets back, the user turns, the usage total and
/// both exports.
pub fn session(data: &[u8]) {
    let Some((store, file)) = store() else {
        return;
    };
    if std::fs::write(file, data).is_err() {
        return;
    }
    let Ok(loaded) = store.load_path(file) else {
        return;
    };
    let history = loaded.history();
    // `--resume` moves the history out instead of copying it: same result.
    assert!(loaded.clone().into_history() == history);
    let _ = loaded.user_turns();
    let _ = loaded.usage_total();
    let _ = export_loaded(&loaded, ExportFormat::Markdown);
    let _ = export_loaded(&loaded, ExportFormat::Json);
}
