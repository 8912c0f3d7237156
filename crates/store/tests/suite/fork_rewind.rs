//! Forks (copy-by-reference) and rewinds (files and conversation branches).

use wright_protocol::Message;
use wright_store::{EntryBody, RestoreAction, RewindPoint, RewindScope};

use super::*;

#[test]
fn fork_resumes_with_identical_history_and_leaves_the_parent_alone() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    let mut first = turn(&mut w, 1);
    let after_turn_1 = w.leaf().cloned().unwrap();
    let second = turn(&mut w, 2);
    let parent_id = w.id().to_string();
    drop(w);
    let parent_path = store.locate(&parent_id).unwrap();
    let parent_bytes = std::fs::read(&parent_path).unwrap();

    // Fork at the leaf: same history, then diverges.
    let mut fork = store.fork(&parent_id, None).unwrap();
    let mut all = first.clone();
    all.extend(second);
    assert_eq!(fork.load().unwrap().history(), all);
    fork.append_message(&Message::user_text("fork prompt"))
        .unwrap();
    let fork_id = fork.id().to_string();
    drop(fork);
    let loaded = store.load(&fork_id).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    all.push(Message::user_text("fork prompt"));
    assert_eq!(loaded.history(), all);
    assert_eq!(
        loaded.clone().into_history(),
        all,
        "inherited entries moved out"
    );
    assert_eq!(loaded.header.parent.as_ref().unwrap().session, parent_id);

    // Fork at an earlier entry, then resume it.
    let early = store.fork(&parent_id, Some(&after_turn_1)).unwrap();
    let early_id = early.id().to_string();
    let mut early = early;
    early
        .append_message(&Message::user_text("other way"))
        .unwrap();
    drop(early);
    let (_w, loaded) = store.resume(&early_id).unwrap();
    first.push(Message::user_text("other way"));
    assert_eq!(loaded.history(), first);

    assert_eq!(std::fs::read(&parent_path).unwrap(), parent_bytes);
}

#[test]
fn fork_survives_a_removed_parent_with_a_warning() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    turn(&mut w, 1);
    let parent = w.id().to_string();
    drop(w);
    let mut fork = store.fork(&parent, None).unwrap();
    fork.append_message(&Message::user_text("mine")).unwrap();
    let fork_id = fork.id().to_string();
    drop(fork);
    store.remove(&parent).unwrap();
    let loaded = store.load(&fork_id).unwrap();
    assert_eq!(loaded.history(), vec![Message::user_text("mine")]);
    assert_eq!(loaded.warnings.len(), 1);
}

#[test]
fn rewind_restores_files_and_branches_the_conversation() {
    let (_dir, store) = store();
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("a.txt");
    let mut w = store.create(&meta(work.path())).unwrap();

    // Turn 1 creates the file.
    let turn1 = w.append_message(&Message::user_text("create a")).unwrap();
    w.append_message(&assistant(vec![call("c1", "{}")]))
        .unwrap();
    w.record_file_before_edit(&file).unwrap();
    std::fs::write(&file, "v1").unwrap();
    w.append_message(&result("c1", "written")).unwrap();
    w.append_message(&assistant(vec![text("created")])).unwrap();
    let after_turn_1 = w.load().unwrap().history();

    // Turn 2 edits it twice.
    let turn2 = w.append_message(&Message::user_text("edit a")).unwrap();
    w.append_message(&assistant(vec![call("c2", "{}")]))
        .unwrap();
    w.record_file_before_edit(&file).unwrap();
    std::fs::write(&file, "v2").unwrap();
    w.record_file_before_edit(&file).unwrap();
    std::fs::write(&file, "v3").unwrap();
    w.append_message(&result("c2", "edited")).unwrap();
    let turns = w.user_turns().unwrap();
    assert_eq!(turns.len(), 2);
    assert_eq!(turns[1].entry, turn2);
    assert_eq!(turns[1].text, "edit a");

    let outcome = w
        .rewind(
            &RewindPoint::BeforeTurn(turn2.clone()),
            RewindScope::FilesAndConversation,
        )
        .unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "v1");
    assert_eq!(outcome.files.len(), 1);
    assert_eq!(outcome.files[0].action, RestoreAction::Restored);
    assert_eq!(outcome.history, after_turn_1);

    w.append_message(&Message::user_text("different edit"))
        .unwrap();
    let loaded = w.load().unwrap();
    let mut expected = after_turn_1.clone();
    expected.push(Message::user_text("different edit"));
    assert_eq!(loaded.history(), expected);
    assert_eq!(
        loaded.clone().into_history(),
        expected,
        "only the branch moves out"
    );
    // Nothing was deleted: the old branch is still in the file.
    assert!(loaded.get(&turn2).is_some());
    assert!(
        loaded
            .entries
            .iter()
            .any(|e| matches!(e.body, EntryBody::Rewind { .. }))
    );

    // Rewinding before the first turn deletes the file it created.
    let files = w
        .rewind(
            &RewindPoint::BeforeTurn(turn1),
            RewindScope::FilesAndConversation,
        )
        .unwrap()
        .files;
    assert_eq!(files[0].action, RestoreAction::Deleted);
    assert!(!file.exists());
    assert!(w.load().unwrap().history().is_empty());
    let id = w.id().to_string();
    drop(w);
    // A reload sees the same branch.
    assert!(store.load(&id).unwrap().history().is_empty());
}

#[test]
fn rewind_files_to_an_entry() {
    let (_dir, store) = store();
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("b.txt");
    std::fs::write(&file, "orig").unwrap();
    let mut w = store.create(&meta(work.path())).unwrap();
    let p = w.append_message(&Message::user_text("go")).unwrap();
    w.record_file_before_edit(&file).unwrap();
    std::fs::write(&file, "changed").unwrap();
    let restored = w.rewind_files(&p).unwrap();
    assert_eq!(restored.len(), 1);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "orig");
    assert_eq!(w.load().unwrap().history(), vec![Message::user_text("go")]);
}

#[test]
fn conversation_only_rewind_leaves_files() {
    let (dir, store) = store();
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("c.txt");
    let mut w = store.create(&meta(dir.path())).unwrap();
    let t = w.append_message(&Message::user_text("go")).unwrap();
    w.record_file_before_edit(&file).unwrap();
    std::fs::write(&file, "x").unwrap();
    let out = w
        .rewind(&RewindPoint::BeforeTurn(t), RewindScope::ConversationOnly)
        .unwrap();
    assert!(out.files.is_empty());
    assert!(file.exists());
}

/// A program's uuid for a prompt is recorded after it, read back with the
/// user turns by a later writer (a resumed session), and is no message; a
/// prompt without one (as every prompt older wright wrote) has none.
#[test]
fn a_prompts_uuid_is_read_back_after_a_resume() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    w.append_message(&Message::user_text("first")).unwrap();
    w.append(&EntryBody::MessageUuid { uuid: "u-1".into() })
        .unwrap();
    w.append_message(&assistant(vec![text("one")])).unwrap();
    w.append_message(&Message::user_text("second")).unwrap();
    w.append_message(&assistant(vec![text("two")])).unwrap();
    // A uuid entry that follows no prompt names nothing.
    w.append(&EntryBody::MessageUuid { uuid: "u-x".into() })
        .unwrap();
    let id = w.id().to_string();
    drop(w);
    let (w, loaded) = store.resume(&id).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.history().len(), 4);
    let turns = w.user_turns().unwrap();
    let uuids: Vec<Option<&str>> = turns.iter().map(|t| t.uuid.as_deref()).collect();
    assert_eq!(uuids, [Some("u-1"), None]);
}

#[test]
fn a_fork_loop_is_reported_once_instead_of_loaded_round_and_round() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    turn(&mut w, 1);
    let parent = w.id().to_string();
    drop(w);
    let mut fork = store.fork(&parent, None).unwrap();
    fork.append_message(&Message::user_text("mine")).unwrap();
    let fork_id = fork.id().to_string();
    drop(fork);
    // A damaged or hostile parent whose header names the fork as its own parent.
    let parent_path = store.locate(&parent).unwrap();
    let text = std::fs::read_to_string(&parent_path).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(header).unwrap();
    header["parent"] = serde_json::json!({ "session": fork_id });
    std::fs::write(&parent_path, format!("{header}\n{rest}")).unwrap();

    let loaded = store.load(&fork_id).unwrap();
    let loops: Vec<_> = loaded
        .warnings
        .iter()
        .filter(|w| w.contains("fork loop"))
        .collect();
    assert_eq!(loops.len(), 1, "{:?}", loaded.warnings);
    assert!(loaded.warnings.len() <= 3, "{:?}", loaded.warnings);
}
