//! Unsaved editor buffers. A front end attached to an editor (ACP) lets the
//! file tools see text the user has typed but not saved.
//!
//! The editor never opens a file on wright's behalf for a write, and never
//! picks which file a read sees: every path is first opened by wright itself
//! beneath a workspace root (the kernel-checked open), and only then is the
//! editor asked for its text of that same absolute path. Writes always go
//! to disk through wright's own open, because an editor writing by path
//! would put the final open outside the OS-enforced boundary (a symlink
//! swapped in between would escape the workspace). A write to a file whose
//! editor buffer differs from the disk is refused instead of merged blind;
//! an editor reloads clean buffers when the file changes on disk.

use std::path::Path;

use futures::future::BoxFuture;
use wright_sandbox::Beneath;

use crate::output::blocking;
use crate::paths::ToolPath;
use crate::{ToolContext, ToolError};

/// The editor's view of files, for the `Read`, `Edit` and `Write` tools.
pub trait EditorBuffers: Send + Sync + std::fmt::Debug {
    /// The editor's current text of `path` (absolute; wright has just
    /// opened it beneath a root), `None` when the editor cannot say in
    /// time. Implementations bound their own wait.
    fn text<'a>(&'a self, path: &'a Path) -> BoxFuture<'a, Option<String>>;
}

/// The editor's text of a file when it differs from `disk` in more than
/// line endings or a byte-order mark (editors normalise both in their
/// buffers, so those differences are not unsaved changes).
pub(crate) fn unsaved(editor_text: &str, disk: &[u8]) -> bool {
    let disk = String::from_utf8_lossy(disk);
    normalise(editor_text) != normalise(&disk)
}

fn normalise(text: &str) -> String {
    text.strip_prefix('\u{feff}')
        .unwrap_or(text)
        .replace("\r\n", "\n")
}

/// Asks the editor for `path` when one is attached, and returns its text
/// only when it holds unsaved changes against `disk`.
pub(crate) async fn unsaved_text(
    editor: Option<&dyn EditorBuffers>,
    path: &Path,
    disk: &[u8],
) -> Option<String> {
    let text = editor?.text(path).await?;
    unsaved(&text, disk).then_some(text)
}

/// Refuses a write to a file the editor holds unsaved changes to: the
/// write would silently throw them away or be lost when the user saves.
pub(crate) async fn refuse_unsaved_write(
    ctx: &ToolContext,
    path: &ToolPath,
    beneath: &Beneath,
) -> Result<(), ToolError> {
    let Some(editor) = ctx.editor.as_deref() else {
        return Ok(());
    };
    let (b, p) = (beneath.clone(), path.clone());
    let Some(disk) = blocking(move || crate::paths::read_existing(&b, &p)).await? else {
        return Ok(());
    };
    if unsaved_text(Some(editor), &path.real, &disk)
        .await
        .is_some()
    {
        return Err(ToolError::Failed(format!(
            "{} has unsaved changes in the editor; nothing was written. Ask the user to save \
             or revert it in the editor, then read it again before changing it.",
            path.shown
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_endings_and_bom_are_not_changes() {
        assert!(!unsaved("a\nb\n", b"a\r\nb\r\n"));
        assert!(!unsaved("a\n", "\u{feff}a\n".as_bytes()));
        assert!(unsaved("a\nb\n", b"a\n"));
        assert!(unsaved("", b"x"));
    }
}

#[cfg(test)]
mod tool_tests {
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};
    use std::sync::{Arc, Mutex};

    use futures::future::BoxFuture;
    use serde_json::json;

    use super::EditorBuffers;
    use crate::{EditTool, ReadTool, Tool, ToolContext, WriteTool};

    /// An editor whose buffers are a map; records what it was asked.
    #[derive(Debug, Default)]
    struct FakeEditor {
        buffers: HashMap<PathBuf, String>,
        asked: Mutex<Vec<PathBuf>>,
    }

    impl EditorBuffers for FakeEditor {
        fn text<'a>(&'a self, path: &'a Path) -> BoxFuture<'a, Option<String>> {
            if let Ok(mut asked) = self.asked.lock() {
                asked.push(path.to_path_buf());
            }
            Box::pin(async move { self.buffers.get(path).cloned() })
        }
    }

    fn ctx(dir: &Path, editor: Arc<FakeEditor>) -> ToolContext {
        let mut ctx = ToolContext::new(dir, dir.join(".spill"));
        ctx.editor = Some(editor);
        ctx
    }

    fn real(dir: &Path, name: &str) -> PathBuf {
        std::fs::canonicalize(dir).unwrap().join(name)
    }

    #[tokio::test]
    async fn read_shows_unsaved_text_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "on disk\n").unwrap();
        let mut editor = FakeEditor::default();
        editor
            .buffers
            .insert(real(dir.path(), "a.txt"), "typed\nnot saved\n".into());
        let editor = Arc::new(editor);
        let out = ReadTool
            .run(json!({"file_path": "a.txt"}), &ctx(dir.path(), editor))
            .await
            .unwrap();
        assert!(
            out.content
                .starts_with("     1\ttyped\n     2\tnot saved\n")
        );
        assert!(out.content.contains("unsaved changes"), "{}", out.content);
    }

    #[tokio::test]
    async fn read_of_a_clean_buffer_is_the_disk_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "same\r\n").unwrap();
        let mut editor = FakeEditor::default();
        editor
            .buffers
            .insert(real(dir.path(), "a.txt"), "same\n".into());
        let out = ReadTool
            .run(
                json!({"file_path": "a.txt"}),
                &ctx(dir.path(), Arc::new(editor)),
            )
            .await
            .unwrap();
        assert_eq!(out.content, "     1\tsame\n");
    }

    #[tokio::test]
    async fn the_editor_is_never_asked_about_a_path_wright_refused() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "s\n").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("link")).unwrap();
        let editor = Arc::new(FakeEditor::default());
        let _ = ReadTool
            .run(
                json!({"file_path": "missing.txt"}),
                &ctx(dir.path(), editor.clone()),
            )
            .await
            .unwrap_err();
        let _ = WriteTool
            .run(
                json!({"file_path": "link", "content": "x"}),
                &ctx(dir.path(), editor.clone()),
            )
            .await;
        let asked = editor.asked.lock().unwrap().clone();
        assert!(
            asked
                .iter()
                .all(|p| p.starts_with(std::fs::canonicalize(dir.path()).unwrap())),
            "{asked:?}"
        );
        assert!(
            !asked.iter().any(|p| p.ends_with("missing.txt")),
            "{asked:?}"
        );
    }

    #[tokio::test]
    async fn writes_to_a_dirty_buffer_are_refused_and_change_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "old\n").unwrap();
        let mut editor = FakeEditor::default();
        editor
            .buffers
            .insert(real(dir.path(), "a.txt"), "old\nuser typing\n".into());
        let editor = Arc::new(editor);
        let err = EditTool
            .run(
                json!({"file_path": "a.txt", "old_string": "old", "new_string": "new"}),
                &ctx(dir.path(), editor.clone()),
            )
            .await
            .unwrap_err();
        assert!(err.to_string().contains("unsaved changes"), "{err}");
        let err = WriteTool
            .run(
                json!({"file_path": "a.txt", "content": "new\n"}),
                &ctx(dir.path(), editor),
            )
            .await
            .unwrap_err();
        assert!(err.to_string().contains("nothing was written"), "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
            "old\n"
        );
    }

    #[tokio::test]
    async fn writes_to_clean_or_unknown_buffers_go_to_disk() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "old\n").unwrap();
        let mut editor = FakeEditor::default();
        editor
            .buffers
            .insert(real(dir.path(), "a.txt"), "old\n".into());
        let editor = Arc::new(editor);
        EditTool
            .run(
                json!({"file_path": "a.txt", "old_string": "old", "new_string": "new"}),
                &ctx(dir.path(), editor.clone()),
            )
            .await
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
            "new\n"
        );
        WriteTool
            .run(
                json!({"file_path": "b.txt", "content": "fresh\n"}),
                &ctx(dir.path(), editor),
            )
            .await
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("b.txt")).unwrap(),
            "fresh\n"
        );
    }
}
