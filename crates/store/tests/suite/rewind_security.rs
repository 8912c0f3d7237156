//! Checkpoints and rewinds never reach outside the workspace: symlinks that
//! appear after an edit are refused, and a FIFO is never read (it would block).

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use wright_protocol::Message;
use wright_store::{EntryBody, RestoreAction, RewindPoint, RewindScope};

use super::*;

/// A resolved workspace and an outside directory beside it.
fn dirs() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(t.path()).unwrap();
    let ws = base.join("ws");
    let out = base.join("outside");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    (t, ws, out)
}

fn snapshot_of(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| (e.path(), std::fs::read(e.path()).unwrap_or_default()))
        .collect();
    v.sort();
    v
}

#[test]
fn rewind_through_symlinked_dirs_changes_nothing_outside() {
    let (_t, ws, out) = dirs();
    std::fs::write(out.join("profile"), "outside profile").unwrap();
    std::fs::write(out.join("del"), "outside del").unwrap();
    let before_outside = snapshot_of(&out);
    let (sdir, store) = store();
    let mut w = store.create(&meta(&ws)).unwrap();
    let turn = w.append_message(&Message::user_text("go")).unwrap();
    std::fs::create_dir_all(ws.join("d")).unwrap();
    std::fs::create_dir_all(ws.join("e")).unwrap();
    std::fs::write(ws.join("d/profile"), "x").unwrap();
    w.record_file_before_edit(&ws.join("d/profile")).unwrap();
    std::fs::write(ws.join("d/profile"), "y").unwrap();
    w.record_file_before_edit(&ws.join("e/del")).unwrap();
    std::fs::write(ws.join("e/del"), "new").unwrap();
    // The red team swaps the directories for symlinks to the outside.
    std::fs::remove_dir_all(ws.join("d")).unwrap();
    std::fs::remove_dir_all(ws.join("e")).unwrap();
    symlink(&out, ws.join("d")).unwrap();
    symlink(&out, ws.join("e")).unwrap();
    let blobs_before = count_files(sdir.path());

    let outcome = w
        .rewind(
            &RewindPoint::BeforeTurn(turn),
            RewindScope::FilesAndConversation,
        )
        .unwrap();
    assert_eq!(snapshot_of(&out), before_outside, "outside changed");
    assert_eq!(outcome.files.len(), 2);
    for f in &outcome.files {
        match &f.action {
            RestoreAction::Failed(why) => assert!(why.contains("symbolic link"), "{why}"),
            other => panic!("{} was {other:?}", f.path.display()),
        }
    }
    // Nothing outside was copied into the blob store either.
    assert_eq!(count_files(sdir.path()), blobs_before);
}

#[test]
fn rewind_refuses_a_symlinked_file_and_paths_outside_the_roots() {
    let (_t, ws, out) = dirs();
    std::fs::write(out.join("target"), "outside").unwrap();
    let (_sdir, store) = store();
    let mut w = store.create(&meta(&ws)).unwrap();
    let turn = w.append_message(&Message::user_text("go")).unwrap();
    std::fs::write(ws.join("f"), "orig").unwrap();
    w.record_file_before_edit(&ws.join("f")).unwrap();
    // A file outside every root (writes there were allowed this time).
    w.record_file_before_edit(&out.join("new")).unwrap();
    std::fs::write(out.join("new"), "made").unwrap();
    std::fs::remove_file(ws.join("f")).unwrap();
    symlink(out.join("target"), ws.join("f")).unwrap();

    let outcome = w
        .rewind(&RewindPoint::BeforeTurn(turn), RewindScope::FilesOnly)
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(out.join("target")).unwrap(),
        "outside"
    );
    assert_eq!(std::fs::read_to_string(out.join("new")).unwrap(), "made");
    assert!(
        std::fs::symlink_metadata(ws.join("f"))
            .unwrap()
            .is_symlink()
    );
    let why: Vec<String> = outcome
        .files
        .iter()
        .map(|f| match &f.action {
            RestoreAction::Failed(why) => why.clone(),
            other => panic!("{} was {other:?}", f.path.display()),
        })
        .collect();
    assert!(why.iter().any(|w| w.contains("symbolic link")), "{why:?}");
    assert!(
        why.iter().any(|w| w.contains("outside the workspace")),
        "{why:?}"
    );
}

#[test]
fn rewind_restores_and_deletes_inside_the_workspace() {
    let (_t, ws, _out) = dirs();
    let (_sdir, store) = store();
    let mut w = store.create(&meta(&ws)).unwrap();
    let turn = w.append_message(&Message::user_text("go")).unwrap();
    std::fs::write(ws.join("kept"), "orig").unwrap();
    w.record_file_before_edit(&ws.join("kept")).unwrap();
    std::fs::write(ws.join("kept"), "changed").unwrap();
    w.record_file_before_edit(&ws.join("sub/new")).unwrap();
    std::fs::create_dir_all(ws.join("sub")).unwrap();
    std::fs::write(ws.join("sub/new"), "made").unwrap();
    let outcome = w
        .rewind(&RewindPoint::BeforeTurn(turn), RewindScope::FilesOnly)
        .unwrap();
    assert_eq!(std::fs::read_to_string(ws.join("kept")).unwrap(), "orig");
    assert!(!ws.join("sub/new").exists());
    let actions: Vec<_> = outcome.files.iter().map(|f| f.action.clone()).collect();
    assert_eq!(
        actions,
        vec![RestoreAction::Restored, RestoreAction::Deleted]
    );
}

#[test]
fn a_fifo_is_not_snapshotted_and_does_not_block() {
    let (_t, ws, _out) = dirs();
    let fifo = ws.join("ff");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let (_sdir, store) = store();
    let mut w = store.create(&meta(&ws)).unwrap();
    w.append_message(&Message::user_text("go")).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let handle = std::thread::spawn(move || {
        let r = w.record_file_before_edit(&fifo).map(|id| id.is_some());
        let _ = tx.send(r.is_ok_and(|taken| !taken));
        w
    });
    let started = Instant::now();
    let skipped = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("checkpointing a FIFO blocked");
    assert!(skipped, "a FIFO must not be snapshotted");
    let w = handle.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(30));
    let loaded = w.load().unwrap();
    assert!(
        !loaded
            .current_path()
            .iter()
            .any(|e| matches!(e.body, EntryBody::Checkpoint { .. }))
    );
}

fn count_files(dir: &Path) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let ft = e.file_type().unwrap();
        if ft.is_dir() {
            n += count_files(&e.path());
        } else {
            n += 1;
        }
    }
    n
}

/// A checkpoint entry forged (or edited) to name a root and a path
/// outside: every variant of root (the outside dir, `/`, the workspace's
/// parent, a relative root, one through `..`) is refused with the reason,
/// and nothing outside is written or deleted, for a deletion and for a
/// restore from a real blob.
#[test]
fn generator_a_tampered_checkpoint_root_is_refused() {
    let (_t, ws, out) = dirs();
    let parent = ws.parent().unwrap().to_path_buf();
    let roots = [
        Some(out.clone()),
        Some(PathBuf::from("/")),
        Some(parent.clone()),
        Some(PathBuf::from("outside")),
        Some(ws.join("..").join("outside")),
    ];
    for (i, root) in roots.iter().enumerate() {
        std::fs::write(out.join("victim"), "outside").unwrap();
        let before_outside = snapshot_of(&out);
        let (_sdir, store) = store();
        let mut w = store.create(&meta(&ws)).unwrap();
        let turn = w.append_message(&Message::user_text("go")).unwrap();
        // A real checkpoint, for its blob.
        std::fs::write(ws.join("f"), "planted content").unwrap();
        w.record_file_before_edit(&ws.join("f")).unwrap();
        let blob = w
            .load()
            .unwrap()
            .current_path()
            .iter()
            .find_map(|e| match &e.body {
                EntryBody::Checkpoint { before, .. } => Some(before.clone()),
                _ => None,
            })
            .unwrap();
        w.append(&EntryBody::Checkpoint {
            path: out.join("victim"),
            before: wright_store::Snapshot::ABSENT,
            root: root.clone(),
        })
        .unwrap();
        w.append(&EntryBody::Checkpoint {
            path: out.join("planted"),
            before: blob,
            root: root.clone(),
        })
        .unwrap();
        let preview = w
            .rewind_preview(
                &RewindPoint::BeforeTurn(turn.clone()),
                RewindScope::FilesOnly,
            )
            .unwrap();
        let outcome = w
            .rewind(&RewindPoint::BeforeTurn(turn), RewindScope::FilesOnly)
            .unwrap();
        assert_eq!(
            snapshot_of(&out),
            before_outside,
            "variant {i}: outside changed"
        );
        for f in preview.iter().chain(&outcome.files) {
            if f.path.starts_with(&ws) {
                continue;
            }
            match &f.action {
                RestoreAction::Failed(why) => assert!(
                    why.contains("neither the session's directory nor a configured root")
                        || why.contains("outside the workspace"),
                    "variant {i}: {why}"
                ),
                other => panic!("variant {i}: {} was {other:?}", f.path.display()),
            }
        }
    }
}

/// A root the run configured (an additional directory) is restored in,
/// also from a writer opened later, once the run says it is a root; a
/// writer that was not told refuses it.
#[test]
fn a_configured_root_is_restored_only_when_configured() {
    let (_t, ws, extra) = dirs();
    let (_sdir, store) = store();
    let mut w = store.create(&meta(&ws)).unwrap();
    let turn = w.append_message(&Message::user_text("go")).unwrap();
    std::fs::write(extra.join("e"), "orig").unwrap();
    w.record_file_before_edit_within(&extra.join("e"), std::slice::from_ref(&extra))
        .unwrap();
    std::fs::write(extra.join("e"), "changed").unwrap();
    let id = w.id().to_owned();
    drop(w);

    let mut w = store.open_for_append(&id).unwrap();
    let outcome = w
        .rewind(
            &RewindPoint::BeforeTurn(turn.clone()),
            RewindScope::FilesOnly,
        )
        .unwrap();
    assert!(
        matches!(&outcome.files[0].action, RestoreAction::Failed(why) if why.contains("configured root")),
        "{:?}",
        outcome.files
    );
    assert_eq!(std::fs::read_to_string(extra.join("e")).unwrap(), "changed");
    drop(w);

    let mut w = store.open_for_append(&id).unwrap();
    w.set_roots([extra.clone()]);
    let turn = w.user_turns().unwrap()[0].entry.clone();
    let outcome = w
        .rewind(&RewindPoint::BeforeTurn(turn), RewindScope::FilesOnly)
        .unwrap();
    assert_eq!(outcome.files[0].action, RestoreAction::Restored);
    assert_eq!(std::fs::read_to_string(extra.join("e")).unwrap(), "orig");
}
