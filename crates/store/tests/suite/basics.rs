//! Round trips, tolerant loading, blobs, locks, compaction.

use std::io::Write;

use wright_protocol::{ContentBlock, Message, Role};
use wright_store::{EntryBody, MISSING_RESULT, StoreError};

use super::*;

#[test]
fn round_trip_keeps_history_exact() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    let mut expected = turn(&mut w, 1);
    expected.extend(turn(&mut w, 2));
    let id = w.id().to_string();
    drop(w);
    let loaded = store.load(&id).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.history(), expected);
    assert_eq!(loaded.header.model, "claude-test");
    assert_eq!(loaded.user_turns().len(), 2);
    let (usage, cost) = loaded.usage_total();
    assert_eq!(usage.input_tokens, 20);
    assert!((cost - 0.02).abs() < 1e-9);
}

#[test]
fn nothing_is_written_before_the_first_entry() {
    let (dir, store) = store();
    let w = store.create(&meta(dir.path())).unwrap();
    let path = w.path().to_path_buf();
    drop(w);
    assert!(!path.exists());
    assert!(store.list(None).is_empty());
}

#[test]
fn resume_appends_to_the_same_branch() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    let mut expected = turn(&mut w, 1);
    let id = w.id().to_string();
    drop(w);
    let (mut w, loaded) = store.resume(&id).unwrap();
    assert_eq!(loaded.history(), expected);
    expected.extend(turn(&mut w, 2));
    w.sync().unwrap();
    drop(w);
    assert_eq!(store.load(&id).unwrap().history(), expected);
}

fn write_session(
    store: &wright_store::SessionStore,
    cwd: &std::path::Path,
) -> (String, Vec<Message>) {
    let mut w = store.create(&meta(cwd)).unwrap();
    let mut msgs = turn(&mut w, 1);
    msgs.extend(turn(&mut w, 2));
    (w.id().to_string(), msgs)
}

#[test]
fn torn_last_line_is_skipped_then_mended() {
    let (dir, store) = store();
    let (id, expected) = write_session(&store, dir.path());
    let path = store.locate(&id).unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.write_all(br#"{"id":"torn","parent_id":"x","ts":"t","type":"mess"#)
        .unwrap();
    drop(f);
    let loaded = store.load(&id).unwrap();
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert!(loaded.warnings[0].contains("incomplete last line"));
    assert_eq!(loaded.history(), expected);

    let mut w = store.open_for_append(&id).unwrap();
    w.append_message(&Message::user_text("after crash"))
        .unwrap();
    drop(w);
    let loaded = store.load(&id).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.history().len(), expected.len() + 1);
}

#[test]
fn corrupt_middle_line_is_skipped_with_its_number() {
    let (dir, store) = store();
    let (id, _) = write_session(&store, dir.path());
    let path = store.locate(&id).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(3, "{not json at all");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let loaded = store.load(&id).unwrap();
    assert_eq!(
        loaded.warnings,
        vec!["line 4: skipped a corrupt line".to_string()]
    );
    assert_valid(&loaded.history());
}

#[test]
fn unknown_entry_types_are_kept_and_ignored() {
    let (dir, store) = store();
    let (id, expected) = write_session(&store, dir.path());
    let path = store.locate(&id).unwrap();
    let leaf = store.load(&id).unwrap().leaf().cloned().unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    writeln!(
        f,
        r#"{{"id":"future1","parent_id":"{leaf}","ts":"t","type":"hologram","beam":[1,2]}}"#
    )
    .unwrap();
    drop(f);
    let loaded = store.load(&id).unwrap();
    // Kept, but the user hears that part of the file was not understood.
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert!(loaded.warnings[0].contains("'hologram'"));
    let last = loaded.entries.last().unwrap();
    assert!(matches!(&last.body, EntryBody::Unknown { kind, .. } if kind == "hologram"));
    assert_eq!(loaded.history(), expected);
    let mut w = store.open_for_append(&id).unwrap();
    assert_eq!(w.leaf().map(String::as_str), Some("future1"));
    w.append_message(&Message::user_text("more")).unwrap();
    drop(w);
    assert_eq!(store.load(&id).unwrap().history().len(), expected.len() + 1);
}

#[test]
fn dangling_tool_call_gets_an_error_result() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    w.append_message(&Message::user_text("go")).unwrap();
    w.append_message(&assistant(vec![call("c1", "{}"), call("c2", "{}")]))
        .unwrap();
    w.append_message(&result("c1", "done")).unwrap();
    let id = w.id().to_string();
    drop(w);
    let history = store.load(&id).unwrap().history();
    assert_valid(&history);
    assert_eq!(history.len(), 3);
    assert_eq!(
        history[2].content[1],
        ContentBlock::ToolResult {
            call_id: "c2".into(),
            content: MISSING_RESULT.into(),
            is_error: true,
        }
    );
}

#[test]
fn big_outputs_and_images_live_out_of_line() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    let big = "0123456789abcdef".repeat(64 * 1024);
    w.append_message(&Message::user_text("go")).unwrap();
    w.append_message(&assistant(vec![call("c1", "{}")]))
        .unwrap();
    let out = result("c1", &big);
    w.append_message(&out).unwrap();
    let image = Message {
        role: Role::User,
        content: vec![ContentBlock::Image {
            media_type: "image/png".into(),
            data: "iVBORw0KGgo".repeat(1000),
        }],
    };
    w.append_message(&image).unwrap();
    w.sync().unwrap();
    let id = w.id().to_string();
    let path = w.path().to_path_buf();
    drop(w);
    let text = std::fs::read_to_string(&path).unwrap();
    for line in text.lines() {
        assert!(line.len() < 600, "line of {} bytes", line.len());
    }
    let history = store.load(&id).unwrap().history();
    assert_eq!(history[2], out);
    assert_eq!(history[3], image);
}

#[test]
fn second_writer_is_refused_before_writing() {
    let (dir, store) = store();
    let (id, _) = write_session(&store, dir.path());
    let path = store.locate(&id).unwrap();
    let before = std::fs::read(&path).unwrap();
    let first = store.open_for_append(&id).unwrap();
    assert!(store.is_in_use(&id));
    let err = store.open_for_append(&id).unwrap_err();
    match &err {
        StoreError::Locked { id: locked, pid } => {
            assert_eq!(locked, &id);
            assert_eq!(*pid, Some(std::process::id()));
        }
        other => panic!("expected Locked, got {other:?}"),
    }
    assert!(
        err.to_string()
            .contains("in use by another wright process (pid")
    );
    assert!(matches!(store.remove(&id), Err(StoreError::Locked { .. })));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    drop(first);
    assert!(!store.is_in_use(&id));
    let mut again = store.open_for_append(&id).unwrap();
    again.append_message(&Message::user_text("ok")).unwrap();
}

#[test]
fn compaction_replaces_old_history_with_the_summary() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    turn(&mut w, 1);
    let kept = w.append_message(&Message::user_text("prompt 2")).unwrap();
    w.append_message(&assistant(vec![text("answer 2")]))
        .unwrap();
    w.append(&EntryBody::Compaction {
        summary: "summary of turn 1".into(),
        first_kept: Some(kept),
        tokens_before: Some(1000),
        messages_follow: false,
    })
    .unwrap();
    w.append_message(&Message::user_text("prompt 3")).unwrap();
    let id = w.id().to_string();
    drop(w);
    let loaded = store.load(&id).unwrap();
    let history = loaded.history();
    assert_eq!(loaded.into_history(), history, "moved out = copied");
    let texts: Vec<String> = history.iter().map(Message::text).collect();
    assert_eq!(
        texts,
        vec!["summary of turn 1", "prompt 2", "answer 2", "prompt 3"]
    );
}

#[test]
fn compaction_with_messages_following_restarts_history_there() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    turn(&mut w, 1);
    w.append(&EntryBody::Compaction {
        summary: "for display".into(),
        first_kept: None,
        tokens_before: Some(1000),
        messages_follow: true,
    })
    .unwrap();
    w.append_message(&Message::user_text("summary + prompt 1"))
        .unwrap();
    w.append_message(&assistant(vec![text("answer 1")]))
        .unwrap();
    let id = w.id().to_string();
    drop(w);
    let loaded = store.load(&id).unwrap();
    let history = loaded.history();
    assert_eq!(loaded.into_history(), history, "moved out = copied");
    let texts: Vec<String> = history.iter().map(Message::text).collect();
    assert_eq!(texts, vec!["summary + prompt 1", "answer 1"]);
}
