//! Project root discovery.

use wright_config::{ConfigLoader, find_project_root};

#[test]
fn finds_nearest_marker_and_falls_back_to_cwd() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    let deep = root.join("a/b/c");
    std::fs::create_dir_all(&deep).unwrap();

    // No marker anywhere below tmp: cwd itself (assuming tmp has none above).
    let lonely = tempfile::tempdir().unwrap();
    let lonely_dir = lonely.path().join("x");
    std::fs::create_dir_all(&lonely_dir).unwrap();
    let found = find_project_root(&lonely_dir);
    assert!(
        found == lonely_dir || !found.starts_with(lonely.path()),
        "{found:?}"
    );

    std::fs::create_dir_all(root.join(".git")).unwrap();
    assert_eq!(find_project_root(&deep), root);
    assert_eq!(find_project_root(&root), root, "cwd itself counts");

    // A nearer .wright/ wins over the outer .git.
    std::fs::create_dir_all(root.join("a/.wright")).unwrap();
    assert_eq!(find_project_root(&deep), root.join("a"));
}

#[test]
fn git_file_counts_but_wright_file_does_not() {
    let tmp = tempfile::tempdir().unwrap();
    let outer = tmp.path().join("outer");
    let wt = outer.join("worktree");
    let inner = wt.join("src");
    std::fs::create_dir_all(&inner).unwrap();
    std::fs::create_dir_all(outer.join(".git")).unwrap();
    // Worktrees and submodules have a `.git` file.
    std::fs::write(wt.join(".git"), "gitdir: ../.git/worktrees/wt\n").unwrap();
    assert_eq!(find_project_root(&inner), wt);

    std::fs::remove_file(wt.join(".git")).unwrap();
    std::fs::write(wt.join(".wright"), "not a dir").unwrap();
    assert_eq!(find_project_root(&inner), outer);
}

#[test]
fn from_environment_uses_the_found_root() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::create_dir_all(root.join(".wright")).unwrap();
    std::fs::create_dir_all(root.join("sub")).unwrap();
    let loader = ConfigLoader::from_environment(&root.join("sub"));
    assert_eq!(loader.project_root, root);
    assert_eq!(loader.project_file(), root.join(".wright/config.toml"));
    assert_eq!(loader.local_file(), root.join(".wright/config.local.toml"));
    assert!(
        loader
            .env
            .keys()
            .all(|k| k.starts_with("WRIGHT_") || k.ends_with("_BASE_URL"))
    );
    assert!(!loader.env.contains_key("ANTHROPIC_API_KEY"));
}
