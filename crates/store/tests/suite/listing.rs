//! list, search, export, remove, resolve_id, latest_for_project.

use wright_protocol::Message;
use wright_store::{ExportFormat, SearchOptions, StoreError};

use super::*;

#[test]
fn list_summarizes_sessions_per_project() {
    let (dir, store) = store();
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let mut w = store.create(&meta(a.path())).unwrap();
    w.append_message(&Message::user_text(format!(
        "  \nfix the login bug {}",
        "x".repeat(100)
    )))
    .unwrap();
    turn(&mut w, 2);
    let id_a = w.id().to_string();
    drop(w);
    let mut w = store.create(&meta(b.path())).unwrap();
    turn(&mut w, 1);
    drop(w);

    let rows = store.list(Some(a.path()));
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row.id, id_a);
    assert!(row.title.starts_with("fix the login bug"));
    assert_eq!(row.title.chars().count(), 80);
    assert_eq!(row.turns, 2);
    assert!((row.cost_usd.unwrap() - 0.01).abs() < 1e-9);
    assert_eq!(row.cwd, std::fs::canonicalize(a.path()).unwrap());
    assert_eq!(store.list(None).len(), 2);
    assert_eq!(store.latest_for_project(a.path()), Some(id_a));
    assert_eq!(store.latest_for_project(dir.path()), None);
}

#[test]
fn search_finds_text_case_insensitively() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    w.append_message(&Message::user_text("Where is the \"FooBar\" config?"))
        .unwrap();
    let entry = w
        .append_message(&result("c9", "line one\nthe foobar lives in src/cfg.rs"))
        .unwrap();
    let id = w.id().to_string();
    drop(w);
    let hits = store.search("foobar", &SearchOptions::default()).unwrap();
    assert_eq!(hits.len(), 2);
    assert!(hits.iter().all(|h| h.session == id));
    assert!(
        hits.iter()
            .any(|h| h.entry == entry && h.snippet.contains("src/cfg.rs"))
    );
    let quoted = store
        .search("\"foobar\"", &SearchOptions::default())
        .unwrap();
    assert_eq!(quoted.len(), 1);
    let limited = store
        .search(
            "foobar",
            &SearchOptions {
                limit: Some(1),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(limited.len(), 1);
    assert!(
        store
            .search("nowhere", &SearchOptions::default())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn export_markdown_and_json() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    turn(&mut w, 1);
    w.append_message(&assistant(vec![call("big", &"y".repeat(10_000))]))
        .unwrap();
    let id = w.id().to_string();
    drop(w);
    let md = store.export(&id, ExportFormat::Markdown).unwrap();
    assert!(md.contains("## User\n\nprompt 1"));
    assert!(md.contains("### Tool call: `Bash` (call-1)"));
    assert!(md.contains("### Tool result (call-1)"));
    assert!(md.contains("answer 1"));
    assert!(md.contains("_usage (claude-test): 10 in"));
    assert!(md.contains("[truncated: 10000 bytes in all]"));
    let json: serde_json::Value =
        serde_json::from_str(&store.export(&id, ExportFormat::Json).unwrap()).unwrap();
    assert_eq!(json["session"]["id"], id.as_str());
    assert_eq!(json["messages"].as_array().unwrap().len(), 5);
    assert_eq!(json["usage"]["input_tokens"], 10);
}

#[test]
fn resolve_id_by_prefix() {
    let (dir, store) = store();
    let mut ids = Vec::new();
    for n in 0..3 {
        let mut w = store.create(&meta(dir.path())).unwrap();
        turn(&mut w, n);
        ids.push(w.id().to_string());
    }
    // UUIDv7s made in the same millisecond share a long prefix.
    let unique = &ids[2];
    let found = store.resolve_id(unique, Some(dir.path())).unwrap();
    assert_eq!(&found.id, unique);
    let common = ids[..2]
        .iter()
        .map(|other| {
            other
                .chars()
                .zip(unique.chars())
                .take_while(|(a, b)| a == b)
                .count()
        })
        .max()
        .unwrap();
    let short: String = unique.chars().take(common + 1).collect();
    assert_eq!(&store.resolve_id(&short, None).unwrap().id, unique);
    match store.resolve_id(&ids[0][..4], None) {
        Err(StoreError::Ambiguous { candidates, .. }) => assert_eq!(candidates.len(), 3),
        other => panic!("expected Ambiguous, got {other:?}"),
    }
    match store.resolve_id("ffffffff", Some(dir.path())) {
        Err(e @ StoreError::NotFound { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains("no session matches 'ffffffff'"), "{msg}");
            assert!(msg.contains(&ids[0]), "{msg}");
        }
        other => panic!("expected NotFound, got {other:?}"),
    }
    // Found from another project too.
    let elsewhere = tempfile::tempdir().unwrap();
    assert_eq!(
        &store.resolve_id(unique, Some(elsewhere.path())).unwrap().id,
        unique
    );
}

#[test]
fn remove_deletes_file_blobs_and_lock() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    w.append_message(&result("c", &"z".repeat(200_000)))
        .unwrap();
    let id = w.id().to_string();
    let path = w.path().to_path_buf();
    drop(w);
    assert!(path.with_extension("blobs").is_dir());
    store.remove(&id).unwrap();
    assert!(!path.exists());
    assert!(!path.with_extension("blobs").exists());
    assert!(!path.with_extension("lock").exists());
    assert!(matches!(store.load(&id), Err(StoreError::NotFound { .. })));
}
