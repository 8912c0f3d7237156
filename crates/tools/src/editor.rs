//! Unsaved editor buffers. A front end attached to an editor (ACP) lets the
//! file tools see text the user has typed but not saved, and, when the
//! editor takes writes, puts the edit tools' results into its buffers.
//!
//! The editor never picks which file a tool touches: every path is first
//! opened by wright itself beneath a workspace root (the kernel-checked
//! open), and only then is the editor asked about that same absolute path.
//! An editor writes by path, outside that check, so a process swapping a
//! directory for a symlink between wright's open and the editor's write
//! could redirect it. A write therefore goes through the editor only while
//! no command of the session is alive, and no command starts until it is
//! done (nothing the model started can race it); it is checked afterwards
//! through wright's own open. Otherwise it
//! goes to disk through wright's open, and a file whose editor buffer holds
//! unsaved changes is then refused instead of overwritten blind.

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

    /// Whether the editor takes writes ([`EditorBuffers::write`]).
    fn takes_writes(&self) -> bool {
        false
    }

    /// Makes `text` the editor's content of `path` and has it saved, or
    /// says why not. Only called when [`EditorBuffers::takes_writes`].
    fn write<'a>(&'a self, path: &'a Path, text: &'a str) -> BoxFuture<'a, Result<(), String>> {
        let _ = (path, text);
        Box::pin(async { Err("this editor takes no writes".to_owned()) })
    }
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

/// What an edit tool starts from: the file's bytes as the user sees them
/// (the editor's unsaved text when there is one) and where the result goes.
pub(crate) struct Base<'a> {
    /// The text to change: the editor's unsaved buffer, else the disk's
    /// bytes; `None` when the file does not exist.
    pub bytes: Option<Vec<u8>>,
    /// Whether `bytes` is the editor's unsaved text.
    pub unsaved: bool,
    /// The editor to write through, when it takes writes and nothing
    /// the model started was alive when the file was read.
    editor: Option<&'a dyn EditorBuffers>,
    /// The session's commands, held off while the editor writes.
    jobs: &'a crate::BackgroundJobs,
}

/// Reads `path` for an edit tool: wright's own open first, then the
/// editor's buffer of the file it opened. A dirty buffer that cannot be
/// written through the editor now is refused: writing the disk would throw
/// the user's typing away or be lost when they save.
pub(crate) async fn base<'a>(
    ctx: &'a ToolContext,
    path: &ToolPath,
    beneath: &Beneath,
) -> Result<Base<'a>, ToolError> {
    let (b, p) = (beneath.clone(), path.clone());
    let disk = blocking(move || crate::paths::read_existing(&b, &p)).await?;
    let editor = ctx.editor.as_deref();
    let writer = editor.filter(|e| e.takes_writes() && ctx.jobs.quiet().is_some());
    let unsaved = match &disk {
        Some(disk) => unsaved_text(editor, &path.real, disk).await,
        None => None,
    };
    match unsaved {
        // The editor would take the change, but not while a command runs.
        Some(_) if writer.is_none() && editor.is_some_and(|e| e.takes_writes()) => {
            Err(ToolError::Failed(format!(
                "{} has unsaved changes in the editor, and a command of this session is \
                 running; nothing was written. Try again once it has ended.",
                path.shown
            )))
        }
        Some(_) if writer.is_none() => Err(ToolError::Failed(format!(
            "{} has unsaved changes in the editor; nothing was written. Ask the user to save \
             or revert it in the editor, then read it again before changing it.",
            path.shown
        ))),
        Some(text) => Ok(Base {
            bytes: Some(text.into_bytes()),
            unsaved: true,
            editor: writer,
            jobs: &ctx.jobs,
        }),
        None => Ok(Base {
            bytes: disk,
            unsaved: false,
            editor: writer,
            jobs: &ctx.jobs,
        }),
    }
}

impl Base<'_> {
    /// Writes an edit tool's result: through the editor when it takes the
    /// write now (so its buffer and undo history hold the change), else to
    /// disk through wright's open. After an editor write the file is read
    /// back through wright's open; if the disk does not hold `text` (the
    /// editor kept it unsaved, or failed), wright writes it itself, so the
    /// checks that run next see what the model wrote.
    pub(crate) async fn write(
        &self,
        beneath: &Beneath,
        path: &ToolPath,
        text: String,
    ) -> Result<(), ToolError> {
        // Taken for the whole write: a command started since the read makes
        // this a disk write (or a refusal, for the editor's unsaved text).
        let quiet = self.editor.and_then(|e| Some((e, self.jobs.quiet()?)));
        let editor_wrote = match &quiet {
            None if self.unsaved => {
                return Err(ToolError::Failed(format!(
                    "{} has unsaved changes in the editor, and a command started meanwhile; \
                     nothing was written. Try again once it has ended.",
                    path.shown
                )));
            }
            None => false,
            Some((editor, _)) => match editor.write(&path.real, &text).await {
                Ok(()) => true,
                Err(e) if self.unsaved => {
                    return Err(ToolError::Failed(format!(
                        "{} has unsaved changes in the editor, and the editor did not take \
                         the change ({e}); nothing was written.",
                        path.shown
                    )));
                }
                Err(_) => false,
            },
        };
        let (b, p) = (beneath.clone(), path.clone());
        let result = blocking(move || {
            if editor_wrote
                && crate::paths::read_existing(&b, &p)?.as_deref() == Some(text.as_bytes())
            {
                return Ok(());
            }
            b.write(&p.real, text.as_bytes())
                .map_err(|e| crate::paths::open_failure("write", &p, &e))
        })
        .await;
        drop(quiet);
        result
    }
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

    /// An editor whose buffers are a map; records what it was asked. With
    /// `takes_writes` it takes writes, saving them to disk when `saves`,
    /// refusing them when `fails`.
    #[derive(Debug, Default)]
    struct FakeEditor {
        buffers: HashMap<PathBuf, String>,
        asked: Mutex<Vec<PathBuf>>,
        takes_writes: bool,
        saves: bool,
        fails: bool,
        written: Mutex<Vec<(PathBuf, String)>>,
    }

    impl EditorBuffers for FakeEditor {
        fn text<'a>(&'a self, path: &'a Path) -> BoxFuture<'a, Option<String>> {
            if let Ok(mut asked) = self.asked.lock() {
                asked.push(path.to_path_buf());
            }
            Box::pin(async move { self.buffers.get(path).cloned() })
        }

        fn takes_writes(&self) -> bool {
            self.takes_writes
        }

        fn write<'a>(&'a self, path: &'a Path, text: &'a str) -> BoxFuture<'a, Result<(), String>> {
            self.written
                .lock()
                .unwrap()
                .push((path.to_path_buf(), text.to_owned()));
            Box::pin(async move {
                if self.fails {
                    return Err("read-only buffer".to_owned());
                }
                if self.saves {
                    std::fs::write(path, text).map_err(|e| e.to_string())?;
                }
                Ok(())
            })
        }
    }

    fn writing_editor(dir: &Path, buffer: Option<&str>, saves: bool) -> FakeEditor {
        let mut editor = FakeEditor {
            takes_writes: true,
            saves,
            ..FakeEditor::default()
        };
        if let Some(text) = buffer {
            editor.buffers.insert(real(dir, "a.txt"), text.into());
        }
        editor
    }

    fn disk(dir: &Path) -> String {
        std::fs::read_to_string(dir.join("a.txt")).unwrap()
    }

    #[tokio::test]
    async fn an_edit_of_a_dirty_buffer_goes_into_it_through_the_editor() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "old\n").unwrap();
        let editor = Arc::new(writing_editor(dir.path(), Some("old\nuser typing\n"), true));
        let out = EditTool
            .run(
                json!({"file_path": "a.txt", "old_string": "old", "new_string": "new"}),
                &ctx(dir.path(), editor.clone()),
            )
            .await
            .unwrap();
        assert!(out.content.contains("unsaved text"), "{}", out.content);
        let written = editor.written.lock().unwrap().clone();
        assert_eq!(
            written,
            vec![(real(dir.path(), "a.txt"), "new\nuser typing\n".to_owned())]
        );
        assert_eq!(disk(dir.path()), "new\nuser typing\n");
    }

    #[tokio::test]
    async fn a_write_the_editor_keeps_unsaved_still_reaches_the_disk() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "old\n").unwrap();
        let editor = Arc::new(writing_editor(dir.path(), None, false));
        WriteTool
            .run(
                json!({"file_path": "a.txt", "content": "new\n"}),
                &ctx(dir.path(), editor.clone()),
            )
            .await
            .unwrap();
        assert_eq!(editor.written.lock().unwrap().len(), 1);
        assert_eq!(disk(dir.path()), "new\n");
    }

    #[tokio::test]
    async fn an_editor_that_refuses_a_clean_file_leaves_the_write_to_wright() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "old\n").unwrap();
        let mut editor = writing_editor(dir.path(), None, true);
        editor.fails = true;
        EditTool
            .run(
                json!({"file_path": "a.txt", "old_string": "old", "new_string": "new"}),
                &ctx(dir.path(), Arc::new(editor)),
            )
            .await
            .unwrap();
        assert_eq!(disk(dir.path()), "new\n");
        // A dirty buffer it refuses is not overwritten on disk.
        let mut editor = writing_editor(dir.path(), Some("new\ntyping\n"), true);
        editor.fails = true;
        let err = EditTool
            .run(
                json!({"file_path": "a.txt", "old_string": "new", "new_string": "x"}),
                &ctx(dir.path(), Arc::new(editor)),
            )
            .await
            .unwrap_err();
        assert!(err.to_string().contains("did not take"), "{err}");
        assert_eq!(disk(dir.path()), "new\n");
    }

    /// An editor writes by path: while a command the model started is
    /// alive (it could swap a directory for a symlink), nothing goes
    /// through the editor, and a dirty buffer is refused as without one.
    #[tokio::test]
    async fn while_a_command_runs_no_write_goes_through_the_editor() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "old\n").unwrap();
        let editor = Arc::new(writing_editor(dir.path(), Some("old\ntyping\n"), true));
        let ctx = ctx(dir.path(), editor.clone());
        let running = ctx.jobs.command_gate().await;
        let err = EditTool
            .run(
                json!({"file_path": "a.txt", "old_string": "old", "new_string": "new"}),
                &ctx,
            )
            .await
            .unwrap_err();
        assert!(err.to_string().contains("unsaved changes"), "{err}");
        // The way out is to wait, not to ask the user to save.
        assert!(err.to_string().contains("once it has ended"), "{err}");
        assert!(editor.written.lock().unwrap().is_empty());
        assert_eq!(disk(dir.path()), "old\n");
        drop(running);
        EditTool
            .run(
                json!({"file_path": "a.txt", "old_string": "old", "new_string": "new"}),
                &ctx,
            )
            .await
            .unwrap();
        assert_eq!(editor.written.lock().unwrap().len(), 1);
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
