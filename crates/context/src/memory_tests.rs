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

#[test]
fn a_project_note_linked_outside_or_to_a_secret_is_skipped() {
    let base = tempfile::tempdir().unwrap();
    let root = base.path().join("project");
    let memory = root.join(".wright/memory");
    std::fs::create_dir_all(&memory).unwrap();
    let outside = base.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let front = "---\nname: leaked\ndescription: OUTSIDE-FRONTMATTER\ntype: user\n---\nbody\n";
    std::fs::write(outside.join("n.md"), front).unwrap();
    std::fs::write(root.join(".env"), front.replace("OUTSIDE", "SECRET")).unwrap();
    std::os::unix::fs::symlink(outside.join("n.md"), memory.join("out.md")).unwrap();
    std::os::unix::fs::symlink(root.join(".env"), memory.join("env.md")).unwrap();
    // A note linked to another file inside the project is fine.
    std::fs::write(
        root.join("doc.md"),
        "---\nname: inside\ndescription: in\ntype: project\n---\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(root.join("doc.md"), memory.join("in.md")).unwrap();
    // The user's own store may link anywhere.
    let user = base.path().join("user");
    std::fs::create_dir_all(&user).unwrap();
    std::os::unix::fs::symlink(outside.join("n.md"), user.join("mine.md")).unwrap();

    let store = MemoryStore::new(memory.clone(), None);
    let (notes, warnings) = store.list();
    let names: Vec<&str> = notes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["inside"]);
    let text: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    assert_eq!(text.len(), 2, "{text:?}");
    assert!(
        text.iter()
            .any(|w| w.contains("out.md") && w.contains("outside the project")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|w| w.contains("env.md") && w.contains("secret file")),
        "{text:?}"
    );
    assert!(!text.iter().any(|w| w.contains("FRONTMATTER")));

    // The whole memory directory linked outside.
    std::fs::remove_dir_all(&memory).unwrap();
    std::os::unix::fs::symlink(&outside, &memory).unwrap();
    let (notes, warnings) = store.list();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(warnings.len(), 1);

    let store = MemoryStore::new(root.join("none"), Some(user));
    let (notes, _) = store.list();
    assert_eq!(notes.len(), 1, "the user's own link is kept");
}
