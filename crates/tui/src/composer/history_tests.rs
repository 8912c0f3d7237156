use super::*;

fn entries(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn round_trips_multi_line_entries_through_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/history.jsonl");
    let mut h = History::open(&path);
    assert!(h.entries().is_empty());
    h.push("first");
    h.push("two\nlines \"quoted\" \\ back");
    h.push("two\nlines \"quoted\" \\ back");
    h.push("   ");
    assert_eq!(h.last_error(), None);
    let again = History::open(&path);
    assert_eq!(
        again.entries(),
        entries(&["first", "two\nlines \"quoted\" \\ back"])
    );
}

#[test]
fn a_corrupt_file_keeps_the_readable_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.jsonl");
    let mut bytes = b"{\"text\":\"ok\"}\nnot json\n{\"other\":1}\n\"bare\"\n".to_vec();
    bytes.extend_from_slice(&[0xff, 0xfe, b'\n']);
    bytes.extend_from_slice(b"{\"text\":\"also ok\"}\n{\"text\":\"trunc");
    std::fs::write(&path, bytes).unwrap();
    let h = History::open(&path);
    assert_eq!(h.entries(), entries(&["ok", "also ok"]));
}

#[test]
fn a_directory_in_place_of_the_file_is_an_empty_history_and_a_save_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path());
    assert!(h.entries().is_empty());
    h.push("x");
    assert_eq!(h.entries(), entries(&["x"]));
    assert!(
        h.last_error()
            .unwrap()
            .contains("cannot save prompt history")
    );
}

#[test]
fn the_file_is_bounded_to_the_newest_entries() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.jsonl");
    let mut h = History::open(&path).with_limit(3);
    for i in 0..10 {
        h.push(&format!("p{i}"));
    }
    assert_eq!(h.entries(), entries(&["p7", "p8", "p9"]));
    let lines = std::fs::read_to_string(&path).unwrap().lines().count();
    assert!(lines <= 6, "{lines} lines");
    let again = History::open(&path).with_limit(3);
    assert_eq!(again.entries(), entries(&["p7", "p8", "p9"]));
}

#[test]
fn walking_keeps_the_draft_and_edits_to_entries() {
    let list = entries(&["a", "b"]);
    let mut nav = HistoryNav::default();
    assert_eq!(nav.newer(&list, "draft"), None);
    assert_eq!(nav.older(&list, "draft").as_deref(), Some("b"));
    assert_eq!(nav.older(&list, "b edited").as_deref(), Some("a"));
    assert_eq!(nav.older(&list, "a"), None);
    assert_eq!(nav.newer(&list, "a").as_deref(), Some("b edited"));
    assert_eq!(nav.newer(&list, "b edited").as_deref(), Some("draft"));
    assert_eq!(nav.newer(&list, "draft"), None);
    assert_eq!(nav.older(&[], ""), None);
}
