use std::os::unix::fs::symlink;

use super::*;

fn tmp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    (dir, root)
}

#[test]
fn plain_paths_and_home() {
    let (_d, root) = tmp();
    let r = resolve(&root, "./a/../b/c.txt", None).unwrap();
    assert_eq!(r.real, root.join("b/c.txt"));
    assert_eq!(r.written, root.join("b/c.txt"));
    let r = resolve(Path::new("/"), "~/x", Some(&root)).unwrap();
    assert_eq!(r.real, root.join("x"));
    assert_eq!(
        resolve_path(Path::new("/../..")).unwrap(),
        PathBuf::from("/")
    );
    assert_eq!(lexical(Path::new("/a/../../b")), PathBuf::from("/b"));
}

#[test]
fn dotdot_applies_after_symlinks() {
    let (_d, root) = tmp();
    std::fs::create_dir_all(root.join("ws")).unwrap();
    std::fs::create_dir_all(root.join("other/deep")).unwrap();
    symlink(root.join("other/deep"), root.join("ws/link")).unwrap();
    let r = resolve(&root.join("ws"), "link/../x", None).unwrap();
    assert_eq!(r.real, root.join("other/x"));
    assert_eq!(r.written, root.join("ws/x"));
}

#[test]
fn chains_of_dangling_links_are_followed_to_the_end() {
    let (_d, root) = tmp();
    std::fs::create_dir_all(root.join("ws")).unwrap();
    // ws/l1 -> l2 -> l3 (relative) -> ../out/new.txt (missing)
    symlink("l2", root.join("ws/l1")).unwrap();
    symlink(root.join("ws/l3"), root.join("ws/l2")).unwrap();
    symlink("../out/new.txt", root.join("ws/l3")).unwrap();
    let r = resolve(&root.join("ws"), "l1", None).unwrap();
    assert_eq!(r.real, root.join("out/new.txt"));
}

#[test]
fn loops_and_empty_links_are_errors() {
    let (_d, root) = tmp();
    symlink(root.join("b"), root.join("a")).unwrap();
    symlink(root.join("a"), root.join("b")).unwrap();
    assert!(matches!(
        resolve(&root, "a/x", None),
        Err(ResolveError::Loop(_))
    ));
    // Deep but finite chains resolve.
    for i in 0..30 {
        symlink(root.join(format!("c{}", i + 1)), root.join(format!("c{i}"))).unwrap();
    }
    std::fs::create_dir(root.join("c30")).unwrap();
    assert_eq!(
        resolve(&root, "c0/f", None).unwrap().real,
        root.join("c30/f")
    );
}

#[test]
fn missing_components_then_dotdot() {
    let (_d, root) = tmp();
    std::fs::create_dir_all(root.join("real")).unwrap();
    symlink(root.join("real"), root.join("l")).unwrap();
    let r = resolve(&root, "missing/../l/f", None).unwrap();
    assert_eq!(r.real, root.join("real/f"));
}
