//! Lines above the session line cap: readers skip them and keep every
//! entry around them; the writer never produces one.

use std::io::Write;

use wright_protocol::{ContentBlock, Message, Role};
use wright_store::{EntryBody, ExportFormat, MAX_LINE, SearchOptions, StoreError, export_loaded};

use super::*;

/// A well-formed message line of more than `MAX_LINE` bytes.
fn huge_line(id: &str, parent: &str) -> String {
    format!(
        r#"{{"id":"{id}","parent_id":"{parent}","ts":"t","type":"message","message":{{"role":"user","content":[{{"type":"text","text":"{}"}}]}}}}"#,
        "x".repeat(MAX_LINE + 1000)
    )
}

#[test]
fn a_huge_line_is_skipped_and_the_entries_around_it_kept() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    let mut expected = turn(&mut w, 1);
    let leaf = w.leaf().cloned().unwrap();
    let id = w.id().to_string();
    let path = w.path().to_path_buf();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    writeln!(f, "{}", huge_line("huge", &leaf)).unwrap();
    // The next entry follows the huge one, which will be missing.
    writeln!(
        f,
        r#"{{"id":"after","parent_id":"huge","ts":"t","type":"message","message":{{"role":"user","content":[{{"type":"text","text":"after the huge line"}}]}}}}"#
    )
    .unwrap();
    drop(f);
    drop(w);
    expected.push(Message::user_text("after the huge line"));

    let loaded = store.load(&id).unwrap();
    assert_eq!(loaded.history(), expected);
    assert!(
        loaded.warnings.iter().any(
            |w| w.contains("line 7: skipped an entry of 16.8 MB") && w.contains("16 MiB limit")
        ),
        "{:?}",
        loaded.warnings
    );
    // Resuming appends after what was kept.
    let (mut w, resumed) = store.resume(&id).unwrap();
    assert_eq!(resumed.history(), expected);
    expected.extend(turn(&mut w, 2));
    drop(w);
    let loaded = store.load(&id).unwrap();
    assert_eq!(loaded.history(), expected);

    // Listing, search and export read past it too.
    let rows = store.list(None);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].title, "prompt 1");
    let hits = store.search("answer 2", &SearchOptions::default()).unwrap();
    assert_eq!(hits.len(), 1, "{hits:?}");
    let exported = export_loaded(&loaded, ExportFormat::Markdown).unwrap();
    assert!(exported.contains("prompt 1") && exported.contains("answer 2"));
}

#[test]
fn a_huge_torn_last_line_is_ended_and_later_entries_load() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    let mut expected = turn(&mut w, 1);
    let id = w.id().to_string();
    let path = w.path().to_path_buf();
    drop(w);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    // No newline: the tail mender must not cut (or read) all of it.
    f.write_all(huge_line("huge", "x").as_bytes()).unwrap();
    drop(f);
    let (mut w, loaded) = store.resume(&id).unwrap();
    assert_eq!(loaded.history(), expected);
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert!(loaded.warnings[0].contains("skipped an entry"));
    expected.extend(turn(&mut w, 2));
    drop(w);
    assert_eq!(store.load(&id).unwrap().history(), expected);
}

#[test]
fn the_writer_records_a_stand_in_for_a_message_above_the_cap() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    let expected = turn(&mut w, 1);
    // Each block stays inline (below the blob threshold); together they
    // are above the cap.
    let block = "y".repeat(wright_store::INLINE_MAX - 10);
    let blocks = MAX_LINE / block.len() + 2;
    let big = Message {
        role: Role::Assistant,
        content: std::iter::repeat_with(|| ContentBlock::Text {
            text: block.clone(),
        })
        .take(blocks)
        .chain([call("c9", r#"{"command":"ls"}"#)])
        .collect(),
    };
    w.append_message(&big).unwrap();
    w.append_message(&result("c9", "done")).unwrap();
    let id = w.id().to_string();
    let path = w.path().to_path_buf();
    drop(w);
    assert!(std::fs::metadata(&path).unwrap().len() < MAX_LINE as u64);
    let loaded = store.load(&id).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let history = loaded.history();
    assert_valid(&history);
    assert_eq!(history.len(), expected.len() + 2);
    let stand_in = &history[expected.len()];
    assert!(stand_in.text().contains("was not recorded"), "{stand_in:?}");
    assert!(matches!(
        &stand_in.content[1],
        ContentBlock::ToolCall { id, arguments, .. } if id == "c9" && arguments == "{}"
    ));
    assert_eq!(&history[..expected.len()], &expected[..]);
}

#[test]
fn the_writer_refuses_another_entry_above_the_cap() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    let expected = turn(&mut w, 1);
    let err = w
        .append(&EntryBody::Label {
            label: "z".repeat(MAX_LINE + 1),
            target: None,
        })
        .unwrap_err();
    assert!(matches!(err, StoreError::TooLarge { .. }), "{err}");
    assert!(err.to_string().contains("16 MiB limit"), "{err}");
    let id = w.id().to_string();
    drop(w);
    let loaded = store.load(&id).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.history(), expected);
}
