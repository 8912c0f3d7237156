//! Damaged session files, generated: (corrupt line, unknown parent,
//! unknown type, torn line) × every entry position. Loading keeps every
//! message before the damage (and, since only the damaged line is lost,
//! every message after it), warns, never panics, and the session resumes
//! and appends. Plus the private modes of everything the store creates and
//! results recorded one call at a time.

#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;

use serde_json::{Value, json};
use wright_protocol::{ContentBlock, Message};
use wright_store::SessionStore;

use super::*;

use wright_test_support::session_damage::{DAMAGES, damaged};

/// Whether `message` (as written on line `line`) survives in `history`.
fn kept(history: &[Message], message: &Message) -> bool {
    history.iter().any(|m| m == message)
        || message.content.iter().all(|b| {
            // Results may be merged with others into one message.
            history.iter().any(|m| m.content.contains(b))
        })
}

#[test]
fn every_damage_at_every_position_keeps_the_rest_and_resumes() {
    let mut cases = 0;
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    turn(&mut w, 1);
    turn(&mut w, 2);
    turn(&mut w, 3);
    let id = w.id().to_string();
    drop(w);
    let path = store.locate(&id).unwrap();
    let pristine = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<String> = pristine.lines().map(str::to_owned).collect();
    // Message of each line, where the line is one.
    let messages: Vec<Option<Message>> = lines
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).ok()?;
            (v["type"] == "message").then(|| serde_json::from_value(v["message"].clone()).ok())?
        })
        .collect();
    for how in DAMAGES {
        for at in 1..lines.len() {
            let case = format!("{how:?} at line {}", at + 1);
            std::fs::write(&path, damaged(&lines, at, how)).unwrap();
            let loaded = store.load(&id).unwrap();
            assert!(!loaded.warnings.is_empty(), "{case}: no warning");
            let history = loaded.history();
            for (n, message) in messages.iter().enumerate() {
                let Some(message) = message else { continue };
                // A result can only go with its call: one whose call was
                // on the damaged line is dropped, as the provider demands.
                let orphan = messages[at].as_ref().is_some_and(|damaged| {
                    damaged.tool_calls().any(|(id, _, _)| {
                        message.content.iter().any(|b| {
                            matches!(b, ContentBlock::ToolResult { call_id, .. } if call_id == id)
                        })
                    })
                });
                if n != at && !orphan {
                    assert!(kept(&history, message), "{case}: lost line {}", n + 1);
                }
            }
            // Resume works and the next entry continues this history.
            let (mut w, resumed) = store.resume(&id).unwrap();
            assert_eq!(resumed.history(), history, "{case}");
            w.append_message(&Message::user_text("after the damage"))
                .unwrap();
            drop(w);
            let again = store.load(&id).unwrap().history();
            assert_eq!(again.len(), history.len() + 1, "{case}");
            assert_eq!(again.last(), Some(&Message::user_text("after the damage")));
            cases += 1;
        }
    }
    assert!(cases >= 4 * 12, "{cases}");
}

#[test]
fn a_damaged_fork_parent_keeps_the_fork_loading() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    turn(&mut w, 1);
    let id = w.id().to_string();
    drop(w);
    let mut fork = store.fork(&id, None).unwrap();
    fork.append_message(&Message::user_text("in the fork"))
        .unwrap();
    let fork_id = fork.id().to_string();
    drop(fork);
    // The parent's first entry is unreadable now.
    let path = store.locate(&id).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[1] = "{broken".to_owned();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let loaded = store.load(&fork_id).unwrap();
    assert!(!loaded.warnings.is_empty());
    let history = loaded.history();
    assert_eq!(history.last(), Some(&Message::user_text("in the fork")));
    assert!(history.len() > 1, "{history:?}");
}

#[cfg(unix)]
fn mode(path: &std::path::Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
fn walk(
    dir: &std::path::Path,
    files: &mut Vec<std::path::PathBuf>,
    dirs: &mut Vec<std::path::PathBuf>,
) {
    dirs.push(dir.to_path_buf());
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.path().is_dir() {
            walk(&e.path(), files, dirs);
        } else {
            files.push(e.path());
        }
    }
}

#[cfg(unix)]
#[test]
fn sessions_blobs_and_locks_are_private() {
    let data = tempfile::tempdir().unwrap();
    let store = SessionStore::new(data.path());
    // A sessions directory that already exists, world-readable.
    std::fs::create_dir_all(store.root()).unwrap();
    std::fs::set_permissions(store.root(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let mut w = store.create(&meta(cwd.path())).unwrap();
    turn(&mut w, 1);
    let big = "x".repeat(wright_store::INLINE_MAX + 1);
    w.append_message(&result("call-1", &big)).unwrap();
    let edited = cwd.path().join("f.txt");
    std::fs::write(&edited, "before").unwrap();
    w.record_file_before_edit(&edited).unwrap();
    let id = w.id().to_string();
    drop(w);
    let fork = store.fork(&id, None).unwrap();
    drop(fork);
    // A session an older wright left readable is tightened when resumed.
    let path = store.locate(&id).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(
        path.with_extension("lock"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    drop(store.resume(&id).unwrap());
    let (mut files, mut dirs) = (Vec::new(), Vec::new());
    walk(store.root(), &mut files, &mut dirs);
    assert!(
        files
            .iter()
            .any(|f| f.extension().is_some_and(|e| e == "jsonl"))
    );
    assert!(
        files
            .iter()
            .any(|f| f.extension().is_some_and(|e| e == "lock"))
    );
    assert!(
        dirs.iter()
            .any(|d| d.extension().is_some_and(|e| e == "blobs"))
    );
    for f in &files {
        assert_eq!(mode(f), 0o600, "{}", f.display());
    }
    for d in &dirs {
        assert_eq!(mode(d), 0o700, "{}", d.display());
    }
}

#[test]
fn results_appended_one_by_one_load_as_one_message_in_call_order() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    w.append_message(&Message::user_text("go")).unwrap();
    w.append_message(&assistant(vec![
        call("a", "{}"),
        call("b", "{}"),
        call("c", "{}"),
    ]))
    .unwrap();
    // Finished out of order; the third never finished (a kill).
    w.append_message(&result("b", "B")).unwrap();
    w.append_message(&result("a", "A")).unwrap();
    let id = w.id().to_string();
    drop(w);
    let history = store.load(&id).unwrap().history();
    assert_eq!(history.len(), 3);
    let ids: Vec<&str> = history[2]
        .content
        .iter()
        .map(|b| match b {
            ContentBlock::ToolResult { call_id, .. } => call_id.as_str(),
            _ => "",
        })
        .collect();
    assert_eq!(ids, ["a", "b", "c"]);
}

#[test]
fn a_duplicate_entry_id_keeps_the_first_entry_and_warns() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    turn(&mut w, 1);
    turn(&mut w, 2);
    let id = w.id().to_string();
    drop(w);
    let before = store.load(&id).unwrap().history();
    let path = store.locate(&id).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let first: Value = serde_json::from_str(lines[1]).unwrap();
    let last: Value = serde_json::from_str(lines[lines.len() - 1]).unwrap();
    // A later line reusing the first entry's id.
    let dup = json!({"id": first["id"], "parent_id": last["id"], "ts": "t", "type": "message",
        "message": Message::user_text("impostor")});
    std::fs::write(&path, format!("{text}{dup}\n")).unwrap();
    let loaded = store.load(&id).unwrap();
    assert_eq!(loaded.history(), before);
    assert!(
        loaded
            .warnings
            .iter()
            .any(|w| w.contains("second entry with id")),
        "{:?}",
        loaded.warnings
    );
}

#[test]
fn a_fifo_named_like_a_session_is_skipped() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    turn(&mut w, 1);
    let id = w.id().to_string();
    drop(w);
    let project = store.locate(&id).unwrap().parent().unwrap().to_path_buf();
    let fifo = project.join("01900000-0000-7000-8000-000000000000.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // Would block forever reading the FIFO before the fix.
    let (tx, rx) = std::sync::mpsc::channel();
    let data = dir.path().to_path_buf();
    let cwd = dir.path().to_path_buf();
    std::thread::spawn(move || {
        let store = SessionStore::new(data);
        let list = store.list(None);
        let hits = store
            .search(
                "prompt",
                &wright_store::SearchOptions {
                    project: None,
                    limit: None,
                },
            )
            .map(|h| h.len());
        let latest = store.latest_for_project(&cwd);
        let skipped = store.unreadable_session_files(None);
        let _ = tx.send((list.len(), hits.ok(), latest, skipped));
    });
    let (listed, hits, latest, skipped) = rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("listing hung on a FIFO");
    assert_eq!(listed, 1);
    assert!(hits.is_some_and(|n| n > 0));
    assert_eq!(latest.as_deref(), Some(id.as_str()));
    assert_eq!(skipped, vec![fifo]);
}
