use super::*;

#[test]
fn a_head_beside_objects_or_refs_is_a_git_dir_in_any_order() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("evil");
    std::fs::create_dir_all(&d).unwrap();
    // Nothing there yet: a lone HEAD or a lone refs file is fine.
    assert!(!makes_git_dir(&d.join("HEAD")));
    assert!(!makes_git_dir(&d.join("refs/heads/main")));
    std::fs::write(d.join("HEAD"), "ref: refs/heads/main\n").unwrap();
    assert!(makes_git_dir(&d.join("refs/heads/main")));
    assert!(makes_git_dir(&d.join("objects/info/x")));
    assert!(makes_git_dir(&d.join("commondir")));
    // Other files beside a HEAD are not git's.
    assert!(!makes_git_dir(&d.join("config")));
    assert!(!makes_git_dir(&d.join("src/main.rs")));
    let e = dir.path().join("other");
    std::fs::create_dir_all(e.join("Objects")).unwrap();
    assert!(makes_git_dir(&e.join("head")), "case-insensitive");
    assert!(!makes_git_dir(&dir.path().join("plain/HEAD")));
}

#[test]
fn the_scan_finds_nested_git_entries_and_bare_dirs_but_not_the_roots_own() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git/objects")).unwrap();
    std::fs::create_dir_all(root.join("a/b/.git")).unwrap();
    std::fs::create_dir_all(root.join("c")).unwrap();
    std::fs::write(root.join("c/.GIT"), "gitdir: /x\n").unwrap();
    std::fs::create_dir_all(root.join("bare/refs")).unwrap();
    std::fs::write(root.join("bare/HEAD"), "ref: x\n").unwrap();
    let scan = scan_nested(root);
    assert!(scan.complete);
    let found: Vec<PathBuf> = scan.found.iter().map(|(p, _, _)| p.clone()).collect();
    assert_eq!(
        found,
        vec![
            root.join("a/b/.git"),
            root.join("bare"),
            root.join("c/.GIT")
        ]
    );
}

#[test]
fn submodules_are_read_from_gitmodules_and_stay_inside() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join(".gitmodules"),
        "[submodule \"s\"]\n\tpath = sub\n\turl = x\n[submodule \"o\"]\n\tpath = ../out\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join("sub/.git"), "gitdir: ../.git/modules/s\n").unwrap();
    std::fs::write(
        root.join("sub/.gitmodules"),
        "[submodule \"i\"]\npath = in\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("sub/in/.git")).unwrap();
    assert_eq!(
        submodule_dot_gits(root),
        vec![root.join("sub/.git"), root.join("sub/in/.git")]
    );
}
