use super::*;

fn note(name: &str, scope: MemoryScope) -> NewNote {
    NewNote {
        name: name.to_owned(),
        description: "Tabs: never spaces, \"really\"".to_owned(),
        kind: MemoryType::Feedback,
        body: "Use tabs in Makefiles.".to_owned(),
        scope,
    }
}

#[test]
fn add_list_show_remove() {
    let dir = tempfile::tempdir().unwrap();
    let store = MemoryStore::new(dir.path().join("project"), Some(dir.path().join("user")));
    let path = store
        .add(&note("Indent Style", MemoryScope::Project))
        .unwrap();
    assert_eq!(path, dir.path().join("project/indent-style.md"));
    store.add(&note("who", MemoryScope::User)).unwrap();

    let (notes, warnings) = store.list();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(notes.len(), 2);
    assert_eq!(notes[0].scope, MemoryScope::Project);
    assert_eq!(notes[0].description, "Tabs: never spaces, \"really\"");
    assert_eq!(notes[0].kind, MemoryType::Feedback);
    assert_eq!(notes[0].body, "Use tabs in Makefiles.");
    assert_eq!(notes[1].scope, MemoryScope::User);

    assert_eq!(store.show("indent style").unwrap().name, "Indent Style");
    assert_eq!(store.show("indent-style").unwrap().name, "Indent Style");
    assert!(matches!(store.show("nope"), Err(MemoryError::NotFound(_))));

    let index = render_index(&notes).unwrap();
    assert!(index.contains("- Indent Style [feedback]: Tabs: never spaces, \"really\" ("));
    assert!(!index.contains("Use tabs in Makefiles"));

    assert_eq!(store.remove("Indent Style").unwrap(), path);
    assert!(!path.exists());
    assert_eq!(store.list().0.len(), 1);
}

#[test]
fn add_refuses_duplicates_bad_names_and_missing_user_store() {
    let dir = tempfile::tempdir().unwrap();
    let store = MemoryStore::new(dir.path().to_path_buf(), None);
    store.add(&note("a", MemoryScope::Project)).unwrap();
    assert!(matches!(
        store.add(&note("A", MemoryScope::Project)),
        Err(MemoryError::Exists { .. })
    ));
    assert!(matches!(
        store.add(&note("!!", MemoryScope::Project)),
        Err(MemoryError::BadName(_))
    ));
    assert!(matches!(
        store.add(&note("b", MemoryScope::User)),
        Err(MemoryError::NoUserStore)
    ));
}

#[test]
fn invalid_notes_warn_and_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.md"),
        "---\nname: x\ntype: opinion\ndescription: d\n---\n",
    )
    .unwrap();
    let store = MemoryStore::new(dir.path().to_path_buf(), None);
    let (notes, warnings) = store.list();
    assert!(notes.is_empty());
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].message.contains("bad.md"), "{}", warnings[0]);
}

#[test]
fn slugs() {
    assert_eq!(slug("Hello, World!").as_deref(), Some("hello-world"));
    assert_eq!(slug("  --x--  ").as_deref(), Some("x"));
    assert_eq!(slug("日本"), None);
    assert_eq!(slug(&"a".repeat(100)).map(|s| s.len()), Some(64));
}

#[cfg(unix)]
#[test]
fn notes_are_private_and_the_user_store_is_tightened() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = tempfile::tempdir().unwrap();
    let user = dir.path().join("user");
    std::fs::create_dir(&user).unwrap();
    std::fs::set_permissions(&user, std::fs::Permissions::from_mode(0o755)).unwrap();
    let store = MemoryStore::new(dir.path().join("project"), Some(user.clone()));
    let project_note = store.add(&note("a", MemoryScope::Project)).unwrap();
    let user_note = store.add(&note("b", MemoryScope::User)).unwrap();
    assert_eq!(mode(&project_note), 0o600);
    assert_eq!(mode(&user_note), 0o600);
    assert_eq!(mode(&dir.path().join("project")), 0o700);
    assert_eq!(mode(&user), 0o700);
}
